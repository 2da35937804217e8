//! Serve stage, building: the site into a fresh temporary directory, on
//! the builder thread, after each relevant batch of changes.
//!
//! Each build is a full load → validate → render → search index through
//! the library's public stages (the same sequence as `site::build`),
//! written by `site::output` into a new directory that only the server
//! reads; it never touches the site's `public/`. Correct first: nothing is
//! patched in place, so a deleted or renamed page is simply absent from the
//! next build. The costly theme state (Tera, Fluent, static files) is kept
//! in a [`Renderer`] until a theme file or `book.toml` changes. This module
//! knows nothing about HTTP beyond publishing a [`Snapshot`].

use super::http::{self, Event, Shared, Snapshot};
use super::watch::{self, Change, Layout, Watches};
use crate::check::{self, Report};
use crate::config::Config;
use crate::error::{Diagnostic, Error};
use crate::render::Renderer;
use crate::validate::Mode;
use notify_debouncer_full::DebounceEventResult;
use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// After a relevant batch, wait this long for more before building: the
/// debouncer releases each path on its own clock, so one atomic save can
/// arrive as two batches a tick apart.
const SETTLE: Duration = Duration::from_millis(80);

/// But never postpone a build longer than this while changes keep coming.
const MAX_SETTLE: Duration = Duration::from_millis(1000);

/// How many good builds stay on disk: the current one and the one before,
/// which requests that began before the swap may still be reading.
const KEEP: usize = 2;

/// A message for the builder thread.
#[derive(Debug)]
pub(crate) enum Msg {
    /// A debounced batch from the watcher.
    Events(DebounceEventResult),
    /// Stop after the build in progress.
    Stop,
}

/// What one build attempt gave.
#[derive(Debug)]
pub(crate) enum Outcome {
    /// A complete build in `dir`.
    Built {
        dir: PathBuf,
        files: usize,
        warnings: Vec<Diagnostic>,
    },
    /// The diagnostics text, as `kansoku check` prints it.
    Failed { text: String },
}

/// Builds the site again and again, each time into a new directory.
#[derive(Debug)]
pub(crate) struct Builder {
    root: PathBuf,
    work: PathBuf,
    renderer: Option<Renderer>,
    generation: u64,
    kept: VecDeque<PathBuf>,
}

impl Builder {
    /// A builder for the site at `root`, writing under `work`.
    pub(crate) fn new(root: PathBuf, work: PathBuf) -> Builder {
        Builder {
            root,
            work,
            renderer: None,
            generation: 0,
            kept: VecDeque::new(),
        }
    }

    /// One build attempt. `Change::Full` reloads the theme first.
    pub(crate) fn build(&mut self, change: Change) -> Outcome {
        if change == Change::Full {
            self.renderer = None;
        }
        match self.try_build() {
            Ok((dir, files, warnings)) => {
                self.kept.push_back(dir.clone());
                while self.kept.len() > KEEP {
                    if let Some(old) = self.kept.pop_front() {
                        // Best effort: the whole work dir goes at shutdown.
                        let _ = std::fs::remove_dir_all(old);
                    }
                }
                Outcome::Built {
                    dir,
                    files,
                    warnings,
                }
            }
            Err(e) => Outcome::Failed {
                text: failure_text(e),
            },
        }
    }

    fn try_build(&mut self) -> Result<(PathBuf, usize, Vec<Diagnostic>), Error> {
        let (mut site, warnings) = crate::site::load(&self.root, Mode::Build)?;
        // Served at the root of the dev server whatever `site-url` says,
        // as Zola's `serve` replaces `base_url`.
        site.config.base_path = "/".to_owned();
        let renderer = match self.renderer.take() {
            Some(r) => r,
            None => Renderer::new(&self.root)?.map_err(Error::Content)?,
        };
        let rendered = renderer.render(&site).map_err(Error::Content);
        self.renderer = Some(renderer);
        let mut files = rendered?;
        // The rest of `site::build`'s sequence: search reads the rendered
        // pages, so the preview's search finds what the preview shows.
        files.extend(crate::search::index(&site, &files)?);
        self.generation += 1;
        let dir = self.work.join(format!("build-{}", self.generation));
        crate::site::output::write_atomic(&files, &dir)?;
        Ok((dir, files.len(), warnings))
    }
}

/// The text shown for a failed build: content problems exactly as
/// `kansoku check` formats them, anything else as `error: …`.
pub(crate) fn failure_text(e: Error) -> String {
    match e {
        Error::Content(diagnostics) => check::format(&Report { diagnostics }, check::Format::Human),
        other => format!("error: {other}\n"),
    }
}

/// Everything the builder thread owns.
pub(crate) struct Worker {
    pub(crate) builder: Builder,
    pub(crate) shared: Arc<Shared>,
    pub(crate) layout: Layout,
    pub(crate) instance: String,
    pub(crate) quiet: bool,
    /// The warnings last printed.
    pub(crate) last_warnings: Vec<Diagnostic>,
}

impl Worker {
    fn say(&self, line: &str) {
        if !self.quiet && !line.is_empty() {
            eprintln!("{line}");
        }
    }

    fn shown(&self, path: &Path) -> String {
        path.strip_prefix(&self.layout.root)
            .unwrap_or(path)
            .display()
            .to_string()
    }

    /// Builds and makes the result visible: a good build replaces the one
    /// served and reloads open pages; a failed one keeps it and sends the
    /// overlay.
    fn build_and_publish(&mut self, change: Change, first: bool, paths: &[PathBuf]) {
        let start = Instant::now();
        let outcome = self.builder.build(change);
        let ms = start.elapsed().as_millis();
        let cause = match paths {
            [] => String::new(),
            [one] => format!(" after a change to {}", self.shown(one)),
            [one, rest @ ..] => format!(
                " after changes to {} and {} more",
                self.shown(one),
                rest.len()
            ),
        };
        if !first {
            self.shared.rebuilds.fetch_add(1, Ordering::SeqCst);
        }
        match outcome {
            Outcome::Built {
                dir,
                files,
                warnings,
            } => {
                // Warnings as `kansoku build` shows them, and only when they
                // change: the same list after every save is noise.
                if warnings != self.last_warnings {
                    self.say(check::brief(&warnings, 3).trim_end());
                    self.last_warnings = warnings;
                }
                let verb = if first { "built" } else { "rebuilt" };
                self.say(&format!("{verb} {files} files in {ms} ms{cause}"));
                self.shared.set(Snapshot {
                    dir: Some(dir),
                    token: format!("{}-{}", self.instance, self.builder.generation).into(),
                    overlay: None,
                });
                // No open pages is not an error.
                let _ = self.shared.events.send(Event::Reload);
            }
            Outcome::Failed { text } => {
                self.say(text.trim_end());
                self.say(&format!(
                    "build failed in {ms} ms{cause}; {}",
                    if first {
                        "pages show the errors until it builds"
                    } else {
                        "still serving the last good build"
                    }
                ));
                let overlay: Arc<str> = http::overlay(&text).into();
                let mut snap = self.shared.snapshot();
                snap.overlay = Some(overlay.clone());
                self.shared.set(snap);
                let _ = self.shared.events.send(Event::Error(overlay));
            }
        }
    }

    /// Re-reads where the evidence and build directories are (a changed
    /// `book.toml` may move them) and follows with the watches.
    fn refresh_watches(
        &mut self,
        debouncer: &mut watch::Debouncer,
        watches: &mut Watches,
        touched: &[PathBuf],
    ) {
        if let Ok(config) = Config::load(&self.layout.root) {
            self.layout.evidence_dir = config.evidence_dir;
            self.layout.build_dir = config.build_dir;
        }
        for problem in watches.sync(debouncer, &self.layout, touched) {
            self.say(&format!("warning: {problem}"));
        }
    }
}

/// The builder thread: starts the watcher, builds once, reports ready
/// (or why it could not watch), then rebuilds per batch until told to stop.
pub(crate) fn run(
    mut worker: Worker,
    tx: Sender<Msg>,
    rx: Receiver<Msg>,
    ready: tokio::sync::oneshot::Sender<Result<(), String>>,
) {
    let mut debouncer = match watch::watcher(move |batch| {
        // The receiver is gone only when the server is stopping.
        let _ = tx.send(Msg::Events(batch));
    }) {
        Ok(d) => d,
        Err(e) => {
            let _ = ready.send(Err(e.to_string()));
            return;
        }
    };
    let mut watches = Watches::default();
    worker.refresh_watches(&mut debouncer, &mut watches, &[]);
    worker.build_and_publish(Change::Full, true, &[]);
    if ready.send(Ok(())).is_err() {
        return;
    }
    while let Ok(Msg::Events(batch)) = rx.recv() {
        let (mut change, mut paths) = watch::classify_batch(&worker.layout, &batch);
        if change == Change::Ignore {
            continue;
        }
        let deadline = Instant::now() + MAX_SETTLE;
        while Instant::now() < deadline {
            match rx.recv_timeout(SETTLE) {
                Ok(Msg::Events(more)) => {
                    let (c, p) = watch::classify_batch(&worker.layout, &more);
                    change = change.max(c);
                    paths.extend(p);
                }
                Ok(Msg::Stop) | Err(RecvTimeoutError::Disconnected) => return,
                Err(RecvTimeoutError::Timeout) => break,
            }
        }
        paths.sort();
        paths.dedup();
        // Watch first, so edits made while building are not missed.
        worker.refresh_watches(&mut debouncer, &mut watches, &paths);
        worker.build_and_publish(change, false, &paths);
    }
}
