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
//! What runs (issue 39): the command a person types runs, that being its
//! approval, which the capture records in `kansoku.lock` for `recapture`;
//! `book.toml`'s `[capture] facts` run only once approved there
//! (`kansoku review --facts`). The command runs within a time limit and a
//! limit on its output ([`run`]); credentials in what is recorded are left
//! out ([`secret`]). Files are written atomically (a temporary file
//! renamed into place), and an existing file is never overwritten without
//! `replace`.

mod recapture;
mod report;
mod run;
mod secret;
mod write;

pub use recapture::{recapture, ClaimOutcome, Mode, Options, Recaptured, Run};
pub use report::report;
pub use run::{parse_duration, parse_size, Limits, DEFAULT_MAX_OUTPUT, DEFAULT_TIMEOUT};

use crate::config::Config;
use crate::error::{Error, Result};
use crate::evidence::Provenance;
use crate::review::captures::{self as approvals, REDACTED};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

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
    /// Record no host facts (`--no-facts`): for when `book.toml`'s are
    /// not approved, or not wanted.
    pub no_facts: bool,
    /// How long it may run and how much it may print.
    pub limits: Limits,
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
    /// What the person should know: what was left out as a credential, a
    /// path read another way, stale files removed, the approval recorded.
    pub notes: Vec<String>,
}

/// Runs `req.command` and writes its output as evidence of the site at
/// `root`, then records in `kansoku.lock` that its command is approved
/// for `recapture` (the person typed it). A command that fails still is
/// a capture (its exit status is recorded); one that cannot be started,
/// runs past its time limit or prints past its output limit is an error,
/// and nothing is written. `book.toml`'s host facts run only once
/// approved; unapproved, the capture is refused (or made without them,
/// `no_facts`).
pub fn capture(root: &Path, req: &Request) -> Result<Written> {
    let config = Config::load(root)?;
    if req.command.is_empty() {
        return Err(Error::Usage(
            "capture needs a command after `--`: `kansoku capture -- uname -a`".to_owned(),
        ));
    }
    if req.shell && req.command.len() > 1 {
        return Err(Error::Usage(format!(
            "--shell runs one shell command line, and {} arguments were given: pass the whole line as one argument, quoted (`kansoku capture --shell -- 'grep rocm /proc/1/maps | head'`), or drop --shell to run the command without a shell",
            req.command.len()
        )));
    }
    write::evidence_exists(root, &config.evidence_dir)?;
    let mut notes = Vec::new();
    let facts = if req.no_facts {
        BTreeMap::new()
    } else {
        let lock = if config.capture_facts.is_empty() {
            None
        } else {
            approvals::read_lock(root)?
        };
        if approvals::facts_not_approved(lock.as_ref(), &config.capture_facts).is_some() {
            return Err(Error::Usage(format!(
                "the [capture] facts of book.toml are not approved, so none was run and nothing was captured: {}; read them, then approve them with `kansoku review --facts` (or capture without host facts: --no-facts)",
                approvals::facts_shown(&config.capture_facts)
            )));
        }
        host_facts(
            &config.capture_facts,
            req.limits,
            req.cwd.as_deref().unwrap_or(Path::new(".")),
        )
    };
    let command = if req.shell {
        vec!["sh".to_owned(), "-c".to_owned(), req.command.join(" ")]
    } else {
        req.command.clone()
    };
    let cwd = match &req.cwd {
        Some(d) => d.clone(),
        None => std::env::current_dir().map_err(|e| Error::io(Path::new("."), e))?,
    };
    let stem = match &req.dest {
        Some(d) => write::checked_dest(d, &config.evidence_dir, &mut notes)?,
        None => format!(
            "captures/{}-{}.txt",
            file_stem(&req.command[0]),
            stamp_now()
        ),
    };
    // What the person approves by typing it: the command as recorded,
    // where it runs, the variables it records and the site files it
    // names as they are now, before it runs (it may change them).
    let (out_rel, err_rel) = write::stream_names(&stem);
    let shown = format!("{}/{out_rel}", config.evidence_dir.display());
    let typed = Provenance {
        command: secret::screen_command(&command).0,
        cwd: Some(recorded_cwd(root, &cwd)),
        env: req.env.iter().map(|n| (n.clone(), String::new())).collect(),
        other_stream: Some(err_rel),
        ..Provenance::default()
    };
    let approval = match approvals::unapprovable(root, &typed) {
        Some(why) => Err(why),
        None => Ok(approvals::entry(root, &config.evidence_dir, &shown, &typed)),
    };
    let job = Job {
        command: &command,
        run_in: &cwd,
        recorded_cwd: recorded_cwd(root, &cwd),
        dest: &stem,
        note: req.note.clone(),
        env: &req.env,
        replace: req.replace,
        facts: &facts,
        limits: req.limits,
    };
    let done = run_capture(root, &config, &job, &mut notes)?;
    // The person typed this command: that is its approval, recorded so
    // that `recapture` may run it again (and shown in the lock's diff).
    match approval {
        // A credential on the command line is said once, where it was
        // screened, with the fix.
        Err(_) if typed.command.iter().any(|w| w.contains(REDACTED)) => {}
        Err(why) => notes.push(format!("recapture cannot run it again: {why}")),
        Ok(entry) => match approvals::record_one(root, &shown, entry) {
            Ok(()) => notes.push(format!(
                "approved its command for `kansoku recapture` in {} ([captures.\"{shown}\"]); commit it with the capture",
                crate::review::LOCK_FILE
            )),
            Err(e) => notes.push(format!("its command was not approved for recapture: {e}")),
        },
    }
    Ok(Written {
        paths: done.paths,
        exit: done.exit,
        notes,
    })
}

/// One run of a command, as `capture` and `recapture` ask for it.
pub(crate) struct Job<'a> {
    /// The command as it runs (a shell line already as `sh -c LINE`).
    command: &'a [String],
    /// Where it runs.
    run_in: &'a Path,
    /// The working directory its header records.
    recorded_cwd: String,
    /// Where it goes, under the evidence directory.
    dest: &'a str,
    note: Option<String>,
    env: &'a [String],
    replace: bool,
    /// The host facts to record, already run.
    facts: &'a BTreeMap<String, String>,
    limits: Limits,
}

/// What one run wrote.
pub(crate) struct Done {
    /// Paths from the site root.
    paths: Vec<String>,
    exit: String,
    /// Whether the command printed on stderr (its file was written).
    stderr: bool,
}

/// Runs `job` within its limits and writes its streams under the evidence
/// directory of the site at `root` (the real site, or recapture's copy).
fn run_capture(
    root: &Path,
    config: &Config,
    job: &Job<'_>,
    notes: &mut Vec<String>,
) -> Result<Done> {
    let evidence = root.join(&config.evidence_dir);
    for stale in write::remove_stale(root, &evidence) {
        notes.push(format!(
            "removed {stale}, left by a capture that was stopped"
        ));
    }
    let (out_rel, err_rel) = write::stream_names(job.dest);
    for rel in [&out_rel, &err_rel] {
        write::refuse_existing(&evidence, rel, job.replace, &config.evidence_dir)?;
    }
    let env = named_env(job.env, notes);
    let (recorded, left_out) = secret::screen_command(job.command);
    if !left_out.is_empty() {
        let mut kinds = left_out.clone();
        kinds.dedup();
        notes.push(format!(
            "the command line was recorded with {} credential{} as {REDACTED} ({}): evidence is published; recapture cannot run it again, so capture it again without the credential on the command line (pass it through a variable the command reads)",
            left_out.len(),
            if left_out.len() == 1 { "" } else { "s" },
            kinds.join(", ")
        ));
    }
    let (program, args) = job
        .command
        .split_first()
        .ok_or_else(|| Error::Usage("a capture needs a command".to_owned()))?;
    let mut cmd = std::process::Command::new(program);
    cmd.args(args).current_dir(job.run_in);
    let started = now();
    let mut ran = run::run(cmd, &approvals::command_line(&recorded), job.limits).map_err(|e| {
        match e {
            // A command line typed as one word does not start without a
            // shell: say how to run it.
            Error::Usage(m) if m.starts_with("could not run") && program != "sh" => {
                Error::Usage(format!("{m} (pass --shell to run a shell command line)"))
            }
            other => other,
        }
    })?;
    let ended = now();
    let not_text = |what: &str| {
        Error::Usage(format!(
            "`{}` printed bytes on {what} that are not UTF-8 text; evidence is text: capture a command that prints text (e.g. pipe it through `xxd` with --shell)",
            approvals::command_line(&recorded)
        ))
    };
    let out_sha = text_sha256(&mut ran.out)?.ok_or_else(|| not_text("stdout"))?;
    let err_sha = text_sha256(&mut ran.err)?.ok_or_else(|| not_text("stderr"))?;
    let err_empty = ran.err.metadata().map_or(true, |m| m.len() == 0);
    let mut pending = Vec::new();
    let mut paths = Vec::new();
    for (rel, body, sha, stream, other) in [
        (&out_rel, &mut ran.out, out_sha, "stdout", &err_rel),
        (&err_rel, &mut ran.err, err_sha, "stderr", &out_rel),
    ] {
        // An empty stderr is not written: most commands print nothing
        // there, and its absence says so.
        if stream == "stderr" && err_empty {
            continue;
        }
        let provenance = Provenance {
            command: recorded.clone(),
            cwd: Some(job.recorded_cwd.clone()),
            started: Some(started.clone()),
            ended: Some(ended.clone()),
            exit: Some(ran.exit.clone()),
            stream: Some(stream.to_owned()),
            other_stream: (!err_empty).then(|| other.clone()),
            facts: job.facts.clone(),
            env: env.clone(),
            note: job.note.clone(),
            body_sha256: Some(sha),
            ..Provenance::default()
        };
        let head = write::header("capture", None, &provenance);
        pending.push(write::prepare(
            &evidence,
            rel,
            &head,
            Some(body),
            job.replace,
        )?);
        paths.push(format!("{}/{rel}", config.evidence_dir.display()));
    }
    write::commit_all(pending)?;
    Ok(Done {
        paths,
        exit: ran.exit,
        stderr: !err_empty,
    })
}

/// Copies the log `req.file` into the evidence of the site at `root`,
/// with where it came from, its original name, modification time and hash.
/// Only a regular file is read: a FIFO would never end, a device never
/// stop (L7).
pub fn import(root: &Path, req: &Import) -> Result<Written> {
    let config = Config::load(root)?;
    write::evidence_exists(root, &config.evidence_dir)?;
    let mut notes = Vec::new();
    let evidence = root.join(&config.evidence_dir);
    let name = req
        .file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let rel = match &req.dest {
        Some(d) => write::checked_dest(d, &config.evidence_dir, &mut notes)?,
        None => format!("imports/{name}"),
    };
    write::refuse_existing(&evidence, &rel, req.replace, &config.evidence_dir)?;
    let not_regular = || {
        Error::Usage(format!(
            "capture --file {}: not a regular file; give the path of a log file (save what a pipe or a device gives to a file first, or capture the command that prints it)",
            req.file.display()
        ))
    };
    let (mut body, meta) = crate::fsutil::open_regular(&req.file)
        .map_err(|e| Error::io(&req.file, e))?
        .ok_or_else(not_regular)?;
    let sha = text_sha256(&mut body)?.ok_or_else(|| {
        Error::Usage(format!(
            "{}: not UTF-8 text; evidence is text",
            req.file.display()
        ))
    })?;
    let provenance = Provenance {
        original: Some(name),
        mtime: meta.modified().ok().map(rfc3339),
        note: req.note.clone(),
        body_sha256: Some(sha),
        ..Provenance::default()
    };
    let head = write::header("import", Some(&req.source), &provenance);
    write::write_atomically(&evidence, &rel, &head, Some(&mut body), req.replace)?;
    Ok(Written {
        paths: vec![format!("{}/{rel}", config.evidence_dir.display())],
        exit: String::new(),
        notes,
    })
}

/// The working directory as the header records it: relative to the site
/// root when inside it (`.`, `data`), so that a capture made in a checkout
/// re-runs in another checkout, and no path of the capturing machine is
/// published; absolute otherwise.
fn recorded_cwd(root: &Path, cwd: &Path) -> String {
    let canon = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_owned());
    match canon(cwd).strip_prefix(canon(root)) {
        Ok(rel) if rel.as_os_str().is_empty() => ".".to_owned(),
        Ok(rel) => rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/"),
        Err(_) => cwd.display().to_string(),
    }
}

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

/// The values of the named variables, each screened: a name or value
/// that looks like a credential is recorded as `<redacted>`, and a note
/// says so (evidence is published).
fn named_env(names: &[String], notes: &mut Vec<String>) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for name in names {
        let value = std::env::var(name).unwrap_or_default();
        let why = secret::secret_name(name).map(str::to_owned).or_else(|| {
            secret::secret_value(&value).map(|w| format!("its value looks like a secret ({w})"))
        });
        match why {
            Some(why) => {
                notes.push(format!(
                    "--env {name} recorded as {REDACTED}: {why}, and evidence is published"
                ));
                out.insert(name.clone(), REDACTED.to_owned());
            }
            None => {
                out.insert(name.clone(), value);
            }
        }
    }
    out
}

/// Each `[capture] facts` command's first line of output, run without a
/// shell within `limits` (output kept to 1 MiB); a fact that cannot be
/// read says why instead. Only ever called with facts a person approved.
fn host_facts(
    facts: &BTreeMap<String, String>,
    limits: Limits,
    dir: &Path,
) -> BTreeMap<String, String> {
    let limits = Limits {
        max_output: limits.max_output.min(1 << 20),
        ..limits
    };
    facts
        .iter()
        .map(|(name, command)| {
            let words: Vec<String> = command.split_whitespace().map(str::to_owned).collect();
            let value = match words.split_first() {
                None => "unavailable: no command".to_owned(),
                Some((program, args)) => {
                    let mut cmd = std::process::Command::new(program);
                    cmd.args(args).current_dir(dir);
                    match run::run(cmd, &approvals::command_line(&words), limits) {
                        Ok(mut ran) if ran.exit == "0" => {
                            let mut text = String::new();
                            let _ = std::io::Read::read_to_string(&mut ran.out, &mut text);
                            text.lines().next().unwrap_or("").trim().to_owned()
                        }
                        Ok(ran) => format!("unavailable: `{command}` exited with {}", ran.exit),
                        Err(e) => format!("unavailable: {e}"),
                    }
                }
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
