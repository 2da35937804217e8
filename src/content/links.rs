//! Evidence links as written on a claim: `path`, `path#L7`, `path#L7-L12`
//! or `{ path, lines, quote }`, parsed, with every path refused that could
//! leave the evidence directory. Whether the file and lines exist is the
//! evidence stage's business.

use super::front_matter::{RawLines, RawLink};
use std::ops::Range;

/// A link from a claim to lines of an evidence file.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct EvidenceLink {
    /// Path under the evidence directory, normalised, `/`-separated.
    pub(crate) path: String,
    /// Inclusive 1-based line range, counted after the file's header.
    pub(crate) lines: Option<(usize, usize)>,
    /// Text that must occur inside the lines.
    pub(crate) quote: Option<String>,
    /// Where the link is written in the page.
    pub(crate) span: Range<usize>,
}

impl EvidenceLink {
    /// `path#L7-L12`, `path#L7` or `path`.
    pub(crate) fn label(&self) -> String {
        format!("{}{}", self.path, self.fragment())
    }

    /// `#L7-L12`, `#L7` or empty.
    pub(crate) fn fragment(&self) -> String {
        match self.lines {
            None => String::new(),
            Some((a, b)) if a == b => format!("#L{a}"),
            Some((a, b)) => format!("#L{a}-L{b}"),
        }
    }
}

type LinkError = (&'static str, String, String);

/// Parses a link's path and line range; the path is checked to stay inside
/// the evidence directory textually (percent escapes decoded first).
pub(crate) fn parse_link(raw: &RawLink) -> Result<EvidenceLink, LinkError> {
    let (path, lines, quote) = match raw {
        RawLink::Short(s) => match s.split_once('#') {
            Some((p, frag)) => (p.to_owned(), Some(parse_fragment(frag)?), None),
            None => (s.clone(), None, None),
        },
        RawLink::Full { path, lines, quote } => {
            let lines = match lines {
                None => None,
                Some(RawLines::One(n)) => Some(range(*n, *n)?),
                Some(RawLines::Range(s)) => Some(parse_range(s.trim_start_matches('L'), s)?),
            };
            (path.clone(), lines, quote.clone())
        }
    };
    let path = normalise_path(&path)?;
    Ok(EvidenceLink {
        path,
        lines,
        quote,
        span: 0..0,
    })
}

fn malformed(what: &str) -> LinkError {
    (
        "E018",
        format!("malformed line range `{what}`"),
        "write `#L7` or `#L7-L12` (or `lines = \"7-12\"`), lines counted from 1".to_owned(),
    )
}

fn parse_fragment(frag: &str) -> Result<(usize, usize), LinkError> {
    let f = frag.strip_prefix('L').ok_or_else(|| malformed(frag))?;
    let f = f.replacen("-L", "-", 1);
    parse_range(&f, frag)
}

fn parse_range(s: &str, shown: &str) -> Result<(usize, usize), LinkError> {
    let num = |t: &str| t.trim().parse::<i64>().map_err(|_| malformed(shown));
    match s.split_once('-') {
        Some((a, b)) => range(num(a)?, num(b.trim_start_matches('L'))?),
        None => {
            let n = num(s)?;
            range(n, n)
        }
    }
    .map_err(|_| malformed(shown))
}

fn range(a: i64, b: i64) -> Result<(usize, usize), LinkError> {
    if a < 1 || b < a {
        return Err(malformed(&format!("{a}-{b}")));
    }
    Ok((a as usize, b as usize))
}

/// `%XX` escapes decoded; a `%` without two hex digits stays as it is,
/// and bytes that are not UTF-8 become U+FFFD.
fn percent_decode(s: &str) -> String {
    percent_encoding::percent_decode_str(s)
        .decode_utf8_lossy()
        .into_owned()
}

/// Normalises an evidence path and refuses any that could leave `evidence/`.
pub(crate) fn normalise_path(raw: &str) -> Result<String, LinkError> {
    let leaves = |why: &str| {
        (
            "E015",
            format!("evidence path `{raw}` leaves the evidence directory ({why})"),
            "write the path relative to `evidence/`, without `..`".to_owned(),
        )
    };
    // Decode repeatedly so `%252e%252e` cannot smuggle a `..` through.
    let mut decoded = raw.to_owned();
    for _ in 0..3 {
        let next = percent_decode(&decoded);
        if next == decoded {
            break;
        }
        decoded = next;
    }
    if decoded.trim().is_empty() {
        return Err((
            "E018",
            "empty evidence path".to_owned(),
            "name a file under `evidence/`".to_owned(),
        ));
    }
    // `logs/run.txt:5` or `:5-9`: the `path:line` habit of compilers and
    // editors, not an absolute path. Said as such, with the link to write.
    if let Some((file, frag)) = colon_lines(&decoded) {
        return Err((
            "E018",
            format!(
                "evidence link `{raw}` gives its line after `:`; kansoku reads lines from `#L`"
            ),
            format!("write `{file}{frag}`"),
        ));
    }
    if decoded.starts_with('/')
        || decoded.starts_with('\\')
        || decoded.contains('\\')
        || decoded.contains(':')
    {
        return Err(leaves("absolute path"));
    }
    let mut parts = Vec::new();
    for part in decoded.split('/') {
        match part {
            "" | "." => {}
            ".." => return Err(leaves("`..`")),
            p => parts.push(p),
        }
    }
    Ok(parts.join("/"))
}

/// `logs/run.txt:5` as the file and the fragment it means (`#L5`;
/// `:5-9` is `#L5-L9`), or `None` for any other path.
pub(crate) fn colon_lines(path: &str) -> Option<(&str, String)> {
    let (file, line) = path.rsplit_once(':')?;
    let numeric = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    let frag = match line.split_once('-') {
        Some((a, b)) if numeric(a) && numeric(b) => format!("#L{a}-L{b}"),
        None if numeric(line) => format!("#L{line}"),
        _ => return None,
    };
    (!file.contains(':') && !file.is_empty()).then_some((file, frag))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn link_forms() {
        let l = parse_link(&RawLink::Short("a/b.txt#L7-L12".into())).expect("valid");
        assert_eq!((l.path.as_str(), l.lines), ("a/b.txt", Some((7, 12))));
        let l = parse_link(&RawLink::Short("./a.txt#L3".into())).expect("valid");
        assert_eq!((l.path.as_str(), l.lines), ("a.txt", Some((3, 3))));
        let l = parse_link(&RawLink::Full {
            path: "a.txt".into(),
            lines: Some(RawLines::Range("3-9".into())),
            quote: None,
        })
        .expect("valid");
        assert_eq!(l.lines, Some((3, 9)));
    }

    #[test]
    fn escaping_paths_are_refused() {
        for p in [
            "../x.txt",
            "a/../../x",
            "/etc/passwd",
            "%2e%2e/x",
            "%252e%252e/x",
            "a\\..\\x",
        ] {
            let e = parse_link(&RawLink::Short(p.into())).expect_err(p);
            assert_eq!(e.0, "E015", "{p}");
        }
    }

    #[test]
    fn bad_ranges_are_refused() {
        for f in ["a#L0", "a#L9-L3", "a#7", "a#Lx"] {
            assert_eq!(
                parse_link(&RawLink::Short(f.into())).expect_err(f).0,
                "E018"
            );
        }
    }

    #[test]
    fn path_colon_line_is_told_apart_from_an_absolute_path() {
        let link = |s: &str| parse_link(&RawLink::Short(s.into()));
        let e = link("logs/x.log:5").expect_err("path:line");
        assert_eq!(
            (e.0, e.1.as_str(), e.2.as_str()),
            (
                "E018",
                "evidence link `logs/x.log:5` gives its line after `:`; kansoku reads lines from `#L`",
                "write `logs/x.log#L5`"
            )
        );
        assert_eq!(
            link("logs/x.log:5-9").expect_err("range").2,
            "write `logs/x.log#L5-L9`"
        );
        assert_eq!(link("C:/x.log").expect_err("drive").0, "E015");
        assert_eq!(link("https://example.org/x").expect_err("url").0, "E015");
        assert!(link("logs/x.log#L5").is_ok());
    }
}
