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
    /// 1-based line; 0 for a value that is in no file ([`Location::command_line`]).
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
    /// The offending source line, when known, and the width of the span under it.
    pub(crate) snippet: Option<Box<(String, usize)>>,
}

/// A [`Diagnostic`] as saved in a memo (`site::memo`): its code is read
/// back as the `&'static str` the rules use, each distinct code allocated
/// once per process.
#[derive(serde::Deserialize)]
struct SavedDiagnostic {
    severity: Severity,
    code: String,
    location: Location,
    message: String,
    hint: Option<String>,
    snippet: Option<Box<(String, usize)>>,
}

impl<'de> serde::Deserialize<'de> for Diagnostic {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Diagnostic, D::Error> {
        <SavedDiagnostic as serde::Deserialize>::deserialize(d).map(Diagnostic::from)
    }
}

impl From<SavedDiagnostic> for Diagnostic {
    fn from(d: SavedDiagnostic) -> Diagnostic {
        use std::collections::HashSet;
        use std::sync::{Mutex, OnceLock};
        static CODES: OnceLock<Mutex<HashSet<&'static str>>> = OnceLock::new();
        let mut codes = CODES
            .get_or_init(Mutex::default)
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let code = match codes.get(d.code.as_str()) {
            Some(&known) => known,
            None => {
                let known: &'static str = Box::leak(d.code.into_boxed_str());
                codes.insert(known);
                known
            }
        };
        Diagnostic {
            severity: d.severity,
            code,
            location: d.location,
            message: d.message,
            hint: d.hint,
            snippet: d.snippet,
        }
    }
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
            snippet: None,
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

    /// Adds the source line the finding points into and the span width.
    pub(crate) fn with_snippet(mut self, line: impl Into<String>, width: usize) -> Self {
        self.snippet = Some(Box::new((line.into(), width.max(1))));
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
        if let Some(snippet) = &self.snippet {
            let (line, width) = &**snippet;
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
}
