//! `[[…]]`: kansoku's references, and every other bracket CommonMark reads.
//!
//! pulldown-cmark's wikilink extension is what finds `[[claim:ID]]` and
//! the other references kansoku gives a meaning to ([`is_reference`]).
//! kansoku has no wikilinks of its own: any other `[[…]]`, and any image
//! wikilink `![[…]]` that holds none of those references, is read as
//! CommonMark reads it without the extension ([`plain`]), so that
//! `![[foo]]` stays text (CommonMark example 590) instead of becoming an
//! image no rule ever looks at, and `[[*foo* bar]]` with a definition of
//! `[*foo* bar]` is a link inside brackets (example 559). Used alike by
//! validation (`body::scan`), rendering and the Markdown twin, so that the
//! three read a chunk the same way. Nothing here renders.

use pulldown_cmark::{Event, Options, Parser, RefDefs, Tag, TagEnd};
use std::ops::Range;

/// Whether a wikilink's target is one of kansoku's references:
/// `claim:ID`, `view`, `table:NAME`, `graph:NAME`, `ja:…` or `en:…`.
pub(crate) fn is_reference(dest: &str) -> bool {
    let dest = dest.trim();
    dest == "view"
        || ["claim:", "table:", "graph:", "ja:", "en:"]
            .iter()
            .any(|p| dest.starts_with(p))
}

/// The events CommonMark gives the wikilink at `range` of `text` when it
/// is read without the wikilink extension, with the chunk's link reference
/// definitions `defs`: inline events, with ranges in `text`. The wikilink
/// is re-read alone, so a delimiter outside it (an `*` before it) cannot
/// pair with one inside it; pulldown-cmark already read it as one unit.
pub(crate) fn plain(
    text: &str,
    range: Range<usize>,
    defs: &RefDefs<'_>,
) -> Vec<(Event<'static>, Range<usize>)> {
    let snippet = &text[range.clone()];
    let mut doc = String::with_capacity(snippet.len() + 64);
    doc.push_str(snippet);
    doc.push_str("\n\n");
    for (_, def) in defs.iter() {
        if let Some(written) = text.get(def.span.clone()) {
            doc.push_str(written.trim_end());
            doc.push('\n');
        }
    }
    let options = super::cmark::parser_options() - Options::ENABLE_WIKILINKS;
    let mut out = Vec::new();
    let mut events = Parser::new_ext(&doc, options).into_offset_iter();
    match events.next() {
        Some((Event::Start(Tag::Paragraph), _)) => {}
        // A wikilink is inline text: it always reads as a paragraph. If it
        // ever did not, it is shown as written.
        _ => return vec![(Event::Text(snippet.to_owned().into()), range)],
    }
    for (ev, r) in events {
        if let Event::End(TagEnd::Paragraph) = ev {
            break;
        }
        let start = range.start + r.start.min(snippet.len());
        let end = range.start + r.end.min(snippet.len());
        out.push((ev.into_static(), start..end));
    }
    out
}

/// Consumes the events inside a link or image just opened, through its
/// end: a wikilink is replaced whole.
pub(crate) fn skip_inside<'a>(iter: &mut impl Iterator<Item = (Event<'a>, Range<usize>)>) {
    let mut depth = 1;
    for (inner, _) in iter.by_ref() {
        match inner {
            Event::Start(Tag::Link { .. } | Tag::Image { .. }) => depth += 1,
            Event::End(TagEnd::Link | TagEnd::Image) => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> String {
        let parser = Parser::new_ext(text, super::super::cmark::parser_options());
        let defs = parser.reference_definitions().clone();
        let mut html = String::new();
        let mut iter =
            Parser::new_ext(text, super::super::cmark::parser_options()).into_offset_iter();
        let mut events = Vec::new();
        while let Some((ev, range)) = iter.next() {
            match ev {
                Event::Start(Tag::Link { ref dest_url, .. } | Tag::Image { ref dest_url, .. })
                    if !is_reference(dest_url)
                        && matches!(
                            &ev,
                            Event::Start(
                                Tag::Link {
                                    link_type: pulldown_cmark::LinkType::WikiLink { .. },
                                    ..
                                } | Tag::Image {
                                    link_type: pulldown_cmark::LinkType::WikiLink { .. },
                                    ..
                                }
                            )
                        ) =>
                {
                    skip_inside(&mut iter);
                    events.extend(plain(text, range, &defs).into_iter().map(|(e, _)| e));
                }
                other => events.push(other),
            }
        }
        pulldown_cmark::html::push_html(&mut html, events.into_iter());
        html
    }

    #[test]
    fn only_kansoku_s_own_forms_are_references() {
        for yes in [
            "claim:a",
            " claim:a ",
            "view",
            "table:x",
            "graph:x",
            "ja:世代",
            "en:Gen",
        ] {
            assert!(is_reference(yes), "{yes}");
        }
        for no in ["foo", "claims:a", "views", "Claim:a", "javascript:alert(1)"] {
            assert!(!is_reference(no), "{no}");
        }
    }

    #[test]
    fn other_brackets_read_as_commonmark_issue_40() {
        assert_eq!(
            read("![[foo]]\n\n[[foo]]: /url \"title\"\n"),
            "<p>![[foo]]</p>\n<p>[[foo]]: /url \"title\"</p>\n"
        );
        assert_eq!(
            read("[[*foo* bar]]\n\n[*foo* bar]: /url \"title\"\n"),
            "<p>[<a href=\"/url\" title=\"title\"><em>foo</em> bar</a>]</p>\n"
        );
        assert_eq!(read("a [[x|y]] b\n"), "<p>a [[x|y]] b</p>\n");
        // Re-read alone, a link inside keeps its place in the text.
        let text = "see [[a [b](c.md) d]]\n";
        let defs = RefDefs::default();
        let at = text.find("[[").expect("there");
        let events = plain(text, at..text.len() - 1, &defs);
        let link = events
            .iter()
            .find(|(e, _)| matches!(e, Event::Start(Tag::Link { .. })))
            .expect("a link");
        assert_eq!(&text[link.1.clone()], "[b](c.md)");
    }
}
