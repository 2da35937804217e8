//! The render pass proper: every page, view, evidence page and site file.
//!
//! Claim views and their inline HTML are made once per language and reused
//! by every page that mentions the claim; nothing is re-read from disk.

use super::markdown::{self, IdSet, MdContext};
use super::views::*;
use super::{tree, OutputFile, Renderer};
use crate::content::{Class, Page, Segment};
use crate::error::Diagnostic;
use crate::lang::Lang;
use crate::validate::{ClaimAt, Site};
use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet};

/// Render state computed once per site and shared by every output.
#[derive(Debug, Clone, Default)]
pub struct Prepared {
    /// Content-relative path → URL path.
    pub(super) urls: BTreeMap<String, String>,
    /// Claim views per language (index 0 = ja, 1 = en).
    pub(super) claims: [BTreeMap<String, ClaimView>; 2],
    /// Page indices in navigation order.
    pub(super) order: Vec<usize>,
    /// Navigation tree: parent URL path → positions in `order`.
    nav_children: BTreeMap<String, Vec<usize>>,
    /// Each page's URL path → its index among its parent's children, and
    /// per parent the indices of children that are sections: a page's
    /// navigation finds its window without scanning a long section.
    nav_at: std::collections::HashMap<String, usize>,
    nav_subs: BTreeMap<String, Vec<usize>>,
    /// Rendered `partials/nav_item.html` per tree (ja, en, ja-en) and
    /// position in `order`: (not current, current).
    nav_items: [Vec<(String, String)>; 3],
    /// Position in `order` of each page (by index in `Content::pages`).
    pos_of: Vec<usize>,
    /// For each section whose entries are windowed (see [`NAV_MAX`]), per
    /// tree: parent URL path → its rendered `gap` and `all` entries.
    nav_more: [BTreeMap<String, (String, String)>; 3],
    /// Rendered `partials/legend.html` per language.
    legend: [String; 2],
    /// Rendered `partials/meanings.html`.
    meanings: String,
    /// (about, aspect) → the claim filling that cell.
    pub(super) cells: BTreeMap<(String, String), ClaimAt>,
}

pub(super) struct Ctx<'a> {
    pub(super) r: &'a Renderer,
    pub(super) site: &'a Site,
    pub(super) base: &'a str,
    pub(super) p: &'a Prepared,
}

impl Prepared {
    /// Every claim's views (ja, en) by id: what a page showing the claim
    /// reads of it.
    pub fn claim_views(&self) -> impl Iterator<Item = (&String, (&ClaimView, Option<&ClaimView>))> {
        self.claims[0]
            .iter()
            .map(|(id, ja)| (id, (ja, self.claims[1].get(id))))
    }
}

impl std::ops::Deref for Ctx<'_> {
    type Target = Prepared;
    fn deref(&self) -> &Prepared {
        self.p
    }
}

/// A navigation tree: one per language and the parallel view's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum NavTree {
    Lang(Lang),
    Parallel,
}

impl NavTree {
    fn index(self) -> usize {
        match self {
            NavTree::Lang(l) => li(l),
            NavTree::Parallel => 2,
        }
    }
}

pub(super) fn li(lang: Lang) -> usize {
    match lang {
        Lang::Ja => 0,
        Lang::En => 1,
    }
}

impl Ctx<'_> {
    pub(super) fn page_href(&self, tree: &str, page: &Page) -> String {
        format!("{}{tree}/{}", self.base, page.url_path)
    }

    pub(super) fn evidence_href(&self, lang: Lang, path: &str) -> String {
        format!("{}{lang}/evidence/{path}/", self.base)
    }

    pub(super) fn absolute(&self, href: &str) -> String {
        match &self.site.config.origin {
            Some(o) => format!("{o}{href}"),
            None => href.to_owned(),
        }
    }

    /// The variables every template gets. `nav` is the navigation to
    /// show, with `current` (a URL path) marked and its sections opened.
    pub(super) fn common(
        &self,
        lang: Lang,
        view: &str,
        canonical: &str,
        nav: NavTree,
        current: Option<&str>,
    ) -> tera::Context {
        let c = &self.site.config;
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
        cx.insert(
            "classes",
            &Class::ALL.iter().map(|c| c.name()).collect::<Vec<_>>(),
        );
        cx.insert("canonical", canonical);
        cx.insert("home_href", &format!("{}{lang}/", self.base));
        cx.insert("evidence_href", &format!("{}{lang}/evidence/", self.base));
        cx.insert("nav_html", &self.nav_html(nav, current));
        cx.insert("legend_html", &self.legend[li(lang)]);
        cx.insert("meanings_html", &self.meanings);
        cx
    }

    /// The navigation shown on a page: top-level entries, and the entries
    /// of each section on the way to `current` (a URL path). A long section
    /// shows only a window of its pages around the one on the way (its
    /// subsections always), a `gap` entry where pages are left out and an
    /// `all` entry linking to its listing, so a page's size does not grow
    /// with its section. Entries were rendered once each; a page only joins
    /// them.
    pub(super) fn nav_html(&self, tree: NavTree, current: Option<&str>) -> String {
        fn walk(cx: &Ctx<'_>, tree: usize, parent: &str, current: Option<&str>, out: &mut String) {
            let Some(children) = cx.nav_children.get(parent) else {
                return;
            };
            let page_at = |pos: usize| &cx.site.content.pages[cx.order[pos]];
            let on_path = |url: &str| {
                current == Some(url)
                    || (!url.is_empty() && current.is_some_and(|c| c.starts_with(url)))
            };
            let more = cx.nav_more[tree].get(parent);
            let emit = |i: usize, out: &mut String| {
                let pos = children[i];
                let url = page_at(pos).url_path.as_str();
                let (plain, marked) = &cx.nav_items[tree][pos];
                out.push('\n');
                out.push_str(if current == Some(url) { marked } else { plain });
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
                        out.push('\n');
                        out.push_str(gap);
                    }
                    any_gap = true;
                }
                emit(i, out);
                next = i + 1;
            }
            if next < children.len() {
                if let Some((gap, _)) = more {
                    out.push('\n');
                    out.push_str(gap);
                }
                any_gap = true;
            }
            if let Some((_, all)) = more.filter(|(_, all)| any_gap && !all.is_empty()) {
                out.push('\n');
                out.push_str(all);
            }
        }
        let mut out = String::new();
        walk(self, tree.index(), "", current, &mut out);
        out
    }

    /// The pages before and after `page` in navigation order (depth first,
    /// as in mdBook), linked in `tree` with titles in `lang`.
    pub(super) fn neighbours(&self, tree: &str, lang: Lang, page: &Page) -> Neighbours {
        let link = |pos: Option<usize>| {
            let p = &self.site.content.pages[*self.order.get(pos?)?];
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
    pub(super) fn listing(
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
                .then(|| listing_href(self, tree, page, n))
        };
        Some(Listing {
            items: children
                .iter()
                .skip((number - 1) * per)
                .take(per)
                .map(|&pos| {
                    let p = &self.site.content.pages[self.order[pos]];
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
    pub(super) fn listing_count(&self, page: &Page) -> usize {
        match self.nav_children.get(&page.url_path) {
            Some(children) if lists(page) => listing_pages(self.site, children.len()),
            _ => 1,
        }
    }

    pub(super) fn render(&self, name: &str, cx: &tera::Context) -> Result<String, Diagnostic> {
        self.r.templates.render(name, cx)
    }
}

/// Sections longer than this show a window of their entries in the
/// navigation, not all of them.
const NAV_MAX: usize = 15;
/// Entries shown on each side of the current one in a windowed section.
const NAV_RADIUS: usize = 5;

/// The positions among `len` entries shown in the navigation when the
/// entry at `focus` is current or on the way to it: all of them in a short
/// section, else `2 * NAV_RADIUS + 1` around the focus (from the start
/// when nothing in the section is on the way).
fn nav_window(len: usize, focus: Option<usize>) -> std::ops::Range<usize> {
    if len <= NAV_MAX {
        return 0..len;
    }
    let width = 2 * NAV_RADIUS + 1;
    let lo = focus
        .unwrap_or(0)
        .saturating_sub(NAV_RADIUS)
        .min(len - width);
    lo..lo + width
}

/// Whether `page` lists its section's pages: a section's own page with the
/// ordinary layout (a generated view already presents its section, and the
/// home page's entries are the top of the navigation).
pub(super) fn lists(page: &Page) -> bool {
    page.is_section_index()
        && !page.url_path.is_empty()
        && page.layout == crate::content::Layout::Page
}

/// Entries per listing page for a section of `len` entries.
fn per_listing_page(site: &Site, len: usize) -> usize {
    match site.config.paginate_by {
        0 => len.max(1),
        n => n,
    }
}

/// Listing pages for a section of `len` entries: at least one.
pub(super) fn listing_pages(site: &Site, len: usize) -> usize {
    len.div_ceil(per_listing_page(site, len)).max(1)
}

/// The URL of listing page `n` of `page` in `tree`: the section's own URL
/// for the first, `page/<n>/` under it after (Zola's and Hugo's naming).
fn listing_href(cx: &Ctx<'_>, tree: &str, page: &Page, n: usize) -> String {
    if n == 1 {
        cx.page_href(tree, page)
    } else {
        format!("{}page/{n}/", cx.page_href(tree, page))
    }
}

/// The output path of listing page `n` (from 2) of the section at `url`.
pub(super) fn listing_path(tree: &str, url: &str, n: usize) -> String {
    format!("{tree}/{url}page/{n}/index.html")
}

/// Direct entries per section URL path, counted without ordering them:
/// what the output paths of listings depend on.
pub(super) fn section_sizes(site: &Site) -> BTreeMap<String, usize> {
    let all: Vec<usize> = (0..site.content.pages.len()).collect();
    nav_children(site, &all)
        .into_iter()
        .map(|(k, v)| (k, v.len()))
        .collect()
}

fn claim_view(cx: &Ctx<'_>, at: ClaimAt, lang: Lang) -> ClaimView {
    let page = &cx.site.content.pages[at.page];
    let claim = &page.claims[at.claim];
    let href = |a: ClaimAt| {
        format!(
            "{}#claim-{}",
            cx.page_href(lang.code(), &cx.site.content.pages[a.page]),
            cx.site.claim(a).id
        )
    };
    ClaimView {
        id: claim.id.clone(),
        class: claim.class.name(),
        text: claim.text.get(lang).clone(),
        anchor: format!("claim-{}", claim.id),
        href: href(at),
        evidence: claim
            .evidence
            .iter()
            .map(|l| Link {
                label: l.label(),
                href: format!("{}{}", cx.evidence_href(lang, &l.path), l.fragment()),
            })
            .collect(),
        from: claim
            .from
            .iter()
            .filter_map(|(id, _)| {
                cx.site.index.claims.get(id).map(|&a| ClaimLink {
                    id: id.clone(),
                    href: href(a),
                    class: cx.site.claim(a).class.name(),
                    text: cx.site.claim(a).text.get(lang).clone(),
                })
            })
            .collect(),
        notes: notes_view(cx, at, lang),
        basis: basis(cx.site, claim),
        inline: String::new(),
    }
}

/// What readers are told about a claim beyond its class: review notices
/// (suspect, stale translation), its lifecycle and a machine translation.
fn notes_view(cx: &Ctx<'_>, at: ClaimAt, lang: Lang) -> super::views::ClaimNotes {
    let claim = cx.site.claim(at);
    let note = cx.site.review.claims.get(&claim.id);
    let successor = claim.life.superseded_by.as_ref().and_then(|(id, _)| {
        let a = *cx.site.index.claims.get(id)?;
        Some(super::views::Link {
            label: id.clone(),
            href: format!(
                "{}#claim-{id}",
                cx.page_href(lang.code(), &cx.site.content.pages[a.page])
            ),
        })
    });
    super::views::ClaimNotes {
        state: claim.life.state.name(),
        reason: claim.life.reason.as_ref().map(|r| r.get(lang).clone()),
        successor,
        suspect: note.and_then(|n| {
            if n.evidence_changed.is_some() {
                Some("evidence")
            } else if n.premise_changed.is_some() {
                Some("premise")
            } else {
                None
            }
        }),
        stale: note
            .and_then(|n| n.stale.as_ref())
            .map(|(l, prev)| super::views::Stale {
                changed: l.code(),
                previous: prev.clone(),
            }),
        machine: claim.life.machine_translated,
    }
}

/// See [`ClaimView::basis`]; the same rule as check's W002.
fn basis(site: &Site, claim: &crate::content::Claim) -> Option<&'static str> {
    use crate::evidence::EvidenceKind;
    if claim.class != Class::Confirmed || claim.evidence.is_empty() {
        return None;
    }
    let mut weakest = None;
    for l in &claim.evidence {
        match site.evidence.files.get(&l.path).and_then(|f| f.kind()) {
            Some(EvidenceKind::Note) => weakest = Some(EvidenceKind::Note),
            Some(EvidenceKind::Transcript) => {
                weakest.get_or_insert(EvidenceKind::Transcript);
            }
            _ => return None,
        }
    }
    weakest.map(EvidenceKind::name)
}

/// Groups nav positions under their nearest section page. The home page
/// and top-level entries sit under `""`.
fn nav_children(site: &Site, order: &[usize]) -> BTreeMap<String, Vec<usize>> {
    let urls: std::collections::HashSet<&str> = site
        .content
        .pages
        .iter()
        .map(|p| p.url_path.as_str())
        .collect();
    let mut children: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (pos, &i) in order.iter().enumerate() {
        let url = site.content.pages[i].url_path.as_str();
        let mut parent = url.trim_end_matches('/');
        let key = loop {
            if parent.is_empty() {
                break "";
            }
            parent = parent.rsplit_once('/').map_or("", |(p, _)| p);
            let candidate = if parent.is_empty() {
                String::new()
            } else {
                format!("{parent}/")
            };
            if candidate.is_empty() {
                break "";
            }
            if let Some(found) = urls.get(candidate.as_str()) {
                break found;
            }
        };
        children.entry(key.to_owned()).or_default().push(pos);
    }
    children
}

/// Navigation order: sections by the weight of their `_index.md`, pages by
/// weight then path, each section's own page before its children.
fn nav_order(site: &Site) -> Vec<usize> {
    let pages = &site.content.pages;
    let section_weight = |dir: &str| -> i64 {
        let idx = if dir.is_empty() {
            "_index.md".to_owned()
        } else {
            format!("{dir}/_index.md")
        };
        site.index.pages.get(&idx).map_or(0, |&i| pages[i].weight)
    };
    let key = |p: &Page| -> Vec<(i64, String)> {
        let mut parts: Vec<&str> = p
            .url_path
            .trim_end_matches('/')
            .split('/')
            .filter(|s| !s.is_empty())
            .collect();
        let mut key = Vec::new();
        let mut dir = String::new();
        let last = parts.pop();
        for part in parts {
            dir = if dir.is_empty() {
                part.to_owned()
            } else {
                format!("{dir}/{part}")
            };
            key.push((section_weight(&dir), part.to_owned()));
        }
        if let Some(last) = last {
            key.push((p.weight, last.to_owned()));
        }
        key
    };
    let mut order: Vec<usize> = (0..pages.len()).collect();
    order.sort_by_cached_key(|&i| key(&pages[i]));
    order
}

/// Each navigation entry's depth: how many section entries it sits under.
fn nav_depths(p: &Prepared, site: &Site) -> Vec<usize> {
    fn walk(p: &Prepared, site: &Site, parent: &str, depth: usize, out: &mut [usize]) {
        let Some(children) = p.nav_children.get(parent) else {
            return;
        };
        for &pos in children {
            out[pos] = depth;
            let url = &site.content.pages[p.order[pos]].url_path;
            if !url.is_empty() {
                walk(p, site, url, depth + 1, out);
            }
        }
    }
    let mut out = vec![0; p.order.len()];
    walk(p, site, "", 0, &mut out);
    out
}

/// Computes the state every output needs: URLs, navigation (rendered once
/// per entry), the legend, and each claim's view with its inline HTML.
pub(super) fn prepare(r: &Renderer, site: &Site) -> Result<Prepared, Vec<Diagnostic>> {
    let base = site.config.base_path.as_str();
    let order = nav_order(site);
    let mut pos_of = vec![0; order.len()];
    for (pos, &i) in order.iter().enumerate() {
        pos_of[i] = pos;
    }
    let mut p = Prepared {
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
        ..Prepared::default()
    };
    for (parent, children) in &p.nav_children {
        let mut subs = Vec::new();
        for (i, &pos) in children.iter().enumerate() {
            let page = &site.content.pages[p.order[pos]];
            p.nav_at.insert(page.url_path.clone(), i);
            if page.is_section_index() {
                subs.push(i);
            }
        }
        p.nav_subs.insert(parent.clone(), subs);
    }
    let depths = nav_depths(&p, site);
    let default = site.config.default_lang();
    for tree in [
        NavTree::Lang(Lang::Ja),
        NavTree::Lang(Lang::En),
        NavTree::Parallel,
    ] {
        let (lang, code) = match tree {
            NavTree::Lang(l) => (l, l.code()),
            NavTree::Parallel => (default, "ja-en"),
        };
        let items: Result<Vec<(String, String)>, Diagnostic> = p
            .order
            .par_iter()
            .zip(&depths)
            .map(|(&i, &depth)| {
                let page = &site.content.pages[i];
                let mut item = NavItem {
                    title: page.title.get(lang).clone(),
                    href: format!("{base}{code}/{}", page.url_path),
                    depth,
                    current: false,
                    kind: "page",
                    count: 0,
                };
                let mut t = tera::Context::new();
                t.insert("lang", lang.code());
                t.insert("item", &item);
                let plain = r
                    .templates
                    .render("partials/nav_item.html", &t)?
                    .trim()
                    .to_owned();
                item.current = true;
                t.insert("item", &item);
                let marked = r
                    .templates
                    .render("partials/nav_item.html", &t)?
                    .trim()
                    .to_owned();
                Ok((plain, marked))
            })
            .collect();
        p.nav_items[tree.index()] = items.map_err(|d| vec![d])?;
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
    let classes: Vec<&str> = Class::ALL.iter().map(|c| c.name()).collect();
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
    let mut t = tera::Context::new();
    t.insert("classes", &classes);
    p.meanings = r
        .templates
        .render("partials/meanings.html", &t)
        .map_err(|d| vec![d])?
        .trim()
        .to_owned();
    let ids: Vec<&String> = site.index.claims.keys().collect();
    for lang in Lang::ALL {
        let views = claim_views(r, site, &p, &ids, lang).map_err(|d| vec![d])?;
        p.claims[li(lang)] = views.into_iter().collect();
    }
    Ok(p)
}

/// (about, aspect) → the claim filling that matrix cell.
pub(super) fn cells(site: &Site) -> BTreeMap<(String, String), ClaimAt> {
    site.index
        .claims
        .values()
        .filter_map(|&at| {
            let c = site.claim(at);
            // A retracted or superseded claim leaves the generated views:
            // its successor takes the cell (see `crate::content::State`).
            if c.life.state != crate::content::State::Current {
                return None;
            }
            Some(((c.about.clone()?, c.aspect.clone()?), at))
        })
        .collect()
}

/// The views of the claims `ids` in `lang`, each with its inline HTML
/// rendered, in parallel and in the order of `ids`.
pub(super) fn claim_views(
    r: &Renderer,
    site: &Site,
    p: &Prepared,
    ids: &[&String],
    lang: Lang,
) -> Result<Vec<(String, ClaimView)>, Diagnostic> {
    let cx = Ctx {
        r,
        site,
        base: site.config.base_path.as_str(),
        p,
    };
    ids.par_iter()
        .filter_map(|id| site.index.claims.get(*id).map(|&at| (*id, at)))
        .map(|(id, at)| {
            let mut v = claim_view(&cx, at, lang);
            let mut t = tera::Context::new();
            t.insert("claim", &v);
            t.insert("lang", lang.code());
            t.insert("base", cx.base);
            v.inline = cx.render("partials/claim.html", &t)?.trim().to_owned();
            Ok((id.clone(), v))
        })
        .collect()
}

/// One content page in each language and side by side.
/// A section's page that lists more entries than `paginate-by` also
/// writes its further listing pages in each tree.
pub(super) fn page_unit(cx: &Ctx<'_>, page: &Page) -> Result<Vec<OutputFile>, Diagnostic> {
    let mut files = vec![
        render_page(cx, page, Lang::Ja)?,
        render_page(cx, page, Lang::En)?,
        render_parallel(cx, page)?,
    ];
    for n in 2..=cx.listing_count(page) {
        for t in [Some(Lang::Ja), Some(Lang::En), None] {
            files.push(render_listing_page(cx, page, t, n)?);
        }
    }
    Ok(files)
}

/// Listing page `n` (from 2) of a section in tree `t` (`None`: the
/// parallel tree, in the default language): the section's title and that
/// part of its listing. Its body and claims stay on the first page, which
/// is also the only one indexed for search.
fn render_listing_page(
    cx: &Ctx<'_>,
    page: &Page,
    t: Option<Lang>,
    n: usize,
) -> Result<OutputFile, Diagnostic> {
    let code = tree(t);
    let lang = t.unwrap_or_else(|| cx.site.config.default_lang());
    let nav = t.map_or(NavTree::Parallel, NavTree::Lang);
    let href = listing_href(cx, code, page, n);
    let mut cx_t = cx.common(lang, "listing", &href, nav, Some(&page.url_path));
    let mut sw = Vec::new();
    for s in [Some(Lang::Ja), Some(Lang::En), None] {
        sw.push(Switch {
            code: tree(s),
            href: listing_href(cx, tree(s), page, n),
            current: s == t,
        });
    }
    let alt: Vec<Alternate> = Lang::ALL
        .iter()
        .map(|&l| Alternate {
            hreflang: l.code(),
            href: cx.absolute(&listing_href(cx, l.code(), page, n)),
        })
        .collect();
    cx_t.insert("switcher", &sw);
    cx_t.insert("alternates", &alt);
    let view = PageView {
        title: page.title.get(lang).clone(),
        lead: None,
        updated: None,
        layout: page.layout,
        source: page.source_path().to_owned(),
        edit_url: None,
        segments: Vec::new(),
        claims: Vec::new(),
        scope: None,
        entity: None,
    };
    cx_t.insert("page", &view);
    cx_t.insert("listing", &cx.listing(code, lang, page, n));
    cx_t.insert("neighbours", &None::<Neighbours>);
    let html = cx.render("page.html", &cx_t)?;
    Ok(OutputFile {
        path: listing_path(code, &page.url_path, n),
        bytes: html.into_bytes(),
    })
}

fn switcher(cx: &Ctx<'_>, page: &Page, current: Option<Lang>) -> (Vec<Switch>, Vec<Alternate>) {
    let mut sw = Vec::new();
    for t in [Some(Lang::Ja), Some(Lang::En), None] {
        sw.push(Switch {
            code: tree(t),
            href: cx.page_href(tree(t), page),
            current: t == current,
        });
    }
    let mut alt: Vec<Alternate> = Lang::ALL
        .iter()
        .map(|&l| Alternate {
            hreflang: l.code(),
            href: cx.absolute(&cx.page_href(l.code(), page)),
        })
        .collect();
    alt.push(Alternate {
        hreflang: "x-default",
        href: cx.absolute(&cx.page_href(cx.site.config.default_lang().code(), page)),
    });
    (sw, alt)
}

/// The page's own claims that its text shows inline in `lang` (`None`:
/// in both languages), when the page asks not to list them again
/// (`repeat-inline-claims = false`); otherwise none.
fn shown_inline(page: &Page, lang: Option<Lang>) -> BTreeSet<String> {
    if page.repeat_inline_claims {
        return BTreeSet::new();
    }
    let own: BTreeSet<&str> = page.claims.iter().map(|c| c.id.as_str()).collect();
    let shown_in = |l: Lang| -> BTreeSet<String> {
        page.segments
            .iter()
            .flat_map(Segment::chunks)
            .filter(|(_, langs)| langs.has(l))
            .flat_map(|(chunk, _)| crate::content::body::scan(chunk, &page.rel).refs)
            .filter_map(|(r, _)| match r {
                crate::content::body::Reference::Claim(id) if own.contains(&*id) => {
                    Some(id.into_owned())
                }
                _ => None,
            })
            .collect()
    };
    match lang {
        Some(l) => shown_in(l),
        None => &shown_in(Lang::Ja) & &shown_in(Lang::En),
    }
}

/// A claim left out of the list keeps its anchor: its first appearance in
/// the text carries it, so links to the claim still land on it.
fn anchor_once(
    unlisted: &BTreeSet<String>,
    anchored: &std::cell::RefCell<BTreeSet<String>>,
    id: &str,
    claim: &ClaimView,
    html: String,
) -> String {
    if unlisted.contains(id) && anchored.borrow_mut().insert(id.to_owned()) {
        format!(
            "<span class=\"claim-anchor\" id=\"{}\">{html}</span>",
            super::highlight::escape(&claim.anchor)
        )
    } else {
        html
    }
}

fn claim_list(cx: &Ctx<'_>, lang: Lang, ids: impl Iterator<Item = String>) -> Vec<ClaimView> {
    ids.filter_map(|id| cx.claims[li(lang)].get(&id).cloned())
        .collect()
}

fn md_context<'a>(
    cx: &'a Ctx<'a>,
    page: &'a Page,
    tree_prefix: &'a str,
    claim_html: &'a dyn Fn(&str) -> Option<String>,
    view_html: Option<&'a str>,
    id_prefix: &'a str,
    lang: Option<Lang>,
) -> MdContext<'a> {
    MdContext {
        lang,
        page_rel: &page.rel,
        tree_prefix,
        urls: &cx.urls,
        claim_html,
        highlighter: &cx.r.highlighter,
        diagrams: &cx.r.diagrams,
        view_html,
        named_view: &no_named_view,
        id_prefix,
    }
}

fn no_named_view(_: &str) -> Option<String> {
    None
}

fn page_view(
    cx: &Ctx<'_>,
    page: &Page,
    lang: Lang,
    segments: Vec<SegView>,
    shown_inline: &BTreeSet<String>,
) -> PageView {
    PageView {
        title: page.title.get(lang).clone(),
        lead: page.lead.as_ref().map(|l| l.get(lang).clone()),
        updated: page.updated.clone(),
        layout: page.layout,
        source: page.source_path().to_owned(),
        edit_url: cx
            .site
            .config
            .edit_url_template
            .as_ref()
            .map(|t| t.replace("{path}", page.source_path())),
        segments,
        claims: claim_list(
            cx,
            lang,
            page.claims
                .iter()
                .filter(|c| !shown_inline.contains(&c.id))
                .map(|c| c.id.clone()),
        ),
        scope: page.scope.as_ref().map(|s| ScopeView {
            can: claim_list(cx, lang, s.can.iter().map(|(id, _)| id.clone())),
            cannot: claim_list(cx, lang, s.cannot.iter().map(|(id, _)| id.clone())),
        }),
        entity: page.entity.as_ref().map(|e| EntityView {
            kind: e.kind.clone(),
            kind_label: cx
                .site
                .config
                .kinds
                .get(&e.kind)
                .map_or_else(|| e.kind.clone(), |k| k.get(lang).clone()),
            key: e.key.clone(),
            name: e.name.get(lang).clone(),
            role: e.role.as_ref().map(|r| r.get(lang).clone()),
        }),
    }
}

/// Ids a heading may not take on this page: the theme's own and the
/// claim anchors.
fn reserved(cx: &Ctx<'_>, page: &Page) -> IdSet {
    let mut ids: IdSet = cx.r.templates.reserved_ids().iter().cloned().collect();
    ids.extend(page.claims.iter().map(|c| format!("claim-{}", c.id)));
    ids
}

/// The page's named views in `lang`, by marker, rendered on first use.
/// A view that cannot be drawn was reported by validation (E050); its
/// marker then stays as text.
fn named_views<'a>(
    cx: &'a Ctx<'a>,
    page: &'a Page,
    lang: Lang,
    tree: &'a str,
) -> impl Fn(&str) -> Option<String> + 'a {
    move |marker: &str| {
        super::generated::named_view_html(cx, page, marker, lang, tree)
            .ok()
            .flatten()
    }
}

/// True if the body places the generated view itself with `[[view]]`.
fn has_view_marker(page: &Page) -> bool {
    page.segments.iter().any(|s| match s {
        Segment::Shared(c) | Segment::Untranslated { chunk: c, .. } => c.text.contains("[[view]]"),
        Segment::Pair { ja, en } => ja.text.contains("[[view]]") || en.text.contains("[[view]]"),
    })
}

fn render_page(cx: &Ctx<'_>, page: &Page, lang: Lang) -> Result<OutputFile, Diagnostic> {
    let claims = &cx.claims[li(lang)];
    let unlisted = shown_inline(page, Some(lang));
    let anchored = std::cell::RefCell::new(BTreeSet::new());
    let claim_html = |id: &str| {
        claims
            .get(id)
            .map(|c| anchor_once(&unlisted, &anchored, id, c, c.inline.clone()))
    };
    let prefix = format!("{}{lang}/", cx.base);
    let view = super::generated::view_html(cx, page, lang, lang.code())?;
    let named = named_views(cx, page, lang, lang.code());
    let mut md = md_context(
        cx,
        page,
        &prefix,
        &claim_html,
        view.as_deref(),
        "",
        Some(lang),
    );
    md.named_view = &named;
    let mut ids = reserved(cx, page);
    let mut segments: Vec<SegView> = page
        .segments
        .iter()
        .map(|seg| match seg {
            Segment::Shared(c) => SegView {
                html: markdown::render(c, &md, &mut ids),
                untranslated: false,
                lang: lang.code(),
            },
            Segment::Pair { ja, en } => {
                let c = if lang == Lang::Ja { ja } else { en };
                SegView {
                    html: markdown::render(c, &md, &mut ids),
                    untranslated: false,
                    lang: lang.code(),
                }
            }
            Segment::Untranslated { lang: l, chunk, .. } => SegView {
                html: markdown::render(chunk, &md, &mut ids),
                untranslated: *l != lang,
                lang: l.code(),
            },
        })
        .collect();
    if let Some(v) = view.filter(|_| !has_view_marker(page)) {
        segments.push(SegView {
            html: v,
            untranslated: false,
            lang: lang.code(),
        });
    }
    let href = cx.page_href(lang.code(), page);
    let mut t = cx.common(
        lang,
        "page",
        &href,
        NavTree::Lang(lang),
        Some(&page.url_path),
    );
    let (sw, alt) = switcher(cx, page, Some(lang));
    t.insert("switcher", &sw);
    t.insert("alternates", &alt);
    t.insert("page", &page_view(cx, page, lang, segments, &unlisted));
    t.insert("listing", &cx.listing(lang.code(), lang, page, 1));
    t.insert("neighbours", &cx.neighbours(lang.code(), lang, page));
    let html = cx.render("page.html", &t)?;
    Ok(OutputFile {
        path: format!("{lang}/{}index.html", page.url_path),
        bytes: html.into_bytes(),
    })
}

fn render_parallel(cx: &Ctx<'_>, page: &Page) -> Result<OutputFile, Diagnostic> {
    let default = cx.site.config.default_lang();
    let prefix = format!("{}ja-en/", cx.base);
    let ja_claims = &cx.claims[0];
    let en_claims = &cx.claims[1];
    // Both lists are shown side by side, paired by position: only a claim
    // the text shows in both languages leaves them.
    let unlisted = shown_inline(page, None);
    let anchored = std::cell::RefCell::new(BTreeSet::new());
    let ja_html = |id: &str| {
        ja_claims
            .get(id)
            .map(|c| anchor_once(&unlisted, &anchored, id, c, c.inline.clone()))
    };
    let en_html = |id: &str| {
        en_claims
            .get(id)
            .map(|c| anchor_once(&unlisted, &anchored, id, c, c.inline.clone()))
    };
    let view_ja = super::generated::view_html(cx, page, Lang::Ja, "ja-en")?;
    let view_en = super::generated::view_html(cx, page, Lang::En, "ja-en")?;
    let named_ja = named_views(cx, page, Lang::Ja, "ja-en");
    let named_en = named_views(cx, page, Lang::En, "ja-en");
    // A named view in a shared part is shown in both languages, as the
    // page's own view is.
    let named_shared = |marker: &str| {
        super::generated::both_views(named_ja(marker).as_deref(), named_en(marker).as_deref())
    };
    let mut md_ja = md_context(
        cx,
        page,
        &prefix,
        &ja_html,
        view_ja.as_deref(),
        "ja-",
        Some(Lang::Ja),
    );
    md_ja.named_view = &named_ja;
    let mut md_en = md_context(
        cx,
        page,
        &prefix,
        &en_html,
        view_en.as_deref(),
        "en-",
        Some(Lang::En),
    );
    md_en.named_view = &named_en;
    let md_for = |l: Lang| if l == Lang::Ja { &md_ja } else { &md_en };
    // Shared parts are full width and read by both readers: a claim there
    // shows its badge and text in the default language, then the other.
    let other = default.other();
    let both_html = |id: &str| {
        let main = cx.claims[li(default)].get(id)?;
        let alt = cx.claims[li(other)].get(id)?;
        let html = format!(
            "{} <span class=\"claim__text claim__text--alt\" lang=\"{other}\">{}</span>",
            main.inline,
            super::highlight::escape(&alt.text)
        );
        Some(anchor_once(&unlisted, &anchored, id, main, html))
    };
    // A view placed in a shared part is shown in both languages, one
    // after the other: its tables are too wide to sit side by side.
    let view_shared = super::generated::both_views(view_ja.as_deref(), view_en.as_deref());
    let mut md_shared = md_context(
        cx,
        page,
        &prefix,
        &both_html,
        view_shared.as_deref(),
        "",
        None,
    );
    md_shared.named_view = &named_shared;
    let mut ids = reserved(cx, page);
    let pi = cx.site.index.pages.get(&page.rel).copied();
    let mut rows: Vec<Row> = page
        .segments
        .iter()
        .enumerate()
        .map(|(si, seg)| match seg {
            Segment::Shared(c) => Row::Shared {
                html: markdown::render(c, &md_shared, &mut ids),
            },
            Segment::Pair { ja, en } => Row::Pair {
                ja: markdown::render(ja, &md_ja, &mut ids),
                en: markdown::render(en, &md_en, &mut ids),
                stale: pi
                    .and_then(|pi| cx.site.review.pairs.get(&(pi, si)))
                    .map(|(l, prev)| super::views::Stale {
                        changed: l.code(),
                        previous: prev.clone(),
                    }),
            },
            Segment::Untranslated { lang, chunk, .. } => Row::Only {
                lang: lang.code(),
                html: markdown::render(chunk, md_for(*lang), &mut ids),
            },
        })
        .collect();
    if let (Some(ja), Some(en)) = (view_ja.clone(), view_en.clone()) {
        if !has_view_marker(page) {
            rows.push(Row::Pair {
                ja,
                en,
                stale: None,
            });
        }
    }
    let href = cx.page_href("ja-en", page);
    let mut t = cx.common(
        default,
        "parallel",
        &href,
        NavTree::Parallel,
        Some(&page.url_path),
    );
    let (sw, alt) = switcher(cx, page, None);
    t.insert("switcher", &sw);
    t.insert("alternates", &alt);
    t.insert(
        "page_ja",
        &page_view(cx, page, Lang::Ja, Vec::new(), &unlisted),
    );
    t.insert(
        "page_en",
        &page_view(cx, page, Lang::En, Vec::new(), &unlisted),
    );
    t.insert("rows", &rows);
    t.insert("listing", &cx.listing("ja-en", default, page, 1));
    t.insert("neighbours", &cx.neighbours("ja-en", default, page));
    let html = cx.render("parallel.html", &t)?;
    Ok(OutputFile {
        path: format!("ja-en/{}index.html", page.url_path),
        bytes: html.into_bytes(),
    })
}
