//! `kansoku recapture`: observe again, and say what the new output does
//! to each claim citing it.
//!
//! What runs (issue 39, H1): only a capture whose command, working
//! directory, environment names and named site files a person approved
//! in `kansoku.lock`, exactly as its header records them now, and only
//! when `book.toml`'s host facts are approved too. If any capture asked
//! for is not approved, nothing runs at all: each is listed with its
//! command and why, and the call says so. `--dry-run` runs nothing and
//! lists what would run. Approved commands run in a scratch copy of the
//! site (book.toml, the lock, content/, the evidence, templates/,
//! static/; an evidence file over 1 MiB that no command asked for names
//! is left out, L12), in their recorded working directory inside that
//! copy, which must not lead out of it. `check` then runs on the copy;
//! `--compare` stops there, and a plain run writes the new captures into
//! the site.

use super::{approvals, host_facts, run_capture, Job, Limits};
use crate::config::Config;
use crate::error::{Error, Result};
use crate::evidence::Provenance;
use crate::review::Lock;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// What a recapture does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// Runs nothing; lists what would run.
    DryRun,
    /// Runs approved commands in a scratch copy and reports; writes
    /// nothing into the site.
    Compare,
    /// As `Compare`, then writes the new captures into the site.
    #[default]
    Write,
}

/// What to recapture, and how.
pub struct Options<'a> {
    /// Captures by path under the evidence directory (or from the root);
    /// all of them when empty.
    pub files: Vec<String>,
    /// Dry run, compare or write.
    pub mode: Mode,
    /// A git revision whose `kansoku.lock` holds the approvals to trust
    /// (a pull request cannot approve its own commands then).
    pub approvals_from: Option<String>,
    /// Each command's time and output limits.
    pub limits: Limits,
    /// Called with a line saying what runs, just before it runs: CI logs
    /// then show every command.
    pub on_run: &'a dyn Fn(&str),
}

/// What re-running a capture did to one claim citing it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ClaimOutcome {
    /// The claim.
    pub id: String,
    /// `unchanged`; `quote-holds` (its cited lines changed, every quote
    /// is still in them); `moved` (fixable: `check --fix`); `changed`
    /// (the claim is suspect); or `unreviewed` (no lock entry).
    pub outcome: &'static str,
    /// What was found of it against the new observation.
    pub finding: Option<String>,
}

/// One capture: what its header asks to run, and what came of it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Recaptured {
    /// The capture, as a path from the site root.
    pub file: String,
    /// `would run`, `would be refused`, `refused`, `not run` (another
    /// was refused), `skipped` (cannot be re-run here), `stopped` (past a
    /// limit), `compared` or `written`.
    pub status: &'static str,
    /// Why it was refused, skipped or stopped, or how the command ended.
    pub detail: String,
    /// The command as its header records it.
    pub command: Vec<String>,
    /// Its working directory as recorded.
    pub cwd: Option<String>,
    /// The environment variables it records, by name.
    pub env: Vec<String>,
    /// Each claim citing the file (or its other stream).
    pub claims: Vec<ClaimOutcome>,
    /// For a refused capture: whether approving it would let it run (as
    /// against one that can never run: a working directory out of the
    /// site, a command recorded redacted).
    #[serde(skip)]
    pub(crate) approvable: bool,
}

/// `book.toml`'s host facts and whether they may run.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Facts {
    /// `name = `command`` for each.
    pub shown: String,
    /// Why they may not run (`None`: approved).
    pub refused: Option<String>,
}

/// Everything a recapture did.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Run {
    /// What was asked.
    pub mode: Mode,
    /// Each capture, in path order.
    pub captures: Vec<Recaptured>,
    /// The host facts, when the site has some.
    pub facts: Option<Facts>,
}

impl Run {
    /// Whether something was refused (nothing then ran), or would be.
    pub fn refused(&self) -> bool {
        self.facts.as_ref().is_some_and(|f| f.refused.is_some())
            || self
                .captures
                .iter()
                .any(|c| matches!(c.status, "refused" | "would be refused"))
    }

    /// Whether a command was stopped at a limit.
    pub fn stopped(&self) -> bool {
        self.captures.iter().any(|c| c.status == "stopped")
    }

    /// Whether a claim's cited text moved or changed.
    pub fn troubled(&self) -> bool {
        self.captures
            .iter()
            .flat_map(|c| &c.claims)
            .any(|c| matches!(c.outcome, "changed" | "moved"))
    }

    /// The error to report when something was refused: who, and what to
    /// do about it.
    pub fn refusal(&self) -> Option<String> {
        if !self.refused() {
            return None;
        }
        let mut parts = Vec::new();
        let (unapproved, cannot): (Vec<&Recaptured>, Vec<&Recaptured>) = self
            .captures
            .iter()
            .filter(|c| matches!(c.status, "refused" | "would be refused"))
            .partition(|c| c.approvable);
        let names = |cs: &[&Recaptured]| {
            cs.iter()
                .map(|c| c.file.clone())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let flags = |cs: &[&Recaptured]| {
            cs.iter()
                .map(|c| format!("--capture {}", c.file))
                .collect::<Vec<_>>()
                .join(" ")
        };
        match unapproved.len() {
            0 => {}
            1 => parts.push(format!(
                "{} is not approved; read its command above, then approve it with `kansoku review --capture {}`",
                unapproved[0].file, unapproved[0].file
            )),
            n => parts.push(format!(
                "{n} captures are not approved ({}); read their commands above, then approve them with `kansoku review {}`",
                names(&unapproved),
                flags(&unapproved)
            )),
        }
        if !cannot.is_empty() {
            parts.push(format!(
                "{} cannot be run again (see why above): capture {} again from inside the site",
                names(&cannot),
                if cannot.len() == 1 { "it" } else { "them" }
            ));
        }
        if self.facts.as_ref().is_some_and(|f| f.refused.is_some()) {
            parts.push("the [capture] facts of book.toml are not approved; read them above, then approve them with `kansoku review --facts`".to_owned());
        }
        let lead = if self.mode == Mode::DryRun {
            "nothing would run"
        } else {
            "nothing was run"
        };
        Some(format!("{lead}: {}", parts.join("; ")))
    }
}

/// An evidence file this size or larger is left out of the scratch copy
/// unless a command names it or it is being recaptured (L12).
const COPY_AT_MOST: u64 = 1 << 20;

/// Recaptures what `opts` asks for on the site at `root`.
pub fn recapture(root: &Path, opts: &Options<'_>) -> Result<Run> {
    let config = Config::load(root)?;
    let (index, _) = crate::evidence::load_evidence(root, &config.evidence_dir)?;
    let dir = config.evidence_dir.display().to_string();
    let mut asked = Vec::new();
    for f in &opts.files {
        let rel = f.strip_prefix(&format!("{dir}/")).unwrap_or(f).to_owned();
        match index.files.get(&rel).map(|e| e.kind()) {
            Some(Some(crate::evidence::EvidenceKind::Capture)) => asked.push(rel),
            Some(_) => {
                return Err(Error::Usage(format!(
                    "{dir}/{rel} is not a capture (its header's kind is not \"capture\"); recapture re-runs what `kansoku capture` wrote"
                )))
            }
            None => return Err(Error::Usage(format!("{dir}/{rel}: no such evidence file"))),
        }
    }
    let runs: Vec<(String, Provenance)> = approvals::capture_runs(&index)
        .into_iter()
        .filter(|(r, p)| {
            asked.is_empty()
                || asked.contains(r)
                || p.other_stream.as_ref().is_some_and(|o| asked.contains(o))
        })
        .collect();
    let lock: Option<Lock> = match &opts.approvals_from {
        Some(rev) => approvals::lock_at(root, rev)?,
        None => approvals::read_lock(root)?,
    };
    let facts = (!config.capture_facts.is_empty()).then(|| Facts {
        shown: approvals::facts_shown(&config.capture_facts),
        refused: approvals::facts_not_approved(lock.as_ref(), &config.capture_facts),
    });
    let mut out: Vec<Recaptured> = runs
        .iter()
        .map(|(rel, p)| {
            let shown = format!("{dir}/{rel}");
            let never = approvals::unapprovable(root, p);
            let approvable = never.is_none();
            let refused = never.or_else(|| {
                approvals::not_approved(root, &config.evidence_dir, lock.as_ref(), &shown, p)
            });
            let (status, detail) = match (refused, opts.mode) {
                (Some(why), Mode::DryRun) => ("would be refused", why),
                (Some(why), _) => ("refused", why),
                (None, Mode::DryRun) => ("would run", String::new()),
                (None, _) => ("not run", String::new()),
            };
            Recaptured {
                file: shown,
                status,
                detail,
                command: p.command.clone(),
                cwd: p.cwd.clone(),
                env: p.env.keys().cloned().collect(),
                claims: Vec::new(),
                approvable,
            }
        })
        .collect();
    let mut done = Run {
        mode: opts.mode,
        captures: Vec::new(),
        facts,
    };
    if opts.mode == Mode::DryRun || out.iter().any(|c| c.status == "refused") || done.refused() {
        done.captures = out;
        return Ok(done);
    }
    // Everything asked for is approved: copy, run, check.
    let scratch = scratch_dir()?;
    let _registered = crate::site::output::temporary(scratch.path().to_owned());
    let copy = scratch.path().join("site");
    let mut keep: BTreeSet<String> = BTreeSet::new();
    for (rel, p) in &runs {
        keep.insert(format!("{dir}/{rel}"));
        if let Some(o) = &p.other_stream {
            keep.insert(format!("{dir}/{o}"));
        }
        let entry = approvals::entry(root, &config.evidence_dir, &format!("{dir}/{rel}"), p);
        keep.extend(entry.files.into_keys());
    }
    copy_site(root, &copy, &config, &keep)?;
    let current_facts = match &done.facts {
        Some(f) => {
            (opts.on_run)(&format!(
                "running the [capture] facts of book.toml: {}",
                f.shown
            ));
            host_facts(&config.capture_facts, opts.limits, &copy)
        }
        None => BTreeMap::new(),
    };
    let mut wrote: Vec<(usize, Vec<String>, Option<String>)> = Vec::new();
    for (i, (rel, p)) in runs.iter().enumerate() {
        let r = &mut out[i];
        if let Some(why) = elsewhere(&copy, p, &current_facts) {
            r.status = "skipped";
            r.detail = why;
            continue;
        }
        let cwd = p.cwd.clone().unwrap_or_else(|| ".".to_owned());
        let env = if r.env.is_empty() {
            String::new()
        } else {
            format!(", env: {}", r.env.join(", "))
        };
        (opts.on_run)(&format!(
            "running {}: {} (cwd {}{env})",
            r.file,
            approvals::command_line(&p.command),
            crate::terminal::escape(&cwd, &[])
        ));
        let job = Job {
            command: &p.command,
            run_in: &copy.join(&cwd),
            recorded_cwd: cwd.clone(),
            dest: rel,
            note: p.note.clone(),
            env: &r.env,
            replace: true,
            facts: &current_facts,
            limits: opts.limits,
        };
        let (_, err_rel) = super::write::stream_names(rel);
        let own_sibling = p.other_stream.as_deref() == Some(err_rel.as_str());
        // A file at the stderr name that is not this capture's own is a
        // person's (L9): the copy may be written over, the site never.
        let foreign = !own_sibling
            && root
                .join(&config.evidence_dir)
                .join(&err_rel)
                .symlink_metadata()
                .is_ok();
        let mut notes = Vec::new();
        let result = run_capture(&copy, &config, &job, &mut notes);
        if crate::site::output::interrupted() {
            return Err(Error::Usage("interrupted; nothing was written".to_owned()));
        }
        match result {
            Ok(d) if d.stderr && foreign => {
                r.status = "skipped";
                r.detail = format!(
                    "would overwrite {dir}/{err_rel}, which is not this capture's other stream: move that file away, or capture again with --as"
                );
            }
            Ok(d) => {
                let gone = (own_sibling && !d.stderr).then(|| err_rel.clone());
                if let Some(g) = &gone {
                    let _ = std::fs::remove_file(copy.join(&config.evidence_dir).join(g));
                }
                r.status = if opts.mode == Mode::Compare {
                    "compared"
                } else {
                    "written"
                };
                r.detail = format!("exit {}", d.exit);
                let rels = d
                    .paths
                    .iter()
                    .map(|w| w.trim_start_matches(&format!("{dir}/")).to_owned())
                    .collect();
                wrote.push((i, rels, gone));
            }
            Err(e) if e.to_string().contains("and was stopped") => {
                r.status = "stopped";
                r.detail = e.to_string();
            }
            Err(e) => {
                r.status = "skipped";
                r.detail = format!("cannot be re-run here: {e}");
            }
        }
    }
    // What the review lock says of the claims against the new output.
    let report = crate::check::check(&copy)?;
    let (content, _) = crate::content::load_content(&copy)?;
    for (i, rels, _) in &wrote {
        out[*i].claims = outcomes(&content, &report.diagnostics, rels, &dir);
    }
    if opts.mode == Mode::Write {
        let evidence = root.join(&config.evidence_dir);
        for (_, rels, gone) in &wrote {
            let mut pending = Vec::new();
            for rel in rels {
                let from = copy.join(&config.evidence_dir).join(rel);
                let mut file = std::fs::File::open(&from).map_err(|e| Error::io(&from, e))?;
                pending.push(super::write::prepare(
                    &evidence,
                    rel,
                    "",
                    Some(&mut file),
                    true,
                )?);
            }
            super::write::commit_all(pending)?;
            if let Some(g) = gone {
                let path = evidence.join(g);
                std::fs::remove_file(&path).map_err(|e| Error::io(&path, e))?;
            }
        }
    }
    done.captures = out;
    Ok(done)
}

/// The prefix of a scratch copy's directory; the process id follows.
const SCRATCH_PREFIX: &str = "kansoku-recapture-";

/// A scratch directory in the temporary directory, named after this
/// process, after removing those of recaptures that are no longer
/// running (killed with SIGKILL, which no handler sees).
fn scratch_dir() -> Result<tempfile::TempDir> {
    let tmp = std::env::temp_dir();
    if let Ok(entries) = std::fs::read_dir(&tmp) {
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let Some(pid) = name
                .strip_prefix(SCRATCH_PREFIX)
                .and_then(|r| r.split('-').next())
                .and_then(|p| p.parse::<u32>().ok())
            else {
                continue;
            };
            let dir = entry.file_type().is_ok_and(|t| t.is_dir());
            if dir && pid != std::process::id() && !super::write::alive(pid) {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
    }
    tempfile::Builder::new()
        .prefix(&format!("{SCRATCH_PREFIX}{}-", std::process::id()))
        .tempdir()
        .map_err(|e| Error::io(&tmp, e))
}

/// Why a capture made under `p` cannot be re-run here, in the copy at
/// `copy`: a host fact that differs, or a working directory the copy does
/// not hold.
fn elsewhere(copy: &Path, p: &Provenance, current: &BTreeMap<String, String>) -> Option<String> {
    for (name, was) in &p.facts {
        if let Some(now) = current.get(name).filter(|now| *now != was) {
            return Some(format!(
                "recorded on another host: its {name} was `{was}`, here it is `{now}`"
            ));
        }
    }
    let cwd = p.cwd.as_deref().unwrap_or(".");
    let shown = crate::terminal::escape(cwd, &[]);
    if !copy.join(cwd).is_dir() {
        return Some(format!(
            "cannot be re-run here: its working directory {shown} does not exist in the site (recapture runs commands in a copy of book.toml, kansoku.lock, content/, the evidence, templates/ and static/)"
        ));
    }
    // The copy holds no symbolic links; this is the last word on it.
    approvals::cwd_outside(copy, Some(cwd))
}

/// Per claim citing any of `rels` (paths under the evidence directory),
/// what `check` of the copy found at its links into them. A claim whose
/// cited lines changed but whose quote is still in them holds (M9: `ldd`
/// prints load addresses that move on every run).
fn outcomes(
    content: &crate::content::Content,
    diags: &[crate::error::Diagnostic],
    rels: &[String],
    dir: &str,
) -> Vec<ClaimOutcome> {
    let rank = |o: &str| match o {
        "changed" => 4,
        "moved" => 3,
        "quote-holds" => 2,
        "unreviewed" => 1,
        _ => 0,
    };
    let mut out = Vec::new();
    for page in &content.pages {
        for c in &page.claims {
            let links: Vec<_> = c
                .evidence
                .iter()
                .filter(|l| rels.contains(&l.path))
                .collect();
            if links.is_empty() || out.iter().any(|o: &ClaimOutcome| o.id == c.id) {
                continue;
            }
            let unreviewed = diags
                .iter()
                .find(|d| d.code == "W080" && d.claim() == Some(c.id.as_str()));
            let mut worst = match unreviewed {
                Some(d) => ("unreviewed", Some(d.message.clone())),
                None => ("unchanged", None),
            };
            for l in links {
                let (a, b) = (
                    page.src.location(l.span.start),
                    page.src.location(l.span.end),
                );
                let at: Vec<&crate::error::Diagnostic> = diags
                    .iter()
                    .filter(|d| d.location.path == a.path && a <= d.location && d.location <= b)
                    .collect();
                let said = |codes: &[&str]| {
                    at.iter()
                        .find(|d| codes.contains(&d.code))
                        .map(|d| d.message.clone())
                };
                let this = if let Some(m) = said(&["E012", "E013", "E014", "E015"]) {
                    ("changed", Some(m))
                } else if let Some(m) = said(&["E082"]) {
                    ("moved", Some(m))
                } else if let Some(m) = said(&["E081"]) {
                    match &l.quote {
                        Some(q) => (
                            "quote-holds",
                            Some(format!(
                                "the lines `{dir}/{}` cites changed, but its quote \"{}\" is still in them",
                                l.label(),
                                crate::terminal::escape(q, &[])
                            )),
                        ),
                        None => ("changed", Some(m)),
                    }
                } else {
                    ("unchanged", None)
                };
                if rank(this.0) > rank(worst.0) {
                    worst = this;
                }
            }
            out.push(ClaimOutcome {
                id: c.id.clone(),
                outcome: worst.0,
                finding: worst.1,
            });
        }
    }
    out
}

/// What `check` reads of a site, into `to`: book.toml, the lock, content/,
/// templates/, static/ and the evidence, except evidence files over
/// [`COPY_AT_MOST`] that are not in `keep` (paths from the root). Symbolic
/// links are not copied: in the evidence, a file one names inside the
/// site is copied as a file, once however many links name it (the others
/// are hard links to that copy); elsewhere kansoku skips links (W060), so
/// the copy leaves them out, and with them whatever large file they name.
/// Nothing in the copy leads out of it.
fn copy_site(root: &Path, to: &Path, config: &Config, keep: &BTreeSet<String>) -> Result<()> {
    std::fs::create_dir_all(to).map_err(|e| Error::io(to, e))?;
    for name in [crate::config::CONFIG_FILE, crate::review::LOCK_FILE] {
        let from = root.join(name);
        if from.is_file() {
            std::fs::copy(&from, to.join(name)).map_err(|e| Error::io(&from, e))?;
        }
    }
    let canon_root = root.canonicalize().map_err(|e| Error::io(root, e))?;
    // Each file copied, by where it really is: a pull request's thousand
    // links to one log take the room of one copy.
    let mut copied: std::collections::HashMap<PathBuf, PathBuf> = std::collections::HashMap::new();
    let evidence = config.evidence_dir.clone();
    let trees: Vec<PathBuf> = ["content", "templates", "static"]
        .iter()
        .map(PathBuf::from)
        .chain(std::iter::once(evidence.clone()))
        .collect();
    for tree in trees {
        let from = root.join(&tree);
        if !from.is_dir() {
            continue;
        }
        let is_evidence = tree == evidence;
        for entry in walkdir::WalkDir::new(&from).follow_links(false) {
            let entry = entry.map_err(|e| {
                let p = e.path().unwrap_or(&from).to_owned();
                Error::io(&p, e.into())
            })?;
            let rel = entry.path().strip_prefix(root).unwrap_or(entry.path());
            let dest = to.join(rel);
            let ft = entry.file_type();
            if ft.is_dir() {
                std::fs::create_dir_all(&dest).map_err(|e| Error::io(&dest, e))?;
                continue;
            }
            if ft.is_symlink() && !is_evidence {
                continue;
            }
            let target = match entry.path().canonicalize() {
                Ok(t) if t.starts_with(&canon_root) && t.is_file() => t,
                _ => continue,
            };
            let shown = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/");
            let size = std::fs::metadata(&target).map_or(0, |m| m.len());
            if is_evidence && size > COPY_AT_MOST && !keep.contains(&shown) {
                continue;
            }
            if let Some(first) = copied.get(&target) {
                if std::fs::hard_link(first, &dest).is_ok() {
                    continue;
                }
            }
            std::fs::copy(&target, &dest).map_err(|e| Error::io(&target, e))?;
            copied.entry(target).or_insert(dest);
        }
    }
    Ok(())
}
