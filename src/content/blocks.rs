//! The lines of a page body that CommonMark reads as code or raw HTML, so
//! that a `:::` among them is not a language-block line, and the finding
//! when such a block swallows one.
//!
//! `body::split` finds `::: ja`/`::: en` lines with a quick look at fences
//! that serves nearly every page. Where that look is not enough (a `:::`
//! line inside what looks like a fence, a block that does not pair up, an
//! HTML block that runs to an end marker) the body is read by
//! pulldown-cmark itself ([`find`]), so that a fence inside a list item or
//! a backtick "fence" that is a code span is read as CommonMark reads it.
//! When a fence or HTML block left open takes in a `:::` line, the finding
//! names that block and its line ([`swallowed`]), not the language block
//! that then seems never closed. Nothing here renders.

use crate::error::Diagnostic;
use crate::source::Source;
use pulldown_cmark::{CodeBlockKind, Event, Parser, Tag};
use std::ops::Range;

/// What holds lines that are not Markdown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A fenced code block, with its fence as written (`` ``` ``, `~~~~`).
    Fence(String),
    /// An HTML block that runs to an end marker (CommonMark's kinds 1 to
    /// 5): how it starts (`<!--`, `<pre`) and the marker that ends it.
    Html(&'static str, &'static str),
}

/// A block whose lines are not read as language-block lines.
#[derive(Debug, Clone)]
pub(crate) struct Block {
    /// Its bytes in the file, from its first line to its last.
    pub(crate) range: Range<usize>,
    pub(crate) kind: Kind,
    /// Whether it ends with its own closing fence or end marker (else it
    /// runs on to the end of the body or of the list or quote holding it).
    pub(crate) closed: bool,
}

impl Block {
    /// Whether the line starting at `pos` is inside the block (its first
    /// line, which opens it, is not).
    pub(crate) fn holds(&self, pos: usize) -> bool {
        self.range.start < pos && pos < self.range.end
    }
}

/// The HTML blocks that run to an end marker, by how they start (checked
/// in order, case-insensitively), with that marker.
const HTML_KINDS: [(&str, &str, &str); 8] = [
    ("<pre", "<pre", "</pre>"),
    ("<script", "<script", "</script>"),
    ("<style", "<style", "</style>"),
    ("<textarea", "<textarea", "</textarea>"),
    ("<!--", "<!--", "-->"),
    ("<![cdata[", "<![CDATA[", "]]>"),
    ("<?", "<?", "?>"),
    ("<!", "<!", ">"),
];

/// Whether `body` may hold an HTML block that runs to an end marker: a
/// line that starts (after up to three spaces) like one.
pub(crate) fn may_hold_html(body: &str) -> bool {
    body.lines().any(|line| {
        let t = line.trim_start_matches(' ');
        line.len() - t.len() <= 3 && html_kind(t).is_some()
    })
}

fn html_kind(line: &str) -> Option<(&'static str, &'static str)> {
    let head: String = line
        .chars()
        .take(10)
        .collect::<String>()
        .to_ascii_lowercase();
    HTML_KINDS
        .iter()
        .find(|(start, _, _)| head.starts_with(start))
        .filter(|(start, _, _)| {
            // `<pre` and the like name a whole tag; `<!` a declaration.
            let next = head[start.len()..].chars().next();
            match *start {
                "<!" => next.is_some_and(|c| c.is_ascii_alphabetic()),
                "<!--" | "<![cdata[" | "<?" => true,
                _ => next.is_none_or(|c| c == '>' || c.is_whitespace()),
            }
        })
        .map(|&(_, shown, end)| (shown, end))
}

/// The fenced code blocks and end-marked HTML blocks of the body that
/// starts at `body_start` of `text`, as CommonMark reads the whole body, in
/// order.
pub(crate) fn find(text: &str, body_start: usize) -> Vec<Block> {
    let body = &text[body_start..];
    let mut out = Vec::new();
    for (ev, r) in Parser::new_ext(body, super::cmark::parser_options()).into_offset_iter() {
        let first = body[r.start..].lines().next().unwrap_or("");
        let last = body[r.clone()]
            .trim_end_matches('\n')
            .lines()
            .last()
            .unwrap_or("");
        let kind = match ev {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(_))) => {
                let opener = first.trim_start_matches([' ', '>', '-', '*', '+']);
                let opener = opener.trim_start_matches(|c: char| {
                    c.is_ascii_digit() || c == '.' || c == ')' || c == ' '
                });
                let ch = opener.chars().next().unwrap_or('`');
                let fence: String = opener.chars().take_while(|&c| c == ch).collect();
                let bare = last.trim_start_matches([' ', '>']).trim_end();
                let closed = r.end > r.start + first.len() + 1
                    && bare.chars().all(|c| c == ch)
                    && bare.len() >= fence.len();
                Some((Kind::Fence(fence), closed))
            }
            Event::Start(Tag::HtmlBlock) => {
                html_kind(first.trim_start_matches(' ')).map(|(start, end)| {
                    let closed = last.to_ascii_lowercase().contains(end);
                    (Kind::Html(start, end), closed)
                })
            }
            _ => None,
        };
        if let Some((kind, closed)) = kind {
            out.push(Block {
                range: body_start + r.start..body_start + r.end,
                kind,
                closed,
            });
        }
    }
    out
}

/// The finding for `block`, which took in the `:::` line at `line` (a
/// range of `src`): named with its first line, as the cause of the
/// language blocks that then do not pair up.
pub(crate) fn swallowed(src: &Source, block: &Block, line: Range<usize>) -> Diagnostic {
    let div = src.text[line.clone()].trim();
    let opened = src.location(block.range.start).line;
    let runs = if block.closed {
        let end = src.location(block.range.end.saturating_sub(1)).line;
        format!("runs on to line {end}")
    } else {
        "is never closed".to_owned()
    };
    let (message, hint) = match &block.kind {
        Kind::Fence(fence) => (
            format!(
                "`{div}` is inside the code fence {fence} opened at line {opened}, which {runs}"
            ),
            format!("close the fence with a line {fence} before this line"),
        ),
        Kind::Html(start, end) => (
            format!(
                "`{div}` is inside the HTML block `{start}` opened at line {opened}, which {runs}"
            ),
            format!("end the HTML block with `{end}` before this line"),
        ),
    };
    src.error("E033", line, message).with_hint(hint)
}
