//! `kansoku build --archive FILE`: the whole record as one HTML file a
//! person can read offline, made from the build's own output.
//!
//! Once every file of a build is in its staging tree, and before the tree
//! is put in place, the pages of each language tree (content pages and
//! their listings, generated views, the evidence index and every evidence
//! page) are read back and rewritten into sections of one document
//! ([`page`]): every internal link becomes an in-file anchor, every id is
//! made unique by its page's path (`ja/components/rocblas/claim-x`,
//! `ja/evidence/run.log/L7`), and whatever would load something (scripts,
//! the search box, external images) is left out. The theme's stylesheets
//! are inlined (an end tag in them escaped), an index with a filter
//! replaces search ([`index`]), and a Content-Security-Policy forbids the
//! document any request. What a policy does not stop (a `<meta>` refresh
//! navigates whatever it says, `<base>`, frames and objects) is removed
//! from every section, and once more from the sections joined, as a
//! browser reads them: raw HTML cannot take the file elsewhere. CSS
//! `:target` shows one section at a time, so the file reads without script.
//!
//! The archive is refused before anything is written when it would pass
//! its limit (64 MiB: a browser opens larger files slowly, or not at
//! all), and when its path would lose something: it is never written into
//! the build directory or the site's sources, never over a directory or a
//! symbolic link, and never over a file unless that file is an archive
//! kansoku wrote (its second line says so). It is written to a temporary
//! file beside its path (`.NAME.PID.RANDOM.kansoku-tmp`) and renamed over
//! it only after the build's tree is in place, so a failed build leaves
//! the previous archive as it was. An interrupted build removes that file;
//! one killed outright leaves it, and the next build into the same place
//! removes it once no process has its PID.

mod css;
mod index;
mod links;
mod page;

use super::place::{self, Place};
use crate::config::Config;
use crate::error::{Error, Result};
use crate::lang::Lang;
use crate::render::i18n::I18n;
use crate::validate::Site;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The largest archive written, by default: a 10,000-page record is some
/// 1.3 GB of pages, which no browser opens as one document; this
/// repository's record is under 3 MiB.
pub const LIMIT: u64 = 64 << 20;

/// The line after the doctype that marks a file as an archive kansoku
/// wrote, and so one a later build may replace.
const MARK: &str = "<!-- kansoku archive: written by kansoku build, whose next archive to this path replaces it -->";

/// What `build --archive` asks for.
#[derive(Debug, Clone)]
pub struct Archive {
    /// Where to write it, relative to the current directory.
    pub path: PathBuf,
    /// Only this language's tree; `None`: both languages and the parallel
    /// view.
    pub lang: Option<Lang>,
    /// The largest archive to write, in bytes ([`LIMIT`]).
    pub limit: u64,
}

impl Archive {
    /// The archive at `path` with every tree and the default limit.
    pub fn new(path: PathBuf) -> Archive {
        Archive {
            path,
            lang: None,
            limit: LIMIT,
        }
    }

    /// The trees the archive holds, in the order they appear in it.
    fn trees(&self) -> Vec<&'static str> {
        match self.lang {
            Some(l) => vec![l.code()],
            None => crate::render::paths::TREES.to_vec(),
        }
    }
}

/// Where an archive goes, checked: see [`target`].
#[derive(Debug)]
pub(crate) struct Target {
    /// As the user named it.
    shown: PathBuf,
    /// The file, its directory resolved (the name itself is not followed).
    path: PathBuf,
}

/// Checks where `archive` would be written for a build into `place`, before
/// anything is rendered.
pub(crate) fn target(
    root: &Path,
    config: &Config,
    place: &Place,
    archive: &Archive,
) -> Result<Target> {
    let shown = archive.path.clone();
    let refuse = |why: String, hint: &str| {
        Err(Error::Usage(format!(
            "--archive {}: {why}; kansoku changed nothing. Hint: {hint}",
            shown.display()
        )))
    };
    let Some(name) = archive.path.file_name() else {
        return refuse(
            "names no file".to_owned(),
            "give a file name, such as record.html",
        );
    };
    let parent = match archive.path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let dir = place::resolve(parent).map_err(|e| Error::io(parent, e))?;
    if !dir.is_dir() {
        return refuse(
            format!("its directory {} does not exist", parent.display()),
            "create the directory first, or name a file in one that exists",
        );
    }
    let path = dir.join(name);
    let out = place::resolve(&place.out).map_err(|e| Error::io(&place.out, e))?;
    if path.starts_with(&out) {
        return refuse(
            format!(
                "it would lie inside the build directory {}, which builds replace",
                place.shown.display()
            ),
            "write the archive beside the build directory, such as record.html",
        );
    }
    for (source, named) in place::sources(config) {
        let r = place::resolve(&root.join(source)).map_err(|e| Error::io(source, e))?;
        if path.starts_with(&r) {
            return refuse(
                format!("it would lie inside the site's {named}"),
                "write the archive outside the site's sources, such as record.html at the site root",
            );
        }
    }
    match std::fs::symlink_metadata(&path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(Error::io(&path, e)),
        Ok(m) if m.is_dir() => {
            return refuse(
                "it is a directory".to_owned(),
                "name a file, such as record.html",
            )
        }
        Ok(m) if m.file_type().is_symlink() => {
            return refuse(
                "it is a symbolic link, which kansoku does not replace".to_owned(),
                "name the file it points to, or remove the link",
            )
        }
        Ok(m) if !m.is_file() => {
            return refuse("it is not a regular file".to_owned(), "name another file")
        }
        Ok(_) if !is_archive(&path)? => return refuse(
            "a file kansoku did not write is there, and kansoku replaces only an archive it wrote"
                .to_owned(),
            "move the file away, or name another file",
        ),
        Ok(_) => {}
    }
    Ok(Target { shown, path })
}

/// Whether the file at `path` is an archive kansoku wrote: its first line
/// is the doctype and its second [`MARK`].
fn is_archive(path: &Path) -> Result<bool> {
    let mut head = Vec::with_capacity(256);
    std::fs::File::open(path)
        .and_then(|f| f.take(256).read_to_end(&mut head))
        .map_err(|e| Error::io(path, e))?;
    Ok(head.starts_with(format!("{}\n{MARK}\n", index::DOCTYPE).as_bytes()))
}

/// The archive of a built site, written to a temporary file beside its
/// target: the pages are read with `read` from this build's files
/// (`files`, any order). Fails, naming its size and the limit, when it
/// would pass the limit.
pub(crate) fn make(
    site: &Site,
    i18n: &I18n,
    files: &[&str],
    read: &(dyn Fn(&str) -> Result<Vec<u8>> + Sync),
    archive: &Archive,
    target: &Target,
) -> Result<Staged> {
    let bytes = index::document(site, i18n, files, read, archive, &target.shown)?;
    let dir = target
        .path
        .parent()
        .expect("a resolved file has a directory");
    let name = target
        .path
        .file_name()
        .expect("a target has a name")
        .to_string_lossy();
    remove_stale(dir, &name);
    // `.NAME.PID.RANDOM.kansoku-tmp`: the next build removes it if this
    // process dies without doing so (SIGKILL, a power cut).
    let prefix = format!(".{name}.{}.", std::process::id());
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(TMP_SUFFIX);
    // A document to read and share, not a secret: a temporary file's
    // owner-only mode would follow it into place.
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o644));
    let mut tmp = builder.tempfile_in(dir).map_err(|e| Error::io(dir, e))?;
    // An interruption (SIGINT, SIGTERM, SIGHUP) removes it.
    super::output::remove_on_interrupt(tmp.path());
    let mut staged = Staged {
        at: tmp.path().to_path_buf(),
        tmp: None,
    };
    std::io::Write::write_all(&mut tmp, &bytes).map_err(|e| Error::io(tmp.path(), e))?;
    staged.tmp = Some(tmp);
    Ok(staged)
}

/// The end of an archive's temporary file's name.
const TMP_SUFFIX: &str = ".kansoku-tmp";

/// Removes the temporary files that earlier builds writing an archive
/// named `name` into `dir` left when they died: named with a process id
/// that no process has now. Another build's, still running, is left.
fn remove_stale(dir: &Path, name: &str) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let prefix = format!(".{name}.");
    let own = std::process::id();
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(pid) = file_name
            .to_str()
            .and_then(|n| n.strip_prefix(&prefix))
            .and_then(|n| n.strip_suffix(TMP_SUFFIX))
            .and_then(|n| n.split_once('.'))
            .and_then(|(pid, _)| pid.parse::<u32>().ok())
        else {
            continue;
        };
        if pid != own && !alive(pid) && entry.file_type().is_ok_and(|t| t.is_file()) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Whether a process with this id exists (one of another user's too).
#[cfg(unix)]
fn alive(pid: u32) -> bool {
    let Some(pid) = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    else {
        return false;
    };
    !matches!(
        rustix::process::test_kill_process(pid),
        Err(rustix::io::Errno::SRCH)
    )
}

/// Elsewhere every process is taken for alive: nothing is removed.
#[cfg(not(unix))]
fn alive(_: u32) -> bool {
    true
}

/// An archive written beside its target, not yet in place: dropped, it is
/// removed.
#[derive(Debug)]
pub(crate) struct Staged {
    /// Where it is written.
    at: PathBuf,
    /// `None` once put in place (or, while it is written, not yet held).
    tmp: Option<tempfile::NamedTempFile>,
}

impl Drop for Staged {
    fn drop(&mut self) {
        // The file goes with `tmp`, or is in place already.
        drop(self.tmp.take());
        super::output::forget_on_interrupt(&self.at);
    }
}

impl Staged {
    /// Puts the archive in place: over the target when it is (still) an
    /// archive kansoku wrote, only where nothing is otherwise.
    pub(crate) fn persist(mut self, target: &Target) -> Result<()> {
        let replace = match std::fs::symlink_metadata(&target.path) {
            Ok(m) => m.is_file() && is_archive(&target.path)?,
            Err(_) => false,
        };
        let Some(tmp) = self.tmp.take() else {
            return Ok(());
        };
        // Renamed while an interruption waits, so that it removes either
        // the temporary file or nothing.
        let done = super::output::settle(&self.at, || {
            if replace {
                tmp.persist(&target.path).map(drop)
            } else {
                tmp.persist_noclobber(&target.path).map(drop)
            }
        });
        done.map_err(|e| {
            if e.error.kind() == std::io::ErrorKind::AlreadyExists {
                Error::Usage(format!(
                    "--archive {}: a file appeared there during the build; it was left as it was, and the site was built. Hint: move the file away and build again",
                    target.shown.display()
                ))
            } else {
                Error::io(&target.path, e.error)
            }
        })
    }
}

/// `n` bytes as a reader reads a file's size: KiB, MiB or GiB with one
/// decimal (`2.6 MiB`).
pub fn size(n: u64) -> String {
    let n = n as f64;
    let k = 1024.0;
    if n < k * k {
        format!("{:.1} KiB", n / k)
    } else if n < k * k * k {
        format!("{:.1} MiB", n / k / k)
    } else {
        format!("{:.1} GiB", n / k / k / k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_as_a_reader_reads_them() {
        assert_eq!(size(LIMIT), "64.0 MiB");
        assert_eq!(size(2_726_297), "2.6 MiB");
        assert_eq!(size(10 << 10), "10.0 KiB");
        assert_eq!(size(3 << 30), "3.0 GiB");
    }
}
