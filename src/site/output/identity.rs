//! What names a file or a directory on disk in kansoku's records (see
//! `manifest`): an identity that changes when the file may have changed,
//! and that a copy or a restore at a reused inode number cannot take on.

use std::fs;
use std::io::{self, Write};
use std::path::Path;

/// What ties a manifest line to one file on disk: if any of it changed, the
/// file may have been edited since the manifest was saved. The ctime
/// catches even an edit that restores the mtime; the birth time, a file
/// made anew at a reused inode number with the old times (`tar`, `cp -a`
/// keep the mtime, and a ctime is only as fine as the kernel's clock tick).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Id {
    pub(super) dev: u64,
    pub(super) ino: u64,
    pub(super) mtime: i64,
    pub(super) mtime_nsec: i64,
    pub(super) ctime: i64,
    pub(super) ctime_nsec: i64,
    pub(super) mode: u32,
    pub(super) born: Option<i128>,
}

/// When the file system made the inode `meta` describes, in nanoseconds
/// from the epoch, if it keeps that (Linux: `statx`'s `btime`, which
/// ext4 with its usual 256-byte inodes, XFS, btrfs and recent tmpfs fill
/// in; std's `metadata` already asks `statx` for it).
fn born(meta: &fs::Metadata) -> Option<i128> {
    let t = meta.created().ok()?;
    Some(match t.duration_since(std::time::UNIX_EPOCH) {
        Ok(after) => after.as_nanos() as i128,
        Err(before) => -(before.duration().as_nanos() as i128),
    })
}

#[cfg(unix)]
pub(super) fn identity(meta: &fs::Metadata) -> Option<Id> {
    use std::os::unix::fs::MetadataExt;
    Some(Id {
        dev: meta.dev(),
        ino: meta.ino(),
        mtime: meta.mtime(),
        mtime_nsec: meta.mtime_nsec(),
        ctime: meta.ctime(),
        ctime_nsec: meta.ctime_nsec(),
        mode: meta.mode(),
        born: born(meta),
    })
}

/// Elsewhere there is no inode to check, so no file is ever linked and no
/// manifest matches a directory: every file in the build directory counts
/// as one kansoku did not write, and is left alone.
#[cfg(not(unix))]
pub(super) fn identity(_: &fs::Metadata) -> Option<Id> {
    None
}

/// The identity of the directory a record describes: device, inode number
/// and birth time (see `manifest`'s module doc for why all three).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct DirId {
    pub(super) dev: u64,
    pub(super) ino: u64,
    pub(super) born: Option<i128>,
}

impl DirId {
    /// Whether a record saved for `self` describes the directory whose
    /// identity is now `now`. Never without a birth time: a device and an
    /// inode number alone are also those of a directory restored where
    /// the original was.
    pub(super) fn describes(self, now: DirId) -> bool {
        self.born.is_some() && self == now
    }

    /// As a record's first line gives it, after the record's own words:
    /// `DEV INO BORN`, `-` for no birth time.
    pub(super) fn to_words(self) -> String {
        match self.born {
            Some(b) => format!("{} {} {b}", self.dev, self.ino),
            None => format!("{} {} -", self.dev, self.ino),
        }
    }

    /// Whether the three words `w` are those [`DirId::to_words`] gives
    /// for a directory `self` describes.
    pub(super) fn named_by<'a>(self, mut w: impl Iterator<Item = &'a str>) -> bool {
        let said = (|| {
            let dev = w.next()?.parse().ok()?;
            let ino = w.next()?.parse().ok()?;
            let born = match w.next()? {
                "-" => None,
                b => Some(b.parse().ok()?),
            };
            w.next().is_none().then_some(DirId { dev, ino, born })
        })();
        said.is_some_and(|said| said.describes(self))
    }
}

/// The identity of the directory at `dir` (followed if it is a link).
pub(super) fn dir_identity(dir: &Path) -> Option<DirId> {
    let id = identity(&fs::metadata(dir).ok()?)?;
    Some(DirId {
        dev: id.dev,
        ino: id.ino,
        born: id.born,
    })
}

/// An identity from its seven fields as [`write_id`] writes them.
pub(super) fn parse_id(f: &[&str]) -> Option<Id> {
    let [dev, ino, mtime, mtime_nsec, ctime, ctime_nsec, mode] = f[..] else {
        return None;
    };
    let (mode, born) = match mode.split_once('@') {
        Some((mode, born)) => (mode, Some(born)),
        None => (mode, None),
    };
    Some(Id {
        dev: dev.parse().ok()?,
        ino: ino.parse().ok()?,
        mtime: mtime.parse().ok()?,
        mtime_nsec: mtime_nsec.parse().ok()?,
        ctime: ctime.parse().ok()?,
        ctime_nsec: ctime_nsec.parse().ok()?,
        mode: u32::from_str_radix(mode, 8).ok()?,
        born: match born {
            Some(b) => Some(b.parse().ok()?),
            None => None,
        },
    })
}

/// The seven fields of an identity; the birth time, when known, rides on
/// the mode (`MODE@BORN`), so a line keeps the field count that readers of
/// older records (and `vouch`, whatever a record's version) go by.
pub(super) fn write_id(w: &mut (impl Write + ?Sized), id: &Id) -> io::Result<()> {
    write!(
        w,
        "{} {} {} {} {} {} {:o}",
        id.dev, id.ino, id.mtime, id.mtime_nsec, id.ctime, id.ctime_nsec, id.mode
    )?;
    match id.born {
        Some(b) => write!(w, "@{b}"),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_identity_reads_back_with_its_birth_time() {
        let id = Id {
            dev: 1,
            ino: 2,
            mtime: -3,
            mtime_nsec: 4,
            ctime: 5,
            ctime_nsec: 6,
            mode: 0o100644,
            born: Some(-7),
        };
        for id in [id, Id { born: None, ..id }] {
            let mut w = Vec::new();
            write_id(&mut w, &id).expect("write");
            let text = String::from_utf8(w).expect("utf-8");
            let fields: Vec<&str> = text.split(' ').collect();
            assert_eq!(fields.len(), 7, "{text}");
            assert_eq!(parse_id(&fields), Some(id), "{text}");
        }
    }
}
