//! Gzip evidence, read as the text it holds and never decompressed to
//! disk.
//!
//! A `.gz` log once went whole into a temporary file, held until the run
//! ended: a few compressed megabytes made to expand (a gzip bomb) filled
//! the temporary directory, several at once, and a full disk was then
//! reported as an unreadable file. Now the text is read as it is
//! decompressed, up to a cap (`[evidence] max-gz-size`), and a line asked
//! for later is found by decompressing again: from the start of the gzip
//! member holding it (`cat a.gz b.gz`, `pigz -i` and `bgzip` write many),
//! or onwards from where the last read stopped, with the last few pieces
//! read kept in memory. Nothing is written anywhere, so nothing fills a
//! disk or outlives the process, and the dev server holds no more than an
//! open file and those pieces for a log it keeps.

use crate::hash::ContentHasher;
use flate2::bufread::{GzDecoder, MultiGzDecoder};
use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::Path;

/// The cause inside an `io::Error` when a `.gz` expands past its cap.
#[derive(Debug)]
pub(crate) struct TooLarge {
    /// The cap, in bytes.
    pub(crate) cap: u64,
}

impl std::fmt::Display for TooLarge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "expands past {} when decompressed",
            crate::config::show_size(self.cap)
        )
    }
}

impl std::error::Error for TooLarge {}

/// The cap an `io::Error` says was passed, if that is what it is.
pub(crate) fn too_large(e: &io::Error) -> Option<u64> {
    e.get_ref()
        .and_then(|i| i.downcast_ref::<TooLarge>())
        .map(|t| t.cap)
}

/// The file's bytes as they are read, hashed as `hash::file_hash` does.
struct Hashing {
    file: File,
    hash: ContentHasher,
}

impl Read for Hashing {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.file.read(buf)?;
        self.hash.update(&buf[..n]);
        Ok(n)
    }
}

/// A buffered reader that counts what was consumed of it: where the next
/// gzip member starts in the file.
struct Tally {
    inner: BufReader<Hashing>,
    consumed: u64,
}

impl Read for Tally {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.consumed += n as u64;
        Ok(n)
    }
}

impl BufRead for Tally {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, amt: usize) {
        self.consumed += amt as u64;
        self.inner.consume(amt);
    }
}

enum State {
    /// Between members (or before the first): the next byte starts one.
    Between(Tally),
    In(Box<GzDecoder<Tally>>),
}

/// The text of a gzip file, member after member as `gzip -d` gives it,
/// read once from start to end: where each member starts is noted (for
/// [`Gz`]), the file's bytes are hashed as they are read, and reading
/// past `cap` bytes of text fails with [`TooLarge`].
pub(crate) struct Inflate {
    state: Option<State>,
    /// `(offset in the file, offset in the text)` of each member's start.
    members: Vec<(u64, u64)>,
    out: u64,
    cap: u64,
    /// The file again, for [`Gz`] to read the same file later.
    file: File,
}

impl Inflate {
    pub(crate) fn open(path: &Path, cap: u64) -> io::Result<Inflate> {
        let file = File::open(path)?;
        let hashing = Hashing {
            file: file.try_clone()?,
            hash: ContentHasher::new(),
        };
        Ok(Inflate {
            state: Some(State::Between(Tally {
                inner: BufReader::with_capacity(1 << 16, hashing),
                consumed: 0,
            })),
            members: Vec::new(),
            out: 0,
            cap,
            file,
        })
    }

    /// Once read to the end: the file's hash (`hash::content_hash` of its
    /// bytes), how much text it held, and the random reader of it.
    pub(crate) fn finish(self) -> (u64, u64, Gz) {
        let hash = match self.state {
            Some(State::Between(t)) => t.inner.into_inner().hash.finish(),
            Some(State::In(d)) => (*d).into_inner().inner.into_inner().hash.finish(),
            None => 0,
        };
        (hash, self.out, Gz::new(self.file, self.members))
    }
}

impl Read for Inflate {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            match self.state.take() {
                None => return Err(io::Error::other("the gzip file could not be read")),
                Some(State::Between(mut t)) => {
                    if t.fill_buf()?.is_empty() {
                        self.state = Some(State::Between(t));
                        if self.members.is_empty() {
                            // As `gzip -d` says of an empty file.
                            return Err(io::Error::new(
                                io::ErrorKind::UnexpectedEof,
                                "unexpected end of file",
                            ));
                        }
                        return Ok(0);
                    }
                    self.members.push((t.consumed, self.out));
                    self.state = Some(State::In(Box::new(GzDecoder::new(t))));
                }
                Some(State::In(mut d)) => {
                    let n = d.read(buf)?;
                    if n == 0 {
                        self.state = Some(State::Between((*d).into_inner()));
                        continue;
                    }
                    self.out += n as u64;
                    if self.out > self.cap {
                        return Err(io::Error::other(TooLarge { cap: self.cap }));
                    }
                    self.state = Some(State::In(d));
                    return Ok(n);
                }
            }
        }
    }
}

/// The bytes of text kept per piece, and how many pieces.
const BLOCK: u64 = 1 << 16;
const BLOCKS_KEPT: usize = 16;

/// A decoder and how far into the text it has read.
struct Cursor {
    decoder: MultiGzDecoder<BufReader<File>>,
    at: u64,
}

/// The text of a gzip file read at any offset, by decompressing again:
/// from where the last read stopped when that is not past the offset,
/// else from the start of the member holding it.
pub(crate) struct Gz {
    file: File,
    members: Vec<(u64, u64)>,
    cursor: Option<Cursor>,
    /// Pieces of text by their offset, the newest last.
    blocks: VecDeque<(u64, Vec<u8>)>,
}

impl std::fmt::Debug for Gz {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Gz")
            .field("members", &self.members.len())
            .field("at", &self.cursor.as_ref().map(|c| c.at))
            .finish()
    }
}

impl Gz {
    pub(crate) fn new(file: File, members: Vec<(u64, u64)>) -> Gz {
        Gz {
            file,
            members,
            cursor: None,
            blocks: VecDeque::new(),
        }
    }

    /// Reads text from offset `pos` into `buf`; fewer bytes than asked
    /// for at the end of a piece, none at the end of the text.
    pub(crate) fn read_at(&mut self, pos: u64, buf: &mut [u8]) -> io::Result<usize> {
        let start = pos - pos % BLOCK;
        let i = match self.blocks.iter().position(|(s, _)| *s == start) {
            Some(i) => i,
            None => {
                let block = self.decode(start).inspect_err(|_| self.cursor = None)?;
                self.blocks.push_back((start, block));
                if self.blocks.len() > BLOCKS_KEPT {
                    self.blocks.pop_front();
                }
                self.blocks.len() - 1
            }
        };
        let block = &self.blocks[i].1;
        let off = (pos - start) as usize;
        if off >= block.len() {
            return Ok(0);
        }
        let n = (block.len() - off).min(buf.len());
        buf[..n].copy_from_slice(&block[off..off + n]);
        Ok(n)
    }

    /// The piece of text at `start`.
    fn decode(&mut self, start: u64) -> io::Result<Vec<u8>> {
        let i = self.members.partition_point(|m| m.1 <= start);
        let member = i.checked_sub(1).map_or((0, 0), |i| self.members[i]);
        let onwards = self
            .cursor
            .as_ref()
            .is_some_and(|c| c.at <= start && c.at >= member.1);
        if !onwards {
            let mut file = self.file.try_clone()?;
            file.seek(SeekFrom::Start(member.0))?;
            self.cursor = Some(Cursor {
                decoder: MultiGzDecoder::new(BufReader::with_capacity(1 << 16, file)),
                at: member.1,
            });
        }
        let Some(c) = self.cursor.as_mut() else {
            return Ok(Vec::new());
        };
        let skip = start - c.at;
        c.at += io::copy(&mut (&mut c.decoder).take(skip), &mut io::sink())?;
        let mut block = Vec::with_capacity(BLOCK as usize);
        (&mut c.decoder).take(BLOCK).read_to_end(&mut block)?;
        c.at += block.len() as u64;
        Ok(block)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(bytes).expect("gzip");
        gz.finish().expect("gzip")
    }

    fn text(n: usize) -> Vec<u8> {
        (0..n)
            .flat_map(|i| format!("line {i} of the log\n").into_bytes())
            .collect()
    }

    /// Inflates `bytes` written to a file, to the end.
    fn inflate(bytes: &[u8], cap: u64) -> io::Result<(Vec<u8>, u64, u64, Gz)> {
        let tmp = crate::scratch::tempdir();
        let path = tmp.path().join("x.gz");
        std::fs::write(&path, bytes).expect("write");
        let mut inflate = Inflate::open(&path, cap)?;
        let mut out = Vec::new();
        inflate.read_to_end(&mut out)?;
        let (hash, len, gz) = inflate.finish();
        Ok((out, hash, len, gz))
    }

    #[test]
    fn members_are_read_as_one_text_found_anywhere_again() {
        let t = text(60_000);
        let (a, b) = t.split_at(t.len() / 3);
        let file = [gzip(a), gzip(b), gzip(b"")].concat();
        let (out, hash, len, mut gz) = inflate(&file, u64::MAX).expect("inflate");
        let whole = [a, b].concat();
        assert_eq!(out, whole);
        assert_eq!(len, whole.len() as u64);
        assert_eq!(hash, crate::hash::content_hash(&file));
        assert_eq!(gz.members.len(), 3);
        assert_eq!(gz.members[1].1, a.len() as u64);
        // Backwards, forwards, across a member's start, past the end.
        let len = whole.len() as u64;
        for pos in [
            len - 10,
            5,
            a.len() as u64 - 3,
            700_000,
            len / 2,
            0,
            len,
            len + 9,
        ] {
            let mut buf = vec![0u8; 100];
            let n = gz.read_at(pos, &mut buf).expect("read");
            let want = &whole[(pos as usize).min(whole.len())..];
            assert!(n > 0 || want.is_empty(), "{pos}");
            assert_eq!(&buf[..n], &want[..n], "{pos}");
        }
    }

    #[test]
    fn text_past_the_cap_fails_and_says_so() {
        let t = text(10_000);
        let file = [gzip(&t), gzip(&t)].concat();
        let err = inflate(&file, t.len() as u64 + 1).expect_err("too large");
        assert_eq!(too_large(&err), Some(t.len() as u64 + 1));
        assert_eq!(
            err.to_string(),
            format!("expands past {} B when decompressed", t.len() + 1)
        );
        assert!(inflate(&file, 2 * t.len() as u64).is_ok(), "up to the cap");
    }

    #[test]
    fn damaged_files_are_data_errors() {
        let good = gzip(&text(1_000));
        let mut flipped = good.clone();
        let mid = flipped.len() / 2;
        flipped[mid] ^= 0xff;
        let garbage = [good.clone(), b"garbage".to_vec()].concat();
        for (what, bytes) in [
            ("empty", Vec::new()),
            ("cut", good[..good.len() / 2].to_vec()),
            ("flipped", flipped),
            ("trailing garbage", garbage),
            ("not gzip", b"plain text\n".to_vec()),
        ] {
            let err = inflate(&bytes, u64::MAX).expect_err(what);
            assert!(
                matches!(
                    err.kind(),
                    io::ErrorKind::InvalidData
                        | io::ErrorKind::InvalidInput
                        | io::ErrorKind::UnexpectedEof
                ),
                "{what}: {err:?}"
            );
        }
    }
}
