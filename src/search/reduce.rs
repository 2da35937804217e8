//! Search stage, HTML reduction: the searchable part of a page cut down to
//! what Pagefind reads from it. A pure string function; knows nothing of
//! Pagefind's API or of the site.

/// Elements Pagefind treats as inline (no space around them, their text part
/// of their parent's anchor): without an id or a `data-pagefind-*`
/// attribute they change nothing in the index, so they are unwrapped.
const INLINE: &[&str] = &[
    "a", "abbr", "acronym", "b", "bdo", "big", "cite", "code", "dfn", "em", "i", "kbd", "q",
    "samp", "small", "span", "strong", "sub", "sup", "time", "tt", "var",
];

/// Elements without an end tag.
const VOID: &[&str] = &[
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track",
    "wbr",
];

/// Elements whose text is not markup: copied through as they are.
const RAW_TEXT: &[&str] = &["script", "style", "textarea", "title"];

/// The searchable part reduced to what Pagefind reads from it, so that it
/// parses far fewer elements and keeps far fewer anchors:
///
/// - elements marked `data-pagefind-ignore` are dropped whole (Pagefind
///   would parse and then discard them), and so are the theme's labels
///   that are not text ([`is_label`]);
/// - inline elements without an id or a `data-pagefind-*` attribute are
///   unwrapped, their text kept in place;
/// - other elements keep only `id`, `lang` and `data-pagefind-*`;
/// - comments are dropped.
///
/// Ids are anchors to Pagefind, and every anchor is a marker in the text and
/// a copy of the element's text in the page's fragment. The search box uses
/// them only for claims (`claim-<id>`, each running to the next anchor), so
/// a page with claims keeps every id, and a page without them (an evidence
/// log, where every line has one) keeps only its headings' ids (Pagefind's
/// sub-results). Blocks, headings, weights and the body mark are kept, so the
/// indexed text, its word positions and its weights stay as they were.
pub(crate) fn compact(html: &str) -> String {
    let all_ids = html.contains("id=\"claim-");
    let mut out = String::with_capacity(html.len() / 2);
    // (tag name, whether its tags were kept) for each open element.
    let mut open: Vec<(&str, bool)> = Vec::new();
    let mut rest = html;
    while let Some(lt) = rest.find('<') {
        out.push_str(&rest[..lt]);
        rest = &rest[lt..];
        if let Some(comment) = rest.strip_prefix("<!--") {
            rest = comment.find("-->").map_or("", |e| &comment[e + 3..]);
            continue;
        }
        let Some(tag) = Tag::parse(rest) else {
            // `<!DOCTYPE …>` or a stray `<`: as it is.
            let end = if rest.starts_with("<!") {
                rest.find('>').map_or(rest.len(), |e| e + 1)
            } else {
                1
            };
            out.push_str(&rest[..end]);
            rest = &rest[end..];
            continue;
        };
        let after = &rest[tag.len..];
        if tag.closing {
            match open
                .iter()
                .rposition(|(name, _)| name.eq_ignore_ascii_case(tag.name))
            {
                Some(at) => {
                    if open[at].1 {
                        out.push_str(&rest[..tag.len]);
                    }
                    open.truncate(at);
                }
                None => out.push_str(&rest[..tag.len]),
            }
            rest = after;
            continue;
        }
        let name = tag.name.to_ascii_lowercase();
        let void = tag.self_closing || VOID.contains(&name.as_str());
        if tag.attr("data-pagefind-ignore").is_some() || is_label(&tag) {
            rest = if void {
                after
            } else {
                skip_element(after, tag.name)
            };
            continue;
        }
        if RAW_TEXT.contains(&name.as_str()) {
            let close = format!("</{name}");
            let end = find_ignore_case(after, &close)
                .and_then(|c| after[c..].find('>').map(|e| c + e + 1))
                .unwrap_or(after.len());
            out.push_str(&rest[..tag.len + end]);
            rest = &after[end..];
            continue;
        }
        let heading = matches!(name.as_str(), "h1" | "h2" | "h3" | "h4" | "h5" | "h6");
        let kept: Vec<&str> = tag
            .attrs
            .iter()
            .filter(|a| match a.name {
                "id" => all_ids || heading,
                "lang" => true,
                n => n.starts_with("data-pagefind-"),
            })
            .map(|a| a.text)
            .collect();
        let keep_tag = name == "img" || !kept.is_empty() || !INLINE.contains(&name.as_str());
        if keep_tag {
            if name == "img" {
                out.push_str(&rest[..tag.len]);
            } else {
                out.push('<');
                out.push_str(tag.name);
                for a in kept {
                    out.push(' ');
                    out.push_str(a);
                }
                out.push_str(if tag.self_closing { "/>" } else { ">" });
            }
        }
        if !void {
            open.push((tag.name, keep_tag));
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// The theme's labels, kept out of the index as if marked
/// `data-pagefind-ignore`: a claim's class badge ("Confirmed · per record"
/// stands before every claim, so it filled the search excerpts and matched
/// every query for a class word) and the heading of a page's claim list
/// ("Claims on this page"). The claims' own text stays. Dropped here rather
/// than marked in the templates: the badge is written by the claim macros
/// that every view shares, and a site's own templates keep working.
fn is_label(tag: &Tag<'_>) -> bool {
    tag.attr("class")
        .is_some_and(|a| a.value().split_ascii_whitespace().any(|c| c == "badge"))
        || tag
            .attr("id")
            .is_some_and(|a| a.value() == "kansoku-claims")
}

/// The text after an element's start tag with the element skipped: up to
/// the end tag that closes it, counting nested elements of the same name.
fn skip_element<'a>(mut rest: &'a str, name: &str) -> &'a str {
    let mut depth = 1;
    while let Some(lt) = rest.find('<') {
        rest = &rest[lt..];
        let Some(tag) = Tag::parse(rest) else {
            rest = &rest[1..];
            continue;
        };
        rest = &rest[tag.len..];
        if tag.name.eq_ignore_ascii_case(name) && !tag.self_closing {
            if tag.closing {
                depth -= 1;
                if depth == 0 {
                    return rest;
                }
            } else {
                depth += 1;
            }
        }
    }
    rest
}

fn find_ignore_case(haystack: &str, needle: &str) -> Option<usize> {
    haystack
        .as_bytes()
        .windows(needle.len())
        .position(|w| w.eq_ignore_ascii_case(needle.as_bytes()))
}

/// One start or end tag, as written.
struct Tag<'a> {
    name: &'a str,
    closing: bool,
    self_closing: bool,
    attrs: Vec<Attr<'a>>,
    /// Its length in bytes, `<` to `>`.
    len: usize,
}

/// One attribute: its name and its whole text (`name="value"`).
struct Attr<'a> {
    name: &'a str,
    text: &'a str,
}

impl<'a> Attr<'a> {
    /// Its value, unquoted (entities left as written).
    fn value(&self) -> &'a str {
        let v = self.text[self.name.len()..].trim_start_matches('=');
        v.strip_prefix('"')
            .and_then(|v| v.strip_suffix('"'))
            .or_else(|| v.strip_prefix('\'').and_then(|v| v.strip_suffix('\'')))
            .unwrap_or(v)
    }
}

impl<'a> Tag<'a> {
    /// The tag at the start of `s` (which starts with `<`), if it is one.
    fn parse(s: &'a str) -> Option<Self> {
        let b = s.as_bytes();
        let closing = b.get(1) == Some(&b'/');
        let start = if closing { 2 } else { 1 };
        if !b.get(start).is_some_and(u8::is_ascii_alphabetic) {
            return None;
        }
        let name_end = start
            + b[start..]
                .iter()
                .position(|c| !(c.is_ascii_alphanumeric() || *c == b'-'))?;
        let name = &s[start..name_end];
        let mut attrs = Vec::new();
        let mut i = name_end;
        loop {
            while b.get(i).is_some_and(u8::is_ascii_whitespace) {
                i += 1;
            }
            match b.get(i)? {
                b'>' => {
                    let self_closing = b[i - 1] == b'/';
                    return Some(Tag {
                        name,
                        closing,
                        self_closing,
                        attrs,
                        len: i + 1,
                    });
                }
                b'/' => {
                    i += 1;
                    continue;
                }
                _ => {}
            }
            let from = i;
            while b
                .get(i)
                .is_some_and(|c| !c.is_ascii_whitespace() && !matches!(c, b'=' | b'>' | b'/'))
            {
                i += 1;
            }
            let attr_name = &s[from..i];
            if b.get(i) == Some(&b'=') {
                i += 1;
                match b.get(i)? {
                    q @ (b'"' | b'\'') => i += 2 + b[i + 1..].iter().position(|c| c == q)?,
                    _ => {
                        while b
                            .get(i)
                            .is_some_and(|c| !c.is_ascii_whitespace() && *c != b'>')
                        {
                            i += 1;
                        }
                    }
                }
            }
            attrs.push(Attr {
                name: attr_name,
                text: &s[from..i],
            });
        }
    }

    fn attr(&self, name: &str) -> Option<&Attr<'a>> {
        self.attrs
            .iter()
            .find(|a| a.name.eq_ignore_ascii_case(name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compact_keeps_what_pagefind_reads() {
        // A claim page: every id stays (claims run to the next anchor).
        let page = concat!(
            "<!DOCTYPE html><html lang=\"en\"><body>",
            "<article class=\"page\" data-pagefind-body><h1 class=\"t\">Title <code>x</code></h1>",
            "<!-- note --><p>Text <a href=\"/a/\" title='q > r'>link</a>",
            "<span class=\"tip\" data-pagefind-ignore>tip <span>nested</span> tip</span> end<br>",
            "<img src=\"i.png\" alt=\"pic\"></p>",
            "<ul><li class=\"claim\" id=\"claim-c1\"><em>claim</em> text</li></ul>",
            "<table><tr><td class=\"n\">1</td></tr></table>",
            "<ol data-pagefind-weight=\"0.5\"><li id=\"L1\"><span id=\"L1-L2\"></span>line</li></ol>",
            "<script>if (a < b) {}</script>",
            "<div data-pagefind-ignore=\"all\"><div>gone</div></div></article></body></html>",
        );
        assert_eq!(
            compact(page),
            concat!(
                "<!DOCTYPE html><html lang=\"en\"><body>",
                "<article data-pagefind-body><h1>Title x</h1>",
                "<p>Text link end<br><img src=\"i.png\" alt=\"pic\"></p>",
                "<ul><li id=\"claim-c1\">claim text</li></ul>",
                "<table><tr><td>1</td></tr></table>",
                "<ol data-pagefind-weight=\"0.5\"><li id=\"L1\"><span id=\"L1-L2\"></span>line</li></ol>",
                "<script>if (a < b) {}</script>",
                "</article></body></html>",
            )
        );
        // Labels are not text: a claim's badge and the claim list's heading
        // go, the claim's text stays.
        let claims = concat!(
            "<article data-pagefind-body><h2 id=\"kansoku-claims\">Claims on this page</h2>",
            "<ul><li id=\"claim-c1\"><span class=\"claim\" data-claim=\"c1\">",
            "<a class=\"badge badge--confirmed badge--basis\" href=\"/e/\">Confirmed ",
            "<span class=\"badge__basis\">· per record</span></a> Claim text.</span></li>",
            "<li id=\"claim-c2\"><a class=badge href=\"/e/\">Inferred</a> Two.</li></ul>",
            "<p class=\"badges\">kept</p></article>",
        );
        assert_eq!(
            compact(claims),
            concat!(
                "<article data-pagefind-body>",
                "<ul><li id=\"claim-c1\"> Claim text.</li>",
                "<li id=\"claim-c2\"> Two.</li></ul><p>kept</p></article>",
            )
        );
        // A page without claims (an evidence log): only headings keep ids.
        let log = concat!(
            "<html lang=\"ja\"><body><article data-pagefind-body>",
            "<h2 id=\"cited\">引用</h2><ol><li class=\"ev-line\" id=\"L1\">",
            "<span class=\"ev-range\" id=\"L1-L2\"></span><code>a b</code></li></ol></article></body></html>",
        );
        assert_eq!(
            compact(log),
            concat!(
                "<html lang=\"ja\"><body><article data-pagefind-body>",
                "<h2 id=\"cited\">引用</h2><ol><li>a b</li></ol></article></body></html>",
            )
        );
    }
}
