//! Where the tests make their scratch trees (the unit tests' module, and
//! `tests/it/main.rs` includes this same file).
//!
//! The tests create and remove tens of thousands of files. On the 2-core
//! test machine's ext4 (no journal), each new inode is found by stepping
//! over the ones freed in the last seconds (the kernel's
//! `recently_deleted`), and that was over a third of the tests' run time
//! (benches/README.md, "Test suite time"). So scratch trees go
//! to memory when the machine has room there; what they test (renames,
//! hard links, locks, symbolic links) behaves the same on tmpfs, and
//! `.ci/run` runs the output-tree tests once more on the disk.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// `KANSOKU_TEST_TMPDIR` when set (to run the tests on a filesystem of
/// one's choosing); else `/dev/shm` when it exists, takes a directory and
/// has 4 GiB free (a container's is often 64 MiB, and one test writes a
/// 200 MB log); else the system's temporary directory.
pub(crate) fn root() -> &'static Path {
    static ROOT: OnceLock<PathBuf> = OnceLock::new();
    ROOT.get_or_init(|| {
        if let Some(dir) = std::env::var_os("KANSOKU_TEST_TMPDIR") {
            return PathBuf::from(dir);
        }
        let shm = Path::new("/dev/shm");
        if roomy(shm) && tempfile::tempdir_in(shm).is_ok() {
            shm.to_path_buf()
        } else {
            std::env::temp_dir()
        }
    })
}

#[cfg(unix)]
fn roomy(dir: &Path) -> bool {
    rustix::fs::statvfs(dir).is_ok_and(|s| s.f_bavail.saturating_mul(s.f_frsize) >= 4 << 30)
}

#[cfg(not(unix))]
fn roomy(_: &Path) -> bool {
    false
}

/// A scratch directory under [`root`], removed when dropped.
pub(crate) fn tempdir() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("kansoku-test-")
        .tempdir_in(root())
        .unwrap_or_else(|e| panic!("a scratch directory in {}: {e}", root().display()))
}
