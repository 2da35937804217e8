//! `kansoku clean`: removes what builds wrote and kansoku's own
//! bookkeeping (`.kansoku/`), and nothing else.
//!
//! Each tree goes through `site::output::remove_at`, the one place that
//! knows how to remove a tree kansoku wrote (only the files its record
//! names, never through a symbolic link), after `site::place` has checked
//! that the tree is not the site's sources.
//!
//! A `build --out DIR` tree is removed only when it is named
//! (`clean --out DIR`): which directory a record under `.kansoku/out/`
//! describes is read from a file there, and a record is never trusted to
//! choose a directory to delete from. A plain `clean` keeps those records
//! and names them.

use crate::config::Config;
use crate::error::{Error, Result};
use crate::site::place;
use std::path::{Path, PathBuf};

/// kansoku's bookkeeping directory at a site's root.
pub(crate) const STATE_DIR: &str = ".kansoku";

/// What `clean` did.
#[derive(Debug, Default)]
pub struct Cleaned {
    /// The trees whose files kansoku removed, and `.kansoku`: site-relative
    /// for the build directory and the records, as given for `--out`.
    pub removed: Vec<PathBuf>,
    /// Files in those trees that kansoku did not write, left where they
    /// are (each under its tree).
    pub left: Vec<PathBuf>,
    /// `--out` directories whose records were kept (see the module doc).
    pub kept_out: Vec<PathBuf>,
}

/// Removes the build directory and `.kansoku/` of the site at `root`,
/// but for the records of `--out` trees, which are kept and named.
/// Refuses, removing nothing, when the build directory resolves into the
/// site's sources.
pub fn clean(root: &Path) -> Result<Cleaned> {
    let config = Config::load(root)?;
    let built = place::build_dir(root, &config)?;
    let state = state_dir(root)?;
    let mut done = Cleaned::default();
    if built.out.symlink_metadata().is_ok() {
        let left = crate::site::output::remove_at(&built.out, &built.state)?;
        done.left
            .extend(left.iter().map(|p| built.shown.join(p.as_str())));
        done.removed.push(built.shown.clone());
    }
    done.kept_out = place::recorded_out_dirs(root);
    let Some(state) = state else {
        return Ok(done);
    };
    let entries = std::fs::read_dir(&state).map_err(|e| Error::io(&state, e))?;
    for entry in entries {
        let entry = entry.map_err(|e| Error::io(&state, e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        // A copy of an earlier build that held someone else's files
        // (see `site::output`): theirs to delete.
        if name.contains(".spare-foreign-") {
            done.left.push(PathBuf::from(STATE_DIR).join(&name));
            continue;
        }
        if name == place::OUT_RECORDS && !done.kept_out.is_empty() {
            continue;
        }
        remove_entry(&entry.path())?;
    }
    if std::fs::remove_dir(&state).is_ok() {
        done.removed.push(PathBuf::from(STATE_DIR));
    }
    Ok(done)
}

/// Removes what `build --out DIR` wrote into `dir` (as its record says)
/// and that record.
pub fn clean_out(root: &Path, dir: &Path) -> Result<Cleaned> {
    let config = Config::load(root)?;
    let place = place::out_dir(root, &config, dir)?;
    state_dir(root)?;
    let mut done = Cleaned::default();
    if place.state.symlink_metadata().is_err() {
        return Ok(done);
    }
    if place.out.symlink_metadata().is_ok() {
        let left = crate::site::output::remove_at(&place.out, &place.state)?;
        done.left
            .extend(left.iter().map(|p| place.shown.join(p.as_str())));
    }
    remove_entry(&place.state)?;
    done.removed.push(place.shown);
    // The records' directories go once nothing else is in them.
    let out_records = root.join(STATE_DIR).join(place::OUT_RECORDS);
    if std::fs::remove_dir(&out_records).is_ok() {
        let _ = std::fs::remove_dir(root.join(STATE_DIR));
    }
    Ok(done)
}

/// `.kansoku/` at `root` if it is there; an error if it is not a
/// directory (then it is not kansoku's).
fn state_dir(root: &Path) -> Result<Option<PathBuf>> {
    let state = root.join(STATE_DIR);
    match state.symlink_metadata() {
        Ok(m) if m.is_dir() => Ok(Some(state)),
        Ok(_) => Err(Error::Usage(format!(
            "{} is not a directory, so it is not kansoku's; kansoku removed nothing. Move it away and run clean again",
            state.display()
        ))),
        Err(_) => Ok(None),
    }
}

/// Removes one entry of `.kansoku/`, never following a link.
fn remove_entry(path: &Path) -> Result<()> {
    let is_dir = path.symlink_metadata().is_ok_and(|m| m.is_dir());
    let gone = if is_dir {
        std::fs::remove_dir_all(path)
    } else {
        std::fs::remove_file(path)
    };
    gone.map_err(|e| Error::io(path, e))
}
