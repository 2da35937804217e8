//! Which kansoku wrote a memo: what the memo tables are keyed by, so that
//! another kansoku never takes files an older one rendered.

use std::sync::OnceLock;

/// kansoku's version and, where the running executable can be found, its
/// size and modification time: a build of kansoku from changed sources
/// keeps the version string of the last release, and its output may differ
/// all the same. A stat, not a hash of the executable (tens of megabytes
/// read on every build): installing or rebuilding the binary replaces the
/// file, which changes both.
pub(crate) fn build_id() -> &'static str {
    static ID: OnceLock<String> = OnceLock::new();
    ID.get_or_init(|| {
        let exe = std::env::current_exe()
            .and_then(std::fs::metadata)
            .ok()
            .and_then(|m| {
                let modified = m.modified().ok()?;
                let since = modified.duration_since(std::time::UNIX_EPOCH).ok()?;
                Some(format!(
                    "+{}.{}.{}",
                    m.len(),
                    since.as_secs(),
                    since.subsec_nanos()
                ))
            });
        format!("{}{}", env!("CARGO_PKG_VERSION"), exe.unwrap_or_default())
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_build_id_starts_with_the_version_and_names_the_executable() {
        let id = super::build_id();
        let rest = id
            .strip_prefix(env!("CARGO_PKG_VERSION"))
            .expect("the version first");
        let meta = std::fs::metadata(std::env::current_exe().expect("exe")).expect("stat");
        assert!(rest.starts_with(&format!("+{}.", meta.len())), "{id}");
        assert_eq!(super::build_id(), id, "the same for the whole run");
    }
}
