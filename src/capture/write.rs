//! Writing a capture: its `+++` header, where it goes under the evidence
//! directory, and the atomic write (a temporary file renamed into place).
//!
//! The header is written by hand, one `key = value` per line with every
//! string a one-line TOML basic string: a newline or a `+++` line in a
//! note, a source or an argument is written escaped, so it can never end
//! the header early (issue 39, L3), and `check` reads back exactly what
//! was written. Temporary files are named `.kansoku-capture-PID-…`: one
//! whose process is gone was left by a capture that was stopped, and the
//! next capture removes it (L6); while one is written it is registered
//! with the signal handler, which removes it on an interruption.

use crate::error::{Error, Result};
use crate::evidence::Provenance;
use std::collections::BTreeMap;
use std::path::{Component, Path};

/// `s` as a TOML basic string on one line.
fn basic(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A key as TOML writes it: bare when it can be, quoted otherwise.
fn key(k: &str) -> String {
    if !k.is_empty()
        && k.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        k.to_owned()
    } else {
        basic(k)
    }
}

fn inline_table(map: &BTreeMap<String, String>) -> String {
    let items: Vec<String> = map
        .iter()
        .map(|(k, v)| format!("{} = {}", key(k), basic(v)))
        .collect();
    format!("{{ {} }}", items.join(", "))
}

/// The `+++` header: the kind, the source, then the provenance, with a
/// comment saying how the streams are kept.
pub(crate) fn header(kind: &str, source: Option<&str>, p: &Provenance) -> String {
    let mut lines = vec![format!("kind = {}", basic(kind))];
    let mut field = |k: &str, v: &Option<String>| {
        if let Some(v) = v {
            lines.push(format!("{k} = {}", basic(v)));
        }
    };
    field("source", &source.map(str::to_owned));
    if !p.command.is_empty() {
        let words: Vec<String> = p.command.iter().map(|w| basic(w)).collect();
        lines.push(format!("command = [{}]", words.join(", ")));
    }
    let mut field = |k: &str, v: &Option<String>| {
        if let Some(v) = v {
            lines.push(format!("{k} = {}", basic(v)));
        }
    };
    field("cwd", &p.cwd);
    field("started", &p.started);
    field("ended", &p.ended);
    field("exit", &p.exit);
    field("stream", &p.stream);
    field("other-stream", &p.other_stream);
    if !p.facts.is_empty() {
        lines.push(format!("facts = {}", inline_table(&p.facts)));
    }
    if !p.env.is_empty() {
        lines.push(format!("env = {}", inline_table(&p.env)));
    }
    let mut field = |k: &str, v: &Option<String>| {
        if let Some(v) = v {
            lines.push(format!("{k} = {}", basic(v)));
        }
    };
    field("original", &p.original);
    field("mtime", &p.mtime);
    field("note", &p.note);
    field("body-sha256", &p.body_sha256);
    let why = if kind == "capture" {
        "# Written by kansoku capture. stdout and stderr are kept apart, each byte\n\
         # for byte in its own file, so no marker is mixed into what the command\n\
         # printed; the order between the two streams is not kept.\n"
    } else {
        "# Written by kansoku capture --file: an existing log, copied as it was.\n"
    };
    format!("+++\n{why}{}\n+++\n", lines.join("\n"))
}

/// `NAME.txt` and `NAME.stderr.txt` for a destination `NAME.txt`.
pub(crate) fn stream_names(dest: &str) -> (String, String) {
    match dest.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() && !ext.contains('/') => {
            (dest.to_owned(), format!("{stem}.stderr.{ext}"))
        }
        _ => (dest.to_owned(), format!("{dest}.stderr")),
    }
}

/// A destination under the evidence directory `dir`: relative, without
/// `..`, naming a file. One that starts with the evidence directory's own
/// name (`evidence/host/x.txt`) is read under it, with a note (M10).
pub(crate) fn checked_dest(dest: &str, dir: &Path, notes: &mut Vec<String>) -> Result<String> {
    let bad = || {
        Error::Usage(format!(
            "--as {}: give a file path inside the evidence directory, such as `captures/ldd-ls.txt` (no `..`, not absolute, not a directory)",
            crate::terminal::escape(dest, &[])
        ))
    };
    let p = Path::new(dest);
    let inside = p
        .components()
        .all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
    let names_a_file = matches!(p.components().next_back(), Some(Component::Normal(_)))
        && !dest.ends_with('/')
        && !dest.ends_with("/.");
    if dest.is_empty() || !inside || !names_a_file {
        return Err(bad());
    }
    let normal: Vec<String> = p
        .components()
        .filter_map(|c| match c {
            Component::Normal(n) => Some(n.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect();
    let dir_parts: Vec<String> = dir
        .components()
        .filter_map(|c| match c {
            Component::Normal(n) => Some(n.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect();
    let rel = if normal.len() > dir_parts.len() && normal.starts_with(&dir_parts) {
        let rel = normal[dir_parts.len()..].join("/");
        notes.push(format!(
            "--as paths are under {}/: read `{}` as `{rel}`",
            dir.display(),
            normal.join("/")
        ));
        rel
    } else {
        normal.join("/")
    };
    Ok(rel)
}

/// The evidence directory must exist: a capture never makes it (it may
/// have been moved away, and a new one would hide that), and its absence
/// is said as such, not as a link leading out (L11).
pub(crate) fn evidence_exists(root: &Path, dir: &Path) -> Result<()> {
    if root.join(dir).is_dir() {
        return Ok(());
    }
    Err(Error::Usage(format!(
        "{}/ does not exist: create it (`mkdir {}`), or set `[evidence] dir` in book.toml to the directory that holds the evidence",
        dir.display(),
        dir.display()
    )))
}

pub(crate) fn refuse_existing(evidence: &Path, rel: &str, replace: bool, dir: &Path) -> Result<()> {
    if !replace && evidence.join(rel).symlink_metadata().is_ok() {
        return Err(Error::Usage(format!(
            "{}/{rel} exists; a capture never overwrites one: pass --replace to capture it again, or --as to name another file",
            dir.display()
        )));
    }
    Ok(())
}

/// The prefix of a capture's temporary files; the process id follows.
const TEMP_PREFIX: &str = ".kansoku-capture-";

/// Removes the temporary files under `evidence` that captures which are
/// no longer running left (a capture killed with SIGKILL cannot remove its
/// own), returning their paths from `root` for a note. One whose process
/// is alive is being written and is left alone.
pub(crate) fn remove_stale(root: &Path, evidence: &Path) -> Vec<String> {
    let mut removed = Vec::new();
    let own = std::process::id();
    for entry in walkdir::WalkDir::new(evidence)
        .follow_links(false)
        .into_iter()
        .filter_map(std::result::Result::ok)
    {
        let name = entry.file_name().to_string_lossy();
        let Some(rest) = name.strip_prefix(TEMP_PREFIX) else {
            continue;
        };
        let Some(pid) = rest.split('-').next().and_then(|p| p.parse::<u32>().ok()) else {
            continue;
        };
        if pid == own || alive(pid) || !entry.file_type().is_file() {
            continue;
        }
        if std::fs::remove_file(entry.path()).is_ok() {
            let shown = entry
                .path()
                .strip_prefix(root)
                .unwrap_or(entry.path())
                .display()
                .to_string();
            removed.push(shown);
        }
    }
    removed
}

/// Whether process `pid` is running.
#[cfg(unix)]
pub(crate) fn alive(pid: u32) -> bool {
    use rustix::process::{test_kill_process, Pid};
    let Some(pid) = i32::try_from(pid).ok().and_then(Pid::from_raw) else {
        return false;
    };
    // EPERM: it exists, run by someone else.
    !matches!(test_kill_process(pid), Err(e) if e == rustix::io::Errno::SRCH)
}

#[cfg(not(unix))]
pub(crate) fn alive(_pid: u32) -> bool {
    true
}

/// A file written under `evidence` whose final name is `rel`, not yet in
/// place: [`Pending::commit`] renames it there.
pub(crate) struct Pending {
    tmp: tempfile::NamedTempFile,
    dest: std::path::PathBuf,
    replace: bool,
    _registered: crate::site::output::Temporary,
}

/// Writes `head` then `body` to a temporary file beside `evidence/rel`,
/// made readable and synced: a reader later sees the old file or the new
/// one, never half of one.
pub(crate) fn prepare(
    evidence: &Path,
    rel: &str,
    head: &str,
    body: Option<&mut std::fs::File>,
    replace: bool,
) -> Result<Pending> {
    use std::io::Write;
    let dest = evidence.join(rel);
    let dir = dest.parent().unwrap_or(evidence);
    // A directory on the way may be a symbolic link: what is written must
    // land inside the evidence directory, not wherever a link points.
    let inside = |d: &Path| -> bool {
        let canon = |p: &Path| p.canonicalize().ok();
        match (canon(evidence), canon(d)) {
            (Some(root), Some(d)) => d.starts_with(root),
            _ => false,
        }
    };
    let mut existing = dir;
    while !existing.exists() {
        existing = existing.parent().unwrap_or(evidence);
    }
    if !inside(existing) {
        return Err(Error::Usage(format!(
            "{}: a directory on the way leads out of the evidence directory (a symbolic link); capture into a real directory under it",
            dest.display()
        )));
    }
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let mut tmp = tempfile::Builder::new()
        .prefix(&format!("{TEMP_PREFIX}{}-", std::process::id()))
        .tempfile_in(dir)
        .map_err(|e| Error::io(dir, e))?;
    let registered = crate::site::output::temporary(tmp.path().to_owned());
    tmp.write_all(head.as_bytes())
        .and_then(|()| match body {
            // In pieces: a body may be larger than memory.
            Some(body) => std::io::copy(body, tmp.as_file_mut()).map(|_| ()),
            None => Ok(()),
        })
        .and_then(|()| readable(tmp.as_file()))
        .and_then(|()| tmp.as_file().sync_all())
        .map_err(|e| Error::io(tmp.path(), e))?;
    Ok(Pending {
        tmp,
        dest,
        replace,
        _registered: registered,
    })
}

impl Pending {
    /// Renames it into place. Without `replace` the rename refuses an
    /// existing file even if one appeared since the check.
    pub(crate) fn commit(self) -> Result<()> {
        let dest = self.dest;
        let persisted = if self.replace {
            self.tmp.persist(&dest).map(|_| ())
        } else {
            self.tmp.persist_noclobber(&dest).map(|_| ())
        };
        persisted.map_err(|e| Error::io(&dest, e.error))
    }
}

/// Commits `files` together: an interruption (SIGINT, SIGTERM, SIGHUP)
/// waits for both renames or comes before either, so a capture's two
/// streams are never left one without the other by a signal.
pub(crate) fn commit_all(files: Vec<Pending>) -> Result<()> {
    let _whole = crate::site::output::commit_section();
    if crate::site::output::interrupted() {
        return Err(Error::Usage("interrupted; nothing was written".to_owned()));
    }
    for f in files {
        f.commit()?;
    }
    Ok(())
}

/// [`prepare`] and commit one file.
pub(crate) fn write_atomically(
    evidence: &Path,
    rel: &str,
    head: &str,
    body: Option<&mut std::fs::File>,
    replace: bool,
) -> Result<()> {
    commit_all(vec![prepare(evidence, rel, head, body, replace)?])
}

/// Evidence is published: a capture gets the permissions of any file the
/// user writes (a temporary file is made readable by its owner alone).
#[cfg(unix)]
fn readable(file: &std::fs::File) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    file.set_permissions(std::fs::Permissions::from_mode(0o644))
}

#[cfg(not(unix))]
fn readable(_: &std::fs::File) -> std::io::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_streams_get_two_names_and_paths_stay_inside() {
        assert_eq!(
            stream_names("captures/ldd.txt"),
            (
                "captures/ldd.txt".to_owned(),
                "captures/ldd.stderr.txt".to_owned()
            )
        );
        assert_eq!(
            stream_names("maps"),
            ("maps".to_owned(), "maps.stderr".to_owned())
        );
        let dir = Path::new("evidence");
        let mut notes = Vec::new();
        for bad in ["../x.txt", "/etc/x", ".", "./", "a/..", "runs/", ""] {
            assert!(checked_dest(bad, dir, &mut notes).is_err(), "{bad}");
        }
        assert_eq!(
            checked_dest("./a/b.txt", dir, &mut notes).expect("inside"),
            "a/b.txt"
        );
        assert!(notes.is_empty());
        assert_eq!(
            checked_dest("evidence/host/x.txt", dir, &mut notes).expect("inside"),
            "host/x.txt"
        );
        assert_eq!(notes.len(), 1);
        // A file named like the directory is a file.
        assert_eq!(
            checked_dest("evidence", dir, &mut Vec::new()).expect("a file"),
            "evidence"
        );
    }

    #[test]
    fn a_header_reads_back_as_written_whatever_its_strings_hold() {
        let p = Provenance {
            command: vec!["echo".into(), "a\n+++\nb\"c\\d\u{7f}\u{1b}".into()],
            cwd: Some(".".into()),
            note: Some("line1\n+++\nkind = \"transcript\"\n+++".into()),
            env: [("A B".to_owned(), "x".to_owned())].into_iter().collect(),
            facts: [("kernel".to_owned(), "6.1\t".to_owned())]
                .into_iter()
                .collect(),
            ..Provenance::default()
        };
        let h = header("capture", Some("s\n+++\n"), &p);
        let inner = h
            .strip_prefix("+++\n")
            .and_then(|h| h.strip_suffix("+++\n"))
            .expect("fenced");
        assert!(!inner.lines().any(|l| l.trim() == "+++"), "{h}");
        let t: toml::Table = inner.parse().expect("TOML");
        assert_eq!(
            t["command"][1].as_str(),
            Some("a\n+++\nb\"c\\d\u{7f}\u{1b}")
        );
        assert_eq!(t["note"].as_str(), p.note.as_deref());
        assert_eq!(t["source"].as_str(), Some("s\n+++\n"));
        assert_eq!(t["env"]["A B"].as_str(), Some("x"));
        assert_eq!(t["facts"]["kernel"].as_str(), Some("6.1\t"));
    }
}
