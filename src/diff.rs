//! `kansoku diff`: what changed between two sets of claims.
//!
//! Either two `claims.json` files, or a git revision of this site against
//! its working tree (`--since REF`: the old tree is read with `git archive`
//! into a temporary directory, and each tree's `claims.json` is rendered
//! in memory as `build` would write it, drafts left out unless asked
//! for; nothing is built or written). Lists claims added, removed, re-classed, texts changed per
//! language, evidence changed and states changed, in four formats.

use crate::check::{gh_data, gh_property};
use crate::error::{Error, Result};
use crate::record::ClaimsFile;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

/// A claim as compared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claim {
    /// Page source path (`content/…`).
    pub page: String,
    /// Class name.
    pub class: String,
    /// The answer's key, empty when it states none.
    pub answer: String,
    /// State name.
    pub state: String,
    /// Japanese text.
    pub ja: String,
    /// English text.
    pub en: String,
    /// Evidence links as `path#L7-L12`.
    pub evidence: Vec<String>,
}

/// Claims by id.
pub type Claims = BTreeMap<String, Claim>;

/// One change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Change {
    /// `added`, `removed`, `class`, `answer`, `text`, `evidence` or `state`.
    pub kind: &'static str,
    /// The claim.
    pub id: String,
    /// The page it is (or was) on.
    pub page: String,
    /// For `text`: `ja` or `en`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lang: Option<&'static str>,
    /// The value before (absent for `added`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old: Option<String>,
    /// The value after (absent for `removed`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new: Option<String>,
}

/// How changes are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// One line per change, for a terminal.
    Human,
    /// A Markdown summary (a pull-request comment or job summary).
    Markdown,
    /// A JSON array of changes.
    Json,
    /// GitHub workflow `::notice` commands, one per change.
    Github,
}

/// The largest `claims.json` [`read_json`] reads: a site's is a few
/// hundred bytes per claim, so this is millions of claims, yet a bound on
/// the memory a mistyped path (`/dev/zero`) can take.
pub const MAX_JSON_BYTES: u64 = 256 * 1024 * 1024;

/// Reads a `claims.json` (version 1, or the bare array written before
/// the format had a version). Only a regular file of at most
/// [`MAX_JSON_BYTES`] is read.
pub fn read_json(path: &Path) -> Result<Claims> {
    let text = read_bounded(path)?;
    let bad = |why: String| {
        Error::Usage(format!(
            "{}: not a kansoku claims.json: {why}",
            path.display()
        ))
    };
    let list = ClaimsFile::read(&text).map_err(bad)?;
    if list.iter().any(|c| c.id.is_empty()) {
        return Err(bad("a claim without `id`".to_owned()));
    }
    Ok(compared(list))
}

/// The records of a `claims.json` as they are compared.
fn compared(list: Vec<crate::record::ClaimRecord<'_>>) -> Claims {
    let mut out = Claims::new();
    for c in list {
        let state = match c.state {
            st if st.is_empty() => "current".to_owned(),
            st => st.into_owned(),
        };
        let evidence = c
            .evidence
            .into_iter()
            .map(|l| match l.lines {
                Some([a, b]) if a == b => format!("{}#L{a}", l.path),
                Some([a, b]) => format!("{}#L{a}-L{b}", l.path),
                None => l.path.into_owned(),
            })
            .collect();
        let text = c.text.into_owned();
        out.insert(
            c.id.into_owned(),
            Claim {
                page: c.page.into_owned(),
                class: c.class.into_owned(),
                answer: c.answer.map(|a| a.key.into_owned()).unwrap_or_default(),
                state,
                ja: text.ja,
                en: text.en,
                evidence,
            },
        );
    }
    out
}

/// The text of the regular file at `path`, refused whole if it is larger
/// than [`MAX_JSON_BYTES`]. Checked before opening (opening a FIFO would
/// wait for a writer), and the read is bounded too: the file may be
/// replaced or grow in between.
fn read_bounded(path: &Path) -> Result<String> {
    use std::io::Read;
    let not_regular = || {
        Error::Usage(format!(
            "{}: not a regular file; give the path of a claims.json (a build writes \
             public/claims.json); save the output of a command to a file first",
            path.display()
        ))
    };
    let too_big = |len: u64| {
        Error::Usage(format!(
            "{}: {len} bytes, more than the {} MiB a claims.json may have; give the path \
             of the claims.json a build wrote (public/claims.json)",
            path.display(),
            MAX_JSON_BYTES / (1024 * 1024)
        ))
    };
    let (file, meta) = crate::fsutil::open_regular(path)
        .map_err(|e| Error::io(path, e))?
        .ok_or_else(not_regular)?;
    if meta.len() > MAX_JSON_BYTES {
        return Err(too_big(meta.len()));
    }
    let mut bytes = Vec::new();
    file.take(MAX_JSON_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io(path, e))?;
    if bytes.len() as u64 > MAX_JSON_BYTES {
        return Err(too_big(meta.len().max(bytes.len() as u64)));
    }
    String::from_utf8(bytes).map_err(|e| {
        Error::io(
            path,
            std::io::Error::new(std::io::ErrorKind::InvalidData, e),
        )
    })
}

/// The claims of the site at `root`: those of the `claims.json` a build
/// would write (drafts left out), rendered in memory, so that
/// `diff --since` and `diff OLD.json NEW.json` of the same two trees agree.
pub fn from_site(root: &Path) -> Result<Claims> {
    from_site_with(root, false)
}

/// [`from_site`], with the drafts' claims too when `drafts` (as
/// `build --drafts` publishes them). The review lock is not read: a diff
/// compares what the pages say.
pub fn from_site_with(root: &Path, drafts: bool) -> Result<Claims> {
    Ok(compared(crate::claims::records(root, drafts, false)?))
}

/// The claims of the site at `root` as it was at git revision `rev`: the
/// site's directory at that revision is extracted into a temporary
/// directory with `git archive` and loaded there.
///
/// `rev` comes from the command line and is only ever given to git after
/// `--end-of-options`; `git archive` then gets the commit id it resolved
/// to, never `rev` itself (a ref like `--output=F` would write a file).
pub fn from_git(root: &Path, rev: &str) -> Result<Claims> {
    from_git_with(root, rev, false)
}

/// [`from_git`], with the drafts' claims too when `drafts`.
pub fn from_git_with(root: &Path, rev: &str, drafts: bool) -> Result<Claims> {
    if rev.starts_with('-') {
        return Err(Error::Usage(format!(
            "`{rev}` is not a git revision: it starts with `-`, which git reads as an \
             option; name a branch, tag or commit, e.g. `--since main` or `--since HEAD~1`"
        )));
    }
    let git = |args: &[&str]| -> Result<Vec<u8>> {
        let out = Command::new("git")
            .arg("-C")
            .arg(root)
            .args(args)
            .output()
            .map_err(|e| Error::Usage(format!("cannot run git: {e}")))?;
        if !out.status.success() {
            return Err(Error::Usage(format!(
                "git {} failed: {}",
                args.join(" "),
                String::from_utf8_lossy(&out.stderr).trim()
            )));
        }
        Ok(out.stdout)
    };
    let prefix = String::from_utf8_lossy(&git(&["rev-parse", "--show-prefix"])?)
        .trim()
        .to_owned();
    let commit = Command::new("git")
        .arg("-C")
        .arg(root)
        .args(["rev-parse", "--verify", "--quiet", "--end-of-options"])
        .arg(format!("{rev}^{{commit}}"))
        .output()
        .map_err(|e| Error::Usage(format!("cannot run git: {e}")))?;
    let commit = String::from_utf8_lossy(&commit.stdout).trim().to_owned();
    if commit.is_empty() || !commit.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(Error::Usage(format!(
            "`{rev}` names no commit in the git repository of {}; name a branch, tag or \
             commit that `git log` lists, e.g. `--since HEAD~1`",
            root.display()
        )));
    }
    let tree = format!("{commit}:{prefix}");
    let tar = git(&["archive", "--format=tar", "--end-of-options", &tree])?;
    let dir = tempfile::tempdir().map_err(|e| Error::io(std::env::temp_dir(), e))?;
    let mut child = Command::new("tar")
        .arg("-x")
        .arg("-C")
        .arg(dir.path())
        .stdin(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| Error::Usage(format!("cannot run tar: {e}")))?;
    {
        let mut stdin = child.stdin.take().expect("stdin was piped");
        std::io::Write::write_all(&mut stdin, &tar).map_err(|e| Error::io(dir.path(), e))?;
    }
    let status = child.wait().map_err(|e| Error::io(dir.path(), e))?;
    if !status.success() {
        return Err(Error::Usage(format!("tar could not unpack {tree}")));
    }
    from_site_with(dir.path(), drafts).map_err(|e| match e {
        Error::Content(d) => Error::Usage(format!(
            "the site at {rev} does not load ({} finding{}; first: {})",
            d.len(),
            if d.len() == 1 { "" } else { "s" },
            d.first().map(ToString::to_string).unwrap_or_default()
        )),
        other => other,
    })
}

/// Every change from `old` to `new`, by claim id, in a fixed order of
/// kinds for each claim.
pub fn diff(old: &Claims, new: &Claims) -> Vec<Change> {
    let mut out = Vec::new();
    let change = |kind, id: &str, page: &str, lang, old: Option<&str>, new: Option<&str>| Change {
        kind,
        id: id.to_owned(),
        page: page.to_owned(),
        lang,
        old: old.map(str::to_owned),
        new: new.map(str::to_owned),
    };
    let ids: std::collections::BTreeSet<&String> = old.keys().chain(new.keys()).collect();
    for id in ids {
        match (old.get(id), new.get(id)) {
            (None, Some(n)) => out.push(change("added", id, &n.page, None, None, Some(&n.class))),
            (Some(o), None) => out.push(change("removed", id, &o.page, None, Some(&o.class), None)),
            (Some(o), Some(n)) => {
                let (old_ev, new_ev) = (o.evidence.join(" "), n.evidence.join(" "));
                // What is compared, in the order changes are listed.
                let fields = [
                    ("class", None, o.class != n.class, &o.class, &n.class),
                    ("answer", None, o.answer != n.answer, &o.answer, &n.answer),
                    ("state", None, o.state != n.state, &o.state, &n.state),
                    ("text", Some("ja"), o.ja != n.ja, &o.ja, &n.ja),
                    ("text", Some("en"), o.en != n.en, &o.en, &n.en),
                    ("evidence", None, o.evidence != n.evidence, &old_ev, &new_ev),
                ];
                for (kind, lang, changed, was, now) in fields {
                    if changed {
                        out.push(change(kind, id, &n.page, lang, Some(was), Some(now)));
                    }
                }
            }
            (None, None) => {}
        }
    }
    out
}

fn describe(c: &Change) -> String {
    fn q(s: &Option<String>) -> &str {
        s.as_deref().unwrap_or("")
    }
    fn none(s: &str) -> &str {
        if s.is_empty() {
            "none"
        } else {
            s
        }
    }
    match c.kind {
        "added" => format!("added `{}` ({})", c.id, q(&c.new)),
        "removed" => format!("removed `{}` (was {})", c.id, q(&c.old)),
        "class" => format!("re-classed `{}`: {} → {}", c.id, q(&c.old), q(&c.new)),
        "state" => format!("state of `{}`: {} → {}", c.id, q(&c.old), q(&c.new)),
        "answer" => format!(
            "answer of `{}`: {} → {}",
            c.id,
            none(q(&c.old)),
            none(q(&c.new))
        ),
        "text" => format!(
            "{} text of `{}`: \"{}\" → \"{}\"",
            c.lang.unwrap_or(""),
            c.id,
            q(&c.old),
            q(&c.new)
        ),
        _ => format!("evidence of `{}`: {} → {}", c.id, q(&c.old), q(&c.new)),
    }
}

/// The changes in `format`. In the human and Markdown formats, the
/// control and format characters of ids, pages and texts are shown
/// escaped: a text must not recolour the terminal, start a fake line or
/// reorder what is around it.
pub fn format(changes: &[Change], format: Format) -> String {
    use crate::terminal::escape;
    let mut out = String::new();
    match format {
        Format::Human => {
            for c in changes {
                let line = format!("{}: {}", c.page, describe(c));
                out.push_str(&escape(&line, &[]));
                out.push('\n');
            }
            out.push_str(&summary(changes));
            out.push('\n');
        }
        Format::Markdown => {
            out.push_str("### Claims changed\n\n");
            if changes.is_empty() {
                out.push_str("No claim changed.\n");
            } else {
                out.push_str(&format!(
                    "{}.\n\n| page | change |\n|---|---|\n",
                    summary(changes)
                ));
                for c in changes {
                    out.push_str(&format!(
                        "| `{}` | {} |\n",
                        escape(&c.page, &[]),
                        escape(&describe(c), &[]).replace('|', "\\|")
                    ));
                }
            }
        }
        Format::Json => {
            out.push_str(
                &serde_json::to_string_pretty(changes).expect("changes serialise: strings only"),
            );
            out.push('\n');
        }
        Format::Github => {
            for c in changes {
                // GitHub's own escapes first (`%0A` for a newline), then
                // what is left that a log viewer would act on.
                out.push_str(&format!(
                    "::notice file={},title=claim {}::{}\n",
                    escape(&gh_property(&c.page), &[]),
                    escape(&gh_property(c.kind), &[]),
                    escape(&gh_data(&describe(c)), &[])
                ));
            }
        }
    }
    out
}

/// `3 changes: 1 added, 2 re-classed`.
pub fn summary(changes: &[Change]) -> String {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for c in changes {
        let word = match c.kind {
            "class" => "re-classed",
            "text" => "texts changed",
            "evidence" => "evidence changed",
            "state" => "states changed",
            "answer" => "answers changed",
            k => k,
        };
        *counts.entry(word).or_default() += 1;
    }
    let n = changes.len();
    let mut s = format!("{n} change{}", if n == 1 { "" } else { "s" });
    if n > 0 {
        let parts: Vec<String> = counts.iter().map(|(w, n)| format!("{n} {w}")).collect();
        s.push_str(&format!(": {}", parts.join(", ")));
    }
    s
}
