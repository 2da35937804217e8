//! What the review lock (`kansoku.lock`) says about the site now: the
//! notices readers see. Computed by `review::examine`; defined here because
//! the validated [`Site`](super::Site) carries it to rendering, and
//! validation must not depend on review (review reads the validated site).

use crate::lang::Lang;
use std::collections::BTreeMap;
use std::ops::Range;

/// What a reader is told about a claim.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub(crate) struct ClaimNote {
    /// The claim is suspect: its evidence changed (`Some(path)` of the
    /// evidence file) after it was reviewed.
    pub(crate) evidence_changed: Option<String>,
    /// A premise it rests on is suspect or re-classed.
    pub(crate) premise_changed: Option<String>,
    /// One language changed since the review, the other did not: the
    /// changed language and its text at the review.
    pub(crate) stale: Option<(Lang, String)>,
}

impl ClaimNote {
    /// True when readers should doubt the claim.
    pub(crate) fn suspect(&self) -> bool {
        self.evidence_changed.is_some() || self.premise_changed.is_some()
    }
}

/// A rewrite `check --fix` can make: a link whose cited text moved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Move {
    /// The page's path relative to the site root.
    pub(crate) page: String,
    /// The link's span in the page.
    pub(crate) span: Range<usize>,
    /// The new range.
    pub(crate) lines: (usize, usize),
}

/// What the lock says about the site now.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ReviewStatus {
    /// Claims with something to tell readers, by id.
    pub(crate) claims: BTreeMap<String, ClaimNote>,
    /// Stale pairs: (page index, segment index) → the changed language
    /// and its text at the review.
    pub(crate) pairs: BTreeMap<(usize, usize), (Lang, String)>,
    /// Links whose text moved.
    pub(crate) moves: Vec<Move>,
}
