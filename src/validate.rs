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
use std::collections::BTreeMap;

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
    let (index, v) = Validation::new(config, content, evidence, mode);
    (index, v.diagnostics())
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
    /// Checks every page.
    fn new(
        config: &Config,
        content: &Content,
        evidence: &EvidenceIndex,
        mode: Mode,
    ) -> (Index, Validation) {
        let checker = Checker::new(config, content, evidence, mode);
        let mut global = checker.duplicate_ids();
        // Rendering's ordered lookups are built while the pages are checked:
        // checking uses its own hashed ones.
        let (index, pages) = rayon::join(
            || checker.index(),
            || {
                (0..content.pages.len())
                    .into_par_iter()
                    .map(|pi| checker.page(pi))
                    .collect::<Vec<_>>()
            },
        );
        global.extend(checker.uncited_evidence());
        global.extend(checker.cycles());
        (index, Validation { global, pages })
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
