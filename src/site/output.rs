//! Writing the output tree atomically: the last stage of a build.
//!
//! Files are streamed into a staging directory beside the build directory
//! (from many threads, while rendering still runs), then swapped in with
//! renames, so a failed or interrupted build leaves the previous tree
//! byte-for-byte as it was and no staging directory behind.
//!
//! Creating an inode is the expensive part of writing on ext4, so a file
//! whose bytes equal the previous build's file at the same path is
//! hard-linked from the previous tree instead of written. Equality is judged
//! by a manifest saved beside the tree at each commit (path, size, content
//! hash, and the file's device, inode, mtime, ctime and mode), trusted for a
//! file only while that file's metadata still matches: a file edited by
//! hand between builds, even with its mtime put back, is written afresh.
//! The old tree's bytes are never read.
//!
//! This module only stores bytes it is given; it never decides what a site
//! contains.

use crate::error::{Error, Result};
use crate::render::OutputFile;
use std::collections::{HashMap, HashSet};
use std::fs;
use std::hash::{BuildHasher, Hasher};
use std::io::{self, Write};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

/// A build's output being written: files go into a staging directory beside
/// the build directory until [`Staging::commit`] swaps it in. Dropped
/// without a commit, it removes the staging directory and the previous
/// tree stays as it was.
#[derive(Debug)]
pub struct Staging {
    out: PathBuf,
    dir: PathBuf,
    previous: Manifest,
    /// Parent directories already made in the staging tree (relative), so
    /// most writes cost no `mkdir`.
    made: Mutex<HashSet<String>>,
    /// Every file in the staging tree with its size and content hash, for
    /// the next build's manifest.
    written: Mutex<Vec<(String, u64, u64)>>,
    linked: AtomicUsize,
    /// Cleared after a link fails for a reason other than a path clash
    /// (another filesystem, no permission): every later link would fail
    /// the same way.
    can_link: AtomicBool,
    /// Set by any failed write: the tree lacks that file, so it must not
    /// be committed even if the caller carries on.
    failed: AtomicBool,
    committed: bool,
}

/// The cause inside an [`Error::Io`] when two outputs claim one path (the
/// same path twice, or a file where another output needs a directory).
/// Find it with [`collision`].
#[derive(Debug)]
pub struct Collision {
    /// The clashing output path, `/`-separated and relative to the build
    /// directory.
    pub path: String,
}

impl std::fmt::Display for Collision {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("written twice in one build (two outputs claim this path)")
    }
}

impl std::error::Error for Collision {}

/// The output path of a [`Collision`], when `err` is one.
pub fn collision(err: &Error) -> Option<&str> {
    match err {
        Error::Io { source, .. } => source
            .get_ref()
            .and_then(|e| e.downcast_ref::<Collision>())
            .map(|c| c.path.as_str()),
        _ => None,
    }
}

fn sibling(out: &Path, tag: &str) -> PathBuf {
    out.with_file_name(format!(
        ".{}.kansoku-{tag}-{}",
        name(out),
        std::process::id()
    ))
}

fn name(out: &Path) -> String {
    out.file_name()
        .map_or_else(|| "public".into(), |n| n.to_string_lossy().into_owned())
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic elsewhere while holding the lock leaves a set or list that is
    // still valid (each push or insert is whole), so carry on.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Staging {
    /// Prepares an empty staging directory beside `out` and reads the
    /// manifest of the tree now in `out`, if it still describes it.
    pub fn begin(out: &Path) -> Result<Staging> {
        if out.exists() && !out.is_dir() {
            return Err(Error::Usage(format!(
                "{} exists and is not a directory",
                out.display()
            )));
        }
        let dir = sibling(out, "staging");
        if dir.exists() {
            remove_tree(&dir).map_err(|e| Error::io(&dir, e))?;
        }
        fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
        Ok(Staging {
            previous: Manifest::load(&manifest_path(out), out),
            out: out.to_path_buf(),
            dir,
            made: Mutex::new(HashSet::new()),
            written: Mutex::new(Vec::new()),
            linked: AtomicUsize::new(0),
            can_link: AtomicBool::new(true),
            failed: AtomicBool::new(false),
            committed: false,
        })
    }

    /// Stores `bytes` at `path` (`/`-separated, relative), making parent
    /// directories as needed. Safe to call from many threads at once. After
    /// an error, [`Staging::commit`] refuses.
    pub fn write(&self, path: &str, bytes: &[u8]) -> Result<()> {
        let result = self.store(path, bytes);
        if result.is_err() {
            self.failed.store(true, Ordering::Relaxed);
        }
        result
    }

    fn store(&self, path: &str, bytes: &[u8]) -> Result<()> {
        check_path(path)?;
        let clash = |e: io::Error| -> Error {
            use io::ErrorKind::{AlreadyExists, IsADirectory, NotADirectory};
            match e.kind() {
                AlreadyExists | IsADirectory | NotADirectory => Error::io(
                    self.out.join(path),
                    io::Error::new(
                        AlreadyExists,
                        Collision {
                            path: path.to_owned(),
                        },
                    ),
                ),
                _ => Error::io(self.dir.join(path), e),
            }
        };
        if let Some((parent, _)) = path.rsplit_once('/') {
            if !lock(&self.made).contains(parent) {
                // Outside the lock: create_dir_all tolerates a directory
                // made meanwhile by another thread.
                fs::create_dir_all(self.dir.join(parent)).map_err(clash)?;
                lock(&self.made).insert(parent.to_owned());
            }
        }
        let target = self.dir.join(path);
        let size = bytes.len() as u64;
        let hash = content_hash(bytes);
        if let Some(old) = self.previous.get(path, size, hash) {
            if self.can_link.load(Ordering::Relaxed) {
                match self.link(path, old, &target) {
                    Ok(true) => {
                        lock(&self.written).push((path.to_owned(), size, hash));
                        self.linked.fetch_add(1, Ordering::Relaxed);
                        return Ok(());
                    }
                    Ok(false) => {}
                    Err(e) if e.kind() == io::ErrorKind::AlreadyExists => return Err(clash(e)),
                    // Removed since it was checked: just write.
                    Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                    // Linking is an optimisation: write the bytes instead.
                    Err(_) => self.can_link.store(false, Ordering::Relaxed),
                }
            }
        }
        let mut file = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&target)
            .map_err(clash)?;
        file.write_all(bytes).map_err(|e| Error::io(&target, e))?;
        lock(&self.written).push((path.to_owned(), size, hash));
        Ok(())
    }

    /// Hard-links the previous build's file at `path` into the staging tree
    /// if it is still the file the manifest describes. `Ok(false)`: it is
    /// not (edited, replaced, gone), so the bytes must be written.
    fn link(&self, path: &str, old: Entry, target: &Path) -> io::Result<bool> {
        let source = self.out.join(path);
        match fs::symlink_metadata(&source) {
            Ok(meta)
                if meta.is_file() && meta.len() == old.size && identity(&meta) == Some(old.id) => {}
            _ => return Ok(false),
        }
        fs::hard_link(&source, target)?;
        Ok(true)
    }

    /// How many files so far were hard-linked from the previous tree rather
    /// than written.
    pub fn linked(&self) -> usize {
        self.linked.load(Ordering::Relaxed)
    }

    /// Swaps the staging tree in for the build directory, removes the
    /// previous tree, and returns how many files the new tree holds.
    pub fn commit(mut self) -> Result<usize> {
        if self.failed.load(Ordering::Relaxed) {
            return Err(Error::Usage(format!(
                "not replacing {}: a file of the new build could not be written",
                self.out.display()
            )));
        }
        let written = std::mem::take(&mut *lock(&self.written));
        let out = self.out.clone();
        let manifest = manifest_path(&out);
        // From here until the new one is saved, no manifest: whatever
        // happens between, none can describe a tree it does not.
        match fs::remove_file(&manifest) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(Error::io(&manifest, e)),
            _ => {}
        }
        self.swap()?;
        self.committed = true;
        let old = sibling(&out, "old");
        if old.exists() {
            remove_tree(&old).map_err(|e| Error::io(&old, e))?;
        }
        // The manifest only makes the next build faster: failing to save it
        // costs a full write next time, not a failed build.
        let _ = Manifest::save(&manifest, &out, &written);
        Ok(written.len())
    }

    fn swap(&self) -> Result<()> {
        let (out, dir) = (&self.out, &self.dir);
        if !out.exists() {
            if let Some(parent) = out.parent() {
                fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
            }
            return fs::rename(dir, out).map_err(|e| Error::io(out, e));
        }
        let old = sibling(out, "old");
        if old.exists() {
            remove_tree(&old).map_err(|e| Error::io(&old, e))?;
        }
        fs::rename(out, &old).map_err(|e| Error::io(out, e))?;
        if let Err(e) = fs::rename(dir, out) {
            // Put the previous tree back so nothing is lost.
            let _ = fs::rename(&old, out);
            return Err(Error::io(out, e));
        }
        Ok(())
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        if !self.committed {
            let _ = remove_tree(&self.dir);
        }
    }
}

/// Writes `files` to `out`, replacing its previous contents only on success.
pub fn write_atomic(files: &[OutputFile], out: &Path) -> Result<()> {
    use rayon::prelude::*;
    let staging = Staging::begin(out)?;
    files
        .par_iter()
        .try_for_each(|f| staging.write(&f.path, &f.bytes))?;
    staging.commit()?;
    Ok(())
}

/// Removes a tree written here and its manifest, as a build directory
/// that is no longer wanted (such as a preview's) should be.
pub fn remove(out: &Path) -> Result<()> {
    let manifest = manifest_path(out);
    match fs::remove_file(&manifest) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(Error::io(&manifest, e)),
        _ => {}
    }
    match remove_tree(out) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(Error::io(out, e)),
        _ => Ok(()),
    }
}

/// `.public.kansoku.manifest`: a dot, not the dash of the transient
/// `.public.kansoku-*-PID` directories, because it is meant to stay between
/// builds while those are leftovers of a crash.
fn manifest_path(out: &Path) -> PathBuf {
    out.with_file_name(format!(".{}.kansoku.manifest", name(out)))
}

/// Rejects any path that could leave the staging directory or name it
/// ambiguously: empty, absolute, `.`/`..` or empty segments, backslashes.
fn check_path(path: &str) -> Result<()> {
    let plain = !path.is_empty()
        && path
            .split('/')
            .all(|s| !s.is_empty() && s != "." && s != ".." && !s.contains(['\\', '\0']))
        && Path::new(path)
            .components()
            .all(|c| matches!(c, Component::Normal(_)));
    if plain {
        Ok(())
    } else {
        Err(Error::Usage(format!(
            "output path {path:?} is not a plain relative path"
        )))
    }
}

/// A 64-bit hash of a file's bytes, the same in every run (a foldhash
/// upgrade that changed it would only cost one full write). Not
/// cryptographic: it tells a rebuilt file from the previous one at the
/// same path and size, where nobody is choosing bytes to collide.
pub(crate) fn content_hash(bytes: &[u8]) -> u64 {
    let mut h = foldhash::quality::FixedState::with_seed(0x6b61_6e73_6f6b_7531).build_hasher();
    h.write(bytes);
    h.finish()
}

/// Removes a directory tree, its subtrees in parallel.
fn remove_tree(dir: &Path) -> io::Result<()> {
    use rayon::prelude::*;
    let entries: Vec<_> = fs::read_dir(dir)?.collect::<io::Result<_>>()?;
    entries.par_iter().try_for_each(|e| {
        if e.file_type()?.is_dir() {
            remove_tree(&e.path())
        } else {
            fs::remove_file(e.path())
        }
    })?;
    fs::remove_dir(dir)
}

/// What ties a manifest line to one file on disk: if any of it changed, the
/// file may have been edited since the manifest was saved. The ctime
/// catches even an edit that restores the mtime.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Id {
    dev: u64,
    ino: u64,
    mtime: i64,
    mtime_nsec: i64,
    ctime: i64,
    ctime_nsec: i64,
    mode: u32,
}

#[cfg(unix)]
fn identity(meta: &fs::Metadata) -> Option<Id> {
    use std::os::unix::fs::MetadataExt;
    Some(Id {
        dev: meta.dev(),
        ino: meta.ino(),
        mtime: meta.mtime(),
        mtime_nsec: meta.mtime_nsec(),
        ctime: meta.ctime(),
        ctime_nsec: meta.ctime_nsec(),
        mode: meta.mode(),
    })
}

/// Elsewhere there is no inode to check, so no manifest is ever trusted.
#[cfg(not(unix))]
fn identity(_: &fs::Metadata) -> Option<Id> {
    None
}

/// One file of a committed tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Entry {
    size: u64,
    hash: u64,
    id: Id,
}

/// The previous build's files by path, as saved at its commit; empty when
/// there is none or it describes another directory than the one in `out`.
#[derive(Debug, Default)]
struct Manifest {
    files: HashMap<String, Entry>,
}

/// First line of a manifest; the directory's device and inode follow.
const MANIFEST_HEADER: &str = "kansoku-manifest 1";

impl Manifest {
    fn load(path: &Path, out: &Path) -> Manifest {
        let dir = fs::metadata(out).ok().and_then(|m| identity(&m));
        match (dir, fs::read_to_string(path)) {
            (Some(dir), Ok(text)) => Manifest::parse(&text, dir).unwrap_or_default(),
            _ => Manifest::default(),
        }
    }

    /// `None` for anything unexpected: a damaged manifest only costs a
    /// full write.
    fn parse(text: &str, dir: Id) -> Option<Manifest> {
        // Header, one line per file, and a count that shows it is whole.
        let header = format!("{MANIFEST_HEADER} {} {}", dir.dev, dir.ino);
        let rest = text.strip_prefix(&header)?.strip_suffix('\n')?;
        let (body, count) = rest.rsplit_once("\nend ")?;
        let mut files = HashMap::new();
        for line in body.split('\n').skip(1) {
            let f: Vec<&str> = line.splitn(10, ' ').collect();
            let [size, hash, dev, ino, mtime, mtime_nsec, ctime, ctime_nsec, mode, path] = f[..]
            else {
                return None;
            };
            let entry = Entry {
                size: size.parse().ok()?,
                hash: u64::from_str_radix(hash, 16).ok()?,
                id: Id {
                    dev: dev.parse().ok()?,
                    ino: ino.parse().ok()?,
                    mtime: mtime.parse().ok()?,
                    mtime_nsec: mtime_nsec.parse().ok()?,
                    ctime: ctime.parse().ok()?,
                    ctime_nsec: ctime_nsec.parse().ok()?,
                    mode: u32::from_str_radix(mode, 8).ok()?,
                },
            };
            files.insert(path.to_owned(), entry);
        }
        (count.parse() == Ok(files.len())).then_some(Manifest { files })
    }

    /// The previous file at `path` if its recorded size and hash are these.
    fn get(&self, path: &str, size: u64, hash: u64) -> Option<Entry> {
        self.files
            .get(path)
            .filter(|e| e.size == size && e.hash == hash)
            .copied()
    }

    /// Records the files of the tree now in `out`. Their metadata is read
    /// now, after the previous tree is gone: linking and unlinking the
    /// other names of an inode change its ctime.
    fn save(path: &Path, out: &Path, written: &[(String, u64, u64)]) -> io::Result<()> {
        use rayon::prelude::*;
        let dir = identity(&fs::metadata(out)?).unwrap_or_default();
        let entries: Vec<(&str, Entry)> = written
            .par_iter()
            // A path with a newline cannot be saved on one line; it is
            // simply written afresh next time.
            .filter(|(p, _, _)| !p.contains('\n'))
            .filter_map(|(p, size, hash)| {
                let meta = fs::symlink_metadata(out.join(p)).ok()?;
                let id = identity(&meta)?;
                Some((
                    p.as_str(),
                    Entry {
                        size: *size,
                        hash: *hash,
                        id,
                    },
                ))
            })
            .collect();
        let pending = sibling(out, "manifest");
        let saved = (|| {
            let mut w = io::BufWriter::new(fs::File::create(&pending)?);
            writeln!(w, "{MANIFEST_HEADER} {} {}", dir.dev, dir.ino)?;
            let count = entries.len();
            for (p, e) in entries {
                let Id {
                    dev,
                    ino,
                    mtime,
                    mtime_nsec,
                    ctime,
                    ctime_nsec,
                    mode,
                } = e.id;
                writeln!(
                    w,
                    "{} {:016x} {dev} {ino} {mtime} {mtime_nsec} {ctime} {ctime_nsec} {mode:o} {p}",
                    e.size, e.hash
                )?;
            }
            writeln!(w, "end {count}")?;
            w.into_inner().map_err(io::IntoInnerError::into_error)?;
            fs::rename(&pending, path)
        })();
        if saved.is_err() {
            let _ = fs::remove_file(&pending);
        }
        saved
    }
}
