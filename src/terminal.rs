//! Text from a site's files as a terminal may show it.
//!
//! Claim texts, ids and page paths end up in `claims` and `diff` output;
//! a terminal acts on some characters instead of showing them (ESC starts
//! colour and cursor sequences, CR returns to the start of the line) and
//! bidi and zero-width characters make a line read as another. This module
//! only describes and escapes characters; it prints nothing.

use std::borrow::Cow;

/// Unicode general category Cf (format), by range, as of Unicode 15.
///
/// Listed by hand rather than taken from a crate: `icu_properties` is in
/// the tree only through Pagefind's `extended` feature, and depending on it
/// for one predicate would tie this to that feature; twenty-one ranges that
/// rarely change are cheaper. Checked against Python's `unicodedata`, whose
/// Unicode 14 lacks only U+13439..U+1343F (added in 15).
const FORMAT: [(char, char); 21] = [
    ('\u{ad}', '\u{ad}'),
    ('\u{600}', '\u{605}'),
    ('\u{61c}', '\u{61c}'),
    ('\u{6dd}', '\u{6dd}'),
    ('\u{70f}', '\u{70f}'),
    ('\u{890}', '\u{891}'),
    ('\u{8e2}', '\u{8e2}'),
    ('\u{180e}', '\u{180e}'),
    ('\u{200b}', '\u{200f}'),
    ('\u{202a}', '\u{202e}'),
    ('\u{2060}', '\u{2064}'),
    ('\u{2066}', '\u{206f}'),
    ('\u{feff}', '\u{feff}'),
    ('\u{fff9}', '\u{fffb}'),
    ('\u{110bd}', '\u{110bd}'),
    ('\u{110cd}', '\u{110cd}'),
    ('\u{13430}', '\u{1343f}'),
    ('\u{1bca0}', '\u{1bca3}'),
    ('\u{1d173}', '\u{1d17a}'),
    ('\u{e0001}', '\u{e0001}'),
    ('\u{e0020}', '\u{e007f}'),
];

/// True for a format character (category Cf): invisible, yet it can
/// reorder (U+202E) or hide (U+200B) the text around it.
pub(crate) fn is_format(c: char) -> bool {
    FORMAT.iter().any(|&(a, b)| (a..=b).contains(&c))
}

/// True for a character a terminal acts on or that changes how the text
/// around it reads: C0 and C1 controls, DEL, and format characters.
pub(crate) fn is_unsafe(c: char) -> bool {
    c.is_control() || is_format(c)
}

/// `s` with every [`is_unsafe`] character except those in `keep` written
/// as its escape (`\u{1b}`, `\u{202e}`). `keep` holds the characters an
/// output's own structure needs (a CSV field may hold `\n`); everything
/// else from a site's files is shown, never acted on.
pub(crate) fn escape<'a>(s: &'a str, keep: &[char]) -> Cow<'a, str> {
    let hit = |c: char| is_unsafe(c) && !keep.contains(&c);
    if !s.chars().any(hit) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if hit(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// `U+202E RIGHT-TO-LEFT OVERRIDE`: the code point, and the name of the
/// format characters met in practice (bidi controls, zero-width ones).
pub(crate) fn code_point(c: char) -> String {
    let name = match c {
        '\u{ad}' => "SOFT HYPHEN",
        '\u{61c}' => "ARABIC LETTER MARK",
        '\u{180e}' => "MONGOLIAN VOWEL SEPARATOR",
        '\u{200b}' => "ZERO WIDTH SPACE",
        '\u{200c}' => "ZERO WIDTH NON-JOINER",
        '\u{200d}' => "ZERO WIDTH JOINER",
        '\u{200e}' => "LEFT-TO-RIGHT MARK",
        '\u{200f}' => "RIGHT-TO-LEFT MARK",
        '\u{202a}' => "LEFT-TO-RIGHT EMBEDDING",
        '\u{202b}' => "RIGHT-TO-LEFT EMBEDDING",
        '\u{202c}' => "POP DIRECTIONAL FORMATTING",
        '\u{202d}' => "LEFT-TO-RIGHT OVERRIDE",
        '\u{202e}' => "RIGHT-TO-LEFT OVERRIDE",
        '\u{2060}' => "WORD JOINER",
        '\u{2061}' => "FUNCTION APPLICATION",
        '\u{2062}' => "INVISIBLE TIMES",
        '\u{2063}' => "INVISIBLE SEPARATOR",
        '\u{2064}' => "INVISIBLE PLUS",
        '\u{2066}' => "LEFT-TO-RIGHT ISOLATE",
        '\u{2067}' => "RIGHT-TO-LEFT ISOLATE",
        '\u{2068}' => "FIRST STRONG ISOLATE",
        '\u{2069}' => "POP DIRECTIONAL ISOLATE",
        '\u{feff}' => "ZERO WIDTH NO-BREAK SPACE",
        _ => return format!("U+{:04X}", c as u32),
    };
    format!("U+{:04X} {name}", c as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_table_is_sorted_and_disjoint() {
        for w in FORMAT.windows(2) {
            assert!(w[0].0 <= w[0].1 && w[0].1 < w[1].0, "{w:?}");
        }
    }

    #[test]
    fn format_characters_are_cf_and_their_neighbours_are_not() {
        for c in [
            '\u{ad}', '\u{200b}', '\u{202e}', '\u{2066}', '\u{2069}', '\u{feff}',
        ] {
            assert!(is_format(c), "{}", code_point(c));
        }
        // Neighbours of the ranges that are not Cf: letters, spaces,
        // punctuation, and ZWJ's companions in emoji (U+FE0F is Mn).
        for c in [
            'a', 'ア', '\u{ac}', '\u{200a}', '\u{2010}', '\u{2065}', '\u{fe0f}',
        ] {
            assert!(!is_format(c), "{}", code_point(c));
        }
    }

    #[test]
    fn escape_shows_controls_and_format_characters_issue_23() {
        let s = "a\u{1b}[31mb\u{7f}\u{85}\u{202e}c\u{200b}\t\n\r日本";
        assert_eq!(
            escape(s, &[]),
            "a\\u{1b}[31mb\\u{7f}\\u{85}\\u{202e}c\\u{200b}\\u{9}\\u{a}\\u{d}日本"
        );
        assert_eq!(
            escape(s, &['\n', '\t']),
            "a\\u{1b}[31mb\\u{7f}\\u{85}\\u{202e}c\\u{200b}\t\n\\u{d}日本"
        );
        assert!(matches!(escape("plain 観測 → ok", &[]), Cow::Borrowed(_)));
    }

    #[test]
    fn code_points_are_named_where_known() {
        assert_eq!(code_point('\u{202e}'), "U+202E RIGHT-TO-LEFT OVERRIDE");
        assert_eq!(code_point('\u{feff}'), "U+FEFF ZERO WIDTH NO-BREAK SPACE");
        assert_eq!(code_point('\u{600}'), "U+0600");
        assert_eq!(code_point('\u{e0041}'), "U+E0041");
    }
}
