//! An evidence file's text after its header: held whole when it is small,
//! read from disk piece by piece when it is large.
//!
//! A research group's logs run to gigabytes (a `ROCBLAS_LAYER` trace, a
//! day of `dmesg`), and a claim cites a few lines of one. A large body is
//! scanned once when the site is read (line count, hashes, UTF-8) with a
//! mark every [`MARK_EVERY`] bytes; afterwards any line is found by
//! reading from the mark before it, so memory does not grow with the file.
//! Both kinds give the same answers: the same lines, line ends `\r\n` read
//! as `\n`, the same hashes.

use super::gz::Gz;
use crate::hash::{ContentHasher, Fnv1a};
use crate::source::LineIndex;
use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::sync::{Arc, Mutex};

/// Bodies larger than this are read from disk when needed, never held:
/// more than any hand-written record, small enough that a site of many
/// logs read in parallel stays well under a gigabyte.
pub(crate) const STREAM_AT: u64 = 8 << 20;

/// The most of one line a streamed body gives (for checking, hashing and
/// showing): a line of a gigabyte (a sparse file, a log without line
/// ends) is read as its first mebibyte, and the loader says so (W005).
pub(crate) const LINE_CAP: usize = 1 << 20;

/// Bytes between the line marks of a streamed body: a line is found by
/// reading at most this much before it.
const MARK_EVERY: u64 = 1 << 16;

/// The size of each read.
const CHUNK: usize = 1 << 16;

/// The text after the header.
#[derive(Debug, Clone)]
pub(crate) enum Body {
    /// In memory; shared, so the dev server's memo of what it read last
    /// holds the same text as the site.
    Held {
        text: Arc<str>,
        index: Arc<LineIndex>,
        lines: usize,
    },
    /// On disk.
    Streamed(Arc<Streamed>),
}

/// Where a streamed body's bytes are read from.
#[derive(Debug)]
pub(crate) enum Source {
    /// The log itself.
    File(File),
    /// The text a large `.gz` holds, decompressed again when read.
    Gz(Box<Gz>),
}

impl Source {
    /// Reads at `pos` into `buf`: fewer bytes than asked for, or none at
    /// the end.
    fn read_at(&mut self, pos: u64, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Source::File(file) => {
                file.seek(SeekFrom::Start(pos))?;
                loop {
                    match file.read(buf) {
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                        other => return other,
                    }
                }
            }
            Source::Gz(gz) => gz.read_at(pos, buf),
        }
    }
}

/// A large body on disk, with where its lines start.
#[derive(Debug)]
pub(crate) struct Streamed {
    /// The log, or what a large `.gz` decompresses to. Reads seek under
    /// the lock: the file's position is shared by every thread reading it.
    source: Mutex<Source>,
    /// Length of the file when it was scanned.
    end: u64,
    /// `(line, offset of its start)`, ascending, from `(1, start)`.
    marks: Vec<(usize, u64)>,
    lines: usize,
    /// The first line longer than [`LINE_CAP`].
    long_line: Option<usize>,
    /// Lines before the body (the header's), for positions in the file.
    head_lines: usize,
}

/// What the scan of a streamed body found besides its lines.
pub(crate) struct Scanned {
    pub(crate) body: Streamed,
    /// SHA-256 of the same, when asked for.
    pub(crate) sha256: Option<String>,
    /// `hash::content_hash` of the whole file, when the scan was given
    /// the hasher of what comes before the body.
    pub(crate) file_hash: Option<u64>,
}

/// The first byte that is not UTF-8, as [`crate::source::decode`] reports
/// it: body line (1-based), character column (1-based) and byte offset
/// from the body's start.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Invalid {
    pub(crate) line: usize,
    pub(crate) col: usize,
    pub(crate) offset: u64,
}

impl Body {
    /// A body held in memory.
    pub(crate) fn held(text: String) -> Body {
        let lines = if text.is_empty() {
            0
        } else {
            text.strip_suffix('\n')
                .unwrap_or(&text)
                .matches('\n')
                .count()
                + 1
        };
        Body::Held {
            index: Arc::new(LineIndex::new(&text)),
            text: text.into(),
            lines,
        }
    }

    /// Number of lines.
    pub(crate) fn lines(&self) -> usize {
        match self {
            Body::Held { lines, .. } => *lines,
            Body::Streamed(s) => s.lines,
        }
    }

    /// Whether the body is read from disk.
    pub(crate) fn is_streamed(&self) -> bool {
        matches!(self, Body::Streamed(_))
    }

    /// The first line longer than [`LINE_CAP`] of a streamed body (a held
    /// one gives every line whole): its line in the file and after the
    /// header.
    pub(crate) fn long_line(&self) -> Option<(usize, usize)> {
        match self {
            Body::Held { .. } => None,
            Body::Streamed(s) => s.long_line.map(|n| (s.head_lines + n, n)),
        }
    }

    /// Calls `f` with each of lines `a..=b` (1-based, clamped to the
    /// body), without its line end.
    pub(crate) fn for_each_line(
        &self,
        a: usize,
        b: usize,
        mut f: impl FnMut(usize, &str),
    ) -> io::Result<()> {
        let b = b.min(self.lines());
        if a == 0 || a > b {
            return Ok(());
        }
        match self {
            Body::Held { text, index, .. } => {
                for n in a..=b {
                    f(n, index.line(text, n));
                }
            }
            Body::Streamed(s) => {
                let mut r = s.reader(a)?;
                let mut line = Vec::new();
                for n in a..=b {
                    if !r.next_line(&mut line)? {
                        break;
                    }
                    f(n, &String::from_utf8_lossy(&line));
                }
            }
        }
        Ok(())
    }

    /// Whether lines `a..=b`, joined by `\n`, contain `needle`.
    pub(crate) fn contains(&self, a: usize, b: usize, needle: &str) -> io::Result<bool> {
        match self {
            Body::Held { text, index, lines } => {
                let b = b.min(*lines);
                let range = if a == 0 || a > b {
                    ""
                } else {
                    index.lines(text, a, b)
                };
                Ok(range.contains(needle))
            }
            Body::Streamed(_) if needle.is_empty() => Ok(true),
            Body::Streamed(_) => Ok(self.search(a, b, needle)?.is_some()),
        }
    }

    /// The line on which `needle` first starts, searching the whole body
    /// (lines joined by `\n`).
    pub(crate) fn find(&self, needle: &str) -> io::Result<Option<usize>> {
        match self {
            Body::Held { text, index, .. } => {
                Ok(text.find(needle).map(|at| index.locate(text, at).0))
            }
            Body::Streamed(_) => self.search(1, self.lines(), needle),
        }
    }

    /// The line where `needle` first starts within lines `a..=b`, read
    /// through a window that keeps the needle's length minus one byte of
    /// what came before, so a match across two reads is found.
    fn search(&self, a: usize, b: usize, needle: &str) -> io::Result<Option<usize>> {
        let finder = memchr::memmem::Finder::new(needle.as_bytes());
        let keep = needle.len().saturating_sub(1);
        let mut window: Vec<u8> = Vec::new();
        // Where each line held in `window` starts in it.
        let mut starts: VecDeque<(usize, usize)> = VecDeque::new();
        let mut found = None;
        let look = |window: &mut Vec<u8>, starts: &mut VecDeque<(usize, usize)>, last: bool| {
            if let Some(at) = finder.find(window) {
                let line = starts.iter().rev().find(|s| s.0 <= at).map(|s| s.1);
                return line;
            }
            if !last && window.len() > keep {
                let cut = window.len() - keep;
                window.drain(..cut);
                while starts.len() > 1 && starts[1].0 <= cut {
                    starts.pop_front();
                }
                for s in starts.iter_mut() {
                    s.0 = s.0.saturating_sub(cut);
                }
            }
            None
        };
        let mut stop = false;
        self.for_each_line(a, b, |n, line| {
            if stop {
                return;
            }
            if n > a {
                window.push(b'\n');
            }
            starts.push_back((window.len(), n));
            window.extend_from_slice(line.as_bytes());
            if window.len() >= CHUNK.max(2 * keep) {
                found = look(&mut window, &mut starts, false);
                stop = found.is_some();
            }
        })?;
        if found.is_none() && (a..=b.min(self.lines())).next().is_some() {
            found = look(&mut window, &mut starts, true);
        }
        Ok(found)
    }

    /// Calls `f` with each window of `len` consecutive lines (its first
    /// line's number and its lines), first to last. A streamed body gives
    /// windows of at most 1,000 lines and 64 MiB: `review` asks this only
    /// to find where reviewed lines moved, and a range that long is
    /// reported as changed rather than searched for.
    pub(crate) fn windows(
        &self,
        len: usize,
        mut f: impl FnMut(usize, &mut dyn Iterator<Item = &str>),
    ) -> io::Result<()> {
        let lines = self.lines();
        if len == 0 || len > lines {
            return Ok(());
        }
        match self {
            Body::Held { text, index, .. } => {
                for s in 1..=lines + 1 - len {
                    f(s, &mut (s..s + len).map(|n| index.line(text, n)));
                }
            }
            Body::Streamed(_) => {
                if len > 1_000 {
                    return Ok(());
                }
                let mut held: VecDeque<String> = VecDeque::with_capacity(len);
                let mut bytes = 0usize;
                let mut over = false;
                self.for_each_line(1, lines, |n, line| {
                    if over {
                        return;
                    }
                    bytes += line.len();
                    held.push_back(line.to_owned());
                    if held.len() > len {
                        bytes -= held.pop_front().map_or(0, |l| l.len());
                    }
                    if bytes > 64 << 20 {
                        over = true;
                        return;
                    }
                    if held.len() == len {
                        f(n + 1 - len, &mut held.iter().map(String::as_str));
                    }
                })?;
            }
        }
        Ok(())
    }

    /// The hash `kansoku.lock` records for lines `a..=b`: each line
    /// without its trailing whitespace, joined by `\n`, FNV-1a.
    pub(crate) fn lines_hash(&self, a: usize, b: usize) -> io::Result<u64> {
        let mut h = Fnv1a::default();
        let mut first = true;
        self.for_each_line(a, b, |_, line| {
            if !first {
                h.update(b"\n");
            }
            first = false;
            h.update(line.trim_end().as_bytes());
        })?;
        Ok(h.0)
    }
}

impl Streamed {
    /// [`Streamed::scan`] of `file` itself.
    pub(crate) fn scan_file(
        file: File,
        start: u64,
        head_lines: usize,
        want_sha256: bool,
        whole: Option<ContentHasher>,
    ) -> io::Result<Result<Scanned, Invalid>> {
        let mut reader = file.try_clone()?;
        reader.seek(SeekFrom::Start(start))?;
        Streamed::scan(
            &mut reader,
            Source::File(file),
            start,
            head_lines,
            want_sha256,
            whole,
        )
    }

    /// Scans the body `reader` gives (from `start`, the first byte after
    /// the header, on line `head_lines + 1` of the text) to its end; the
    /// body is read again later from `source`, where `reader` read it.
    /// `whole`, the hasher of the bytes before `start`, is fed the rest.
    pub(crate) fn scan(
        reader: &mut impl Read,
        mut source: Source,
        start: u64,
        head_lines: usize,
        want_sha256: bool,
        mut whole: Option<ContentHasher>,
    ) -> io::Result<Result<Scanned, Invalid>> {
        use sha2::Digest;
        let mut marks = vec![(1usize, start)];
        let mut next_mark = start + MARK_EVERY;
        let mut line = 1usize;
        let mut line_len = 0usize;
        let mut long_line = None;
        let mut pos = start;
        let mut last = None;
        let mut sha = want_sha256.then(sha2::Sha256::new);
        let mut pending_cr = false;
        let mut utf8 = Utf8::default();
        let mut buf = vec![0u8; CHUNK];
        loop {
            let n = match reader.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            let chunk = &buf[..n];
            if let Some(h) = whole.as_mut() {
                h.update(chunk);
            }
            if let Some(bad) = utf8.check(chunk) {
                let offset = pos - start + bad as u64 - utf8.carried_before as u64;
                return Ok(Err(invalid_at(&mut source, &marks, start, offset)?));
            }
            let mut from = 0;
            for nl in memchr::memchr_iter(b'\n', chunk) {
                line_len += nl - from;
                if line_len > LINE_CAP && long_line.is_none() {
                    long_line = Some(line);
                }
                line += 1;
                line_len = 0;
                from = nl + 1;
                let next = pos + from as u64;
                if next >= next_mark {
                    marks.push((line, next));
                    next_mark = next + MARK_EVERY;
                }
            }
            line_len += n - from;
            if line_len > LINE_CAP && long_line.is_none() {
                long_line = Some(line);
            }
            if let Some(sha) = sha.as_mut() {
                normalized(chunk, &mut pending_cr, |piece| sha.update(piece));
            }
            last = chunk.last().copied();
            pos += n as u64;
        }
        if utf8.pending() {
            let offset = pos - start - utf8.carry.len() as u64;
            return Ok(Err(invalid_at(&mut source, &marks, start, offset)?));
        }
        if let (true, Some(sha)) = (pending_cr, sha.as_mut()) {
            sha.update(b"\r");
        }
        let lines = match last {
            None => 0,
            Some(b'\n') => line - 1,
            Some(_) => line,
        };
        marks.retain(|&(l, at)| l <= lines.max(1) && at < pos.max(start + 1));
        Ok(Ok(Scanned {
            body: Streamed {
                source: Mutex::new(source),
                end: pos,
                marks,
                lines,
                long_line,
                head_lines,
            },
            sha256: sha.map(|s| s.finalize().iter().map(|b| format!("{b:02x}")).collect()),
            file_hash: whole.map(|h| h.finish()),
        }))
    }

    /// Where the text is read from (a `.gz`'s reader, once its scan
    /// found where each member starts).
    pub(crate) fn set_source(&mut self, source: Source) {
        self.source = Mutex::new(source);
    }

    /// Where body line `line` starts, by reading from the mark before it.
    fn reader(&self, line: usize) -> io::Result<LineReader<'_>> {
        let i = self.marks.partition_point(|m| m.0 <= line).max(1) - 1;
        let (mut at_line, offset) = self.marks[i];
        let mut r = LineReader {
            body: self,
            pos: offset,
            buf: Vec::new(),
            at: 0,
        };
        while at_line < line {
            if !r.skip_line()? {
                break;
            }
            at_line += 1;
        }
        Ok(r)
    }

    /// Reads at `pos` into `buf` (up to the scanned end), under the lock.
    fn read_at(&self, pos: u64, buf: &mut [u8]) -> io::Result<usize> {
        let room = self.end.saturating_sub(pos).min(buf.len() as u64) as usize;
        if room == 0 {
            return Ok(0);
        }
        crate::sync::lock(&self.source).read_at(pos, &mut buf[..room])
    }
}

/// Lines read forward from a position of a streamed body.
struct LineReader<'a> {
    body: &'a Streamed,
    /// File offset of `buf[0]`'s successor read.
    pos: u64,
    buf: Vec<u8>,
    at: usize,
}

impl LineReader<'_> {
    /// Refills when the buffer is spent; `false` at the end of the file.
    fn fill(&mut self) -> io::Result<bool> {
        if self.at < self.buf.len() {
            return Ok(true);
        }
        self.buf.resize(CHUNK, 0);
        let n = self.body.read_at(self.pos, &mut self.buf)?;
        self.buf.truncate(n);
        self.pos += n as u64;
        self.at = 0;
        Ok(n > 0)
    }

    fn skip_line(&mut self) -> io::Result<bool> {
        let mut any = false;
        while self.fill()? {
            any = true;
            match memchr::memchr(b'\n', &self.buf[self.at..]) {
                Some(i) => {
                    self.at += i + 1;
                    return Ok(true);
                }
                None => self.at = self.buf.len(),
            }
        }
        Ok(any)
    }

    /// The next line into `out`, without its line end (`\r\n` as `\n`),
    /// cut to [`LINE_CAP`] at a character boundary; `false` past the end.
    fn next_line(&mut self, out: &mut Vec<u8>) -> io::Result<bool> {
        out.clear();
        let mut len = 0usize;
        let mut any = false;
        let mut ended = false;
        while self.fill()? {
            any = true;
            let rest = &self.buf[self.at..];
            let (piece, step) = match memchr::memchr(b'\n', rest) {
                Some(i) => {
                    ended = true;
                    (&rest[..i], i + 1)
                }
                None => (rest, rest.len()),
            };
            let room = LINE_CAP.saturating_sub(out.len());
            out.extend_from_slice(&piece[..piece.len().min(room)]);
            len += piece.len();
            self.at += step;
            if ended {
                break;
            }
        }
        if ended && len == out.len() && out.last() == Some(&b'\r') {
            out.pop();
        }
        if len > out.len() {
            // Cut inside a character: drop its first bytes.
            if let Err(e) = std::str::from_utf8(out) {
                if e.error_len().is_none() {
                    out.truncate(e.valid_up_to());
                }
            }
        }
        Ok(any)
    }
}

/// Feeds `chunk` to `emit` with every `\r` that ends a line dropped, as
/// [`crate::source::decode`] reads `\r\n`; a `\r` ending the chunk waits
/// in `pending_cr` for the next one.
fn normalized(mut chunk: &[u8], pending_cr: &mut bool, mut emit: impl FnMut(&[u8])) {
    if *pending_cr {
        *pending_cr = false;
        if chunk.first() != Some(&b'\n') {
            emit(b"\r");
        }
    }
    while let Some(i) = memchr::memchr(b'\r', chunk) {
        emit(&chunk[..i]);
        match chunk.get(i + 1) {
            None => {
                *pending_cr = true;
                return;
            }
            Some(b'\n') => {}
            Some(_) => emit(b"\r"),
        }
        chunk = &chunk[i + 1..];
    }
    emit(chunk);
}

/// UTF-8 validation across reads: a character cut by a read's end is
/// carried to the next.
#[derive(Default)]
struct Utf8 {
    carry: Vec<u8>,
    /// Bytes carried into the chunk being checked (its offsets count from
    /// the carried bytes' start).
    carried_before: usize,
}

impl Utf8 {
    /// The offset in `chunk` (counted from the carried bytes before it) of
    /// the first byte that is not UTF-8, if any.
    fn check(&mut self, chunk: &[u8]) -> Option<usize> {
        self.carried_before = self.carry.len();
        let mut rest = chunk;
        let mut base = 0;
        if !self.carry.is_empty() {
            let width = match self.carry[0] {
                b if b >= 0xF0 => 4,
                b if b >= 0xE0 => 3,
                _ => 2,
            };
            let take = (width - self.carry.len()).min(chunk.len());
            self.carry.extend_from_slice(&chunk[..take]);
            if self.carry.len() < width {
                return None;
            }
            if std::str::from_utf8(&self.carry).is_err() {
                return Some(0);
            }
            self.carry.clear();
            rest = &chunk[take..];
            base = self.carried_before + take;
        }
        match std::str::from_utf8(rest) {
            Ok(_) => None,
            Err(e) if e.error_len().is_none() => {
                self.carry.extend_from_slice(&rest[e.valid_up_to()..]);
                None
            }
            Err(e) => Some(base + e.valid_up_to()),
        }
    }

    /// Whether the input ended inside a character.
    fn pending(&self) -> bool {
        !self.carry.is_empty()
    }
}

/// Line and column of the byte at body offset `offset`: counted from the
/// mark before it, in reads (the line may be the whole file).
fn invalid_at(
    source: &mut Source,
    marks: &[(usize, u64)],
    start: u64,
    offset: u64,
) -> io::Result<Invalid> {
    let at = start + offset;
    let i = marks.partition_point(|m| m.1 <= at).max(1) - 1;
    let (mut line, mut pos) = marks[i];
    let mut col = 1;
    let mut buf = vec![0u8; CHUNK];
    while pos < at {
        let want = (at - pos).min(CHUNK as u64) as usize;
        let n = source.read_at(pos, &mut buf[..want])?;
        if n == 0 {
            return Err(io::ErrorKind::UnexpectedEof.into());
        }
        pos += n as u64;
        let piece = &buf[..n];
        let since = match memchr::memrchr(b'\n', piece) {
            Some(nl) => {
                line += memchr::memchr_iter(b'\n', piece).count();
                col = 1;
                &piece[nl + 1..]
            }
            None => piece,
        };
        col += since.iter().filter(|&&b| b & 0xC0 != 0x80).count();
    }
    Ok(Invalid { line, col, offset })
}
