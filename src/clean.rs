//! `kansoku clean`: removes what builds wrote (the build directory, and
//! the files of every `build --out` tree whose records it keeps) and
//! kansoku's own bookkeeping (`.kansoku/`), and nothing else.
//!
//! Each tree goes through `site::output::remove_at`, the one place that
//! knows how to remove a tree kansoku wrote (only the files its record
//! names, never through a symbolic link), after `site::place` has checked
//! that the tree is not the site's sources.

use crate::config::Config;
use crate::error::{Error, Result};
use crate::site::place;
use std::path::{Path, PathBuf};

/// kansoku's bookkeeping directory at a site's root.
pub const STATE_DIR: &str = ".kansoku";

/// What `clean` did.
#[derive(Debug, Default)]
pub struct Cleaned {
    /// The trees whose files kansoku removed, and `.kansoku`: site-relative
    /// for the build directory and the records, as recorded for `--out`.
    pub removed: Vec<PathBuf>,
    /// Files in those trees that kansoku did not write, left where they
    /// are (each under its tree, `/`-separated).
    pub left: Vec<PathBuf>,
}

/// Removes the build directory, the `--out` trees built from this site
/// and `.kansoku/` of the site at `root`. Refuses, removing nothing, when
/// the build directory resolves into the site's sources.
pub fn clean(root: &Path) -> Result<Cleaned> {
    let config = Config::load(root)?;
    let built = place::build_dir(root, &config)?;
    let mut done = Cleaned::default();
    let state = root.join(STATE_DIR);
    if let Ok(m) = state.symlink_metadata() {
        if !m.is_dir() {
            return Err(Error::Usage(format!(
                "{} is not a directory, so it is not kansoku's; kansoku removed nothing. Move it away and run clean again",
                state.display()
            )));
        }
    }
    let mut trees = vec![(built.shown.clone(), Ok(built))];
    trees.extend(place::recorded_out_dirs(root, &config));
    for (shown, checked) in trees {
        let place = checked?;
        if place.out.symlink_metadata().is_err() {
            continue;
        }
        let left = crate::site::output::remove_at(&place.out, &place.state)?;
        done.left
            .extend(left.iter().map(|p| place.shown.join(p.as_str())));
        done.removed.push(shown);
    }
    if state.symlink_metadata().is_ok() {
        let entries = std::fs::read_dir(&state).map_err(|e| Error::io(&state, e))?;
        for entry in entries {
            let entry = entry.map_err(|e| Error::io(&state, e))?;
            let path = entry.path();
            // A copy of an earlier build that held someone else's files
            // (see `site::output`): theirs to delete.
            if entry
                .file_name()
                .to_string_lossy()
                .contains(".spare-foreign-")
            {
                done.left
                    .push(PathBuf::from(STATE_DIR).join(entry.file_name()));
                continue;
            }
            let gone = if entry.file_type().is_ok_and(|t| t.is_dir()) {
                std::fs::remove_dir_all(&path)
            } else {
                std::fs::remove_file(&path)
            };
            gone.map_err(|e| Error::io(&path, e))?;
        }
        if std::fs::remove_dir(&state).is_ok() {
            done.removed.push(PathBuf::from(STATE_DIR));
        }
    }
    Ok(done)
}
