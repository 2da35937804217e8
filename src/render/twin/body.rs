//! A chunk of a page's body as its twin shows it: the author's own
//! Markdown, kept as written, with kansoku's markup resolved in place.
//!
//! The parse that renders the chunk to HTML notes what to replace and
//! where, by byte range (`markdown::render_marking`; a chunk twinned
//! apart from its page is parsed here, the same way): `[[claim:ID]]` becomes the claim in
//! words, `[[ja:…]]`/`[[en:…]]` the text of the twin's language, `[[view]]`
//! and named views their tables, and links to `*.md` sources (and to
//! anchors on the page) the addresses they lead to. Everything else —
//! headings, tables, code, footnotes — is the author's text, untouched.

use super::{text, url, Md};
use crate::content::body::{parser_options, resolve_page_link};
use crate::content::wikilinks::{is_reference, skip_inside};
use crate::content::{Chunk, Page};
use crate::render::markdown::{dest_range, Mark};
use pulldown_cmark::{Event, LinkType, Parser, Tag};
use std::ops::Range;

/// What a chunk's twin rewrites, by range, in source order.
pub(in crate::render) type Marks = Vec<(Range<usize>, Mark)>;

/// `chunk` as Markdown, with `view` (the page's generated view) where
/// `[[view]]` stands; and whether it stood there. `marks` are what the
/// chunk's HTML render found (`markdown::render_marking`); without them
/// (`llms-full.txt`, made apart from the pages) the chunk is parsed here.
pub(super) fn chunk(
    md: &Md<'_, '_>,
    page: &Page,
    chunk: &Chunk,
    view: Option<&str>,
    marks: Option<&Marks>,
) -> (String, bool) {
    let src = chunk.text.as_str();
    let found;
    let marks = match marks {
        Some(m) => m,
        // Nothing to resolve: the text as it is (most chunks of prose).
        None if !src.contains('[') => return (src.to_owned(), false),
        None => {
            found = find(src);
            &found
        }
    };
    let mut edits: Vec<(Range<usize>, String)> = Vec::with_capacity(marks.len());
    let mut placed = false;
    for (range, mark) in marks {
        let range = range.clone();
        match mark {
            Mark::Wikilink(dest) => {
                let dest = dest.trim();
                let (with, block) = if dest == "view" {
                    placed |= view.is_some();
                    (view.map(str::to_owned), true)
                } else if dest.starts_with("table:") || dest.starts_with("graph:") {
                    (super::views::named(md, page, dest), true)
                } else if let Some((l, said)) = lang_text(dest) {
                    (
                        Some(if l == md.lang {
                            text(said)
                        } else {
                            String::new()
                        }),
                        false,
                    )
                } else {
                    let claim = dest
                        .strip_prefix("claim:")
                        .and_then(|id| md.cx.claim(md.lang, id.trim()));
                    (claim.map(|c| md.inline(c)), false)
                };
                // An unknown marker stays as written, as in the HTML.
                if let Some(with) = with {
                    edits.push(if block {
                        as_block(src, range, &with)
                    } else {
                        (range, with)
                    });
                }
            }
            Mark::Dest(dest) => {
                if let Some(to) = destination(md, page, dest) {
                    edits.push((range, to));
                }
            }
        }
    }
    let mut out = String::with_capacity(src.len() + src.len() / 4);
    let mut at = 0;
    for (r, with) in edits {
        // Marks come from one parse and do not overlap; a definition
        // inside a replaced block would, and the block wins.
        if r.start < at || r.end > src.len() {
            continue;
        }
        out.push_str(&src[at..r.start]);
        out.push_str(&with);
        at = r.end;
    }
    out.push_str(&src[at..]);
    (out, placed)
}

/// The marks of `src` (see [`Marks`]), by one parse, as
/// `markdown::render_marking` finds them.
fn find(src: &str) -> Marks {
    let mut marks = Marks::new();
    let mut iter = Parser::new_ext(src, parser_options()).into_offset_iter();
    while let Some((ev, range)) = iter.next() {
        let (Event::Start(Tag::Link {
            link_type,
            dest_url,
            ..
        })
        | Event::Start(Tag::Image {
            link_type: link_type @ LinkType::WikiLink { .. },
            dest_url,
            ..
        })) = &ev
        else {
            continue;
        };
        match link_type {
            LinkType::WikiLink { .. } => {
                // Its text is replaced with it, whole; a `[[…]]` that is
                // none of kansoku's references stays as written, as it is
                // CommonMark (`content::wikilinks`).
                skip_inside(&mut iter);
                if is_reference(dest_url) {
                    // `![[claim:x]]`: the reference after the `!`.
                    let image = matches!(ev, Event::Start(Tag::Image { .. }));
                    let range = if image {
                        range.start + 1..range.end
                    } else {
                        range
                    };
                    marks.push((range, Mark::Wikilink(dest_url.to_string())));
                }
            }
            LinkType::Inline => {
                if let Some(r) = dest_range(src, range, dest_url, false) {
                    marks.push((r, Mark::Dest(dest_url.to_string())));
                }
            }
            _ => {}
        }
    }
    for (_, def) in iter.reference_definitions().iter() {
        if let Some(r) = dest_range(src, def.span.clone(), &def.dest, true) {
            marks.push((r, Mark::Dest(def.dest.to_string())));
        }
    }
    marks.sort_by_key(|(r, _)| r.start);
    marks
}

/// Where a link written as `dest` on `page` leads from the twin; `None`
/// to leave it as written (an outside address, a file beside the page).
/// A link to a source file leads to that page in the twin's language,
/// its twin when it names the whole page; one to an anchor, to the HTML
/// page that has it.
fn destination(md: &Md<'_, '_>, page: &Page, dest: &str) -> Option<String> {
    let cx = md.cx;
    let tree = format!("{}{}/", cx.base, md.lang);
    if let Some(anchor) = dest.strip_prefix('#') {
        return Some(url(
            &cx.absolute(&format!("{tree}{}#{anchor}", page.url_path))
        ));
    }
    let (path, anchor) = resolve_page_link(dest, &page.rel)?;
    let target = cx.urls.get(&path)?;
    let href = format!("{tree}{target}");
    Some(match anchor {
        Some(a) => url(&cx.absolute(&format!("{href}#{a}"))),
        None => md.to(&href),
    })
}

/// Replaces the marker at `range` with `block`: its whole line when the
/// marker stands alone on it, otherwise set apart by blank lines (a block
/// inside a paragraph would join it).
fn as_block(src: &str, range: Range<usize>, block: &str) -> (Range<usize>, String) {
    let block = block.trim_end_matches('\n');
    let start = src[..range.start].rfind('\n').map_or(0, |i| i + 1);
    let end = src[range.end..]
        .find('\n')
        .map_or(src.len(), |i| range.end + i);
    if src[start..range.start].trim().is_empty() && src[range.end..end].trim().is_empty() {
        (start..end, block.to_owned())
    } else {
        (range, format!("\n\n{block}\n\n"))
    }
}

/// `ja:text` or `en:text` (a wikilink's target): per-language text.
fn lang_text(dest: &str) -> Option<(crate::lang::Lang, &str)> {
    crate::lang::Lang::ALL.into_iter().find_map(|l| {
        dest.strip_prefix(l.code())
            .and_then(|r| r.strip_prefix(':'))
            .map(|r| (l, r.trim()))
    })
}

#[cfg(test)]
mod tests {
    use super::find;
    use crate::content::Chunk;
    use crate::render::markdown::{render_marking, IdSet, Mark, MdContext};
    use std::collections::BTreeMap;

    /// What the HTML render notes is what the twin's own parse finds:
    /// the twin reads one or the other.
    #[test]
    fn the_html_render_notes_what_the_twin_would_find() {
        let src = "# Head [[claim:a]]\n\nSee [[claim:b]] and [a page](../x.md#top \"t](x\").\n\n\
                   | [[ja:世代]][[en:Gen]] | [[table:libs]] |\n|---|---|\n| `[[claim:no]]` | [ref][r] |\n\n\
                   [[view]]\n\n```\n[[claim:code]] [x](y.md)\n```\n\n[link [[claim:c]] inside](/y.md)\n\n\
                   [r]: notes/z.md \"title\"\n";
        let urls = BTreeMap::new();
        let h = crate::render::highlight::Highlighter::default();
        let d = crate::render::diagram::Diagrams::default();
        let claim = |_: &str| Some("<span>C</span>".to_owned());
        let cx = MdContext {
            page_rel: "p.md",
            tree_prefix: "/ja/",
            urls: &urls,
            claim_html: &claim,
            highlighter: &h,
            diagrams: &d,
            view_html: Some("<div>view</div>"),
            named_view: &|_: &str| None,
            id_prefix: "",
            lang: Some(crate::lang::Lang::Ja),
        };
        let chunk = Chunk {
            text: src.to_owned(),
            offset: 0,
        };
        let mut noted = Vec::new();
        render_marking(&chunk, &cx, &mut IdSet::new(), Some(&mut noted));
        let found = find(src);
        assert_eq!(noted, found);
        let texts: Vec<(&str, &Mark)> = found.iter().map(|(r, m)| (&src[r.clone()], m)).collect();
        assert_eq!(
            texts.iter().map(|(t, _)| *t).collect::<Vec<_>>(),
            [
                "[[claim:a]]",
                "[[claim:b]]",
                "../x.md#top",
                "[[ja:世代]]",
                "[[en:Gen]]",
                "[[table:libs]]",
                "[[view]]",
                // A link holding a link is text (CommonMark): no `/y.md`.
                "[[claim:c]]",
                "notes/z.md",
            ]
        );
    }
}
