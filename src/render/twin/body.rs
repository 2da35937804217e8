//! A chunk of a page's body as its twin shows it: the author's own
//! Markdown, kept as written, with kansoku's markup resolved in place.
//!
//! One parse of the chunk (the parser the HTML uses) finds what to
//! replace and where, by byte range: `[[claim:ID]]` becomes the claim in
//! words, `[[ja:…]]`/`[[en:…]]` the text of the twin's language, `[[view]]`
//! and named views their tables, and links to `*.md` sources (and to
//! anchors on the page) the addresses they lead to. Everything else —
//! headings, tables, code, footnotes — is the author's text, untouched.

use super::{text, url, Md};
use crate::content::body::{parser_options, resolve_page_link};
use crate::content::{Chunk, Page};
use pulldown_cmark::{Event, LinkType, Parser, Tag, TagEnd};
use std::ops::Range;

/// `chunk` as Markdown, with `view` (the page's generated view) where
/// `[[view]]` stands; and whether it stood there.
pub(super) fn chunk(
    md: &Md<'_, '_>,
    page: &Page,
    chunk: &Chunk,
    view: Option<&str>,
) -> (String, bool) {
    let src = chunk.text.as_str();
    // Nothing to resolve: the text as it is (most chunks of prose).
    if !src.contains('[') {
        return (src.to_owned(), false);
    }
    let mut edits: Vec<(Range<usize>, String)> = Vec::new();
    let mut placed = false;
    let mut iter = Parser::new_ext(src, parser_options()).into_offset_iter();
    while let Some((ev, range)) = iter.next() {
        let Event::Start(Tag::Link {
            link_type,
            dest_url,
            ..
        }) = ev
        else {
            continue;
        };
        if let LinkType::WikiLink { .. } = link_type {
            // Its text is replaced with it, whole.
            let mut depth = 1;
            for (inner, _) in iter.by_ref() {
                match inner {
                    Event::Start(Tag::Link { .. }) => depth += 1,
                    Event::End(TagEnd::Link) => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
            }
            let dest = dest_url.trim();
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
        } else if matches!(link_type, LinkType::Inline) {
            if let Some(to) = destination(md, page, &dest_url) {
                // The destination as written, after the text's `](`.
                let slice = &src[range.clone()];
                let after = slice.rfind("](").map_or(0, |i| i + 2);
                if let Some(at) = slice[after..].find(&*dest_url) {
                    let start = range.start + after + at;
                    edits.push((start..start + dest_url.len(), to));
                }
            }
        }
    }
    // Reference links (`[text][ref]`) lead where their definition says.
    for (_, def) in iter.reference_definitions().iter() {
        if let Some(to) = destination(md, page, &def.dest) {
            let slice = &src[def.span.clone()];
            let after = slice.find("]:").map_or(0, |i| i + 2);
            if let Some(at) = slice[after..].find(&*def.dest) {
                let start = def.span.start + after + at;
                edits.push((start..start + def.dest.len(), to));
            }
        }
    }
    edits.sort_by_key(|(r, _)| r.start);
    let mut out = String::with_capacity(src.len() + src.len() / 4);
    let mut at = 0;
    for (r, with) in edits {
        // Ranges come from one parse and do not overlap; a definition
        // inside a replaced block would, and the block wins.
        if r.start < at {
            continue;
        }
        out.push_str(&src[at..r.start]);
        out.push_str(&with);
        at = r.end;
    }
    out.push_str(&src[at..]);
    (out, placed)
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
