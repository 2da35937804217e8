//! Where a site's output goes, and where kansoku keeps its records of it.
//!
//! Every directory a build writes into or `clean` removes from is resolved
//! first (symbolic links and `..` followed) and refused when it is, holds or
//! lies inside the site's sources, kansoku's own records, `.git/`, or the
//! site root and its ancestors: a `public -> .` link once let `clean` remove
//! `evidence/`, because the build had recorded the sources as its output.
//!
//! The records of a build directory live in `.kansoku/` at the site root,
//! whatever `build-dir` says; those of `build --out DIR` in
//! `.kansoku/out/ID/` (ID from DIR's resolved path) with that path beside
//! them, so that `kansoku clean` finds and names every one, and
//! `clean --out DIR` removes what kansoku wrote there.

use super::output::STATE_DIR;
use crate::config::Config;
use crate::error::{Error, Result};
use std::path::{Component, Path, PathBuf};

/// A build directory and the directory of its records.
#[derive(Debug, Clone)]
pub(crate) struct Place {
    /// Where the files go, as named (it may be a symbolic link).
    pub(crate) out: PathBuf,
    /// Where the manifests, memos and the lock of `out` are kept.
    pub(crate) state: PathBuf,
    /// How `out` is named to the user: `build-dir` relative to the site
    /// root, or `--out` as given.
    pub(crate) shown: PathBuf,
}

/// The directory under `.kansoku/` holding the `--out` trees' records.
pub(crate) const OUT_RECORDS: &str = "out";
/// The file naming the `--out` directory those records describe.
const TARGET_FILE: &str = "target";

/// The configured build directory of the site at `root`, checked.
pub(crate) fn build_dir(root: &Path, config: &Config) -> Result<Place> {
    let place = configured(root, config);
    check(root, config, &place, "build-dir")?;
    Ok(place)
}

/// The configured build directory, unchecked.
fn configured(root: &Path, config: &Config) -> Place {
    Place {
        out: root.join(&config.build_dir),
        state: root.join(STATE_DIR),
        shown: config.build_dir.clone(),
    }
}

/// `build --out DIR`, checked; its records go under `.kansoku/out/`.
pub(crate) fn out_dir(root: &Path, config: &Config, dir: &Path) -> Result<Place> {
    let resolved = resolve(dir).map_err(|e| Error::io(dir, e))?;
    let place = Place {
        out: dir.to_path_buf(),
        state: root
            .join(STATE_DIR)
            .join(OUT_RECORDS)
            .join(format!("{:016x}", path_id(&resolved))),
        shown: dir.to_path_buf(),
    };
    check(root, config, &place, "--out")?;
    Ok(place)
}

/// Notes, beside the records of an `--out` tree, which directory they
/// describe, for `clean` to name. Its absolute, resolved path.
pub(crate) fn remember_target(place: &Place) -> Result<()> {
    if place.state.parent().and_then(Path::file_name) != Some(OUT_RECORDS.as_ref()) {
        return Ok(());
    }
    let resolved = resolve(&place.out).map_err(|e| Error::io(&place.out, e))?;
    let file = place.state.join(TARGET_FILE);
    std::fs::create_dir_all(&place.state).map_err(|e| Error::io(&place.state, e))?;
    let text = resolved.to_string_lossy().into_owned();
    if std::fs::read_to_string(&file).is_ok_and(|t| t == text) {
        return Ok(());
    }
    std::fs::write(&file, text).map_err(|e| Error::io(&file, e))
}

/// The `--out` directories whose records are kept under `root`'s
/// `.kansoku/`, as those records name them (or the record's own
/// directory, when it names none): for `clean` to say what it kept. Never
/// a directory to remove from: that one the user names (`clean --out`).
pub(crate) fn recorded_out_dirs(root: &Path) -> Vec<PathBuf> {
    let dir = root.join(STATE_DIR).join(OUT_RECORDS);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut found: Vec<PathBuf> = entries
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(
            |e| match std::fs::read_to_string(e.path().join(TARGET_FILE)) {
                Ok(text) => PathBuf::from(text),
                Err(_) => e.path(),
            },
        )
        .collect();
    found.sort();
    found
}

/// A stable id of a resolved path, for the name of its records'
/// directory (not cryptographic: two `--out` paths colliding would share
/// records, each still naming its own directory in `target`).
fn path_id(resolved: &Path) -> u64 {
    crate::hash::content_hash(resolved.as_os_str().as_encoded_bytes())
}

/// Refuses `place` when its directory, resolved, is or holds the site root
/// or one of its ancestors, or is, holds or lies inside a source or record
/// of the site.
fn check(root: &Path, config: &Config, place: &Place, what: &str) -> Result<()> {
    match refusal(root, config, place, what)? {
        Some(r) => Err(Error::Usage(format!(
            "{}; kansoku changed nothing. Hint: {}",
            r.message, r.hint
        ))),
        None => Ok(()),
    }
}

/// Why a build would refuse its directory, and how to fix it.
pub(crate) struct Refusal {
    pub(crate) message: String,
    pub(crate) hint: String,
}

/// What [`build_dir`] would refuse the configured build directory for, if
/// anything (`check` reports it as E045).
pub(crate) fn build_dir_refusal(root: &Path, config: &Config) -> Result<Option<Refusal>> {
    refusal(root, config, &configured(root, config), "build-dir")
}

/// The reason [`check`] gives, if any.
fn refusal(root: &Path, config: &Config, place: &Place, what: &str) -> Result<Option<Refusal>> {
    let resolve_io = |p: &Path| resolve(p).map_err(|e| Error::io(p, e));
    let root_r = resolve_io(root)?;
    let out_r = resolve_io(&place.out)?;
    let is_link = place
        .out
        .symlink_metadata()
        .is_ok_and(|m| m.file_type().is_symlink());
    let refuse = |why: String| {
        let fix = if is_link {
            format!(
                "point the symbolic link \"{}\" at a directory of its own, or remove the link",
                place.shown.display()
            )
        } else {
            "choose a directory of its own, such as \"public\"".to_owned()
        };
        Ok(Some(Refusal {
            message: format!(
                "{what} \"{}\" resolves to {}, {why}: a build there would write among the site's sources, and `kansoku clean` would remove them",
                place.shown.display(),
                out_r.display(),
            ),
            hint: fix,
        }))
    };
    if out_r == root_r {
        return refuse("which is the site root".into());
    }
    if root_r.starts_with(&out_r) {
        return refuse(format!("which holds the site root {}", root_r.display()));
    }
    for (p, shown) in sources(config) {
        let named = root.join(p);
        let r = resolve_io(&named)?;
        if out_r == r {
            return refuse(format!("which is the site's {shown}"));
        }
        if out_r.starts_with(&r) {
            return refuse(format!("which lies inside the site's {shown}"));
        }
        if r.starts_with(&out_r) {
            return refuse(format!("which holds the site's {shown}"));
        }
    }
    Ok(None)
}

/// The site's sources and kansoku's records, relative to the root, each
/// with how messages name it (`content/`, `book.toml`): no output goes
/// there.
pub(crate) fn sources(config: &Config) -> [(&Path, String); 8] {
    [
        Path::new("content"),
        config.evidence_dir.as_path(),
        Path::new("static"),
        Path::new("templates"),
        Path::new("book.toml"),
        Path::new(crate::review::LOCK_FILE),
        Path::new(STATE_DIR),
        Path::new(".git"),
    ]
    .map(|p| (p, display(p)))
}

fn display(p: &Path) -> String {
    let s = p.to_string_lossy().replace('\\', "/");
    if p.extension().is_some() || s == crate::review::LOCK_FILE {
        s
    } else {
        format!("{s}/")
    }
}

/// `p` made absolute with every symbolic link and `..` resolved as far as
/// the path exists; the rest (not made yet) is normalised by its names.
pub(crate) fn resolve(p: &Path) -> std::io::Result<PathBuf> {
    let abs = std::path::absolute(p)?;
    let mut done = PathBuf::new();
    let mut exists = true;
    for c in abs.components() {
        match c {
            Component::Prefix(_) | Component::RootDir => done.push(c.as_os_str()),
            Component::CurDir => {}
            Component::ParentDir => {
                // What exists was resolved already, so its parent is the
                // real one.
                done.pop();
            }
            Component::Normal(name) => {
                done.push(name);
                if exists {
                    match std::fs::canonicalize(&done) {
                        Ok(real) => done = real,
                        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                            // A dangling link is followed no further.
                            exists = false;
                        }
                        Err(e) => return Err(e),
                    }
                }
            }
        }
    }
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn resolve_follows_links_and_dotdot_and_normalises_the_rest() {
        let tmp = crate::scratch::tempdir();
        let base = std::fs::canonicalize(tmp.path()).expect("canonical");
        std::fs::create_dir_all(base.join("site/content")).expect("mkdir");
        std::os::unix::fs::symlink(".", base.join("site/public")).expect("symlink");
        std::os::unix::fs::symlink("content", base.join("site/c")).expect("symlink");
        assert_eq!(
            resolve(&base.join("site/public")).expect("r"),
            base.join("site")
        );
        assert_eq!(
            resolve(&base.join("site/public/../site/c/x/../y")).expect("r"),
            base.join("site/content/y")
        );
        assert_eq!(
            resolve(&base.join("site/new/../out")).expect("r"),
            base.join("site/out")
        );
    }
}
