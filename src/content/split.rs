//! Splitting a page body into shared text and `::: ja` / `::: en` blocks.
//!
//! Fenced-div lines are recognised only outside code fences and the HTML
//! blocks that run to an end marker, so a `:::` in a code sample stays
//! text; `super::blocks` says which lines those are where a quick look at
//! fences is not enough. This module splits text; it renders nothing.

use crate::error::Diagnostic;
use crate::lang::Lang;
use crate::source::Source;
use std::ops::Range;

enum Part {
    Shared(Chunk),
    Block {
        lang: Lang,
        chunk: Chunk,
        opener: usize,
    },
}

/// A piece of Markdown and where it starts in its file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chunk {
    /// The Markdown text.
    pub text: String,
    /// Byte offset of `text` in the (normalised) file.
    pub(crate) offset: usize,
}

/// One run of the body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Segment {
    /// Outside any language block: shown in both languages.
    Shared(Chunk),
    /// A `ja` block next to an `en` block.
    Pair {
        /// The Japanese block.
        ja: Chunk,
        /// The English block.
        en: Chunk,
    },
    /// A language block with no partner.
    Untranslated {
        /// The language it is written in.
        lang: Lang,
        /// Its text.
        chunk: Chunk,
        /// Byte offset of its `::: xx` line, for diagnostics.
        opener: usize,
    },
}

/// A code fence being skipped: its character and length.
struct Fence {
    ch: char,
    len: usize,
}

fn fence_of(line: &str) -> Option<Fence> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    if indent > 3 {
        return None;
    }
    let rest = &line[indent..];
    let ch = rest.chars().next()?;
    if ch != '`' && ch != '~' {
        return None;
    }
    let len = rest.chars().take_while(|&c| c == ch).count();
    // A backtick "fence" whose info string holds a backtick is a code span
    // (CommonMark examples 138, 145).
    let info_ok = ch == '~' || !rest[len..].contains('`');
    (len >= 3 && info_ok).then_some(Fence { ch, len })
}

enum DivLine {
    Open(Option<Lang>, String),
    Close,
}

fn div_line(line: &str) -> Option<DivLine> {
    let t = line.trim();
    let rest = t.strip_prefix(":::")?;
    let rest = rest.trim_start_matches(':').trim();
    if rest.is_empty() {
        return Some(DivLine::Close);
    }
    let name = rest.trim_start_matches('{').trim_end_matches('}').trim();
    let name = name.strip_prefix('.').unwrap_or(name);
    Some(DivLine::Open(Lang::from_code(name), name.to_owned()))
}

/// Splits a body into segments, pairing adjacent `ja`/`en` blocks.
///
/// A quick look at fences serves nearly every page; where it is not
/// enough (see `super::blocks`), the body is read as CommonMark reads it,
/// and a fence or HTML block that took in a `:::` line is named as the
/// cause of the blocks that then do not pair up.
pub(crate) fn split(src: &Source, body_start: usize) -> Result<Vec<Segment>, Vec<Diagnostic>> {
    let quick = walk(src, body_start, Hiding::Fences);
    if quick.hidden.is_empty()
        && quick.diags.is_empty()
        && !super::blocks::may_hold_html(&src.text[body_start..])
    {
        return Ok(pair(quick.parts));
    }
    let blocks = super::blocks::find(&src.text, body_start);
    let exact = walk(src, body_start, Hiding::Blocks(&blocks));
    if exact.hidden.is_empty() || (exact.diags.is_empty() && exact.lone == 0) {
        return match exact.diags.is_empty() {
            true => Ok(pair(exact.parts)),
            false => Err(exact.diags),
        };
    }
    // The blocks that took in a `:::` line, in order, each with the first
    // it took. Read as a language-block line, would it pair the blocks up?
    let mut takers: Vec<(usize, Range<usize>)> = Vec::new();
    for (line, b) in &exact.hidden {
        if !takers.iter().any(|(t, _)| t == b) {
            takers.push((*b, line.clone()));
        }
    }
    let without = |gone: &[usize]| -> Vec<super::blocks::Block> {
        (0..blocks.len())
            .filter(|i| !gone.contains(i))
            .map(|i| blocks[i].clone())
            .collect()
    };
    let pairs_up =
        |gone: &[usize]| walk(src, body_start, Hiding::Blocks(&without(gone))).better_than(&exact);
    let one = takers.iter().find(|(b, _)| pairs_up(&[*b]));
    let all: Vec<usize> = takers.iter().map(|(b, _)| *b).collect();
    let culprits: Vec<&(usize, Range<usize>)> = match one {
        Some(t) => vec![t],
        None if pairs_up(&all) => takers.iter().collect(),
        // Not what kept the blocks apart: the first pass's findings.
        None if exact.diags.is_empty() => return Ok(pair(exact.parts)),
        None => return Err(exact.diags),
    };
    Err(culprits
        .into_iter()
        .map(|(b, line)| super::blocks::swallowed(src, &blocks[*b], line.clone()))
        .collect())
}

/// How [`walk`] tells lines that are not Markdown.
enum Hiding<'b> {
    /// By following fences line by line.
    Fences,
    /// By these blocks, as CommonMark read the body.
    Blocks(&'b [super::blocks::Block]),
}

/// What one pass over a body found.
struct Walk {
    parts: Vec<Part>,
    diags: Vec<Diagnostic>,
    /// Each `:::` line read as code or HTML, with the index of the block
    /// holding it (`Hiding::Blocks`; 0 for `Hiding::Fences`).
    hidden: Vec<(Range<usize>, usize)>,
    /// Language blocks without a partner: allowed (a warning, `E032`, in
    /// builds), but the partner may be what a block took in.
    lone: usize,
}

impl Walk {
    /// Whether this pass pairs the blocks up better than `other`: no
    /// error, and fewer blocks without a partner or `other` had errors.
    fn better_than(&self, other: &Walk) -> bool {
        self.diags.is_empty()
            && self.lone <= other.lone
            && (self.lone < other.lone || !other.diags.is_empty())
    }
}

fn walk(src: &Source, body_start: usize, hiding: Hiding<'_>) -> Walk {
    let text = &src.text;
    let mut parts = Vec::new();
    let mut diags = Vec::new();
    let mut hidden = Vec::new();
    let mut fence: Option<Fence> = None;
    let mut next_block = 0;
    let mut open: Option<(Lang, usize, usize)> = None; // lang, opener offset, content start
    let mut shared_start = body_start;
    let mut pos = body_start;
    while pos < text.len() {
        let end = text[pos..].find('\n').map_or(text.len(), |i| pos + i);
        let next = (end + 1).min(text.len());
        let line = &text[pos..end];
        let inside = match &hiding {
            Hiding::Fences => {
                let inside = fence.is_some();
                match (&fence, fence_of(line)) {
                    (Some(f), Some(close)) => {
                        let bare = line.trim().trim_start_matches(f.ch).trim().is_empty();
                        if close.ch == f.ch && close.len >= f.len && bare {
                            fence = None;
                        }
                    }
                    (None, Some(f)) => fence = Some(f),
                    _ => {}
                }
                inside.then_some(0)
            }
            Hiding::Blocks(blocks) => {
                while next_block < blocks.len() && blocks[next_block].range.end <= pos {
                    next_block += 1;
                }
                blocks[next_block..]
                    .iter()
                    .take_while(|b| b.range.start < pos)
                    .position(|b| b.holds(pos))
                    .map(|i| next_block + i)
            }
        };
        if let Some(b) = inside {
            if div_line(line).is_some() {
                hidden.push((pos..end, b));
            }
        } else if fence_of(line).is_some() && matches!(hiding, Hiding::Fences) {
            // The line opened a fence (above).
        } else if let Some(div) = div_line(line) {
            match (div, open) {
                (DivLine::Open(Some(lang), _), None) => {
                    push_shared(&mut parts, text, shared_start, pos);
                    open = Some((lang, pos, next));
                }
                (DivLine::Open(Some(_), _), Some((outer, at, _))) => {
                    diags.push(
                        src.error("E033", pos..end, format!("language block opened inside the `::: {outer}` block that starts at line {}", src.location(at).line))
                            .with_hint("close the outer block with a line `:::` first"),
                    );
                }
                (DivLine::Open(None, name), _) => {
                    diags.push(
                        src.error(
                            "E033",
                            pos..end,
                            format!("unknown language block `::: {name}`"),
                        )
                        .with_hint("language blocks are `::: ja` and `::: en`"),
                    );
                }
                (DivLine::Close, Some((lang, opener, start))) => {
                    parts.push(Part::Block {
                        lang,
                        chunk: Chunk {
                            text: text[start..pos].to_owned(),
                            offset: start,
                        },
                        opener,
                    });
                    open = None;
                    shared_start = next;
                }
                (DivLine::Close, None) => {
                    diags.push(
                        src.error("E033", pos..end, "`:::` closes no open language block")
                            .with_hint("remove this line, or open a block with `::: ja` or `::: en` above it"),
                    );
                }
            }
        }
        pos = next;
    }
    if let Some((lang, opener, _)) = open {
        let end = text[opener..].find('\n').map_or(text.len(), |i| opener + i);
        diags.push(
            src.error(
                "E033",
                opener..end,
                format!("`::: {lang}` block is never closed"),
            )
            .with_hint("add a line `:::` where the block ends"),
        );
    } else {
        push_shared(&mut parts, text, shared_start, text.len());
    }
    let lone = lone_blocks(&parts);
    Walk {
        parts,
        diags,
        hidden,
        lone,
    }
}

/// How many language blocks of `parts` have no partner (see [`pair`]).
fn lone_blocks(parts: &[Part]) -> usize {
    let mut lone = 0;
    let mut i = 0;
    while i < parts.len() {
        if let Part::Block { lang, .. } = &parts[i] {
            if matches!(parts.get(i + 1), Some(Part::Block { lang: l, .. }) if l != lang) {
                i += 2;
                continue;
            }
            lone += 1;
        }
        i += 1;
    }
    lone
}

fn push_shared(parts: &mut Vec<Part>, text: &str, start: usize, end: usize) {
    if start < end && !text[start..end].trim().is_empty() {
        parts.push(Part::Shared(Chunk {
            text: text[start..end].to_owned(),
            offset: start,
        }));
    }
}

fn pair(parts: Vec<Part>) -> Vec<Segment> {
    let mut out = Vec::new();
    let mut iter = parts.into_iter().peekable();
    while let Some(part) = iter.next() {
        match part {
            Part::Shared(c) => out.push(Segment::Shared(c)),
            Part::Block {
                lang,
                chunk,
                opener,
            } => {
                let partner =
                    matches!(iter.peek(), Some(Part::Block { lang: l, .. }) if *l != lang);
                if partner {
                    let Some(Part::Block { chunk: other, .. }) = iter.next() else {
                        unreachable!("peeked a block above")
                    };
                    let (ja, en) = if lang == Lang::Ja {
                        (chunk, other)
                    } else {
                        (other, chunk)
                    };
                    out.push(Segment::Pair { ja, en });
                } else {
                    out.push(Segment::Untranslated {
                        lang,
                        chunk,
                        opener,
                    });
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn segs(body: &str) -> Result<Vec<Segment>, Vec<Diagnostic>> {
        split(&Source::new("p.md".into(), body.into()), 0)
    }

    fn findings(body: &str) -> Vec<(String, String, String)> {
        segs(body)
            .expect_err("refused")
            .iter()
            .map(|d| {
                let hint = d.hint.clone().unwrap_or_default();
                (d.location.to_string(), d.message.clone(), hint)
            })
            .collect()
    }

    #[test]
    fn an_open_fence_that_takes_in_a_block_line_is_named_issue_40() {
        let body = "::: ja\n```\ncode\n:::\n\n::: en\n```\ncode\n```\n:::\n";
        assert_eq!(
            findings(body),
            [
                (
                    "p.md:4:1".to_owned(),
                    "`:::` is inside the code fence ``` opened at line 2, which runs on to line 7"
                        .to_owned(),
                    "close the fence with a line ``` before this line".to_owned()
                ),
                // The closing fence of `en` opened a fence of its own.
                (
                    "p.md:10:1".to_owned(),
                    "`:::` is inside the code fence ``` opened at line 9, which is never closed"
                        .to_owned(),
                    "close the fence with a line ``` before this line".to_owned()
                )
            ]
        );
        let body = "::: ja\nok\n:::\n\n::: en\n~~~~\ncode\n:::\n";
        assert_eq!(
            findings(body),
            [(
                "p.md:8:1".to_owned(),
                "`:::` is inside the code fence ~~~~ opened at line 6, which is never closed"
                    .to_owned(),
                "close the fence with a line ~~~~ before this line".to_owned()
            )]
        );
    }

    #[test]
    fn an_open_html_block_that_takes_in_a_block_line_is_named_issue_40() {
        let body = "::: ja\n<!-- note\n:::\n\n::: en\ntext\n:::\n";
        assert_eq!(
            findings(body),
            [(
                "p.md:3:1".to_owned(),
                "`:::` is inside the HTML block `<!--` opened at line 2, which is never closed"
                    .to_owned(),
                "end the HTML block with `-->` before this line".to_owned()
            )]
        );
        // An HTML block that ends at a blank line leaves `:::` to kansoku.
        let s = segs("::: ja\n<div>x</div>\n:::\n::: en\n<div>y</div>\n:::\n").expect("valid");
        assert!(matches!(&s[..], [Segment::Pair { .. }]), "{s:?}");
    }

    #[test]
    fn fences_are_read_as_commonmark_reads_them_issue_40() {
        // A fence opened on a list item's line closes inside the item.
        let s = segs("::: ja\n- ```\n  b\n  ```\n- c\n:::\n::: en\nx\n:::\n").expect("valid");
        assert!(matches!(&s[..], [Segment::Pair { .. }]), "{s:?}");
        // Backticks with a backtick after them are a code span.
        let s = segs("::: ja\n``` aa ```\n:::\n::: en\nx\n:::\n").expect("valid");
        assert!(matches!(&s[..], [Segment::Pair { .. }]), "{s:?}");
        // A closed fence may show `:::` as code.
        let s = segs("::: en\n```\n:::\n```\n:::\n").expect("valid");
        assert!(matches!(&s[..], [Segment::Untranslated { .. }]), "{s:?}");
    }
}
