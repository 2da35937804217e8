//! The page body: shared segments and `::: ja` / `::: en` language blocks
//! (split by `super::split`), and what a chunk references (`scan`).
//! Nothing here renders.

use crate::lang::Lang;
use std::borrow::Cow;
use std::ops::Range;

pub(crate) use super::cmark::parser_options;
pub(crate) use super::split::split;
pub use super::split::{Chunk, Segment};

/// The ids taken on a page as its chunks are rendered: the reserved ones,
/// the headings' and the diagrams', with the ids inside each diagram's
/// SVG (see `svg_id_of`). Render and `check` fill it the same way, so
/// they agree on every heading's id.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IdSet {
    ids: std::collections::HashSet<String>,
    /// The ids of the diagrams, each the prefix of its SVG's inner ids.
    diagrams: Vec<String>,
}

impl IdSet {
    /// No id taken.
    pub fn new() -> IdSet {
        IdSet::default()
    }

    /// Whether `id` is taken: given to something, or inside a diagram's
    /// SVG.
    pub fn contains(&self, id: &str) -> bool {
        self.ids.contains(id) || self.diagrams.iter().any(|d| svg_id_of(d, id))
    }

    /// Takes `id` if it is free; `false` if it was taken.
    pub(crate) fn insert(&mut self, id: String) -> bool {
        !self.contains(&id) && self.ids.insert(id)
    }

    /// The ids given (not those inside diagrams), in no order.
    pub fn iter(&self) -> impl Iterator<Item = &String> {
        self.ids.iter()
    }
}

impl FromIterator<String> for IdSet {
    fn from_iter<I: IntoIterator<Item = String>>(iter: I) -> IdSet {
        IdSet {
            ids: iter.into_iter().collect(),
            diagrams: Vec::new(),
        }
    }
}

impl Extend<String> for IdSet {
    fn extend<I: IntoIterator<Item = String>>(&mut self, iter: I) {
        self.ids.extend(iter);
    }
}

impl IntoIterator for IdSet {
    type Item = String;
    type IntoIter = std::collections::hash_set::IntoIter<String>;
    fn into_iter(self) -> Self::IntoIter {
        self.ids.into_iter()
    }
}

/// Whether `id` is one the SVG of the diagram with id `diagram` holds
/// (`render::diagram`, from layout-rs): `<diagram>-startarrow` and
/// `-endarrow` (its arrowheads), `-arrow<n>` (each edge's path) and
/// `-C<n>` (each clip region). Taken by pattern, not counted: how many
/// edges and clips the layout draws is known only by laying it out, and
/// `check` does not.
pub(crate) fn svg_id_of(diagram: &str, id: &str) -> bool {
    let Some(inner) = id
        .strip_prefix(diagram)
        .and_then(|rest| rest.strip_prefix('-'))
    else {
        return false;
    };
    let numbered = |prefix: &str| {
        inner
            .strip_prefix(prefix)
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    };
    matches!(inner, "startarrow" | "endarrow") || numbered("arrow") || numbered("C")
}

/// A URL fragment from heading text: lowercase, spaces to `-`, punctuation
/// dropped, letters of any script kept (so Japanese headings get ids).
pub fn slugify(text: &str) -> String {
    let mut out = String::new();
    for c in text.trim().chars() {
        if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
        } else if (c.is_whitespace() || c == '-' || c == '_') && !out.ends_with('-') {
            out.push('-');
        }
    }
    let out = out.trim_matches('-').to_owned();
    if out.is_empty() {
        "section".to_owned()
    } else {
        out
    }
}

/// `base`, or `base-1`, `base-2`… if taken; records the result.
pub fn unique_id(ids: &mut IdSet, base: String) -> String {
    if ids.insert(base.clone()) {
        return base;
    }
    let mut n = 1;
    loop {
        let candidate = format!("{base}-{n}");
        if ids.insert(candidate.clone()) {
            return candidate;
        }
        n += 1;
    }
}

/// The id of a `dot` diagram (`diagram`, `diagram-1`, …), recorded with
/// the ids its SVG will hold: the first that is free and whose SVG would
/// repeat no id already given (a heading `Diagram 1 arrow0` before it
/// keeps `diagram-1` from it).
pub fn diagram_id(ids: &mut IdSet) -> String {
    let free = |ids: &IdSet, p: &str| !ids.contains(p) && !ids.ids.iter().any(|i| svg_id_of(p, i));
    let mut id = "diagram".to_owned();
    let mut n = 0;
    while !free(ids, &id) {
        n += 1;
        id = format!("diagram-{n}");
    }
    ids.ids.insert(id.clone());
    ids.diagrams.push(id.clone());
    id
}

/// Parses a dot source; `Err` is the parser's message.
pub(crate) fn parse_dot(src: &str) -> Result<layout::gv::parser::ast::Graph, String> {
    let mut parser = layout::gv::DotParser::new(src);
    let graph = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| parser.process()))
        .map_err(|_| "the dot parser failed on this input".to_owned())?;
    graph.map_err(|e| e.trim().to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Diagnostic;
    use crate::source::Source;

    fn segs(body: &str) -> Result<Vec<Segment>, Vec<Diagnostic>> {
        split(&Source::new("p.md".into(), body.into()), 0)
    }

    #[test]
    fn pairs_and_shared() {
        let s =
            segs("intro\n\n::: ja\n日本語\n:::\n\n::: en\nEnglish\n:::\n| t |\n").expect("valid");
        assert_eq!(s.len(), 3);
        assert!(matches!(&s[0], Segment::Shared(c) if c.text == "intro\n\n"));
        assert!(
            matches!(&s[1], Segment::Pair { ja, en } if ja.text == "日本語\n" && en.text == "English\n")
        );
        assert!(matches!(&s[2], Segment::Shared(c) if c.text == "| t |\n"));
    }

    #[test]
    fn fences_hide_div_lines() {
        let s = segs("```\n::: ja\n```\n").expect("valid");
        assert!(matches!(&s[..], [Segment::Shared(_)]));
    }

    #[test]
    fn lone_block_is_untranslated() {
        let s = segs("::: en\nonly\n:::\n").expect("valid");
        assert!(matches!(
            &s[..],
            [Segment::Untranslated { lang: Lang::En, .. }]
        ));
    }

    #[test]
    fn unclosed_block_names_its_line() {
        let e = segs("a\n::: ja\ntext\n").expect_err("unclosed");
        assert_eq!(e[0].location.to_string(), "p.md:2:1");
        assert_eq!(e[0].message, "`::: ja` block is never closed");
    }
}

/// A reference found in a chunk: `[[claim:ID]]` or a link to a content file.
///
/// Borrowed from the chunk where the text allows: a large site has hundreds
/// of thousands of claim references.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Reference<'a> {
    /// `[[claim:ID]]`, with the id.
    Claim(Cow<'a, str>),
    /// A link to `*.md`, resolved to a content-relative path, and its anchor.
    Page(Cow<'a, str>, Option<Cow<'a, str>>),
    /// A fenced `dot` diagram that does not parse, with the parser's message.
    BadDot(String),
    /// `[[table:NAME]]` or `[[graph:NAME]]`, with the view's name.
    View(Cow<'a, str>),
    /// Raw HTML written in the body: an HTML block or an opening inline tag.
    RawHtml,
    /// A URL a browser would run or render as a page of its own
    /// (`javascript:`, `vbscript:`, `data:text/html`), with the URL.
    ActiveUrl(String),
}

/// What validation needs from one chunk, found in a single parse.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ChunkScan<'a> {
    /// Claim references, page links and bad diagrams, with file byte spans.
    pub(crate) refs: Vec<(Reference<'a>, Range<usize>)>,
    /// The id each heading asks for (`{#id}` or its slug), in order. Not
    /// yet made unique: that depends on the page's other chunks in the
    /// same language (see [`heading_ids`]).
    pub(crate) headings: Vec<String>,
    /// How many fenced `dot` blocks it has (each a diagram with an id,
    /// given before the chunk's headings', as render gives them).
    pub(crate) diagrams: usize,
}

/// Scans a chunk once for its references and headings. Both used to be
/// separate parses; parsing is most of what checking a body costs.
pub(crate) fn scan<'a>(chunk: &'a Chunk, page_rel: &'a str) -> ChunkScan<'a> {
    use pulldown_cmark::{CodeBlockKind, CowStr, Event, LinkType, Parser, Tag, TagEnd};
    // The parser borrows most strings from the text; they stay borrowed.
    fn cow(s: CowStr<'_>) -> Cow<'_, str> {
        match s {
            CowStr::Borrowed(s) => Cow::Borrowed(s),
            s => Cow::Owned(s.to_string()),
        }
    }
    let mut out = ChunkScan::default();
    let mut heading: Option<(Option<String>, String)> = None;
    // Rendering replaces wikilinks (claims, views) whole: their text is
    // not part of a heading's slug.
    let mut in_wikilink = 0usize;
    let mut iter = Parser::new_ext(&chunk.text, parser_options()).into_offset_iter();
    // A `[[…]]` that is none of kansoku's references is read again as
    // CommonMark reads it, as rendering does (`super::wikilinks`).
    let mut reread: std::collections::VecDeque<(Event<'static>, Range<usize>)> =
        std::collections::VecDeque::new();
    loop {
        let (ev, range) = match reread.pop_front() {
            Some(next) => next,
            None => match iter.next() {
                Some(next) => next,
                None => break,
            },
        };
        match &ev {
            Event::Start(
                Tag::Link {
                    link_type: LinkType::WikiLink { .. },
                    dest_url,
                    ..
                }
                | Tag::Image {
                    link_type: LinkType::WikiLink { .. },
                    dest_url,
                    ..
                },
            ) if !super::wikilinks::is_reference(dest_url) => {
                super::wikilinks::skip_inside(&mut iter);
                reread.extend(super::wikilinks::plain(
                    &chunk.text,
                    range,
                    iter.reference_definitions(),
                ));
                continue;
            }
            Event::Start(Tag::Heading { id, .. }) => {
                heading = Some((id.as_ref().map(|i| i.to_string()), String::new()))
            }
            Event::Start(
                Tag::Link {
                    link_type: LinkType::WikiLink { .. },
                    ..
                }
                | Tag::Image {
                    link_type: LinkType::WikiLink { .. },
                    ..
                },
            ) => in_wikilink += 1,
            Event::End(TagEnd::Link | TagEnd::Image) if in_wikilink > 0 => in_wikilink -= 1,
            Event::Text(t) | Event::Code(t) if in_wikilink == 0 => {
                if let Some((_, s)) = &mut heading {
                    s.push_str(t);
                }
            }
            Event::End(TagEnd::Heading(_)) => {
                if let Some((given, s)) = heading.take() {
                    out.headings.push(given.unwrap_or_else(|| slugify(&s)));
                }
            }
            _ => {}
        }
        let span = chunk.offset + range.start..chunk.offset + range.end;
        match ev {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info)))
                if info.split_whitespace().next() == Some("dot") =>
            {
                out.diagrams += 1;
                let lines: Vec<&str> = chunk.text[range.clone()].lines().collect();
                // Drop the opening fence line and, if present, the closing one.
                let end = if lines.len() > 1
                    && lines[lines.len() - 1].trim_start().starts_with(['`', '~'])
                {
                    lines.len() - 1
                } else {
                    lines.len()
                };
                let body = lines.get(1..end).unwrap_or_default().join("\n");
                if let Err(e) = parse_dot(&body) {
                    let first_line = span.start
                        ..chunk.text[range.start..]
                            .find('\n')
                            .map_or(span.end, |i| span.start + i);
                    out.refs.push((Reference::BadDot(e), first_line));
                }
            }
            Event::Start(Tag::HtmlBlock) => out.refs.push((Reference::RawHtml, span)),
            Event::InlineHtml(ref html) | Event::Html(ref html) => {
                if matches!(ev, Event::InlineHtml(_)) && !html.starts_with("</") {
                    out.refs.push((Reference::RawHtml, span.clone()));
                }
                for url in active_urls_in_html(html) {
                    out.refs.push((Reference::ActiveUrl(url), span.clone()));
                }
            }
            // `![[claim:x]]`: an exclamation mark, then the reference.
            Event::Start(Tag::Image {
                link_type: LinkType::WikiLink { .. },
                dest_url,
                ..
            }) => reference(&mut out.refs, cow(dest_url), span.start + 1..span.end),
            Event::Start(Tag::Image { ref dest_url, .. }) if is_active_url(dest_url) => {
                out.refs
                    .push((Reference::ActiveUrl(dest_url.to_string()), span));
            }
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                ..
            }) => {
                if is_active_url(&dest_url) {
                    out.refs
                        .push((Reference::ActiveUrl(dest_url.to_string()), span.clone()));
                }
                let dest = cow(dest_url);
                if let LinkType::WikiLink { .. } = link_type {
                    reference(&mut out.refs, dest, span);
                } else if let Some(anchor) = after(&dest, "#", |r| r) {
                    out.refs
                        .push((Reference::Page(Cow::Borrowed(page_rel), Some(anchor)), span));
                } else if let Some((path, anchor)) = resolve_page_link(&dest, page_rel) {
                    out.refs
                        .push((Reference::Page(path.into(), anchor.map(Cow::Owned)), span));
                }
            }
            _ => {}
        }
    }
    out
}

/// Notes the kansoku reference a wikilink's target `dest` makes, if any.
fn reference<'a>(
    refs: &mut Vec<(Reference<'a>, Range<usize>)>,
    dest: Cow<'a, str>,
    span: Range<usize>,
) {
    let dest = match dest {
        Cow::Borrowed(s) => Cow::Borrowed(s.trim_start()),
        Cow::Owned(s) => Cow::Owned(s.trim_start().to_owned()),
    };
    if let Some(id) = after(&dest, "claim:", str::trim) {
        refs.push((Reference::Claim(id), span));
    } else if let Some(name) =
        after(&dest, "table:", str::trim).or_else(|| after(&dest, "graph:", str::trim))
    {
        refs.push((Reference::View(name), span));
    }
}

/// True for a URL a browser runs (`javascript:`, `vbscript:`) or shows as
/// a document of its own (`data:text/html`, and the other active `data:`
/// types), read as browsers read it: case-insensitive, with leading
/// spaces and control characters and embedded tabs and newlines dropped.
pub(crate) fn is_active_url(url: &str) -> bool {
    let url: String = url
        .trim_start_matches(|c: char| c <= ' ')
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .take(32)
        .collect::<String>()
        .to_ascii_lowercase();
    [
        "javascript:",
        "vbscript:",
        "data:text/html",
        "data:image/svg+xml",
        "data:application/xhtml+xml",
    ]
    .iter()
    .any(|p| url.starts_with(p))
}

/// The attribute values in a piece of raw HTML that are active URLs.
/// Attributes are read loosely (`name=value`, quoted or not); the point is
/// to catch a `href="javascript:…"` written by hand, not to sanitise.
fn active_urls_in_html(html: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(eq) = rest.find('=') {
        let after = rest[eq + 1..].trim_start();
        let (value, next) = match after.chars().next() {
            Some(q @ ('"' | '\'')) => {
                let body = &after[1..];
                let end = body.find(q).unwrap_or(body.len());
                (&body[..end], &body[(end + 1).min(body.len())..])
            }
            _ => {
                let end = after
                    .find(|c: char| c.is_ascii_whitespace() || c == '>')
                    .unwrap_or(after.len());
                (&after[..end], &after[end..])
            }
        };
        let decoded = decode_entities(value);
        if is_active_url(&decoded) {
            out.push(value.to_owned());
        }
        rest = next;
    }
    out
}

/// Numeric character references and `&colon;`/`&Tab;`/`&NewLine;`, the
/// ones that hide a scheme from a plain string search.
fn decode_entities(s: &str) -> Cow<'_, str> {
    if !s.contains('&') {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        let tail = &rest[amp + 1..];
        let end = tail
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '#'))
            .unwrap_or(tail.len());
        let name = &tail[..end];
        let decoded = if let Some(num) = name.strip_prefix('#') {
            let n = match num.strip_prefix(['x', 'X']) {
                Some(hex) => u32::from_str_radix(hex, 16).ok(),
                None => num.parse().ok(),
            };
            n.and_then(char::from_u32)
        } else {
            match name.to_ascii_lowercase().as_str() {
                "colon" => Some(':'),
                "tab" => Some('\t'),
                "newline" => Some('\n'),
                _ => None,
            }
        };
        match decoded {
            Some(c) => {
                out.push(c);
                rest = tail[end..].strip_prefix(';').unwrap_or(&tail[end..]);
            }
            None => {
                out.push('&');
                rest = tail;
            }
        }
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// What follows `prefix` in `s`, through `cut`; borrowed if `s` is.
fn after<'a>(s: &Cow<'a, str>, prefix: &str, cut: fn(&str) -> &str) -> Option<Cow<'a, str>> {
    match s {
        Cow::Borrowed(s) => s.strip_prefix(prefix).map(|r| Cow::Borrowed(cut(r))),
        Cow::Owned(s) => s
            .strip_prefix(prefix)
            .map(|r| Cow::Owned(cut(r).to_owned())),
    }
}

/// A page's heading ids in one language, as rendering assigns them: the
/// chunks shown in that language, in order, each id made unique against
/// the ones before it and against `reserved` (see [`reserved_ids`]), which
/// are not headings' and so are not in the result. In each chunk its
/// diagrams take their ids first (`render::markdown` gives them in its
/// first pass over the chunk, headings in its last), with the ids inside
/// their SVGs. `chunks` pairs each chunk's scan with its languages.
pub(crate) fn heading_ids<'a>(
    chunks: impl IntoIterator<Item = (&'a ChunkScan<'a>, Langs)>,
    lang: Lang,
    reserved: &IdSet,
) -> IdSet {
    let mut ids = reserved.clone();
    let mut headings = IdSet::new();
    for (scan, langs) in chunks {
        if langs.has(lang) {
            for _ in 0..scan.diagrams {
                diagram_id(&mut ids);
            }
            for base in &scan.headings {
                headings.insert(unique_id(&mut ids, base.clone()));
            }
        }
    }
    headings
}

/// Ids a heading may not take on a page, so that render and check give
/// headings the same ids: those the theme writes literally (`theme`, see
/// `render::templates`), the page's claim anchors, and the descriptions
/// the badges and permalinks point at (the legend's and
/// `partials/meanings.html`'s `<lang>-<class>`, `<lang>-to-log`,
/// `<lang>-permalink`), which the theme writes with computed ids.
pub(crate) fn reserved_ids<'a>(theme: &[String], claims: impl Iterator<Item = &'a str>) -> IdSet {
    let mut ids: IdSet = theme.iter().cloned().collect();
    ids.extend(claims.map(|id| format!("claim-{id}")));
    for l in Lang::ALL {
        let named = crate::content::Class::ALL.iter().map(|c| c.name());
        for name in named.chain(["to-log", "permalink"]) {
            ids.insert(format!("{l}-{name}"));
        }
    }
    ids
}

/// The languages a chunk is shown in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Langs {
    /// Shared text and untranslated blocks: shown in both.
    Both,
    /// One side of a pair.
    One(Lang),
}

impl Langs {
    /// Whether the chunk is shown in `lang`.
    pub(crate) fn has(self, lang: Lang) -> bool {
        match self {
            Langs::Both => true,
            Langs::One(l) => l == lang,
        }
    }

    /// The languages in code order.
    pub(crate) fn iter(self) -> impl Iterator<Item = Lang> {
        Lang::ALL.into_iter().filter(move |&l| self.has(l))
    }
}

impl Segment {
    /// The segment's chunks with the languages each is shown in, in order.
    pub(crate) fn chunks(&self) -> impl Iterator<Item = (&Chunk, Langs)> {
        let (first, second) = match self {
            Segment::Shared(c) | Segment::Untranslated { chunk: c, .. } => ((c, Langs::Both), None),
            Segment::Pair { ja, en } => {
                ((ja, Langs::One(Lang::Ja)), Some((en, Langs::One(Lang::En))))
            }
        };
        std::iter::once(first).chain(second)
    }
}

/// Resolves a link written as a content source path (`../x.md#a`,
/// `/notes/x.md`) to a content-relative path. Other links give `None`.
pub(crate) fn resolve_page_link(dest: &str, page_rel: &str) -> Option<(String, Option<String>)> {
    if dest.contains("://") || dest.starts_with("mailto:") || dest.starts_with('#') {
        return None;
    }
    let (path, anchor) = match dest.split_once('#') {
        Some((p, a)) => (p, Some(a.to_owned())),
        None => (dest, None),
    };
    if !path.ends_with(".md") {
        return None;
    }
    let mut parts: Vec<&str> = if path.starts_with('/') {
        Vec::new()
    } else {
        let mut p: Vec<&str> = page_rel.split('/').collect();
        p.pop();
        p
    };
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    Some((parts.join("/"), anchor))
}
#[cfg(test)]
mod dot_tests {
    use super::*;
    #[test]
    fn bad_dot_is_found() {
        let c = Chunk {
            text: "x\n\n```dot\ndigraph { a ->\n```\n".into(),
            offset: 0,
        };
        let r = scan(&c, "p.md").refs;
        assert!(matches!(r.as_slice(), [(Reference::BadDot(_), _)]), "{r:?}");
        assert!(parse_dot("digraph { a -> }").is_err());
    }
}
