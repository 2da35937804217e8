//! `kansoku init DIR`: writes the starter site compiled into the binary.
//!
//! It never overwrites: a non-empty target directory is refused, so no
//! one's work is lost to a mistyped path.

use crate::error::{Error, Result};
use std::path::Path;

macro_rules! embed {
    ($($path:literal),* $(,)?) => {
        &[$(($path, include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/src/init_site/", $path)))),*]
    };
}

/// The starter site: (path inside the new site, text).
pub const FILES: &[(&str, &str)] = embed!(
    "book.toml",
    "content/_index.md",
    "content/notes/_index.md",
    "content/notes/first-observation.md",
    "evidence/logs/run-1.log",
    "evidence/notes/reading.md",
);

/// Writes the starter site into `dir`, which must be missing or empty.
pub fn init(dir: &Path) -> Result<usize> {
    if dir.exists() {
        let mut entries = std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))?;
        if entries.next().is_some() {
            return Err(Error::Usage(format!(
                "{} is not empty; kansoku init only writes into a new or empty directory",
                dir.display()
            )));
        }
    }
    for (rel, text) in FILES {
        let path = dir.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
        }
        std::fs::write(&path, text).map_err(|e| Error::io(&path, e))?;
    }
    Ok(FILES.len())
}
