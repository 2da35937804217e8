//! Serve stage, rebuilding only what an edit touched.
//!
//! The state of the last build stays in memory: the parsed pages and
//! evidence, the render state ([`Prepared`]: navigation, claim views) and,
//! for each page, the claims its output shows ([`Deps`]). After an edit
//! only the changed files are parsed again; the site is validated whole
//! (a change anywhere can break a reference elsewhere); then, if the
//! site's structure (pages, URLs, titles, weights) is the same, only these
//! outputs are rendered again:
//!
//! - the edited pages;
//! - pages showing a claim whose view changed (its own page, pages citing
//!   it inline or in a scope, claims resting on it), and pages with a
//!   generated view (they pivot every claim);
//! - evidence pages that list such a claim, and edited evidence files;
//! - the site-wide files (`claims.json`, the evidence index, the sitemap).
//!
//! Anything else (a page added, removed or renamed, a title or weight
//! changed, the theme or `book.toml`) renders everything, as
//! `kansoku build` would. Either way files are written to the served
//! directory only when their bytes changed, each by rename, and a test
//! (`tests` below) holds incremental output equal to a full build.

use super::http::Served;
use crate::content::{self, Content};
use crate::error::{Diagnostic, Error};
use crate::evidence::load_evidence;
use crate::render::{Deps, OutputFile, Prepared, Renderer, SitePart, Unit};
use crate::validate::{self, Mode, Site};
use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// What a page contributes to the navigation and URLs: if these are the
/// same for every page, the render state can be updated in place.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Shape {
    rel: String,
    url: String,
    titles: [String; 2],
    weight: i64,
}

fn shape(content: &Content) -> Vec<Shape> {
    content
        .pages
        .iter()
        .map(|p| Shape {
            rel: p.rel.clone(),
            url: p.url_path.clone(),
            titles: [p.title.ja.clone(), p.title.en.clone()],
            weight: p.weight,
        })
        .collect()
}

/// The last good render: what an incremental one starts from.
struct Rendered {
    prepared: Prepared,
    shape: Vec<Shape>,
    /// Page rel → what its output showed.
    deps: BTreeMap<String, Deps>,
    /// Evidence path → the claims its page listed.
    cites: BTreeMap<String, BTreeSet<String>>,
    /// Each page's entry in `claims.json`, in page order.
    fragments: Vec<String>,
}

/// Which sources changed since the last good render.
#[derive(Default)]
struct Dirty {
    /// Everything (first build, theme, `book.toml`, an unclear event).
    all: bool,
    /// Content-relative page paths.
    pages: BTreeSet<String>,
    /// Evidence paths (relative to the evidence directory).
    evidence: BTreeSet<String>,
}

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
    /// Whether everything was rendered.
    pub(crate) full: bool,
}

/// The sources, the render state and the served tree, kept between builds.
pub(crate) struct Incremental {
    root: PathBuf,
    out: PathBuf,
    /// The sources as last read: `None` until the first load.
    site: Option<Site>,
    /// Findings from loading each page (by `content/…` path) and the
    /// evidence directory: kept with the parse they came from.
    page_diags: BTreeMap<String, Vec<Diagnostic>>,
    evidence_diags: Vec<Diagnostic>,
    rendered: Option<Rendered>,
    dirty: Dirty,
    /// Served path → hash of its bytes.
    manifest: HashMap<String, u64>,
    /// The same paths, and the search bundle's, for the HTTP side: it
    /// serves nothing else.
    served: Arc<Served>,
}

impl Incremental {
    /// State for the site at `root`, serving from the directory `out`.
    pub(crate) fn new(root: PathBuf, out: PathBuf) -> Incremental {
        Incremental {
            root,
            out,
            site: None,
            page_diags: BTreeMap::new(),
            evidence_diags: Vec::new(),
            rendered: None,
            dirty: Dirty {
                all: true,
                ..Dirty::default()
            },
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

    /// The site as last loaded, for the summary line.
    pub(crate) fn site(&self) -> Option<&Site> {
        self.site.as_ref()
    }

    /// Forget everything: the next build reads and renders it all.
    pub(crate) fn invalidate(&mut self) {
        self.site = None;
        self.dirty.all = true;
    }

    /// Notes changed paths (absolute, from the watcher). Paths that are not
    /// one page or one evidence file make the next build read everything.
    pub(crate) fn touched(&mut self, paths: &[PathBuf]) {
        let Some(site) = &self.site else {
            return;
        };
        let content_dir = self.root.join("content");
        let evidence_dir = self.root.join(&site.config.evidence_dir);
        if paths.is_empty() {
            self.invalidate();
        }
        for path in paths {
            if let Ok(rel) = path.strip_prefix(&content_dir) {
                let rel = content::rel_path(Path::new(""), rel);
                if rel.split('/').any(content::is_hidden) {
                    // Never a page (see `content::walk`).
                    continue;
                }
                // A symlink or a name that cannot be a URL is reported by
                // a full load.
                if rel.ends_with(".md")
                    && !path.is_dir()
                    && !path.is_symlink()
                    && content::unsafe_name(&rel).is_none()
                {
                    self.dirty.pages.insert(rel);
                    continue;
                }
            } else if let Ok(rel) = path.strip_prefix(&evidence_dir) {
                if !path.is_dir() {
                    self.dirty
                        .evidence
                        .insert(content::rel_path(Path::new(""), rel));
                    continue;
                }
            }
            // A directory moved or removed, or something outside both.
            self.invalidate();
            return;
        }
    }

    /// Reads what changed; returns every finding of the current sources.
    fn load(&mut self) -> Result<Vec<Diagnostic>, Error> {
        let full = self.dirty.all || self.site.is_none();
        if full {
            let sources = crate::site::load_sources(&self.root)?;
            let mut page_diags: BTreeMap<String, Vec<Diagnostic>> = BTreeMap::new();
            for d in sources.content_diags {
                page_diags
                    .entry(d.location.path.clone())
                    .or_default()
                    .push(d);
            }
            self.page_diags = page_diags;
            self.evidence_diags = sources.evidence_diags;
            let mut config = sources.config;
            // Served at the root of the dev server whatever `site-url`
            // says, as Zola's `serve` replaces `base_url`.
            config.base_path = "/".to_owned();
            self.site = Some(Site {
                config,
                content: sources.content,
                evidence: sources.evidence,
                index: validate::Index::default(),
                review: crate::review::Status::default(),
            });
        } else if let Some(site) = self.site.as_mut() {
            let dir = self.root.join("content");
            for rel in &self.dirty.pages {
                let shown = format!("content/{rel}");
                self.page_diags.remove(&shown);
                let at = site
                    .content
                    .pages
                    .binary_search_by(|p| p.rel.as_str().cmp(rel));
                site.content.failed.retain(|f| f.rel != *rel);
                let path = dir.join(rel);
                let page = if path.is_file() {
                    let (loaded, diags) = content::load_file(&dir, &path)?;
                    if !diags.is_empty() {
                        self.page_diags.insert(shown, diags);
                    }
                    match loaded {
                        content::Loaded::Page(page) => Some(*page),
                        content::Loaded::Failed(failed) => {
                            site.content.failed.push(failed);
                            site.content.failed.sort_by(|a, b| a.rel.cmp(&b.rel));
                            None
                        }
                    }
                } else {
                    None
                };
                match (at, page) {
                    (Ok(i), Some(p)) => site.content.pages[i] = p,
                    (Err(i), Some(p)) => site.content.pages.insert(i, p),
                    (Ok(i), None) => {
                        site.content.pages.remove(i);
                    }
                    (Err(_), None) => {}
                }
            }
            if !self.dirty.evidence.is_empty() {
                // One file's state (a symlink, a bad header) can depend on
                // the directory, so the evidence is read again whole; it is
                // a small share of a site's bytes.
                let (evidence, ediags) = load_evidence(&self.root, &site.config.evidence_dir)?;
                site.evidence = evidence;
                self.evidence_diags = ediags;
            }
        }
        let site = self.site.as_mut().expect("loaded above");
        // Validated whole every time: a finding about one page can name
        // another page's lines (E016, E022, E023), so none can be kept.
        let (index, vdiags) =
            validate::validate(&site.config, &site.content, &site.evidence, Mode::Build);
        site.index = index;
        let mut diags: Vec<Diagnostic> = self.page_diags.values().flatten().cloned().collect();
        diags.extend(self.evidence_diags.iter().cloned());
        diags.extend(vdiags);
        // The review lock is compared as `site::load` does: only on a site
        // without errors, read again each time (`kansoku review` may have
        // rewritten it).
        if !diags.iter().any(Diagnostic::is_error) {
            let site = self.site.as_mut().expect("loaded above");
            let (status, review) = crate::review::examine(&self.root, site, Mode::Build)?;
            // A notice can appear on any page citing an edited log or
            // resting on a suspect claim: then every page is rendered again.
            let changed = site.review != status;
            site.review = status;
            diags.extend(review);
            if changed {
                self.dirty.all = true;
            }
        }
        validate::sort(&mut diags);
        Ok(diags)
    }

    /// Loads what changed, renders what depends on it and updates the
    /// served tree. On content errors nothing is written and the changes
    /// stay pending for the next build.
    pub(crate) fn build(&mut self, renderer: &Renderer) -> Result<(Stats, Vec<Diagnostic>), Error> {
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
        let diags = self.load()?;
        lap("load", t);
        if diags.iter().any(Diagnostic::is_error) {
            return Err(Error::Content(diags));
        }
        let t = std::time::Instant::now();
        let site = self.site.as_ref().expect("loaded");
        let shape = shape(&site.content);
        let reuse = !self.dirty.all && self.rendered.as_ref().is_some_and(|r| r.shape == shape);
        // Output paths follow from the pages' URLs and the evidence files:
        // with both as before, they cannot collide now.
        if !reuse || !self.dirty.evidence.is_empty() {
            let collisions = renderer.collisions(site);
            if !collisions.is_empty() {
                return Err(Error::Content(collisions));
            }
        }
        lap("shape", t);
        let t = std::time::Instant::now();
        let stats = if reuse {
            self.render_changed(renderer)?
        } else {
            self.render_all(renderer, shape)?
        };
        lap("render", t);
        self.dirty = Dirty::default();
        Ok((stats, diags))
    }

    fn render_all(&mut self, renderer: &Renderer, shape: Vec<Shape>) -> Result<Stats, Error> {
        let site = self.site.as_ref().expect("loaded");
        let prepared = renderer.prepare(site).map_err(Error::Content)?;
        let mut units = renderer.units(site);
        // `claims.json` is made here from per-page fragments, kept for the
        // next build.
        units.retain(|u| *u != Unit::Site(SitePart::Claims));
        let (mut files, deps) = render_units(renderer, site, &prepared, &units)?;
        let fragments: Vec<String> = (0..site.content.pages.len())
            .into_par_iter()
            .map(|i| renderer.claims_fragment(site, &prepared, i))
            .collect();
        files.extend(renderer.claims_json(fragments.iter().map(String::as_str)));
        let mut page_deps = BTreeMap::new();
        for (unit, d) in units.iter().zip(deps) {
            if let Unit::Page(i) = unit {
                page_deps.insert(site.content.pages[*i].rel.clone(), d);
            }
        }
        let keep: BTreeSet<&str> = files.iter().map(|f| f.path.as_str()).collect();
        let gone: Vec<String> = self
            .manifest
            .keys()
            .filter(|p| !keep.contains(p.as_str()) && !is_search_file(p))
            .cloned()
            .collect();
        let units = units.len() + 1;
        let cites = cites(site);
        // A full build also clears what it did not write (a file or
        // symlink planted in the served tree), so nothing survives it.
        for planted in sweep(&self.out, &mut self.manifest)? {
            self.served.remove(&planted);
        }
        let (written, removed) = self.write(files, &gone)?;
        self.rendered = Some(Rendered {
            prepared,
            shape,
            deps: page_deps,
            cites,
            fragments,
        });
        Ok(Stats {
            written,
            removed,
            total: self.manifest.len(),
            units,
            full: true,
        })
    }

    fn render_changed(&mut self, renderer: &Renderer) -> Result<Stats, Error> {
        let site = self.site.as_ref().expect("loaded");
        let mut rendered = self.rendered.take().expect("checked by the caller");
        // Claims that may have changed: those of the edited pages, and
        // those that no longer exist.
        let mut candidates: BTreeSet<String> = BTreeSet::new();
        for rel in &self.dirty.pages {
            if let Some(&i) = site.index.pages.get(rel) {
                candidates.extend(site.content.pages[i].claims.iter().map(|c| c.id.clone()));
            }
        }
        // Claims that went away.
        candidates.extend(
            rendered
                .prepared
                .claim_ids()
                .filter(|id| !site.index.claims.contains_key(*id))
                .cloned(),
        );
        let changed = match renderer.update_prepared(site, &mut rendered.prepared, &candidates) {
            Ok(c) => c,
            Err(d) => {
                // The state is half updated: start afresh next time.
                self.dirty.all = true;
                return Err(Error::Content(d));
            }
        };
        let mut units: Vec<Unit<'_>> = Vec::new();
        for (i, page) in site.content.pages.iter().enumerate() {
            let redo = self.dirty.pages.contains(&page.rel)
                || rendered
                    .deps
                    .get(&page.rel)
                    .is_none_or(|d| d.all || d.claims.iter().any(|c| changed.contains(c)));
            if redo {
                units.push(Unit::Page(i));
            }
        }
        // Which claims cite which evidence changes only with a claim's view
        // (its evidence links are in it) or with the evidence files: with
        // neither, the map and every evidence page listing claims stay.
        let mut gone = Vec::new();
        let mut cites_changed = false;
        if !changed.is_empty() || !self.dirty.evidence.is_empty() {
            let new_cites = cites(site);
            for (path, ids) in &rendered.cites {
                if !site.evidence.files.contains_key(path) {
                    gone.push(crate::render::raw_evidence_path(path));
                    for lang in crate::lang::Lang::ALL {
                        gone.push(format!("{lang}/evidence/{path}/index.html"));
                    }
                } else if new_cites.get(path) != Some(ids)
                    || ids.iter().any(|c| changed.contains(c))
                {
                    self.dirty.evidence.insert(path.clone());
                }
            }
            for (path, ids) in &new_cites {
                if !rendered.cites.contains_key(path) || ids.iter().any(|c| changed.contains(c)) {
                    self.dirty.evidence.insert(path.clone());
                }
            }
            cites_changed = new_cites != rendered.cites;
            rendered.cites = new_cites;
        }
        for path in &self.dirty.evidence {
            match site.evidence.files.get_key_value(path) {
                Some((key, _)) => units.push(Unit::Evidence(key)),
                None => {
                    gone.push(crate::render::raw_evidence_path(path));
                    for lang in crate::lang::Lang::ALL {
                        gone.push(format!("{lang}/evidence/{path}/index.html"));
                    }
                }
            }
        }
        if !self.dirty.evidence.is_empty() || cites_changed {
            units.push(Unit::Site(SitePart::EvidenceIndex));
        }
        if !self.dirty.pages.is_empty() {
            units.push(Unit::Site(SitePart::Sitemap));
        }
        let (mut files, deps) = render_units(renderer, site, &rendered.prepared, &units)?;
        // Only the edited pages' entries in `claims.json` can differ.
        let mut claims_changed = false;
        for rel in &self.dirty.pages {
            if let Some(&i) = site.index.pages.get(rel) {
                let fragment = renderer.claims_fragment(site, &rendered.prepared, i);
                if rendered.fragments[i] != fragment {
                    rendered.fragments[i] = fragment;
                    claims_changed = true;
                }
            }
        }
        if claims_changed {
            files.extend(renderer.claims_json(rendered.fragments.iter().map(String::as_str)));
        }
        for (unit, d) in units.iter().zip(deps) {
            if let Unit::Page(i) = unit {
                rendered.deps.insert(site.content.pages[*i].rel.clone(), d);
            }
        }
        let count = units.len();
        self.rendered = Some(rendered);
        let (written, removed) = self.write(files, &gone)?;
        Ok(Stats {
            written,
            removed,
            total: self.manifest.len(),
            units: count,
            full: false,
        })
    }

    /// Writes the files whose bytes changed (each to a temporary name, then
    /// renamed over the old one, so a reader never sees half a file) and
    /// removes `gone`.
    fn write(&mut self, files: Vec<OutputFile>, gone: &[String]) -> Result<(usize, usize), Error> {
        let out = &self.out;
        let manifest = &self.manifest;
        let changed: Vec<(OutputFile, u64)> = files
            .into_par_iter()
            .map(|f| {
                let h = crate::site::output::content_hash(&f.bytes);
                (f, h)
            })
            .filter(|(f, h)| manifest.get(&f.path) != Some(h))
            .collect();
        write_all(out, changed.iter().map(|(f, _)| f))?;
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
        let site = self
            .site
            .as_ref()
            .filter(|s| self.rendered.is_some() && s.config.search)?;
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
fn sweep(out: &Path, manifest: &mut HashMap<String, u64>) -> Result<Vec<String>, Error> {
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

/// Evidence path → ids of the claims citing it.
fn cites(site: &Site) -> BTreeMap<String, BTreeSet<String>> {
    site.index
        .cited_by
        .iter()
        .map(|(path, ats)| {
            (
                path.clone(),
                ats.iter().map(|&at| site.claim(at).id.clone()).collect(),
            )
        })
        .collect()
}

fn render_units(
    renderer: &Renderer,
    site: &Site,
    prepared: &Prepared,
    units: &[Unit<'_>],
) -> Result<(Vec<OutputFile>, Vec<Deps>), Error> {
    let files = Mutex::new(Vec::new());
    let deps = renderer
        .render_each(site, prepared, units, &|f| {
            files
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .push(f);
            Ok(())
        })
        .map_err(Error::Content)?;
    let files = files
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    Ok((files, deps))
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
        state: Incremental,
        renderer: Renderer,
        search_files: BTreeSet<String>,
        _work: tempfile::TempDir,
    }

    impl Builder {
        fn new(root: &Path) -> Builder {
            let work = tempfile::tempdir().expect("work dir");
            Builder {
                root: root.to_path_buf(),
                state: Incremental::new(root.to_path_buf(), work.path().join("site")),
                renderer: Renderer::new(root).expect("theme").expect("theme"),
                search_files: BTreeSet::new(),
                _work: work,
            }
        }
        /// One build; its findings must be those of a full load.
        fn build(&mut self, paths: &[PathBuf]) -> Result<Stats, Error> {
            self.state.touched(paths);
            let got = self.state.build(&self.renderer);
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
        assert!(!s.full, "same structure: only what depends on the claim");
        assert!(s.units < b.renderer.units(b.state.site().expect("site")).len());
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
