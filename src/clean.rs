//! `kansoku clean`: removes the build directory and kansoku's own
//! bookkeeping (`.kansoku/`), and nothing else.
//!
//! The build directory goes through `site::output::remove`, the one place
//! that knows how to remove a tree kansoku wrote (a symlinked build
//! directory is not followed into its target).

use crate::config::Config;
use crate::error::{Error, Result};
use std::path::{Path, PathBuf};

/// kansoku's bookkeeping directory at a site's root.
pub const STATE_DIR: &str = ".kansoku";

/// Removes the build directory and `.kansoku/` of the site at `root`;
/// returns the site-relative paths that were there.
pub fn clean(root: &Path) -> Result<Vec<PathBuf>> {
    let config = Config::load(root)?;
    let mut removed = Vec::new();
    let out = root.join(&config.build_dir);
    if out.symlink_metadata().is_ok() {
        crate::site::output::remove(&out)?;
        removed.push(config.build_dir.clone());
    }
    let state = root.join(STATE_DIR);
    if state.symlink_metadata().is_ok() {
        // Never followed: a link here is removed, not its target.
        let gone = if state.is_symlink() || state.is_file() {
            std::fs::remove_file(&state)
        } else {
            std::fs::remove_dir_all(&state)
        };
        gone.map_err(|e| Error::io(&state, e))?;
        removed.push(PathBuf::from(STATE_DIR));
    }
    Ok(removed)
}
