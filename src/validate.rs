//! Validation: resolving claims against evidence and against each other.
//!
//! Every rule pushes findings and goes on (never fail-fast); the caller
//! decides what errors mean. This stage reads the loaded values only: no
//! files are read or written here.

mod checker;

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
    let checker = Checker::new(config, content, evidence, mode);
    let mut diags = checker.duplicate_ids();
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
    diags.extend(pages.into_iter().flatten());
    diags.extend(checker.uncited_evidence());
    sort(&mut diags);
    (index, diags)
}

/// Sorts findings by file, line and column, keeping rule order for ties.
pub fn sort(diags: &mut [Diagnostic]) {
    diags.sort_by(|a, b| a.location.cmp(&b.location));
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
}

impl Site {
    /// The claim at a place.
    pub fn claim(&self, at: ClaimAt) -> &crate::content::Claim {
        &self.content.pages[at.page].claims[at.claim]
    }
}
