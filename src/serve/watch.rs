//! Serve stage, watching: file-system events in, a [`Change`] out.
//!
//! [`classify`] is a pure function of the site's layout and a path, so what
//! a change needs is decided in one place and unit-tested (Zola's
//! `filter_events`). [`watcher`] is the only place that picks a watcher
//! implementation, so a poll watcher can be swapped in (mdBook PR #2325).
//! This module never builds and never touches the HTTP side.

use notify_debouncer_full::notify::{self, EventKind, RecursiveMode};
use notify_debouncer_full::{DebounceEventResult, DebouncedEvent, RecommendedCache};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How long a path must stay quiet before its events are delivered.
/// Editors write, rename and touch within a few milliseconds; 20 ms
/// covers a save burst and leaves most of a 100 ms save-to-reload budget
/// to the (incremental) build. A burst that is split anyway costs a second
/// build, which the memo makes cheap, never a wrong one.
pub(crate) const DEBOUNCE: Duration = Duration::from_millis(20);

/// What a batch of changes needs, ordered from least to most work.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Change {
    /// Nothing the site is built from.
    Ignore,
    /// Content or evidence: load and render again with the same theme.
    Site,
    /// Templates, static files or `book.toml`: reload the theme as well.
    Full,
}

/// Where a site's sources and outputs are, relative to its root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Layout {
    /// The site root, absolute (event paths are absolute).
    pub(crate) root: PathBuf,
    /// `[evidence] dir`, relative.
    pub(crate) evidence_dir: PathBuf,
    /// `[build] build-dir`, relative: `kansoku build` may write there while
    /// we serve, and nothing in it is a source.
    pub(crate) build_dir: PathBuf,
    /// Absolute directories whose events never matter (the server's own
    /// temporary build directory, should it live inside the root).
    pub(crate) ignore: Vec<PathBuf>,
}

impl Layout {
    /// Directories watched recursively, relative to the root.
    fn source_dirs(&self) -> [&Path; 4] {
        [
            Path::new("content"),
            Path::new("templates"),
            Path::new("static"),
            self.evidence_dir.as_path(),
        ]
    }

    /// What should be watched now: the root itself, not recursively (it
    /// sees `book.toml` replaced by a rename-save and source directories
    /// appear or vanish), and each source directory that exists.
    pub(crate) fn targets(&self) -> Vec<(PathBuf, RecursiveMode)> {
        let mut out = vec![(self.root.clone(), RecursiveMode::NonRecursive)];
        for dir in self.source_dirs() {
            let abs = self.root.join(dir);
            if abs.is_dir() {
                out.push((abs, RecursiveMode::Recursive));
            }
        }
        out
    }
}

/// Files editors write beside the real one while saving or editing:
/// Emacs locks and autosaves, backups, Vim swap files and its `4913` probe,
/// JetBrains safe-write temporaries, desktop litter. Their own events
/// never need a rebuild; the save they belong to renames or writes the
/// real file, which does.
pub(crate) fn is_editor_temp(name: &str) -> bool {
    name.starts_with(".#")
        || (name.starts_with('#') && name.ends_with('#') && name.len() > 1)
        || name.ends_with('~')
        || name == "4913"
        || name == ".DS_Store"
        || name.starts_with(".goutputstream-")
        || name.ends_with("___jb_tmp___")
        || name.ends_with("___jb_old___")
        || name.ends_with(".kate-swp")
        || [".swp", ".swo", ".swx", ".swpx"]
            .iter()
            .any(|ext| name.ends_with(ext))
}

/// What a change to `path` needs. Pure: looks only at the path.
pub(crate) fn classify(layout: &Layout, path: &Path) -> Change {
    if layout.ignore.iter().any(|dir| path.starts_with(dir)) {
        return Change::Ignore;
    }
    let Ok(rel) = path.strip_prefix(&layout.root) else {
        return Change::Ignore;
    };
    if rel.as_os_str().is_empty() || rel.starts_with(&layout.build_dir) {
        return Change::Ignore;
    }
    if let Some(name) = rel.file_name().and_then(|n| n.to_str()) {
        if is_editor_temp(name) {
            return Change::Ignore;
        }
    }
    if rel == Path::new(crate::config::CONFIG_FILE)
        || rel.starts_with("templates")
        || rel.starts_with("static")
    {
        Change::Full
    } else if rel.starts_with("content")
        || rel.starts_with(&layout.evidence_dir)
        // `kansoku review` rewrote what pages' notices are measured against.
        || rel == Path::new(crate::review::LOCK_FILE)
    {
        Change::Site
    } else {
        Change::Ignore
    }
}

/// What one event needs: reads and opens need nothing; a watcher that lost
/// track ("rescan") needs everything.
pub(crate) fn classify_event(layout: &Layout, event: &notify::Event) -> Change {
    if event.need_rescan() {
        return Change::Full;
    }
    if matches!(event.kind, EventKind::Access(_)) {
        return Change::Ignore;
    }
    event
        .paths
        .iter()
        .map(|p| classify(layout, p))
        .max()
        .unwrap_or(Change::Ignore)
}

/// What a debounced batch needs, and the relevant paths (for the terminal).
/// A watcher error is answered with a full rebuild: we cannot know what
/// was missed.
pub(crate) fn classify_batch(
    layout: &Layout,
    batch: &DebounceEventResult,
) -> (Change, Vec<PathBuf>) {
    match batch {
        Err(_) => (Change::Full, Vec::new()),
        Ok(events) => {
            let mut change = Change::Ignore;
            let mut paths = Vec::new();
            for DebouncedEvent { event, .. } in events {
                let c = classify_event(layout, event);
                if c > Change::Ignore {
                    paths.extend(
                        event
                            .paths
                            .iter()
                            .filter(|p| classify(layout, p) > Change::Ignore)
                            .cloned(),
                    );
                }
                change = change.max(c);
            }
            (change, paths)
        }
    }
}

/// The debounced watcher in use.
pub(crate) type Debouncer =
    notify_debouncer_full::Debouncer<notify::RecommendedWatcher, RecommendedCache>;

/// Starts the debounced watcher, calling `handler` with each batch. The
/// only place that chooses the implementation: for file systems that
/// deliver no events (some network mounts, some containers), switch to
/// `new_debouncer_opt::<_, notify::PollWatcher, _>` here.
pub(crate) fn watcher(
    handler: impl FnMut(DebounceEventResult) + Send + 'static,
) -> notify::Result<Debouncer> {
    notify_debouncer_full::new_debouncer(DEBOUNCE, None, handler)
}

/// Which directories are being watched, so watches follow the layout: a
/// `templates/` created after start is watched from then on, and a source
/// directory deleted and recreated (a `git checkout`) is watched again.
#[derive(Debug, Default)]
pub(crate) struct Watches {
    active: BTreeSet<PathBuf>,
}

impl Watches {
    /// Brings the watches in line with `layout`. `touched` are paths from
    /// the last batch: a watched directory among them may have been
    /// replaced, so it is watched afresh. Returns the failures, for the
    /// terminal; a failed watch is retried with the next batch.
    pub(crate) fn sync(
        &mut self,
        debouncer: &mut Debouncer,
        layout: &Layout,
        touched: &[PathBuf],
    ) -> Vec<String> {
        let targets = layout.targets();
        let wanted: BTreeSet<PathBuf> = targets.iter().map(|(p, _)| p.clone()).collect();
        let mut problems = Vec::new();
        for gone in self.active.difference(&wanted).cloned().collect::<Vec<_>>() {
            // The directory may already be gone, taking its watch with it.
            let _ = debouncer.unwatch(&gone);
            self.active.remove(&gone);
        }
        for (path, mode) in targets {
            let replaced = touched.contains(&path);
            if self.active.contains(&path) && !replaced {
                continue;
            }
            if replaced {
                let _ = debouncer.unwatch(&path);
            }
            match debouncer.watch(&path, mode) {
                Ok(()) => {
                    self.active.insert(path);
                }
                Err(e) => {
                    self.active.remove(&path);
                    problems.push(format!("cannot watch {}: {e}", path.display()));
                }
            }
        }
        problems
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use notify::event::{AccessKind, CreateKind, ModifyKind, RenameMode};

    fn layout() -> Layout {
        Layout {
            root: PathBuf::from("/site"),
            evidence_dir: PathBuf::from("records/evidence"),
            build_dir: PathBuf::from("public"),
            ignore: vec![PathBuf::from("/site/.serve-tmp")],
        }
    }

    fn c(path: &str) -> Change {
        classify(&layout(), Path::new(path))
    }

    #[test]
    fn sources_need_a_rebuild() {
        assert_eq!(c("/site/content/notes/page.md"), Change::Site);
        assert_eq!(
            c("/site/content/notes"),
            Change::Site,
            "a directory renamed"
        );
        assert_eq!(c("/site/content"), Change::Site, "content/ replaced");
        assert_eq!(c("/site/records/evidence/logs/run.log"), Change::Site);
        assert_eq!(c("/site/kansoku.lock"), Change::Site, "a review");
        // The engine loads hidden pages too, so they are not ignored.
        assert_eq!(c("/site/content/.draft.md"), Change::Site);
    }

    #[test]
    fn theme_and_config_need_a_full_rebuild() {
        assert_eq!(c("/site/book.toml"), Change::Full);
        assert_eq!(c("/site/templates/page.html"), Change::Full);
        assert_eq!(c("/site/templates/i18n/ja.ftl"), Change::Full);
        assert_eq!(c("/site/static/site.css"), Change::Full);
        assert_eq!(c("/site/templates"), Change::Full, "templates/ created");
    }

    #[test]
    fn outputs_and_unrelated_files_are_ignored() {
        assert_eq!(c("/site/public/index.html"), Change::Ignore);
        assert_eq!(c("/site/public"), Change::Ignore);
        assert_eq!(c("/site/.public.kansoku-staging-42/x"), Change::Ignore);
        assert_eq!(c("/site/.serve-tmp/build-3/index.html"), Change::Ignore);
        assert_eq!(c("/site/README.md"), Change::Ignore);
        assert_eq!(c("/site/.git/index"), Change::Ignore);
        assert_eq!(
            c("/site/evidence/old.log"),
            Change::Ignore,
            "not the evidence dir"
        );
        assert_eq!(c("/site"), Change::Ignore);
        assert_eq!(c("/elsewhere/content/a.md"), Change::Ignore);
        assert_eq!(c("/site/book.toml.bak"), Change::Ignore);
        assert_eq!(
            c("/site/contents/a.md"),
            Change::Ignore,
            "component, not prefix"
        );
    }

    #[test]
    fn editor_temporaries_are_ignored() {
        for name in [
            ".#page.md",
            "#page.md#",
            "page.md~",
            ".page.md.swp",
            ".page.md.swx",
            "page.md.swo",
            "4913",
            "page.md___jb_tmp___",
            "page.md___jb_old___",
            ".DS_Store",
            ".goutputstream-ABC123",
            "page.md.kate-swp",
        ] {
            assert_eq!(
                c(&format!("/site/content/notes/{name}")),
                Change::Ignore,
                "{name}"
            );
        }
        assert_eq!(c("/site/book.toml~"), Change::Ignore);
        assert!(!is_editor_temp("#"));
        assert!(!is_editor_temp("page.md"));
        assert!(!is_editor_temp("49130.log"));
    }

    #[test]
    fn custom_build_dir_is_ignored() {
        let mut l = layout();
        l.build_dir = PathBuf::from("out/site");
        assert_eq!(
            classify(&l, Path::new("/site/out/site/ja/index.html")),
            Change::Ignore
        );
    }

    fn event(kind: EventKind, paths: &[&str]) -> notify::Event {
        let mut e = notify::Event::new(kind);
        for p in paths {
            e = e.add_path(PathBuf::from(p));
        }
        e
    }

    #[test]
    fn events_take_the_largest_need() {
        let l = layout();
        // An atomic save: temp file renamed over the page, both paths in one event.
        let rename = event(
            EventKind::Modify(ModifyKind::Name(RenameMode::Both)),
            &[
                "/site/content/notes/.page.md.swp",
                "/site/content/notes/page.md",
            ],
        );
        assert_eq!(classify_event(&l, &rename), Change::Site);
        let both = event(
            EventKind::Create(CreateKind::File),
            &["/site/content/a.md", "/site/static/x.css"],
        );
        assert_eq!(classify_event(&l, &both), Change::Full);
        let read = event(EventKind::Access(AccessKind::Any), &["/site/content/a.md"]);
        assert_eq!(classify_event(&l, &read), Change::Ignore);
        let rescan = event(EventKind::Other, &[]).set_flag(notify::event::Flag::Rescan);
        assert_eq!(classify_event(&l, &rescan), Change::Full);
    }

    #[test]
    fn a_batch_reports_only_relevant_paths() {
        let l = layout();
        let now = std::time::Instant::now();
        let batch: DebounceEventResult = Ok(vec![
            DebouncedEvent::new(
                event(EventKind::Create(CreateKind::File), &["/site/content/4913"]),
                now,
            ),
            DebouncedEvent::new(
                event(
                    EventKind::Modify(ModifyKind::Any),
                    &["/site/content/notes/page.md"],
                ),
                now,
            ),
        ]);
        let (change, paths) = classify_batch(&l, &batch);
        assert_eq!(change, Change::Site);
        assert_eq!(paths, vec![PathBuf::from("/site/content/notes/page.md")]);
        let only_temp: DebounceEventResult = Ok(vec![DebouncedEvent::new(
            event(EventKind::Create(CreateKind::File), &["/site/content/4913"]),
            now,
        )]);
        assert_eq!(classify_batch(&l, &only_temp).0, Change::Ignore);
        assert_eq!(classify_batch(&l, &Err(vec![])).0, Change::Full);
    }

    #[test]
    fn targets_name_only_existing_dirs() {
        let tmp = crate::scratch::tempdir();
        std::fs::create_dir_all(tmp.path().join("content")).expect("mkdir");
        let l = Layout {
            root: tmp.path().to_path_buf(),
            evidence_dir: PathBuf::from("evidence"),
            build_dir: PathBuf::from("public"),
            ignore: Vec::new(),
        };
        let t = l.targets();
        assert_eq!(t.len(), 2);
        assert_eq!(
            t[0],
            (tmp.path().to_path_buf(), RecursiveMode::NonRecursive)
        );
        assert_eq!(t[1], (tmp.path().join("content"), RecursiveMode::Recursive));
    }
}
