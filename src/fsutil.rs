//! Writing a file whole: the one way kansoku replaces a file it keeps
//! (`kansoku.lock`, a page `check --fix` mends, the records and memo
//! tables under `.kansoku/`, serve's files). A leaf module: it knows paths
//! and bytes, not what they hold, and returns plain `io` errors for the
//! caller to name.

use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::Path;

/// Replaces `path` with `bytes` so that a reader sees the old file or the
/// new one, never half of one (see [`write_atomic_with`]).
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_atomic_with(path, |w| w.write_all(bytes))
}

/// Replaces `path` with what `body` writes: into a temporary file beside
/// it (unique, so two writers never share one; removed if anything fails),
/// then renamed over it. The file keeps the permissions of the one it
/// replaces; a new one gets those a plain create gives (0666 less the
/// umask), not a temporary file's private 0600. No fsync: what is written
/// here is either rebuilt on loss (records, memos, serve's files) or the
/// person's own edit, already in their editor. The parent directory must
/// exist.
pub(crate) fn write_atomic_with(
    path: &Path,
    body: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut prefix = std::ffi::OsString::from(".");
    prefix.push(path.file_name().unwrap_or_default());
    prefix.push(".");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".kansoku-tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(fs::Permissions::from_mode(0o666));
    }
    let mut tmp = builder.tempfile_in(dir)?;
    {
        let mut w = BufWriter::new(tmp.as_file_mut());
        body(&mut w)?;
        w.flush()?;
    }
    if let Ok(old) = fs::metadata(path) {
        fs::set_permissions(tmp.path(), old.permissions())?;
    }
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// Opens `path` for reading only if it is a regular file, with its
/// metadata; `None` for a FIFO, a device, a socket or a directory. Opened
/// without blocking (a FIFO with no writer would wait forever) and
/// checked again once open, so a FIFO swapped in between is refused too.
pub(crate) fn open_regular(path: &Path) -> io::Result<Option<(fs::File, fs::Metadata)>> {
    if !fs::metadata(path)?.is_file() {
        return Ok(None);
    }
    let mut options = fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(rustix::fs::OFlags::NONBLOCK.bits() as i32);
    }
    let file = options.open(path)?;
    let meta = file.metadata()?;
    Ok(meta.is_file().then_some((file, meta)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_whole_and_leaves_no_temporary_file() {
        let dir = crate::scratch::tempdir();
        let path = dir.path().join("a.json");
        write_atomic(&path, b"one").expect("new file");
        write_atomic(&path, b"two").expect("replaced");
        assert_eq!(fs::read(&path).expect("read"), b"two");
        let names: Vec<_> = fs::read_dir(dir.path())
            .expect("list")
            .map(|e| e.expect("entry").file_name())
            .collect();
        assert_eq!(names, ["a.json"]);
    }

    #[test]
    fn a_failed_body_leaves_the_old_file_and_no_temporary_file() {
        let dir = crate::scratch::tempdir();
        let path = dir.path().join("a.json");
        write_atomic(&path, b"old").expect("new file");
        let failed = write_atomic_with(&path, |w| {
            w.write_all(b"half")?;
            Err(io::Error::other("stopped"))
        });
        assert!(failed.is_err());
        assert_eq!(fs::read(&path).expect("read"), b"old");
        assert_eq!(fs::read_dir(dir.path()).expect("list").count(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn keeps_the_permissions_of_the_file_it_replaces() {
        use std::os::unix::fs::PermissionsExt;
        let dir = crate::scratch::tempdir();
        let path = dir.path().join("kansoku.lock");
        write_atomic(&path, b"one").expect("new file");
        let mode = |p: &Path| fs::metadata(p).expect("stat").permissions().mode() & 0o777;
        let plain = dir.path().join("plain");
        fs::write(&plain, b"").expect("plain create");
        assert_eq!(mode(&path), mode(&plain), "not the temporary file's 0600");
        fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).expect("chmod");
        write_atomic(&path, b"two").expect("replaced");
        assert_eq!(mode(&path), 0o640);
    }
}
