//! Approvals of what `recapture` and `capture` run (issue 39): a
//! capture's command, working directory, environment names and the site
//! files its command names, and `book.toml`'s `[capture] facts`, as a
//! person approved them in `kansoku.lock`.
//!
//! An evidence header and `book.toml` can come from a stranger's pull
//! request, and so can the lock. What this module gives is exactness: an
//! approval lets run only the very command it records, and its record is
//! plain text in the lock, so approving shows up in the lock's diff as
//! the command line it lets run (and `--approvals-from REV` takes the
//! approvals from a revision a person trusts instead of the working tree).

use super::lock::{self, Lock, LockedCapture, LockedFacts, LOCK_FILE};
use crate::error::{Error, Result};
use crate::evidence::Provenance;
use sha2::Digest;
use std::collections::BTreeMap;
use std::path::{Component, Path};

/// What a recorded command line is shown as: each word shell-quoted where
/// it needs it, so that a person reads exactly the arguments that run,
/// with control and invisible characters escaped (a header must not
/// recolour the terminal or hide a word).
pub fn command_line(command: &[String]) -> String {
    let words: Vec<String> = command.iter().map(|w| shell_quoted(w)).collect();
    crate::terminal::escape(&words.join(" "), &[]).into_owned()
}

fn shell_quoted(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_@%+=:,./-".contains(c));
    if plain {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// `text` as a terminal may show it (control and invisible characters
/// escaped): paths and names from a header or `book.toml`.
pub fn shown(text: &str) -> String {
    crate::terminal::escape(text, &[]).into_owned()
}

/// `sha256:HEX` of `value` serialised as JSON (map keys sorted, as every
/// map here is a `BTreeMap`).
fn hash_of(value: &serde_json::Value) -> String {
    let digest = sha2::Sha256::digest(value.to_string().as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

fn capture_hash(c: &LockedCapture) -> String {
    hash_of(&serde_json::json!({
        "command": c.command,
        "cwd": c.cwd,
        "env": c.env,
        "files": c.files,
    }))
}

fn facts_hash(facts: &BTreeMap<String, String>) -> String {
    hash_of(&serde_json::json!({ "facts": facts }))
}

/// The lock entry approving the capture at `shown` (its path from the
/// site root) as its header `p` records it now.
pub fn entry(root: &Path, evidence_dir: &Path, shown: &str, p: &Provenance) -> LockedCapture {
    let mut c = LockedCapture {
        command: p.command.clone(),
        cwd: p.cwd.clone(),
        env: p.env.keys().cloned().collect(),
        files: named_files(root, evidence_dir, shown, p),
        hash: String::new(),
    };
    c.hash = capture_hash(&c);
    c
}

/// Why the capture at `shown` cannot be approved at all, whoever asks:
/// recapture would never run it.
pub fn unapprovable(root: &Path, p: &Provenance) -> Option<String> {
    if p.command.is_empty() {
        return Some("its header names no command".to_owned());
    }
    if p.command.iter().any(|w| w.contains(REDACTED)) {
        return Some(format!(
            "its command held a credential, recorded as {}; capture it again without the credential on the command line (pass it through a variable the command reads)",
            REDACTED
        ));
    }
    cwd_outside(root, p.cwd.as_deref())
}

/// Why the working directory `cwd` (as a header records it) is not inside
/// the site at `root`: absolute, climbing with `..`, or reached through a
/// symbolic link that leads out. `None` when inside (or gone: whether it
/// exists is asked where the command would run).
pub fn cwd_outside(root: &Path, cwd: Option<&str>) -> Option<String> {
    let cwd = cwd.unwrap_or(".");
    let shown = crate::terminal::escape(cwd, &[]).into_owned();
    let p = Path::new(cwd);
    if p.is_absolute() || p.has_root() {
        return Some(format!(
            "its working directory {shown} is outside the site: recapture runs commands only inside a copy of the site"
        ));
    }
    if p.components().any(|c| c == Component::ParentDir) {
        return Some(format!(
            "its working directory {shown} climbs out of the site with `..`"
        ));
    }
    let canon_root = root.canonicalize().ok()?;
    let canon = root.join(p).canonicalize().ok()?;
    (!canon.starts_with(&canon_root)).then(|| {
        format!("its working directory {shown} leads out of the site through a symbolic link")
    })
}

/// The regular files of the site at `root` that the command of `p` names:
/// each argument (and each word of a `sh -c` line, and what follows `=`
/// in `--opt=PATH`) that is a path to a file inside the site, from its
/// working directory. Their bytes are part of the approval: an approved
/// `sh tools/run.sh` must not run another script after a pull request
/// edits it. The capture's own files are left out (a re-run rewrites
/// them). What a command reads without naming it (make's Makefile) is
/// not covered; the README says so.
fn named_files(
    root: &Path,
    evidence_dir: &Path,
    shown: &str,
    p: &Provenance,
) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let Ok(canon_root) = root.canonicalize() else {
        return out;
    };
    let cwd = p.cwd.as_deref().unwrap_or(".");
    if cwd_outside(root, Some(cwd)).is_some() {
        return out;
    }
    let base = root.join(cwd);
    let own: Vec<String> = std::iter::once(shown.to_owned())
        .chain(
            p.other_stream
                .as_ref()
                .map(|o| format!("{}/{o}", evidence_dir.display())),
        )
        .collect();
    for word in words(&p.command) {
        let path = Path::new(&word);
        let full = if path.is_absolute() {
            path.to_owned()
        } else {
            base.join(path)
        };
        let Ok(canon) = full.canonicalize() else {
            continue;
        };
        let Ok(rel) = canon.strip_prefix(&canon_root) else {
            continue;
        };
        if !canon.is_file() {
            continue;
        }
        let rel = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/");
        if own.contains(&rel) {
            continue;
        }
        let hash = file_sha256(&canon).unwrap_or_else(|e| format!("unreadable: {e}"));
        out.insert(rel, hash);
    }
    out
}

/// The words a command line may name paths with: each argument, the
/// words of a shell line (split at blanks and shell operators, quotes
/// dropped), and the value of `--opt=VALUE`.
fn words(command: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for arg in command {
        out.push(arg.clone());
        let split = arg
            .split(|c: char| c.is_whitespace() || ";|&<>()`$".contains(c))
            .map(|w| w.trim_matches(|c| c == '"' || c == '\''))
            .filter(|w| !w.is_empty());
        for w in split {
            out.push(w.to_owned());
            if let Some((_, v)) = w.split_once('=') {
                out.push(v.to_owned());
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

fn file_sha256(path: &Path) -> std::io::Result<String> {
    let mut file = std::fs::File::open(path)?;
    let mut hasher = sha2::Sha256::new();
    std::io::copy(&mut file, &mut hasher)?;
    let hex: String = hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    Ok(format!("sha256:{hex}"))
}

/// Why the capture at `shown`, whose header records `p`, is not approved
/// by `lock` (`None`: approved exactly as it is now).
pub fn not_approved(
    root: &Path,
    evidence_dir: &Path,
    lock: Option<&Lock>,
    shown: &str,
    p: &Provenance,
) -> Option<String> {
    let Some(approved) = lock.and_then(|l| l.captures.get(shown)) else {
        return Some("it has never been approved".to_owned());
    };
    if capture_hash(approved) != approved.hash {
        return Some(format!(
            "its entry in {LOCK_FILE} does not match its own hash: it was edited by hand"
        ));
    }
    let now = entry(root, evidence_dir, shown, p);
    let mut why = Vec::new();
    if now.command != approved.command {
        why.push("its command changed since it was approved".to_owned());
    }
    if now.cwd != approved.cwd {
        why.push("its working directory changed since it was approved".to_owned());
    }
    if now.env != approved.env {
        why.push("the environment variables it records changed since it was approved".to_owned());
    }
    for (file, hash) in &now.files {
        if approved.files.get(file) != Some(hash) {
            why.push(format!(
                "the site file {} it names changed since it was approved",
                crate::terminal::escape(file, &[])
            ));
        }
    }
    for file in approved
        .files
        .keys()
        .filter(|f| !now.files.contains_key(*f))
    {
        why.push(format!(
            "the site file {} it named is gone",
            crate::terminal::escape(file, &[])
        ));
    }
    (!why.is_empty()).then(|| why.join("; "))
}

/// Why `book.toml`'s facts are not approved by `lock` (`None`: approved,
/// or there are none).
pub fn facts_not_approved(lock: Option<&Lock>, facts: &BTreeMap<String, String>) -> Option<String> {
    if facts.is_empty() {
        return None;
    }
    let Some(approved) = lock.and_then(|l| l.capture_facts.as_ref()) else {
        return Some("they have never been approved".to_owned());
    };
    if facts_hash(&approved.facts) != approved.hash {
        return Some(format!(
            "their entry in {LOCK_FILE} does not match its own hash: it was edited by hand"
        ));
    }
    (approved.facts != *facts).then(|| "they changed since they were approved".to_owned())
}

/// The facts as `name = `command``, for a message.
pub fn facts_shown(facts: &BTreeMap<String, String>) -> String {
    facts
        .iter()
        .map(|(k, v)| format!("{k} = `{}`", crate::terminal::escape(v, &[])))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The lock `kansoku.lock` at the site `root` had in git revision `rev`
/// (`None`: it had none): the approvals a pull request cannot change.
/// `rev` is given to git only after `--end-of-options`, and the file is
/// read from the commit it resolved to.
pub fn lock_at(root: &Path, rev: &str) -> Result<Option<Lock>> {
    use std::process::Command;
    if rev.starts_with('-') {
        return Err(Error::Usage(format!(
            "`{rev}` is not a git revision: it starts with `-`, which git reads as an option; name a branch, tag or commit, e.g. `--approvals-from origin/main`"
        )));
    }
    let git = |args: &[&str]| {
        Command::new("git")
            .arg("-C")
            .arg(root)
            .args(args)
            .output()
            .map_err(|e| Error::Usage(format!("cannot run git: {e}")))
    };
    let prefix = git(&["rev-parse", "--show-prefix"])?;
    if !prefix.status.success() {
        return Err(Error::Usage(format!(
            "--approvals-from {rev}: {} is not in a git repository ({})",
            root.display(),
            String::from_utf8_lossy(&prefix.stderr).trim()
        )));
    }
    let prefix = String::from_utf8_lossy(&prefix.stdout).trim().to_owned();
    let commit = git(&[
        "rev-parse",
        "--verify",
        "--quiet",
        "--end-of-options",
        &format!("{rev}^{{commit}}"),
    ])?;
    let commit = String::from_utf8_lossy(&commit.stdout).trim().to_owned();
    if commit.is_empty() || !commit.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(Error::Usage(format!(
            "`{rev}` names no commit in the git repository of {}; name a branch, tag or commit that `git log` lists, e.g. `--approvals-from origin/main`",
            root.display()
        )));
    }
    let shown = git(&["show", &format!("{commit}:{prefix}{LOCK_FILE}")])?;
    if !shown.status.success() {
        return Ok(None);
    }
    let text =
        crate::source::decode(LOCK_FILE, &shown.stdout).map_err(|d| Error::Content(vec![d]))?;
    lock::parse(&text)
        .map(Some)
        .map_err(|d| Error::Content(vec![d]))
}

/// One capture to approve, as shown before it is recorded.
#[derive(Debug, Clone)]
pub struct ToApprove {
    /// Its path from the site root.
    pub path: String,
    /// The entry to record.
    pub entry: LockedCapture,
}

/// What a person asked to approve: captures by path, all of them, the
/// host facts.
#[derive(Debug, Clone, Default)]
pub struct CaptureSelection {
    /// Captures by path (under the evidence directory, or from the root).
    pub paths: Vec<String>,
    /// Every capture of the site (dropping entries of captures gone).
    pub all: bool,
    /// `book.toml`'s `[capture] facts`.
    pub facts: bool,
}

impl CaptureSelection {
    /// Whether it names anything.
    pub fn is_empty(&self) -> bool {
        self.paths.is_empty() && !self.all && !self.facts
    }
}

/// What approving would record, for the person to read first.
#[derive(Debug, Clone, Default)]
pub struct Approval {
    /// The captures, in path order.
    pub captures: Vec<ToApprove>,
    /// Captures `--captures` found but cannot approve, with why.
    pub refused: Vec<(String, String)>,
    /// The facts, when asked for and `book.toml` has some.
    pub facts: Option<BTreeMap<String, String>>,
    /// Whether every capture was asked for (entries of captures no longer
    /// on the site are then dropped).
    all: bool,
}

/// Works out what approving `sel` on the site at `root` would record,
/// refusing a named capture that is not one or cannot be approved. Writes
/// nothing: [`Approval::record`] does, once the caller has shown it.
pub fn plan(root: &Path, sel: &CaptureSelection) -> Result<Approval> {
    let config = crate::config::Config::load(root)?;
    let (index, _) = crate::evidence::load_evidence(root, &config.evidence_dir)?;
    let dir = config.evidence_dir.display().to_string();
    let mut out = Approval {
        all: sel.all,
        ..Approval::default()
    };
    let runs = capture_runs(&index);
    let mut wanted: Vec<String> = Vec::new();
    for p in &sel.paths {
        let rel = p.strip_prefix(&format!("{dir}/")).unwrap_or(p);
        let rel = rel.trim_start_matches("./");
        let Some(file) = index.files.get(rel) else {
            return Err(Error::Usage(format!(
                "{dir}/{}: no such evidence file (give its path under {dir}/)",
                crate::terminal::escape(rel, &[])
            )));
        };
        if file.kind() != Some(crate::evidence::EvidenceKind::Capture) {
            return Err(Error::Usage(format!(
                "{dir}/{} is not a capture (its header's kind is not \"capture\"): only a capture's command is approved",
                crate::terminal::escape(rel, &[])
            )));
        }
        // A stderr file is approved as its run, named by the stdout file.
        let run = runs
            .iter()
            .find(|(r, p)| r == rel || p.other_stream.as_deref() == Some(rel))
            .map_or_else(|| rel.to_owned(), |(r, _)| r.clone());
        if !wanted.contains(&run) {
            wanted.push(run);
        }
    }
    for (rel, p) in &runs {
        if !(sel.all || wanted.contains(rel)) {
            continue;
        }
        let shown = format!("{dir}/{rel}");
        match unapprovable(root, p) {
            Some(why) if sel.all => out.refused.push((shown, why)),
            Some(why) => {
                return Err(Error::Usage(format!(
                    "{} cannot be approved: {why}",
                    crate::terminal::escape(&shown, &[])
                )))
            }
            None => out.captures.push(ToApprove {
                entry: entry(root, &config.evidence_dir, &shown, p),
                path: shown,
            }),
        }
    }
    if sel.facts && !config.capture_facts.is_empty() {
        out.facts = Some(config.capture_facts.clone());
    }
    Ok(out)
}

impl Approval {
    /// What approving records, for a person to read before it is: each
    /// capture's command line, working directory, environment names and
    /// the site files it names; then the facts' commands.
    pub fn listing(&self) -> String {
        let mut out = String::new();
        for c in &self.captures {
            let e = &c.entry;
            out.push_str(&format!("approve {}:\n", shown(&c.path)));
            out.push_str(&format!("  command: {}\n", command_line(&e.command)));
            out.push_str(&format!(
                "  cwd: {}\n",
                shown(e.cwd.as_deref().unwrap_or("."))
            ));
            if !e.env.is_empty() {
                out.push_str(&format!("  env: {}\n", shown(&e.env.join(", "))));
            }
            for file in e.files.keys() {
                out.push_str(&format!("  site file it names: {}\n", shown(file)));
            }
        }
        if let Some(facts) = &self.facts {
            out.push_str("approve the [capture] facts of book.toml:\n");
            for (name, command) in facts {
                out.push_str(&format!("  {}: {}\n", shown(name), shown(command)));
            }
        }
        out
    }

    /// Records the approval in the lock at `root` (made if missing).
    pub fn record(&self, root: &Path) -> Result<()> {
        let mut lock = lock::read(root)?.unwrap_or_default();
        lock.version = lock::VERSION;
        if self.all {
            lock.captures.clear();
        }
        for c in &self.captures {
            lock.captures.insert(c.path.clone(), c.entry.clone());
        }
        if let Some(facts) = &self.facts {
            lock.capture_facts = Some(LockedFacts {
                facts: facts.clone(),
                hash: facts_hash(facts),
            });
        }
        lock::write(root, &lock)
    }
}

/// Records the approval of one capture in the lock at `root`, made if
/// missing: `kansoku capture` does, for the command a person just typed.
pub fn record_one(root: &Path, path: &str, entry: LockedCapture) -> Result<()> {
    let mut lock = lock::read(root)?.unwrap_or_default();
    lock.version = lock::VERSION;
    lock.captures.insert(path.to_owned(), entry);
    lock::write(root, &lock)
}

/// The lock at `root`, for approvals (`None`: there is none).
pub fn read_lock(root: &Path) -> Result<Option<Lock>> {
    lock::read(root)
}

/// What a credential is recorded as, in a header's command or variables.
pub const REDACTED: &str = "<redacted>";

/// Each capture of `index` as one run: its stdout file (or the file
/// itself when its other stream is missing) and that file's provenance.
/// A stdout file and its stderr sibling are one command, run once.
pub(crate) fn capture_runs(index: &crate::evidence::EvidenceIndex) -> Vec<(String, Provenance)> {
    use crate::evidence::EvidenceKind;
    let mut runs: Vec<(String, Provenance)> = Vec::new();
    for (path, file) in &index.files {
        let Some(h) = &file.header else { continue };
        if h.kind != Some(EvidenceKind::Capture) {
            continue;
        }
        let p = &h.provenance;
        let sibling = p.stream.as_deref() == Some("stderr")
            && p.other_stream.as_ref().is_some_and(|o| {
                index
                    .files
                    .get(o)
                    .is_some_and(|f| f.kind() == Some(EvidenceKind::Capture))
            });
        let (run, prov) = match (sibling, &p.other_stream) {
            (true, Some(o)) => (
                o.clone(),
                index.files[o]
                    .header
                    .as_ref()
                    .map_or_else(|| p.clone(), |h| h.provenance.clone()),
            ),
            _ => (path.clone(), p.clone()),
        };
        if !runs.iter().any(|(r, _)| *r == run) {
            runs.push((run, prov));
        }
    }
    runs.sort_by(|a, b| a.0.cmp(&b.0));
    runs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_lines_are_shown_quoted_and_escaped() {
        let cmd = |w: &[&str]| w.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        assert_eq!(
            command_line(&cmd(&["readelf", "-d", "/bin/cat"])),
            "readelf -d /bin/cat"
        );
        assert_eq!(
            command_line(&cmd(&["sh", "-c", "echo 'a b' | wc"])),
            "sh -c 'echo '\\''a b'\\'' | wc'"
        );
        assert_eq!(command_line(&cmd(&["echo", ""])), "echo ''");
        assert!(!command_line(&cmd(&["echo", "\u{1b}[31m"])).contains('\u{1b}'));
    }

    #[test]
    fn a_hash_changes_with_every_part() {
        let base = LockedCapture {
            command: vec!["true".into()],
            cwd: Some(".".into()),
            env: vec![],
            files: BTreeMap::new(),
            hash: String::new(),
        };
        let h = capture_hash(&base);
        let mut other = base.clone();
        other.cwd = Some("content".into());
        assert_ne!(capture_hash(&other), h);
        let mut other = base.clone();
        other.env = vec!["LANG".into()];
        assert_ne!(capture_hash(&other), h);
        let mut other = base.clone();
        other.files.insert("a".into(), "sha256:0".into());
        assert_ne!(capture_hash(&other), h);
        // Not a concatenation: moving a word between fields changes it.
        let a = LockedCapture {
            command: vec!["a b".into()],
            ..base.clone()
        };
        let b = LockedCapture {
            command: vec!["a".into(), "b".into()],
            ..base
        };
        assert_ne!(capture_hash(&a), capture_hash(&b));
    }

    #[test]
    fn words_of_a_shell_line_and_options_are_read_for_paths() {
        let w = words(&[
            "sh".into(),
            "-c".into(),
            "cat 'x y'; ./run.sh --in=data.txt".into(),
        ]);
        for want in ["./run.sh", "data.txt", "--in=data.txt", "cat"] {
            assert!(w.contains(&want.to_owned()), "{want}: {w:?}");
        }
    }
}
