//! Rendering: the validated site to output files, in memory.
//!
//! A pure function of the [`Site`] and the [`Renderer`]: nothing is written
//! here, and the only files read are the evidence files the site's index
//! names (each one's raw copy, and its SHA-256 for the RO-Crate); the theme
//! was read when the renderer was made. So the same input gives the same
//! bytes and a failure leaves nothing behind.

mod context;
mod crate_terms;
pub mod diagram;
mod files;
mod generated;
pub mod highlight;
pub(crate) mod i18n;
pub(crate) mod input;
mod jsonld;
mod lines;
mod llms;
pub mod markdown;
mod pages;
pub(crate) mod paths;
mod rocrate;
pub(crate) mod templates;
pub(crate) use crate::theme;
mod twin;
pub(crate) mod views;
mod words;

pub(crate) use context::RenderState;
pub(crate) use crate_terms::date_published;
use input::{ClaimViews, UnitInput};
pub(crate) use paths::raw_evidence_path;

use crate::error::{Diagnostic, Result};
use crate::lang::Lang;
use crate::validate::Site;
use highlight::Highlighter;
use i18n::I18n;
use std::path::Path;
use std::sync::Arc;
use templates::Templates;
use theme::ThemeFile;

/// One file of output, path relative to the build directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputFile {
    /// `/`-separated relative path.
    pub path: String,
    /// Contents.
    pub bytes: Vec<u8>,
}

/// Costly, immutable rendering state, built once and passed by reference.
#[derive(Debug)]
pub struct Renderer {
    templates: Templates,
    i18n: Arc<I18n>,
    highlighter: Highlighter,
    diagrams: diagram::Diagrams,
    static_files: Vec<ThemeFile>,
}

impl Renderer {
    /// Loads the theme (embedded plus the site's overrides): an I/O error,
    /// or every problem in the theme files as one `Error::Content`.
    pub fn new(root: &Path) -> Result<Renderer> {
        let mut sources = Vec::new();
        for f in theme::merged_i18n(root)? {
            sources.push(f);
        }
        let i18n = match I18n::new(&sources) {
            Ok(i) => Arc::new(i),
            Err(d) => return Err(crate::error::Error::Content(d)),
        };
        let templates =
            Templates::load(root, i18n.clone())?.map_err(crate::error::Error::Content)?;
        let static_files = theme::merged(root, "static", theme::STATIC, None)?;
        Ok(Renderer {
            templates,
            i18n,
            highlighter: Highlighter::default(),
            diagrams: diagram::Diagrams::default(),
            static_files,
        })
    }

    /// The source file that produces an output path, for messages.
    fn origin_of(&self, site: &Site, path: &str) -> String {
        for page in &site.content.pages {
            for tree in ["ja", "en", "ja-en"] {
                let listing = paths::listings_prefix(tree, &page.url_path);
                if path == paths::page_path(tree, &page.url_path)
                    || path == paths::page_twin_path(tree, &page.url_path)
                    || (context::lists(page) && path.starts_with(&listing))
                {
                    return page.source_path().to_owned();
                }
            }
        }
        if let Some(name) = path.strip_prefix("static/") {
            if let Some(f) = self.static_files.iter().find(|f| f.name == name) {
                return f.origin.trim_start_matches("(embedded) ").to_owned();
            }
        }
        "content".to_owned()
    }

    /// The UI strings.
    pub(crate) fn i18n(&self) -> &I18n {
        &self.i18n
    }

    /// Every path a build of `site` writes, sorted, duplicates kept: known
    /// before anything is rendered, so collisions are found first and
    /// output can be written as it is made.
    pub(crate) fn planned_paths(&self, site: &Site) -> Vec<String> {
        let mut paths = Vec::new();
        let sizes = context::section_sizes(site);
        let twins = site.config.outputs.markdown;
        for page in &site.content.pages {
            for t in [Some(Lang::Ja), Some(Lang::En), None] {
                paths.push(paths::page_path(tree(t), &page.url_path));
            }
            if twins {
                for lang in Lang::ALL {
                    paths.push(paths::page_twin_path(lang.code(), &page.url_path));
                }
            }
            let len = sizes.get(&page.url_path).copied().unwrap_or(0);
            if context::lists(page) && len > 0 {
                for n in 2..=context::listing_pages(site, len) {
                    for t in [Some(Lang::Ja), Some(Lang::En), None] {
                        paths.push(paths::listing_path(tree(t), &page.url_path, n));
                    }
                    if twins {
                        for lang in Lang::ALL {
                            paths.push(paths::listing_twin_path(lang.code(), &page.url_path, n));
                        }
                    }
                }
            }
        }
        for path in site.evidence.files.keys() {
            paths.push(paths::raw_evidence_path(path));
            for lang in Lang::ALL {
                paths.push(paths::evidence_path(lang, path));
                if twins {
                    paths.push(paths::evidence_twin_path(lang, path));
                }
            }
        }
        for part in SitePart::ALL {
            paths.extend(files::site_paths(part).iter().map(|p| (*p).to_owned()));
        }
        if twins {
            paths.extend(Lang::ALL.map(paths::evidence_index_twin_path));
        }
        if site.config.outputs.llms {
            paths.extend(llms::PATHS.iter().map(|p| (*p).to_owned()));
        }
        paths.extend(self.static_paths());
        paths.sort();
        paths
    }

    fn static_paths(&self) -> impl Iterator<Item = String> + '_ {
        self.static_files
            .iter()
            .map(|f| format!("static/{}", f.name))
            .chain(std::iter::once("static/syntax.css".to_owned()))
    }

    /// E042 for every output path two sources would write.
    pub(crate) fn collisions(&self, site: &Site) -> Vec<Diagnostic> {
        let paths = self.planned_paths(site);
        let colliding: std::collections::BTreeSet<&str> = paths
            .windows(2)
            .filter(|w| w[0] == w[1])
            .map(|w| w[0].as_str())
            .collect();
        paths
            .windows(2)
            .filter(|w| w[0] == w[1])
            // A page's twin collides where its HTML does: one finding.
            .filter(|w| {
                w[0].strip_suffix("index.md")
                    .is_none_or(|dir| !colliding.contains(format!("{dir}index.html").as_str()))
            })
            .map(|w| {
                Diagnostic::error(
                    "E042",
                    crate::error::Location::file(self.origin_of(site, &w[0])),
                    format!("two outputs would be written to `{}`", w[0]),
                )
                .with_hint("rename the page or static file that collides with a generated one")
            })
            .collect()
    }

    /// The state every output of `site` shares (see [`RenderState`]).
    pub(crate) fn prepare(&self, site: &Site) -> std::result::Result<RenderState, Vec<Diagnostic>> {
        context::prepare(self, site, twin::inline_md)
    }

    fn ctx<'a>(
        &'a self,
        site: &'a Site,
        prepared: &'a RenderState,
        input: Option<&'a UnitInput<'a>>,
    ) -> context::Ctx<'a> {
        context::Ctx::new(self, site, prepared, twin::inline_md, input)
    }

    /// What the views of the claim at `at` show, in Japanese and English,
    /// before the theme renders them: a page or evidence file showing the
    /// claim reads nothing else of it, so the memo keys the units that
    /// show it on this value (`input::ClaimViews`).
    pub(crate) fn claim_views(
        &self,
        site: &Site,
        prepared: &RenderState,
        at: crate::validate::ClaimAt,
    ) -> [views::ClaimView; 2] {
        let cx = self.ctx(site, prepared, None);
        Lang::ALL.map(|lang| context::claim_view(&cx, at, lang))
    }

    /// The hashes of every claim's views ([`Renderer::claim_views`]),
    /// each with the claim's `about` and `aspect`: a generated view places
    /// a claim in its row by them, which its views do not show (a claim
    /// `about` an entity with no `aspect` fills no cell, so the site
    /// input's cells do not hold it either).
    pub(crate) fn claim_view_hashes(&self, site: &Site, prepared: &RenderState) -> ClaimViews {
        use rayon::prelude::*;
        let ids: Vec<(&String, &crate::validate::ClaimAt)> = site.index.claims.iter().collect();
        ClaimViews::new(
            ids.par_iter()
                .map(|&(id, &at)| {
                    let views = self.claim_views(site, prepared, at);
                    let claim = site.claim(at);
                    let placed = (&claim.about, &claim.aspect);
                    (id.clone(), crate::hash::memo::hash_of((views, placed)))
                })
                .collect(),
        )
    }

    /// One unit's files, rendered from its input (see [`input`]): the
    /// unit shows only the claims its input holds, and is handed the one
    /// thing of its own its input keys by its bytes: a page its page, an
    /// evidence file's unit its file, a site part the [`context::Whole`]
    /// the claims input holds. For the llms files, also the pages whose
    /// text they read ([`Made::read`]).
    pub(crate) fn render_input(
        &self,
        site: &Site,
        prepared: &RenderState,
        input: &UnitInput<'_>,
    ) -> std::result::Result<Made, Diagnostic> {
        let cx = self.ctx(site, prepared, Some(input));
        let mut read = Vec::new();
        let files = match input.unit() {
            Unit::Page(i) => pages::page_unit(&cx, &site.content.pages[i])?,
            Unit::Evidence(path) => match site.evidence.files.get(path) {
                Some(file) => crate::cost::timed(crate::cost::Kind::Evidence, || {
                    let mut out = files::evidence_page(&cx, file)?;
                    if cx.config().outputs.markdown {
                        out.extend(twin::evidence_pages(&cx, file));
                    }
                    Ok::<_, Diagnostic>(out)
                })?,
                None => Vec::new(),
            },
            Unit::Site(part) => crate::cost::timed(crate::cost::Kind::Site, || {
                self.site_files(&cx, context::Whole::new(site), part, &mut read)
            })?,
        };
        // A claim view this unit (or another) showed failed to render.
        if let Some(d) = prepared.deferred_error() {
            return Err(d);
        }
        Ok(Made { files, read })
    }

    /// The files of site part `part`; the llms files also say which
    /// pages' text they read (`read`).
    fn site_files(
        &self,
        cx: &context::Ctx<'_>,
        whole: context::Whole<'_>,
        part: SitePart,
        read: &mut Vec<String>,
    ) -> std::result::Result<Vec<OutputFile>, Diagnostic> {
        match part {
            SitePart::Llms if cx.config().outputs.llms => {
                let bodies = context::Bodies::of(whole);
                let files = llms::files(cx, whole, &bodies)?;
                *read = bodies.read();
                Ok(files)
            }
            SitePart::Static => {
                let mut out: Vec<OutputFile> = self
                    .static_files
                    .iter()
                    .map(|f| OutputFile {
                        path: format!("static/{}", f.name),
                        bytes: f.bytes.clone(),
                    })
                    .collect();
                out.push(OutputFile {
                    path: "static/syntax.css".to_owned(),
                    bytes: highlight::stylesheet().as_bytes().to_vec(),
                });
                Ok(out)
            }
            SitePart::EvidenceIndex if cx.config().outputs.markdown => {
                let mut out = files::site_part(cx, whole, SitePart::EvidenceIndex)?;
                out.extend(twin::evidence_index(cx, whole));
                Ok(out)
            }
            part => files::site_part(cx, whole, part),
        }
    }

    /// Every unit of `site`, in a fixed order: pages, evidence files, then
    /// the site-wide files.
    pub(crate) fn units<'a>(&self, site: &'a Site) -> Vec<Unit<'a>> {
        let mut units: Vec<Unit<'a>> = (0..site.content.pages.len()).map(Unit::Page).collect();
        units.extend(site.evidence.files.keys().map(|p| Unit::Evidence(p)));
        units.extend(SitePart::ALL.map(Unit::Site));
        units
    }

    /// Renders every unit of a loaded site into memory, sorted by path:
    /// the render stage alone, for its benchmark (`benches/render.rs`).
    /// A build runs it through `site::run`, with the memo and an output.
    #[doc(hidden)]
    pub fn render(&self, site: &Site) -> std::result::Result<Vec<OutputFile>, Vec<Diagnostic>> {
        use rayon::prelude::*;
        let prepared = self.prepare(site)?;
        let views = self.claim_view_hashes(site, &prepared);
        let site_input = input::SiteInput::new(site, 0).key();
        let claims_input = input::ClaimsInput::new(site, site_input).key();
        let source = |rel: &str| {
            let at = *site.index.pages.get(rel)?;
            Some(crate::hash::memo::hash_of(&site.content.pages[at].src.text))
        };
        let names: std::collections::BTreeMap<&str, Vec<String>> = site
            .content
            .pages
            .iter()
            .map(|p| (p.rel.as_str(), crate::validate::claim_names(p)))
            .collect();
        let names = |rel: &str| names.get(rel).map(Vec::as_slice);
        let cells = input::Cells::new(site);
        let from = input::Sources {
            site: site_input,
            claims: claims_input,
            views: &views,
            source: &source,
            names: &names,
            cells: &cells,
        };
        let units = self.units(site);
        let mut out: Vec<OutputFile> = units
            .par_iter()
            .map(|&unit| {
                let input = UnitInput::of(site, &from, unit, &[]);
                self.render_input(site, &prepared, &input).map(|m| m.files)
            })
            .collect::<std::result::Result<Vec<_>, _>>()
            .map_err(|d| vec![d])?
            .into_iter()
            .flatten()
            .collect();
        out.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(out)
    }
}

/// What rendering one unit made.
pub(crate) struct Made {
    /// Its files.
    pub(crate) files: Vec<OutputFile>,
    /// For the llms files, the content paths of the pages whose text they
    /// hold (see `llms::files`); empty for every other unit.
    pub(crate) read: Vec<String>,
}

/// A piece of output rendered on its own, and remembered on its own under
/// its input (`site::memo`): what a build or serve renders again after an
/// edit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Unit<'a> {
    /// A content page (index into `Content::pages`): `ja/`, `en/`, `ja-en/`.
    Page(usize),
    /// An evidence file (its path): the raw copy and its page per language.
    Evidence(&'a str),
    /// Outputs about the whole site.
    Site(SitePart),
}

/// The outputs about the whole site, each rendered on its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum SitePart {
    /// The evidence index in each language.
    EvidenceIndex,
    /// The language chooser (`index.html`) and `404.html`.
    Chooser,
    /// `claims.json`.
    Claims,
    /// `sitemap.xml`.
    Sitemap,
    /// `ro-crate-metadata.json` and `claims.schema.json`
    /// (`[output] ro-crate`).
    Crate,
    /// The theme's static files and the highlighting stylesheet.
    Static,
    /// `llms.txt` and `llms-full.txt` (`[output] llms`).
    Llms,
}

impl SitePart {
    /// Every part, in rendering order.
    pub(crate) const ALL: [SitePart; 7] = [
        SitePart::EvidenceIndex,
        SitePart::Chooser,
        SitePart::Claims,
        SitePart::Sitemap,
        SitePart::Crate,
        SitePart::Static,
        SitePart::Llms,
    ];

    /// Its name in the memo's keys.
    pub(crate) fn name(self) -> &'static str {
        match self {
            SitePart::EvidenceIndex => "evidence-index",
            SitePart::Chooser => "chooser",
            SitePart::Claims => "claims",
            SitePart::Sitemap => "sitemap",
            SitePart::Crate => "crate",
            SitePart::Static => "static",
            SitePart::Llms => "llms",
        }
    }
}

/// `ja`, `en` or `ja-en`.
pub(crate) fn tree(lang: Option<Lang>) -> &'static str {
    match lang {
        Some(l) => l.code(),
        None => "ja-en",
    }
}
