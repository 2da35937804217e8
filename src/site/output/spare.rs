//! The spare: the tree a swap took out of the build directory, kept in
//! `.kansoku/` to become the next build's staging tree, so that a build
//! only writes, links or removes the files that differ from it.
//!
//! Two trees take turns: the build directory, and the spare being updated
//! into the next build. The spare's record (`NAME.spare-manifest`) says
//! which files it holds, with the bytes and identity of each; a file is
//! kept only while it still has that identity. The record is removed
//! before the spare is taken, so a build killed while updating it leaves a
//! staging tree the next build removes, never a spare whose record lies.

use super::stage::{How, Placed};
use super::{manifest, tree, Staging};
use crate::error::{Error, Result};
use crate::sync::lock;
use manifest::{Entry, Id, Manifest, Paths};
use std::collections::HashMap;
use std::fs;
use std::io;
use std::path::Path;

/// What the check of the spare found.
pub(super) enum Verdict {
    /// Usable: its record, and its directories found clean.
    Usable(Manifest, manifest::Dirs),
    /// Holds entries its record does not name (a file put there by hand, a
    /// symbolic link a build would write through): never used, and moved
    /// aside rather than removed, since those entries are not kansoku's.
    Foreign(Vec<String>),
    /// Missing, without a record, or with a directory kansoku cannot write
    /// into: discarded.
    Unusable,
}

/// Checks the spare against its record before a build uses it.
pub(super) fn check(paths: &Paths) -> Verdict {
    surveyed(paths).unwrap_or(Verdict::Unusable)
}

fn surveyed(paths: &Paths) -> Option<Verdict> {
    let meta = fs::symlink_metadata(&paths.spare_dir).ok()?;
    if !meta.is_dir() {
        return None;
    }
    let record = paths.load_spare()?;
    let dirs = manifest::load_dirs(&paths.spare_dirs, &paths.spare_dir);
    let owned_dirs = manifest::owned_dirs(record.files.keys().map(String::as_str));
    let none = crate::glob::Keep::new(&[]).expect("no patterns is valid");
    let rules = tree::Rules {
        keep: &none,
        owns: &|p| record.owns(p),
        owned_dir: &|d| owned_dirs.contains(d),
        // Only directories whose identity has not moved since a survey
        // found them clean are skipped: adding, removing or replacing an
        // entry moves it.
        known: &dirs,
        writable: true,
    };
    let survey = tree::survey(&paths.spare_dir, &rules).ok()?;
    if !survey.foreign.is_empty() {
        return Some(Verdict::Foreign(survey.foreign));
    }
    if !survey.locked.is_empty() {
        return None;
    }
    Some(Verdict::Usable(record, dirs))
}

/// Removes a spare that cannot be used, and its record.
pub(super) fn discard(paths: &Paths) -> io::Result<()> {
    for p in [&paths.spare, &paths.spare_dirs] {
        match fs::remove_file(p) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
            _ => {}
        }
    }
    match tree::remove_tree(&paths.spare_dir) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

/// Moves the spare to `staging`, its record removed first. `false` if it
/// could not be moved (then it is removed, as best it can be).
pub(super) fn take(paths: &Paths, staging: &Path) -> bool {
    match fs::remove_file(&paths.spare_dirs) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => {
            let _ = discard(paths);
            return false;
        }
        _ => {}
    }
    if fs::remove_file(&paths.spare).is_err() {
        let _ = discard(paths);
        return false;
    }
    if fs::rename(&paths.spare_dir, staging).is_err() {
        let _ = discard(paths);
        return false;
    }
    true
}

impl Staging {
    /// Removes from a staging tree made from the spare the spare's files
    /// that this build did not place, and the directories that leaves
    /// empty. A file no record names is left alone.
    pub(super) fn prune(&self, placed: &HashMap<String, Placed>) -> Result<()> {
        use rayon::prelude::*;
        let Some(spare) = &self.spare else {
            return Ok(());
        };
        let stale: Vec<&str> = spare
            .files
            .keys()
            .map(String::as_str)
            .filter(|p| !placed.contains_key(*p))
            .collect();
        stale.par_iter().try_for_each(|p| {
            let path = self.dir.join(p);
            if !tree::real_parents(&self.dir, p) {
                return Ok(());
            }
            match fs::symlink_metadata(&path) {
                // A directory now: this build put files under it.
                Ok(m) if !m.is_dir() => fs::remove_file(&path).map_err(|e| Error::io(&path, e)),
                _ => Ok(()),
            }
        })?;
        for p in &stale {
            self.touch(p);
        }
        tree::remove_emptied(
            &self.dir,
            stale
                .iter()
                .filter_map(|p| p.rsplit_once('/'))
                .map(|(d, _)| d),
        );
        Ok(())
    }

    /// The records of a swap: saves the new tree's as the committed
    /// manifest (from the pending one, complete since every identity is
    /// known), and keeps the previous tree, now at the staging name, as the
    /// spare with its record. Each step that fails only costs the next
    /// build time: without a record, a tree is not trusted.
    pub(super) fn record_swap(
        &self,
        placed: &HashMap<String, Placed>,
        previous_tree: bool,
        surveyed: &[(String, Id)],
    ) {
        if fs::rename(&self.manifests.pending, &self.manifests.committed).is_ok() {
            self.manifests.save_copy();
            let _ = self.manifests.tidy();
        }
        // The spare's clean directories that this build left alone are the
        // new tree's: the same entries, the same identities.
        let touched = lock(&self.touched);
        let dirs = self
            .spare_dirs
            .iter()
            .filter(|(d, _)| !touched.contains(d.as_str()))
            .map(|(d, id)| (d.as_str(), *id));
        let saved = self.spare.is_some()
            && manifest::dir_identity(&self.target)
                .is_some_and(|root| manifest::save_dirs(&self.manifests.dirs, root, dirs).is_ok());
        if !saved {
            let _ = fs::remove_file(&self.manifests.dirs);
        }
        drop(touched);
        if !previous_tree {
            return;
        }
        let spare = &self.manifests.spare_dir;
        // Never over something already there (there is nothing: the
        // spare was taken or removed when this build began).
        let kept = fs::symlink_metadata(spare).is_err() && fs::rename(&self.dir, spare).is_ok();
        if !kept {
            let _ = tree::remove_tree(&self.dir);
            return;
        }
        let Some(dir) = manifest::dir_identity(spare) else {
            let _ = discard(&self.manifests);
            return;
        };
        // The previous tree's record still describes it, but for the
        // files linked into the new tree: each is the same inode as the
        // new tree's file, whose identity was read once it was in place.
        // The others this build replaced or removed in the staging tree
        // may have shared an inode with the previous tree; their old
        // identity then no longer matches, so they are written afresh.
        let entries = self.previous.files.iter().map(|(p, e)| {
            let entry = match placed.get(p) {
                Some(Placed {
                    how: How::Linked,
                    id,
                    ..
                }) => Entry { id: *id, ..*e },
                _ => *e,
            };
            (p.as_str(), entry)
        });
        if manifest::save(&self.manifests.spare, dir, entries).is_err() {
            let _ = discard(&self.manifests);
            return;
        }
        // What this build's survey found clean in the previous tree.
        let surveyed = surveyed.iter().map(|(d, id)| (d.as_str(), *id));
        if manifest::save_dirs(&self.manifests.spare_dirs, dir, surveyed).is_err() {
            let _ = fs::remove_file(&self.manifests.spare_dirs);
        }
    }

    /// Notes that the directories holding `path` changed in the staging
    /// tree (all its ancestors: a survey goes down into a directory
    /// unread only through unread parents).
    pub(super) fn touch(&self, path: &str) {
        if self.spare.is_none() {
            return;
        }
        let mut touched = lock(&self.touched);
        let mut rest = path;
        while let Some((parent, _)) = rest.rsplit_once('/') {
            if !touched.insert(parent.to_owned()) {
                break;
            }
            rest = parent;
        }
    }

    /// The entries of the new tree for its manifest.
    pub(super) fn entries<'a>(
        placed: &'a HashMap<String, Placed>,
    ) -> impl Iterator<Item = (&'a str, Entry)> + 'a {
        placed.iter().map(|(p, f)| {
            (
                p.as_str(),
                Entry {
                    size: f.size,
                    hash: f.hash,
                    id: f.id,
                },
            )
        })
    }
}
