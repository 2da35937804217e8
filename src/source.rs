//! Reading source text: decoding, normalising and locating byte offsets.
//!
//! Every loader goes through here so that a BOM, CRLF line ends or invalid
//! UTF-8 are handled once and line/column numbers mean the same everywhere.
//! Nothing here knows about pages or evidence.

use crate::error::{Diagnostic, Location};
use std::sync::OnceLock;

/// Decodes file bytes as UTF-8, drops a leading BOM and turns CRLF into LF.
///
/// Dropping `\r` before `\n` keeps every line and column number valid, since
/// columns are counted in characters before the line end.
pub(crate) fn decode(rel: &str, bytes: &[u8]) -> Result<String, Diagnostic> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(text) => Ok(if text.contains('\r') {
            text.replace("\r\n", "\n")
        } else {
            text.to_owned()
        }),
        Err(e) => {
            let offset = e.valid_up_to();
            let prefix = String::from_utf8_lossy(&bytes[..offset]);
            let index = LineIndex::new(&prefix);
            let (line, col) = index.locate(&prefix, offset);
            Err(Diagnostic::error(
                "E001",
                Location {
                    path: rel.to_owned(),
                    line,
                    col,
                },
                format!("invalid UTF-8 at byte {offset}"),
            )
            .with_hint("save the file as UTF-8"))
        }
    }
}

/// [`decode`] for bytes the caller owns: the common case (UTF-8, no BOM, LF
/// line ends) keeps the buffer instead of copying it.
pub(crate) fn decode_owned(rel: &str, bytes: Vec<u8>) -> Result<String, Diagnostic> {
    if bytes.starts_with(b"\xEF\xBB\xBF") || bytes.contains(&b'\r') {
        return decode(rel, &bytes);
    }
    String::from_utf8(bytes).or_else(|e| decode(rel, e.as_bytes()))
}

/// Byte offsets of line starts, for turning offsets into line and column.
#[derive(Debug, Clone)]
pub(crate) struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    pub(crate) fn new(text: &str) -> Self {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex { starts }
    }

    /// 1-based line and character column of a byte offset.
    pub(crate) fn locate(&self, text: &str, offset: usize) -> (usize, usize) {
        let offset = offset.min(text.len());
        let line = self.starts.partition_point(|&s| s <= offset);
        let start = self.starts[line - 1];
        let col = text
            .get(start..offset)
            .map(|s| s.chars().count())
            .unwrap_or(0);
        (line, col + 1)
    }

    /// Lines `a..=b` (1-based, `a` ≥ 1) as one slice: the lines joined by
    /// the newlines between them, without the last line's end.
    pub(crate) fn lines<'t>(&self, text: &'t str, a: usize, b: usize) -> &'t str {
        let Some(&start) = self.starts.get(a.wrapping_sub(1)) else {
            return "";
        };
        let end = self.starts.get(b).map_or(text.len(), |e| e - 1);
        text.get(start..end.max(start)).unwrap_or("")
    }

    /// The text of a 1-based line, without its line end.
    pub(crate) fn line<'t>(&self, text: &'t str, line: usize) -> &'t str {
        let Some(&start) = self.starts.get(line.wrapping_sub(1)) else {
            return "";
        };
        let end = self.starts.get(line).map_or(text.len(), |e| e - 1);
        text.get(start..end.max(start)).unwrap_or("")
    }
}

/// A decoded file with its line index, able to make located diagnostics.
#[derive(Debug, Clone)]
pub(crate) struct Source {
    pub(crate) rel: String,
    pub(crate) text: String,
    /// Built on the first finding: most files have none, and indexing every
    /// line of every page up front was a measurable part of `check`.
    index: OnceLock<LineIndex>,
}

impl Source {
    pub(crate) fn new(rel: String, text: String) -> Self {
        Source {
            rel,
            text,
            index: OnceLock::new(),
        }
    }

    fn index(&self) -> &LineIndex {
        self.index.get_or_init(|| LineIndex::new(&self.text))
    }

    pub(crate) fn location(&self, offset: usize) -> Location {
        let (line, col) = self.index().locate(&self.text, offset);
        Location {
            path: self.rel.clone(),
            line,
            col,
        }
    }

    /// An error at a byte span, with the source line and a caret under the span.
    pub(crate) fn error(
        &self,
        code: &'static str,
        span: std::ops::Range<usize>,
        message: impl Into<String>,
    ) -> Diagnostic {
        let d = Diagnostic::error(code, self.location(span.start), message);
        self.snippet(d, span)
    }

    /// A warning at a byte span.
    pub(crate) fn warning(
        &self,
        code: &'static str,
        span: std::ops::Range<usize>,
        message: impl Into<String>,
    ) -> Diagnostic {
        let d = Diagnostic::warning(code, self.location(span.start), message);
        self.snippet(d, span)
    }

    fn snippet(&self, d: Diagnostic, span: std::ops::Range<usize>) -> Diagnostic {
        let line = self.index().line(&self.text, d.location.line);
        let start = span.start.min(self.text.len());
        let end = span.end.clamp(start, self.text.len());
        let spanned = self.text.get(start..end).unwrap_or("");
        let first = spanned.split('\n').next().unwrap_or("");
        let width = first.chars().count();
        d.with_snippet(line, width)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locate_counts_characters_not_bytes() {
        let text = "a\n観測 x\n";
        let idx = LineIndex::new(text);
        assert_eq!(idx.locate(text, 0), (1, 1));
        let x = text.find('x').expect("x is in the text");
        assert_eq!(idx.locate(text, x), (2, 4));
        assert_eq!(idx.line(text, 2), "観測 x");
        assert_eq!(idx.lines(text, 1, 2), "a\n観測 x");
    }

    #[test]
    fn decode_strips_bom_and_crlf() {
        let text = decode("a.md", b"\xEF\xBB\xBF+++\r\nx = 1\r\n").expect("valid");
        assert_eq!(text, "+++\nx = 1\n");
    }

    #[test]
    fn decode_names_the_bad_byte() {
        let d = decode("a.md", b"ok\nab\xFFc").expect_err("invalid");
        assert_eq!(
            d.to_string(),
            "a.md:2:3: error[E001]: invalid UTF-8 at byte 5\n  = hint: save the file as UTF-8"
        );
    }
}
