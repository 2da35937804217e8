//! Errors and diagnostics shared by every stage.
//!
//! Every problem about a source file carries a [`Location`] and prints as
//! `path:line:col: severity[CODE]: message`, so editors can jump to it. This
//! module only describes problems; it never decides whether a build goes on.

use std::fmt;
use std::path::PathBuf;

/// A place in a source file, 1-based, with the path relative to the site root.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct Location {
    /// Path relative to the site root, with `/` separators.
    pub path: String,
    /// 1-based line; 0 for a value that is in no file (`Location::command_line`).
    pub line: usize,
    /// 1-based column, counted in characters.
    pub col: usize,
}

impl Location {
    /// The start of a file: used when a problem concerns the file as a whole.
    pub(crate) fn file(path: impl Into<String>) -> Self {
        Location {
            path: path.into(),
            line: 1,
            col: 1,
        }
    }

    /// A value given on the command line (`--base-url`), not read from a
    /// file: shown as `<command-line>` (GCC's name for it), without the
    /// line and column no file has, so no one looks in `book.toml`.
    pub(crate) fn command_line() -> Self {
        Location {
            path: "<command-line>".to_owned(),
            line: 0,
            col: 0,
        }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            return write!(f, "{}", self.path);
        }
        write!(f, "{}:{}:{}", self.path, self.line, self.col)
    }
}

/// How bad a finding is.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Stops `build` and fails `check`.
    Error,
    /// Reported; does not stop anything.
    Warning,
}

/// One finding about the site's sources.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Diagnostic {
    /// Error or warning.
    pub(crate) severity: Severity,
    /// Stable code such as `E011`.
    pub code: &'static str,
    /// Where it is.
    pub location: Location,
    /// What is wrong, one line.
    pub message: String,
    /// How to fix it, one line.
    pub hint: Option<String>,
    /// What few findings carry besides: boxed, so that a finding stays
    /// small enough to return by value.
    pub(crate) extra: Option<Box<Extra>>,
}

/// The rarer parts of a [`Diagnostic`].
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct Extra {
    /// The offending source line and the width of the span under it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) snippet: Option<(String, usize)>,
    /// The site-relative path of the page the finding is about, when that
    /// is not the file it is reported in (W071: the page that failed to
    /// load). Not shown; findings are de-duplicated by it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) about: Option<String>,
    /// The id of the claim the finding is about, when it is about one:
    /// what a `[[check.accept]] claim = "…"` covers and `recapture` sorts
    /// by, rather than the claim ids its text happens to name. Not shown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) claim: Option<String>,
    /// The exact edit that fixes it, when the rule knows one: what
    /// `check --fix` does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) fix: Option<Edit>,
}

/// An edit to the file a finding is reported in: `from`, at `span` of its
/// text as kansoku reads it (no byte-order mark, `\r\n` as `\n`), becomes
/// `to`. Made only while the file still holds `from` there.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct Edit {
    pub(crate) span: std::ops::Range<usize>,
    pub(crate) from: String,
    pub(crate) to: String,
}

/// A [`Diagnostic`] as saved in a memo (`site::memo`), its code as text.
#[derive(serde::Deserialize)]
struct SavedDiagnostic {
    severity: Severity,
    code: String,
    location: Location,
    message: String,
    hint: Option<String>,
    extra: Option<Box<Extra>>,
}

impl<'de> serde::Deserialize<'de> for Diagnostic {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Diagnostic, D::Error> {
        let d = <SavedDiagnostic as serde::Deserialize>::deserialize(d)?;
        let code = static_code(&d.code).ok_or_else(|| {
            <D::Error as serde::de::Error>::custom(format!("`{}` is no finding code", d.code))
        })?;
        Ok(Diagnostic {
            severity: d.severity,
            code,
            location: d.location,
            message: d.message,
            hint: d.hint,
            extra: d.extra,
        })
    }
}

/// Every code a finding can have, `E000` to `E999` then `W000` to `W999`,
/// four bytes each, built at compile time: a code read back from a memo
/// is a `&'static str` into this, like the rules' own literals, with
/// nothing allocated or leaked.
static CODES: [u8; 8000] = {
    let mut table = [0u8; 8000];
    let mut i = 0;
    while i < 2000 {
        let n = i % 1000;
        table[i * 4] = if i < 1000 { b'E' } else { b'W' };
        table[i * 4 + 1] = b'0' + (n / 100) as u8;
        table[i * 4 + 2] = b'0' + (n / 10 % 10) as u8;
        table[i * 4 + 3] = b'0' + (n % 10) as u8;
        i += 1;
    }
    table
};

/// `code` (`E011`, `W071`) as the `&'static str` of [`CODES`]; `None` for
/// anything that is not a letter `E` or `W` and three digits.
fn static_code(code: &str) -> Option<&'static str> {
    let b = code.as_bytes();
    let [letter, digits @ ..] = b else {
        return None;
    };
    if digits.len() != 3 || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let base = match letter {
        b'E' => 0,
        b'W' => 1000,
        _ => return None,
    };
    let n = digits
        .iter()
        .fold(0usize, |n, d| n * 10 + usize::from(d - b'0'));
    let at = (base + n) * 4;
    std::str::from_utf8(&CODES[at..at + 4]).ok()
}

impl Diagnostic {
    /// An error finding.
    pub(crate) fn error(
        code: &'static str,
        location: Location,
        message: impl Into<String>,
    ) -> Self {
        Diagnostic {
            severity: Severity::Error,
            code,
            location,
            message: message.into(),
            hint: None,
            extra: None,
        }
    }

    /// A warning finding.
    pub(crate) fn warning(
        code: &'static str,
        location: Location,
        message: impl Into<String>,
    ) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(code, location, message)
        }
    }

    /// Adds a one-line hint.
    pub(crate) fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// Names the page the finding is about (see [`Extra::about`]).
    pub(crate) fn with_about(mut self, page: impl Into<String>) -> Self {
        self.extra.get_or_insert_default().about = Some(page.into());
        self
    }

    /// The page the finding is about, if it names one.
    pub(crate) fn about(&self) -> Option<&str> {
        self.extra.as_ref()?.about.as_deref()
    }

    /// Names the claim the finding is about (see [`Extra::claim`]).
    pub(crate) fn with_claim(mut self, id: &str) -> Self {
        self.set_claim(id);
        self
    }

    /// [`Diagnostic::with_claim`] in place.
    pub(crate) fn set_claim(&mut self, id: &str) {
        self.extra.get_or_insert_default().claim = Some(id.to_owned());
    }

    /// The id of the claim the finding is about, if it is about one.
    pub(crate) fn claim(&self) -> Option<&str> {
        self.extra.as_ref()?.claim.as_deref()
    }

    /// Adds the edit that fixes the finding (see [`Edit`]).
    pub(crate) fn with_fix(mut self, span: std::ops::Range<usize>, from: &str, to: String) -> Self {
        self.extra.get_or_insert_default().fix = Some(Edit {
            span,
            from: from.to_owned(),
            to,
        });
        self
    }

    /// The edit that fixes the finding, if its rule knows one.
    pub(crate) fn fix(&self) -> Option<&Edit> {
        self.extra.as_ref()?.fix.as_ref()
    }

    /// Adds the source line the finding points into and the span width.
    pub(crate) fn with_snippet(mut self, line: impl Into<String>, width: usize) -> Self {
        self.extra.get_or_insert_default().snippet = Some((line.into(), width.max(1)));
        self
    }

    /// True for errors.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sev = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(
            f,
            "{}: {sev}[{}]: {}",
            visible(&self.location.to_string()),
            self.code,
            visible(&self.message)
        )?;
        if let Some((line, width)) = self.extra.as_ref().and_then(|e| e.snippet.as_ref()) {
            let num = self.location.line.to_string();
            let pad = " ".repeat(num.len());
            let (shown, before, span) = caret_view(line, self.location.col, *width);
            write!(
                f,
                "\n{pad} |\n{num} | {shown}\n{pad} | {}{}",
                " ".repeat(before),
                "^".repeat(span.max(1))
            )?;
        }
        if let Some(hint) = &self.hint {
            write!(f, "\n  = hint: {}", visible(hint))?;
        }
        Ok(())
    }
}

/// The source line as shown under a finding, with the caret's indent and
/// width in terminal columns (CJK characters take two), cut to a window
/// around the span when the line is very long.
fn caret_view(line: &str, col: usize, width: usize) -> (String, usize, usize) {
    use unicode_width::UnicodeWidthChar;
    const BEFORE: usize = 60;
    const LIMIT: usize = 200;
    // A control character is shown as its escape, one column per char of
    // it; the caret keeps counting source characters.
    let chars: Vec<String> = line
        .chars()
        .map(|c| match c {
            '\t' => " ".to_owned(),
            c if needs_escape(c) => c.escape_unicode().to_string(),
            c => c.to_string(),
        })
        .collect();
    let start_char = col.saturating_sub(1).min(chars.len());
    let end_char = (start_char + width).min(chars.len());
    let (from, prefix) = if chars.len() > LIMIT && start_char > BEFORE {
        (start_char - BEFORE, "…")
    } else {
        (0, "")
    };
    let to = (from + LIMIT).max(end_char).min(chars.len());
    let suffix = if to < chars.len() { "…" } else { "" };
    let cols = |cs: &[String]| {
        cs.iter()
            .flat_map(|s| s.chars())
            .map(|c| c.width().unwrap_or(0))
            .sum::<usize>()
    };
    let shown = format!("{prefix}{}{suffix}", chars[from..to].concat());
    let before = prefix.chars().count() + cols(&chars[from..start_char]);
    let span = cols(&chars[start_char..end_char.min(to)]);
    (shown, before, span)
}

/// True for characters a terminal would act on rather than show: C0 and
/// C1 controls (ESC starts colour and cursor sequences, BEL rings) and the
/// format characters (bidi overrides, zero-width spaces) that can make a
/// line read as another.
pub(crate) fn needs_escape(c: char) -> bool {
    crate::terminal::is_unsafe(c)
}

/// `s` with every [`needs_escape`] character written as `\u{1b}`, so text
/// taken from a site's files (a path, a quote) cannot drive the terminal
/// that prints a finding. Newlines too: every format is one finding per
/// line, and its line breaks are the format's own.
pub(crate) fn visible(s: &str) -> std::borrow::Cow<'_, str> {
    crate::terminal::escape(s, &[])
}

/// Everything that can stop a command.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The sources have errors; each is listed.
    #[error("{}", render_list(.0))]
    Content(Vec<Diagnostic>),
    /// Reading or writing a file failed.
    #[error("{}: {source}", visible(&.path.display().to_string()))]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The underlying failure.
        source: std::io::Error,
    },
    /// A command was used wrongly (bad directory, bad option value).
    #[error("{}", visible(.0))]
    Usage(String),
}

impl Error {
    /// Wraps an I/O failure with the path it concerns.
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            source,
        }
    }
}

fn render_list(diags: &[Diagnostic]) -> String {
    let errors = diags.iter().filter(|d| d.is_error()).count();
    let mut out = String::new();
    for d in diags {
        out.push_str(&d.to_string());
        out.push('\n');
    }
    out.push_str(&format!(
        "{errors} error{} found",
        if errors == 1 { "" } else { "s" }
    ));
    out
}

/// Result alias for the library.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caret_counts_terminal_columns() {
        // `本文。` is six columns wide: the caret starts under the `[`.
        let (shown, before, span) = caret_view("本文。[[claim:x]]", 4, 11);
        assert_eq!((shown.as_str(), before, span), ("本文。[[claim:x]]", 6, 11));
        let (_, before, span) = caret_view("id = \"観測\"", 6, 4);
        assert_eq!((before, span), (5, 6));
    }

    #[test]
    fn long_lines_are_cut_around_the_span() {
        let line = format!("{}X{}", "a".repeat(1000), "b".repeat(1000));
        let (shown, before, span) = caret_view(&line, 1001, 1);
        assert!(shown.starts_with('…') && shown.ends_with('…'));
        assert_eq!(shown.chars().nth(before), Some('X'));
        assert_eq!(span, 1);
    }

    #[test]
    fn control_characters_are_shown_escaped_issue_11() {
        let d = Diagnostic::error(
            "E012",
            Location::file("content/a\u{1b}[2J.md"),
            "evidence file `evidence/\u{1b}]0;x\u{7}.log` not found",
        )
        .with_hint("bell\u{7}")
        .with_snippet("x = [\"\u{1b}[31m\"]", 8);
        let text = d.to_string();
        assert!(
            !text.chars().any(|c| c.is_control() && c != '\n'),
            "{text:?}"
        );
        assert_eq!(
            text,
            "content/a\\u{1b}[2J.md:1:1: error[E012]: evidence file `evidence/\\u{1b}]0;x\\u{7}.log` not found\n  |\n1 | x = [\"\\u{1b}[31m\"]\n  | ^^^^^^^^^^^^^\n  = hint: bell\\u{7}"
        );
    }

    #[test]
    fn a_finding_read_back_from_a_memo_has_a_static_code() {
        let d = Diagnostic::warning("W071", Location::file("content/a.md"), "m")
            .with_about("content/b.md")
            .with_snippet("line", 2);
        let json = serde_json::to_string(&d).expect("serialises");
        let back: Diagnostic = serde_json::from_str(&json).expect("reads back");
        assert_eq!(back, d);
        assert_eq!(back.about(), Some("content/b.md"));
        // Built, not written: tests/it/check.rs takes every quoted code in
        // src/ for one a rule reports.
        for letter in ['E', 'W'] {
            for n in 0..1000 {
                let code = format!("{letter}{n:03}");
                assert_eq!(static_code(&code), Some(code.as_str()));
            }
        }
        for not in ["", "E", "E01", "E0111", "X011", "e011", "E0a1", "W-01"] {
            assert_eq!(static_code(not), None, "{not:?}");
        }
        let odd = json.replace("W071", "Q071");
        assert!(serde_json::from_str::<Diagnostic>(&odd).is_err());
    }
}
