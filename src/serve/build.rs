//! Serve stage, building: the site into the server's temporary directory,
//! on the builder thread, after each relevant batch of changes.
//!
//! Each build runs the pipeline `kansoku build` runs, through [`Tree`]:
//! its memo tables make a rebuild parse and render only what changed, and
//! only files whose bytes changed are written. It never touches the
//! site's `public/`. The search bundle is rebuilt after the reload is
//! sent. This module knows nothing about HTTP beyond publishing a
//! [`Snapshot`].

use super::http::{Event, Shared, Snapshot};
use super::tree::{SearchJob, Stats, Tree};
use super::watch::{self, Change, Layout, Watches};
use crate::check;
use crate::config::Config;
use crate::error::{Diagnostic, Error};
use notify_debouncer_full::DebounceEventResult;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// After a relevant batch, wait this long for more before building: the
/// debouncer releases each path on its own clock, so one atomic save can
/// arrive as two batches a tick (a quarter of `DEBOUNCE`) apart.
const SETTLE: Duration = Duration::from_millis(10);

/// But never postpone a build longer than this while changes keep coming.
const MAX_SETTLE: Duration = Duration::from_millis(1000);

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
        stats: Stats,
    },
    /// The diagnostics text, as `kansoku check` prints it, and the
    /// overlay showing them.
    Failed { text: String, overlay: String },
}

/// Builds the site again and again into one directory, rendering only what
/// each change touched (see `tree.rs`).
pub(crate) struct Builder {
    root: PathBuf,
    pub(crate) generation: u64,
    state: Tree,
    /// The indexing thread, started with the first good build.
    search: Option<SearchThread>,
    quiet: bool,
}

/// Puts the calling thread, and the threads it starts from now on, at the
/// lowest scheduling priority (nice 19): indexing is the preview's
/// background work, so the builder's threads, rebuilding after the next
/// save, take the cores first. Linux gives each thread its own nice value;
/// on other systems this would lower the whole server, so it does nothing
/// there. Failing to lower it only costs speed.
fn lower_priority() {
    #[cfg(target_os = "linux")]
    let _ = rustix::process::setpriority_process(Some(rustix::thread::gettid()), 19);
}

/// Indexes the served tree for search on its own thread, so the builder
/// can take the next edit at once; when jobs pile up only the newest runs.
struct SearchThread {
    jobs: Sender<SearchJob>,
    /// Set when the server stops: a job that finishes after that writes
    /// nothing (the served directory is about to be removed). Held while a
    /// job writes, so stopping waits for a write, never for an index.
    stopped: Arc<std::sync::Mutex<bool>>,
    _thread: std::thread::JoinHandle<()>,
}

impl SearchThread {
    fn start(quiet: bool) -> std::io::Result<SearchThread> {
        let (jobs, rx) = std::sync::mpsc::channel::<SearchJob>();
        let stopped = Arc::new(std::sync::Mutex::new(false));
        let gate = stopped.clone();
        let thread = std::thread::Builder::new()
            .name("kansoku-search".into())
            .spawn(move || {
                lower_priority();
                let mut written = std::collections::BTreeSet::new();
                let mut memo = crate::search::Memo::default();
                while let Ok(mut job) = rx.recv() {
                    while let Ok(newer) = rx.try_recv() {
                        job = newer;
                    }
                    let start = Instant::now();
                    let result = job.run(&gate, &mut written, &mut memo);
                    let stopped = *gate
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner);
                    if quiet || stopped {
                        continue;
                    }
                    match result {
                        Ok(()) => {
                            eprintln!("search index updated in {} ms", start.elapsed().as_millis())
                        }
                        Err(e) => eprintln!("search index not updated: {e}"),
                    }
                }
            })?;
        Ok(SearchThread {
            jobs,
            stopped,
            _thread: thread,
        })
    }
}

impl Drop for SearchThread {
    fn drop(&mut self) {
        *self
            .stopped
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = true;
    }
}

impl Builder {
    /// A builder for the site at `root`, writing under `work`, served at
    /// `url`.
    pub(crate) fn new(root: PathBuf, work: PathBuf, url: String) -> Builder {
        let out = work.join("site");
        Builder {
            state: Tree::new(root.clone(), out, Some(url)),
            root,
            generation: 0,
            search: None,
            quiet: false,
        }
    }

    /// One build attempt after `change`: `Change::Full` (the first
    /// build, the theme, `book.toml`, an unclear event) also clears from
    /// the served tree what the builder did not write.
    pub(crate) fn build(&mut self, change: Change, paths: &[PathBuf]) -> Outcome {
        // A full change (the theme, book.toml, a watcher that lost track)
        // reads every source again; otherwise only the reported ones.
        self.state
            .changed((change != Change::Full).then_some(paths));
        match self.state.build(change == Change::Full) {
            Ok((stats, warnings)) => {
                self.generation += 1;
                Outcome::Built {
                    dir: self.state.out().to_path_buf(),
                    files: stats.total,
                    warnings,
                    stats,
                }
            }
            Err(e) => {
                let (text, overlay) = super::overlay::failure(&self.root, e, &self.accept());
                Outcome::Failed { text, overlay }
            }
        }
    }

    /// The site's `[[check.accept]]` entries as `book.toml` says now: for
    /// a build that failed, which loaded no site to take them from.
    pub(crate) fn accept(&self) -> Vec<crate::config::Acceptance> {
        Config::load(&self.root)
            .map(|c| c.accept)
            .unwrap_or_default()
    }

    /// The `[[check.accept]]` entries of the site the last good build
    /// loaded, which its warnings came from.
    fn built_accept(&self) -> Vec<crate::config::Acceptance> {
        self.state
            .site()
            .map(|s| s.config.accept.clone())
            .unwrap_or_default()
    }

    /// The summary line `kansoku build` would print for the last build,
    /// saying `verb` of it.
    pub(crate) fn summary(&self, elapsed: Duration, verb: &str) -> String {
        let Some(site) = self.state.site() else {
            return String::new();
        };
        crate::site::BuildReport {
            pages: site.content.pages.len(),
            drafts: site.content.drafts.len(),
            drafts_evidence: site.evidence.left_out.len(),
            claims: site.content.claims_per_class(),
            evidence_files: site.evidence.files.len(),
            files_written: 0,
            out_dir: self.state.out().to_path_buf(),
            warnings: Vec::new(),
            elapsed,
            // Not in the summary line.
            units: 0,
            rendered: Default::default(),
            search: Vec::new(),
            accept: Vec::new(),
        }
        .summary_as(verb)
    }

    /// Prints nothing from the indexing thread.
    pub(crate) fn quiet(&mut self, quiet: bool) {
        self.quiet = quiet;
    }

    /// Records every file written into `served`, the list the HTTP side
    /// serves from.
    pub(crate) fn record_into(&mut self, served: Arc<super::http::Served>) {
        self.state.record_into(served);
    }

    /// Starts bringing the search bundle up to date with the last build,
    /// on the indexing thread: after the reload, because indexing costs
    /// more than rendering one page. The rest of `site::build`'s sequence,
    /// so the preview's search finds what the preview shows.
    pub(crate) fn index_search(&mut self) -> Result<(), Error> {
        let Some(job) = self.state.search_job() else {
            return Ok(());
        };
        if self.search.is_none() {
            let thread =
                SearchThread::start(self.quiet).map_err(|e| Error::io(self.state.out(), e))?;
            self.search = Some(thread);
        }
        if let Some(t) = &self.search {
            // Gone only if the thread died; the next build starts another.
            if t.jobs.send(job).is_err() {
                self.search = None;
            }
        }
        Ok(())
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
        let outcome = self.builder.build(change, paths);
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
                stats,
            } => {
                // Warnings as `kansoku build` shows them, and only when they
                // change: the same list after every save is noise.
                if warnings != self.last_warnings {
                    let shown =
                        check::Report::triaged(&self.builder.built_accept(), warnings.clone());
                    let mut text = check::brief(&shown.diagnostics, 3);
                    for a in &shown.accepted {
                        text.push_str(&check::accepted_line(a));
                        text.push('\n');
                    }
                    self.say(text.trim_end());
                    self.last_warnings = warnings;
                }
                // The line `kansoku build` prints, then what this rebuild
                // had to write.
                let verb = if first { "built" } else { "rebuilt" };
                let summary = self.builder.summary(start.elapsed(), verb);
                let what = if stats.full {
                    format!("{files} files written")
                } else {
                    format!(
                        "{} of {files} files written ({} units)",
                        stats.written + stats.removed,
                        stats.units
                    )
                };
                self.say(&format!("{summary} ({what}){cause}"));
                self.shared.set(Snapshot {
                    dir: Some(dir),
                    token: format!("{}-{}", self.instance, self.builder.generation).into(),
                    overlay: None,
                });
                // No open pages is not an error.
                let _ = self.shared.events.send(Event::Reload);
                if let Err(e) = self.builder.index_search() {
                    self.say(&format!("search index not updated: {e}"));
                }
            }
            Outcome::Failed { text, overlay } => {
                self.say(text.trim_end());
                self.say(&format!(
                    "build failed in {ms} ms{cause}; {}",
                    if first {
                        "pages show the errors until it builds"
                    } else {
                        "still serving the last good build"
                    }
                ));
                let overlay: Arc<str> = overlay.into();
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
