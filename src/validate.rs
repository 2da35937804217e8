//! Validation: resolving claims against evidence and against each other.
//!
//! Every rule pushes findings and goes on (never fail-fast); the caller
//! decides what errors mean. This stage reads the loaded values only: no
//! files are read or written here.

mod checker;
mod derive;

use crate::config::Config;
use crate::content::Content;
use crate::error::Diagnostic;
use crate::evidence::EvidenceIndex;
use checker::Checker;
use rayon::prelude::*;
use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasher, Hash, Hasher};

/// The validator's lookups: hundreds of thousands of short keys on a
/// large site, where SipHash was a sixth of `check` (a fixed state, so
/// nothing depends on a random seed; no key comes from outside the site).
type Map<K, V> = HashMap<K, V, foldhash::fast::FixedState>;

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
    pub page: usize,
    /// Index into that page's claims.
    pub claim: usize,
}

/// Lookups built once and shared by rendering.
#[derive(Debug, Clone, Default)]
pub struct Index {
    /// Every claim id.
    pub claims: BTreeMap<String, ClaimAt>,
    /// Evidence path → the claims citing it, in page then claim order.
    pub cited_by: BTreeMap<String, Vec<ClaimAt>>,
    /// Content-relative page path → page index.
    pub pages: BTreeMap<String, usize>,
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
    mode: Mode,
) -> (Index, Vec<Diagnostic>) {
    let (index, v, _) = Validation::new(config, content, evidence, mode, None);
    (index, v.diagnostics())
}

/// Each page's findings from an earlier run, by content-relative path,
/// with the key it was checked under ([`check_key`]): what [`validate_memo`]
/// takes instead of checking the page again.
pub(crate) type Checks = HashMap<String, (u64, Vec<Diagnostic>)>;

/// [`validate`], taking each page's own findings from `memo` where the
/// page was checked under the same key (`keys[pi]`, see [`check_key`];
/// `None`: check it, and remember nothing),
/// and leaving in `memo` the findings of this run. The site-wide findings
/// and those naming another page's location are computed from the
/// current facts every time.
pub(crate) fn validate_memo(
    config: &Config,
    content: &Content,
    evidence: &EvidenceIndex,
    mode: Mode,
    keys: &[Option<u64>],
    memo: &mut Checks,
) -> (Index, Vec<Diagnostic>) {
    let (index, v, checks) = Validation::new(config, content, evidence, mode, Some((keys, memo)));
    *memo = checks;
    (index, v.diagnostics())
}

/// The key a page's own findings are remembered under: the hash of its
/// bytes and the site facts ([`site_facts`]), so that a finding never
/// outlives a fact it read.
pub(crate) fn check_key(page_bytes: u64, site_facts: u64) -> u64 {
    hash_of((page_bytes, site_facts))
}

fn hasher() -> impl Hasher {
    foldhash::quality::FixedState::with_seed(0x6b61_6e73_6f6b_7533).build_hasher()
}

fn hash_of(value: impl Hash) -> u64 {
    let mut h = hasher();
    value.hash(&mut h);
    h.finish()
}

/// Hash of what the checks of other pages read of `page`: its path, its
/// claims' ids and classes (premises are judged by class), its entities'
/// kinds and keys, and the heading ids of each language (links' anchors).
/// A function of the page's bytes, so it may be remembered with its parse.
pub(crate) fn page_facts(page: &crate::content::Page) -> u64 {
    use crate::content::body::{heading_ids, scan};
    use crate::content::Segment;
    let mut h = hasher();
    page.rel.hash(&mut h);
    for c in &page.claims {
        (&c.id, c.class).hash(&mut h);
    }
    for e in page.entity.iter().chain(&page.members) {
        (&e.kind, &e.key).hash(&mut h);
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
        let mut ids: Vec<String> = heading_ids(scans.iter().zip(langs), lang)
            .into_iter()
            .collect();
        ids.sort_unstable();
        ids.hash(&mut h);
    }
    h.finish()
}

/// Hash of every fact a page's own check ([`Checker::page`]) reads
/// besides the page: the configuration, the mode, every page's facts
/// (`page_facts[pi]`, see [`page_facts`]) in page order (the first
/// definition of an id is the one that counts), the pages that failed to
/// load, and every evidence file.
pub(crate) fn site_facts(
    config: &Config,
    content: &Content,
    evidence: &EvidenceIndex,
    mode: Mode,
    page_facts: &[u64],
) -> u64 {
    let mut h = hasher();
    format!("{config:?}").hash(&mut h);
    (mode == Mode::Check).hash(&mut h);
    page_facts.hash(&mut h);
    format!("{:?}", content.failed).hash(&mut h);
    (&evidence.dir_name, &evidence.escaping, &evidence.broken).hash(&mut h);
    for (path, file) in &evidence.files {
        (path, format!("{:?}", file.kind()), file.body()).hash(&mut h);
    }
    h.finish()
}

/// Every finding of one validation, kept apart by scope: the site-wide
/// ones (duplicate ids, uncited evidence, cycles) are recomputed with the
/// per-page ones every time, so neither can outlive the facts it names.
#[derive(Debug, Clone)]
struct Validation {
    /// Findings about the whole site.
    global: Vec<Diagnostic>,
    /// Findings about each page, in page order.
    pages: Vec<Vec<Diagnostic>>,
}

impl Validation {
    /// Checks every page, or takes its own findings from `memo` where its
    /// key (`keys[pi]`) is the one it was checked under; returns the
    /// table of this run's per-page findings (empty without a memo).
    fn new(
        config: &Config,
        content: &Content,
        evidence: &EvidenceIndex,
        mode: Mode,
        memo: Option<(&[Option<u64>], &Checks)>,
    ) -> (Index, Validation, Checks) {
        let checker = Checker::new(config, content, evidence, mode);
        let mut global = checker.duplicate_ids();
        // Rendering's ordered lookups are built while the pages are checked:
        // checking uses its own hashed ones.
        let (index, pages) = rayon::join(
            || checker.index(),
            || {
                (0..content.pages.len())
                    .into_par_iter()
                    .map(|pi| {
                        let rel = &content.pages[pi].rel;
                        let remembered = memo.and_then(|(keys, old)| {
                            let key = keys[pi]?;
                            old.get(rel).filter(|(k, _)| *k == key).map(|(_, d)| d)
                        });
                        let own = match remembered {
                            Some(d) => d.clone(),
                            None => checker.page(pi),
                        };
                        (own, checker.located(pi))
                    })
                    .collect::<Vec<_>>()
            },
        );
        global.extend(checker.uncited_evidence());
        global.extend(checker.cycles());
        let mut checks = Checks::new();
        let pages = pages
            .into_iter()
            .enumerate()
            .map(|(pi, (mut own, located))| {
                if let Some(key) = memo.and_then(|(keys, _)| keys[pi]) {
                    checks.insert(content.pages[pi].rel.clone(), (key, own.clone()));
                }
                // After the page's own: a tie in location keeps rule
                // order, and these came last on their claim or key.
                own.extend(located);
                own
            })
            .collect();
        (index, Validation { global, pages }, checks)
    }

    /// Every finding, sorted.
    fn diagnostics(&self) -> Vec<Diagnostic> {
        let mut diags = self.global.clone();
        diags.extend(self.pages.iter().flatten().cloned());
        sort(&mut diags);
        once_per_failed_page(&mut diags);
        diags
    }
}

/// Sorts findings by file, line and column, keeping rule order for ties.
pub fn sort(diags: &mut [Diagnostic]) {
    diags.sort_by(|a, b| a.location.cmp(&b.location));
}

/// Words of W071's message just before the failed page's path.
pub(crate) const FAILED_PAGE: &str = "is in ";

/// Keeps the first W071 about each page that failed to load: one mistake,
/// one finding on the page itself and one saying references wait for it.
fn once_per_failed_page(diags: &mut Vec<Diagnostic>) {
    let mut seen = std::collections::HashSet::new();
    diags.retain(|d| {
        d.code != "W071"
            || seen.insert(
                d.message
                    .rsplit_once(FAILED_PAGE)
                    .map_or(String::new(), |(_, page)| page.to_owned()),
            )
    });
}

/// A loaded and validated site: what rendering consumes.
#[derive(Debug, Clone)]
pub struct Site {
    /// Configuration.
    pub config: Config,
    /// Pages.
    pub content: Content,
    /// Evidence files.
    pub evidence: EvidenceIndex,
    /// Lookups.
    pub index: Index,
    /// What the review lock says about the claims now (empty without a
    /// lock): the notices readers see.
    pub review: crate::review::Status,
}

impl Site {
    /// The claim at a place.
    pub fn claim(&self, at: ClaimAt) -> &crate::content::Claim {
        &self.content.pages[at.page].claims[at.claim]
    }
}
