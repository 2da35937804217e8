//! Serve stage, the served tree: the site as the dev server shows it,
//! kept up to date by running the shared, memoised pipeline
//! ([`crate::site::memo`]) after each change.
//!
//! Each run reads again the sources the watcher reported changed (every
//! source after a change it cannot name), parses the pages whose bytes
//! changed, checks again the pages whose bytes or site facts changed,
//! and renders the units whose input changed; this module is only the pipeline's second sink:
//! it writes into the served directory the files whose bytes changed,
//! each by rename, and removes the files no longer made. Tests in
//! src/pipeline_tests/ (scripted edits and a property test) hold the
//! served tree equal to a full build.

use super::http::Served;
use crate::content;
use crate::error::{Diagnostic, Error};
use crate::render::OutputFile;
use crate::site::plan::{Output, Overrides, Plan};
use crate::site::run::run;
use crate::site::{memo, Caches};
use crate::validate::Site;
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
    /// The preview's own address (`http://127.0.0.1:3000/`): the site is
    /// built as if published there, so that what lists full URLs
    /// (`llms.txt`, the Markdown twins, the sitemap) leads to the preview,
    /// not to `site-url`. `None`: under the root path, `site-url`'s origin
    /// kept.
    preview: Option<String>,
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
    pub(crate) fn new(root: PathBuf, out: PathBuf, preview: Option<String>) -> Tree {
        Tree {
            root,
            out,
            preview,
            caches: Caches::default(),
            site: None,
            manifest: HashMap::new(),
            served: Arc::default(),
        }
    }

    /// Exchanges its parsed theme with `theme` (`Caches::swap_theme`):
    /// the tests start many trees on the same theme files.
    #[cfg(test)]
    pub(crate) fn swap_theme(&mut self, theme: &mut crate::site::memo::ThemeCache) {
        self.caches.swap_theme(theme);
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

    /// Tells the next build which source paths changed (absolute, as the
    /// watcher reports them): it reads only those files again (and any
    /// under a changed directory). `None`, or a path outside the root:
    /// not known, so every file is read.
    pub(crate) fn changed(&mut self, paths: Option<&[PathBuf]>) {
        let rel: Option<Vec<PathBuf>> = paths.and_then(|paths| {
            paths
                .iter()
                .map(|p| p.strip_prefix(&self.root).ok().map(Path::to_path_buf))
                .collect()
        });
        self.caches.changed(rel.as_deref());
    }

    /// Runs the pipeline and brings the served tree up to date. With
    /// `sweep`, also removes what the builder did not write (a file or
    /// symlink planted in the served tree). On content errors nothing is
    /// written.
    pub(crate) fn build(&mut self, sweep: bool) -> Result<(Stats, Vec<Diagnostic>), Error> {
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
        let plan = Plan {
            overrides: match &self.preview {
                Some(url) => Overrides {
                    base_url: Some(url.clone()),
                    preview: true,
                    ..Overrides::default()
                },
                None => Overrides {
                    base_path: Some("/".to_owned()),
                    preview: true,
                    ..Overrides::default()
                },
            },
            // Indexed after the reload, on its own thread (`search_job`).
            search: false,
            drafts: true,
            ..Plan::build()
        };
        let sink = Changed {
            manifest: &self.manifest,
            changed: Mutex::new(Vec::new()),
            copies: Mutex::new(Vec::new()),
        };
        let (ran, sink) = run(&self.root, &plan, &mut self.caches, |_, _| Ok(sink))?;
        let (changed, copies) = sink.map_or_else(Default::default, |s| {
            (
                s.changed
                    .into_inner()
                    .unwrap_or_else(std::sync::PoisonError::into_inner),
                s.copies
                    .into_inner()
                    .unwrap_or_else(std::sync::PoisonError::into_inner),
            )
        });
        let t = std::time::Instant::now();
        let gone = match memo::gone_files(&mut self.caches) {
            Some(gone) => gone,
            None => {
                let keep: std::collections::HashSet<&str, foldhash::fast::FixedState> =
                    memo::unit_files(&self.caches).collect();
                self.manifest
                    .keys()
                    .filter(|p| !keep.contains(p.as_str()) && !is_search_file(p))
                    .cloned()
                    .collect()
            }
        };
        let (written, removed) = self.write(changed, copies, &gone).inspect_err(|_| {
            // The memo would name files the served tree may lack.
            memo::forget_units(&mut self.caches);
        })?;
        crate::cost::lap("serve/write", t);
        let stats = Stats {
            written,
            removed,
            total: self.manifest.len(),
            units: ran.rendered.total(),
            full: ran.rendered.total() == ran.units,
        };
        self.site = Some(ran.site);
        if stats.full {
            // A full build freed most of what it rendered with, but the
            // allocator keeps it resident in the idle render threads' heaps:
            // at N = 10,000 a server with search off (the search stage does
            // the same) stayed at 2.4 GiB.
            crate::memory::release_freed_memory();
        }
        Ok((stats, ran.diagnostics))
    }

    /// Writes the files whose bytes changed (each to a temporary name, then
    /// renamed over the old one, so a reader never sees half a file) and
    /// removes `gone`.
    fn write(
        &mut self,
        changed: Vec<(OutputFile, u64)>,
        copies: Vec<(String, PathBuf, u64)>,
        gone: &[String],
    ) -> Result<(usize, usize), Error> {
        write_all(&self.out, changed.iter().map(|(f, _)| f))?;
        for (path, from, _) in &copies {
            copy_replace(&self.out, path, from)?;
        }
        self.served.insert(
            changed
                .iter()
                .map(|(f, _)| f.path.as_str())
                .chain(copies.iter().map(|(p, _, _)| p.as_str())),
        );
        let written = changed.len() + copies.len();
        for (f, h) in changed {
            self.manifest.insert(f.path, h);
        }
        for (path, _, h) in copies {
            self.manifest.insert(path, h);
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
        let pages: Vec<(String, u64)> = self
            .manifest
            .iter()
            .filter(|(p, _)| crate::search::indexed(p))
            .map(|(p, h)| (p.clone(), *h))
            .collect();
        Some(SearchJob {
            out: self.out.clone(),
            job: crate::search::Job::new(site, pages),
            served: self.served.clone(),
        })
    }
}

/// The served tree as a run's output: the files whose bytes differ from
/// the served ones, kept to be written once everything rendered (a failed
/// build writes nothing).
struct Changed<'a> {
    manifest: &'a HashMap<String, u64>,
    changed: Mutex<Vec<(OutputFile, u64)>>,
    /// Large evidence logs to copy (never read whole): path, source, hash.
    copies: Mutex<Vec<(String, PathBuf, u64)>>,
}

impl Output for Changed<'_> {
    fn write(&self, file: OutputFile, hash: u64) -> Result<(), Error> {
        if self.manifest.get(&file.path) != Some(&hash) {
            crate::sync::lock(&self.changed).push((file, hash));
        }
        Ok(())
    }

    /// The served tree holds what the memo says: only this output writes
    /// it, and a failed write forgets the memo.
    fn reuse(&self, _: &[(String, u64)]) -> Result<bool, Error> {
        Ok(true)
    }

    fn read(&self, path: &str) -> Result<Vec<u8>, Error> {
        Err(Error::Usage(format!(
            "{path} is read by the indexing thread"
        )))
    }

    fn copy(&self, path: &str, from: &Path, _: u64, hash: u64) -> Result<(), Error> {
        if self.manifest.get(path) != Some(&hash) {
            crate::sync::lock(&self.copies).push((path.to_owned(), from.to_path_buf(), hash));
        }
        Ok(())
    }
}

/// Indexing the served tree for search: the pages are read back from it,
/// so the job owns no part of the builder's state and can run on its own
/// thread while the builder goes on.
#[derive(Debug)]
pub(crate) struct SearchJob {
    out: PathBuf,
    job: crate::search::Job,
    served: Arc<Served>,
}

impl SearchJob {
    /// Builds the bundle and writes it into the served tree, removing the
    /// files of the bundle before (`written`, updated here). Shards whose
    /// pages are unchanged since the last job keep their files (`memo`,
    /// updated here), so an edit re-indexes one shard a language.
    /// Nothing is written if `stopped` holds true once the bundle is built;
    /// it is held while writing.
    pub(crate) fn run(
        self,
        stopped: &Mutex<bool>,
        written: &mut BTreeSet<String>,
        memo: &mut crate::search::Memo,
    ) -> Result<(), Error> {
        // A page removed by a build since this job was made is left out.
        let read = |p: &str| Ok(std::fs::read(self.out.join(p)).ok());
        // This thread alone writes the bundles, so its files are the last
        // job's while they are still there.
        let take = |files: &[(String, u64)]| {
            Ok(files
                .iter()
                .all(|(p, _)| written.contains(p) && self.out.join(p).is_file()))
        };
        let mut next = memo.clone();
        let indexed = self.job.run(&mut next, &read, &take)?;
        let files = indexed.files;
        let stopped = stopped
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if *stopped {
            return Ok(());
        }
        write_all(&self.out, files.iter())?;
        self.served.insert(files.iter().map(|f| f.path.as_str()));
        let now: BTreeSet<String> = files
            .into_iter()
            .map(|f| f.path)
            .chain(indexed.kept)
            .collect();
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
        *memo = next;
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
    crate::render::paths::in_bundle(path)
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

/// Replaces `dir/rel` with a copy of `from`, made in pieces beside it and
/// renamed over it.
fn copy_replace(dir: &Path, rel: &str, from: &Path) -> Result<(), Error> {
    let path = dir.join(rel);
    let io = |e| Error::io(&path, e);
    let parent = path.parent().unwrap_or(dir);
    std::fs::create_dir_all(parent).map_err(io)?;
    let mut temp = tempfile::NamedTempFile::new_in(parent).map_err(io)?;
    let mut source = std::fs::File::open(from).map_err(|e| Error::io(from, e))?;
    std::io::copy(&mut source, temp.as_file_mut()).map_err(io)?;
    temp.persist(&path).map_err(|e| io(e.error))?;
    Ok(())
}

/// Replaces `dir/rel` with `bytes` by writing a sibling and renaming it.
fn write_replace(dir: &Path, rel: &str, bytes: &[u8]) -> Result<(), Error> {
    let path = dir.join(rel);
    crate::fsutil::write_atomic(&path, bytes).map_err(|e| Error::io(&path, e))
}
