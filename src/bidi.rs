//! Bidirectional controls in a site's text fields (issue 39).
//!
//! An override (U+202E RIGHT-TO-LEFT OVERRIDE) in a title makes
//! `fake \u{202e}gnp.exe` read as "fake exe.png", and, left open, reverses
//! whatever follows it on the line: the rest of a navigation entry, of an
//! `llms.txt` line, of a twin's heading. The embeddings, overrides and
//! isolates (U+202A–U+202E, U+2066–U+2069) are what does this; the marks
//! (U+200E, U+200F, U+061C) change the direction of one neutral character
//! at most and are left alone.
//!
//! A text field holding one is reported where it is written (W062) and,
//! in every output, [`isolate`]d: its controls balanced and the whole
//! wrapped in FIRST STRONG ISOLATE … POP DIRECTIONAL ISOLATE, the plain-text
//! form of HTML's `<bdi>`. That works alike in HTML text, attributes and
//! `<title>`, Markdown twins, `llms.txt` and JSON, so the text can reorder
//! nothing outside itself.

use crate::error::Diagnostic;
use crate::source::Source;
use std::ops::Range;

/// FIRST STRONG ISOLATE: opens an isolate whose direction its text gives.
const FSI: char = '\u{2068}';
/// POP DIRECTIONAL ISOLATE: closes the last isolate opened.
const PDI: char = '\u{2069}';
/// POP DIRECTIONAL FORMATTING: closes the last embedding or override.
const PDF: char = '\u{202c}';

/// True for a control that opens or closes a directional state.
pub(crate) fn is_control(c: char) -> bool {
    matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// The first such control in `s`.
pub(crate) fn control(s: &str) -> Option<char> {
    s.chars().find(|&c| is_control(c))
}

/// `s` made unable to reorder the text around it: unchanged without a
/// control; otherwise closers that close nothing dropped, what is left
/// open closed at the end, and the whole wrapped in an isolate.
pub(crate) fn isolate(s: String) -> String {
    if control(&s).is_none() {
        return s;
    }
    /// What an opener needs to be closed.
    #[derive(Clone, Copy, PartialEq)]
    enum Open {
        Embedding,
        Isolate,
    }
    let mut open: Vec<Open> = Vec::new();
    let mut out = String::with_capacity(s.len() + 12);
    out.push(FSI);
    for c in s.chars() {
        match c {
            '\u{202a}'..='\u{202b}' | '\u{202d}'..='\u{202e}' => open.push(Open::Embedding),
            '\u{2066}'..='\u{2068}' => open.push(Open::Isolate),
            // Closes the last embedding, unless an isolate was opened
            // after it (UAX #9, X6a/X7): then it closes nothing.
            PDF => {
                if open.last() != Some(&Open::Embedding) {
                    continue;
                }
                open.pop();
            }
            // Closes the last isolate and every embedding opened in it.
            PDI => {
                let Some(at) = open.iter().rposition(|o| *o == Open::Isolate) else {
                    continue;
                };
                open.truncate(at);
            }
            _ => {}
        }
        out.push(c);
    }
    for o in open.iter().rev() {
        out.push(match o {
            Open::Embedding => PDF,
            Open::Isolate => PDI,
        });
    }
    out.push(PDI);
    out
}

/// W062 for `text` (`what()`: "the `en` text of `title`") at `span` of
/// `src`, if it holds a control; then `text` isolated.
pub(crate) fn checked(
    src: &Source,
    span: Range<usize>,
    what: impl FnOnce() -> String,
    text: String,
    diags: &mut Vec<Diagnostic>,
) -> String {
    let Some(c) = control(&text) else {
        return text;
    };
    diags.push(warning(src.warning("W062", span, message(&what(), c))));
    isolate(text)
}

/// The message of W062 for `what` holding `c`.
pub(crate) fn message(what: &str, c: char) -> String {
    format!(
        "{what} holds {}, a bidirectional control that makes text read in another order",
        crate::terminal::code_point(c)
    )
}

/// W062's hint, on `d`.
pub(crate) fn warning(d: Diagnostic) -> Diagnostic {
    d.with_hint(
        "delete it (most editors do not show it); kansoku shows this text isolated, so it reorders nothing around it, but within the text it still does",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_directional_states_count() {
        for c in ['\u{202a}', '\u{202c}', '\u{202e}', '\u{2066}', '\u{2069}'] {
            assert!(is_control(c), "{c:?}");
        }
        for c in ['\u{200e}', '\u{200f}', '\u{061c}', '\u{200b}', 'a', '観'] {
            assert!(!is_control(c), "{c:?}");
        }
    }

    #[test]
    fn isolated_text_is_balanced_and_wrapped() {
        assert_eq!(isolate("plain".into()), "plain");
        // An override left open is closed, inside the isolate.
        assert_eq!(
            isolate("fake \u{202e}gnp.exe".into()),
            "\u{2068}fake \u{202e}gnp.exe\u{202c}\u{2069}"
        );
        // A closer that closes nothing is dropped; an unclosed isolate and
        // the embedding in it are closed in order.
        assert_eq!(
            isolate("\u{2069}a\u{202c}\u{2066}b\u{202b}c".into()),
            "\u{2068}a\u{2066}b\u{202b}c\u{202c}\u{2069}\u{2069}"
        );
        // A PDI closes the embeddings opened after its isolate.
        assert_eq!(
            isolate("\u{2067}x\u{202d}y\u{2069}z".into()),
            "\u{2068}\u{2067}x\u{202d}y\u{2069}z\u{2069}"
        );
        // Balanced already: only wrapped.
        assert_eq!(
            isolate("\u{202b}ab\u{202c}".into()),
            "\u{2068}\u{202b}ab\u{202c}\u{2069}"
        );
    }
}
