//! `kansoku.lock`: what a person last reviewed, as TOML.
//!
//! Sorted by claim id and page path, one table per claim, so a review
//! shows up in a diff as the lines that changed. The texts themselves are
//! kept (not only their hashes): they are short for claims, and a stale
//! translation can then show readers what the other language said before.
//! Evidence is kept as a hash of the cited lines, since logs are large.
//! This module reads and writes the file; it does not compare anything.

use crate::error::{Diagnostic, Error, Result};
use crate::source::Source;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// The lock's file name, at the site root.
pub const LOCK_FILE: &str = "kansoku.lock";

/// The format this build writes and reads.
pub(crate) const VERSION: u32 = 1;

/// The whole lock.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lock {
    /// Format version ([`VERSION`]).
    pub(crate) version: u32,
    /// Each reviewed claim by id.
    #[serde(default)]
    pub(crate) claims: BTreeMap<String, LockedClaim>,
    /// Each page's reviewed language pairs, by content-relative path.
    #[serde(default)]
    pub(crate) pages: BTreeMap<String, LockedPage>,
    /// Each capture whose command a person approved for `recapture`, by
    /// its path from the site root (`evidence/captures/x.txt`). Absent
    /// from locks written before approvals, which read as none approved.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub(crate) captures: BTreeMap<String, LockedCapture>,
    /// `book.toml`'s `[capture] facts` as a person approved them.
    #[serde(
        default,
        rename = "capture-facts",
        skip_serializing_if = "Option::is_none"
    )]
    pub(crate) capture_facts: Option<LockedFacts>,
}

/// A capture's command as a person approved it: what `recapture` may run.
/// The command and the rest are kept as text, so that an approval shows
/// up in a diff as the command line it lets run; `hash` is of all of it,
/// and an entry whose text and hash disagree (edited by hand) approves
/// nothing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LockedCapture {
    /// The command and its arguments, as its header records them.
    pub(crate) command: Vec<String>,
    /// Its working directory, as recorded (relative to the site root).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) cwd: Option<String>,
    /// The names of the environment variables it records.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) env: Vec<String>,
    /// Each file of the site its command names (a script it runs, a file
    /// it reads), with the SHA-256 of its bytes then.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub(crate) files: BTreeMap<String, String>,
    /// `sha256:` of all of the above (`review::captures`).
    pub(crate) hash: String,
}

/// The host facts' commands as a person approved them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LockedFacts {
    /// Fact name → the command printing it, as in `book.toml`.
    pub(crate) facts: BTreeMap<String, String>,
    /// `sha256:` of the facts (`review::captures`).
    pub(crate) hash: String,
}

/// A claim as it was reviewed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct LockedClaim {
    /// The page it was on (`content/…`), for people reading the lock.
    pub(crate) page: String,
    /// Its class.
    pub(crate) class: String,
    /// Its state (`current`, `retracted`, `superseded`).
    pub(crate) state: String,
    /// Its Japanese text.
    pub(crate) ja: String,
    /// Its English text.
    pub(crate) en: String,
    /// The answer it stated (`[aspects]`), if any: absent in locks written
    /// before answers, which then read as "none".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) answer: Option<String>,
    /// Premise id → the premise's class when this claim was reviewed.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub(crate) premises: BTreeMap<String, String>,
    /// Each evidence link with the hash of the text it cited.
    #[serde(default)]
    pub(crate) evidence: Vec<LockedLink>,
}

/// An evidence link as it was reviewed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LockedLink {
    /// `path#L7-L12` as written.
    pub(crate) link: String,
    /// How many lines it cited: the window searched for when it moved.
    pub(crate) lines: usize,
    /// [`super::hash_lines`] of the cited lines.
    pub(crate) hash: String,
}

/// A page's language pairs as they were reviewed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LockedPage {
    /// Each `::: ja` / `::: en` pair, in page order.
    #[serde(default)]
    pub(crate) pairs: Vec<LockedPair>,
}

/// One reviewed pair.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LockedPair {
    /// The Japanese block's text.
    pub(crate) ja: String,
    /// The English block's text.
    pub(crate) en: String,
}

/// Reads the lock at `root`; `None` when there is none (the site does not
/// use reviews). A lock that does not parse is E080 at its line.
pub(crate) fn read(root: &Path) -> Result<Option<Lock>> {
    let path = root.join(LOCK_FILE);
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Error::io(path, e)),
    };
    let text = crate::source::decode(LOCK_FILE, &bytes).map_err(|d| Error::Content(vec![d]))?;
    parse(&text).map(Some).map_err(|d| Error::Content(vec![d]))
}

/// Parses lock text; E080 with the place of the problem.
pub(crate) fn parse(text: &str) -> std::result::Result<Lock, Diagnostic> {
    let src = Source::new(LOCK_FILE.to_owned(), text.to_owned());
    let hint = "regenerate it with `kansoku review --all` (after looking at what changed)";
    let lock: Lock = toml::from_str(text).map_err(|e| {
        let span = e.span().unwrap_or(0..0);
        src.error(
            "E080",
            span,
            format!("`{LOCK_FILE}` does not parse: {}", e.message()),
        )
        .with_hint(hint)
    })?;
    if lock.version != VERSION {
        return Err(src
            .error(
                "E080",
                0..0,
                format!(
                    "`{LOCK_FILE}` has version {}; this kansoku reads version {VERSION}",
                    lock.version
                ),
            )
            .with_hint(hint));
    }
    Ok(lock)
}

/// The lock as text: a comment saying what the file is, then sorted TOML.
pub(crate) fn to_text(lock: &Lock) -> String {
    let body = toml::to_string_pretty(lock).expect("the lock serialises: strings and tables only");
    format!(
        "# What was last reviewed: claim texts, the hash of each cited range,\n# and each page's language pairs; and the capture commands `recapture`\n# may run. Written by `kansoku review`; do not edit.\n{body}"
    )
}

/// Writes the lock atomically: a reader never sees half a lock.
pub(crate) fn write(root: &Path, lock: &Lock) -> Result<()> {
    let path = root.join(LOCK_FILE);
    crate::fsutil::write_atomic(&path, to_text(lock).as_bytes()).map_err(|e| Error::io(&path, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_sorts() {
        let mut lock = Lock {
            version: VERSION,
            ..Lock::default()
        };
        for id in ["b", "a"] {
            lock.claims.insert(
                id.to_owned(),
                LockedClaim {
                    page: "content/x.md".into(),
                    class: "confirmed".into(),
                    state: "current".into(),
                    ja: "日本語".into(),
                    en: "English".into(),
                    answer: None,
                    premises: BTreeMap::new(),
                    evidence: vec![LockedLink {
                        link: "a.log#L1".into(),
                        lines: 1,
                        hash: "fnv1a64:0".into(),
                    }],
                },
            );
        }
        let text = to_text(&lock);
        assert!(text.find("[claims.a]").expect("a") < text.find("[claims.b]").expect("b"));
        assert_eq!(parse(&text).expect("parses"), lock);
    }

    #[test]
    fn bad_lock_is_e080_with_its_line() {
        let d = parse("version = 1\n[claims.x]\npage = 3\n").expect_err("bad");
        assert_eq!(d.code, "E080");
        assert_eq!(d.location.line, 3);
        let d = parse("version = 9\n").expect_err("bad");
        assert_eq!(
            d.message,
            "`kansoku.lock` has version 9; this kansoku reads version 1"
        );
    }
}
