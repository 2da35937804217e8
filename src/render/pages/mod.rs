//! The render pass proper: every page, view, evidence page and site file.
//!
//! Split by responsibility: [`context`] (the shared render state),
//! [`nav`] (navigation and listings), [`claims`] (claim views); this
//! module renders the pages themselves.
//!
//! Claim views and their inline HTML are made once per language and reused
//! by every page that mentions the claim; nothing is re-read from disk.

use super::context::*;
use super::paths::{listing_href, listing_path};

use super::markdown::{self, IdSet, MdContext};
use super::views::*;
use super::{tree, OutputFile};
use crate::content::{Page, Segment};
use crate::error::Diagnostic;
use crate::lang::Lang;
use std::collections::BTreeSet;

/// One content page in each language and side by side, with its
/// Markdown twin in each language (`[output] markdown`). A section's page
/// that lists more entries than `paginate-by` also writes its further
/// listing pages in each tree.
pub(super) fn page_unit(cx: &Ctx<'_>, page: &Page) -> Result<Vec<OutputFile>, Diagnostic> {
    use crate::cost::{timed, Kind};
    let section = page.is_section_index();
    if section {
        // A section's cost grows with its listing: counted apart.
        return timed(Kind::Section, || page_files(cx, page, false));
    }
    page_files(cx, page, true)
}

/// [`page_unit`]'s files; `by_tree`: each tree's render timed as its own
/// kind.
fn page_files(cx: &Ctx<'_>, page: &Page, by_tree: bool) -> Result<Vec<OutputFile>, Diagnostic> {
    use crate::cost::Kind;
    let timed = |kind, f: &mut dyn FnMut() -> Result<OutputFile, Diagnostic>| {
        if by_tree {
            crate::cost::timed(kind, f)
        } else {
            f()
        }
    };
    let twins = cx.config().outputs.markdown;
    // The twin of each language is made from what that language's HTML
    // render found in the page's chunks: no second parse.
    let mut marks: [Vec<super::twin::Marks>; 2] = Default::default();
    let (ja, en) = marks.split_at_mut(1);
    let mut files = vec![
        timed(Kind::Ja, &mut || {
            render_page(cx, page, Lang::Ja, twins.then_some(&mut ja[0]))
        })?,
        timed(Kind::En, &mut || {
            render_page(cx, page, Lang::En, twins.then_some(&mut en[0]))
        })?,
        timed(Kind::Parallel, &mut || render_parallel(cx, page))?,
    ];
    if twins {
        for lang in Lang::ALL {
            files.push(timed(Kind::Twin, &mut || {
                super::twin::page(cx, page, lang, &marks[li(lang)])
            })?);
        }
    }
    for n in 2..=cx.listing_count(page) {
        for t in [Some(Lang::Ja), Some(Lang::En), None] {
            files.push(render_listing_page(cx, page, t, n)?);
        }
        if twins {
            for lang in Lang::ALL {
                files.push(super::twin::listing_page(cx, page, lang, n)?);
            }
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
    let lang = t.unwrap_or_else(|| cx.config().default_lang());
    let nav = t.map_or(NavTree::Parallel, NavTree::Lang);
    let href = listing_href(cx.base, code, page, n);
    let mut cx_t = cx.common(lang, "listing", &href, nav, Some(&page.url_path));
    // No `x-default` here, unlike every other page: a section's listing
    // pages name ja and en only (docs/theme-contract.md, `alternates`).
    let (sw, alt) = cx.switcher(
        &TREES,
        Some(code),
        |c| listing_href(cx.base, c, page, n),
        false,
    );
    cx_t.insert("switcher", &sw);
    cx_t.insert("alternates", &alt);
    let view = PageView {
        title: page.title.get(lang).clone(),
        lead: None,
        updated: None,
        layout: page.layout,
        draft: page.draft,
        source: page.source_path().to_owned(),
        edit_url: None,
        segments: Vec::new(),
        claims: Vec::new(),
        scope: None,
        entity: None,
        answers_html: String::new(),
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
    ids.filter_map(|id| cx.claim(lang, &id).cloned()).collect()
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
        highlighter: &cx.renderer.highlighter,
        diagrams: &cx.renderer.diagrams,
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
    answers_html: String,
) -> PageView {
    PageView {
        title: page.title.get(lang).clone(),
        lead: page.lead.as_ref().map(|l| l.get(lang).clone()),
        updated: page.updated.clone(),
        layout: page.layout,
        draft: page.draft,
        source: page.source_path().to_owned(),
        edit_url: cx
            .config()
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
                .config()
                .kinds
                .get(&e.kind)
                .map_or_else(|| e.kind.clone(), |k| k.get(lang).clone()),
            key: e.key.clone(),
            name: e.name.get(lang).clone(),
            role: e.role.as_ref().map(|r| r.get(lang).clone()),
        }),
        answers_html,
    }
}

/// Ids a heading may not take on this page (see `body::reserved_ids`).
fn reserved(cx: &Ctx<'_>, page: &Page) -> IdSet {
    crate::content::body::reserved_ids(
        cx.renderer.templates.reserved_ids(),
        page.claims.iter().map(|c| c.id.as_str()),
    )
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

/// Page `page` in `lang`; with `marks`, what each of its segments' twin
/// rewrites (see `markdown::Mark`), in segment order.
fn render_page(
    cx: &Ctx<'_>,
    page: &Page,
    lang: Lang,
    mut marks: Option<&mut Vec<super::twin::Marks>>,
) -> Result<OutputFile, Diagnostic> {
    let unlisted = shown_inline(page, Some(lang));
    let anchored = std::cell::RefCell::new(BTreeSet::new());
    let claim_html = |id: &str| {
        cx.claim(lang, id)
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
    let mut segments: Vec<SegView> = Vec::with_capacity(page.segments.len());
    for seg in &page.segments {
        let (chunk, written) = match seg {
            Segment::Shared(c) => (c, lang),
            Segment::Pair { ja, en } => (if lang == Lang::Ja { ja } else { en }, lang),
            Segment::Untranslated { lang: l, chunk, .. } => (chunk, *l),
        };
        let mut found = marks.as_ref().map(|_| super::twin::Marks::new());
        segments.push(SegView {
            html: markdown::render_marking(chunk, &md, &mut ids, found.as_mut()),
            untranslated: written != lang,
            lang: written.code(),
        });
        if let (Some(all), Some(found)) = (marks.as_deref_mut(), found) {
            all.push(found);
        }
    }
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
    let (sw, alt) = cx.switcher(&TREES, Some(lang.code()), |c| cx.page_href(c, page), true);
    t.insert("switcher", &sw);
    t.insert("alternates", &alt);
    let answers = super::generated::answers_html(cx, page, lang, lang.code())?;
    t.insert(
        "page",
        &page_view(cx, page, lang, segments, &unlisted, answers),
    );
    t.insert("listing", &cx.listing(lang.code(), lang, page, 1));
    t.insert("neighbours", &cx.neighbours(lang.code(), lang, page));
    let html = cx.render("page.html", &t)?;
    Ok(OutputFile {
        path: super::paths::page_path(lang.code(), &page.url_path),
        bytes: html.into_bytes(),
    })
}

fn render_parallel(cx: &Ctx<'_>, page: &Page) -> Result<OutputFile, Diagnostic> {
    let default = cx.config().default_lang();
    let prefix = format!("{}ja-en/", cx.base);
    // Both lists are shown side by side, paired by position: only a claim
    // the text shows in both languages leaves them.
    let unlisted = shown_inline(page, None);
    let anchored = std::cell::RefCell::new(BTreeSet::new());
    let ja_html = |id: &str| {
        cx.claim(Lang::Ja, id)
            .map(|c| anchor_once(&unlisted, &anchored, id, c, c.inline.clone()))
    };
    let en_html = |id: &str| {
        cx.claim(Lang::En, id)
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
    // shows its badge and text in the default language, then the other,
    // each part marked with its language (the stylesheet sets the second
    // apart, on a line of its own).
    let other = default.other();
    let both_html = |id: &str| {
        let main = cx.claim(default, id)?;
        let alt = cx.claim(other, id)?;
        let html = format!(
            "<span class=\"claim-both\"><span class=\"claim-both__main\" lang=\"{default}\">{}</span> \
             <span class=\"claim__text claim__text--alt\" lang=\"{other}\">{}</span></span>",
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
                stale: cx.stale(si).map(|(l, prev)| super::views::Stale {
                    changed: l.code(),
                    previous: prev.to_owned(),
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
    let (sw, alt) = cx.switcher(&TREES, Some("ja-en"), |c| cx.page_href(c, page), true);
    t.insert("switcher", &sw);
    t.insert("alternates", &alt);
    t.insert(
        "page_ja",
        &page_view(
            cx,
            page,
            Lang::Ja,
            Vec::new(),
            &unlisted,
            super::generated::answers_html(cx, page, Lang::Ja, "ja-en")?,
        ),
    );
    t.insert(
        "page_en",
        &page_view(
            cx,
            page,
            Lang::En,
            Vec::new(),
            &unlisted,
            super::generated::answers_html(cx, page, Lang::En, "ja-en")?,
        ),
    );
    t.insert("rows", &rows);
    t.insert("listing", &cx.listing("ja-en", default, page, 1));
    t.insert("neighbours", &cx.neighbours("ja-en", default, page));
    let html = cx.render("parallel.html", &t)?;
    Ok(OutputFile {
        path: super::paths::page_path("ja-en", &page.url_path),
        bytes: html.into_bytes(),
    })
}
