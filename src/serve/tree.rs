//! Serve stage, the served tree: the site as the dev server shows it,
//! kept up to date by running the shared, memoised pipeline
//! ([`crate::site::memo`]) after each change.
//!
//! Each run reads every source again (a page whose bytes are unchanged is
//! not parsed again), validates the whole site, and renders the units
//! whose input changed; this module is only the pipeline's second sink:
//! it writes into the served directory the files whose bytes changed,
//! each by rename, and removes the files no longer made. A test
//! (`tests` below) and a property test (tests/pipeline_prop.rs) hold the
//! served tree equal to a full build.

use super::http::Served;
use crate::content;
use crate::error::{Diagnostic, Error};
use crate::render::OutputFile;
use crate::site::{memo, Caches};
use crate::validate::{Mode, Site};
use rayon::prelude::*;
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// What one build did.
#[derive(Debug)]
pub(crate) struct Stats {
    /// Files written because their bytes changed.
    pub(crate) written: usize,
    /// Files removed.
    pub(crate) removed: usize,
    /// Files in the served tree.
    pub(crate) total: usize,
    /// Units rendered (pages, evidence files, the site-wide set).
    pub(crate) units: usize,
    /// Whether every unit was rendered.
    pub(crate) full: bool,
}

/// The pipeline's memo tables and the served tree, kept between builds.
pub(crate) struct Tree {
    root: PathBuf,
    out: PathBuf,
    caches: Caches,
    /// The site of the last good build.
    site: Option<Site>,
    /// Served path → hash of its bytes.
    manifest: HashMap<String, u64>,
    /// The same paths, and the search bundle's, for the HTTP side: it
    /// serves nothing else.
    served: Arc<Served>,
}

impl Tree {
    /// State for the site at `root`, serving from the directory `out`.
    pub(crate) fn new(root: PathBuf, out: PathBuf) -> Tree {
        Tree {
            root,
            out,
            caches: Caches::default(),
            site: None,
            manifest: HashMap::new(),
            served: Arc::default(),
        }
    }

    /// Keeps `served` up to date with every file written or removed.
    pub(crate) fn record_into(&mut self, served: Arc<Served>) {
        served.insert(self.manifest.keys().map(String::as_str));
        self.served = served;
    }

    /// The served directory.
    pub(crate) fn out(&self) -> &Path {
        &self.out
    }

    /// The site of the last good build, for the summary line.
    pub(crate) fn site(&self) -> Option<&Site> {
        self.site.as_ref()
    }

    /// Runs the pipeline and brings the served tree up to date. With
    /// `sweep`, also removes what the builder did not write (a file or
    /// symlink planted in the served tree). On content errors nothing is
    /// written.
    pub(crate) fn build(&mut self, sweep: bool) -> Result<(Stats, Vec<Diagnostic>), Error> {
        // KANSOKU_TIMINGS=1 prints each step, as `kansoku build` does.
        let timings = std::env::var_os("KANSOKU_TIMINGS").is_some();
        let lap = |what: &str, since: std::time::Instant| {
            if timings {
                eprintln!(
                    "timing: serve {what:<9} {:>5} ms",
                    since.elapsed().as_millis()
                );
            }
        };
        let t = std::time::Instant::now();
        let (mut site, diags) = crate::site::load_with(&self.root, Mode::Build, &mut self.caches)?;
        // Served at the root of the dev server whatever `site-url` says,
        // as Zola's `serve` replaces `base_url`.
        site.config.base_path = "/".to_owned();
        lap("load", t);
        let t = std::time::Instant::now();
        let renderer = memo::renderer(&self.root, &mut self.caches)?;
        let collisions = renderer.collisions(&site);
        if !collisions.is_empty() {
            return Err(Error::Content(collisions));
        }
        let prepared = renderer.prepare(&site).map_err(Error::Content)?;
        lap("prepare", t);
        let t = std::time::Instant::now();
        if sweep {
            let before = self.manifest.len();
            for planted in sweep_planted(&self.out, &mut self.manifest)? {
                self.served.remove(&planted);
            }
            if self.manifest.len() != before {
                // A written file was replaced (by a symlink): the units
                // that made it must write it again.
                memo::forget_units(&mut self.caches);
            }
        }
        let units = renderer.units(&site);
        let job = memo::Job {
            site: &site,
            renderer: &renderer,
            prepared: &prepared,
            inputs: memo::Inputs::new(&site, &prepared, &self.caches),
        };
        // Only files whose bytes differ from the served ones are kept, and
        // written once everything rendered: a failed build writes nothing.
        let changed = Mutex::new(Vec::new());
        let manifest = &self.manifest;
        let rendered = memo::render(
            &job,
            &units,
            &mut self.caches,
            // The served tree holds what the memo says: only this sink
            // writes it, and a failed write forgets the memo.
            &|_| true,
            &|f: OutputFile, h: u64| {
                if manifest.get(&f.path) != Some(&h) {
                    crate::site::lock(&changed).push((f, h));
                }
                Ok(())
            },
        )
        .map_err(Error::Content)?;
        memo::retain_units(&site, &units, &mut self.caches);
        lap("render", t);
        let t = std::time::Instant::now();
        let changed = changed
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let keep: BTreeSet<&str> = rendered.files.iter().map(|(p, _)| p.as_str()).collect();
        let gone: Vec<String> = self
            .manifest
            .keys()
            .filter(|p| !keep.contains(p.as_str()) && !is_search_file(p))
            .cloned()
            .collect();
        let (written, removed) = self.write(changed, &gone).inspect_err(|_| {
            // The memo would name files the served tree may lack.
            memo::forget_units(&mut self.caches);
        })?;
        lap("write", t);
        let stats = Stats {
            written,
            removed,
            total: self.manifest.len(),
            units: rendered.rendered,
            full: rendered.rendered == units.len(),
        };
        drop(job);
        drop(units);
        self.site = Some(site);
        Ok((stats, diags))
    }

    /// Writes the files whose bytes changed (each to a temporary name, then
    /// renamed over the old one, so a reader never sees half a file) and
    /// removes `gone`.
    fn write(
        &mut self,
        changed: Vec<(OutputFile, u64)>,
        gone: &[String],
    ) -> Result<(usize, usize), Error> {
        write_all(&self.out, changed.iter().map(|(f, _)| f))?;
        self.served
            .insert(changed.iter().map(|(f, _)| f.path.as_str()));
        let written = changed.len();
        for (f, h) in changed {
            self.manifest.insert(f.path, h);
        }
        let mut removed = 0;
        for path in gone {
            if self.manifest.remove(path).is_some() {
                self.served.remove(path);
                let abs = self.out.join(path);
                match std::fs::remove_file(&abs) {
                    Ok(()) => removed += 1,
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                    Err(e) => return Err(Error::io(&abs, e)),
                }
            }
        }
        Ok((written, removed))
    }

    /// What the search step needs to index the tree as it is now, if a
    /// build has succeeded.
    pub(crate) fn search_job(&self) -> Option<SearchJob> {
        let site = self.site.as_ref().filter(|s| s.config.search)?;
        let mut pages: Vec<String> = self
            .manifest
            .keys()
            .filter(|p| crate::search::indexed(p))
            .cloned()
            .collect();
        pages.sort();
        Some(SearchJob {
            out: self.out.clone(),
            base: site.config.base_path.clone(),
            classes: crate::search::claim_classes(site),
            pages,
            served: self.served.clone(),
        })
    }
}

/// Indexing the served tree for search: the pages are read back from it,
/// so the job owns no part of the builder's state and can run on its own
/// thread while the builder goes on.
#[derive(Debug)]
pub(crate) struct SearchJob {
    out: PathBuf,
    base: String,
    classes: String,
    /// Served paths of the pages to index, sorted.
    pages: Vec<String>,
    served: Arc<Served>,
}

impl SearchJob {
    /// Builds the bundle and writes it into the served tree, removing the
    /// files of the bundle before (`written`, updated here).
    /// Nothing is written if `stopped` holds true once the bundle is built;
    /// it is held while writing.
    pub(crate) fn run(
        self,
        stopped: &Mutex<bool>,
        written: &mut BTreeSet<String>,
    ) -> Result<(), Error> {
        let pages: Vec<OutputFile> = self
            .pages
            .par_iter()
            .filter_map(|p| {
                let abs = self.out.join(p);
                // A page removed by a build since this job was made.
                let bytes = std::fs::read(&abs).ok()?;
                crate::search::searchable(&OutputFile {
                    path: p.clone(),
                    bytes,
                })
            })
            .collect();
        let files = crate::search::index_parts(&self.base, &self.classes, &pages)?;
        let stopped = stopped
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if *stopped {
            return Ok(());
        }
        write_all(&self.out, files.iter())?;
        self.served.insert(files.iter().map(|f| f.path.as_str()));
        let now: BTreeSet<String> = files.into_iter().map(|f| f.path).collect();
        for stale in written.difference(&now) {
            self.served.remove(stale);
            let abs = self.out.join(stale);
            match std::fs::remove_file(&abs) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                    return Err(Error::io(&abs, e))
                }
                _ => {}
            }
        }
        *written = now;
        Ok(())
    }
}

/// Removes from the served tree every file and symlink the builder did not
/// write (outside the search bundles, which their own thread owns), and
/// forgets any written file a symlink has replaced, so it is written again.
/// Returns the paths removed.
fn sweep_planted(out: &Path, manifest: &mut HashMap<String, u64>) -> Result<Vec<String>, Error> {
    let mut removed = Vec::new();
    if !out.is_dir() {
        return Ok(removed);
    }
    let walker = walkdir::WalkDir::new(out)
        .min_depth(1)
        .into_iter()
        .filter_entry(|e| !is_search_file(&content::rel_path(out, e.path())));
    for entry in walker {
        let entry = entry.map_err(|e| Error::io(out, e.into()))?;
        if entry.file_type().is_dir() {
            continue;
        }
        let rel = content::rel_path(out, entry.path());
        let planted = entry.file_type().is_symlink() || !manifest.contains_key(&rel);
        if planted {
            manifest.remove(&rel);
            match std::fs::remove_file(entry.path()) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                    return Err(Error::io(entry.path(), e))
                }
                _ => {}
            }
            removed.push(rel);
        }
    }
    Ok(removed)
}

/// Search bundle files: written by the search step, not by rendering.
fn is_search_file(path: &str) -> bool {
    let mut parts = path.splitn(3, '/');
    matches!(
        (parts.next(), parts.next()),
        (Some("ja" | "en"), Some(crate::search::BUNDLE_DIR))
    )
}

/// Writes `files` under `dir`, making their directories first, each file
/// by [`write_replace`], in parallel.
fn write_all<'a>(dir: &Path, files: impl Iterator<Item = &'a OutputFile>) -> Result<(), Error> {
    let files: Vec<&OutputFile> = files.collect();
    let dirs: BTreeSet<&str> = files
        .iter()
        .filter_map(|f| f.path.rsplit_once('/').map(|(d, _)| d))
        .collect();
    for d in dirs {
        let path = dir.join(d);
        std::fs::create_dir_all(&path).map_err(|e| Error::io(&path, e))?;
    }
    files
        .par_iter()
        .try_for_each(|f| write_replace(dir, &f.path, &f.bytes))
}

/// Replaces `dir/rel` with `bytes` by writing a sibling and renaming it.
fn write_replace(dir: &Path, rel: &str, bytes: &[u8]) -> Result<(), Error> {
    let path = dir.join(rel);
    let name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let tmp = path.with_file_name(format!(".{name}.kansoku-tmp"));
    std::fs::write(&tmp, bytes).map_err(|e| Error::io(&tmp, e))?;
    std::fs::rename(&tmp, &path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        Error::io(&path, e)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::Renderer;
    use std::collections::BTreeMap;

    /// A copy of this repository's own site to edit.
    fn site_copy() -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("temp dir");
        let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
        for entry in walkdir::WalkDir::new(repo.join("content"))
            .into_iter()
            .chain(walkdir::WalkDir::new(repo.join("evidence")))
        {
            let entry = entry.expect("walk");
            let rel = entry.path().strip_prefix(repo).expect("inside");
            let to = dir.path().join(rel);
            if entry.file_type().is_dir() {
                std::fs::create_dir_all(&to).expect("mkdir");
            } else {
                std::fs::copy(entry.path(), &to).expect("copy");
            }
        }
        std::fs::copy(repo.join("book.toml"), dir.path().join("book.toml")).expect("book.toml");
        dir
    }

    /// What a full build of `root` writes (served at `/`), search included.
    fn full_build(root: &Path) -> BTreeMap<String, Vec<u8>> {
        let (mut site, _) = crate::site::load(root, Mode::Build).expect("loads");
        site.config.base_path = "/".to_owned();
        let renderer = Renderer::new(root).expect("theme").expect("theme");
        let mut files = renderer.render(&site).expect("renders");
        files.extend(crate::search::index(&site, &files).expect("indexes"));
        files.into_iter().map(|f| (f.path, f.bytes)).collect()
    }

    /// Everything in the served directory.
    fn served(dir: &Path) -> BTreeMap<String, Vec<u8>> {
        walkdir::WalkDir::new(dir)
            .into_iter()
            .map(|e| e.expect("walk"))
            .filter(|e| e.file_type().is_file())
            .map(|e| {
                let rel = content::rel_path(dir, e.path());
                (rel, std::fs::read(e.path()).expect("read"))
            })
            .collect()
    }

    fn assert_same(root: &Path, b: &mut Builder) {
        b.index_search().expect("search");
        let want = full_build(root);
        let got = served(b.state.out());
        let only = |a: &BTreeMap<String, Vec<u8>>, b: &BTreeMap<String, Vec<u8>>| -> Vec<String> {
            a.keys().filter(|k| !b.contains_key(*k)).cloned().collect()
        };
        assert_eq!(
            only(&want, &got),
            Vec::<String>::new(),
            "missing from serve"
        );
        assert_eq!(only(&got, &want), Vec::<String>::new(), "only in serve");
        let differ: Vec<&String> = want.keys().filter(|k| want[*k] != got[*k]).collect();
        assert!(differ.is_empty(), "differ from a full build: {differ:?}");
    }

    /// A builder the way `serve` drives it: each step names the paths the
    /// watcher reported.
    struct Builder {
        root: PathBuf,
        state: Tree,
        search_files: BTreeSet<String>,
        _work: tempfile::TempDir,
    }

    impl Builder {
        fn new(root: &Path) -> Builder {
            let work = tempfile::tempdir().expect("work dir");
            Builder {
                root: root.to_path_buf(),
                state: Tree::new(root.to_path_buf(), work.path().join("site")),
                search_files: BTreeSet::new(),
                _work: work,
            }
        }
        /// One build after a change to `paths` (none: the first build);
        /// its findings must be those of a full load.
        fn build(&mut self, paths: &[PathBuf]) -> Result<Stats, Error> {
            let got = self.state.build(paths.is_empty());
            let want = crate::site::load(&self.root, Mode::Build);
            match (&got, &want) {
                (Ok((_, a)), Ok((_, b))) => assert_eq!(a, b, "warnings differ from a full check"),
                (Err(Error::Content(a)), Err(Error::Content(b))) => {
                    assert_eq!(a, b, "errors differ from a full check")
                }
                _ => panic!("serve and a full load disagree: {got:?} / {:?}", want.err()),
            }
            got.map(|(s, _)| s)
        }
        fn index_search(&mut self) -> Result<(), Error> {
            let job = self.state.search_job().expect("built");
            job.run(&Mutex::new(false), &mut self.search_files)
        }
    }

    fn edit(path: &Path, from: &str, to: &str) {
        let text = std::fs::read_to_string(path).expect("read");
        assert!(text.contains(from), "{} lacks {from:?}", path.display());
        std::fs::write(path, text.replacen(from, to, 1)).expect("write");
    }

    #[test]
    fn incremental_rebuilds_equal_a_full_build() {
        let dir = site_copy();
        let root = dir.path();
        let mut b = Builder::new(root);
        let first = b.build(&[]).expect("first build");
        assert!(first.full);
        let total = first.total;
        assert_same(root, &mut b);

        // Add a page: the navigation changes, so everything renders.
        let new_page = root.join("content/components/scratch.md");
        std::fs::write(
            &new_page,
            r#"+++
title = { ja = "メモ", en = "Scratch" }
weight = 200

[[claims]]
id = "scratch-note"
class = "inferred"
ja = "MIOpen は maps に現れない。"
en = "MIOpen is not in the maps."
evidence = [{ path = "phase-c/runner-maps.txt", lines = "18" }]
+++

::: ja
[[claim:scratch-note]] と [[claim:dispatch-blas]]。
:::
::: en
[[claim:scratch-note]] and [[claim:dispatch-blas]].
:::
"#,
        )
        .expect("write page");
        let s = b
            .build(std::slice::from_ref(&new_page))
            .expect("page added");
        assert!(s.full, "a new page changes the navigation");
        assert_same(root, &mut b);

        // Edit a claim's class: cited inline by the new page, rested on by
        // claims of the home page and of its own page.
        let ggml = root.join("content/components/ggml-hip.md");
        edit(
            &ggml,
            "id = \"dispatch-blas\"\nclass = \"confirmed\"",
            "id = \"dispatch-blas\"\nclass = \"inferred\"",
        );
        let s = b.build(std::slice::from_ref(&ggml)).expect("class edited");
        assert!(
            !s.full,
            "same structure: only what depends on the claim: {s:?}"
        );
        assert!(s.units < total);
        assert!(s.written > 0 && s.written < total, "{s:?}");
        assert_same(root, &mut b);

        // Edit the text of a claim that two other pages cite inline.
        let index = root.join("content/components/_index.md");
        edit(
            &index,
            "rocSOLVER と hipBLASLt が、",
            "rocSOLVER と hipBLASLt とが、",
        );
        let s = b.build(std::slice::from_ref(&index)).expect("text edited");
        assert!(!s.full);
        assert_same(root, &mut b);

        // Rename a claim other pages cite: their findings change, so the
        // whole site is checked again, and the build fails.
        edit(
            &index,
            "id = \"rocsolver-hipblaslt-called\"",
            "id = \"rocsolver-hipblaslt-used\"",
        );
        match b.build(std::slice::from_ref(&index)) {
            Err(Error::Content(d)) => assert!(
                d.iter()
                    .any(|d| d.code == "E020" && d.location.path != "content/components/_index.md"),
                "{d:?}"
            ),
            other => panic!("expected E020 elsewhere, got {other:?}"),
        }
        edit(
            &index,
            "id = \"rocsolver-hipblaslt-used\"",
            "id = \"rocsolver-hipblaslt-called\"",
        );
        b.build(std::slice::from_ref(&index)).expect("renamed back");
        assert_same(root, &mut b);

        // Delete an evidence file the claims cite: the build fails and the
        // served tree stays as it was.
        let log = root.join("evidence/phase-c/runner-maps.txt");
        let saved = std::fs::read(&log).expect("read log");
        let before = served(b.state.out());
        std::fs::remove_file(&log).expect("delete log");
        match b.build(std::slice::from_ref(&log)) {
            Err(Error::Content(d)) => assert!(d.iter().any(|d| d.code == "E012"), "{d:?}"),
            other => panic!("expected E012, got {other:?}"),
        }
        assert_eq!(
            served(b.state.out()),
            before,
            "a failed build writes nothing"
        );

        // Fix it: the file comes back.
        std::fs::write(&log, saved).expect("restore log");
        let s = b.build(std::slice::from_ref(&log)).expect("fixed");
        assert!(!s.full);
        assert_same(root, &mut b);

        // A prose edit that touches no claim: only that page's outputs.
        let text = std::fs::read_to_string(&ggml).expect("read");
        let prose = text
            .lines()
            .skip_while(|l| *l != "::: en")
            .find(|l| l.len() > 40 && !l.starts_with('#'))
            .expect("a line of English prose")
            .to_owned();
        edit(&ggml, &prose, &format!("{prose} (edited)"));
        let s = b.build(std::slice::from_ref(&ggml)).expect("prose edited");
        assert!(!s.full);
        assert_same(root, &mut b);

        // And an edit after a failure still lands.
        edit(&index, "hipBLASLt とが、", "hipBLASLt が、");
        b.build(std::slice::from_ref(&index)).expect("edited again");
        assert_same(root, &mut b);
    }

    /// A copy of `tests/fixtures/basic` to edit.
    fn basic_copy() -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("temp dir");
        let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/basic");
        for entry in walkdir::WalkDir::new(&from) {
            let entry = entry.expect("walk");
            let to = dir
                .path()
                .join(entry.path().strip_prefix(&from).expect("inside"));
            if entry.file_type().is_dir() {
                std::fs::create_dir_all(&to).expect("mkdir");
            } else {
                std::fs::copy(entry.path(), &to).expect("copy");
            }
        }
        dir
    }

    /// A page defining claim `dup-x`, citing the fixture's log.
    fn dup_page(title: &str) -> String {
        format!(
            "+++\ntitle = {{ ja = \"{title}\", en = \"{title}\" }}\n\n[[claims]]\nid = \"dup-x\"\nclass = \"confirmed\"\nja = \"ランナーは起動した。\"\nen = \"The runner started.\"\nevidence = [\"logs/run.log#L7\"]\n+++\n\n::: ja\n[[claim:dup-x]]\n:::\n::: en\n[[claim:dup-x]]\n:::\n"
        )
    }

    /// Issue 13: pages A and B both define claim `x`; a line inserted at
    /// the top of B's front matter moves B's duplicate, and the E016
    /// finding must follow it to B's new line.
    #[test]
    fn issue_13_duplicate_id_follows_its_line() {
        let dir = basic_copy();
        let root = dir.path();
        let (a, b_page) = (root.join("content/a.md"), root.join("content/b.md"));
        std::fs::write(&a, dup_page("A")).expect("write a");
        std::fs::write(&b_page, dup_page("B").replace("dup-x", "own-y")).expect("write b");
        let mut b = Builder::new(root);
        b.build(&[]).expect("no duplicate yet");
        std::fs::write(&b_page, dup_page("B")).expect("write b");
        let line = |r: Result<Stats, Error>| match r {
            Err(Error::Content(d)) => d
                .iter()
                .find(|d| d.code == "E016")
                .map(|d| (d.location.path.clone(), d.location.line))
                .expect("an E016"),
            other => panic!("expected E016, got {other:?}"),
        };
        assert_eq!(
            line(b.build(std::slice::from_ref(&b_page))),
            ("content/b.md".to_owned(), 5)
        );
        let text = std::fs::read_to_string(&b_page).expect("read b");
        std::fs::write(&b_page, text.replacen("+++\n", "+++\n# moved down\n", 1)).expect("edit b");
        assert_eq!(
            line(b.build(std::slice::from_ref(&b_page))),
            ("content/b.md".to_owned(), 6)
        );
    }

    /// With a review lock, an edited log puts notices on the pages citing
    /// it (and on pages resting on them): serve shows what a full build
    /// does, and again after `kansoku review` rewrites the lock.
    #[test]
    fn review_notices_follow_the_lock() {
        let dir = site_copy();
        let root = dir.path();
        crate::review::review(
            root,
            &crate::review::Selection {
                all: true,
                ..Default::default()
            },
        )
        .expect("review --all");
        let mut b = Builder::new(root);
        b.build(&[]).expect("first build");
        assert_same(root, &mut b);
        let log = root.join("evidence/phase-c/runner-maps.txt");
        let text = std::fs::read_to_string(&log).expect("log");
        let (first, rest) = text.split_once("\n+++\n").expect("a header");
        let lines: Vec<&str> = rest.lines().collect();
        let edited = format!(
            "{first}\n+++\n{} (edited)\n{}\n",
            lines[0],
            lines[1..].join("\n")
        );
        std::fs::write(&log, edited).expect("edit log");
        b.build(std::slice::from_ref(&log)).expect("log edited");
        let shown = served(b.state.out());
        assert!(
            shown
                .values()
                .any(|v| String::from_utf8_lossy(v).contains("claim-notice--suspect")),
            "a suspect notice is served"
        );
        assert_same(root, &mut b);
        crate::review::review(
            root,
            &crate::review::Selection {
                all: true,
                ..Default::default()
            },
        )
        .expect("review again");
        b.build(&[root.join(crate::review::LOCK_FILE)])
            .expect("lock rewritten");
        assert_same(root, &mut b);
    }
}
