//! `kansoku capture`: evidence recorded with its provenance.
//!
//! A capture runs a command (no shell unless asked) and writes what it
//! printed under the evidence directory, behind a header that says what a
//! reader needs to trust it: the command and its arguments, where and
//! when it ran, how it ended, the host facts the site asks for, the
//! environment variables named, and a SHA-256 of the body, which `check`
//! verifies (E019). An import does the same for a log that already exists.
//!
//! stdout and stderr are kept apart, each byte for byte in a file of its
//! own (`NAME.txt` and `NAME.stderr.txt`): no marker is mixed into what
//! the command printed, so every line a claim cites is the command's own.
//! What is lost is the order between the two streams; the header says so.
//!
//! Files are written atomically (a temporary file renamed into place), and
//! an existing file is never overwritten without `replace`.

use crate::config::Config;
use crate::error::{Error, Result};
use crate::evidence::Provenance;
use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

/// What to capture.
#[derive(Debug, Clone, Default)]
pub struct Request {
    /// The command and its arguments.
    pub command: Vec<String>,
    /// Run it through `sh -c` (the command is then one string).
    pub shell: bool,
    /// Where to write it, under the evidence directory.
    pub dest: Option<String>,
    /// A note kept in the header.
    pub note: Option<String>,
    /// Environment variables to record (by name).
    pub env: Vec<String>,
    /// Overwrite an existing file.
    pub replace: bool,
    /// Run it in this directory instead of the current one.
    pub cwd: Option<PathBuf>,
    /// The working directory to record instead of `cwd` (a recapture,
    /// run on a copy of the site, records the capture's own).
    pub record_cwd: Option<String>,
}

/// What to import.
#[derive(Debug, Clone, Default)]
pub struct Import {
    /// The log.
    pub file: PathBuf,
    /// Where it came from, in words.
    pub source: String,
    /// Where to write it, under the evidence directory.
    pub dest: Option<String>,
    /// A note kept in the header.
    pub note: Option<String>,
    /// Overwrite an existing file.
    pub replace: bool,
}

/// What a capture or import wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    /// The files written, as paths from the site root.
    pub paths: Vec<String>,
    /// How the command ended (`0`, `1`, `signal 9`); empty for an import.
    pub exit: String,
}

/// Runs `req.command` and writes its output as evidence of the site at
/// `root`. A command that fails still is a capture (its exit status is
/// recorded); one that cannot be started is an error.
pub fn capture(root: &Path, req: &Request) -> Result<Written> {
    let config = Config::load(root)?;
    let Some(program) = req.command.first() else {
        return Err(Error::Usage(
            "capture needs a command after `--`: `kansoku capture -- uname -a`".to_owned(),
        ));
    };
    let env = named_env(&req.env)?;
    let evidence = root.join(&config.evidence_dir);
    let stem = match &req.dest {
        Some(d) => checked_dest(d)?,
        None => format!("captures/{}-{}.txt", file_stem(program), stamp_now()),
    };
    let (out_rel, err_rel) = stream_names(&stem);
    for rel in [&out_rel, &err_rel] {
        refuse_existing(&evidence, rel, req.replace, &config)?;
    }
    let cwd = match &req.cwd {
        Some(d) => d.clone(),
        None => std::env::current_dir().map_err(|e| Error::io(Path::new("."), e))?,
    };
    let mut cmd = if req.shell {
        let mut c = std::process::Command::new("sh");
        c.arg("-c").arg(req.command.join(" "));
        c
    } else {
        let mut c = std::process::Command::new(program);
        c.args(&req.command[1..]);
        c
    };
    // Each stream to a file of its own, never to memory: a command may
    // print gigabytes (a trace), and the files are what the capture is.
    let spool = |what: &str| {
        tempfile::tempfile().map_err(|e| Error::Usage(format!("no temporary file for {what}: {e}")))
    };
    let (mut out_file, mut err_file) = (spool("stdout")?, spool("stderr")?);
    let clone = |f: &std::fs::File| f.try_clone().map_err(|e| Error::Usage(format!("{e}")));
    cmd.stdin(std::process::Stdio::null())
        .stdout(clone(&out_file)?)
        .stderr(clone(&err_file)?)
        .current_dir(&cwd);
    let started = now();
    let status = cmd.status().map_err(|e| {
        Error::Usage(format!(
            "could not run `{program}`: {e}; check that it is installed and on PATH{}",
            if req.shell {
                ""
            } else {
                " (pass --shell to run a shell command line)"
            }
        ))
    })?;
    let ended = now();
    let exit = match (status.code(), signal_of(&status)) {
        (Some(c), _) => c.to_string(),
        (None, Some(s)) => format!("signal {s}"),
        (None, None) => "unknown".to_owned(),
    };
    let not_text = |what: &str| {
        Error::Usage(format!(
            "`{program}` printed bytes on {what} that are not UTF-8 text; evidence is text: capture a command that prints text (e.g. pipe it through `xxd` with --shell)"
        ))
    };
    let out_sha = text_sha256(&mut out_file)?.ok_or_else(|| not_text("stdout"))?;
    let err_sha = text_sha256(&mut err_file)?.ok_or_else(|| not_text("stderr"))?;
    let err_empty = err_file.metadata().map_or(true, |m| m.len() == 0);
    let facts = host_facts(&config);
    let command = if req.shell {
        vec!["sh".to_owned(), "-c".to_owned(), req.command.join(" ")]
    } else {
        req.command.clone()
    };
    let mut written = Vec::new();
    for (rel, body, sha, stream, other) in [
        (&out_rel, &mut out_file, out_sha, "stdout", &err_rel),
        (&err_rel, &mut err_file, err_sha, "stderr", &out_rel),
    ] {
        // An empty stderr is not written: most commands print nothing
        // there, and its absence says so.
        if stream == "stderr" && err_empty {
            continue;
        }
        let provenance = Provenance {
            command: command.clone(),
            cwd: Some(
                req.record_cwd
                    .clone()
                    .unwrap_or_else(|| recorded_cwd(root, &cwd)),
            ),
            started: Some(started.clone()),
            ended: Some(ended.clone()),
            exit: Some(exit.clone()),
            stream: Some(stream.to_owned()),
            other_stream: (!err_empty).then(|| other.clone()),
            facts: facts.clone(),
            env: env.clone(),
            note: req.note.clone(),
            body_sha256: Some(sha),
            ..Provenance::default()
        };
        let header = header("capture", None, &provenance)?;
        write_atomically(&evidence, rel, &header, Some(body), req.replace)?;
        written.push(format!("{}/{rel}", config.evidence_dir.display()));
    }
    Ok(Written {
        paths: written,
        exit,
    })
}

/// Copies the log `req.file` into the evidence of the site at `root`,
/// with where it came from, its original name, modification time and hash.
pub fn import(root: &Path, req: &Import) -> Result<Written> {
    let config = Config::load(root)?;
    let evidence = root.join(&config.evidence_dir);
    let name = req
        .file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let rel = match &req.dest {
        Some(d) => checked_dest(d)?,
        None => format!("imports/{name}"),
    };
    refuse_existing(&evidence, &rel, req.replace, &config)?;
    let mut body = std::fs::File::open(&req.file).map_err(|e| Error::io(&req.file, e))?;
    let sha = text_sha256(&mut body)?.ok_or_else(|| {
        Error::Usage(format!(
            "{}: not UTF-8 text; evidence is text",
            req.file.display()
        ))
    })?;
    let mtime = std::fs::metadata(&req.file)
        .and_then(|m| m.modified())
        .ok()
        .map(rfc3339);
    let provenance = Provenance {
        original: Some(name),
        mtime,
        note: req.note.clone(),
        body_sha256: Some(sha),
        ..Provenance::default()
    };
    let header = header("import", Some(&req.source), &provenance)?;
    write_atomically(&evidence, &rel, &header, Some(&mut body), req.replace)?;
    Ok(Written {
        paths: vec![format!("{}/{rel}", config.evidence_dir.display())],
        exit: String::new(),
    })
}

/// What re-running a capture did to one claim citing it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ClaimOutcome {
    /// The claim.
    pub id: String,
    /// `unchanged`, `moved` (fixable: `check --fix`), `changed` (the
    /// claim is suspect), or `unreviewed` (no lock entry to compare with).
    pub outcome: &'static str,
    /// What `check` said of it against the new observation.
    pub finding: Option<String>,
}

/// What re-running one capture did.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Recaptured {
    /// The capture, as a path from the site root.
    pub file: String,
    /// `recaptured`, `written`, or `skipped` (it cannot be re-run here).
    pub status: &'static str,
    /// Why it was skipped, or how the command ended.
    pub detail: String,
    /// Each claim citing the file (or its other stream).
    pub claims: Vec<ClaimOutcome>,
}

/// Re-runs the captures `files` (paths under the evidence directory; all
/// of them when empty) of the site at `root` and reports, per claim citing
/// them, what the new observation did to its cited lines, through the
/// review lock: `check` runs on a copy of the site holding the new
/// output. Unless `dry_run`, the new output then replaces the old.
/// A capture that cannot be re-run here (its command missing, its working
/// directory gone, host facts that differ) is skipped and left as it was.
pub fn recapture(root: &Path, files: &[String], dry_run: bool) -> Result<Vec<Recaptured>> {
    let config = Config::load(root)?;
    let (index, _) = crate::evidence::load_evidence(root, &config.evidence_dir)?;
    let dir = config.evidence_dir.display().to_string();
    for f in files {
        let f = f.trim_start_matches(&format!("{dir}/")).to_owned();
        match index.files.get(&f).map(|e| e.kind()) {
            Some(Some(crate::evidence::EvidenceKind::Capture)) => {}
            Some(_) => {
                return Err(Error::Usage(format!(
                    "{dir}/{f} is not a capture (its header's kind is not \"capture\"); recapture re-runs what `kansoku capture` wrote"
                )))
            }
            None => return Err(Error::Usage(format!("{dir}/{f}: no such evidence file"))),
        }
    }
    let wanted = |path: &str| {
        files.is_empty()
            || files
                .iter()
                .any(|f| f.trim_start_matches(&format!("{dir}/")) == path)
    };
    // One run per command: a stdout file and its stderr sibling are one
    // capture.
    let mut runs: Vec<(String, Provenance)> = Vec::new();
    for (path, file) in &index.files {
        let Some(h) = &file.header else { continue };
        if h.kind != Some(crate::evidence::EvidenceKind::Capture) || !wanted(path) {
            continue;
        }
        let p = &h.provenance;
        let sibling_run = p.stream.as_deref() == Some("stderr")
            && p.other_stream
                .as_ref()
                .is_some_and(|o| index.files.contains_key(o));
        if sibling_run && runs.iter().any(|(r, _)| Some(r) == p.other_stream.as_ref()) {
            continue;
        }
        let stdout_path = if sibling_run {
            p.other_stream.clone().unwrap_or_else(|| path.clone())
        } else {
            path.clone()
        };
        if !runs.iter().any(|(r, _)| *r == stdout_path) {
            let prov = index
                .files
                .get(&stdout_path)
                .and_then(|f| f.header.as_ref())
                .map_or_else(|| p.clone(), |h| h.provenance.clone());
            runs.push((stdout_path, prov));
        }
    }
    let citing = citing_claims(root)?;
    let current_facts = host_facts(&config);
    let copy = tempfile::tempdir().map_err(|e| Error::io(Path::new("."), e))?;
    let tmp = copy.path().join("site");
    copy_site(root, &tmp, &config)?;
    let mut out = Vec::new();
    let mut rerun = Vec::new();
    for (path, p) in runs {
        let shown = format!("{dir}/{path}");
        let skip = |why: String| Recaptured {
            file: shown.clone(),
            status: "skipped",
            detail: why,
            claims: Vec::new(),
        };
        if let Some(why) = elsewhere(root, &p, &current_facts) {
            out.push(skip(why));
            continue;
        }
        let req = Request {
            command: p.command.clone(),
            dest: Some(path.clone()),
            note: p.note.clone(),
            env: p.env.keys().cloned().collect(),
            replace: true,
            cwd: p.cwd.as_deref().map(|c| resolved_cwd(root, c)),
            record_cwd: p.cwd.clone(),
            shell: false,
        };
        match capture(&tmp, &req) {
            Ok(w) => {
                rerun.push((shown.clone(), path.clone(), w.paths.clone()));
                out.push(Recaptured {
                    file: shown,
                    status: if dry_run { "recaptured" } else { "written" },
                    detail: format!("exit {}", w.exit),
                    claims: Vec::new(),
                });
            }
            Err(e) => out.push(skip(format!("cannot be re-run here: {e}"))),
        }
    }
    // What the review lock says of the claims against the new output.
    let report = crate::check::check(&tmp)?;
    for r in out.iter_mut().filter(|r| r.status != "skipped") {
        let Some((_, _, written)) = rerun.iter().find(|(s, _, _)| *s == r.file) else {
            continue;
        };
        let rels: Vec<String> = written
            .iter()
            .map(|w| w.trim_start_matches(&format!("{dir}/")).to_owned())
            .collect();
        let mut ids: Vec<&String> = citing
            .iter()
            .filter(|(_, paths)| paths.iter().any(|p| rels.contains(p)))
            .map(|(id, _)| id)
            .collect();
        ids.dedup();
        for id in ids {
            let named = format!("`{id}`");
            let said = |code: &str| {
                report
                    .diagnostics
                    .iter()
                    .find(|d| d.code == code && d.message.contains(&named))
                    .map(|d| d.message.clone())
            };
            let (outcome, finding) = if let Some(m) = said("E081") {
                ("changed", Some(m))
            } else if let Some(m) = said("E082") {
                ("moved", Some(m))
            } else if let Some(m) = said("W080") {
                ("unreviewed", Some(m))
            } else if let Some(m) = ["E013", "E014"].iter().find_map(|c| said(c)) {
                ("changed", Some(m))
            } else {
                ("unchanged", None)
            };
            r.claims.push(ClaimOutcome {
                id: id.clone(),
                outcome,
                finding,
            });
        }
        if !dry_run {
            for rel in &rels {
                let from = tmp.join(&config.evidence_dir).join(rel);
                let mut file = std::fs::File::open(&from).map_err(|e| Error::io(&from, e))?;
                write_atomically(
                    &root.join(&config.evidence_dir),
                    rel,
                    "",
                    Some(&mut file),
                    true,
                )?;
            }
        }
    }
    Ok(out)
}

/// `recapture`'s outcomes as `human`, `json` or `github` output. What
/// came from the site or the command is shown escaped: a log line must
/// not recolour the terminal or start a fake annotation.
pub fn report(done: &[Recaptured], format: &str) -> String {
    let esc = |s: &str| crate::terminal::escape(s, &[]).into_owned();
    let mut out = String::new();
    match format {
        "json" => {
            out.push_str(&serde_json::to_string_pretty(done).expect("outcomes serialise"));
            out.push('\n');
        }
        "github" => {
            for r in done {
                for c in r.claims.iter().filter(|c| c.outcome != "unchanged") {
                    let level = if c.outcome == "changed" {
                        "error"
                    } else {
                        "warning"
                    };
                    let finding = c
                        .finding
                        .as_deref()
                        .map(|f| format!(": {}", esc(f)))
                        .unwrap_or_default();
                    out.push_str(&format!(
                        "::{level} file={}::claim {} {} after recapture{finding}\n",
                        esc(&r.file),
                        esc(&c.id),
                        c.outcome
                    ));
                }
                if r.status == "skipped" {
                    out.push_str(&format!(
                        "::notice file={}::{}\n",
                        esc(&r.file),
                        esc(&r.detail)
                    ));
                }
            }
        }
        _ => {
            for r in done {
                out.push_str(&format!(
                    "{}: {} ({})\n",
                    esc(&r.file),
                    r.status,
                    esc(&r.detail)
                ));
                for c in &r.claims {
                    match &c.finding {
                        Some(f) => {
                            out.push_str(&format!("  {}: {} — {}\n", esc(&c.id), c.outcome, esc(f)))
                        }
                        None => out.push_str(&format!("  {}: {}\n", esc(&c.id), c.outcome)),
                    }
                }
            }
            if done.is_empty() {
                out.push_str("no capture to re-run\n");
            }
        }
    }
    out
}

/// The working directory as the header records it: relative to the site
/// root when inside it (`.`, `data`), so that a capture made in a checkout
/// re-runs in another checkout, and no path of the capturing machine is
/// published; absolute otherwise.
fn recorded_cwd(root: &Path, cwd: &Path) -> String {
    let canon = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_owned());
    match canon(cwd).strip_prefix(canon(root)) {
        Ok(rel) if rel.as_os_str().is_empty() => ".".to_owned(),
        Ok(rel) => rel.display().to_string(),
        Err(_) => cwd.display().to_string(),
    }
}

/// Where a recorded working directory is: relative ones from the site root.
fn resolved_cwd(root: &Path, cwd: &str) -> PathBuf {
    let p = Path::new(cwd);
    if p.is_absolute() {
        p.to_owned()
    } else {
        root.join(p)
    }
}

/// Why a capture made under `p` cannot be re-run here: a host fact that
/// differs, or a working directory that is gone.
fn elsewhere(root: &Path, p: &Provenance, current: &BTreeMap<String, String>) -> Option<String> {
    for (name, was) in &p.facts {
        if let Some(now) = current.get(name).filter(|now| *now != was) {
            return Some(format!(
                "recorded on another host: its {name} was `{was}`, here it is `{now}`"
            ));
        }
    }
    if let Some(cwd) = &p.cwd {
        // A capture records a directory inside the site relative to it and
        // never with `..`: a header that climbs out was not written so.
        let climbs = Path::new(cwd)
            .components()
            .any(|c| c == Component::ParentDir);
        if climbs {
            return Some(format!(
                "cannot be re-run here: its working directory {cwd} climbs out of the site with `..`, which kansoku capture never records"
            ));
        }
        if !resolved_cwd(root, cwd).is_dir() {
            return Some(format!(
                "cannot be re-run here: its working directory {cwd} does not exist"
            ));
        }
    }
    if p.command.is_empty() {
        return Some("its header names no command".to_owned());
    }
    None
}

/// Each claim's id and the evidence paths it cites, from the content as
/// written: the site may have errors (a capture written over a cited
/// line makes one), and recapture still says which claims it touched.
fn citing_claims(root: &Path) -> Result<Vec<(String, Vec<String>)>> {
    let (content, _) = crate::content::load_content(root)?;
    Ok(content
        .pages
        .iter()
        .flat_map(|p| &p.claims)
        .map(|c| {
            (
                c.id.clone(),
                c.evidence.iter().map(|l| l.path.clone()).collect(),
            )
        })
        .collect())
}

/// What `check` reads of a site: book.toml, the lock, the content, the
/// evidence and the theme.
fn copy_site(root: &Path, to: &Path, config: &Config) -> Result<()> {
    std::fs::create_dir_all(to).map_err(|e| Error::io(to, e))?;
    for name in [crate::config::CONFIG_FILE, "kansoku.lock"] {
        let from = root.join(name);
        if from.is_file() {
            std::fs::copy(&from, to.join(name)).map_err(|e| Error::io(&from, e))?;
        }
    }
    let evidence = config.evidence_dir.to_string_lossy().into_owned();
    for dir in ["content", evidence.as_str(), "templates", "static"] {
        let from = root.join(dir);
        if from.is_dir() {
            crate::fsutil::copy_tree(&from, &to.join(dir))?;
        }
    }
    Ok(())
}

/// The body as kansoku reads it back (`source::decode_owned`): lines end
/// with `\n`; the hash is of what a claim cites.
/// The SHA-256 `check` verifies of a body read from `file` (from its
/// start, in pieces: line ends `\r\n` read as `\n`, as evidence is
/// read), or `None` when it is not UTF-8. Leaves `file` at its start.
fn text_sha256(file: &mut std::fs::File) -> Result<Option<String>> {
    use std::io::{Seek, SeekFrom};
    let io = |e| Error::Usage(format!("could not read the captured output: {e}"));
    file.seek(SeekFrom::Start(0)).map_err(io)?;
    let copy = file.try_clone().map_err(io)?;
    let sha = crate::evidence::text_sha256(copy).map_err(io)?;
    file.seek(SeekFrom::Start(0)).map_err(io)?;
    Ok(sha)
}

/// The `+++` header: the kind, the source, then the provenance, with a
/// comment saying how the streams are kept.
fn header(kind: &str, source: Option<&str>, p: &Provenance) -> Result<String> {
    #[derive(serde::Serialize)]
    struct Head<'a> {
        kind: &'a str,
        #[serde(skip_serializing_if = "Option::is_none")]
        source: Option<&'a str>,
        #[serde(flatten)]
        provenance: &'a Provenance,
    }
    let toml = toml::to_string(&Head {
        kind,
        source,
        provenance: p,
    })
    .map_err(|e| Error::Usage(format!("the capture's header could not be written: {e}")))?;
    let why = if kind == "capture" {
        "# Written by kansoku capture. stdout and stderr are kept apart, each byte\n\
         # for byte in its own file, so no marker is mixed into what the command\n\
         # printed; the order between the two streams is not kept.\n"
    } else {
        "# Written by kansoku capture --file: an existing log, copied as it was.\n"
    };
    Ok(format!("+++\n{why}{toml}+++\n"))
}

/// `NAME.txt` and `NAME.stderr.txt` for a destination `NAME.txt`.
fn stream_names(dest: &str) -> (String, String) {
    match dest.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() && !ext.contains('/') => {
            (dest.to_owned(), format!("{stem}.stderr.{ext}"))
        }
        _ => (dest.to_owned(), format!("{dest}.stderr")),
    }
}

/// A destination under the evidence directory: relative, without `..`.
fn checked_dest(dest: &str) -> Result<String> {
    let p = Path::new(dest);
    let inside = p
        .components()
        .all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
    if dest.is_empty() || !inside {
        return Err(Error::Usage(format!(
            "--as {dest}: give a path inside the evidence directory, such as `captures/ldd-ls.txt` (no `..`, not absolute)"
        )));
    }
    Ok(dest.trim_start_matches("./").to_owned())
}

fn refuse_existing(evidence: &Path, rel: &str, replace: bool, config: &Config) -> Result<()> {
    if !replace && evidence.join(rel).symlink_metadata().is_ok() {
        return Err(Error::Usage(format!(
            "{}/{rel} exists; a capture never overwrites one: pass --replace to capture it again, or --as to name another file",
            config.evidence_dir.display()
        )));
    }
    Ok(())
}

/// Writes `text` to `evidence/rel` through a temporary file in the same
/// directory: a reader sees the old file or the new one, never half of
/// one. Without `replace` the rename refuses an existing file even if
/// one appeared since the check.
fn write_atomically(
    evidence: &Path,
    rel: &str,
    head: &str,
    body: Option<&mut std::fs::File>,
    replace: bool,
) -> Result<()> {
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
        .prefix(".kansoku-capture-")
        .tempfile_in(dir)
        .map_err(|e| Error::io(dir, e))?;
    tmp.write_all(head.as_bytes())
        .and_then(|()| match body {
            // In pieces: a body may be larger than memory.
            Some(body) => std::io::copy(body, tmp.as_file_mut()).map(|_| ()),
            None => Ok(()),
        })
        .and_then(|()| readable(tmp.as_file()))
        .and_then(|()| tmp.as_file().sync_all())
        .map_err(|e| Error::io(tmp.path(), e))?;
    let persisted = if replace {
        tmp.persist(&dest).map(|_| ())
    } else {
        tmp.persist_noclobber(&dest).map(|_| ())
    };
    persisted.map_err(|e| Error::io(&dest, e.error))
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

/// The values of the named variables. A name or value that looks like a
/// secret is refused: evidence is published.
fn named_env(names: &[String]) -> Result<BTreeMap<String, String>> {
    let mut out = BTreeMap::new();
    for name in names {
        if secret_name(name) {
            return Err(Error::Usage(format!(
                "--env {name}: the name looks like a secret's, and evidence is published; record only variables that say how the command ran"
            )));
        }
        let value = std::env::var(name).unwrap_or_default();
        if let Some(why) = secret_value(&value) {
            return Err(Error::Usage(format!(
                "--env {name}: its value looks like a secret ({why}), and evidence is published; unset it or leave it out"
            )));
        }
        out.insert(name.clone(), value);
    }
    Ok(out)
}

fn secret_name(name: &str) -> bool {
    let n = name.to_ascii_uppercase();
    [
        "TOKEN",
        "SECRET",
        "PASSWORD",
        "PASSWD",
        "API_KEY",
        "APIKEY",
        "PRIVATE",
        "CREDENTIAL",
        "AUTH",
        "SESSION",
        "COOKIE",
    ]
    .iter()
    .any(|s| n.contains(s))
}

/// Why `value` looks like a secret: a known token prefix, a key block, or
/// a long run of random-looking characters.
fn secret_value(value: &str) -> Option<&'static str> {
    let v = value.trim();
    let prefixes = [
        ("ghp_", "a GitHub token"),
        ("gho_", "a GitHub token"),
        ("github_pat_", "a GitHub token"),
        ("glpat-", "a GitLab token"),
        ("xoxb-", "a Slack token"),
        ("xoxp-", "a Slack token"),
        ("sk-", "an API key"),
        ("AKIA", "an AWS access key"),
        ("-----BEGIN", "a key block"),
    ];
    if let Some((_, why)) = prefixes.iter().find(|(p, _)| v.starts_with(p)) {
        return Some(why);
    }
    // A token: 32 or more characters of letters and digits (and the few
    // signs base64 and hex use), mixing letters and digits, no spaces.
    let long = v.len() >= 32
        && v.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '/' | '=' | '_' | '-'))
        && v.chars().any(|c| c.is_ascii_digit())
        && v.chars().any(|c| c.is_ascii_alphabetic())
        && !v.contains('/');
    long.then_some("a long random-looking string")
}

/// Each `[capture] facts` command's first line of output, run without a
/// shell; a fact that cannot be read says why instead.
fn host_facts(config: &Config) -> BTreeMap<String, String> {
    config
        .capture_facts
        .iter()
        .map(|(name, command)| {
            let mut words = command.split_whitespace();
            let value = match words.next() {
                None => "unavailable: no command".to_owned(),
                Some(program) => match std::process::Command::new(program)
                    .args(words)
                    .stdin(std::process::Stdio::null())
                    .output()
                {
                    Ok(o) if o.status.success() => String::from_utf8_lossy(&o.stdout)
                        .lines()
                        .next()
                        .unwrap_or("")
                        .trim()
                        .to_owned(),
                    Ok(o) => format!("unavailable: `{command}` exited with {}", o.status),
                    Err(e) => format!("unavailable: `{command}`: {e}"),
                },
            };
            (name.clone(), value)
        })
        .collect()
}

fn file_stem(program: &str) -> String {
    let base = Path::new(program)
        .file_name()
        .map_or_else(|| program.to_owned(), |n| n.to_string_lossy().into_owned());
    base.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '-'
            }
        })
        .collect()
}

fn now() -> String {
    rfc3339(std::time::SystemTime::now())
}

/// `2026-11-25T16:30:00Z`: UTC, to the second.
fn rfc3339(t: std::time::SystemTime) -> String {
    let t = time::OffsetDateTime::from(t);
    let t = t.replace_nanosecond(0).unwrap_or(t);
    t.format(&time::format_description::well_known::Rfc3339)
        .unwrap_or_else(|_| t.unix_timestamp().to_string())
}

/// `20261125T163000Z`, for a default file name.
fn stamp_now() -> String {
    now().replace(['-', ':'], "")
}

#[cfg(unix)]
fn signal_of(status: &std::process::ExitStatus) -> Option<i32> {
    use std::os::unix::process::ExitStatusExt;
    status.signal()
}

#[cfg(not(unix))]
fn signal_of(_: &std::process::ExitStatus) -> Option<i32> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_recognised_by_name_and_value() {
        assert!(secret_name("GITHUB_TOKEN"));
        assert!(secret_name("db_password"));
        assert!(!secret_name("HSA_OVERRIDE_GFX_VERSION"));
        assert_eq!(secret_value("ghp_abcdefghijklmnop"), Some("a GitHub token"));
        assert_eq!(
            secret_value("AKIAABCDEFGHIJKLMNOP"),
            Some("an AWS access key")
        );
        assert_eq!(
            secret_value("Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdo"),
            Some("a long random-looking string")
        );
        assert_eq!(secret_value("11.0.0"), None);
        assert_eq!(
            secret_value("/usr/local/lib/ollama/rocm:/opt/rocm/lib"),
            None
        );
        assert_eq!(secret_value("C.UTF-8"), None);
    }

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
        assert!(checked_dest("../x.txt").is_err());
        assert!(checked_dest("/etc/x").is_err());
        assert_eq!(checked_dest("./a/b.txt").expect("inside"), "a/b.txt");
    }
}
