//! The memo on disk: a build keeps its page facts, findings and render
//! memo beside its build directory for the next build, tagged with
//! kansoku's version so that another version's are never read.

use super::*;

/// The on-disk form of the render memo: kansoku's version first, so that
/// another version's tables are never read.
#[derive(serde::Serialize, serde::Deserialize)]
struct Saved {
    version: String,
    units: Map<String, UnitMemo>,
}

/// Where a build keeps its findings, given the site's configuration.
pub(crate) type CheckStore = Box<dyn Fn(&Config) -> PathBuf + Send + Sync>;

impl Caches {
    /// Keeps this build's page facts and findings for the next build at
    /// the path `at` names, and takes the last build's from there.
    pub(crate) fn keep_checks(&mut self, at: CheckStore) {
        self.saved_checks = Some(at);
    }

    /// Saves what [`Caches::keep_checks`] asked for, through a temporary
    /// file renamed into place.
    pub(crate) fn save_checks(&mut self) -> std::io::Result<()> {
        let Some((path, saved)) = self.checks_to_save.take() else {
            return Ok(());
        };
        let bytes = serde_json::to_vec(&saved).map_err(std::io::Error::other)?;
        write_replacing(&path, &bytes)
    }

    /// Takes the render memo a previous `kansoku build` saved at `path`;
    /// an empty one if there is none, or it is unreadable, corrupt or another
    /// kansoku's (`version::build_id`; then the build is cold, never an error).
    pub fn read_units(&mut self, path: &Path) {
        self.units = std::fs::read(path)
            .ok()
            .and_then(|bytes| serde_json::from_slice::<Saved>(&bytes).ok())
            .filter(|s| s.version == crate::version::build_id())
            .map(|s| s.units)
            .unwrap_or_default();
    }

    /// Saves the render memo at `path`, through a temporary file renamed
    /// into place so that a reader never sees half of one.
    pub fn save_units(&self, path: &Path) -> std::io::Result<()> {
        // Borrowed, as `Saved` is read: the table is 36,000 paths at scale.
        #[derive(serde::Serialize)]
        struct SavedRef<'a> {
            version: &'a str,
            units: &'a Map<String, UnitMemo>,
        }
        let saved = SavedRef {
            version: crate::version::build_id(),
            units: &self.units,
        };
        let bytes = serde_json::to_vec(&saved).map_err(std::io::Error::other)?;
        write_replacing(path, &bytes)
    }
}

/// Writes `bytes` at `path` through a temporary file renamed into place,
/// so that a reader never sees half of one.
fn write_replacing(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    crate::fsutil::write_atomic(path, bytes)
}
