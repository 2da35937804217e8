//! Markdown to HTML for one chunk, with kansoku's additions.
//!
//! `[[claim:ID]]` becomes the claim's inline HTML, links to `*.md` sources
//! become links to the same page in the reader's tree, fenced code is
//! highlighted, headings get stable ids. References were validated before
//! rendering, so an unknown one here renders as plain text, never a panic.

use super::highlight::{escape, Highlighter};
use crate::content::body::{parser_options, resolve_page_link};
use crate::content::wikilinks::{is_reference, plain, skip_inside};
use crate::content::Chunk;
use pulldown_cmark::{CodeBlockKind, CowStr, Event, LinkType, Parser, Tag, TagEnd};
use std::collections::BTreeMap;

/// What a chunk needs to know about its surroundings.
pub struct MdContext<'a> {
    /// Content-relative path of the page (for relative links).
    pub page_rel: &'a str,
    /// URL prefix of the reader's tree, e.g. `/ja/` or `/ja-en/`.
    pub tree_prefix: &'a str,
    /// Content-relative path → URL path in a tree.
    pub urls: &'a BTreeMap<String, String>,
    /// Claim id → inline HTML in the reader's language.
    pub claim_html: &'a dyn Fn(&str) -> Option<String>,
    /// The highlighter.
    pub highlighter: &'a Highlighter,
    /// The diagram renderer.
    pub diagrams: &'a super::diagram::Diagrams,
    /// The page's generated view, placed where `[[view]]` stands.
    pub view_html: Option<&'a str>,
    /// A named view by its marker (`table:NAME`, `graph:NAME`).
    pub named_view: &'a dyn Fn(&str) -> Option<String>,
    /// Prefix for footnote ids, so both columns of the parallel view can
    /// hold footnotes of the same name.
    pub id_prefix: &'a str,
    /// The reader's language: `[[ja:…]]` and `[[en:…]]` in a shared block
    /// show only the text of this language; `None` (the parallel view's
    /// shared rows) shows both, each marked with its language.
    pub lang: Option<crate::lang::Lang>,
}

pub use crate::content::body::{diagram_id, slugify, unique_id, IdSet};

/// Where a chunk's source holds what its Markdown twin rewrites
/// (`render::twin`), by byte range in the chunk's text: found by the parse
/// that renders the chunk to HTML, so the twin needs no parse of its own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Mark {
    /// A wikilink (`[[claim:ID]]`, `[[view]]`, …), whole, with its target.
    Wikilink(String),
    /// The destination of an inline link or of a link reference
    /// definition, as written.
    Dest(String),
}

/// The range of `dest` inside the inline link (`definition` false) or
/// link reference definition (true) at `range` of `src`: where it follows
/// a `](` (the label's `]:`), as written; `None` when it is written
/// otherwise (escaped, encoded).
pub(crate) fn dest_range(
    src: &str,
    range: std::ops::Range<usize>,
    dest: &str,
    definition: bool,
) -> Option<std::ops::Range<usize>> {
    let slice = src.get(range.clone())?;
    let opener = if definition { "]:" } else { "](" };
    slice.match_indices(opener).find_map(|(i, _)| {
        let after = &slice[i + 2..];
        let rest = after.trim_start_matches([' ', '\t', '\n', '<']);
        rest.starts_with(dest).then(|| {
            let start = range.start + i + 2 + (after.len() - rest.len());
            start..start + dest.len()
        })
    })
}

/// Renders one chunk to HTML.
pub fn render(chunk: &Chunk, cx: &MdContext<'_>, ids: &mut IdSet) -> String {
    render_marking(chunk, cx, ids, None)
}

/// [`render`], also noting in `marks` what the chunk's Markdown twin
/// rewrites (see [`Mark`]), in source order.
pub(crate) fn render_marking(
    chunk: &Chunk,
    cx: &MdContext<'_>,
    ids: &mut IdSet,
    mut marks: Option<&mut Vec<(std::ops::Range<usize>, Mark)>>,
) -> String {
    let mut events: Vec<Event<'_>> = Vec::new();
    let mut footnotes: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let mut iter = Parser::new_ext(&chunk.text, parser_options()).into_offset_iter();
    // Named views placed in this chunk: block content, unwrapped below.
    let mut blocks: Vec<String> = Vec::new();
    // A `[[…]]` that is none of kansoku's references, read again as
    // CommonMark reads it (`content::wikilinks`); its events come first.
    let mut reread: std::collections::VecDeque<(Event<'static>, std::ops::Range<usize>)> =
        std::collections::VecDeque::new();
    loop {
        let (ev, range, own) = match reread.pop_front() {
            Some((ev, range)) => (ev, range, false),
            None => match iter.next() {
                Some((ev, range)) => (ev, range, true),
                None => break,
            },
        };
        // What the twin rewrites is marked in the chunk's own parse only.
        let mut here = marks.as_deref_mut().filter(|_| own);
        match ev {
            Event::Start(
                Tag::Link {
                    link_type: LinkType::WikiLink { .. },
                    ref dest_url,
                    ..
                }
                | Tag::Image {
                    link_type: LinkType::WikiLink { .. },
                    ref dest_url,
                    ..
                },
            ) => {
                let dest_url = dest_url.to_string();
                let image = matches!(ev, Event::Start(Tag::Image { .. }));
                // Consume the wikilink's own text; it is replaced as a whole.
                skip_inside(&mut iter);
                if !is_reference(&dest_url) {
                    reread.extend(plain(&chunk.text, range, iter.reference_definitions()));
                    continue;
                }
                // `![[claim:x]]`: an exclamation mark, then the reference.
                let range = if image {
                    events.push(Event::Text("!".into()));
                    range.start + 1..range.end
                } else {
                    range
                };
                if let Some(m) = here.as_mut() {
                    m.push((range, Mark::Wikilink(dest_url.clone())));
                }
                let dest = dest_url.trim();
                let html = if dest == "view" {
                    cx.view_html.map(str::to_owned)
                } else if dest.starts_with("table:") || dest.starts_with("graph:") {
                    let html = (cx.named_view)(dest);
                    blocks.extend(html.clone());
                    html
                } else if let Some((l, said)) = lang_text(dest) {
                    Some(match cx.lang {
                        Some(reader) if reader == l => escape(said),
                        Some(_) => String::new(),
                        None => format!("<span class=\"lt\" lang=\"{l}\">{}</span>", escape(said)),
                    })
                } else {
                    dest.strip_prefix("claim:")
                        .and_then(|cid| (cx.claim_html)(cid.trim()))
                };
                match html {
                    Some(h) => events.push(Event::InlineHtml(h.into())),
                    None => events.push(Event::Text(format!("[[{dest_url}]]").into())),
                }
            }
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                title,
                id,
            }) => {
                if let Some(m) = here.as_mut() {
                    if link_type == LinkType::Inline {
                        if let Some(r) = dest_range(&chunk.text, range, &dest_url, false) {
                            m.push((r, Mark::Dest(dest_url.to_string())));
                        }
                    }
                }
                let dest = match resolve_page_link(&dest_url, cx.page_rel) {
                    Some((path, anchor)) => match cx.urls.get(&path) {
                        Some(url) => {
                            let frag = anchor.map(|a| format!("#{a}")).unwrap_or_default();
                            CowStr::from(format!("{}{url}{frag}", cx.tree_prefix))
                        }
                        None => dest_url,
                    },
                    None => dest_url,
                };
                events.push(Event::Start(Tag::Link {
                    link_type,
                    dest_url: dest,
                    title,
                    id,
                }));
            }
            Event::Start(Tag::CodeBlock(kind)) => {
                let token = match &kind {
                    CodeBlockKind::Fenced(info) => info.to_string(),
                    CodeBlockKind::Indented => String::new(),
                };
                let mut code = String::new();
                for (inner, _) in iter.by_ref() {
                    match inner {
                        Event::End(TagEnd::CodeBlock) => break,
                        Event::Text(t) => code.push_str(&t),
                        _ => {}
                    }
                }
                let html = if token.split_whitespace().next() == Some("dot") {
                    let prefix = diagram_id(ids);
                    match cx.diagrams.svg(&code, &prefix) {
                        Ok(svg) => {
                            format!("<figure class=\"diagram\" id=\"{prefix}\" tabindex=\"0\">{svg}</figure>\n")
                        }
                        // Validation reported it (E050); show the source.
                        Err(_) => cx.highlighter.highlight("dot", &code),
                    }
                } else {
                    cx.highlighter.highlight(&token, &code)
                };
                events.push(Event::Html(html.into()));
            }
            Event::FootnoteReference(name) => {
                let next = footnotes.len() + 1;
                let n = *footnotes.entry(name.to_string()).or_insert(next);
                let id = escape(&format!("{}{name}", cx.id_prefix));
                events.push(Event::InlineHtml(
                    format!("<sup class=\"footnote-reference\"><a href=\"#fn-{id}\">{n}</a></sup>")
                        .into(),
                ));
            }
            Event::Start(Tag::FootnoteDefinition(name)) => {
                let next = footnotes.len() + 1;
                let n = *footnotes.entry(name.to_string()).or_insert(next);
                let id = escape(&format!("{}{name}", cx.id_prefix));
                events.push(Event::Html(
                    format!("<div class=\"footnote-definition\" id=\"fn-{id}\"><sup class=\"footnote-definition-label\">{n}</sup>").into(),
                ));
            }
            Event::End(TagEnd::FootnoteDefinition) => events.push(Event::Html("</div>\n".into())),
            other => events.push(other),
        }
    }
    if let Some(m) = marks {
        for (_, def) in iter.reference_definitions().iter() {
            if let Some(r) = dest_range(&chunk.text, def.span.clone(), &def.dest, true) {
                m.push((r, Mark::Dest(def.dest.to_string())));
            }
        }
        m.sort_by_key(|(r, _)| r.start);
    }
    let events = headings(events, ids);
    let mut out = String::with_capacity(chunk.text.len() * 3 / 2);
    pulldown_cmark::html::push_html(&mut out, events.into_iter());
    // A view is block content: never leave it inside the paragraph that
    // held the `[[view]]` line.
    if let Some(view) = cx.view_html {
        out = out.replace(&format!("<p>{view}</p>"), view);
    }
    for block in &blocks {
        out = out.replace(&format!("<p>{block}</p>"), block);
    }
    // Wide tables scroll inside their box; a focusable table lets keyboard
    // users scroll it (axe: scrollable-region-focusable). pulldown-cmark
    // writes the opening tag exactly like this.
    if out.contains("<table>") {
        out = out.replace("<table>", "<table tabindex=\"0\">");
    }
    out
}

/// `ja:text` or `en:text` (a wikilink's target): per-language text inside
/// a block both languages share, such as a table header written once.
fn lang_text(dest: &str) -> Option<(crate::lang::Lang, &str)> {
    use crate::lang::Lang;
    [Lang::Ja, Lang::En].into_iter().find_map(|l| {
        dest.strip_prefix(l.code())
            .and_then(|r| r.strip_prefix(':'))
            .map(|r| (l, r.trim()))
    })
}

/// Gives every heading an id (its own `{#id}` or a slug of its text),
/// unique on the page. Runs after the other rewrites, so claim references
/// and links inside headings are already rendered.
fn headings<'e>(events: Vec<Event<'e>>, ids: &mut IdSet) -> Vec<Event<'e>> {
    let mut out = Vec::with_capacity(events.len());
    let mut iter = events.into_iter();
    while let Some(ev) = iter.next() {
        match ev {
            Event::Start(Tag::Heading {
                level,
                id,
                classes,
                attrs,
            }) => {
                let mut inner = Vec::new();
                let mut text = String::new();
                for e in iter.by_ref() {
                    if let Event::End(TagEnd::Heading(_)) = e {
                        break;
                    }
                    if let Event::Text(t) | Event::Code(t) = &e {
                        text.push_str(t);
                    }
                    inner.push(e);
                }
                let id = match id {
                    Some(given) => unique_id(ids, given.to_string()),
                    None => unique_id(ids, slugify(&text)),
                };
                let classes = classes
                    .iter()
                    .map(|c| format!(" {}", escape(c)))
                    .collect::<String>();
                let class_attr = if classes.is_empty() {
                    String::new()
                } else {
                    format!(" class=\"{}\"", classes.trim())
                };
                let extra: String = attrs
                    .iter()
                    .map(|(k, v)| match v {
                        Some(v) => format!(" {}=\"{}\"", escape(k), escape(v)),
                        None => format!(" {}", escape(k)),
                    })
                    .collect();
                let lvl = level as usize;
                out.push(Event::Html(
                    format!("<h{lvl} id=\"{}\"{class_attr}{extra}>", escape(&id)).into(),
                ));
                let mut body = String::new();
                pulldown_cmark::html::push_html(&mut body, inner.into_iter());
                out.push(Event::Html(body.into()));
                out.push(Event::Html(format!("</h{lvl}>\n").into()));
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn md(text: &str) -> String {
        let urls: BTreeMap<String, String> =
            [("notes/a.md".to_owned(), "notes/a/".to_owned())].into();
        let claim = |id: &str| (id == "c1").then(|| "<span class=\"claim\">C1</span>".to_owned());
        let h = Highlighter::default();
        let d = crate::render::diagram::Diagrams::default();
        let cx = MdContext {
            diagrams: &d,
            view_html: None,
            named_view: &|_: &str| None,
            id_prefix: "",
            lang: Some(crate::lang::Lang::Ja),
            page_rel: "notes/b.md",
            tree_prefix: "/ja/",
            urls: &urls,
            claim_html: &claim,
            highlighter: &h,
        };
        render(
            &Chunk {
                text: text.into(),
                offset: 0,
            },
            &cx,
            &mut IdSet::new(),
        )
    }

    #[test]
    fn claim_reference_inline_and_in_table() {
        assert_eq!(
            md("see [[claim:c1]] here"),
            "<p>see <span class=\"claim\">C1</span> here</p>\n"
        );
        assert!(md("| a |\n|---|\n| [[claim:c1]] |\n")
            .contains("<td><span class=\"claim\">C1</span></td>"));
    }

    #[test]
    fn per_language_text_in_a_shared_table_issue_14() {
        let html = md("| [[ja:世代]][[en:Generation]] | GFX |\n|---|---|\n| a | b |\n");
        assert!(html.contains("<th>世代</th>"), "{html}");
        assert!(!html.contains("Generation"), "{html}");
        assert!(md("[[en:<b>]]").trim() == "<p></p>");
        assert!(md("[[ja:<b>]]").contains("&lt;b&gt;"));
    }

    #[test]
    fn page_links_are_rewritten() {
        assert_eq!(
            md("[x](a.md#top)"),
            "<p><a href=\"/ja/notes/a/#top\">x</a></p>\n"
        );
        assert_eq!(
            md("[x](/notes/a.md)"),
            "<p><a href=\"/ja/notes/a/\">x</a></p>\n"
        );
    }

    #[test]
    fn headings_get_unique_ids_in_any_script() {
        let html = md("# 観測 ポイント\n\n# 観測 ポイント\n");
        assert!(html.contains("<h1 id=\"観測-ポイント\">"), "{html}");
        assert!(html.contains("<h1 id=\"観測-ポイント-1\">"), "{html}");
    }
}
