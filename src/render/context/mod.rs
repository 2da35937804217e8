//! Render state shared by every output of a site: [`RenderState`] (URLs,
//! navigation, claim views, legends) and the [`Ctx`] pages render with.

mod claims;
mod nav;
mod reads;

use crate::content::{Class, Outline, Page};
use crate::error::Diagnostic;
use crate::lang::Lang;
use crate::render::input::UnitInput;
use crate::render::views::*;
use crate::render::Renderer;
use crate::validate::{ClaimAt, Site};
pub(in crate::render) use claims::*;
pub(in crate::render) use nav::*;
pub(in crate::render) use reads::{Bodies, Whole};
use std::collections::BTreeMap;

/// Render state computed once per site and shared by every output.
#[derive(Debug, Default)]
pub(crate) struct RenderState {
    /// Content-relative path → URL path.
    pub(in crate::render) urls: BTreeMap<String, String>,
    /// Each claim's views (ja, en) by id, rendered the first time an
    /// output shows them ([`Ctx::claim`]): a build that renders a few pages
    /// renders only their claims (rendering all of them was most of a
    /// cached build at scale).
    claims: ClaimSlots,
    /// The claims and navigation entries that failed to render, by claim
    /// id or entry, with why: the render fails (see
    /// [`RenderState::deferred_error`]).
    deferred_errors: std::sync::Mutex<Vec<(String, Diagnostic)>>,
    /// Page indices in navigation order.
    pub(in crate::render) order: Vec<usize>,
    /// Navigation tree: parent URL path → positions in `order`.
    pub(in crate::render) nav_children: BTreeMap<String, Vec<usize>>,
    /// Each page's URL path → its index among its parent's children, and
    /// per parent the indices of children that are sections: a page's
    /// navigation finds its window without scanning a long section.
    pub(in crate::render) nav_at: std::collections::HashMap<String, usize>,
    pub(in crate::render) nav_subs: BTreeMap<String, Vec<usize>>,
    /// Rendered `partials/nav_item.html` per tree (ja, en, ja-en) and
    /// position in `order`: (not current, current), each rendered the
    /// first time a page shows it ([`Ctx::nav_item`]).
    nav_items: [Vec<NavSlot>; 3],
    /// Each page's depth in the navigation, by position in `order`.
    nav_depths: Vec<usize>,
    /// Position in `order` of each page (by index in `Content::pages`).
    pub(in crate::render) pos_of: Vec<usize>,
    /// For each section whose entries are windowed (see [`NAV_MAX`]), per
    /// tree: parent URL path → its rendered `gap` and `all` entries.
    pub(in crate::render) nav_more: [BTreeMap<String, (String, String)>; 3],
    /// Rendered `partials/legend.html` per language.
    pub(in crate::render) legend: [String; 2],
    /// Rendered `partials/meanings.html` per language.
    pub(in crate::render) meanings: [String; 2],
    /// (about, aspect) → the claim filling that cell.
    pub(in crate::render) cells: BTreeMap<(String, String), ClaimAt>,
    /// The UI strings the Markdown twins and `llms.txt` use, per
    /// language, formatted once (see `twin::WORDS`); empty when the site
    /// writes neither.
    pub(in crate::render) words: [crate::render::words::Words; 2],
}

/// One language's part of a bilingual page (see [`Ctx::insert_langs`]).
#[derive(serde::Serialize)]
struct LangPart<'a> {
    lang: &'static str,
    description: &'a str,
    home_href: String,
    nav_html: String,
}

pub(in crate::render) struct Ctx<'a> {
    pub(in crate::render) renderer: &'a Renderer,
    /// The loaded site: private to this folder, where the render state
    /// and the claims' views are made; a unit reads it only through the
    /// methods in `reads`, each keyed by its input.
    site: &'a Site,
    pub(in crate::render) base: &'a str,
    pub(in crate::render) prepared: &'a RenderState,
    /// How a claim's Markdown twin shows it inline (`twin::inline_md`):
    /// given by the renderer, because the twins render with this context
    /// and so sit above it, while a claim's view is made here on first use.
    pub(in crate::render) inline_md: InlineMd,
    /// The input of the unit being rendered (`None` while preparing, and
    /// for a claim's views): the claims it may show ([`Ctx::claim`]) and
    /// a page's stale translations ([`Ctx::stale`]) are read from it.
    pub(in crate::render) input: Option<&'a UnitInput<'a>>,
}

/// A navigation entry (not current, current), made once.
type NavSlot = std::sync::OnceLock<Option<(String, String)>>;

/// Claim id → its views (ja, en), each made once.
type ClaimSlots = crate::hash::Map<String, [std::sync::OnceLock<Option<ClaimView>>; 2]>;

impl RenderState {
    /// The first (by claim id or entry) claim view or navigation entry
    /// that failed to render, if any: a render that showed a claim or an
    /// entry without it must fail.
    pub(in crate::render) fn deferred_error(&self) -> Option<Diagnostic> {
        let errors = crate::sync::lock(&self.deferred_errors);
        errors
            .iter()
            .min_by(|a, b| a.0.cmp(&b.0))
            .map(|(_, d)| d.clone())
    }
}

impl<'a> Ctx<'a> {
    /// The context rendering reads `site` in: for the unit whose input is
    /// `input`, or (`None`) to make the render state and claims' views.
    pub(in crate::render) fn new(
        renderer: &'a Renderer,
        site: &'a Site,
        prepared: &'a RenderState,
        inline_md: InlineMd,
        input: Option<&'a UnitInput<'a>>,
    ) -> Ctx<'a> {
        Ctx {
            renderer,
            site,
            base: site.config.base_path.as_str(),
            prepared,
            inline_md,
            input,
        }
    }

    /// The navigation entry of the page at `pos` in `order`, in `tree`:
    /// (not current, current), rendered on first use; `None` when it
    /// failed to render (then recorded for [`RenderState::deferred_error`]).
    pub(in crate::render) fn nav_item(
        &self,
        tree: NavTree,
        pos: usize,
    ) -> Option<&'a (String, String)> {
        let p: &'a RenderState = self.prepared;
        p.nav_items[tree.index()][pos]
            .get_or_init(|| match nav_entry(self, tree, pos) {
                Ok(item) => Some(item),
                Err(d) => {
                    crate::sync::lock(&p.deferred_errors).push((
                        format!("navigation entry {pos} of tree {}", tree.index()),
                        d,
                    ));
                    None
                }
            })
            .as_ref()
    }

    /// The view of claim `id` in `lang`, rendered on first use; `None` for
    /// an unknown id, or when it failed to render (then recorded for
    /// [`RenderState::deferred_error`]).
    pub(in crate::render) fn claim(&self, lang: Lang, id: &str) -> Option<&'a ClaimView> {
        let p: &'a RenderState = self.prepared;
        // The unit's key holds the views of the claims its input names,
        // and no others: a claim outside it is not shown.
        if !self.shows(id) {
            debug_assert!(false, "claim `{id}` is not in the unit's input");
            return None;
        }
        let slot = p.claims.get(id)?;
        slot[li(lang)]
            .get_or_init(|| {
                let at = *self.site.index.claims.get(id)?;
                match rendered_claim_view(self, at, lang) {
                    Ok(v) => Some(v),
                    Err(d) => {
                        crate::sync::lock(&p.deferred_errors).push((id.to_owned(), d));
                        None
                    }
                }
            })
            .as_ref()
    }
}

impl Ctx<'_> {
    /// The stale translation of segment `segment` of the page being
    /// rendered, from its input: the language that changed and its text at
    /// the review.
    pub(in crate::render) fn stale(&self, segment: usize) -> Option<(Lang, &str)> {
        self.input?.stale(segment)
    }
}

impl std::ops::Deref for Ctx<'_> {
    type Target = RenderState;
    fn deref(&self) -> &RenderState {
        self.prepared
    }
}

pub(in crate::render) use crate::render::paths::TREES;

/// The trees of a page published once per language (evidence, the
/// chooser's languages).
pub(in crate::render) const LANGS: [&str; 2] = ["ja", "en"];

/// Makes the inline Markdown of a claim's view in a language.
pub(in crate::render) type InlineMd = fn(&Ctx<'_>, Lang, &ClaimView) -> String;

/// A navigation tree: one per language and the parallel view's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::render) enum NavTree {
    Lang(Lang),
    Parallel,
}

impl NavTree {
    pub(in crate::render) const ALL: [NavTree; 3] = [
        NavTree::Lang(Lang::Ja),
        NavTree::Lang(Lang::En),
        NavTree::Parallel,
    ];

    fn index(self) -> usize {
        match self {
            NavTree::Lang(l) => li(l),
            NavTree::Parallel => 2,
        }
    }
}

pub(in crate::render) fn li(lang: Lang) -> usize {
    match lang {
        Lang::Ja => 0,
        Lang::En => 1,
    }
}

impl Ctx<'_> {
    pub(in crate::render) fn page_href(&self, tree: &str, page: &Outline) -> String {
        crate::render::paths::page_href(self.base, tree, page)
    }

    pub(in crate::render) fn evidence_href(&self, lang: Lang, path: &str) -> String {
        crate::render::paths::evidence_href(self.base, lang, path)
    }

    /// The language switcher and the `<link rel="alternate">`s of a page
    /// published in each of `trees` at `href(tree)`, with `current` the
    /// tree shown (`None`: none is, as on the chooser): one alternate per
    /// language and, with `x_default`, the default language's as
    /// `x-default`.
    pub(in crate::render) fn switcher(
        &self,
        trees: &[&'static str],
        current: Option<&str>,
        href: impl Fn(&str) -> String,
        x_default: bool,
    ) -> (Vec<Switch>, Vec<Alternate>) {
        let sw = trees
            .iter()
            .map(|&code| Switch {
                code,
                href: href(code),
                current: current == Some(code),
            })
            .collect();
        let mut alt: Vec<Alternate> = Lang::ALL
            .iter()
            .map(|&l| Alternate {
                hreflang: l.code(),
                href: self.absolute(&href(l.code())),
            })
            .collect();
        if x_default {
            alt.push(Alternate {
                hreflang: "x-default",
                href: self.absolute(&href(self.config().default_lang().code())),
            });
        }
        (sw, alt)
    }

    pub(in crate::render) fn absolute(&self, href: &str) -> String {
        match &self.config().origin {
            Some(o) => format!("{o}{href}"),
            None => href.to_owned(),
        }
    }

    /// The variables every template gets. `nav` is the navigation to
    /// show, with `current` (a URL path) marked and its sections opened.
    pub(in crate::render) fn common(
        &self,
        lang: Lang,
        view: &str,
        canonical: &str,
        nav: NavTree,
        current: Option<&str>,
    ) -> tera::Context {
        let c = &self.config();
        let mut cx = tera::Context::new();
        cx.insert("lang", lang.code());
        cx.insert("base", self.base);
        cx.insert(
            "site",
            &SiteView {
                title: c.title.get(lang).clone(),
                description: c.description.get(lang).clone(),
                authors: c.authors.clone(),
                repo_url: c.repo_url.clone(),
            },
        );
        cx.insert("view", view);
        // The search box only where an index is written.
        cx.insert("search", &c.search);
        // A draft's notice: how to publish it in the writer's preview, that
        // it is a draft for a reader (`build --drafts`).
        cx.insert("preview", &c.preview);
        cx.insert(
            "classes",
            &Class::BY_CERTAINTY
                .iter()
                .map(|c| c.name())
                .collect::<Vec<_>>(),
        );
        cx.insert("canonical", canonical);
        cx.insert(
            "twins",
            &crate::render::paths::twin_links(
                self.config().outputs.markdown,
                self.base,
                view,
                canonical,
            ),
        );
        cx.insert("home_href", &format!("{}{lang}/", self.base));
        cx.insert(
            "evidence_href",
            &crate::render::paths::evidence_index_href(self.base, lang),
        );
        cx.insert("nav_html", &self.nav_html(nav, current));
        cx.insert("legend_html", &self.legend[li(lang)]);
        cx.insert("meanings_html", &self.meanings[li(lang)]);
        cx
    }

    /// Inserts `langs`, what a page read before the reader has chosen a
    /// language (the chooser, `404.html`) shows in each language: the
    /// site's description, its home and its top-level pages.
    pub(in crate::render) fn insert_langs(&self, t: &mut tera::Context) {
        let langs: Vec<LangPart<'_>> = Lang::ALL
            .iter()
            .map(|&l| LangPart {
                lang: l.code(),
                description: self.config().description.get(l),
                home_href: format!("{}{l}/", self.base),
                nav_html: self.nav_html(NavTree::Lang(l), None),
            })
            .collect();
        t.insert("langs", &langs);
    }

    /// The navigation shown on a page: top-level entries, and the entries
    /// of each section on the way to `current` (a URL path). A long section
    /// shows only a window of its pages around the one on the way (its
    /// subsections always), a `gap` entry where pages are left out and an
    /// `all` entry linking to its listing, so a page's size does not grow
    /// with its section. Entries were rendered once each; a page only joins
    /// them, with nothing between (a sectioned site repeats its top level on
    /// every page).
    pub(in crate::render) fn nav_html(&self, tree: NavTree, current: Option<&str>) -> String {
        fn walk(
            cx: &Ctx<'_>,
            tree: NavTree,
            parent: &str,
            current: Option<&str>,
            out: &mut String,
        ) {
            let Some(children) = cx.nav_children.get(parent) else {
                return;
            };
            let page_at = |pos: usize| cx.outline(cx.order[pos]);
            let on_path = |url: &str| {
                current == Some(url)
                    || (!url.is_empty() && current.is_some_and(|c| c.starts_with(url)))
            };
            let more = cx.nav_more[tree.index()].get(parent);
            let emit = |i: usize, out: &mut String| {
                let pos = children[i];
                let url = page_at(pos).url_path.as_str();
                // An entry that failed to render fails the render (see
                // `RenderState::deferred_error`).
                if let Some((plain, marked)) = cx.nav_item(tree, pos) {
                    out.push_str(if current == Some(url) { marked } else { plain });
                }
                if !url.is_empty() && on_path(url) {
                    walk(cx, tree, url, current, out);
                }
            };
            if children.len() <= NAV_MAX {
                for i in 0..children.len() {
                    emit(i, out);
                }
                return;
            }
            // A long section: the child on the way to `current` is the one
            // whose URL is `current` or one of its `/`-ended prefixes (the
            // first in order if several), found by lookup, not by a scan of
            // every sibling on every page (quadratic in a section's size).
            let focus = current.and_then(|c| {
                let prefixes = c.match_indices('/').map(|(i, _)| &c[..=i]);
                std::iter::once(c)
                    .chain(prefixes)
                    .filter_map(|u| {
                        let i = *cx.nav_at.get(u)?;
                        let here = children.get(i).map(|&pos| page_at(pos).url_path == u);
                        (here == Some(true) && on_path(u)).then_some(i)
                    })
                    .min()
            });
            let shown = nav_window(children.len(), focus);
            // The window and, wherever they are, the subsections; a `gap`
            // entry stands for each run of pages left out.
            let subs = cx.nav_subs.get(parent).map_or(&[][..], Vec::as_slice);
            let mut visit: Vec<usize> = shown.clone().collect();
            visit.extend(subs.iter().filter(|i| !shown.contains(i)));
            visit.sort_unstable();
            let mut any_gap = false;
            let mut next = 0;
            for i in visit {
                if i > next {
                    if let Some((gap, _)) = more {
                        out.push_str(gap);
                    }
                    any_gap = true;
                }
                emit(i, out);
                next = i + 1;
            }
            if next < children.len() {
                if let Some((gap, _)) = more {
                    out.push_str(gap);
                }
                any_gap = true;
            }
            if let Some((_, all)) = more.filter(|(_, all)| any_gap && !all.is_empty()) {
                out.push_str(all);
            }
        }
        let mut out = String::new();
        walk(self, tree, "", current, &mut out);
        out
    }

    /// The pages before and after `page` in navigation order (depth first,
    /// as in mdBook), linked in `tree` with titles in `lang`.
    pub(in crate::render) fn neighbours(&self, tree: &str, lang: Lang, page: &Page) -> Neighbours {
        let link = |pos: Option<usize>| {
            let p = self.outline(*self.order.get(pos?)?);
            Some(PageLink {
                title: p.title.get(lang).clone(),
                href: self.page_href(tree, p),
            })
        };
        let pos = self
            .site
            .index
            .pages
            .get(&page.rel)
            .map(|&i| self.pos_of[i]);
        Neighbours {
            prev: link(pos.and_then(|p| p.checked_sub(1))),
            next: link(pos.map(|p| p + 1)),
        }
    }

    /// The `number`th page (from 1) of `page`'s listing of its section's
    /// pages, linked in `tree` with titles in `lang`; `None` if `page` does
    /// not list its section.
    pub(in crate::render) fn listing(
        &self,
        tree: &str,
        lang: Lang,
        page: &Page,
        number: usize,
    ) -> Option<Listing> {
        let children = self
            .nav_children
            .get(&page.url_path)
            .filter(|_| lists(page))?;
        let per = per_listing_page(self.site, children.len());
        let pages = listing_pages(self.site, children.len());
        let href = |n: usize| {
            (1..=pages)
                .contains(&n)
                .then(|| crate::render::paths::listing_href(self.base, tree, page, n))
        };
        Some(Listing {
            items: children
                .iter()
                .skip((number - 1) * per)
                .take(per)
                .map(|&pos| {
                    let p = self.outline(self.order[pos]);
                    PageLink {
                        title: p.title.get(lang).clone(),
                        href: self.page_href(tree, p),
                    }
                })
                .collect(),
            number,
            pages,
            total: children.len(),
            prev: href(number - 1),
            next: href(number + 1),
        })
    }

    /// How many listing pages `page` has: 1 unless it lists a section
    /// longer than `paginate-by`.
    pub(in crate::render) fn listing_count(&self, page: &Page) -> usize {
        match self.nav_children.get(&page.url_path) {
            Some(children) if lists(page) => listing_pages(self.site, children.len()),
            _ => 1,
        }
    }

    pub(in crate::render) fn render(
        &self,
        name: &str,
        cx: &tera::Context,
    ) -> Result<String, Diagnostic> {
        self.renderer.templates.render(name, cx)
    }
}

/// Computes the state every output needs: URLs, navigation (rendered once
/// per entry), the legend, and each claim's view with its inline HTML.
pub(in crate::render) fn prepare(
    r: &Renderer,
    site: &Site,
    inline_md: InlineMd,
) -> Result<RenderState, Vec<Diagnostic>> {
    let base = site.config.base_path.as_str();
    let order = nav_order(site);
    let mut pos_of = vec![0; order.len()];
    for (pos, &i) in order.iter().enumerate() {
        pos_of[i] = pos;
    }
    let mut p = RenderState {
        pos_of,
        urls: site
            .content
            .pages
            .iter()
            .map(|p| (p.rel.clone(), p.url_path.clone()))
            .collect(),
        nav_children: nav_children(site, &order),
        order,
        cells: cells(site),
        ..RenderState::default()
    };
    for (parent, children) in &p.nav_children {
        let mut subs = Vec::new();
        for (i, &pos) in children.iter().enumerate() {
            let page = site.content.outline(p.order[pos]);
            p.nav_at.insert(page.url_path.clone(), i);
            if page.is_section_index() {
                subs.push(i);
            }
        }
        p.nav_subs.insert(parent.clone(), subs);
    }
    let depths = nav_depths(&p, site);
    p.nav_depths = depths.clone();
    let default = site.config.default_lang();
    for tree in NavTree::ALL {
        let (lang, code) = match tree {
            NavTree::Lang(l) => (l, l.code()),
            NavTree::Parallel => (default, "ja-en"),
        };
        p.nav_items[tree.index()] = p.order.iter().map(|_| Default::default()).collect();

        let mut more = BTreeMap::new();
        for (parent, children) in p.nav_children.iter().filter(|(_, c)| c.len() > NAV_MAX) {
            let entry = |kind: &'static str| -> Result<String, Diagnostic> {
                let mut t = tera::Context::new();
                t.insert("lang", lang.code());
                let item = NavItem {
                    title: String::new(),
                    href: format!("{base}{code}/{parent}"),
                    depth: depths[children[0]],
                    current: false,
                    kind,
                    count: children.len(),
                };
                t.insert("item", &item);
                Ok(r.templates
                    .render("partials/nav_item.html", &t)?
                    .trim()
                    .to_owned())
            };
            let gap = entry("gap").map_err(|d| vec![d])?;
            // The home page lists nothing: the top level has no `all`.
            let all = if parent.is_empty() {
                String::new()
            } else {
                entry("all").map_err(|d| vec![d])?
            };
            more.insert(parent.clone(), (gap, all));
        }
        p.nav_more[tree.index()] = more;
    }
    let classes: Vec<&str> = Class::BY_CERTAINTY.iter().map(|c| c.name()).collect();
    for lang in Lang::ALL {
        let mut t = tera::Context::new();
        t.insert("lang", lang.code());
        t.insert("classes", &classes);
        p.legend[li(lang)] = r
            .templates
            .render("partials/legend.html", &t)
            .map_err(|d| vec![d])?
            .trim()
            .to_owned();
    }
    for lang in Lang::ALL {
        let mut t = tera::Context::new();
        t.insert("lang", lang.code());
        t.insert("classes", &classes);
        p.meanings[li(lang)] = r
            .templates
            .render("partials/meanings.html", &t)
            .map_err(|d| vec![d])?
            .trim()
            .to_owned();
    }
    if site.config.outputs.markdown || site.config.outputs.llms {
        p.words = crate::render::words::words(r.i18n()).map_err(|d| vec![d])?;
    }
    p.claims = site
        .index
        .claims
        .keys()
        .map(|id| (id.clone(), Default::default()))
        .collect();
    // One claim in each language and one navigation entry in each tree
    // are rendered now, so that a template that cannot render them fails
    // here, before any page.
    let cx = Ctx {
        renderer: r,
        site,
        base,
        prepared: &p,
        inline_md,
        input: None,
    };
    if let Some(first) = site.index.claims.keys().next() {
        for lang in Lang::ALL {
            cx.claim(lang, first);
        }
    }
    if !p.order.is_empty() {
        for tree in NavTree::ALL {
            cx.nav_item(tree, 0);
        }
    }
    if let Some(d) = p.deferred_error() {
        return Err(vec![d]);
    }
    Ok(p)
}

/// The navigation entry of the page at `pos` in `order`, in `tree`: (not
/// current, current).
fn nav_entry(cx: &Ctx<'_>, tree: NavTree, pos: usize) -> Result<(String, String), Diagnostic> {
    let site = cx.site;
    let (lang, code) = match tree {
        NavTree::Lang(l) => (l, l.code()),
        NavTree::Parallel => (site.config.default_lang(), "ja-en"),
    };
    let page = site.content.outline(cx.order[pos]);
    let mut item = NavItem {
        title: page.title.get(lang).clone(),
        href: format!("{}{code}/{}", cx.base, page.url_path),
        depth: cx.nav_depths[pos],
        current: false,
        kind: "page",
        count: 0,
    };
    let mut t = tera::Context::new();
    t.insert("lang", lang.code());
    t.insert("item", &item);
    let plain = cx.render("partials/nav_item.html", &t)?.trim().to_owned();
    item.current = true;
    t.insert("item", &item);
    let marked = cx.render("partials/nav_item.html", &t)?.trim().to_owned();
    Ok((plain, marked))
}
