//! The record of what a build wrote into its build directory.
//!
//! It serves two purposes. It says which files are kansoku's: only those
//! are ever replaced or removed, so a file a person put into `public/` is
//! never lost. And it lets the next build hard-link a file whose bytes did
//! not change instead of writing it again; that needs the file's identity
//! (device, inode, mtime, ctime, mode and, where the file system keeps
//! one, birth time), trusted only while the file on disk still has it.
//!
//! A manifest names the directory it describes by device, inode number
//! and birth time. One that describes the build directory says which
//! paths are kansoku's whatever they hold now (a page edited by hand there
//! is written again). One that does not — the site was copied (`cp -a`),
//! moved to another file system, restored from a CI cache or a backup, or
//! the record was damaged — still counts, file by file, for each file that
//! holds exactly the bytes it names: kansoku wrote those bytes there,
//! wherever the directory lives now (see [`Paths::vouch`]). A file that
//! holds other bytes is not taken as kansoku's.
//!
//! The device and inode number alone do not tell a restored directory
//! from the original: once the original is removed, file systems hand its
//! inode number out again (ext4 often at once), and a `public/`
//! restored from a tar archive or a CI cache can get it. Its birth time
//! cannot be carried over: no tool can set it, so a copy or a restore is
//! born when it is made. Only a directory made at the original's number
//! within the clock tick the original was born in would pass for it (the
//! original, removed before, would have lived less than a tick). Where the
//! file system keeps no birth time (or an older record names none), no
//! directory is taken for the one a record describes: each file then
//! counts only by its bytes, which never replaces a file a person changed
//! (a build stops with E044 instead) and only costs time.
//!
//! It is kept in `.kansoku/` beside the build directory, twice (a damaged
//! copy is rebuilt from the other); a *pending* one is saved before a
//! commit changes anything, naming every file the tree may hold once the
//! commit is done, so a build killed halfway still leaves a record of what
//! is kansoku's.

pub(super) use super::identity::{dir_identity, identity, DirId, Id};
use super::identity::{parse_id, write_id};
use std::collections::{HashMap, HashSet};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// One file of a tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Entry {
    pub(super) size: u64,
    pub(super) hash: u64,
    /// `None` in a pending manifest, saved before the file reached its
    /// place: it marks the path as kansoku's but never allows a link.
    pub(super) id: Option<Id>,
}

/// The files of the tree in one build directory, by `/`-separated path.
#[derive(Debug, Default)]
pub(super) struct Manifest {
    pub(super) files: HashMap<String, Entry>,
    /// The paths of `files` that are kansoku's only because the file there
    /// holds the bytes a record of another directory names (a copy, a
    /// restore, a damaged record): see [`Manifest::settle_vouched`] for
    /// where that is proof enough.
    pub(super) vouched: HashSet<String>,
    /// Paths such a record names whose file holds other bytes: changed
    /// since kansoku wrote them, so not kansoku's any more.
    pub(super) changed: HashSet<String>,
}

/// First word of a manifest's first line; the format version, then the
/// directory's identity follow ([`DirId::to_words`]). Version 3 added the
/// birth times; a record of version 1 or 2 never describes the build
/// directory (it counts file by file, see [`Paths::vouch`]).
const HEADER: &str = "kansoku-manifest";

/// The version [`save`] writes.
const VERSION: &str = "3";

/// Where the manifests of the build directory `out` are kept.
#[derive(Debug, Clone)]
pub(super) struct Paths {
    /// Saved at each commit.
    pub(super) committed: PathBuf,
    /// A second copy of it, saved after it: a record damaged in one place
    /// (flipped, cut, emptied) is still whole in the other.
    pub(super) copy: PathBuf,
    /// Saved before a commit changes anything; removed when it is done.
    pub(super) pending: PathBuf,
    /// Where kansoku 0.1 kept it, beside the build directory: read once,
    /// then removed.
    pub(super) legacy: PathBuf,
    /// The previous build's tree, kept to be updated into the next one
    /// (see `spare`).
    pub(super) spare_dir: PathBuf,
    /// The record of the files in `spare_dir`.
    pub(super) spare: PathBuf,
    /// The directories of the build directory that held only kansoku's
    /// entries when last read, with their identity then (see [`Dirs`]).
    pub(super) dirs: PathBuf,
    /// The same for the spare.
    pub(super) spare_dirs: PathBuf,
}

impl Paths {
    pub(super) fn new(state: &Path, out: &Path, name: &str) -> Paths {
        Paths {
            committed: state.join(format!("{name}.manifest")),
            copy: state.join(format!("{name}.manifest.copy")),
            pending: state.join(format!("{name}.manifest.pending")),
            legacy: out.with_file_name(format!(".{name}.kansoku.manifest")),
            // `-manifest`, not `.manifest`: a build directory named
            // `NAME.spare` must not share its manifest's name.
            spare_dir: state.join(format!("{name}.spare")),
            spare: state.join(format!("{name}.spare-manifest")),
            dirs: state.join(format!("{name}.dirs")),
            spare_dirs: state.join(format!("{name}.spare-dirs")),
        }
    }

    /// The record of the spare tree, if there is one that describes the
    /// directory now at `spare_dir`.
    pub(super) fn load_spare(&self) -> Option<Manifest> {
        let dir = dir_identity(&self.spare_dir)?;
        Manifest::parse(&fs::read_to_string(&self.spare).ok()?, dir)
    }

    /// The records of this build directory, committed first (for
    /// linking, a committed entry is preferred to a pending one).
    pub(super) fn records(&self) -> [&PathBuf; 4] {
        [&self.committed, &self.copy, &self.legacy, &self.pending]
    }

    /// Every manifest that still describes the directory now at `dir`,
    /// merged: paths from any of them are kansoku's. What `clean` goes by.
    pub(super) fn load(&self, dir: &Path) -> Manifest {
        self.load_native(dir).0
    }

    /// [`Paths::load`], and which records it read (for [`Paths::vouch`]).
    pub(super) fn load_native(&self, dir: &Path) -> (Manifest, [bool; 4]) {
        let mut read = [false; 4];
        let Some(current) = dir_identity(dir) else {
            return (Manifest::default(), read);
        };
        let mut merged = Manifest::default();
        for (i, path) in self.records().into_iter().enumerate() {
            let Ok(text) = fs::read_to_string(path) else {
                continue;
            };
            let Some(m) = Manifest::parse(&text, current) else {
                continue;
            };
            read[i] = true;
            for (p, e) in m.files {
                merged.files.entry(p).or_insert(e);
            }
        }
        (merged, read)
    }

    /// Saves the second copy of the committed manifest (see
    /// [`Paths::copy`]); failing only leaves the records less able to
    /// survive damage.
    pub(super) fn save_copy(&self) {
        let saved = fs::read(&self.committed).and_then(|bytes| {
            crate::fsutil::write_atomic_with(&self.copy, |w| w.write_all(&bytes))
        });
        if saved.is_err() {
            let _ = fs::remove_file(&self.copy);
        }
    }

    /// Removes the pending and legacy manifests once the committed one is
    /// saved (or the tree is gone).
    pub(super) fn tidy(&self) -> io::Result<()> {
        for p in [&self.pending, &self.legacy] {
            match fs::remove_file(p) {
                Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
                _ => {}
            }
        }
        Ok(())
    }

    /// Removes every manifest of this build directory.
    pub(super) fn remove_all(&self) -> io::Result<()> {
        for p in [
            &self.committed,
            &self.copy,
            &self.spare,
            &self.dirs,
            &self.spare_dirs,
        ] {
            match fs::remove_file(p) {
                Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
                _ => {}
            }
        }
        self.tidy()
    }
}

impl Manifest {
    /// `None` for anything unexpected, or a manifest that does not
    /// describe the directory `dir` (see [`DirId::describes`]): a damaged
    /// manifest costs a full write, and leaves the files it named to be
    /// taken by their bytes only.
    fn parse(text: &str, dir: DirId) -> Option<Manifest> {
        let (body, count) = lines(text, |first| {
            let mut head = first.split(' ');
            head.next() == Some(HEADER) && head.next() == Some(VERSION) && dir.named_by(head)
        })?;
        let mut files = HashMap::new();
        for line in body.split('\n').filter(|l| !l.is_empty()) {
            let f: Vec<&str> = line.splitn(10, ' ').collect();
            let [size, hash, ref id @ .., path] = f[..] else {
                return None;
            };
            if id.len() != 7 {
                return None;
            }
            let id = if id[0] == "-" {
                None
            } else {
                Some(parse_id(id)?)
            };
            let entry = Entry {
                size: size.parse().ok()?,
                hash: u64::from_str_radix(hash, 16).ok()?,
                id,
            };
            // A path that could leave the tree (`../x`, `/etc/x`) was not
            // written by any build: the whole record is damaged or forged,
            // and trusting the rest of it could remove a person's file.
            if !super::plain(path) {
                return None;
            }
            files.insert(path.to_owned(), entry);
        }
        (count == files.len()).then_some(Manifest {
            files,
            ..Manifest::default()
        })
    }

    /// The previous file at `path` if its recorded size and hash are these
    /// and its identity is known.
    pub(super) fn linkable(&self, path: &str, size: u64, hash: u64) -> Option<(u64, Id)> {
        let e = self.files.get(path)?;
        let id = e.id?;
        (e.size == size && e.hash == hash).then_some((e.size, id))
    }

    /// The previous file at `path` if its recorded hash is this one and
    /// its identity is known (what a remembered render unit relies on).
    pub(super) fn reusable(&self, path: &str, hash: u64) -> Option<(u64, Id)> {
        let e = self.files.get(path)?;
        let id = e.id?;
        (e.hash == hash).then_some((e.size, id))
    }

    /// Whether kansoku wrote `path` (by any record that still applies).
    pub(super) fn owns(&self, path: &str) -> bool {
        self.files.contains_key(path)
    }
}

/// Saves a manifest of `entries` for the directory with identity `dir`,
/// through a temporary file renamed into place, so a reader never sees
/// half of one. No fsync: a record lost to a power cut only makes kansoku
/// treat its files as someone else's (left in place, with a warning) or
/// read a directory again.
pub(super) fn save<'a>(
    path: &Path,
    dir: DirId,
    entries: impl Iterator<Item = (&'a str, Entry)>,
) -> io::Result<()> {
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent)?;
    }
    crate::fsutil::write_atomic_with(path, |w| {
        writeln!(w, "{HEADER} {VERSION} {}", dir.to_words())?;
        let mut count = 0usize;
        for (p, e) in entries {
            // A path with a newline cannot be saved on one line. Such a
            // path never reaches here (output paths are checked), but if
            // one did it would only be written afresh next time.
            if p.contains('\n') {
                continue;
            }
            count += 1;
            write!(w, "{} {:016x} ", e.size, e.hash)?;
            match e.id {
                Some(id) => write_id(w, &id)?,
                None => write!(w, "- - - - - - -")?,
            }
            writeln!(w, " {p}")?;
        }
        writeln!(w, "end {count}")
    })
}

/// The body of a record and the count its last line gives (`end N`, which
/// shows the record is whole), if its first line passes `head`.
fn lines(text: &str, head: impl Fn(&str) -> bool) -> Option<(&str, usize)> {
    let (first, rest) = text.split_once('\n')?;
    if !head(first) {
        return None;
    }
    let rest = rest.strip_suffix('\n')?;
    let (body, count) = match rest.rsplit_once('\n') {
        Some((body, last)) => (body, last.strip_prefix("end ")?),
        None => ("", rest.strip_prefix("end ")?),
    };
    Some((body, count.parse().ok()?))
}

/// The entries of a committed tree: each written file's size and hash with
/// its identity read now, after the previous tree is gone (linking and
/// unlinking the other names of an inode change its ctime).
pub(super) fn entries_on_disk<'a>(
    target: &Path,
    written: &'a [(String, u64, u64)],
) -> Vec<(&'a str, Entry)> {
    use rayon::prelude::*;
    written
        .par_iter()
        .map(|(p, size, hash)| {
            let id = fs::symlink_metadata(target.join(p))
                .ok()
                .filter(fs::Metadata::is_file)
                .and_then(|m| identity(&m));
            (
                p.as_str(),
                Entry {
                    size: *size,
                    hash: *hash,
                    id,
                },
            )
        })
        .collect()
}

/// The directories of one tree that a survey found holding nothing but
/// kansoku's files and directories, each with the identity it had just
/// before it was read. A directory's modification and change times move
/// whenever an entry is added, removed or renamed in it, so one that still
/// has that identity still holds the same entries, and the next survey
/// need not read it (only go down into its subdirectories).
pub(super) type Dirs = HashMap<String, Id>;

/// Version 2 added the birth times (see [`DirId`]); a record of version 1
/// is not read (every directory is then read again, once).
const DIRS_HEADER: &str = "kansoku-dirs 2";

/// Saves `dirs` for the tree whose top directory has identity `root`.
pub(super) fn save_dirs<'a>(
    path: &Path,
    root: DirId,
    dirs: impl Iterator<Item = (&'a str, Id)>,
) -> io::Result<()> {
    crate::fsutil::write_atomic_with(path, |w| {
        writeln!(w, "{DIRS_HEADER} {}", root.to_words())?;
        let mut count = 0usize;
        for (p, id) in dirs.filter(|(p, _)| !p.contains('\n')) {
            count += 1;
            write_id(w, &id)?;
            writeln!(w, " {p}")?;
        }
        writeln!(w, "end {count}")
    })
}

/// The directories saved for the tree whose top directory is now `root`;
/// empty for anything unexpected (then every directory is read).
pub(super) fn load_dirs(path: &Path, root: &Path) -> Dirs {
    let parse = || -> Option<Dirs> {
        let now = dir_identity(root)?;
        let text = fs::read_to_string(path).ok()?;
        let (body, count) = lines(&text, |first| {
            first
                .strip_prefix(DIRS_HEADER)
                .and_then(|rest| rest.strip_prefix(' '))
                .is_some_and(|rest| now.named_by(rest.split(' ')))
        })?;
        let mut dirs = HashMap::new();
        for line in body.split('\n').filter(|l| !l.is_empty()) {
            let f: Vec<&str> = line.splitn(8, ' ').collect();
            let [ref id @ .., path] = f[..] else {
                return None;
            };
            if id.len() != 7 || !super::plain(path) {
                return None;
            }
            dirs.insert(path.to_owned(), parse_id(id)?);
        }
        (count == dirs.len()).then_some(dirs)
    };
    parse().unwrap_or_default()
}

/// Every path the `owned` set implies is a directory of kansoku's (each
/// ancestor of an owned file).
pub(super) fn owned_dirs<'a>(owned: impl Iterator<Item = &'a str>) -> HashSet<&'a str> {
    let mut dirs = HashSet::new();
    for p in owned {
        let mut rest = p;
        while let Some((parent, _)) = rest.rsplit_once('/') {
            if !dirs.insert(parent) {
                break;
            }
            rest = parent;
        }
    }
    dirs
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A directory's identity, as a record names it: `1 2 3`.
    const ONE: DirId = DirId {
        dev: 1,
        ino: 2,
        born: Some(3),
    };

    #[test]
    fn a_saved_manifest_reads_back_for_its_directory_only() {
        let tmp = crate::scratch::tempdir();
        let out = tmp.path().join("public");
        fs::create_dir(&out).expect("mkdir");
        fs::write(out.join("a.html"), "a").expect("write");
        let dir = dir_identity(&out).expect("identity");
        let written = vec![("a.html".to_owned(), 1, 7), ("b/c.html".to_owned(), 2, 8)];
        let paths = Paths::new(&tmp.path().join(".kansoku"), &out, "public");
        save(
            &paths.committed,
            dir,
            entries_on_disk(&out, &written).into_iter(),
        )
        .expect("save");
        let m = paths.load(&out);
        assert!(m.owns("a.html") && m.owns("b/c.html") && !m.owns("c.html"));
        assert!(m.linkable("a.html", 1, 7).is_some());
        // b/c.html is not on disk: kansoku's, but never linked.
        assert!(m.linkable("b/c.html", 2, 8).is_none());

        // The same path, another directory: nothing applies.
        fs::rename(&out, tmp.path().join("moved")).expect("rename");
        fs::create_dir(&out).expect("mkdir");
        assert!(paths.load(&out).files.is_empty());
    }

    /// A directory made where a removed one was, taking its inode number
    /// (ext4 often hands it out again at once): what a restore of
    /// `public/` can get. `false` if the file system gave another number
    /// every time.
    fn made_again(dir: &Path) -> bool {
        let old = dir_identity(dir).expect("identity");
        let aside = dir.with_file_name("aside");
        fs::create_dir(&aside).expect("mkdir");
        fs::remove_dir(dir).expect("rmdir");
        for i in 0..256 {
            fs::create_dir(dir).expect("mkdir");
            let now = dir_identity(dir).expect("identity");
            if (now.dev, now.ino) == (old.dev, old.ino) {
                return true;
            }
            fs::rename(dir, aside.join(i.to_string())).expect("set aside");
        }
        fs::create_dir(dir).expect("mkdir");
        false
    }

    #[test]
    fn a_directory_made_again_at_the_same_inode_number_is_another() {
        let tmp = crate::scratch::tempdir();
        let out = tmp.path().join("public");
        fs::create_dir(&out).expect("mkdir");
        let paths = Paths::new(&tmp.path().join(".kansoku"), &out, "public");
        let written = vec![("a.html".to_owned(), 1, 7)];
        let saved = dir_identity(&out).expect("identity");
        save(
            &paths.committed,
            saved,
            entries_on_disk(&out, &written).into_iter(),
        )
        .expect("save");
        assert!(saved.born.is_some(), "this file system keeps birth times");
        assert!(paths.load(&out).owns("a.html"));
        // Another clock tick than the original's birth.
        std::thread::sleep(std::time::Duration::from_millis(20));
        let reused = made_again(&out);
        let now = dir_identity(&out).expect("identity");
        assert!(!saved.describes(now), "reused: {reused}: {saved:?} {now:?}");
        assert!(paths.load(&out).files.is_empty(), "reused: {reused}");
    }

    #[test]
    fn only_a_record_with_the_birth_time_describes_a_directory() {
        let born = |b| DirId { born: b, ..ONE };
        assert!(ONE.describes(ONE));
        assert!(!ONE.describes(born(Some(4))));
        assert!(!ONE.describes(born(None)));
        // Where the file system keeps no birth time, no record describes
        // a directory: device and inode alone would.
        assert!(!born(None).describes(born(None)));
        let body = "1 00000000000000ff 1 2 3 4 5 6 100644@7 a\nend 1\n";
        let parsed = |head: &str, dir| Manifest::parse(&format!("{head}\n{body}"), dir);
        let m = parsed("kansoku-manifest 3 1 2 3", ONE).expect("this directory's");
        let id = m.files["a"].id.expect("an identity");
        assert_eq!((id.mode, id.born), (0o100644, Some(7)));
        assert!(parsed("kansoku-manifest 3 1 2 -", born(None)).is_none());
        assert!(parsed("kansoku-manifest 3 1 2 3 4", ONE).is_none());
        // A record of kansoku before birth times names only device and
        // inode: never taken for this directory's.
        assert!(parsed("kansoku-manifest 2 1 2", ONE).is_none());
        assert!(parsed("kansoku-manifest 2 1 2", born(None)).is_none());
    }

    #[test]
    fn a_truncated_manifest_is_ignored() {
        let text = "kansoku-manifest 3 1 2 3\n1 00000000000000ff - - - - - - - a\n";
        assert!(Manifest::parse(text, ONE).is_none());
        let whole = format!("{text}end 1\n");
        assert!(Manifest::parse(&whole, ONE).is_some());
        assert!(Manifest::parse(&whole, DirId { ino: 3, ..ONE }).is_none());
        assert!(Manifest::parse("kansoku-manifest 3 1 2 3\nend 0\n", ONE).is_some());
    }

    #[test]
    fn a_path_that_leaves_the_tree_voids_a_record() {
        for path in [
            "../outside",
            "/etc/passwd",
            "a/../../b",
            "a//b",
            "./a",
            "a\\b",
        ] {
            let text = format!(
                "kansoku-manifest 3 1 2 3\n1 00000000000000ff - - - - - - - ok\n1 00000000000000ff - - - - - - - {path}\nend 2\n"
            );
            assert!(Manifest::parse(&text, ONE).is_none(), "{path}");
        }
    }

    #[test]
    fn malformed_lines_void_a_record() {
        for line in [
            "1 ff - a",
            "1 ff",
            "1 ff 1 2 3 4 5 6 a",
            "1 zz - - - - - - - a",
        ] {
            let text = format!("kansoku-manifest 3 1 2 3\n{line}\nend 1\n");
            assert!(Manifest::parse(&text, ONE).is_none(), "{line}");
        }
    }

    #[test]
    fn a_directory_record_reads_back_for_its_tree_only() {
        let tmp = crate::scratch::tempdir();
        let (tree, path) = (tmp.path().join("tree"), tmp.path().join("dirs"));
        fs::create_dir_all(tree.join("a/b")).expect("mkdir");
        let id = |p: &str| identity(&fs::metadata(tree.join(p)).expect("stat")).expect("id");
        let dirs = [("a", id("a")), ("a/b", id("a/b"))];
        let root = dir_identity(&tree).expect("root");
        save_dirs(&path, root, dirs.iter().map(|(p, i)| (*p, *i))).expect("save");
        let back = load_dirs(&path, &tree);
        assert_eq!(back.len(), 2);
        assert_eq!(back.get("a/b"), Some(&id("a/b")));
        // Another tree at the same path: nothing applies.
        fs::rename(&tree, tmp.path().join("moved")).expect("rename");
        fs::create_dir(&tree).expect("mkdir");
        assert!(load_dirs(&path, &tree).is_empty());
        // A truncated record: nothing applies.
        let text = fs::read_to_string(&path).expect("read");
        fs::write(&path, &text[..text.len() - 6]).expect("truncate");
        assert!(load_dirs(&path, &tmp.path().join("moved")).is_empty());
    }

    #[test]
    fn owned_dirs_are_every_ancestor() {
        let dirs = owned_dirs(["a/b/c.html", "a/d.html", "e.html"].into_iter());
        let mut v: Vec<_> = dirs.into_iter().collect();
        v.sort_unstable();
        assert_eq!(v, ["a", "a/b"]);
    }
}
