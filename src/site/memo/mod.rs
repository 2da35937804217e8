//! The stages `build`, `check` and `serve` share, memoised on content
//! hashes.
//!
//! Every stage stays a pure function of its inputs; [`Caches`] only
//! remembers results by a hash of those inputs, so a stage's output is
//! the same whether it was computed now or remembered:
//!
//! - a page is parsed again only when its bytes change; when the caller
//!   says which paths changed ([`Caches::changed`], serve's watcher), the
//!   other pages and evidence files are not even read;
//! - a page is checked again only when its bytes or the site facts its
//!   check reads change (ids, classes, entity keys, heading ids of every
//!   page, the evidence, the configuration: `validate::site_facts`); the
//!   lookups every page is checked against, the findings about the whole
//!   site and those naming another page's location (E016, E022, E023)
//!   are made again only when the site facts or any page's path or front
//!   matter (where claims and entities are declared, and whose lines
//!   their locations count) changed;
//! - the render state (`RenderState`) is made again only when what every
//!   unit reads, a page's claims or an evidence file changes ([`prepare`]);
//! - the theme is loaded again only when a file under `templates/` or
//!   `static/` (or kansoku itself) changes;
//! - a render unit is rendered again only when its input changes (see
//!   [`Inputs`]): what every unit reads (kansoku's version, the theme,
//!   `book.toml`, every page's outline — `content::Outline`, the one
//!   value render code reads of another page, hashed whole —, the
//!   evidence files' names and headers), its own source and the stale
//!   translations the review lock finds in it, and the views of the
//!   claims it showed: those its last render looked up, found or not
//!   (every claim for a generated view), each view as a value
//!   (`Renderer::claim_views`, review notices included). If those are
//!   unchanged the render would look up the same claims and make the
//!   same bytes, so nothing is guessed about what a page shows. The site-wide files
//!   (claims export, evidence index, sitemap, chooser, static files) are
//!   keyed as the render state is; the llms files also on the sources of
//!   the pages whose text they read last time (issue 28). A page's body is read by no other
//!   output, so a prose edit renders one page, with a review lock too,
//!   and a claim edit renders the pages and evidence pages showing that
//!   claim, and the site-wide files.
//!
//! The caller owns the output the files go to (`site::plan::Output`). Parts
//! of the memo serve one caller: [`Caches::changed`], [`gone_files`] and
//! [`forget_units`] serve's tree (which is told the paths a save touched
//! and keeps its files between runs); [`Caches::keep_checks`],
//! [`Caches::read_units`] and the `save_*` functions a build, which keeps
//! its memo on disk beside its build directory.

use crate::config::Config;
use crate::content::{self, Loaded};
use crate::error::{Diagnostic, Error, Result};
use crate::evidence::{load_evidence_with, EvidenceIndex};
use crate::render::input::ClaimViews;
use crate::render::{RenderState, Renderer, Unit};
use crate::validate::Site;
// The memo's tables: looked up for every page and unit on every run of
// serve, where SipHash showed in the profile.
use crate::hash::memo::{hash_of, hasher};
use crate::hash::Map;
use std::collections::BTreeSet;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

mod store;
mod units;

pub(crate) use store::CheckStore;
pub(crate) use units::{
    drop_render_state, forget_units, gone_files, render, retain_units, unit_files,
    unit_files_hashed, Job, Rendered,
};

/// What one run remembers for the next. Empty: a cold run.
#[derive(Default)]
pub struct Caches {
    /// Content-relative page path → its last parse.
    /// Shared, so that taking an unchanged page's entry costs nothing.
    pages: Map<String, Arc<PageMemo>>,
    /// The theme, with the fingerprint of the files it was loaded from.
    theme: Option<(u64, Arc<Renderer>)>,
    /// Unit key → the input it was rendered from and the files it made.
    units: Map<String, UnitMemo>,
    /// How many keys of `units` this run's renders set (reset by each
    /// load): when it is all of them, no unit is gone ([`retain_units`]).
    keyed: usize,
    /// This run's files that the last run's units made and this run's do
    /// not (see [`gone_files`]); reset by each load.
    gone: Gone,
    /// Two outputs at one path, with the hash of what the paths were
    /// planned from (see [`collisions`]).
    collisions: Option<(u64, Vec<Diagnostic>)>,
    /// The render state and its claims' views, with the hash of what they
    /// were made from (see [`prepare`]).
    prepared: Option<(u64, Arc<RenderState>, Arc<ClaimViews>)>,
    /// The evidence as last read, in a run that is repeated.
    evidence: Option<EvidenceIndex>,
    /// The paths (relative to the root) that may have changed since the
    /// last load, when the caller knows them ([`Caches::changed`]): a
    /// page or evidence file under none of them is taken from the memo
    /// without being read. `None`: every file is read.
    changed: Option<BTreeSet<PathBuf>>,
    /// Each page's own findings, under the key it was checked with
    /// (see [`validate`]).
    checks: crate::validate::Checks,
    /// Keep no parses (only their hashes): a build runs once, and a copy
    /// of every page would double its memory.
    once: bool,
    /// Where a build that runs once keeps its findings for the next one,
    /// given the site's configuration (see [`validate`]); `None`:
    /// nowhere.
    saved_checks: Option<CheckStore>,
    /// What [`validate`] found from the disk, for [`Caches::save_checks`].
    checks_to_save: Option<(PathBuf, SavedChecks)>,
    /// Make no render inputs (which claims a page's text names): a
    /// load that renders nothing (`check`) needs none.
    unrendered: bool,
    /// The search stage's shards, for a run that indexes search.
    pub(crate) search: crate::search::Memo,
}

impl std::fmt::Debug for Caches {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Caches")
            .field("pages", &self.pages.len())
            .field("theme", &self.theme.as_ref().map(|(h, _)| h))
            .field("units", &self.units.len())
            .field("prepared", &self.prepared.as_ref().map(|(h, _, _)| h))
            .finish()
    }
}

#[derive(Clone)]
struct PageMemo {
    /// Hash of the file's bytes.
    bytes: u64,
    /// The parse itself, unless forgotten ([`forget_parses`]).
    parsed: Option<(Loaded, Vec<Diagnostic>)>,
    /// The claim ids its text names (`validate::claim_names`): with its
    /// own, the claims its render input holds. Empty in a run that
    /// renders nothing.
    names: Vec<String>,
    /// What other pages' checks read of it (`validate::page_facts`); 0
    /// in a run that is not repeated.
    facts: u64,
    /// What the site-wide part of validation reads of it: its path and
    /// its front matter, where every claim and entity is declared, with
    /// the lines their locations are counted in (see [`front_matter`]).
    /// 0 in a run that is not repeated.
    front: u64,
}

/// Hash of a page's path and front matter text (all of the file when it
/// has no body).
fn front_matter(page: &content::Page) -> u64 {
    let text = &page.src.text;
    let end = match content::front_matter::split(&page.src, false) {
        Ok(Some(split)) => split.body_start.min(text.len()),
        _ => text.len(),
    };
    hash_of((&page.rel, &text[..end]))
}

/// What [`gone_files`] is made from.
#[derive(Default)]
struct Gone {
    /// Files of a unit that its new render no longer makes, and of the
    /// units forgotten.
    dropped: Vec<String>,
    /// Every file of the units rendered this run: another unit may have
    /// taken a path one dropped.
    made: std::collections::HashSet<String, foldhash::fast::FixedState>,
    /// The unit table was cleared since the last run that was told what
    /// is gone: what the last run made is not known.
    unknown: bool,
}

impl Gone {
    fn since_load(&mut self) {
        self.dropped.clear();
        self.made.clear();
    }
}

#[derive(Clone, serde::Serialize, serde::Deserialize)]
struct UnitMemo {
    /// The hash of the unit's input (`render::input::UnitInput::key`).
    input: u64,
    /// Each file's path and the hash of its bytes.
    files: Vec<(String, u64)>,
    /// The llms files': the content paths of the pages whose text they
    /// read (`render::Made::read`), over which their next input is made.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    read: Vec<String>,
}

/// A site's sources as read, before validation (see [`super::Sources`]).
pub(crate) fn load_sources(
    root: &Path,
    overrides: &super::plan::Overrides,
    caches: &mut Caches,
) -> Result<super::Sources> {
    // A mistake in book.toml costs only its key or table: the pages are
    // still read and checked, and its findings are among theirs.
    let (mut config, config_diags) = Config::load_lenient(root)?;
    overrides.apply(&mut config);
    let old = &caches.pages;
    let (once, unrendered) = (caches.once, caches.unrendered);
    // Whether the file at this root-relative path is known unchanged
    // since the memo was made: no path changed at or above it.
    let unchanged = |path: &Path| {
        caches.changed.as_ref().is_some_and(|changed| {
            // A save names a path or two: comparing with each is
            // cheaper than looking up every ancestor of every file.
            if changed.len() <= 16 {
                !changed.iter().any(|c| path.starts_with(c))
            } else {
                !path.ancestors().any(|a| changed.contains(a))
            }
        })
    };
    let fresh = Mutex::new(Map::with_capacity_and_hasher(old.len(), Default::default()));
    let load = |dir: &Path, path: &Path| -> Result<(Loaded, Vec<Diagnostic>)> {
        let rel = content::rel_path(dir, path);
        let known = old
            .get(&rel)
            .filter(|m| m.parsed.is_some() && unchanged(&Path::new("content").join(&rel)));
        let (memo, out) = match known {
            Some(m) => (m.clone(), m.parsed.clone()),
            None => read_page(&rel, path, old.get(&rel), once, unrendered)?,
        };
        crate::sync::lock(&fresh).insert(rel, memo);
        Ok(out.expect("parsed above"))
    };
    let old_evidence = caches.evidence.as_ref().filter(|_| !once);
    let known_evidence = |rel: &str| {
        let file = old_evidence?.files.get(rel)?;
        unchanged(&config.evidence_dir.join(rel)).then(|| file.clone())
    };
    let (content, evidence) = rayon::join(
        || content::load_content_with(root, &load),
        || {
            load_evidence_with(
                root,
                &config.evidence_dir,
                config.max_gz_size,
                &known_evidence,
            )
        },
    );
    let (content, mut content_diags) = content?;
    content_diags.extend(config_diags);
    let (evidence, evidence_diags) = evidence?;
    caches.keyed = 0;
    caches.gone.since_load();
    // Pages that are gone are forgotten with the rest of the old table.
    caches.pages = fresh
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if !once {
        caches.evidence = Some(evidence.clone());
        caches.changed = Some(BTreeSet::new());
    }
    // The ids the theme's templates write literally, which headings may
    // not take: read here, with the other sources, so that validation
    // reads nothing from disk.
    let theme_ids = crate::theme::theme_ids(root);
    Ok(super::Sources {
        config,
        theme_ids,
        content,
        content_diags,
        evidence,
        evidence_diags,
    })
}

/// What reading one page gives: its memo entry, and its parse.
type Read = (Arc<PageMemo>, Option<(Loaded, Vec<Diagnostic>)>);

/// Reads the page at `path` (`rel` under `content/`), parsing it unless
/// its bytes are those `old` was parsed from. In a run that is not
/// repeated (`once`) the entry keeps no parse.
fn read_page(
    rel: &str,
    path: &Path,
    old: Option<&Arc<PageMemo>>,
    once: bool,
    unrendered: bool,
) -> Result<Read> {
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    let hash = crate::hash::content_hash(&bytes);
    Ok(match old {
        Some(m) if m.bytes == hash && m.parsed.is_some() => (m.clone(), m.parsed.clone()),
        _ => {
            let (loaded, diags) = content::parse_file(rel, bytes);
            let (facts, front) = match &loaded {
                Loaded::Page(page) | Loaded::Partial(_, page) if !once => {
                    (crate::validate::page_facts(page), front_matter(page))
                }
                _ => (0, 0),
            };
            let names = match &loaded {
                Loaded::Page(page) | Loaded::Partial(_, page) if !unrendered => {
                    crate::validate::claim_names(page)
                }
                _ => Vec::new(),
            };
            let mut memo = PageMemo {
                bytes: hash,
                parsed: Some((loaded, diags)),
                names,
                facts,
                front,
            };
            let out = if once {
                memo.parsed.take()
            } else {
                memo.parsed.clone()
            };
            (Arc::new(memo), out)
        }
    })
}

/// Validates the site, checking again only the pages whose bytes or
/// whose site facts (`validate::site_facts`) changed since the last run.
/// One path for both memos: serve's, kept in [`Caches`] between runs, and
/// a build's, kept on disk at the path [`Caches::keep_checks`] names
/// ([`SavedChecks`]), where a page's facts (`validate::page_facts`, a
/// function of its bytes) and own findings are taken while they still
/// hold and the site-wide part is made anew. A run that is not repeated
/// and keeps nothing checks every page and remembers nothing.
pub(crate) fn validate(
    sources: &super::Sources,
    mode: crate::validate::Mode,
    caches: &mut Caches,
) -> (Arc<crate::validate::Index>, Vec<Diagnostic>) {
    use rayon::prelude::*;
    let super::Sources {
        config,
        content,
        evidence,
        theme_ids,
        ..
    } = sources;
    let on_disk = if caches.once {
        let Some(path) = caches.saved_checks.as_ref().map(|at| at(config)) else {
            return crate::validate::validate(config, content, evidence, theme_ids, mode);
        };
        Some(path)
    } else {
        None
    };
    let memos: Vec<Option<&PageMemo>> = content
        .pages
        .iter()
        .map(|p| caches.pages.get(&p.rel).map(|m| &**m))
        .collect();
    let bytes: Vec<Option<u64>> = memos.iter().map(|m| m.map(|m| m.bytes)).collect();
    // Where the page facts and the findings come from: the memo in
    // memory, or the last build's file where a page's bytes are the same.
    let (facts, mut checks): (Vec<u64>, _) = match &on_disk {
        None => (
            memos.iter().map(|m| m.map_or(0, |m| m.facts)).collect(),
            std::mem::take(&mut caches.checks),
        ),
        Some(path) => {
            let saved = std::fs::read(path)
                .ok()
                .and_then(|bytes| serde_json::from_slice::<SavedChecks>(&bytes).ok())
                .filter(|s| s.version == crate::version::build_id());
            let (old_facts, checks) = match saved {
                Some(s) => (s.facts, s.checks),
                None => Default::default(),
            };
            let facts = content
                .pages
                .par_iter()
                .zip(&bytes)
                .map(|(page, b)| match (old_facts.get(&page.rel), b) {
                    (Some(&(known, facts)), Some(b)) if known == *b => facts,
                    _ => crate::validate::page_facts(page),
                })
                .collect();
            (facts, checks)
        }
    };
    let site = crate::validate::site_facts(config, content, evidence, theme_ids, mode, &facts);
    let keys: Vec<Option<u64>> = bytes
        .iter()
        .map(|b| b.map(|b| crate::validate::check_key(b, site)))
        .collect();
    // The site-wide part reads the site facts and every page's path and
    // front matter; remembered in memory only (a page without a memo
    // entry makes it unremembered).
    let whole = match on_disk {
        Some(_) => None,
        None => memos
            .iter()
            .map(|m| m.map(|m| m.front))
            .collect::<Option<Vec<u64>>>()
            .map(|f| hash_of((site, f))),
    };
    let out = crate::validate::validate_memo(
        config,
        content,
        evidence,
        theme_ids,
        mode,
        (&keys, whole),
        &mut checks,
    );
    match on_disk {
        None => caches.checks = checks,
        Some(path) => {
            let facts = content
                .pages
                .iter()
                .zip(bytes.iter().zip(&facts))
                .filter_map(|(p, (b, &f))| Some((p.rel.clone(), ((*b)?, f))))
                .collect();
            caches.checks_to_save = Some((
                path,
                SavedChecks {
                    version: crate::version::build_id().to_owned(),
                    facts,
                    checks,
                },
            ));
        }
    }
    out
}

/// The page facts and findings a build saves for the next one (see
/// [`validate`]): kansoku's `build_id` first, so that another kansoku's
/// are never read.
#[derive(serde::Serialize, serde::Deserialize)]
struct SavedChecks {
    version: String,
    /// Content-relative path → (hash of the page's bytes, its facts).
    facts: Map<String, (u64, u64)>,
    checks: crate::validate::Checks,
}

/// A parsed theme a caller keeps across runs that each start from empty
/// caches (the tests' cold runs and builds), with the fingerprint of the
/// files it was parsed from: what [`Caches`] keeps between serve's runs.
/// Owned by the caller, so that no process-wide state outlives it; a
/// clone shares the parsed theme.
#[derive(Default, Clone)]
pub(crate) struct ThemeCache(Option<(u64, Arc<Renderer>)>);

impl ThemeCache {
    /// The fingerprint of the theme's files it was parsed from; `None`
    /// before a run has filled it. For the tests that keep a theme per
    /// variant.
    #[cfg(test)]
    pub(crate) fn fingerprint(&self) -> Option<u64> {
        self.0.as_ref().map(|(h, _)| *h)
    }
}

impl Caches {
    /// Exchanges the theme these caches hold with `theme`'s: before a run,
    /// to start from the caller's theme (parsed again only if its files
    /// changed), and after it, to give back the one the run used.
    pub(crate) fn swap_theme(&mut self, theme: &mut ThemeCache) {
        std::mem::swap(&mut self.theme, &mut theme.0);
    }
}

/// The theme of the site at `root`, loaded again only if its files
/// changed.
pub(crate) fn renderer(root: &Path, caches: &mut Caches) -> Result<Arc<Renderer>> {
    if caches.unrendered {
        // Nothing is remembered for a later run, so the theme's files
        // need not be read a second time for a fingerprint.
        return Ok(Arc::new(Renderer::new(root)?));
    }
    let fingerprint = theme_fingerprint(root)?;
    if let Some((h, r)) = &caches.theme {
        if *h == fingerprint {
            return Ok(r.clone());
        }
    }
    let renderer = Arc::new(Renderer::new(root)?);
    caches.theme = Some((fingerprint, renderer.clone()));
    Ok(renderer)
}

/// Hash of which kansoku this is (`version::build_id`) and of every file
/// the theme is read from.
pub(crate) fn theme_fingerprint(root: &Path) -> Result<u64> {
    let mut h = hasher();
    crate::version::build_id().hash(&mut h);
    for dir in ["templates", "static"] {
        let dir = root.join(dir);
        if !dir.is_dir() {
            continue;
        }
        for entry in walkdir::WalkDir::new(&dir).sort_by_file_name() {
            let entry = entry.map_err(|e| Error::io(dir.clone(), e.into()))?;
            if entry.file_type().is_file() {
                let bytes = std::fs::read(entry.path()).map_err(|e| Error::io(entry.path(), e))?;
                content::rel_path(&dir, entry.path()).hash(&mut h);
                crate::hash::content_hash(&bytes).hash(&mut h);
            }
        }
    }
    Ok(h.finish())
}

/// The theme's fingerprint in `caches` (0 where no theme was loaded: a
/// run that renders nothing), for [`SiteInput`](crate::render::input::SiteInput).
pub(crate) fn theme_key(caches: &Caches) -> u64 {
    caches.theme.as_ref().map_or(0, |(t, _)| *t)
}

/// The outputs of `site` that would be written to one path
/// (`Renderer::collisions`), found again only when what every unit reads
/// changed (`site_input`, the hash of its `SiteInput`): the paths are
/// planned from the pages' paths and layouts, the evidence files' names,
/// the configuration and the theme's static files.
pub(crate) fn collisions(
    site: &Site,
    renderer: &Renderer,
    caches: &mut Caches,
    site_input: u64,
) -> Vec<Diagnostic> {
    match &caches.collisions {
        Some((k, found)) if *k == site_input => found.clone(),
        _ => {
            let found = renderer.collisions(site);
            caches.collisions = Some((site_input, found.clone()));
            found
        }
    }
}

/// The render state of `site` and its claims' views, made again only when
/// what they are made from changed: its `ClaimsInput`, whose hash is
/// `claims_input` (a prose edit leaves it alone).
pub(crate) fn prepare(
    site: &Site,
    renderer: &Renderer,
    caches: &mut Caches,
    claims_input: u64,
) -> std::result::Result<(Arc<RenderState>, Arc<ClaimViews>), Vec<Diagnostic>> {
    if let Some((k, p, v)) = &caches.prepared {
        if *k == claims_input {
            return Ok((p.clone(), v.clone()));
        }
    }
    // The old state is dropped first: at scale it is large.
    caches.prepared = None;
    let prepared = Arc::new(renderer.prepare(site)?);
    let views = Arc::new(renderer.claim_view_hashes(site, &prepared));
    caches.prepared = Some((claims_input, prepared.clone(), views.clone()));
    Ok((prepared, views))
}

impl Caches {
    /// Tells the next load which paths (relative to the root) changed
    /// since the last one, added to those it was already told; `None`
    /// (not known: a watcher that lost track) makes it read every file.
    /// Until a load succeeds, every file is read.
    pub(crate) fn changed(&mut self, paths: Option<&[PathBuf]>) {
        match (paths, &mut self.changed) {
            (Some(paths), Some(changed)) => changed.extend(paths.iter().cloned()),
            _ => self.changed = None,
        }
    }

    /// Caches for one run that will not be repeated in this process (a
    /// build): parsed pages are not kept, only their hashes.
    pub fn once() -> Caches {
        Caches {
            once: true,
            ..Caches::default()
        }
    }

    /// Caches for one run that renders nothing (`check`, `review`): no
    /// parses kept and no render keys made.
    pub(crate) fn unrendered() -> Caches {
        Caches {
            unrendered: true,
            ..Caches::once()
        }
    }
}

/// A unit's name in the memo's table (and in a build's saved memo): which
/// output it is, not what it is made from.
fn unit_key(site: &Site, unit: Unit<'_>) -> String {
    match unit {
        Unit::Page(i) => format!("page:{}", site.content.pages[i].rel),
        Unit::Evidence(path) => format!("evidence:{path}"),
        Unit::Site(part) => format!("site:{}", part.name()),
    }
}
