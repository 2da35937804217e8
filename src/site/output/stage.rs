//! Putting one file into the staging tree: kept from the spare when it
//! already holds the bytes, hard-linked from the build directory when its
//! file does, written otherwise.
//!
//! The staging tree may be the spare (the tree two builds old, see
//! `spare`), whose files are hard links shared with the build directory's:
//! a file there is never written into, only replaced by a new name renamed
//! over it, so the published site cannot change before the commit.

use super::{check_path, guard, manifest, Collision, Staging};
use crate::error::{Error, Result};
use crate::hash::content_hash;
use crate::sync::lock;
use manifest::Id;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;

/// How a file came into the staging tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum How {
    /// Already in the spare with these bytes: nothing was done.
    Kept,
    /// Hard-linked from the build directory's file.
    Linked,
    /// Written from its bytes.
    Written,
}

/// One file of the staging tree, for the manifests.
#[derive(Debug, Clone, Copy)]
pub(super) struct Placed {
    pub(super) size: u64,
    pub(super) hash: u64,
    /// Read once the file was in place (or, kept, the spare's record of
    /// it, checked against the file); `None` if it could not be read.
    pub(super) id: Option<Id>,
    pub(super) how: How,
}

/// What to put at a path.
#[derive(Clone, Copy)]
enum Put<'a> {
    Bytes(&'a [u8]),
    /// A hard link to this file.
    Link(&'a Path),
    /// A copy of this file, made in pieces (a large evidence log), which
    /// must hold this many bytes with this hash (`content_hash`).
    Copy(&'a Path, u64, u64),
}

/// What stood in the way of a file in a staging tree made from the spare.
enum Obstacle {
    /// The spare's own stale file or directory: removed, try again.
    Cleared,
    /// Something this build placed: two outputs claim one path.
    Collision,
    /// Something no record names.
    Unknown(PathBuf),
}

/// Whether `e` says another entry is where a file or directory must go.
fn clash(e: &io::Error) -> bool {
    use io::ErrorKind::{AlreadyExists, DirectoryNotEmpty, IsADirectory, NotADirectory};
    matches!(
        e.kind(),
        AlreadyExists | IsADirectory | NotADirectory | DirectoryNotEmpty
    )
}

/// A name beside `path` for a file about to be renamed over it.
pub(super) fn temporary(path: &Path) -> PathBuf {
    path.with_file_name(format!(
        ".{}.kansoku-tmp-{}",
        path.file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
        std::process::id()
    ))
}

/// Whether the file at `path` is still the one recorded as `size` bytes
/// with identity `id`.
pub(super) fn still(path: &Path, size: u64, id: Id) -> bool {
    matches!(
        fs::symlink_metadata(path),
        Ok(meta) if meta.is_file() && meta.len() == size && manifest::identity(&meta) == Some(id)
    )
}

fn put_new(at: &Path, what: Put<'_>) -> io::Result<()> {
    match what {
        Put::Bytes(bytes) => {
            let mut file = fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(at)?;
            file.write_all(bytes)
        }
        Put::Link(from) => fs::hard_link(from, at),
        Put::Copy(from, size, hash) => copy_checked(from, at, size, hash),
    }
}

/// Copies `from` to the new file `at`, hashing what it copies: a file
/// that changed since it was read (its size and hash then) is not
/// published torn (`ChangedWhileRead`).
fn copy_checked(from: &Path, at: &Path, size: u64, hash: u64) -> io::Result<()> {
    use std::io::Read;
    let mut source = fs::File::open(from)?;
    let mut file = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(at)?;
    let mut h = crate::hash::ContentHasher::new();
    let mut buf = vec![0u8; 1 << 20];
    let mut copied = 0u64;
    loop {
        let n = match source.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        h.update(&buf[..n]);
        file.write_all(&buf[..n])?;
        copied += n as u64;
    }
    if copied != size || h.finish() != hash {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            super::ChangedWhileRead {
                path: from.to_path_buf(),
            },
        ));
    }
    Ok(())
}

impl Staging {
    /// The `Collision` error for `path`.
    fn collision(&self, path: &str) -> Error {
        Error::io(
            self.out.join(path),
            io::Error::new(
                io::ErrorKind::AlreadyExists,
                Collision {
                    path: path.to_owned(),
                },
            ),
        )
    }

    /// Marks `path` as this build's; a second claim is a collision.
    fn claim(&self, path: &str) -> Result<()> {
        let mut placed = lock(&self.placed);
        if placed.contains_key(path) {
            return Err(self.collision(path));
        }
        placed.insert(path.to_owned(), None);
        Ok(())
    }

    fn settle(&self, path: &str, placed: Placed) {
        if placed.how != How::Written {
            self.reused.fetch_add(1, Ordering::Relaxed);
        }
        lock(&self.placed).insert(path.to_owned(), Some(placed));
    }

    fn unclaim(&self, path: &str) {
        lock(&self.placed).remove(path);
    }

    /// The spare's file at `path`, if its record says it holds `hash` (and
    /// `size`, when given) and the file is still the one recorded.
    fn in_spare(&self, path: &str, size: Option<u64>, hash: u64) -> Option<Placed> {
        let e = self.spare.as_ref()?.files.get(path)?;
        let id = e.id?;
        let fits = e.hash == hash && size.is_none_or(|s| s == e.size);
        (fits && still(&self.dir.join(path), e.size, id)).then_some(Placed {
            size: e.size,
            hash,
            id: Some(id),
            how: How::Kept,
        })
    }

    pub(super) fn store(&self, path: &str, bytes: &[u8]) -> Result<()> {
        self.store_from(
            path,
            bytes.len() as u64,
            content_hash(bytes),
            Put::Bytes(bytes),
        )
    }

    /// [`Staging::store`] for a file copied from `from`, whose size and
    /// hash (`content_hash`) the caller knows: never read whole.
    pub(super) fn store_copy(&self, path: &str, from: &Path, size: u64, hash: u64) -> Result<()> {
        self.store_from(path, size, hash, Put::Copy(from, size, hash))
    }

    fn store_from(&self, path: &str, size: u64, hash: u64, what: Put<'_>) -> Result<()> {
        check_path(path)?;
        self.claim(path)?;
        if let Some(kept) = self.in_spare(path, Some(size), hash) {
            self.settle(path, kept);
            return Ok(());
        }
        if let Some(old) = self.previous.linkable(path, size, hash) {
            if self.link(path, hash, old)? {
                return Ok(());
            }
        }
        let id = self.put(path, what)?;
        self.settle(
            path,
            Placed {
                size,
                hash,
                id,
                how: How::Written,
            },
        );
        Ok(())
    }

    /// Hard-links the build directory's file at `path` into the staging
    /// tree if it is still the file its manifest describes. `Ok(false)`:
    /// it is not (edited, replaced, gone), or linking is not possible
    /// here, so the bytes must be written.
    fn link(&self, path: &str, hash: u64, (size, id): (u64, Id)) -> Result<bool> {
        if !self.can_link.load(Ordering::Relaxed) {
            return Ok(false);
        }
        let source = self.target.join(path);
        if !still(&source, size, id) {
            return Ok(false);
        }
        match self.put(path, Put::Link(&source)) {
            Ok(id) => {
                let how = How::Linked;
                self.settle(
                    path,
                    Placed {
                        size,
                        hash,
                        id,
                        how,
                    },
                );
                Ok(true)
            }
            Err(e) if super::collision(&e).is_some() => Err(e),
            // Removed since it was checked: write it instead.
            Err(Error::Io { source: e, .. }) if e.kind() == io::ErrorKind::NotFound => Ok(false),
            // Linking is an optimisation (another file system, no
            // permission): write the bytes instead, from now on.
            Err(_) => {
                self.can_link.store(false, Ordering::Relaxed);
                Ok(false)
            }
        }
    }

    pub(super) fn take(&self, path: &str, hash: u64) -> Result<bool> {
        check_path(path)?;
        let previous = self.previous.reusable(path, hash);
        let spare_has = || {
            self.spare
                .as_ref()
                .and_then(|s| s.reusable(path, hash))
                .is_some()
        };
        // By the records only: the file is checked once, after the claim.
        if previous.is_none() && !spare_has() {
            return Ok(false);
        }
        let Some(_op) = guard::write_op() else {
            return Ok(false);
        };
        self.claim(path)?;
        if let Some(kept) = self.in_spare(path, None, hash) {
            self.settle(path, kept);
            return Ok(true);
        }
        if let Some(old) = previous {
            if self.link(path, hash, old)? {
                return Ok(true);
            }
        }
        self.unclaim(path);
        Ok(false)
    }

    /// Whether [`Staging::take`] would find `path` with `hash`, in the
    /// spare or in the build directory, unchanged since it was recorded.
    pub(super) fn can_take(&self, path: &str, hash: u64) -> bool {
        if self.in_spare(path, None, hash).is_some() {
            return true;
        }
        self.previous
            .reusable(path, hash)
            .is_some_and(|(size, id)| still(&self.target.join(path), size, id))
    }

    /// Puts `what` at `path` and returns the identity it has there. In a
    /// tree made from the spare, a stale file or directory of the spare in
    /// the way is removed first.
    fn put(&self, path: &str, what: Put<'_>) -> Result<Option<Id>> {
        let err = |e: io::Error| {
            if clash(&e) {
                self.collision(path)
            } else if let Some(changed) = e
                .get_ref()
                .and_then(|i| i.downcast_ref::<super::ChangedWhileRead>())
            {
                // On the file read, not the one written.
                let from = changed.path.clone();
                Error::io(from, e)
            } else {
                Error::io(self.dir.join(path), e)
            }
        };
        match self.try_put(path, what) {
            Err(e) if clash(&e) && self.spare.is_some() => match self.clear(path)? {
                Obstacle::Cleared => self.try_put(path, what).map_err(err),
                Obstacle::Collision => Err(self.collision(path)),
                Obstacle::Unknown(p) => Err(Error::io(
                    &p,
                    io::Error::new(
                        io::ErrorKind::AlreadyExists,
                        format!(
                            "a file no record names is in the way of {}; build again: the next build starts from an empty staging tree",
                            self.out.join(path).display()
                        ),
                    ),
                )),
            },
            r => r.map_err(err),
        }
    }

    fn try_put(&self, path: &str, what: Put<'_>) -> io::Result<Option<Id>> {
        self.touch(path);
        if let Some((parent, _)) = path.rsplit_once('/') {
            if !lock(&self.made).contains(parent) {
                // Outside the lock: create_dir_all tolerates a directory
                // made meanwhile by another thread.
                fs::create_dir_all(self.dir.join(parent))?;
                lock(&self.made).insert(parent.to_owned());
            }
        }
        let at = self.dir.join(path);
        if self.spare.as_ref().is_some_and(|s| s.owns(path)) {
            // The spare's file may be a link shared with the build
            // directory: a new file is renamed over it, never written
            // into it.
            let tmp = temporary(&at);
            let made = match put_new(&tmp, what) {
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                    fs::remove_file(&tmp)?;
                    put_new(&tmp, what)
                }
                r => r,
            };
            if let Err(e) = made.and_then(|()| fs::rename(&tmp, &at)) {
                let _ = fs::remove_file(&tmp);
                return Err(e);
            }
        } else {
            put_new(&at, what)?;
        }
        // Read after the rename, which moves the change time.
        Ok(fs::symlink_metadata(&at)
            .ok()
            .filter(fs::Metadata::is_file)
            .and_then(|m| manifest::identity(&m)))
    }

    /// Removes what stands in the way of `path` in a staging tree made from
    /// the spare, if that is a stale file of the spare (where `path` needs
    /// a directory) or a directory holding only such files (where `path`
    /// is a file). Claims wait meanwhile, so nothing this build places
    /// can be removed.
    fn clear(&self, path: &str) -> Result<Obstacle> {
        let placed = lock(&self.placed);
        let Some(spare) = &self.spare else {
            return Ok(Obstacle::Collision);
        };
        let mut end = 0;
        while let Some(i) = path[end..].find('/') {
            let dir = &path[..end + i];
            end += i + 1;
            let abs = self.dir.join(dir);
            match fs::symlink_metadata(&abs) {
                Ok(m) if m.is_dir() => {}
                Ok(_) if placed.contains_key(dir) => return Ok(Obstacle::Collision),
                Ok(m) if m.is_file() && spare.owns(dir) => {
                    fs::remove_file(&abs).map_err(|e| Error::io(&abs, e))?;
                    return Ok(Obstacle::Cleared);
                }
                Ok(_) => return Ok(Obstacle::Unknown(abs)),
                Err(_) => return Ok(Obstacle::Cleared),
            }
        }
        let abs = self.dir.join(path);
        match fs::symlink_metadata(&abs) {
            Ok(m) if m.is_dir() => {
                let under = format!("{path}/");
                if placed.keys().any(|k| k.starts_with(&under)) {
                    return Ok(Obstacle::Collision);
                }
                let stranger = walkdir::WalkDir::new(&abs)
                    .follow_links(false)
                    .into_iter()
                    .filter_map(|e| e.ok())
                    .filter(|e| !e.file_type().is_dir())
                    .find(|e| {
                        let rel = e.path().strip_prefix(&self.dir).unwrap_or(e.path());
                        !rel.to_str().is_some_and(|r| spare.owns(r))
                    });
                if let Some(e) = stranger {
                    return Ok(Obstacle::Unknown(e.into_path()));
                }
                super::tree::remove_tree(&abs).map_err(|e| Error::io(&abs, e))?;
                lock(&self.made).retain(|d| d != path && !d.starts_with(&under));
                Ok(Obstacle::Cleared)
            }
            Ok(_) if placed.get(path).is_some_and(Option::is_some) => Ok(Obstacle::Collision),
            Ok(_) => Ok(Obstacle::Unknown(abs)),
            Err(_) => Ok(Obstacle::Cleared),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_copy_of_a_file_that_changed_since_it_was_read_is_refused() {
        let tmp = crate::scratch::tempdir();
        let from = tmp.path().join("log");
        fs::write(&from, "as read\n").expect("write");
        let (size, hash) = (8, crate::hash::content_hash(b"as read\n"));
        copy_checked(&from, &tmp.path().join("a"), size, hash).expect("unchanged");
        assert_eq!(
            fs::read(tmp.path().join("a")).expect("copied"),
            b"as read\n"
        );
        fs::write(&from, "as Read\n").expect("write");
        let err = copy_checked(&from, &tmp.path().join("b"), size, hash).expect_err("changed");
        assert_eq!(err.to_string(), "changed while the build read it");
        fs::write(&from, "as read\nand more\n").expect("write");
        assert!(copy_checked(&from, &tmp.path().join("c"), size, hash).is_err());
    }
}
