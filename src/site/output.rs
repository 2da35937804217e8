//! Writing the output tree atomically.
//!
//! Everything is written into a staging directory beside the build
//! directory, then swapped in with renames, so a failed or interrupted build
//! leaves the previous tree byte-for-byte as it was.

use crate::error::{Error, Result};
use crate::render::OutputFile;
use std::path::{Path, PathBuf};

fn sibling(out: &Path, tag: &str) -> PathBuf {
    let name = out
        .file_name()
        .map_or_else(|| "public".into(), |n| n.to_string_lossy().into_owned());
    out.with_file_name(format!(".{name}.kansoku-{tag}-{}", std::process::id()))
}

/// Writes `files` to `out`, replacing its previous contents only on success.
pub fn write_atomic(files: &[OutputFile], out: &Path) -> Result<()> {
    if out.exists() && !out.is_dir() {
        return Err(Error::Usage(format!(
            "{} exists and is not a directory",
            out.display()
        )));
    }
    let staging = sibling(out, "staging");
    if staging.exists() {
        std::fs::remove_dir_all(&staging).map_err(|e| Error::io(&staging, e))?;
    }
    if let Err(e) = write_tree(files, &staging) {
        let _ = std::fs::remove_dir_all(&staging);
        return Err(e);
    }
    if out.exists() {
        let old = sibling(out, "old");
        if old.exists() {
            remove_tree(&old).map_err(|e| Error::io(&old, e))?;
        }
        std::fs::rename(out, &old).map_err(|e| {
            let _ = std::fs::remove_dir_all(&staging);
            Error::io(out, e)
        })?;
        if let Err(e) = std::fs::rename(&staging, out) {
            // Put the previous tree back so nothing is lost.
            let _ = std::fs::rename(&old, out);
            let _ = std::fs::remove_dir_all(&staging);
            return Err(Error::io(out, e));
        }
        remove_tree(&old).map_err(|e| Error::io(&old, e))?;
    } else {
        if let Some(parent) = out.parent() {
            std::fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
        }
        std::fs::rename(&staging, out).map_err(|e| {
            let _ = std::fs::remove_dir_all(&staging);
            Error::io(out, e)
        })?;
    }
    Ok(())
}

fn write_tree(files: &[OutputFile], dir: &Path) -> Result<()> {
    use rayon::prelude::*;
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    // Directories, then files, each in parallel: metadata operations are
    // the slow part on many disks, the bytes are final, and
    // create_dir_all tolerates a directory made meanwhile by another thread.
    let mut dirs: Vec<&str> = files
        .iter()
        .filter_map(|f| f.path.rsplit_once('/').map(|(d, _)| d))
        .collect();
    dirs.sort_unstable();
    dirs.dedup();
    dirs.par_iter().try_for_each(|d| {
        let path = dir.join(d);
        std::fs::create_dir_all(&path).map_err(|e| Error::io(&path, e))
    })?;
    files.par_iter().try_for_each(|f| {
        let path = dir.join(&f.path);
        std::fs::write(&path, &f.bytes).map_err(|e| Error::io(&path, e))
    })
}

/// Removes a directory tree, its subtrees in parallel.
fn remove_tree(dir: &Path) -> std::io::Result<()> {
    use rayon::prelude::*;
    let entries: Vec<_> = std::fs::read_dir(dir)?.collect::<std::io::Result<_>>()?;
    entries.par_iter().try_for_each(|e| {
        if e.file_type()?.is_dir() {
            remove_tree(&e.path())
        } else {
            std::fs::remove_file(e.path())
        }
    })?;
    std::fs::remove_dir(dir)
}
