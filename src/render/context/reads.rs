//! What a unit may read of the site, as methods: the only way out of a
//! [`Ctx`] to the loaded site, so that what rendering reads is what the
//! unit's input keys (`render::input`).
//!
//! The site itself is a private field of `Ctx`, reachable only in this
//! folder, where the render state and the claims' views are made (both
//! are keyed as the values they make: `ClaimViews` hashes the views).
//! Everything else in `render` reads through these methods, each keyed by
//! one part of the input:
//!
//! - the configuration, the outlines, and the evidence files' names: the
//!   site input, which every unit's key holds;
//! - a claim: only one the unit's input shows (its views' hashes are in
//!   the key; [`Ctx::shown`]);
//! - the unit's own page or evidence file is not here at all: the render
//!   is handed it (`Renderer::render_input`), keyed by its bytes;
//! - everything a site-wide output reads besides, through a [`Whole`],
//!   which the dispatch makes for a site part alone (making one takes the
//!   `Site`, which only render's dispatch, inputs and this folder name).

use super::Ctx;
use crate::config::Config;
use crate::content::{Claim, Outline, Page};
use crate::evidence::EvidenceFile;
use crate::render::input::UnitInput;
use crate::validate::{ClaimAt, Site};

impl<'a> Ctx<'a> {
    /// The configuration (the site input holds it whole).
    pub(in crate::render) fn config(&self) -> &'a Config {
        &self.site.config
    }

    /// The outline of page `i` (the site input holds every outline).
    pub(in crate::render) fn outline(&self, i: usize) -> &'a Outline {
        self.site.content.outline(i)
    }

    /// Every page's outline, in page order.
    pub(in crate::render) fn outlines(&self) -> impl Iterator<Item = &'a Outline> + 'a {
        self.site.content.pages.iter().map(|p| &p.outline)
    }

    /// How many pages the site has.
    pub(in crate::render) fn page_count(&self) -> usize {
        self.site.content.pages.len()
    }

    /// The index of the page at content path `rel` (an outline's `rel`).
    pub(in crate::render) fn page_index(&self, rel: &str) -> Option<usize> {
        self.site.index.pages.get(rel).copied()
    }

    /// Page `i`'s file as diagnostics and acceptances name it: its
    /// outline's `rel` under `content/` (`content::shown_path`).
    pub(in crate::render) fn source_path(&self, i: usize) -> &'a str {
        self.site.content.pages[i].source_path()
    }

    /// The evidence directory's name (from the configuration).
    pub(in crate::render) fn evidence_dir(&self) -> &'a str {
        &self.site.evidence.dir_name
    }

    /// Whether the site has any evidence file (the site input holds every
    /// evidence file's name).
    pub(in crate::render) fn has_evidence(&self) -> bool {
        !self.site.evidence.files.is_empty()
    }

    /// The claim `id` and where it is, if the unit's input shows it; a
    /// claim it does not show is `None` (and a debug build panics, so a
    /// test finds the unit that needs it).
    pub(in crate::render) fn shown(&self, id: &str) -> Option<(ClaimAt, &'a Claim)> {
        if !self.shows(id) {
            debug_assert!(false, "claim `{id}` is not in the unit's input");
            return None;
        }
        let at = *self.site.index.claims.get(id)?;
        Some((at, self.site.claim(at)))
    }

    /// The claim at `at` (found in a cell or among an evidence file's
    /// citers), if the unit's input shows it (as [`Ctx::shown`]).
    pub(in crate::render) fn shown_at(&self, at: ClaimAt) -> Option<&'a Claim> {
        let claim = self.site.claim(at);
        self.shown(&claim.id).map(|(_, c)| c)
    }

    /// Page `i`'s claims that the unit's input shows, in page order: all
    /// of them for a unit that shows every claim (a generated view).
    pub(in crate::render) fn shown_claims_of(
        &self,
        i: usize,
    ) -> impl Iterator<Item = &'a Claim> + '_ {
        let claims: &'a [Claim] = &self.site.content.pages[i].claims;
        claims.iter().filter(|c| self.shows(&c.id))
    }

    /// The claims citing evidence file `path`, in page then claim order:
    /// those an evidence file's input shows.
    pub(in crate::render) fn citing(
        &self,
        path: &str,
    ) -> impl Iterator<Item = (ClaimAt, &'a Claim)> + '_ {
        let index: &'a crate::validate::Index = &self.site.index;
        index
            .cited_by
            .get(path)
            .into_iter()
            .flatten()
            .filter_map(|&at| Some((at, self.shown_at(at)?)))
    }

    /// Whether the unit's input shows claim `id` (every claim while the
    /// render state is made, and for a site part).
    pub(in crate::render) fn shows(&self, id: &str) -> bool {
        self.input
            .and_then(UnitInput::shows)
            .is_none_or(|s| s.holds(id))
    }
}

/// What a site-wide output reads besides the site input: every claim,
/// every evidence file, and the lookups between them, all held by the
/// claims input a site part's key is made from. Only a site part is
/// handed one (`Renderer::render_input`): making one takes the `Site`,
/// which no render file but the dispatch, the inputs and this folder may
/// name (`layering_tests`).
#[derive(Clone, Copy)]
pub(in crate::render) struct Whole<'a> {
    site: &'a Site,
}

impl<'a> Whole<'a> {
    /// The whole of `site`, for a site part.
    pub(in crate::render) fn new(site: &'a Site) -> Whole<'a> {
        Whole { site }
    }

    /// Page `i`'s claims.
    pub(in crate::render) fn claims_of(&self, i: usize) -> &'a [Claim] {
        &self.site.content.pages[i].claims
    }

    /// Every evidence file, by path.
    pub(in crate::render) fn evidence_files(
        &self,
    ) -> impl ExactSizeIterator<Item = &'a EvidenceFile> + 'a {
        self.site.evidence.files.values()
    }

    /// The evidence file at `path`, if there is one.
    pub(in crate::render) fn evidence_file(&self, path: &str) -> Option<&'a EvidenceFile> {
        self.site.evidence.files.get(path)
    }

    /// How many claims cite evidence file `path`.
    pub(in crate::render) fn cited(&self, path: &str) -> usize {
        self.site.index.cited_by.get(path).map_or(0, Vec::len)
    }
}

/// The pages' bodies, which only the llms files read. Their input names
/// the pages whose text they read last time (`SiteExtra::Read`); this
/// notes every page whose body it hands out, and that is what the render
/// reports it read (`Made::read`): the key's list is the reads' own record,
/// not a second account of them.
pub(in crate::render) struct Bodies<'a> {
    pages: &'a [std::sync::Arc<Page>],
    read: std::cell::RefCell<std::collections::BTreeSet<usize>>,
}

impl<'a> Bodies<'a> {
    /// The pages of a site part's [`Whole`].
    pub(in crate::render) fn of(whole: Whole<'a>) -> Bodies<'a> {
        Bodies {
            pages: &whole.site.content.pages,
            read: Default::default(),
        }
    }

    /// Page `i`, noted as read.
    pub(in crate::render) fn page(&self, i: usize) -> &'a Page {
        self.read.borrow_mut().insert(i);
        &self.pages[i]
    }

    /// The content paths of the pages read, sorted.
    pub(in crate::render) fn read(self) -> Vec<String> {
        let mut read: Vec<String> = self
            .read
            .into_inner()
            .into_iter()
            .map(|i| self.pages[i].rel.clone())
            .collect();
        read.sort_unstable();
        read
    }
}
