//! The evidence index: every file under `evidence/`, its header and lines.
//!
//! Evidence files are read once; line numbers count from the first line
//! after the optional `+++` header. This module answers "does this file and
//! range exist"; it does not know which claims cite what.

mod body;
#[cfg(test)]
mod body_tests;
mod gz;
mod header;

use body::{Body, Streamed, LINE_CAP, STREAM_AT};
use header::{body_sha256, header_findings, header_of, tampered, RawHeader};

use crate::content::front_matter;
use crate::content::{rel_path, walk};
use crate::error::{Diagnostic, Error, Result};
use crate::source::{decode_owned, Source};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// What an evidence file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EvidenceKind {
    /// A capture as the tool printed it.
    Raw,
    /// A faithful restatement of what a record reports.
    Transcript,
    /// A note written by the observer.
    Note,
    /// Written by `kansoku capture`: a command's output, with how it ran.
    Capture,
    /// Written by `kansoku capture --file`: an existing log, with where
    /// it came from.
    Import,
}

impl EvidenceKind {
    /// The name used in headers.
    pub(crate) fn name(self) -> &'static str {
        match self {
            EvidenceKind::Raw => "raw",
            EvidenceKind::Transcript => "transcript",
            EvidenceKind::Note => "note",
            EvidenceKind::Capture => "capture",
            EvidenceKind::Import => "import",
        }
    }
}

/// How a captured or imported file came to be (`kansoku capture`): what
/// a reader needs to trust it, and what `check` verifies.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct Provenance {
    /// The command and its arguments, as run.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) command: Vec<String>,
    /// The working directory it ran in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) cwd: Option<String>,
    /// When it started and ended, UTC, RFC 3339.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) started: Option<String>,
    /// When it ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) ended: Option<String>,
    /// Its exit status, or the signal that ended it (`signal 9`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) exit: Option<String>,
    /// Which of its streams the body holds (`stdout` or `stderr`): each is
    /// kept apart, byte for byte, in a file of its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) stream: Option<String>,
    /// The file holding the command's other stream.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) other_stream: Option<String>,
    /// Host facts the site asks for (`book.toml` `[capture] facts`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub(crate) facts: BTreeMap<String, String>,
    /// Environment variables recorded because they were named.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub(crate) env: BTreeMap<String, String>,
    /// An imported log's original file name and modification time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) original: Option<String>,
    /// Its modification time, UTC.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) mtime: Option<String>,
    /// What the person capturing said about it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) note: Option<String>,
    /// SHA-256 of the body as kansoku reads it (UTF-8, lines ended by
    /// `\n`), in hex.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) body_sha256: Option<String>,
}

/// The `+++` header of an evidence file.
#[derive(Debug, Clone, Default, Hash, Serialize)]
pub struct Header {
    /// raw, transcript or note.
    pub(crate) kind: Option<EvidenceKind>,
    /// Command or origin.
    pub(crate) source: Option<String>,
    /// Capture date.
    pub(crate) captured: Option<String>,
    /// Host it was captured on.
    pub(crate) host: Option<String>,
    /// Observation phase.
    pub(crate) phase: Option<String>,
    /// How a capture or import came to be.
    pub(crate) provenance: Provenance,
}

/// One evidence file.
#[derive(Debug, Clone)]
pub struct EvidenceFile {
    /// Path under the evidence directory, `/`-separated.
    pub(crate) path: String,
    /// Where it is on disk (for copying the raw bytes).
    pub(crate) disk_path: PathBuf,
    /// Its header, if it has one.
    pub(crate) header: Option<Header>,
    /// Text after the header: in memory, or read from disk when large.
    body: Body,
    /// `hash::content_hash` of the file as it is on disk (header and all;
    /// a `.gz` compressed), made once when read: the memo keys of every run
    /// hash it, and the published raw copy is this file, so an edit that
    /// leaves the text alone (a header's spacing, another compression)
    /// still makes it new.
    file_hash: u64,
    /// For a `.gz`, how many bytes of text it held: one kept by the dev
    /// server is read again when `max-gz-size` falls below it.
    expanded: Option<u64>,
    /// The file on disk as it was read (see [`Stamp`]).
    stamp: Option<Stamp>,
}

/// What says a file on disk is still the one that was read: its identity,
/// size and times. Any write moves its change time, which no one can set
/// back; a file renamed over it has another inode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stamp {
    dev: u64,
    ino: u64,
    len: u64,
    mtime: (i64, i64),
    ctime: (i64, i64),
}

impl Stamp {
    /// `path`'s stamp now (through a link: what is read is its target).
    #[cfg(unix)]
    fn of(path: &Path) -> Option<Stamp> {
        use std::os::unix::fs::MetadataExt;
        let m = std::fs::metadata(path).ok()?;
        Some(Stamp {
            dev: m.dev(),
            ino: m.ino(),
            len: m.len(),
            mtime: (m.mtime(), m.mtime_nsec()),
            ctime: (m.ctime(), m.ctime_nsec()),
        })
    }

    #[cfg(not(unix))]
    fn of(path: &Path) -> Option<Stamp> {
        let m = std::fs::metadata(path).ok()?;
        let since = m
            .modified()
            .ok()?
            .duration_since(std::time::UNIX_EPOCH)
            .ok()?;
        Some(Stamp {
            dev: 0,
            ino: 0,
            len: m.len(),
            mtime: (since.as_secs() as i64, i64::from(since.subsec_nanos())),
            ctime: (0, 0),
        })
    }
}

/// E043 for an evidence file that changed (or went) while kansoku read
/// it: what was read of it may be torn, part old and part new, and a
/// build that went on would publish a page and a raw copy that disagree.
pub(crate) fn changed_while_read(shown: &str, by: &str) -> Diagnostic {
    Diagnostic::error(
        "E043",
        crate::error::Location::file(shown.to_owned()),
        format!("changed while {by} read it; nothing was written"),
    )
    .with_hint("build again once nothing writes to it; to cite a log that is still being written, copy it and cite the copy")
}

impl EvidenceFile {
    /// Number of lines after the header.
    pub(crate) fn line_count(&self) -> usize {
        self.body.lines()
    }

    /// Calls `f` with each of lines `a..=b` (1-based, clamped to the
    /// file). A line of a large log is given up to [`LINE_CAP`] bytes.
    pub(crate) fn for_each_line(
        &self,
        a: usize,
        b: usize,
        f: impl FnMut(usize, &str),
    ) -> std::io::Result<()> {
        self.body.for_each_line(a, b, f)
    }

    /// Whether lines `a..=b`, joined by `\n`, contain `needle`.
    pub(crate) fn contains(&self, a: usize, b: usize, needle: &str) -> std::io::Result<bool> {
        self.body.contains(a, b, needle)
    }

    /// The line on which `needle` first starts, anywhere in the file.
    pub(crate) fn find(&self, needle: &str) -> std::io::Result<Option<usize>> {
        self.body.find(needle)
    }

    /// Calls `f` with every window of `len` lines (see `Body::windows`).
    pub(crate) fn windows(
        &self,
        len: usize,
        f: impl FnMut(usize, &mut dyn Iterator<Item = &str>),
    ) -> std::io::Result<()> {
        self.body.windows(len, f)
    }

    /// FNV-1a of lines `a..=b`, each without trailing whitespace, joined
    /// by `\n`: what `kansoku.lock` records.
    pub(crate) fn lines_hash(&self, a: usize, b: usize) -> std::io::Result<u64> {
        self.body.lines_hash(a, b)
    }

    /// Whether the body is read from disk when needed (a large log): its
    /// raw copy is copied, not read, and its page shows the cited lines.
    pub(crate) fn is_streamed(&self) -> bool {
        self.body.is_streamed()
    }

    /// The hash of the file's bytes on disk (`hash::content_hash`).
    pub(crate) fn file_hash(&self) -> u64 {
        self.file_hash
    }

    /// The header's kind, if given.
    pub(crate) fn kind(&self) -> Option<EvidenceKind> {
        self.header.as_ref().and_then(|h| h.kind)
    }

    /// Whether the file on disk is still the one that was read.
    fn unchanged(&self) -> bool {
        self.stamp.is_some() && Stamp::of(&self.disk_path) == self.stamp
    }
}

impl EvidenceIndex {
    /// E043 for each file that changed on disk since it was read: a build
    /// calls this once everything it publishes was made, before anything
    /// is put in place. What it read of such a file, and copied from it,
    /// may be torn.
    pub(crate) fn changed_since_read(&self) -> Vec<Diagnostic> {
        let changed: Vec<Diagnostic> = self
            .files
            .par_iter()
            .filter(|(_, f)| !f.unchanged())
            .map(|(path, _)| changed_while_read(&format!("{}/{path}", self.dir_name), "the build"))
            .collect();
        changed
    }
}

/// Every evidence file by path, and the paths that point out of the tree.
#[derive(Debug, Clone, Default)]
pub struct EvidenceIndex {
    /// Files by path.
    pub files: BTreeMap<String, EvidenceFile>,
    /// Symlinks whose target lies outside the evidence directory.
    pub(crate) escaping: BTreeSet<String>,
    /// Files that only drafts cite, which a build without `--drafts`
    /// leaves out: taken out of `files`, so nothing publishes them.
    pub(crate) left_out: BTreeSet<String>,
    /// Files that exist but could not be read as evidence (already
    /// reported), so claims citing them are not also told they are missing.
    pub(crate) broken: BTreeSet<String>,
    /// The evidence directory relative to the root, for messages.
    pub(crate) dir_name: String,
}

/// Reads every file under the evidence directory.
///
/// Files are read in parallel and merged in path order, so the index and
/// findings do not depend on the number of threads.
pub fn load_evidence(root: &Path, dir: &Path) -> Result<(EvidenceIndex, Vec<Diagnostic>)> {
    load_evidence_with(root, dir, crate::config::DEFAULT_MAX_GZ_SIZE, &|_| None)
}

/// Gives the file at an evidence-relative path as it was last read, if
/// it is known not to have changed since: it is then not read again.
pub(crate) type Known<'a> = dyn Fn(&str) -> Option<EvidenceFile> + Sync + 'a;

/// [`load_evidence`], with `max_gz` the most a `.gz` may expand to
/// (`[evidence] max-gz-size`), taking from `known` the regular files it
/// has (symlinks are always followed again: their targets may have moved).
pub(crate) fn load_evidence_with(
    root: &Path,
    dir: &Path,
    max_gz: u64,
    known: &Known<'_>,
) -> Result<(EvidenceIndex, Vec<Diagnostic>)> {
    let abs = root.join(dir);
    let dir_name = rel_path(root, &abs);
    let mut index = EvidenceIndex {
        dir_name: dir_name.clone(),
        ..Default::default()
    };
    let mut diags = Vec::new();
    if !abs.is_dir() {
        return Ok((index, diags));
    }
    let canon_dir = abs.canonicalize().map_err(|e| Error::io(&abs, e))?;
    let loaded: Vec<Result<Loaded>> = walk(&abs, |entry| {
        let ft = entry.file_type();
        ft.is_file() || ft.is_symlink()
    })
    .into_par_iter()
    .map(|entry| {
        let entry = entry?;
        // Before `known`: a file read before names were checked (a memo
        // kept from an older build) must not slip through.
        if let Some(broken) = unsafe_name(&abs, &dir_name, &entry) {
            return Ok(broken);
        }
        if entry.file_type().is_file() {
            let kept = known(&rel_path(&abs, entry.path()))
                .filter(|f| f.expanded.is_none_or(|n| n <= max_gz));
            if let Some(file) = kept {
                return Ok(Loaded::File(Box::new(file)));
            }
        }
        load_file(&abs, &canon_dir, &dir_name, &entry, max_gz)
    })
    .collect();
    for result in loaded {
        match result? {
            Loaded::Skipped => {}
            Loaded::SkippedLink(rel) => {
                diags.push(crate::content::symlink_warning(format!("{dir_name}/{rel}")));
            }
            Loaded::Escaping(rel) => {
                // Reported by validation: E015 where a claim cites it,
                // W060 where none does.
                index.escaping.insert(rel);
            }
            Loaded::Broken(rel, found) => {
                diags.extend(found);
                index.broken.insert(rel);
            }
            Loaded::File(file) => {
                index.files.insert(file.path.clone(), *file);
            }
        }
    }
    // Here, not where the file is read: a file the dev server kept from
    // its last build is told about again.
    for file in index.files.values() {
        if let Some((line, n)) = file.body.long_line() {
            let mib = LINE_CAP >> 20;
            diags.push(
                Diagnostic::warning(
                    "W005",
                    crate::error::Location {
                        path: format!("{dir_name}/{}", file.path),
                        line,
                        col: 1,
                    },
                    format!("line {n} after the header is longer than {mib} MiB: kansoku reads only its first {mib} MiB"),
                )
                .with_hint("a claim can quote, and the evidence page shows, only the start of this line; break the log into lines (`fold -w 4096`) to cite the rest"),
            );
        }
    }
    Ok((index, diags))
}

/// One entry's outcome.
enum Loaded {
    /// Hidden.
    Skipped,
    /// A symlink to a directory inside the tree: its files are read
    /// through their real path, once.
    SkippedLink(String),
    /// A symlink whose target leaves the evidence directory.
    Escaping(String),
    /// A file that cannot be read as evidence, with the finding.
    Broken(String, Vec<Diagnostic>),
    /// Boxed: most of these move through a `Vec`.
    File(Box<EvidenceFile>),
}

/// E060 for an evidence file whose name holds an invisible format
/// character (its evidence page's URL and the links citing it would read
/// as another name), a `\\` (browsers read it as `/`) or a line break
/// (no output path may hold one: the raw copy could not be published).
/// Hidden files are skipped, not reported. (Other control characters are
/// allowed here since issue 11: findings show them escaped.)
fn unsafe_name(abs: &Path, dir_name: &str, entry: &walkdir::DirEntry) -> Option<Loaded> {
    let rel = rel_path(abs, entry.path());
    if rel.split('/').any(|p| p.starts_with('.')) {
        return None;
    }
    let why = if rel.contains('\\') {
        "browsers read `\\` as `/`".to_owned()
    } else if rel.contains('\n') {
        "it holds the control character U+000A".to_owned()
    } else {
        crate::content::format_char_in_name(&rel)?
    };
    let d = Diagnostic::error(
        "E060",
        crate::error::Location::file(format!("{dir_name}/{rel}")),
        format!(
            "file name `{}` cannot become a URL: {why}",
            crate::terminal::escape(&rel, &[])
        ),
    )
    .with_hint(
        "rename the file using letters, digits, `-`, `_` and `.`, and the evidence links that cite it",
    );
    Some(Loaded::Broken(rel, vec![d]))
}

/// What a file is read as: its bytes, or (when large) the file itself.
enum Opened {
    /// With, for a `.gz`, the file's hash and its text's length.
    Bytes(Vec<u8>, Option<(u64, u64)>),
    File(std::fs::File),
    /// A `.gz` whose text is larger than kansoku holds: its first
    /// [`STREAM_AT`] bytes and more, read, and the rest to read.
    Gz(Vec<u8>, Box<gz::Inflate>),
}

/// The text a gzip file holds (every member, as `gzip -d` gives them), up
/// to `cap` bytes: held when it is small; past [`STREAM_AT`], its start,
/// and the rest to be read as a large log is (see `gz`).
fn gunzip(path: &Path, cap: u64) -> std::io::Result<Opened> {
    use std::io::Read;
    let mut inflate = gz::Inflate::open(path, cap)?;
    let mut held = Vec::new();
    (&mut inflate).take(STREAM_AT + 1).read_to_end(&mut held)?;
    if held.len() as u64 > STREAM_AT {
        return Ok(Opened::Gz(held, Box::new(inflate)));
    }
    let (hash, expanded, _) = inflate.finish();
    Ok(Opened::Bytes(held, Some((hash, expanded))))
}

/// What a `.gz` that could not be read as one is: past its cap (E006),
/// not gzip or damaged (E001), or not readable at all (an I/O error, not
/// a finding about the file).
fn gzip_finding(shown: &str, path: &Path, e: std::io::Error) -> Result<Diagnostic> {
    use std::io::ErrorKind::{InvalidData, InvalidInput, UnexpectedEof};
    let at = crate::error::Location::file(shown.to_owned());
    if let Some(cap) = gz::too_large(&e) {
        return Ok(Diagnostic::error(
            "E006",
            at,
            format!(
                "expands past {} when decompressed, the most `max-gz-size` allows",
                crate::config::show_size(cap)
            ),
        )
        .with_hint("a log this large is better split, or kept elsewhere and cited by a shorter extract; to publish it whole, raise `max-gz-size` under [evidence] in book.toml"));
    }
    if !matches!(e.kind(), InvalidData | InvalidInput | UnexpectedEof) {
        return Err(Error::io(path, e));
    }
    Ok(
        Diagnostic::error("E001", at, format!("not a readable gzip file: {e}")).with_hint(
            "compress the log with `gzip`, or drop the `.gz` from its name if it is plain text",
        ),
    )
}

/// The `body-sha256` of the body in `file` as `check` reads it (from the
/// file's position on, line ends `\r\n` as `\n`), read in pieces; `None`
/// when it is not UTF-8. What `kansoku capture` writes in a header.
pub(crate) fn text_sha256(file: std::fs::File) -> std::io::Result<Option<String>> {
    use std::io::Seek;
    let mut file = file;
    let start = file.stream_position()?;
    Ok(Streamed::scan_file(file, start, 0, true, None)?
        .ok()
        .and_then(|s| s.sha256))
}

fn load_file(
    abs: &Path,
    canon_dir: &Path,
    dir_name: &str,
    entry: &walkdir::DirEntry,
    max_gz: u64,
) -> Result<Loaded> {
    let rel = rel_path(abs, entry.path());
    if rel.split('/').any(|p| p.starts_with('.')) {
        return Ok(Loaded::Skipped);
    }
    if entry.file_type().is_symlink() {
        match entry.path().canonicalize() {
            Ok(target) if target.starts_with(canon_dir) && target.is_file() => {}
            Ok(target) if target.starts_with(canon_dir) => return Ok(Loaded::SkippedLink(rel)),
            _ => return Ok(Loaded::Escaping(rel)),
        }
    }
    let shown = format!("{dir_name}/{rel}");
    let path = entry.path();
    let stamp = Stamp::of(path);
    let loaded = read_file(rel, shown.clone(), path, max_gz)?;
    match loaded {
        Loaded::File(mut file) => {
            if Stamp::of(path) != stamp || stamp.is_none() {
                let rel = file.path.clone();
                return Ok(Loaded::Broken(
                    rel,
                    vec![changed_while_read(&shown, "kansoku")],
                ));
            }
            file.stamp = stamp;
            Ok(Loaded::File(file))
        }
        other => Ok(other),
    }
}

/// The file at `path`, read as evidence (its stamp is the caller's).
fn read_file(rel: String, shown: String, path: &Path, max_gz: u64) -> Result<Loaded> {
    // A compressed log is read as the text it holds (and published as it
    // is): `path.log.gz#L7` cites line 7 of the log.
    let opened = if rel.ends_with(".gz") {
        match gunzip(path, max_gz) {
            Ok(opened) => opened,
            Err(e) => return Ok(Loaded::Broken(rel, vec![gzip_finding(&shown, path, e)?])),
        }
    } else {
        let size = std::fs::metadata(path)
            .map_err(|e| Error::io(path, e))?
            .len();
        if size > STREAM_AT {
            Opened::File(std::fs::File::open(path).map_err(|e| Error::io(path, e))?)
        } else {
            Opened::Bytes(std::fs::read(path).map_err(|e| Error::io(path, e))?, None)
        }
    };
    let (bytes, gz) = match opened {
        Opened::Bytes(bytes, gz) => (bytes, gz),
        Opened::File(file) => return streamed(rel, shown, path, Large::File(file)),
        Opened::Gz(held, inflate) => return streamed(rel, shown, path, Large::Gz(held, inflate)),
    };
    let file_hash = gz.map_or_else(|| crate::hash::content_hash(&bytes), |(hash, _)| hash);
    let text = match decode_owned(&shown, bytes) {
        Ok(t) => t,
        Err(d) => return Ok(Loaded::Broken(rel, vec![d])),
    };
    let src = Source::new(shown, text);
    let (header, body) = match front_matter::split(&src, false) {
        Ok(None) => (None, src.text),
        Ok(Some(split)) => match front_matter::parse::<RawHeader>(&src, split) {
            Ok(h) => {
                let found = header_findings(&src, &h);
                if !found.is_empty() {
                    return Ok(Loaded::Broken(rel, found));
                }
                let header = header_of(h);
                let mut body = src.text;
                // In place: evidence logs are the largest files of a site.
                body.drain(..split.body_start);
                if let Some(d) = tampered(&src.rel, &header, || body_sha256(&body)) {
                    return Ok(Loaded::Broken(rel, vec![d]));
                }
                (Some(header), body)
            }
            Err(d) => return Ok(Loaded::Broken(rel, vec![d])),
        },
        Err(d) => return Ok(Loaded::Broken(rel, vec![d])),
    };
    Ok(Loaded::File(Box::new(EvidenceFile {
        path: rel,
        disk_path: path.to_path_buf(),
        header,
        file_hash,
        expanded: gz.map(|(_, n)| n),
        stamp: None,
        body: Body::held(body),
    })))
}

/// The most of a large log read to find its header.
const HEAD_MAX: usize = 1 << 20;

/// A large log, or a `.gz` that holds one.
enum Large {
    File(std::fs::File),
    /// What was read of its text (more than its header), and the rest.
    Gz(Vec<u8>, Box<gz::Inflate>),
}

/// A large log (or what a large `.gz` holds): its header read from the
/// start, its body scanned and left on disk.
fn streamed(rel: String, shown: String, path: &Path, large: Large) -> Result<Loaded> {
    use std::io::Read;
    let io = |e| Error::io(path, e);
    let mut head = Vec::with_capacity(HEAD_MAX);
    match &large {
        Large::File(file) => {
            file.take(HEAD_MAX as u64)
                .read_to_end(&mut head)
                .map_err(io)?;
        }
        Large::Gz(held, _) => head.extend_from_slice(&held[..held.len().min(HEAD_MAX)]),
    }
    // Up to the last whole line: a cut character is not a mistake.
    let whole = memchr::memrchr(b'\n', &head).map_or(head.len(), |i| i + 1);
    head.truncate(whole);
    let bom = if head.starts_with(b"\xEF\xBB\xBF") {
        3
    } else {
        0
    };
    let text = match crate::source::decode(&shown, &head) {
        Ok(t) => t,
        Err(d) => return Ok(Loaded::Broken(rel, vec![d])),
    };
    let src = Source::new(shown, text);
    let (header, head_lines) = match front_matter::split(&src, false) {
        Ok(None) => (None, 0),
        Ok(Some(split)) => match front_matter::parse::<RawHeader>(&src, split) {
            Ok(h) => {
                let found = header_findings(&src, &h);
                if !found.is_empty() {
                    return Ok(Loaded::Broken(rel, found));
                }
                (
                    Some(header_of(h)),
                    src.text[..split.body_start].matches('\n').count(),
                )
            }
            Err(d) => return Ok(Loaded::Broken(rel, vec![d])),
        },
        Err(d) => return Ok(Loaded::Broken(rel, vec![d])),
    };
    // The body starts after the header's last line end in the bytes as
    // they are (the text above had its `\r\n` read as `\n`).
    let start = match head_lines {
        0 => bom,
        n => memchr::memchr_iter(b'\n', &head)
            .nth(n - 1)
            .map_or(head.len(), |i| i + 1),
    };
    let want_sha = header
        .as_ref()
        .is_some_and(|h| h.provenance.body_sha256.is_some());
    let (scanned, file_hash, expanded) = match large {
        Large::File(file) => {
            // The file's hash, made in the same read as the scan: the
            // bytes before the body are the head's.
            let mut whole = crate::hash::ContentHasher::new();
            whole.update(&head[..start]);
            let scanned =
                Streamed::scan_file(file, start as u64, head_lines, want_sha, Some(whole))
                    .map_err(io)?;
            let hash = scanned.as_ref().ok().and_then(|s| s.file_hash);
            (scanned, hash.unwrap_or_default(), None)
        }
        Large::Gz(held, mut inflate) => {
            let file = std::fs::File::open(path).map_err(io)?;
            let source = body::Source::Gz(Box::new(gz::Gz::new(file, Vec::new())));
            let mut rest = (&held[start..]).chain(&mut *inflate);
            let scanned =
                match Streamed::scan(&mut rest, source, start as u64, head_lines, want_sha, None) {
                    Ok(scanned) => scanned,
                    Err(e) => {
                        return Ok(Loaded::Broken(rel, vec![gzip_finding(&src.rel, path, e)?]))
                    }
                };
            let (hash, expanded, reader) = (*inflate).finish();
            let scanned = scanned.map(|mut s| {
                s.body.set_source(body::Source::Gz(Box::new(reader)));
                s
            });
            (scanned, hash, Some(expanded))
        }
    };
    let scanned = match scanned {
        Ok(scanned) => scanned,
        Err(bad) => {
            let d = Diagnostic::error(
                "E001",
                crate::error::Location {
                    path: src.rel.clone(),
                    line: head_lines + bad.line,
                    col: bad.col,
                },
                format!(
                    "invalid UTF-8 at byte {}",
                    (start - bom) as u64 + bad.offset
                ),
            )
            .with_hint("save the file as UTF-8");
            return Ok(Loaded::Broken(rel, vec![d]));
        }
    };
    if let Some(h) = &header {
        let sha = scanned.sha256.clone().unwrap_or_default();
        if let Some(d) = tampered(&src.rel, h, || sha) {
            return Ok(Loaded::Broken(rel, vec![d]));
        }
    }
    let body = Body::Streamed(std::sync::Arc::new(scanned.body));
    Ok(Loaded::File(Box::new(EvidenceFile {
        path: rel,
        disk_path: path.to_path_buf(),
        header,
        file_hash,
        expanded,
        stamp: None,
        body,
    })))
}
