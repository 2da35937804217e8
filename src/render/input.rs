//! What each render unit is made from, as values: the memo's key for a
//! unit is the hash of its [`UnitInput`], and rendering is given that
//! input to render from (`Renderer::render_input`).
//!
//! Three layers, each hashed once per run and standing for itself by
//! that hash in the layers above it:
//!
//! - [`SiteInput`]: what every unit reads: the theme, the configuration,
//!   every page's outline, every evidence file's name, and which claim
//!   fills which cell;
//! - [`ClaimsInput`]: what the site-wide files read besides: every claim,
//!   the review notices and every evidence file's bytes;
//! - [`UnitInput`]: one unit's own part: a page's source, the claims it
//!   shows (their views, [`ClaimViews`]) and its stale translations; an
//!   evidence file's bytes and the claims citing it; a site part's name.
//!
//! A unit can show only the claims its input holds: a page's are its own
//! claims and those its text names (`[[claim:ID]]`, found when the page
//! was read), an evidence page's those citing it, a generated view's all
//! of them. Rendering looks claims up in the input ([`Shows::get`]), so
//! a claim left out of an input is one the unit does not show: never one
//! it shows while its key ignores it.

use super::{SitePart, Unit};
use crate::content::{Claim, Layout, Outline};
use crate::hash::memo::hash_of;
use crate::hash::Map;
use crate::lang::Lang;
use crate::validate::Site;
use std::collections::BTreeSet;

/// What every unit reads of the site (see the module's documentation).
#[derive(Hash)]
pub(crate) struct SiteInput<'a> {
    /// The theme's fingerprint: kansoku's build and every file under
    /// `templates/` and `static/` (`site::memo`).
    theme: u64,
    /// The configuration, which hashes as what it was made from.
    config: &'a crate::config::Config,
    /// Every page's outline, in page order (what other outputs may read
    /// of a page: navigation, links, titles, entities, views' columns).
    outlines: Vec<&'a Outline>,
    /// Every evidence file's path (where its page is, what a link to it
    /// leads to). Not its header: a page shows what a header says only
    /// through the views of the claims citing the file (their basis), and
    /// the file's own page and the site-wide files are keyed on its bytes.
    evidence: Vec<&'a str>,
    /// Evidence names that lead out of the evidence directory, and those
    /// that could not be read (a link to them is shown as such).
    escaping: &'a BTreeSet<String>,
    broken: &'a BTreeSet<String>,
    /// Which claim fills which cell (entity × aspect): id, about, aspect
    /// and life state. An entity page's answers and the views look cells
    /// up, and a claim that starts or stops filling one changes what
    /// they show, though no claim they showed changed. Not the claims'
    /// texts: a claim edit reaches the units showing it through its view.
    cells: Vec<(&'a str, &'a str, &'a str, crate::content::State)>,
}

impl<'a> SiteInput<'a> {
    /// The site input of `site` rendered with the theme whose fingerprint
    /// is `theme`.
    pub(crate) fn new(site: &'a Site, theme: u64) -> SiteInput<'a> {
        let pages = &site.content.pages;
        let cells = pages
            .iter()
            .flat_map(|p| &p.claims)
            .filter_map(|c| {
                Some((
                    c.id.as_str(),
                    c.about.as_deref()?,
                    c.aspect.as_deref()?,
                    c.life.state,
                ))
            })
            .collect();
        SiteInput {
            theme,
            config: &site.config,
            outlines: pages.iter().map(|p| &p.outline).collect(),
            evidence: site.evidence.files.keys().map(String::as_str).collect(),
            escaping: &site.evidence.escaping,
            broken: &site.evidence.broken,
            cells,
        }
    }

    /// Its hash: what it stands for in the inputs above it.
    pub(crate) fn key(&self) -> u64 {
        hash_of(self)
    }
}

/// What the site-wide files (and the render state) read besides the site
/// input (see the module's documentation).
#[derive(Hash)]
pub(crate) struct ClaimsInput<'a> {
    /// The site input's hash.
    site: u64,
    /// Every page's claims, in page order.
    claims: Vec<&'a [Claim]>,
    /// The review lock's notices, by claim id: claim views show them.
    review: &'a std::collections::BTreeMap<String, crate::validate::ClaimNote>,
    /// Every evidence file's path and the hash of its bytes: the evidence
    /// index counts lines, the RO-Crate names each file's digest.
    evidence: Vec<(&'a str, u64)>,
}

impl<'a> ClaimsInput<'a> {
    /// The claims input of `site` over its site input, whose hash is
    /// `input`.
    pub(crate) fn new(site: &'a Site, input: u64) -> ClaimsInput<'a> {
        ClaimsInput {
            site: input,
            claims: site
                .content
                .pages
                .iter()
                .map(|p| p.claims.as_slice())
                .collect(),
            review: &site.review.claims,
            evidence: site
                .evidence
                .files
                .iter()
                .map(|(path, f)| (path.as_str(), f.file_hash()))
                .collect(),
        }
    }

    /// Its hash: what it stands for in a site part's input.
    pub(crate) fn key(&self) -> u64 {
        hash_of(self)
    }
}

/// Every claim's views in both languages, hashed with its `about` and
/// `aspect` (`Renderer::claim_view_hashes`): a unit showing a claim reads
/// nothing else of it. Made once per render
/// state, whose key is the [`ClaimsInput`]'s.
#[derive(Default)]
pub(crate) struct ClaimViews {
    /// Claim id → hash of its views.
    by_id: Map<String, u64>,
    /// Hash of every claim's, in id order: what a generated view reads.
    all: u64,
}

impl ClaimViews {
    /// The views' hashes, given as (claim id, hash of its views).
    pub(crate) fn new(views: Map<String, u64>) -> ClaimViews {
        let mut all: Vec<(&String, &u64)> = views.iter().collect();
        all.sort_unstable();
        let all = hash_of(all);
        ClaimViews { by_id: views, all }
    }
}

/// The claims a unit shows, with their views' hashes.
#[derive(Hash)]
pub(crate) enum Shows<'a> {
    /// Every claim (a generated or named view, a summary of findings):
    /// the hash of every claim's views.
    Every(u64),
    /// These ids, sorted, each once, with the hash of its views (`None`:
    /// no claim has it, and a claim given that id later changes this).
    These(Vec<(&'a str, Option<u64>)>),
}

impl<'a> Shows<'a> {
    fn these(ids: impl Iterator<Item = &'a str>, views: &ClaimViews) -> Shows<'a> {
        let mut ids: Vec<&str> = ids.collect();
        ids.sort_unstable();
        ids.dedup();
        Shows::These(
            ids.into_iter()
                .map(|id| (id, views.by_id.get(id).copied()))
                .collect(),
        )
    }

    /// Whether the unit may show claim `id`.
    pub(crate) fn holds(&self, id: &str) -> bool {
        match self {
            Shows::Every(_) => true,
            Shows::These(ids) => ids.binary_search_by(|(i, _)| (*i).cmp(id)).is_ok(),
        }
    }
}

/// One unit's input: its key in the memo is this value's hash, and it is
/// what rendering the unit is given.
#[derive(Hash)]
pub(crate) enum UnitInput<'a> {
    /// A content page.
    Page {
        /// The site input's hash.
        site: u64,
        /// Its index in `Content::pages` (its place in the order is in
        /// the site input's outlines already).
        index: usize,
        /// The hash of its file's bytes: the page as parsed.
        source: u64,
        shows: Shows<'a>,
        /// Its stale translations, from the review lock: (segment, the
        /// language that changed, its text at the review).
        stale: Vec<(usize, Lang, &'a str)>,
    },
    /// An evidence file's pages and raw copy.
    Evidence {
        /// The site input's hash.
        site: u64,
        path: &'a str,
        /// The hash of its bytes (`None`: no such file, no output).
        file: Option<u64>,
        /// The claims citing it.
        shows: Shows<'a>,
    },
    /// A site-wide output.
    Site {
        /// The claims input's hash.
        claims: u64,
        part: SitePart,
        /// What this part alone reads: see [`SiteExtra`].
        extra: SiteExtra<'a>,
    },
}

/// What one site part reads besides the claims input.
#[derive(Hash)]
pub(crate) enum SiteExtra<'a> {
    None,
    /// The RO-Crate's `datePublished`, which may be the day of the build
    /// (or `SOURCE_DATE_EPOCH`'s): no source holds it.
    Published(Option<String>),
    /// The llms files: the sources of the pages whose text they hold,
    /// (content path, hash of its bytes). Which pages those are depends on
    /// the text itself (`llms-full.txt` is cut at a size), so it is what
    /// their last render reported reading ([`Rendered::read`]): a page
    /// past the cut can change without making them again.
    ///
    /// [`Rendered::read`]: super::Rendered
    Read(Vec<(&'a str, Option<u64>)>),
}

/// What the unit inputs of one run are made from, besides the site.
pub(crate) struct Sources<'a> {
    /// The hash of the site input.
    pub(crate) site: u64,
    /// The hash of the claims input.
    pub(crate) claims: u64,
    pub(crate) views: &'a ClaimViews,
    /// Content path → the hash of the page's bytes.
    pub(crate) source: &'a (dyn Fn(&str) -> Option<u64> + Sync),
    /// Content path → the claim ids its text names (`[[claim:ID]]`).
    pub(crate) names: &'a (dyn Fn(&str) -> Option<&'a [String]> + Sync),
    /// Entity key → the claims about it that fill a cell ([`Cells`]).
    pub(crate) cells: &'a Cells<'a>,
}

/// Entity key → the ids of the claims about it on some aspect: those that
/// may fill one of its cells, which its page answers with.
pub(crate) struct Cells<'a>(Map<&'a str, Vec<&'a str>>);

impl<'a> Cells<'a> {
    /// The claims of `site` that may fill a cell, by entity.
    pub(crate) fn new(site: &'a Site) -> Cells<'a> {
        let mut by: Map<&str, Vec<&str>> = Map::default();
        for c in site.content.pages.iter().flat_map(|p| &p.claims) {
            if let (Some(about), Some(_)) = (&c.about, &c.aspect) {
                by.entry(about.as_str()).or_default().push(c.id.as_str());
            }
        }
        Cells(by)
    }

    fn about(&self, key: &str) -> &[&'a str] {
        self.0.get(key).map_or(&[], Vec::as_slice)
    }
}

impl<'a> UnitInput<'a> {
    /// The input of `unit` of `site`; for the llms files, over the pages
    /// whose text they read last time (`read`, content paths).
    pub(crate) fn of(
        site: &'a Site,
        from: &Sources<'a>,
        unit: Unit<'a>,
        read: &[String],
    ) -> UnitInput<'a> {
        match unit {
            Unit::Page(index) => {
                let page = &site.content.pages[index];
                // Generated views, named ones included, pivot claims of
                // any page; a summary of findings counts every open
                // question; a view's columns note where each was observed,
                // and on which entities not.
                let every = page.layout != Layout::Page
                    || !page.views.is_empty()
                    || !page.findings.is_empty()
                    || !page.columns.is_empty();
                // Which claims its text names is known for every page
                // read through the memo; one not known may show any.
                let shows = match (every, (from.names)(&page.rel)) {
                    (false, Some(named)) => {
                        let own = page.claims.iter().map(|c| c.id.as_str());
                        // An entity's page answers with its cells.
                        let cells = page.entity.iter().flat_map(|e| from.cells.about(&e.key));
                        // A scope table may name any page's claims.
                        let scope = page
                            .scope
                            .iter()
                            .flat_map(|s| s.can.iter().chain(&s.cannot))
                            .map(|(id, _)| id.as_str());
                        let ids = own
                            .chain(named.iter().map(String::as_str))
                            .chain(cells.copied())
                            .chain(scope);
                        Shows::these(ids, from.views)
                    }
                    _ => Shows::Every(from.views.all),
                };
                let stale = site
                    .review
                    .pairs
                    .range((index, 0)..(index + 1, 0))
                    .map(|(&(_, segment), (lang, previous))| (segment, *lang, previous.as_str()))
                    .collect();
                UnitInput::Page {
                    site: from.site,
                    index,
                    source: (from.source)(&page.rel).unwrap_or_else(|| hash_of(&page.src.text)),
                    shows,
                    stale,
                }
            }
            Unit::Evidence(path) => {
                let citing = site
                    .index
                    .cited_by
                    .get(path)
                    .into_iter()
                    .flatten()
                    .map(|&at| site.claim(at).id.as_str());
                UnitInput::Evidence {
                    site: from.site,
                    path,
                    file: site.evidence.files.get(path).map(|f| f.file_hash()),
                    shows: Shows::these(citing, from.views),
                }
            }
            Unit::Site(part) => {
                let extra = match part {
                    SitePart::Crate => SiteExtra::Published(
                        super::date_published(site.content.pages.iter().map(|p| &p.outline)).ok(),
                    ),
                    SitePart::Llms => {
                        let read: BTreeSet<&str> = read.iter().map(String::as_str).collect();
                        SiteExtra::Read(
                            site.content
                                .pages
                                .iter()
                                .filter(|p| read.contains(p.rel.as_str()))
                                .map(|p| (p.rel.as_str(), (from.source)(&p.rel)))
                                .collect(),
                        )
                    }
                    _ => SiteExtra::None,
                };
                UnitInput::Site {
                    claims: from.claims,
                    part,
                    extra,
                }
            }
        }
    }

    /// The unit this is the input of.
    pub(crate) fn unit(&self) -> Unit<'a> {
        match self {
            UnitInput::Page { index, .. } => Unit::Page(*index),
            UnitInput::Evidence { path, .. } => Unit::Evidence(path),
            UnitInput::Site { part, .. } => Unit::Site(*part),
        }
    }

    /// The claims this unit may show (`None`: a site part, which reads
    /// every claim through the claims input).
    pub(crate) fn shows(&self) -> Option<&Shows<'a>> {
        match self {
            UnitInput::Page { shows, .. } | UnitInput::Evidence { shows, .. } => Some(shows),
            UnitInput::Site { .. } => None,
        }
    }

    /// A page's stale translation of segment `segment`: the language that
    /// changed and its text at the review.
    pub(crate) fn stale(&self, segment: usize) -> Option<(Lang, &'a str)> {
        match self {
            UnitInput::Page { stale, .. } => stale
                .iter()
                .find(|(s, _, _)| *s == segment)
                .map(|&(_, lang, text)| (lang, text)),
            _ => None,
        }
    }

    /// The memo key of this input: its hash.
    pub(crate) fn key(&self) -> u64 {
        hash_of(self)
    }
}
