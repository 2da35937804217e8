//! Walking and removing trees on disk without ever following a symbolic
//! link, and sorting out the files a person put into the build directory
//! (by the `[build] keep` rule, [`Keep`]).

use super::manifest::{identity, Dirs, Id};
use crate::glob::Keep;
use std::collections::HashMap;
use std::fs;
use std::io;
use std::path::Path;

/// Removes a directory tree, its subtrees in parallel. A symbolic link, at
/// the top or anywhere below, is removed as a link: what it points to is
/// never touched (a symlinked `public/` once had its target emptied here).
pub(crate) fn remove_tree(dir: &Path) -> io::Result<()> {
    // Only a tree missing from the start is `NotFound`: below the top, an
    // entry that is gone was removed by someone else (an interrupted
    // build's staging tree is removed by the signal thread and the build's
    // own cleanup at once), which is what was asked.
    fs::symlink_metadata(dir)?;
    remove_below(dir)
}

/// [`remove_tree`] of a tree that existed: an entry found gone counts as
/// removed.
fn remove_below(dir: &Path) -> io::Result<()> {
    use rayon::prelude::*;
    // Each failure names the entry that could not be removed, which is
    // rarely the top of the tree (a read-only or immutable directory deep
    // inside): the message must lead to it.
    let at = |p: &Path| {
        let p = p.to_path_buf();
        move |e: io::Error| io::Error::new(e.kind(), Stuck { path: p, source: e })
    };
    let gone = |r: io::Result<()>| match r {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        r => r,
    };
    let meta = match fs::symlink_metadata(dir) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        r => r.map_err(at(dir))?,
    };
    if !meta.is_dir() {
        return gone(fs::remove_file(dir).map_err(at(dir)));
    }
    let entries: Vec<_> = match fs::read_dir(dir) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        r => r
            .map_err(at(dir))?
            .collect::<io::Result<_>>()
            .map_err(at(dir))?,
    };
    entries.par_iter().try_for_each(|e| {
        // `DirEntry::file_type` does not follow links.
        match e.file_type() {
            Err(err) if err.kind() == io::ErrorKind::NotFound => Ok(()),
            Err(err) => Err(at(&e.path())(err)),
            Ok(t) if t.is_dir() => remove_below(&e.path()),
            Ok(_) => gone(fs::remove_file(e.path()).map_err(at(&e.path()))),
        }
    })?;
    gone(fs::remove_dir(dir).map_err(at(dir)))
}

/// An entry [`remove_tree`] could not remove, and why.
#[derive(Debug)]
pub(crate) struct Stuck {
    pub(crate) path: std::path::PathBuf,
    source: io::Error,
}

impl std::fmt::Display for Stuck {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.source)
    }
}

impl std::error::Error for Stuck {}

/// The entry a [`remove_tree`] error is about, if it names one.
fn stuck(e: &io::Error) -> Option<&Stuck> {
    e.get_ref().and_then(|i| i.downcast_ref::<Stuck>())
}

/// An error for a tree of kansoku's own (`what`, at `tree`) that could not
/// be removed, naming the entry that stopped it and how to unblock it.
pub(crate) fn cannot_remove(what: &str, tree: &Path, e: &io::Error) -> crate::error::Error {
    let (path, why) = match stuck(e) {
        Some(s) => (s.path.as_path(), s.source.to_string()),
        None => (tree, e.to_string()),
    };
    crate::error::Error::Usage(format!(
        "cannot remove {} ({what}): {why}. Hint: make it writable (`chmod -R u+w {}`, or `chattr -R -i {}` if it is immutable) or remove it yourself, then build again",
        path.display(),
        tree.display(),
        tree.display()
    ))
}

/// Whether every directory on the way from `root` to `rel` (`/`-separated,
/// `rel` itself excluded) is a directory and not a symbolic link: only then
/// does `root.join(rel)` name an entry of `root`'s own tree.
pub(crate) fn real_parents(root: &Path, rel: &str) -> bool {
    let mut end = 0;
    while let Some(i) = rel[end..].find('/') {
        end += i;
        match fs::symlink_metadata(root.join(&rel[..end])) {
            Ok(m) if m.is_dir() => {}
            _ => return false,
        }
        end += 1;
    }
    true
}

/// Whether `dir` is the top of a mounted file system (its device differs
/// from its parent's), which can be emptied but not removed or renamed.
#[cfg(unix)]
pub(crate) fn is_mount_point(dir: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    let parent = dir.parent().unwrap_or(dir);
    match (fs::symlink_metadata(dir), fs::metadata(parent)) {
        (Ok(d), Ok(p)) => d.is_dir() && (d.dev() != p.dev() || d.ino() == p.ino()),
        _ => false,
    }
}

#[cfg(not(unix))]
pub(crate) fn is_mount_point(_: &Path) -> bool {
    false
}

/// Removes the directories under `root` that removing files left empty:
/// each of `parents` (`/`-separated, relative) and then its own parents,
/// deepest first, stopping at one that still holds anything.
pub(crate) fn remove_emptied<'a>(root: &Path, parents: impl Iterator<Item = &'a str>) {
    let mut parents: Vec<&str> = parents.collect();
    parents.sort_unstable_by(|a, b| b.len().cmp(&a.len()).then(b.cmp(a)));
    parents.dedup();
    for dir in parents {
        let mut d = dir;
        loop {
            if !real_parents(root, d) || fs::remove_dir(root.join(d)).is_err() {
                break;
            }
            match d.rsplit_once('/') {
                Some((up, _)) => d = up,
                None => break,
            }
        }
    }
}

/// What a build directory holds besides kansoku's own files.
#[derive(Debug, Default)]
pub(crate) struct Survey {
    /// Entries kept by `[build] keep` (a kept directory once, not its files).
    pub(crate) kept: Vec<String>,
    /// Files, links and empty directories kansoku did not write and no
    /// pattern keeps.
    pub(crate) foreign: Vec<String>,
    /// The directories below the top that held only kansoku's entries,
    /// with their identity just before they were read (or matched).
    pub(crate) clean: Vec<(String, Id)>,
    /// Directories this process cannot write into, when the rules ask
    /// (see [`Rules::writable`]); not read further.
    pub(crate) locked: Vec<String>,
}

impl Survey {
    fn extend(&mut self, other: Survey) {
        self.kept.extend(other.kept);
        self.foreign.extend(other.foreign);
        self.clean.extend(other.clean);
        self.locked.extend(other.locked);
    }
}

/// What a survey is told about the tree it walks.
pub(crate) struct Rules<'a> {
    pub(crate) keep: &'a Keep,
    /// Whether a file path is kansoku's.
    pub(crate) owns: &'a (dyn Fn(&str) -> bool + Sync),
    /// Whether a directory is one a file of kansoku's lives in (an empty
    /// directory that is not, is someone else's).
    pub(crate) owned_dir: &'a (dyn Fn(&str) -> bool + Sync),
    /// Directories found clean by an earlier survey (see `manifest::Dirs`):
    /// one that still has the identity recorded is not read again.
    pub(crate) known: &'a Dirs,
    /// Whether a directory kansoku cannot write into counts as foreign:
    /// for the spare, which a build updates file by file.
    pub(crate) writable: bool,
}

/// Whether this process may add and remove entries in `dir`.
#[cfg(unix)]
fn can_write(dir: &Path) -> bool {
    rustix::fs::access(dir, rustix::fs::Access::WRITE_OK).is_ok()
}

#[cfg(not(unix))]
fn can_write(_: &Path) -> bool {
    true
}

/// Walks `dir` without following links and sorts out what is not kansoku's.
pub(crate) fn survey(dir: &Path, rules: &Rules<'_>) -> io::Result<Survey> {
    // The known subdirectories of each known directory, to go down into
    // one that is not read.
    let mut children: HashMap<&str, Vec<&str>> = HashMap::new();
    for d in rules.known.keys() {
        let parent = d.rsplit_once('/').map_or("", |(p, _)| p);
        children.entry(parent).or_default().push(d);
    }
    let mut s = walk(dir, "", rules, &children)?;
    s.kept.sort_unstable();
    s.foreign.sort_unstable();
    Ok(s)
}

fn walk(
    dir: &Path,
    prefix: &str,
    rules: &Rules<'_>,
    children: &HashMap<&str, Vec<&str>>,
) -> io::Result<Survey> {
    use rayon::prelude::*;
    // Read before the entries: an entry added in between then moves the
    // identity again, and is seen next time.
    let id = if prefix.is_empty() {
        None
    } else {
        identity(&fs::symlink_metadata(dir)?)
    };
    if let Some(id) = id.filter(|id| rules.known.get(prefix) == Some(id)) {
        let mut all = Survey {
            clean: vec![(prefix.to_owned(), id)],
            ..Survey::default()
        };
        let subdirs = children.get(prefix).map_or(&[][..], Vec::as_slice);
        let parts: Vec<Survey> = subdirs
            .par_iter()
            .map(|sub| {
                let name = sub.rsplit('/').next().unwrap_or(sub);
                match fs::symlink_metadata(dir.join(name)) {
                    Ok(m) if m.is_dir() => walk(&dir.join(name), sub, rules, children),
                    // Gone or replaced: the directory's identity would have
                    // moved; only a race gets here, and the next survey
                    // reads the directory.
                    _ => Ok(Survey::default()),
                }
            })
            .collect::<io::Result<_>>()?;
        for p in parts {
            all.extend(p);
        }
        return Ok(all);
    }
    // Only a directory that is read needs the check: one recorded clean
    // was writable then (no survey records another), and making it
    // read-only since moved its identity, so it is read again.
    let writable = can_write(dir);
    if rules.writable && !writable {
        return Ok(Survey {
            locked: vec![prefix.to_owned()],
            ..Survey::default()
        });
    }
    let entries: Vec<_> = fs::read_dir(dir)?.collect::<io::Result<_>>()?;
    if entries.is_empty() && !prefix.is_empty() && !(rules.owned_dir)(prefix) {
        return Ok(Survey {
            foreign: vec![prefix.to_owned()],
            ..Survey::default()
        });
    }
    let parts: Vec<Survey> = entries
        .par_iter()
        .map(|e| {
            let name = e.file_name();
            let rel = match name.to_str() {
                Some(n) if prefix.is_empty() => n.to_owned(),
                Some(n) => format!("{prefix}/{n}"),
                // kansoku writes only UTF-8 names: this one is not its.
                None => {
                    let lossy = name.to_string_lossy();
                    let rel = if prefix.is_empty() {
                        lossy.into_owned()
                    } else {
                        format!("{prefix}/{lossy}")
                    };
                    return Ok(Survey {
                        foreign: vec![rel],
                        ..Survey::default()
                    });
                }
            };
            if rules.keep.matches_entry(&rel) {
                return Ok(Survey {
                    kept: vec![rel],
                    ..Survey::default()
                });
            }
            let kind = e.file_type()?;
            if kind.is_dir() {
                walk(&e.path(), &rel, rules, children)
            } else if (rules.owns)(&rel) && !kind.is_symlink() {
                // A link is never kansoku's, even at one of its paths: a
                // person put it there.
                Ok(Survey::default())
            } else {
                Ok(Survey {
                    foreign: vec![rel],
                    ..Survey::default()
                })
            }
        })
        .collect::<io::Result<_>>()?;
    // Clean when no entry of its own is kept or foreign (its
    // subdirectories answer for themselves).
    let own = |p: &String| p.rsplit_once('/').map_or("", |(d, _)| d) == prefix;
    let mut all = Survey::default();
    for p in parts {
        all.extend(p);
    }
    let clean = writable && !all.kept.iter().any(own) && !all.foreign.iter().any(own);
    if let Some(id) = id.filter(|_| clean) {
        all.clean.push((prefix.to_owned(), id));
    }
    Ok(all)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An interrupted build's staging tree is removed by the signal
    /// thread and by the build's own cleanup at once. Each removal must
    /// count an entry the other removed as removed: one that gave up on
    /// it (a `NotFound` deep inside) while the other did too left the
    /// staging tree behind after an interrupt.
    #[test]
    fn two_removals_of_one_tree_at_once_both_succeed() {
        let tmp = crate::scratch::tempdir();
        for round in 0..20 {
            let tree = tmp.path().join(format!("tree-{round}"));
            for d in 0..8 {
                let dir = tree.join(format!("d{d}/sub"));
                fs::create_dir_all(&dir).expect("mkdir");
                for f in 0..40 {
                    fs::write(dir.join(format!("f{f}")), "x").expect("write");
                }
            }
            let (a, b) = std::thread::scope(|s| {
                let a = s.spawn(|| remove_tree(&tree));
                let b = s.spawn(|| remove_tree(&tree));
                (a.join().expect("a"), b.join().expect("b"))
            });
            for r in [a, b] {
                // The tree gone before this removal began is the one
                // `NotFound` it may give, naming the tree itself.
                if let Err(e) = r {
                    assert_eq!(e.kind(), io::ErrorKind::NotFound, "round {round}: {e}");
                    let stuck = e.get_ref().and_then(|e| e.downcast_ref::<Stuck>());
                    assert!(
                        stuck.is_none(),
                        "round {round}: gave up inside the tree: {e}"
                    );
                }
            }
            assert!(!tree.exists(), "round {round}: the tree is gone");
        }
    }

    #[cfg(unix)]
    #[test]
    fn remove_tree_never_follows_a_link() {
        let tmp = crate::scratch::tempdir();
        let target = tmp.path().join("target");
        fs::create_dir_all(target.join("sub")).expect("mkdir");
        fs::write(target.join("sub/precious"), "x").expect("write");
        let tree = tmp.path().join("tree");
        fs::create_dir(&tree).expect("mkdir");
        std::os::unix::fs::symlink(&target, tree.join("link")).expect("symlink");
        let top = tmp.path().join("top-link");
        std::os::unix::fs::symlink(&target, &top).expect("symlink");
        remove_tree(&tree).expect("remove");
        remove_tree(&top).expect("remove the link itself");
        assert!(!tree.exists() && fs::symlink_metadata(&top).is_err());
        assert_eq!(fs::read(target.join("sub/precious")).expect("kept"), b"x");
    }
}
