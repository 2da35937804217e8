//! Writing the output tree: the last stage of a build.
//!
//! Files are streamed into a staging directory beside the build directory
//! (from many threads, while rendering still runs); nothing in the build
//! directory changes until every file is there. Then the new tree goes in:
//!
//! - When the build directory holds only kansoku's files, the two trees
//!   are exchanged in one atomic step (`renameat2(RENAME_EXCHANGE)` on
//!   Linux; two renames elsewhere) and the previous tree is kept in
//!   `.kansoku/` as the *spare*: the next build's staging tree is the spare,
//!   updated file by file (see `spare`), so a build writes only the files
//!   that changed and no tree is made or removed whole.
//! - When it holds anything else — a file a person put there (`.git` of a
//!   gh-pages worktree, `CNAME`), or when it is a symbolic link or a mount
//!   point — it is updated in place: each file kansoku writes is renamed
//!   over its old one, files of the previous build that this one does not
//!   write are removed, and nothing else is touched.
//!
//! kansoku never removes or replaces a file it did not write. Which files
//! it wrote is recorded in a manifest in the records' directory the caller
//! names (`.kansoku/` at the site root, see `site::place`); records are
//! checked as untrusted input, and one made for another directory (the
//! site was copied or restored) counts only for the files that hold the
//! bytes it names (see `vouch`). Files it did not write are left in place,
//! silently when `[build] keep` matches them and with a warning otherwise;
//! one at a path the build writes is a conflict (`Conflicts`) unless it
//! already holds the same bytes. No removal ever follows a symbolic link.
//! One lock per build directory serialises builds, and the transient
//! directories of killed builds are removed by the next one (or, when they
//! cannot be, set aside and named).
//!
//! Creating an inode is the expensive part of writing on ext4, so a file
//! whose bytes the spare already holds is left as it is, and one whose
//! bytes equal the build directory's file at the same path is hard-linked
//! from it instead of written, each only when a manifest says that file is
//! still the one it recorded.
//!
//! This module only stores bytes it is given; it never decides what a site
//! contains.

mod clean;
mod guard;
mod identity;
mod manifest;
mod spare;
mod stage;
mod swap;
mod tree;
mod vouch;

pub(crate) use crate::glob::Keep;
pub use clean::remove;
pub(crate) use clean::remove_at;
#[cfg(target_os = "linux")]
pub(crate) use guard::adopt_orphans;
pub(crate) use guard::{child, commit_section, stop_child, temporary, Temporary};
pub use guard::{clean_up_after_interrupt, exit_cleanly_on_signals, interrupted};

/// Has an interruption of this process remove the file at `path` (the
/// archive being written beside its target), as it removes staging trees.
pub(crate) fn remove_on_interrupt(path: &Path) {
    guard::active().push(path.to_path_buf());
}

/// Undoes [`remove_on_interrupt`].
pub(crate) fn forget_on_interrupt(path: &Path) {
    guard::active().retain(|p| p != path);
}

/// Runs `f` (which moves the file at `path` away) while an interruption
/// waits, then forgets `path`: the interruption removes the file before,
/// or nothing after.
pub(crate) fn settle<R>(path: &Path, f: impl FnOnce() -> R) -> R {
    let mut active = guard::active();
    let r = f();
    active.retain(|p| p != path);
    r
}

use crate::error::{Error, Result};
use crate::render::OutputFile;
use crate::sync::lock;
use manifest::Manifest;
use stage::Placed;
use std::collections::{HashMap, HashSet};
use std::fs;
use std::io;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

/// The directory beside a build directory where kansoku keeps what it
/// needs between builds (manifests, the build lock).
pub(crate) const STATE_DIR: &str = ".kansoku";

/// A build's output being written: files go into a staging directory beside
/// the build directory until [`Staging::commit`] puts them in place. Dropped
/// without a commit, it removes the staging directory and the build
/// directory stays as it was.
#[derive(Debug)]
pub struct Staging {
    /// The build directory as named (it may be a symbolic link).
    out: PathBuf,
    /// The directory the files end up in: `out`, or where its link points.
    target: PathBuf,
    dir: PathBuf,
    manifests: manifest::Paths,
    /// The record of the build directory's files.
    previous: Manifest,
    /// The record of the spare's files, when the staging tree is the spare
    /// (see `spare`); `None` when it started empty.
    spare: Option<Manifest>,
    /// The build directory's directories found clean by a survey.
    dirs: manifest::Dirs,
    /// The spare's, when the staging tree is the spare.
    spare_dirs: manifest::Dirs,
    /// Directories of the staging tree this build changed (each with its
    /// ancestors): their recorded identity no longer holds.
    touched: Mutex<HashSet<String>>,
    keep: Keep,
    /// Parent directories already made in the staging tree (relative), so
    /// most writes cost no `mkdir`.
    made: Mutex<HashSet<String>>,
    /// Every path this build claimed, with how its file was placed once it
    /// is (`None` meanwhile): for collisions and the manifests.
    placed: Mutex<HashMap<String, Option<Placed>>>,
    /// Files kept or linked rather than written.
    reused: AtomicUsize,
    /// Cleared after a link fails for a reason other than a path clash
    /// (another filesystem, no permission): every later link would fail
    /// the same way.
    can_link: AtomicBool,
    /// Set by any failed write: the tree lacks that file, so it must not
    /// be committed even if the caller carries on.
    failed: AtomicBool,
    committed: bool,
    /// kansoku's own leftovers it could not remove, with why.
    stuck: Vec<(PathBuf, String)>,
    /// Spares that held entries kansoku did not write, moved aside.
    set_aside: Vec<(PathBuf, Vec<String>)>,
    _lock: guard::BuildLock,
}

/// What a commit did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Committed {
    /// Files in the new tree.
    pub files: usize,
    /// Whether the tree was updated in place rather than swapped.
    pub in_place: bool,
    /// Entries of the build directory kept by `[build] keep`.
    pub(crate) kept: Vec<String>,
    /// Files and empty directories kansoku did not write and no pattern
    /// keeps, left where they are (`/`-separated, under the build
    /// directory).
    pub foreign: Vec<String>,
    /// kansoku's own leftovers of earlier builds (staging trees, spares)
    /// that could not be removed, with why: named so a person can unblock
    /// them.
    pub(crate) stuck: Vec<(PathBuf, String)>,
    /// kansoku's copies of an earlier build that held entries it did not
    /// write (`/`-separated, under the copy), moved aside unused so that
    /// nothing of them is published or lost.
    pub set_aside: Vec<(PathBuf, Vec<String>)>,
}

/// The cause inside an [`Error::Io`] when two outputs claim one path (the
/// same path twice, or a file where another output needs a directory).
/// Find it with [`collision`].
#[derive(Debug)]
pub(crate) struct Collision {
    /// The clashing output path, `/`-separated and relative to the build
    /// directory.
    pub(crate) path: String,
}

impl std::fmt::Display for Collision {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("written twice in one build (two outputs claim this path)")
    }
}

impl std::error::Error for Collision {}

/// The cause inside an [`Error::Io`] on a file copied into the build
/// (a large evidence log) that no longer held the bytes it was read with:
/// it changed while the build read it. Find it with [`changed_while_read`].
#[derive(Debug)]
pub(crate) struct ChangedWhileRead {
    pub(crate) path: PathBuf,
}

impl std::fmt::Display for ChangedWhileRead {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("changed while the build read it")
    }
}

impl std::error::Error for ChangedWhileRead {}

/// The file a `ChangedWhileRead` is about, when `err` is one.
pub(crate) fn changed_while_read(err: &Error) -> Option<&Path> {
    match err {
        Error::Io { source, .. } => source
            .get_ref()
            .and_then(|e| e.downcast_ref::<ChangedWhileRead>())
            .map(|c| c.path.as_path()),
        _ => None,
    }
}

/// The output path of a `Collision`, when `err` is one.
pub fn collision(err: &Error) -> Option<&str> {
    match err {
        Error::Io { source, .. } => source
            .get_ref()
            .and_then(|e| e.downcast_ref::<Collision>())
            .map(|c| c.path.as_str()),
        _ => None,
    }
}

fn name(out: &Path) -> String {
    out.file_name()
        .map_or_else(|| "public".into(), |n| n.to_string_lossy().into_owned())
}

/// The records' directory of a build directory named on its own (by the
/// tests and [`write_atomic`]): `.kansoku/` beside it. A site's build names
/// its own (see `site::place`).
fn state_dir(out: &Path) -> PathBuf {
    out.with_file_name(STATE_DIR)
}

/// Where the memo tables of builds into `out` are kept (see
/// `site::memo`): beside its manifest in `state`, removed by `kansoku clean`.
pub(crate) fn memo_path(state: &Path, out: &Path) -> PathBuf {
    state.join(format!("{}.memo.json", name(out)))
}

/// Where the page facts and findings of builds into `out` are kept (see
/// `site::memo::validate`): beside the other memo tables.
pub(crate) fn checks_memo_path(state: &Path, out: &Path) -> PathBuf {
    state.join(format!("{}.checks.json", name(out)))
}

/// Where the search stage's memo of builds into `out` is kept (see
/// `search::Memo`): beside the other memo tables.
pub(crate) fn search_memo_path(state: &Path, out: &Path) -> PathBuf {
    state.join(format!("{}.search.json", name(out)))
}

fn manifest_paths(state: &Path, out: &Path) -> manifest::Paths {
    manifest::Paths::new(state, out, &name(out))
}

/// Refuses a records' directory that is not a directory (a file or a link
/// named `.kansoku`): kansoku would fail to make it, or write through the
/// link.
fn check_state_dir(state: &Path) -> Result<()> {
    match fs::symlink_metadata(state) {
        Ok(m) if m.is_dir() => Ok(()),
        Ok(_) => Err(Error::Usage(format!(
            "{} is not a directory; kansoku keeps its build records in a directory of that name. Move it away (nothing of kansoku's is in it) and build again",
            state.display()
        ))),
        Err(_) => Ok(()),
    }
}

/// Where the files of `out` live: `out` itself, or the directory its
/// symbolic link points to. A link to nothing, or to something that is
/// not a directory, is refused: building into it would have to create or
/// replace what someone else set up.
fn resolve(out: &Path) -> Result<PathBuf> {
    let meta = match fs::symlink_metadata(out) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(out.to_path_buf()),
        Err(e) => return Err(Error::io(out, e)),
    };
    if meta.is_dir() {
        return Ok(out.to_path_buf());
    }
    if !meta.file_type().is_symlink() {
        return Err(Error::Usage(format!(
            "{} exists and is not a directory; move it away or choose another build-dir",
            out.display()
        )));
    }
    match fs::canonicalize(out) {
        Ok(t) if t.is_dir() => Ok(t),
        Ok(t) => Err(Error::Usage(format!(
            "{} is a symbolic link to {}, which is not a directory",
            out.display(),
            t.display()
        ))),
        Err(e) => Err(Error::Usage(format!(
            "{} is a symbolic link to a directory that does not exist ({e}); create the directory it points to, or remove the link",
            out.display()
        ))),
    }
}

/// Refuses a build directory the process may not change, before anything
/// is rendered: read-only, on a read-only file system, or immutable.
#[cfg(unix)]
fn check_writable(out: &Path, target: &Path) -> Result<()> {
    use rustix::fs::{access, Access};
    if !target.exists() {
        return Ok(());
    }
    access(target, Access::WRITE_OK).map_err(|e| {
        Error::Usage(format!(
            "{} cannot be written ({}); kansoku changed nothing. Make it writable (for example `chmod -R u+w {}`) or choose another build-dir",
            out.display(),
            io::Error::from(e),
            out.display()
        ))
    })
}

#[cfg(not(unix))]
fn check_writable(_: &Path, _: &Path) -> Result<()> {
    Ok(())
}

impl Staging {
    /// Prepares an empty staging directory beside `out`, with the default
    /// `[build] keep` rule.
    pub fn begin(out: &Path) -> Result<Staging> {
        Staging::begin_keeping(out, Keep::default())
    }

    /// Takes the build directory's lock (waiting for another build into
    /// it), removes what killed builds left, prepares the staging
    /// directory beside `out` (the spare, moved there, or an empty one) and
    /// reads the records of what the previous builds wrote.
    pub(crate) fn begin_keeping(out: &Path, keep: Keep) -> Result<Staging> {
        Staging::begin_at(out, &state_dir(out), keep)
    }

    /// [`Staging::begin_keeping`] with the records kept in `state`.
    pub(crate) fn begin_at(out: &Path, state: &Path, keep: Keep) -> Result<Staging> {
        let t = std::time::Instant::now();
        let target = resolve(out)?;
        check_writable(out, &target)?;
        check_state_dir(state)?;
        let name = name(out);
        let lock_path = state.join(format!("{name}.lock"));
        let build_lock = guard::BuildLock::acquire(&lock_path, &out.display().to_string())
            .map_err(|e| Error::io(&lock_path, e))?;
        let mut stuck = guard::remove_leftovers(out, &name)?;
        let mut set_aside = Vec::new();
        stuck.extend(guard::remove_stuck_spares(state, &name));
        let dir = guard::sibling(out, &name, "staging", std::process::id());
        if fs::symlink_metadata(&dir).is_ok() {
            tree::remove_tree(&dir)
                .map_err(|e| tree::cannot_remove("an earlier build's staging tree", &dir, &e))?;
        }
        let manifests = manifest_paths(state, out);
        // A symlinked build directory is always updated in place, which
        // leaves no previous tree to keep: a spare is never used there.
        let is_link = fs::symlink_metadata(out).is_ok_and(|m| m.file_type().is_symlink());
        // Two records of ~40 bytes a file: read side by side.
        let ((mut previous, native), verdict) = rayon::join(
            || manifests.load_native(&target),
            || (!is_link).then(|| spare::check(&manifests)),
        );
        let (mut spare, mut spare_dirs) = match verdict {
            Some(spare::Verdict::Usable(m, d)) => (Some(m), d),
            Some(spare::Verdict::Foreign(found)) => {
                // Someone else's entries: kept, out of the way, and named.
                let aside = state.join(format!("{name}.spare-foreign-{}", std::process::id()));
                fs::rename(&manifests.spare_dir, &aside)
                    .map_err(|e| Error::io(&manifests.spare_dir, e))?;
                let _ = fs::remove_file(&manifests.spare);
                let _ = fs::remove_file(&manifests.spare_dirs);
                set_aside.push((aside, found));
                (None, manifest::Dirs::default())
            }
            _ => (None, manifest::Dirs::default()),
        };
        if spare.is_none() {
            if let Err(e) = spare::discard(&manifests) {
                // Moved aside, so that it stops nothing; removed by a
                // later build once it can be.
                let aside = state.join(format!("{name}.spare-stuck-{}", std::process::id()));
                fs::rename(&manifests.spare_dir, &aside).map_err(|_| {
                    tree::cannot_remove(
                        "kansoku's copy of an earlier build",
                        &manifests.spare_dir,
                        &e,
                    )
                })?;
                stuck.push((aside, e.to_string()));
            }
        }
        manifests.vouch(&mut previous, native, &target);
        let dirs = manifest::load_dirs(&manifests.dirs, &target);
        // Made (or moved from the spare) and recorded under the lock an
        // interruption takes first, so that it either finds this tree to
        // remove or exits before it is made: never between the two, which
        // left a staging tree behind.
        {
            let mut active = guard::active();
            let Some(_op) = guard::write_op() else {
                return Err(Error::Usage("the build was interrupted".into()));
            };
            if spare.is_some() && !spare::take(&manifests, &dir) {
                (spare, spare_dirs) = (None, manifest::Dirs::default());
            }
            if spare.is_none() {
                fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
            }
            active.push(dir.clone());
        }
        crate::cost::lap("write/begin", t);
        Ok(Staging {
            previous,
            spare,
            dirs,
            spare_dirs,
            touched: Mutex::new(HashSet::new()),
            manifests,
            out: out.to_path_buf(),
            target,
            dir,
            keep,
            made: Mutex::new(HashSet::new()),
            placed: Mutex::new(HashMap::new()),
            reused: AtomicUsize::new(0),
            can_link: AtomicBool::new(true),
            failed: AtomicBool::new(false),
            committed: false,
            stuck,
            set_aside,
            _lock: build_lock,
        })
    }

    /// Stores `bytes` at `path` (`/`-separated, relative), making parent
    /// directories as needed; nothing is written when the spare already
    /// holds these bytes there. Safe to call from many threads at once.
    /// After an error, [`Staging::commit`] refuses.
    pub fn write(&self, path: &str, bytes: &[u8]) -> Result<()> {
        let result = match guard::write_op() {
            None => Err(Error::Usage("the build was interrupted".into())),
            Some(_op) => self.store(path, bytes),
        };
        if result.is_err() {
            self.failed.store(true, Ordering::Relaxed);
        }
        result
    }

    /// [`Staging::write`] for a copy of the file at `from` (`size` bytes,
    /// [`crate::hash::content_hash`] `hash`), made in pieces.
    pub(crate) fn copy(&self, path: &str, from: &Path, size: u64, hash: u64) -> Result<()> {
        let result = match guard::write_op() {
            None => Err(Error::Usage("the build was interrupted".into())),
            Some(_op) => self.store_copy(path, from, size, hash),
        };
        if result.is_err() {
            self.failed.store(true, Ordering::Relaxed);
        }
        result
    }

    /// Takes the file at `path` into the staging tree without its bytes,
    /// if a record says it holds `hash` and it is still that file: the
    /// spare's (nothing to do) or the build directory's (hard-linked, as
    /// [`Staging::write`] does for equal bytes). `Ok(false)`: neither is,
    /// so the caller must render it.
    pub(crate) fn reuse(&self, path: &str, hash: u64) -> Result<bool> {
        let result = self.take(path, hash);
        if result.is_err() {
            self.failed.store(true, Ordering::Relaxed);
        }
        result
    }

    /// The bytes of a file already in the staging tree.
    pub(crate) fn read(&self, path: &str) -> Result<Vec<u8>> {
        check_path(path)?;
        let abs = self.dir.join(path);
        fs::read(&abs).map_err(|e| Error::io(&abs, e))
    }

    /// Whether [`Staging::reuse`] would find a file at `path` recorded with
    /// `hash` and unchanged since: checked for every file of a unit before
    /// any is taken, so a unit is taken whole or rendered whole.
    pub(crate) fn reusable(&self, path: &str, hash: u64) -> bool {
        check_path(path).is_ok() && self.can_take(path, hash)
    }

    /// Stops as a killed process would: the lock is released (the kernel
    /// does that on any death) but the staging tree stays, for the next
    /// build to remove. For tests of what a killed build leaves.
    #[doc(hidden)]
    pub fn abandon(mut self) {
        self.committed = true;
        guard::active().retain(|d| d != &self.dir);
    }

    /// How many files so far were taken from a previous build's tree (kept
    /// in the spare, or hard-linked) rather than written.
    pub fn linked(&self) -> usize {
        self.reused.load(Ordering::Relaxed)
    }

    /// Puts the staging tree in place of the build directory's previous
    /// contents (see the module doc for how) and records what it wrote.
    pub fn commit(mut self) -> Result<Committed> {
        if self.failed.load(Ordering::Relaxed) {
            return Err(Error::Usage(format!(
                "not replacing {}: a file of the new build could not be written",
                self.out.display()
            )));
        }
        // Held to the end: an interruption waits for the commit instead of
        // removing a tree that is half in place.
        let mut active = guard::active();
        let claimed = std::mem::take(&mut *lock(&self.placed));
        let placed: HashMap<String, Placed> = claimed
            .into_iter()
            .filter_map(|(p, f)| Some((p, f?)))
            .collect();
        let mut report = Committed {
            files: placed.len(),
            ..Committed::default()
        };
        let tops: HashSet<&str> = placed
            .keys()
            .filter_map(|p| p.split_once('/').map(|(top, _)| top))
            .collect();
        self.previous
            .settle_vouched(|p| placed.contains_key(p), |top| tops.contains(top));
        let is_link = fs::symlink_metadata(&self.out).is_ok_and(|m| m.file_type().is_symlink());
        let exists = self.target.exists();
        let t = std::time::Instant::now();
        let mut survey = if exists {
            let owned_dirs = manifest::owned_dirs(self.previous.files.keys().map(String::as_str));
            let rules = tree::Rules {
                keep: &self.keep,
                owns: &|p| self.previous.owns(p),
                owned_dir: &|d| owned_dirs.contains(d),
                known: &self.dirs,
                writable: false,
            };
            tree::survey(&self.target, &rules).map_err(|e| denied(&self.out, &self.target, e))?
        } else {
            tree::Survey::default()
        };
        let adopted = self.adopt(&placed, &mut survey.foreign)?;
        let in_place = is_link || adopted || !survey.kept.is_empty() || !survey.foreign.is_empty();
        crate::cost::lap("write/survey", t);
        let t = std::time::Instant::now();
        let swapped = if !exists {
            self.prune(&placed)?;
            self.create(&placed)?;
            true
        } else if in_place {
            false
        } else {
            self.prune(&placed)?;
            self.exchange(&placed)?
        };
        crate::cost::lap("write/swap", t);
        let t = std::time::Instant::now();
        if swapped {
            self.committed = true;
            self.record_swap(&placed, exists, &survey.clean);
        } else {
            report.in_place = true;
            self.update_in_place(&placed)?;
            self.committed = true;
            // Changed file by file: no directory's record is kept.
            let _ = fs::remove_file(&self.manifests.dirs);
            // Removing the staging tree moved the change time of every file
            // it shared with the build directory: read them all again. The
            // manifest only makes the next build faster and says which
            // files are kansoku's; the pending one already says the latter,
            // so failing to save this one costs a full write next time, not
            // a failed build.
            if let Some(dir) = manifest::dir_identity(&self.target) {
                let written: Vec<(String, u64, u64)> = placed
                    .iter()
                    .map(|(p, f)| (p.clone(), f.size, f.hash))
                    .collect();
                let entries = manifest::entries_on_disk(&self.target, &written);
                if manifest::save(&self.manifests.committed, dir, entries.into_iter()).is_ok() {
                    self.manifests.save_copy();
                    let _ = self.manifests.tidy();
                }
            }
        }
        crate::cost::lap("write/records", t);
        active.retain(|d| d != &self.dir);
        drop(active);
        report.kept = survey.kept;
        report.foreign = survey.foreign;
        report.stuck = std::mem::take(&mut self.stuck);
        report.set_aside = std::mem::take(&mut self.set_aside);
        Ok(report)
    }
}

impl Staging {
    /// Sorts out the files kansoku has no record of at paths this build
    /// writes. One that already holds exactly the bytes this build writes
    /// there (an earlier build's, whose record was lost) is taken as
    /// kansoku's: replacing it loses nothing. Any other is a person's
    /// file, and the build is refused before anything changes, naming
    /// every such file. Returns whether any was taken.
    fn adopt(&self, placed: &HashMap<String, Placed>, foreign: &mut Vec<String>) -> Result<bool> {
        let mut conflicts = Vec::new();
        let mut adopted = false;
        let placed_dirs = manifest::owned_dirs(placed.keys().map(String::as_str));
        foreign.retain(|p| {
            // An empty directory this build writes into is used, not left
            // (a link there is not a directory, and is refused later).
            if placed_dirs.contains(p.as_str())
                && fs::symlink_metadata(self.target.join(p)).is_ok_and(|m| m.is_dir())
            {
                return false;
            }
            let Some(f) = placed.get(p) else {
                return true;
            };
            let path = self.target.join(p);
            let same = tree::real_parents(&self.target, p)
                && fs::symlink_metadata(&path).is_ok_and(|m| m.is_file() && m.len() == f.size)
                && crate::hash::file_hash(&path).is_ok_and(|h| h == f.hash);
            if same {
                adopted = true;
            } else {
                conflicts.push(p.clone());
            }
            !same
        });
        if conflicts.is_empty() {
            return Ok(adopted);
        }
        conflicts.sort_unstable();
        let changed = conflicts
            .iter()
            .filter(|p| self.previous.changed.contains(*p))
            .cloned()
            .collect();
        Err(Error::io(
            &self.out,
            io::Error::new(
                io::ErrorKind::AlreadyExists,
                Conflicts {
                    paths: conflicts,
                    changed,
                },
            ),
        ))
    }
}

/// The cause inside an [`Error::Io`] when the build directory holds files
/// kansoku did not write (no record names them) at paths the build writes,
/// with other bytes: the build is refused rather than overwrite them. Find
/// it with [`conflicts`].
#[derive(Debug)]
pub(crate) struct Conflicts {
    /// The files, `/`-separated and relative to the build directory.
    pub(crate) paths: Vec<String>,
    /// Those of them that a record of another directory (a copy, a
    /// restore) names with other bytes: changed since kansoku wrote them.
    pub(crate) changed: HashSet<String>,
}

impl std::fmt::Display for Conflicts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} file{} kansoku did not write would be overwritten: {}",
            self.paths.len(),
            if self.paths.len() == 1 { "" } else { "s" },
            self.paths.join(", ")
        )
    }
}

impl std::error::Error for Conflicts {}

/// The [`Conflicts`] `err` is, if it is one.
pub(crate) fn conflicts(err: &Error) -> Option<&Conflicts> {
    match err {
        Error::Io { source, .. } => source.get_ref().and_then(|e| e.downcast_ref::<Conflicts>()),
        _ => None,
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        if !self.committed {
            let _ = tree::remove_tree(&self.dir);
            guard::active().retain(|d| d != &self.dir);
        }
    }
}

/// Writes `files` to `out`, replacing its previous contents only on success.
pub fn write_atomic(files: &[OutputFile], out: &Path) -> Result<Committed> {
    use rayon::prelude::*;
    let staging = Staging::begin(out)?;
    files
        .par_iter()
        .try_for_each(|f| staging.write(&f.path, &f.bytes))?;
    staging.commit()
}

/// An I/O error on `path` (in or under the build directory `out`), with
/// a hint when it is a permission the user can give.
pub(crate) fn denied(out: &Path, path: &Path, e: io::Error) -> Error {
    if e.kind() == io::ErrorKind::PermissionDenied {
        let dir = if path.is_dir() {
            path
        } else {
            path.parent().unwrap_or(path)
        };
        return Error::Usage(format!(
            "{}: {e}; kansoku cannot change what is in {}. Make it writable (for example `chmod -R u+w {}`) and run kansoku again",
            path.display(),
            dir.display(),
            out.display()
        ));
    }
    Error::io(path, e)
}

/// Rejects any path that could leave the staging directory or name it
/// ambiguously: empty, absolute, `.`/`..` or empty segments, backslashes.
fn check_path(path: &str) -> Result<()> {
    if plain(path) {
        Ok(())
    } else {
        Err(Error::Usage(format!(
            "output path {path:?} is not a plain relative path"
        )))
    }
}

/// Whether `path` is relative, normalised and plain: no empty, `.` or
/// `..` segment, no backslash, NUL or newline. Every path read back from a
/// record must be (see `manifest`).
pub(crate) fn plain(path: &str) -> bool {
    !path.is_empty()
        && path
            .split('/')
            .all(|s| !s.is_empty() && s != "." && s != ".." && !s.contains(['\\', '\0', '\n']))
        && Path::new(path)
            .components()
            .all(|c| matches!(c, Component::Normal(_)))
}
