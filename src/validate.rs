//! Validation: resolving claims against evidence and against each other.
//!
//! Every rule pushes findings and goes on (never fail-fast); the caller
//! decides what errors mean. This stage reads the loaded values only,
//! the ids the theme writes literally (which headings may not take)
//! among them, read with the sources (`site::Sources::theme_ids`);
//! nothing is read from disk or written here.

mod checker;
mod derive;
mod review_status;

pub(crate) use review_status::{ClaimNote, Move, ReviewStatus};

use crate::config::Config;
use crate::content::Content;
use crate::error::Diagnostic;
use crate::evidence::EvidenceIndex;
// The validator's lookups: hundreds of thousands of short keys on a large
// site, where SipHash was a sixth of `check`.
use crate::hash::checks::{hash_of, hasher};
use crate::hash::Map;
use checker::Checker;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// Which command is asking: decides the severity of untranslated segments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// `build` and `serve`: untranslated segments are warnings.
    Build,
    /// `check`: untranslated segments are errors.
    Check,
}

/// Where a claim is defined: page index and claim index in that page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct ClaimAt {
    /// Index into `Content::pages`.
    pub(crate) page: usize,
    /// Index into that page's claims.
    pub(crate) claim: usize,
}

/// Lookups built once and shared by rendering.
#[derive(Debug, Clone, Default)]
pub struct Index {
    /// Every claim id.
    pub(crate) claims: BTreeMap<String, ClaimAt>,
    /// Evidence path → the claims citing it, in page then claim order.
    pub(crate) cited_by: BTreeMap<String, Vec<ClaimAt>>,
    /// Content-relative page path → page index.
    pub(crate) pages: BTreeMap<String, usize>,
}

/// Checks the site and returns the lookups with every finding.
///
/// Two steps: the site-wide lookups are built first (`Checker::new`), then
/// every page is checked against them on its own (`Checker::page`),
/// in parallel, with the findings merged in page order. Only rules about
/// the site as a whole (duplicate ids, uncited evidence) run outside the
/// per-page step.
pub fn validate(
    config: &Config,
    content: &Content,
    evidence: &EvidenceIndex,
    theme_ids: &[String],
    mode: Mode,
) -> (Arc<Index>, Vec<Diagnostic>) {
    let (index, diags, _) = run(config, content, evidence, theme_ids, mode, None);
    (index, diags)
}

/// What an earlier run found, for [`validate_memo`] to take instead of
/// checking again. Saved between builds without its site-wide part
/// (`site::memo`).
#[derive(Default, serde::Serialize, serde::Deserialize)]
pub(crate) struct Checks {
    /// Each page's own findings, by content-relative path, with the key it
    /// was checked under ([`check_key`]).
    pages: Map<String, (u64, Vec<Diagnostic>)>,
    /// The site-wide part, with the key it was made under
    /// ([`validate_memo`]'s `whole`).
    #[serde(skip)]
    whole: Option<Arc<Whole>>,
}

/// The site-wide part of a validation: what reads every page's front
/// matter (the lookups and index, duplicate ids, uncited evidence, premise
/// cycles, and the findings that name another page's location).
struct Whole {
    key: u64,
    lookups: Arc<checker::Lookups>,
    index: Arc<Index>,
    global: Vec<Diagnostic>,
    /// Per page, in page order.
    located: Vec<Vec<Diagnostic>>,
}

/// [`validate`], taking each page's own findings from `memo` where the
/// page was checked under the same key (`keys[pi]`, see [`check_key`];
/// `None`: check it, and remember nothing),
/// and leaving in `memo` the findings of this run. The site-wide findings
/// and those naming another page's location are taken from `memo` only
/// when they were made under the same `whole` key: a hash of every input
/// they read (the site facts and every page's path and front matter, see
/// `site::memo`), so they always answer the current facts.
pub(crate) fn validate_memo(
    config: &Config,
    content: &Content,
    evidence: &EvidenceIndex,
    theme_ids: &[String],
    mode: Mode,
    (keys, whole): (&[Option<u64>], Option<u64>),
    memo: &mut Checks,
) -> (Arc<Index>, Vec<Diagnostic>) {
    let old = std::mem::take(memo);
    let (index, diags, checks) = run(
        config,
        content,
        evidence,
        theme_ids,
        mode,
        Some(Remembered { keys, whole, old }),
    );
    *memo = checks;
    (index, diags)
}

/// The key a page's own findings are remembered under: the hash of its
/// bytes and the site facts ([`site_facts`]), so that a finding never
/// outlives a fact it read.
pub(crate) fn check_key(page_bytes: u64, site_facts: u64) -> u64 {
    hash_of((page_bytes, site_facts))
}

/// Hash of what the checks of other pages read of `page`: its path, its
/// claims' ids, classes (premises are judged by class) and aspects, its
/// entities' kinds and keys, its views' columns (the aspects they show),
/// and the heading ids of each language (links' anchors).
/// A function of the page's bytes, so it may be remembered with its parse.
pub(crate) fn page_facts(page: &crate::content::Page) -> u64 {
    use crate::content::body::{heading_ids, scan};
    use crate::content::Segment;
    let mut h = hasher();
    page.rel.hash(&mut h);
    for c in &page.claims {
        (&c.id, c.class, &c.aspect).hash(&mut h);
    }
    for e in page.entity.iter().chain(&page.members) {
        (&e.kind, &e.key).hash(&mut h);
    }
    for c in page
        .columns
        .iter()
        .chain(page.views.iter().flat_map(|v| &v.columns))
    {
        c.aspect.hash(&mut h);
    }
    let scans: Vec<_> = page
        .segments
        .iter()
        .flat_map(Segment::chunks)
        .map(|(chunk, _)| scan(chunk, &page.rel))
        .collect();
    for lang in crate::lang::Lang::ALL {
        let langs = page
            .segments
            .iter()
            .flat_map(Segment::chunks)
            .map(|(_, l)| l);
        // With the page's own reserved ids; the theme's are in the site
        // facts.
        let reserved =
            crate::content::body::reserved_ids(&[], page.claims.iter().map(|c| c.id.as_str()));
        let mut ids: Vec<String> = heading_ids(scans.iter().zip(langs), lang, &reserved)
            .into_iter()
            .collect();
        ids.sort_unstable();
        ids.hash(&mut h);
    }
    h.finish()
}

/// The ids of the claims `page`'s text names (`[[claim:ID]]`, in either
/// language), sorted, each once: with its own claims, the claims the page
/// may show (`render::input`). Found by the scan the checks use, which
/// reads a reference exactly as rendering does.
pub(crate) fn claim_names(page: &crate::content::Page) -> Vec<String> {
    use crate::content::body::{scan, Reference};
    use crate::content::Segment;
    let mut ids: Vec<String> = page
        .segments
        .iter()
        .flat_map(Segment::chunks)
        .flat_map(|(chunk, _)| scan(chunk, &page.rel).refs)
        .filter_map(|(r, _)| match r {
            Reference::Claim(id) => Some(id.into_owned()),
            _ => None,
        })
        .collect();
    ids.sort_unstable();
    ids.dedup();
    ids
}

/// Hash of every fact a page's own check ([`Checker::page`]) reads
/// besides the page: the configuration, the theme's ids, the mode, every page's facts
/// (`page_facts[pi]`, see [`page_facts`]) in page order (the first
/// definition of an id is the one that counts), the pages that failed to
/// load, and every evidence file.
pub(crate) fn site_facts(
    config: &Config,
    content: &Content,
    evidence: &EvidenceIndex,
    theme_ids: &[String],
    mode: Mode,
    page_facts: &[u64],
) -> u64 {
    let mut h = hasher();
    config.key.hash(&mut h);
    theme_ids.hash(&mut h);
    (mode == Mode::Check).hash(&mut h);
    page_facts.hash(&mut h);
    content.failed.hash(&mut h);
    content.drafts.hash(&mut h);
    (&evidence.dir_name, &evidence.escaping, &evidence.broken).hash(&mut h);
    for (path, file) in &evidence.files {
        (path, file.kind().map(|k| k.name()), file.file_hash()).hash(&mut h);
    }
    h.finish()
}

/// What [`validate_memo`] may take from an earlier run: the key of each
/// page's own check, the key of the site-wide part, and that run's memo
/// (taken: its findings move into the next one).
struct Remembered<'m> {
    keys: &'m [Option<u64>],
    whole: Option<u64>,
    old: Checks,
}

/// Validates, taking from `memo` what it remembers under the same keys
/// (see [`validate_memo`]); returns the index, every finding (sorted,
/// each cloned once from where it is kept) and what the next run may take.
fn run(
    config: &Config,
    content: &Content,
    evidence: &EvidenceIndex,
    theme_ids: &[String],
    mode: Mode,
    memo: Option<Remembered<'_>>,
) -> (Arc<Index>, Vec<Diagnostic>, Checks) {
    let n = content.pages.len();
    let (keys, whole_key, mut old) = match memo {
        Some(m) => (Some(m.keys), m.whole, m.old),
        None => (None, None, Checks::default()),
    };
    let key = |pi: usize| keys.and_then(|k| k[pi]);
    let remembered_whole = old
        .whole
        .take()
        .filter(|w| Some(w.key) == whole_key && w.located.len() == n);
    // Each remembered page's entry is moved out of the old table, path
    // and all, into the new one.
    let mut remembered: Vec<Option<(String, Vec<Diagnostic>)>> = (0..n)
        .map(|pi| {
            let key = key(pi)?;
            let (rel, (k, d)) = old.pages.remove_entry(content.pages[pi].rel.as_str())?;
            (k == key).then_some((rel, d))
        })
        .collect();
    // The lookups are built only when something is checked: a run whose
    // edits changed no front matter, and no page's own check, needs none.
    let checker =
        (remembered_whole.is_none() || remembered.iter().any(Option::is_none)).then(|| {
            let lookups = remembered_whole.as_ref().map(|w| w.lookups.clone());
            Checker::new(config, content, evidence, theme_ids, mode, lookups)
        });
    let whole = match (remembered_whole, &checker) {
        (Some(w), _) => w,
        (None, Some(checker)) => {
            let mut global = checker.duplicate_ids();
            let (index, located) = rayon::join(
                || checker.index(),
                || {
                    (0..n)
                        .into_par_iter()
                        .map(|pi| checker.located(pi))
                        .collect::<Vec<_>>()
                },
            );
            global.extend(checker.uncited_evidence());
            global.extend(checker.aspect_scopes());
            global.extend(checker.cycles());
            Arc::new(Whole {
                key: whole_key.unwrap_or(0),
                lookups: checker.lookups(),
                index: Arc::new(index),
                global,
                located,
            })
        }
        (None, None) => {
            unreachable!("a checker is built when the site-wide part is not remembered")
        }
    };
    let fresh: Vec<Option<Vec<Diagnostic>>> = (0..n)
        .into_par_iter()
        .map(|pi| match (&remembered[pi], &checker) {
            (Some(_), _) => None,
            (None, Some(checker)) => Some(checker.page(pi)),
            (None, None) => unreachable!("a checker is built when a page is not remembered"),
        })
        .collect();
    let mut diags = whole.global.clone();
    let mut checks = Checks::default();
    for (pi, fresh) in fresh.into_iter().enumerate() {
        let (rel, own) = match (remembered[pi].take(), fresh) {
            (Some(entry), _) => entry,
            (None, Some(own)) => (content.pages[pi].rel.clone(), own),
            (None, None) => unreachable!("every page is remembered or checked"),
        };
        diags.extend(own.iter().cloned());
        diags.extend(whole.located[pi].iter().cloned());
        if let Some(key) = key(pi) {
            checks.pages.insert(rel, (key, own));
        }
    }
    sort(&mut diags);
    once_per_failed_page(&mut diags);
    let index = whole.index.clone();
    if whole_key.is_some() {
        checks.whole = Some(whole);
    }
    (index, diags, checks)
}

/// Sorts findings by file, line and column, keeping rule order for ties.
pub(crate) fn sort(diags: &mut [Diagnostic]) {
    diags.sort_by(|a, b| a.location.cmp(&b.location));
}

/// Keeps the first W071 about each page that failed to load (the page it
/// is `about`): one mistake, one finding on the page
/// itself and one saying references wait for it.
fn once_per_failed_page(diags: &mut Vec<Diagnostic>) {
    let mut seen = std::collections::HashSet::new();
    diags.retain(|d| d.code != "W071" || seen.insert(d.about().map(str::to_owned)));
}

/// A loaded and validated site: what rendering consumes.
#[derive(Debug, Clone)]
pub struct Site {
    /// Configuration.
    pub(crate) config: Config,
    /// Pages.
    pub content: Content,
    /// Evidence files.
    pub(crate) evidence: EvidenceIndex,
    /// Lookups.
    pub(crate) index: Arc<Index>,
    /// What the review lock says about the claims now (empty without a
    /// lock): the notices readers see.
    pub(crate) review: ReviewStatus,
}

impl Site {
    /// The claim at a place.
    pub(crate) fn claim(&self, at: ClaimAt) -> &crate::content::Claim {
        &self.content.pages[at.page].claims[at.claim]
    }
}
