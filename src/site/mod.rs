//! `build`: load → validate → render → write, in that order.
//!
//! The stages are plain functions over values; this module only sequences
//! them and decides that any error stops the build before anything is
//! written. It knows nothing about serving.

pub mod output;

use crate::config::Config;
use crate::content::{load_content, Class, Content};
use crate::error::{Diagnostic, Error, Result};
use crate::evidence::{load_evidence, EvidenceIndex};
use crate::render::Renderer;
use crate::validate::{self, sort, Mode, Site};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A site's sources as read, before validation, with the findings of
/// reading them.
pub struct Sources {
    /// `book.toml`.
    pub config: Config,
    /// The pages.
    pub content: Content,
    /// Findings from reading the pages.
    pub content_diags: Vec<Diagnostic>,
    /// The evidence files.
    pub evidence: EvidenceIndex,
    /// Findings from reading the evidence.
    pub evidence_diags: Vec<Diagnostic>,
}

/// Reads `book.toml`, the pages and the evidence, without validating.
pub fn load_sources(root: &Path) -> Result<Sources> {
    let config = Config::load(root)?;
    // Each loader is parallel inside; side by side their directory walks
    // overlap too. The content error, if any, is still the one reported.
    let (content, evidence) = rayon::join(
        || load_content(root),
        || load_evidence(root, &config.evidence_dir),
    );
    let (content, content_diags) = content?;
    let (evidence, evidence_diags) = evidence?;
    Ok(Sources {
        config,
        content,
        content_diags,
        evidence,
        evidence_diags,
    })
}

/// Loads and validates a site; fails with every error found.
/// Warnings are returned alongside a usable site.
pub fn load(root: &Path, mode: Mode) -> Result<(Site, Vec<Diagnostic>)> {
    let sources = load_sources(root)?;
    let (config, content, evidence) = (sources.config, sources.content, sources.evidence);
    let mut diags = sources.content_diags;
    diags.extend(sources.evidence_diags);
    let (index, vdiags) = validate::validate(&config, &content, &evidence, mode);
    diags.extend(vdiags);
    sort(&mut diags);
    if diags.iter().any(Diagnostic::is_error) {
        return Err(Error::Content(diags));
    }
    Ok((
        Site {
            config,
            content,
            evidence,
            index,
        },
        diags,
    ))
}

/// What a successful build did.
#[derive(Debug, Clone)]
pub struct BuildReport {
    /// Content pages (each rendered once per language and once side by side).
    pub pages: usize,
    /// Claims per class, in legend order.
    pub claims: [(Class, usize); 4],
    /// Evidence files.
    pub evidence_files: usize,
    /// Files written.
    pub files_written: usize,
    /// Where.
    pub out_dir: PathBuf,
    /// Warnings found.
    pub warnings: Vec<Diagnostic>,
    /// Wall time.
    pub elapsed: Duration,
}

impl BuildReport {
    /// The one summary line `kansoku build` prints.
    pub fn summary(&self) -> String {
        let claims: Vec<String> = self
            .claims
            .iter()
            .map(|(c, n)| format!("{n} {}", c.name()))
            .collect();
        format!(
            "built {} pages × 2 languages (+ parallel view) · claims: {} · {} evidence file{} · {} ms → {}",
            self.pages,
            claims.join(", "),
            self.evidence_files,
            if self.evidence_files == 1 { "" } else { "s" },
            self.elapsed.as_millis(),
            self.out_dir.display()
        )
    }
}

/// Checks must never turn a site's source directories into build output.
fn guard_out_dir(config: &Config) -> Result<()> {
    let out = &config.build_dir;
    for src in [
        Path::new("content"),
        config.evidence_dir.as_path(),
        Path::new("templates"),
        Path::new("static"),
    ] {
        if src.starts_with(out) || out.starts_with(src) {
            return Err(Error::Usage(format!(
                "build-dir \"{}\" overlaps the source directory \"{}\"; choose another, such as \"public\"",
                out.display(),
                src.display()
            )));
        }
    }
    Ok(())
}

/// What a build includes beyond the pages themselves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BuildOptions {
    /// Write the Pagefind search bundles (on for every real build; tests
    /// and benchmarks of other stages may turn it off).
    pub search: bool,
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions { search: true }
    }
}

fn lock<T>(m: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // Whatever a panicking thread left is still a valid list to read.
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Builds the site at `root` into its build directory.
pub fn build(root: &Path) -> Result<BuildReport> {
    build_with(root, BuildOptions::default())
}

/// Builds with explicit options.
pub fn build_with(root: &Path, options: BuildOptions) -> Result<BuildReport> {
    let start = Instant::now();
    // KANSOKU_TIMINGS=1 prints each stage's time, for profiling.
    let timings = std::env::var_os("KANSOKU_TIMINGS").is_some();
    let lap = |what: &str, since: Instant| {
        if timings {
            eprintln!("timing: {what:<10} {:>6} ms", since.elapsed().as_millis());
        }
    };
    let t = Instant::now();
    let (mut site, warnings) = load(root, Mode::Build)?;
    lap("load", t);
    // `--no-search` and `[search] enabled = false` alike: no index, and
    // no search box on the pages.
    site.config.search &= options.search;
    let options = BuildOptions {
        search: site.config.search,
    };
    guard_out_dir(&site.config)?;
    let t = Instant::now();
    let renderer = Renderer::new(root)?.map_err(Error::Content)?;
    lap("theme", t);
    let t = Instant::now();
    let collisions = renderer.collisions(&site);
    if !collisions.is_empty() {
        return Err(Error::Content(collisions));
    }
    let prepared = renderer.prepare(&site).map_err(Error::Content)?;
    lap("prepare", t);
    // Each file goes to the staging tree as soon as it is rendered, so the
    // output is never all in memory; search keeps only the part of each
    // page it indexes. Nothing reaches `out_dir` unless everything
    // succeeds: an error drops the staging tree.
    let t = Instant::now();
    let out_dir = root.join(&site.config.build_dir);
    let staging = output::Staging::begin(&out_dir)?;
    let searchable = std::sync::Mutex::new(Vec::new());
    let io_error = std::sync::Mutex::new(None);
    let sink = |f: crate::render::OutputFile| -> std::result::Result<(), Diagnostic> {
        if options.search {
            if let Some(part) = crate::search::searchable(&f) {
                lock(&searchable).push(part);
            }
        }
        staging.write(&f.path, &f.bytes).map_err(|e| {
            // Only stops rendering: the I/O error itself is what the build
            // reports (taken from `io_error` below), never this diagnostic.
            let d = Diagnostic::error(
                "E043",
                crate::error::Location::file(f.path.clone()),
                format!("cannot write the output: {e}"),
            );
            lock(&io_error).get_or_insert(e);
            d
        })
    };
    let rendered = renderer.render_each(&site, &prepared, &renderer.units(&site), &sink);
    drop(prepared);
    if let Some(e) = lock(&io_error).take() {
        // Planned paths make this rare (a file where another output needs a
        // directory), but it is the same mistake.
        if let Some(path) = output::collision(&e) {
            return Err(Error::Content(vec![Diagnostic::error(
                "E042",
                crate::error::Location::file("content"),
                format!("two outputs would be written to `{path}`"),
            )
            .with_hint(
                "rename the page or static file that collides with a generated one",
            )]));
        }
        return Err(e);
    }
    rendered.map_err(Error::Content)?;
    lap("render", t);
    let t = Instant::now();
    // Search reads the rendered pages, so it runs after render; its bundle
    // is written with everything else, atomically.
    if options.search {
        let pages = searchable
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        for f in crate::search::index_searchable(&site, &pages)? {
            staging.write(&f.path, &f.bytes)?;
        }
    }
    lap("search", t);
    let t = Instant::now();
    let files_written = staging.commit()?;
    lap("write", t);
    let mut claims = Class::ALL.map(|c| (c, 0));
    for page in &site.content.pages {
        for c in &page.claims {
            if let Some(slot) = claims.iter_mut().find(|(k, _)| *k == c.class) {
                slot.1 += 1;
            }
        }
    }
    Ok(BuildReport {
        pages: site.content.pages.len(),
        claims,
        evidence_files: site.evidence.files.len(),
        files_written,
        out_dir: site.config.build_dir.clone(),
        warnings,
        elapsed: start.elapsed(),
    })
}
