//! Putting a finished staging tree in place: creating the build directory,
//! exchanging it atomically, or updating it file by file (see the parent
//! module's doc for which, and why).

use super::stage::{self, How, Placed};
use super::{guard, manifest, name, tree, Staging};
use crate::error::{Error, Result};
use manifest::Entry;
use std::collections::{HashMap, HashSet};
use std::fs;
use std::io;
use std::path::Path;

impl Staging {
    /// Records, before the tree changes, every file the directory with
    /// identity `dir` may hold once the change is done.
    pub(super) fn save_pending<'a>(
        &self,
        dir: Option<manifest::DirId>,
        paths: impl Iterator<Item = (&'a str, u64, u64)>,
    ) -> Result<()> {
        let Some(dir) = dir else { return Ok(()) };
        let entries = paths.map(|(p, size, hash)| {
            (
                p,
                Entry {
                    size,
                    hash,
                    id: None,
                },
            )
        });
        manifest::save(&self.manifests.pending, dir, entries)
            .map_err(|e| Error::io(&self.manifests.pending, e))
    }

    /// Records the staging tree's files before it becomes the build
    /// directory: every identity is known (read as each file was placed,
    /// and a directory's rename changes none), so this record becomes the
    /// committed one by a rename once the tree is in place.
    fn save_complete(&self, placed: &HashMap<String, Placed>) -> Result<()> {
        let Some(dir) = manifest::dir_identity(&self.dir) else {
            return Ok(());
        };
        manifest::save(&self.manifests.pending, dir, Staging::entries(placed))
            .map_err(|e| Error::io(&self.manifests.pending, e))
    }

    /// No build directory yet: the staging tree becomes it.
    pub(super) fn create(&self, placed: &HashMap<String, Placed>) -> Result<()> {
        if let Some(parent) = self.out.parent() {
            fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
        }
        self.save_complete(placed)?;
        fs::rename(&self.dir, &self.out).map_err(|e| Error::io(&self.out, e))
    }

    /// Swaps the staging tree and the build directory in one step; the
    /// staging name then holds the previous tree. `Ok(false)` when the
    /// build directory cannot be swapped (a mount point): it must be
    /// updated in place.
    pub(super) fn exchange(&self, placed: &HashMap<String, Placed>) -> Result<bool> {
        self.save_complete(placed)?;
        match swap(&self.dir, &self.out, &name(&self.out)) {
            Ok(()) => {}
            Err(e) if swap_impossible(&e) => return Ok(false),
            Err(e) => {
                let _ = fs::remove_file(&self.manifests.pending);
                return Err(Error::Usage(format!(
                    "cannot replace {}: {e}; kansoku changed nothing in it",
                    self.out.display()
                )));
            }
        }
        Ok(true)
    }

    /// Updates the build directory file by file: every check first, so a
    /// conflict changes nothing; then stale files out, new files in.
    pub(super) fn update_in_place(&self, placed: &HashMap<String, Placed>) -> Result<()> {
        let new: HashSet<&str> = placed.keys().map(String::as_str).collect();
        let stale: Vec<&str> = {
            let mut v: Vec<&str> = self
                .previous
                .files
                .keys()
                .map(String::as_str)
                .filter(|p| !new.contains(p) && !self.keep.covers(p))
                .collect();
            v.sort_unstable();
            v
        };
        self.check_in_place(placed, &stale)?;
        let pending = self
            .previous
            .files
            .iter()
            .map(|(p, e)| (p.as_str(), e.size, e.hash))
            .chain(placed.iter().map(|(p, f)| (p.as_str(), f.size, f.hash)));
        self.save_pending(manifest::dir_identity(&self.target), pending)?;
        let fail = |what: &Path, e: io::Error| {
            Error::Usage(format!(
                "cannot update {} in place: {}: {e}; it may now mix files of this build and the previous one: fix the cause and build again",
                self.out.display(),
                what.display()
            ))
        };
        let mut parents: Vec<&str> = Vec::new();
        for p in &stale {
            // Only kansoku's own file: never one reached through a link,
            // nor a link a person put at its path.
            if !tree::real_parents(&self.target, p) {
                continue;
            }
            let path = self.target.join(p);
            match fs::symlink_metadata(&path) {
                Ok(m) if m.is_file() => fs::remove_file(&path).map_err(|e| fail(&path, e))?,
                _ => {}
            }
            if let Some((parent, _)) = p.rsplit_once('/') {
                parents.push(parent);
            }
        }
        // Directories emptied by those removals; one that will receive new
        // files is made again below.
        tree::remove_emptied(&self.target, parents.into_iter());
        let mut made: HashSet<&str> = HashSet::new();
        let mut sorted: Vec<&str> = new.iter().copied().collect();
        sorted.sort_unstable();
        for p in sorted {
            if let Some((parent, _)) = p.rsplit_once('/') {
                if made.insert(parent) {
                    let dir = self.target.join(parent);
                    fs::create_dir_all(&dir).map_err(|e| fail(&dir, e))?;
                }
            }
            if self.already_in_place(p, &placed[p]) {
                continue;
            }
            let (from, to) = (self.dir.join(p), self.target.join(p));
            match fs::rename(&from, &to) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::CrossesDevices => {
                    copy_into_place(&from, &to).map_err(|e| fail(&to, e))?
                }
                Err(e) => return Err(fail(&to, e)),
            }
        }
        let _ = tree::remove_tree(&self.dir);
        Ok(())
    }

    /// Whether the build directory already holds the file placed at `p`:
    /// the same inode, linked from it, or the same bytes kept in the spare
    /// that its own file still has. Such a file needs no move.
    fn already_in_place(&self, p: &str, f: &Placed) -> bool {
        match f.how {
            How::Linked => true,
            How::Written => false,
            How::Kept => self
                .previous
                .linkable(p, f.size, f.hash)
                .is_some_and(|(size, id)| stage::still(&self.target.join(p), size, id)),
        }
    }

    /// Everything that would make an in-place update fail or write where it
    /// must not, found before anything changes: a kept or foreign entry
    /// where the build writes, a link or file where it needs a directory.
    fn check_in_place(&self, placed: &HashMap<String, Placed>, stale: &[&str]) -> Result<()> {
        let stale: HashSet<&str> = stale.iter().copied().collect();
        let mut seen_dirs: HashSet<&str> = HashSet::new();
        let refuse = |p: &str, why: &str| {
            Err(Error::Usage(format!(
                "cannot update {} in place: {}/{p} {why}; kansoku changed nothing",
                self.out.display(),
                self.out.display()
            )))
        };
        for p in placed.keys() {
            if self.keep.covers(p) {
                return refuse(
                    p,
                    "is kept by [build] keep but this build also writes it; take it out of `keep` or stop generating it",
                );
            }
            let mut end = 0;
            while let Some(i) = p[end..].find('/') {
                let dir = &p[..end + i];
                end += i + 1;
                if !seen_dirs.insert(dir) {
                    continue;
                }
                match fs::symlink_metadata(self.target.join(dir)) {
                    Err(_) => break,
                    Ok(m) if m.is_dir() => {}
                    Ok(_) if stale.contains(dir) => break,
                    Ok(m) if m.file_type().is_symlink() => {
                        return refuse(
                            dir,
                            "is a symbolic link, and kansoku never writes through one; remove it",
                        )
                    }
                    Ok(_) => {
                        return refuse(
                            dir,
                            "is a file kansoku did not write, where this build needs a directory; move it away",
                        )
                    }
                }
            }
            if let Ok(m) = fs::symlink_metadata(self.target.join(p)) {
                if m.is_dir() {
                    return refuse(
                        p,
                        "is a directory where this build writes a file; move it away",
                    );
                }
            }
        }
        Ok(())
    }
}

/// A failure to swap that means the build directory can only be updated in
/// place: it is a mount point (EBUSY), or on another file system than its
/// staging tree (EXDEV).
fn swap_impossible(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::ResourceBusy | io::ErrorKind::CrossesDevices
    )
}

/// Exchanges `staging` and `out` atomically where the OS can: there is no
/// moment without a build directory, and `staging` then names the previous
/// tree.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn swap(staging: &Path, out: &Path, name: &str) -> io::Result<()> {
    use rustix::fs::{renameat_with, RenameFlags, CWD};
    match renameat_with(CWD, staging, CWD, out, RenameFlags::EXCHANGE) {
        Ok(()) => Ok(()),
        // A file system without exchange (some FUSE and network ones).
        Err(e) if e == rustix::io::Errno::INVAL || e == rustix::io::Errno::NOSYS => {
            swap_by_renames(staging, out, name)
        }
        Err(e) => Err(e.into()),
    }
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn swap(staging: &Path, out: &Path, name: &str) -> io::Result<()> {
    swap_by_renames(staging, out, name)
}

/// Two renames, the previous tree first moved aside. A build killed
/// between them leaves no build directory; the next build puts the
/// previous tree back before anything else (see `remove_leftovers`).
fn swap_by_renames(staging: &Path, out: &Path, name: &str) -> io::Result<()> {
    let old = guard::sibling(out, name, "old", std::process::id());
    fs::rename(out, &old)?;
    if let Err(e) = fs::rename(staging, out) {
        // Put the previous tree back so nothing is lost.
        let _ = fs::rename(&old, out);
        return Err(e);
    }
    // Where the staging tree was, the previous one now is, as after an
    // exchange.
    fs::rename(&old, staging)
}

/// Copies a file across file systems so that its new name appears whole or
/// not at all: into a temporary name beside it, then renamed.
fn copy_into_place(from: &Path, to: &Path) -> io::Result<()> {
    let tmp = stage::temporary(to);
    let copied = fs::copy(from, &tmp).and_then(|_| fs::rename(&tmp, to));
    if copied.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    copied.map(|_| ())
}
