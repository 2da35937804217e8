//! Test harness shared by the integration tests (mdBook's `BookTest` shape).
//!
//! [`SiteTest`] copies a fixture site into a temporary directory, builds it
//! through the library and reads what was written, with chainable asserts.
//! [`Tree`] captures a whole directory (sorted paths and bytes) so tests can
//! say "identical" or "untouched" exactly. Nothing here ever writes into the
//! repository: every build happens in a temp copy.

// Not every helper of the harness is used by the tests of the moment.
#![allow(dead_code)]

use kansoku::site::BuildReport;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::{LazyLock, Mutex, PoisonError};

/// The repository root (the crate's manifest directory).
pub(crate) fn repo_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The parsed theme the in-process builds share, for the whole process:
/// parsing it is about a third of a small site's build, and these tests
/// build hundreds of sites. Not a thread's own: libtest runs each test on
/// a thread of its own, so such a cache served one test only. A build
/// takes a clone (which shares the parsed theme), parses again only when
/// its site's theme files differ from those it was parsed from, and
/// leaves its own for the next.
static THEME: LazyLock<Mutex<kansoku::site::KeptTheme>> = LazyLock::new(Mutex::default);

/// Runs `f` with a clone of [`THEME`], then keeps the theme it leaves.
fn with_theme<T>(f: impl FnOnce(&mut kansoku::site::KeptTheme) -> T) -> T {
    let lock = || THEME.lock().unwrap_or_else(PoisonError::into_inner);
    let mut theme = lock().clone();
    let out = f(&mut theme);
    *lock() = theme;
    out
}

/// `kansoku::site::build_with`, with the shared parsed theme.
pub(crate) fn build_with(
    root: &Path,
    options: kansoku::site::BuildOptions,
) -> kansoku::Result<BuildReport> {
    with_theme(|t| kansoku::site::build_keeping_theme(root, options, t))
}

/// `kansoku::check::check`, with the shared parsed theme.
pub(crate) fn check(root: &Path) -> kansoku::Result<kansoku::check::Report> {
    with_theme(|t| kansoku::check::check_keeping_theme(root, t))
}

/// `kansoku::site::build` without the search bundles, with the shared
/// parsed theme: most tests read pages, reports and findings, and
/// Pagefind was a fifth of the integration tests' CPU (perf over the
/// `it` binary, 2026-11-28). A test that reads the bundles, or compares
/// whole build directories with them in, uses [`build_searched`].
pub(crate) fn build(root: &Path) -> kansoku::Result<BuildReport> {
    build_with(
        root,
        kansoku::site::BuildOptions {
            search: false,
            ..kansoku::site::BuildOptions::default()
        },
    )
}

/// `kansoku::site::build` as a maintainer runs it, search bundles
/// included, with the shared parsed theme.
pub(crate) fn build_searched(root: &Path) -> kansoku::Result<BuildReport> {
    build_with(root, kansoku::site::BuildOptions::default())
}

/// `tests/fixtures/<name>`.
pub(crate) fn fixture(name: &str) -> PathBuf {
    repo_root().join("tests/fixtures").join(name)
}

/// Copies a directory tree: files, directories, and symlinks as symlinks
/// (the `w060-symlink` fixture holds one).
pub(crate) fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap_or_else(|e| panic!("create {}: {e}", to.display()));
    let entries =
        std::fs::read_dir(from).unwrap_or_else(|e| panic!("read {}: {e}", from.display()));
    for entry in entries {
        let entry = entry.expect("directory entry is readable");
        let src = entry.path();
        let dst = to.join(entry.file_name());
        let kind = entry.file_type().expect("file type is readable");
        if kind.is_dir() {
            copy_dir(&src, &dst);
        } else if kind.is_symlink() {
            let target = std::fs::read_link(&src).expect("symlink is readable");
            std::os::unix::fs::symlink(&target, &dst)
                .unwrap_or_else(|e| panic!("symlink {}: {e}", dst.display()));
        } else {
            std::fs::copy(&src, &dst).unwrap_or_else(|e| panic!("copy {}: {e}", src.display()));
        }
    }
}

/// A whole directory: `/`-separated relative path → bytes, sorted.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Tree(pub(crate) BTreeMap<String, Vec<u8>>);

impl Tree {
    /// Reads every file under `dir` (an empty tree if `dir` is missing).
    pub(crate) fn of(dir: &Path) -> Tree {
        let mut files = BTreeMap::new();
        if dir.exists() {
            collect(dir, dir, &mut files);
        }
        Tree(files)
    }

    /// The sorted relative paths.
    pub(crate) fn paths(&self) -> Vec<&str> {
        self.0.keys().map(String::as_str).collect()
    }

    /// Panics, naming the paths that differ, unless `other` is identical.
    pub(crate) fn assert_same(&self, other: &Tree, what: &str) {
        if self == other {
            return;
        }
        let mut msg = format!("{what}: trees differ\n");
        for (path, bytes) in &self.0 {
            match other.0.get(path) {
                None => writeln!(msg, "  only in first:  {path}").expect("write to String"),
                Some(b) if b != bytes => {
                    writeln!(msg, "  bytes differ:   {path}").expect("write to String")
                }
                Some(_) => {}
            }
        }
        for path in other.0.keys().filter(|p| !self.0.contains_key(*p)) {
            writeln!(msg, "  only in second: {path}").expect("write to String");
        }
        panic!("{msg}");
    }
}

fn collect(base: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("read {}: {e}", dir.display()));
    for entry in entries {
        let entry = entry.expect("directory entry is readable");
        let path = entry.path();
        if entry.file_type().expect("file type is readable").is_dir() {
            collect(base, &path, out);
        } else {
            let rel = path.strip_prefix(base).expect("walked under base");
            let rel = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/");
            let bytes =
                std::fs::read(&path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
            out.insert(rel, bytes);
        }
    }
}

/// A site copied into a temp dir, built through `kansoku::site::build`.
pub(crate) struct SiteTest {
    /// The temp dir holding the site, removed on drop; `None` for the
    /// shared build of [`repo_built`], which lives as long as the process.
    _tmp: Option<tempfile::TempDir>,
    root: PathBuf,
    report: Option<BuildReport>,
}

impl SiteTest {
    /// Copies `tests/fixtures/<name>` into a fresh temp dir.
    pub(crate) fn from_fixture(name: &str) -> SiteTest {
        let src = fixture(name);
        assert!(src.is_dir(), "no fixture {}", src.display());
        SiteTest::from_dir(&src)
    }

    /// Copies a whole directory into a fresh temp dir.
    pub(crate) fn from_dir(src: &Path) -> SiteTest {
        let t = SiteTest::empty();
        copy_dir(src, &t.root);
        t
    }

    /// Copies only the named entries (files or directories) of `src`.
    pub(crate) fn from_parts(src: &Path, parts: &[&str]) -> SiteTest {
        let t = SiteTest::empty();
        for part in parts {
            let from = src.join(part);
            let to = t.root.join(part);
            if from.is_dir() {
                copy_dir(&from, &to);
            } else {
                std::fs::copy(&from, &to)
                    .unwrap_or_else(|e| panic!("copy {}: {e}", from.display()));
            }
        }
        t
    }

    fn empty() -> SiteTest {
        let tmp = crate::scratch::tempdir();
        let root = tmp.path().join("site");
        std::fs::create_dir_all(&root).expect("site dir can be made");
        SiteTest {
            _tmp: Some(tmp),
            root,
            report: None,
        }
    }

    /// The site root.
    pub(crate) fn root(&self) -> &Path {
        &self.root
    }

    /// The build directory (`public/`).
    pub(crate) fn out(&self) -> PathBuf {
        self.root.join("public")
    }

    /// Writes a file under the site root (source edits, a pre-existing public/).
    pub(crate) fn write(&mut self, rel: &str, text: &str) -> &mut Self {
        let path = self.root.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("parent dir can be made");
        }
        std::fs::write(&path, text).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
        self
    }

    /// Replaces `from` by `to` in a source file; the text must be there.
    pub(crate) fn edit(&mut self, rel: &str, from: &str, to: &str) -> &mut Self {
        let path = self.root.join(rel);
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
        assert!(text.contains(from), "{rel} does not contain {from:?}");
        self.write(rel, &text.replacen(from, to, 1))
    }

    /// A small "previous build" in public/, as a maintainer's tree would have.
    pub(crate) fn write_previous_output(&mut self) -> &mut Self {
        self.write(
            "public/index.html",
            "<!DOCTYPE html><p>previous build</p>\n",
        )
        .write(
            "public/ja/index.html",
            "<!DOCTYPE html><html lang=\"ja\"><p>前回のビルド</p>\n",
        )
        .write(
            "public/en/notes/old/index.html",
            "<!DOCTYPE html><html lang=\"en\"><p>old page</p>\n",
        )
        .write("public/claims.json", "{\"version\": 1, \"claims\": []}\n")
    }

    /// Builds without the search bundles ([`build`]); panics with the
    /// full error text if the build fails.
    pub(crate) fn build(&mut self) -> &mut Self {
        self.built(build(&self.root))
    }

    /// Builds as a maintainer does, search bundles included
    /// ([`build_searched`]); panics with the full error text if the build
    /// fails.
    pub(crate) fn build_searched(&mut self) -> &mut Self {
        self.built(build_searched(&self.root))
    }

    fn built(&mut self, result: kansoku::Result<BuildReport>) -> &mut Self {
        match result {
            Ok(report) => self.report = Some(report),
            Err(e) => panic!("build of {} failed:\n{e}", self.root.display()),
        }
        self
    }

    /// Builds and expects failure; returns the error.
    pub(crate) fn build_err(&mut self) -> kansoku::Error {
        match build(&self.root) {
            Ok(report) => panic!("build unexpectedly succeeded: {}", report.summary()),
            Err(e) => e,
        }
    }

    /// The report of the last successful build.
    pub(crate) fn report(&self) -> &BuildReport {
        self.report
            .as_ref()
            .expect("build() was called and succeeded")
    }

    /// Path of an output file.
    pub(crate) fn out_path(&self, rel: &str) -> PathBuf {
        self.out().join(rel)
    }

    /// Whether an output file exists.
    pub(crate) fn exists(&self, rel: &str) -> bool {
        self.out_path(rel).is_file()
    }

    /// An output file as text.
    pub(crate) fn read(&self, rel: &str) -> String {
        let path = self.out_path(rel);
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read output {rel}: {e}"))
    }

    /// The `<main …>…</main>` element of an output page.
    pub(crate) fn main_of(&self, rel: &str) -> String {
        let html = self.read(rel);
        main_element(&html)
            .unwrap_or_else(|| panic!("{rel} has no <main> element"))
            .to_owned()
    }

    /// Asserts an output file exists.
    pub(crate) fn assert_file_exists(&mut self, rel: &str) -> &mut Self {
        assert!(
            self.exists(rel),
            "expected output file {rel}; the build wrote:\n{}",
            self.tree().paths().join("\n")
        );
        self
    }

    /// Asserts an output file contains `needle`.
    pub(crate) fn assert_file_contains(&mut self, rel: &str, needle: &str) -> &mut Self {
        let text = self.read(rel);
        assert!(
            text.contains(needle),
            "{rel} does not contain {needle:?}\n--- {rel} ---\n{text}"
        );
        self
    }

    /// Asserts an output file does not contain `needle`.
    pub(crate) fn assert_file_not_contains(&mut self, rel: &str, needle: &str) -> &mut Self {
        let text = self.read(rel);
        assert!(
            !text.contains(needle),
            "{rel} unexpectedly contains {needle:?}\n--- {rel} ---\n{text}"
        );
        self
    }

    /// Every file of the build directory.
    pub(crate) fn tree(&self) -> Tree {
        Tree::of(&self.out())
    }

    /// Staging or backup directories (`.public.kansoku-*`) left in the root.
    pub(crate) fn leftovers(&self) -> Vec<String> {
        leftovers_in(&self.root)
    }
}

/// Staging or backup directories (`.public.kansoku-*`) left in a site root.
pub(crate) fn leftovers_in(root: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(root)
        .expect("site root is readable")
        .map(|e| {
            e.expect("directory entry is readable")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|n| n.contains(".kansoku-"))
        .collect();
    names.sort();
    names
}

/// The `<main …>…</main>` element of a page.
pub(crate) fn main_element(html: &str) -> Option<&str> {
    let start = html.find("<main")?;
    let end = html[start..].find("</main>")? + start + "</main>".len();
    Some(&html[start..end])
}

/// Every `<tag …>…</tag>` element in `html`, outer HTML, nesting respected.
pub(crate) fn elements<'a>(html: &'a str, tag: &str) -> Vec<&'a str> {
    let open = format!("<{tag}");
    let close = format!("</{tag}>");
    let is_open_at = |i: usize| {
        html[i..].starts_with(&open) && html[i + open.len()..].starts_with(['>', ' ', '\n'])
    };
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(off) = html[i..].find(&open) {
        let start = i + off;
        if !is_open_at(start) {
            i = start + open.len();
            continue;
        }
        let mut depth = 0usize;
        let mut j = start;
        let mut end = None;
        while j < html.len() {
            if is_open_at(j) {
                depth += 1;
                j += open.len();
            } else if html[j..].starts_with(&close) {
                depth -= 1;
                j += close.len();
                if depth == 0 {
                    end = Some(j);
                    break;
                }
            } else {
                j += html[j..].chars().next().map_or(1, char::len_utf8);
            }
        }
        let end = end.unwrap_or_else(|| panic!("unclosed <{tag}> at byte {start}"));
        out.push(&html[start..end]);
        i = start + open.len();
    }
    out
}

/// The element carrying `id="…"`, outer HTML.
pub(crate) fn element_by_id<'a>(html: &'a str, id: &str) -> Option<&'a str> {
    let attr = format!(" id=\"{id}\"");
    let at = html.find(&attr)?;
    let start = html[..at].rfind('<')?;
    let tag: String = html[start + 1..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect();
    elements(&html[start..], &tag).into_iter().next()
}

/// Every `id="…"` value in a page.
pub(crate) fn ids(html: &str) -> Vec<&str> {
    html.match_indices(" id=\"")
        .map(|(i, m)| {
            let rest = &html[i + m.len()..];
            &rest[..rest.find('"').expect("attribute is closed")]
        })
        .collect()
}

/// Ids that occur more than once in a page.
pub(crate) fn duplicate_ids(html: &str) -> Vec<String> {
    let mut seen = std::collections::BTreeMap::<&str, usize>::new();
    for id in ids(html) {
        *seen.entry(id).or_default() += 1;
    }
    seen.into_iter()
        .filter(|(_, n)| *n > 1)
        .map(|(id, _)| id.to_owned())
        .collect()
}

/// HTML-escapes text as the engine's templates do (`&`, `<`, `>`, quotes).
pub(crate) fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

/// A message of the embedded theme's `templates/i18n/<lang>.ftl`, read from
/// the repository so UI wording can change without breaking tests. For a
/// select message, `variant` picks the `[variant]` arm.
pub(crate) fn ftl(lang: &str, key: &str, variant: Option<&str>) -> String {
    let path = repo_root().join(format!("templates/i18n/{lang}.ftl"));
    let text =
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    let mut lines = text
        .lines()
        .skip_while(|l| l.split('=').next().map(str::trim) != Some(key));
    let first = lines
        .next()
        .unwrap_or_else(|| panic!("{lang}.ftl has no message {key}"));
    let value = first
        .split_once('=')
        .expect("message line has `=`")
        .1
        .trim();
    if !value.is_empty() {
        return value.to_owned();
    }
    let variant =
        variant.unwrap_or_else(|| panic!("{key} is a multi-line message; name a variant"));
    let want = format!("[{variant}]");
    lines
        .take_while(|l| l.starts_with(' ') || l.starts_with('\t'))
        .map(str::trim)
        .find_map(|l| {
            l.trim_start_matches('*')
                .strip_prefix(want.as_str())
                .map(|v| v.trim().to_owned())
        })
        .unwrap_or_else(|| panic!("{lang}.ftl message {key} has no variant {want}"))
}

// ---- `kansoku check` helpers (tests/it/check.rs, tests/it/content.rs) ----

impl SiteTest {
    /// Writes raw bytes under the site root (BOM, CRLF, invalid UTF-8).
    pub(crate) fn write_bytes(&mut self, rel: &str, bytes: &[u8]) -> &mut Self {
        let path = self.root.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("parent dir can be made");
        }
        std::fs::write(&path, bytes).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
        self
    }

    /// Runs every rule through `kansoku::check::check` (with this thread's
    /// parsed theme); panics on a usage or I/O failure (those are exit
    /// code 2, not findings).
    pub(crate) fn check(&self) -> kansoku::check::Report {
        crate::common::check(&self.root)
            .unwrap_or_else(|e| panic!("check of {} failed outright: {e}", self.root.display()))
    }
}

/// What the repository's own site is made of.
const REPO_SITE: [&str; 3] = ["book.toml", "content", "evidence"];

/// The repository's own site (book.toml, content/, evidence/) in a temp dir,
/// for a test that edits it or builds it its own way.
pub(crate) fn repo_site() -> SiteTest {
    SiteTest::from_parts(repo_root(), &REPO_SITE)
}

/// The repository's own site built once per test run, by the real binary
/// as a maintainer builds it (`kansoku build --root …`, search on), for
/// every test that only reads the output or the command's own output: the
/// build of this site is the costliest step of the suite. Shared, so only
/// `&self` methods reach it; a test that edits the site or builds it its
/// own way copies it with [`repo_site`] instead.
pub(crate) fn repo_built() -> &'static SiteTest {
    &REPO_BUILT.0
}

/// What `kansoku build` printed and returned when it built [`repo_built`].
pub(crate) fn repo_build_output() -> &'static Output {
    &REPO_BUILT.1
}

static REPO_BUILT: LazyLock<(SiteTest, Output)> = LazyLock::new(|| {
    let root = run_dir().join("site");
    std::fs::create_dir_all(&root).expect("site dir can be made");
    for part in REPO_SITE {
        let from = repo_root().join(part);
        if from.is_dir() {
            copy_dir(&from, &root.join(part));
        } else {
            std::fs::copy(&from, root.join(part))
                .unwrap_or_else(|e| panic!("copy {}: {e}", from.display()));
        }
    }
    let output = Command::new(env!("CARGO_BIN_EXE_kansoku"))
        .args(["build", "--root"])
        .arg(&root)
        .output()
        .expect("the kansoku binary runs");
    assert!(
        output.status.success(),
        "the repository's own site fails to build:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let site = SiteTest {
        _tmp: None,
        root,
        report: None,
    };
    (site, output)
});

/// This process's own directory under Cargo's temp dir for integration
/// tests, for what lives as long as the process. A static is never
/// dropped, so a `TempDir` would never be removed: instead each run
/// removes the directories of runs whose process has ended (Linux's
/// `/proc/<pid>`; elsewhere every earlier run's).
fn run_dir() -> PathBuf {
    let base = Path::new(env!("CARGO_TARGET_TMPDIR")).join("kansoku-runs");
    if let Ok(entries) = std::fs::read_dir(&base) {
        for entry in entries.flatten() {
            if !Path::new("/proc").join(entry.file_name()).exists() {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
    }
    let dir = base.join(std::process::id().to_string());
    // Left by an earlier process that had the same id.
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("create {}: {e}", dir.display()));
    dir
}

/// One finding of `--format json`, parsed back.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct JsonFinding {
    pub(crate) code: String,
    pub(crate) severity: String,
    pub(crate) path: String,
    pub(crate) line: usize,
    pub(crate) col: usize,
    pub(crate) message: String,
    pub(crate) hint: Option<String>,
}

impl JsonFinding {
    /// `(code, severity, path, line, col)`, for comparing with a table.
    pub(crate) fn key(&self) -> (&str, &str, &str, usize, usize) {
        (&self.code, &self.severity, &self.path, self.line, self.col)
    }
}

/// Parses JSON-lines output: every line must be one finding object.
pub(crate) fn parse_json_findings(text: &str) -> Vec<JsonFinding> {
    text.lines()
        .map(|l| {
            serde_json::from_str(l).unwrap_or_else(|e| panic!("not a finding object ({e}): {l}"))
        })
        .collect()
}

/// A report formatted as JSON lines and parsed back.
pub(crate) fn json_findings(report: &kansoku::check::Report) -> Vec<JsonFinding> {
    parse_json_findings(&kansoku::check::format(
        report,
        kansoku::check::Format::Json,
    ))
}

/// Adds a confirmed claim `id` to the `check/clean` fixture's page, citing
/// `path` lines `lines` and quoting `quote`.
pub(crate) fn cite_quoted(t: &mut SiteTest, id: &str, path: &str, lines: &str, quote: &str) {
    let page = std::fs::read_to_string(t.root().join("content/page.md")).expect("page");
    let claim = format!(
        "[[claims]]\nid = \"{id}\"\nclass = \"confirmed\"\nja = \"取った。\"\nen = \"Captured.\"\nevidence = [{{ path = \"{path}\", lines = \"{lines}\", quote = \"{quote}\" }}]\n\n[[claims]]\n"
    );
    t.write("content/page.md", &page.replacen("[[claims]]\n", &claim, 1));
}
