//! The pipeline: [`run`] sequences the stages (load → validate → lock →
//! theme → render → search) for every command, [`memo`] remembers their
//! results, [`output`] and [`place`] say where a build's files go and keep
//! them safe.
//!
//! The loads (`load`, `load_unreviewed`, …) and `build` are `run` with a
//! plan and an output: `build` gives it the staging tree, so any error
//! stops the build before anything is written. Nothing here knows about
//! serving.

pub mod archive;
mod foreign;
pub(crate) mod memo;
pub mod output;
pub mod place;
pub(crate) mod plan;
pub(crate) mod run;

use foreign::{conflicting_files, foreign_files};
pub use memo::Caches;
pub use plan::UnitCounts;

use crate::config::Config;
use crate::content::{Class, Content};
use crate::error::{Diagnostic, Error, Result};
use crate::evidence::EvidenceIndex;
use crate::validate::{sort, Mode, Site};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A site's sources as read, before validation, with the findings of
/// reading them.
pub struct Sources {
    /// `book.toml`.
    pub config: Config,
    /// The ids the theme's templates write literally (`id="…"`), which a
    /// heading's id may not take.
    pub theme_ids: Vec<String>,
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
    memo::load_sources(root, &plan::Overrides::default(), &mut Caches::unrendered())
}

/// Loads and validates a site, then compares it with its review lock
/// (`kansoku.lock`, if any); fails with every error found. Warnings are
/// returned alongside a usable site.
pub fn load(root: &Path, mode: Mode) -> Result<(Site, Vec<Diagnostic>)> {
    loaded(root, &plan::Plan::load(mode))
}

/// [`load`] without the review lock: what `kansoku review` approves.
pub fn load_unreviewed(root: &Path, mode: Mode) -> Result<(Site, Vec<Diagnostic>)> {
    loaded(
        root,
        &plan::Plan {
            lock: false,
            ..plan::Plan::load(mode)
        },
    )
}

/// [`load_unreviewed`] that returns the site whatever was found, errors
/// included (pages with errors hold what of them parsed): `check --fix`
/// repairs what it can on a site that has other mistakes too.
pub fn load_unchecked(root: &Path, mode: Mode) -> Result<(Site, Vec<Diagnostic>)> {
    loaded(
        root,
        &plan::Plan {
            lock: false,
            errors: plan::Errors::Report,
            ..plan::Plan::load(mode)
        },
    )
}

/// The site and findings of a run that stops after validation.
fn loaded(root: &Path, plan: &plan::Plan<'_>) -> Result<(Site, Vec<Diagnostic>)> {
    let (ran, _) = run::run(root, plan, &mut Caches::unrendered(), |_, _| {
        Ok(plan::Nothing)
    })?;
    Ok((ran.site, ran.diagnostics))
}

/// The load stage of [`run::run`]: reads and validates the site as `plan`
/// says, compares it with the review lock if the plan asks, and returns
/// it with every finding, errors included.
fn load_site(
    root: &Path,
    plan: &plan::Plan<'_>,
    caches: &mut Caches,
) -> Result<(Site, Vec<Diagnostic>)> {
    let (mut site, mut diags) = load_all(root, plan, caches)?;
    if !plan.lock {
        return Ok((site, diags));
    }
    let t = Instant::now();
    // Compared even when there are other errors, so that a claim whose
    // evidence changed is reported along with them; the lock naming
    // claims that are gone (W084) is left for a site that loads cleanly,
    // since a page with errors drops its claims.
    let clean = !diags.iter().any(Diagnostic::is_error);
    // Read once: examined against the site, then asked which of two
    // claims with one id was reviewed.
    match crate::review::lock::read(root) {
        Ok(lock) => {
            let (status, review) = crate::review::examine_lock(&site, lock.as_ref(), plan.mode);
            site.review = status;
            diags.extend(review.into_iter().filter(|d| clean || d.code != "W084"));
            fold_moved_quotes(&site, &mut diags);
            reviewed_originals(root, &site, lock.as_ref(), &mut diags);
        }
        Err(Error::Content(d)) => diags.extend(d),
        Err(e) => return Err(e),
    }
    sort(&mut diags);
    crate::cost::lap("load/lock", t);
    Ok((site, diags))
}

/// A duplicate id is reported on the claim that came second in page
/// order, which is not always the one just written. When `kansoku.lock`
/// reviewed the id on one of the pages, that claim is the original: the
/// finding moves to the other, which is the one to rename. Without a
/// lock that says, the page whose file was changed last (seconds after
/// the other) is taken as the one just written.
fn reviewed_originals(
    root: &Path,
    site: &Site,
    lock: Option<&crate::review::Lock>,
    diags: &mut [Diagnostic],
) {
    if !diags.iter().any(|d| d.code == "E016") {
        return;
    }
    let modified = |page: &str| {
        std::fs::metadata(root.join(page))
            .and_then(|m| m.modified())
            .ok()
    };
    let at = |c: crate::validate::ClaimAt| {
        let page = &site.content.pages[c.page];
        page.src.location(page.claims[c.claim].id_span.start)
    };
    for d in diags.iter_mut().filter(|d| d.code == "E016") {
        // The claim this finding is on, and the first one with its id.
        let Some((id, dup)) = site.content.pages.iter().enumerate().find_map(|(pi, p)| {
            p.claims.iter().enumerate().find_map(|(ci, c)| {
                let here = crate::validate::ClaimAt {
                    page: pi,
                    claim: ci,
                };
                (at(here) == d.location).then(|| (c.id.clone(), here))
            })
        }) else {
            continue;
        };
        let Some(&first) = site.index.claims.get(&id) else {
            continue;
        };
        let dup_page = site.content.pages[dup.page].source_path();
        let first_page = site.content.pages[first.page].source_path();
        let why = match lock.and_then(|l| l.claims.get(&id)) {
            Some(locked) if locked.page == dup_page && locked.page != first_page => {
                format!("reviewed at {}, in {}", at(dup), crate::review::LOCK_FILE)
            }
            Some(_) => continue,
            None => match (modified(first_page), modified(dup_page)) {
                // Seconds apart, as edits are: files copied or checked out
                // together say nothing of which came first.
                (Some(f), Some(o)) if f.duration_since(o).is_ok_and(|d| d.as_secs() >= 2) => {
                    format!("also at {}, in a file changed before this one", at(dup))
                }
                _ => continue,
            },
        };
        let (page, claim) = (&site.content.pages[first.page], first.claim);
        *d = page
            .src
            .error(
                "E016",
                page.claims[claim].id_span.clone(),
                format!("duplicate claim id `{id}` ({why})"),
            )
            .with_hint(
                "claim ids are unique on the whole site; rename this one, the one added later",
            );
    }
}

/// A quoted range whose text moved is one mistake: the lock's E082 says
/// where the text went (and `check --fix` follows it); the E014 inside the
/// same link, the quote no longer in the old range, is that same change.
fn fold_moved_quotes(site: &Site, diags: &mut Vec<Diagnostic>) {
    if site.review.moves.is_empty() {
        return;
    }
    let links: Vec<(crate::error::Location, crate::error::Location)> = site
        .review
        .moves
        .iter()
        .filter_map(|m| {
            let page = site
                .content
                .pages
                .iter()
                .find(|p| p.source_path() == m.page)?;
            Some((
                page.src.location(m.span.start),
                page.src.location(m.span.end),
            ))
        })
        .collect();
    diags.retain(|d| {
        d.code != "E014"
            || !links
                .iter()
                .any(|(a, b)| *a <= d.location && d.location <= *b)
    });
}

/// Loads and validates, returning the site whatever was found.
fn load_all(
    root: &Path,
    plan: &plan::Plan<'_>,
    caches: &mut Caches,
) -> Result<(Site, Vec<Diagnostic>)> {
    let t = Instant::now();
    let mut sources = memo::load_sources(root, &plan.overrides, caches)?;
    if !plan.drafts {
        // Left out before validation, so that nothing published refers
        // to them unnoticed; what they define is kept for the hints.
        let content = &mut sources.content;
        let (left_out, kept) = std::mem::take(&mut content.pages)
            .into_iter()
            .partition(|p| p.draft);
        content.pages = kept;
        content.drafts = left_out
            .iter()
            .map(|p: &std::sync::Arc<crate::content::Page>| crate::content::FailedPage::of(p))
            .collect();
        // A draft's evidence is as private as the draft: what only drafts
        // cite is taken out of the index, so no output lists it.
        let evidence = &mut sources.evidence;
        evidence.left_out = drafts_only_evidence(
            cited_by(&content.pages).chain(content.failed.iter().flat_map(|f| &f.cites)),
            content.drafts.iter().flat_map(|d| &d.cites),
            evidence,
        );
        for path in &evidence.left_out {
            evidence.files.remove(path);
        }
    }
    crate::cost::lap("load/read", t);
    let t = Instant::now();
    let (index, vdiags) = memo::validate(&sources, plan.mode, caches);
    let (config, content, evidence) = (sources.config, sources.content, sources.evidence);
    let mut diags = sources.content_diags;
    diags.extend(config.warnings.iter().cloned());
    diags.extend(sources.evidence_diags);
    diags.extend(vdiags);
    sort(&mut diags);
    crate::cost::lap("load/validate", t);
    Ok((
        Site {
            config,
            content,
            evidence,
            index,
            review: crate::validate::ReviewStatus::default(),
        },
        diags,
    ))
}

/// The evidence paths the claims of `pages` cite.
fn cited_by<'a>(
    pages: &'a [std::sync::Arc<crate::content::Page>],
) -> impl Iterator<Item = &'a String> + 'a {
    pages
        .iter()
        .flat_map(|p| &p.claims)
        .flat_map(|c| c.evidence.iter().map(|l| &l.path))
}

/// The evidence files that drafts cite (`by_drafts`) and no published
/// page does (`published`): a build without `--drafts` leaves them out.
/// A capture's two streams go together (its header names the other,
/// and the rendered pages of one name the other): both are published
/// when a published page cites either.
pub(crate) fn drafts_only_evidence<'a>(
    published: impl Iterator<Item = &'a String>,
    by_drafts: impl Iterator<Item = &'a String>,
    evidence: &crate::evidence::EvidenceIndex,
) -> std::collections::BTreeSet<String> {
    use std::collections::{BTreeMap, BTreeSet};
    let mut candidates: Vec<&str> = by_drafts
        .map(String::as_str)
        .filter(|p| evidence.files.contains_key(*p))
        .collect();
    if candidates.is_empty() {
        return BTreeSet::new();
    }
    candidates.sort_unstable();
    candidates.dedup();
    // Each capture stream with the other one its header names, both ways.
    let mut pairs: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (path, file) in &evidence.files {
        let other = file
            .header
            .as_ref()
            .and_then(|h| h.provenance.other_stream.as_deref());
        if let Some(other) = other.filter(|o| evidence.files.contains_key(*o)) {
            pairs.entry(path).or_default().push(other);
            pairs.entry(other).or_default().push(path);
        }
    }
    let published: BTreeSet<&str> = published.map(String::as_str).collect();
    let mut out = BTreeSet::new();
    for path in candidates {
        let mut group = vec![path];
        group.extend(pairs.get(path).into_iter().flatten().copied());
        if group.iter().all(|p| !published.contains(p)) {
            out.extend(group.into_iter().map(str::to_owned));
        }
    }
    out
}

/// What a successful build did.
#[derive(Debug, Clone)]
pub struct BuildReport {
    /// Content pages (each rendered once per language and once side by side).
    pub pages: usize,
    /// Drafts left out.
    pub drafts: usize,
    /// Evidence files left out because only drafts cite them.
    pub drafts_evidence: usize,
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
    /// Render units in the site (pages, evidence files, site-wide parts).
    pub units: usize,
    /// Of those, the units rendered in this build, by kind: a cached build
    /// takes the others from the last one.
    pub rendered: UnitCounts,
    /// Each language's search bundle (none with search off): its pages
    /// and shards, and how many shards this build indexed.
    pub search: Vec<(String, crate::search::Shards)>,
    /// The site's `[[check.accept]]` entries, as this build read them:
    /// the warnings they cover are expected.
    pub accept: Vec<crate::config::Acceptance>,
}

impl BuildReport {
    /// The one summary line `kansoku build` prints.
    pub fn summary(&self) -> String {
        self.summary_as("built")
    }

    /// [`summary`](Self::summary) saying `verb` of the build (serve's
    /// rebuilds say `rebuilt`).
    pub(crate) fn summary_as(&self, verb: &str) -> String {
        let claims: Vec<String> = self
            .claims
            .iter()
            .map(|(c, n)| format!("{n} {}", c.name()))
            .collect();
        let drafts = match left_out(self.drafts, self.drafts_evidence) {
            Some(what) => format!(" · {what} left out"),
            None => String::new(),
        };
        format!(
            "{verb} {} pages × 2 languages (+ parallel view){drafts} · claims: {} · {} evidence file{} · {} ms → {}",
            self.pages,
            claims.join(", "),
            self.evidence_files,
            if self.evidence_files == 1 { "" } else { "s" },
            self.elapsed.as_millis(),
            self.out_dir.display()
        )
    }
}

/// `1 draft`, `2 drafts and 1 evidence file`: what a build without
/// `--drafts` leaves out, if anything.
pub(crate) fn left_out(drafts: usize, evidence: usize) -> Option<String> {
    let n = |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    match (drafts, evidence) {
        (0, 0) => None,
        (d, 0) => Some(n(d, "draft", "drafts")),
        (d, e) => Some(format!(
            "{} and {}",
            n(d, "draft", "drafts"),
            n(e, "evidence file", "evidence files")
        )),
    }
}

/// What a build includes beyond the pages themselves, and where it goes.
#[derive(Clone)]
pub struct BuildOptions {
    /// Write the Pagefind search bundles (on for every real build; tests
    /// and benchmarks of other stages may turn it off).
    pub search: bool,
    /// Build into this directory instead of the configured `build-dir`
    /// (`build --out`; relative to the current directory).
    pub out: Option<PathBuf>,
    /// Publish under this URL instead of `site-url` (`build --base-url`).
    pub base_url: Option<String>,
    /// Reuse what the previous build into the same directory rendered,
    /// where its input is unchanged (off: `build --no-cache`, a cold
    /// build).
    pub cache: bool,
    /// Publish drafts too (`build --drafts`); off, pages with
    /// `draft = true` are left out.
    pub drafts: bool,
    /// Told how far the build is (`build`'s progress bar); rendering is
    /// then done in batches so that it can be told.
    pub progress: Option<std::sync::Arc<dyn Fn(Progress) + Send + Sync>>,
    /// Also write the whole record as one HTML file (`build --archive`).
    pub archive: Option<archive::Archive>,
}

/// A build's progress, for [`BuildOptions::progress`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Progress {
    /// Rendering starts: this many units (pages, evidence files, site files).
    Rendering(usize),
    /// This many more units are rendered.
    Rendered(usize),
    /// Search indexing starts.
    Indexing,
    /// The output is being written into place.
    Writing,
}

impl std::fmt::Debug for BuildOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BuildOptions")
            .field("search", &self.search)
            .field("out", &self.out)
            .field("base_url", &self.base_url)
            .field("cache", &self.cache)
            .field("drafts", &self.drafts)
            .field("progress", &self.progress.is_some())
            .field("archive", &self.archive)
            .finish()
    }
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            search: true,
            out: None,
            base_url: None,
            cache: true,
            drafts: false,
            progress: None,
            archive: None,
        }
    }
}

/// Builds the site at `root` into its build directory.
pub fn build(root: &Path) -> Result<BuildReport> {
    build_with(root, BuildOptions::default())
}

/// What [`build_with`] would write, in memory and sorted by path, with the
/// findings of loading the site; the build directory is not touched, and
/// `out`, `cache` and `progress` are not read.
pub fn build_in_memory(
    root: &Path,
    options: &BuildOptions,
) -> Result<(Vec<crate::render::OutputFile>, Vec<Diagnostic>)> {
    run::in_memory(
        root,
        &plan::Plan {
            drafts: options.drafts,
            overrides: plan::Overrides {
                base_url: options.base_url.clone(),
                base_path: None,
                no_search: !options.search,
                preview: false,
            },
            ..plan::Plan::build()
        },
    )
}

/// Builds with explicit options.
pub fn build_with(root: &Path, options: BuildOptions) -> Result<BuildReport> {
    build_with_theme(root, options, &mut memo::ThemeCache::default())
}

/// A parsed theme kept between builds by a caller that builds many times
/// in one process (the integration tests: parsing the theme is about a
/// third of a small site's build). Each build takes it where the theme's
/// files are still those it was parsed from, else parses them, and leaves
/// its own; a clone shares the parsed theme.
#[derive(Default, Clone)]
pub struct KeptTheme(memo::ThemeCache);

impl KeptTheme {
    /// The kept theme, for a run's caches to swap in and out.
    pub(crate) fn cache(&mut self) -> &mut memo::ThemeCache {
        &mut self.0
    }
}

/// [`build_with`] with the parsed theme kept in `theme` between calls.
pub fn build_keeping_theme(
    root: &Path,
    options: BuildOptions,
    theme: &mut KeptTheme,
) -> Result<BuildReport> {
    build_with_theme(root, options, &mut theme.0)
}

/// [`build_with`] taking the parsed theme from `theme` where its files are
/// those it was parsed from, and leaving this build's there: for a caller
/// that builds many times in one process (the tests).
pub(crate) fn build_with_theme(
    root: &Path,
    options: BuildOptions,
    theme: &mut memo::ThemeCache,
) -> Result<BuildReport> {
    let mut caches = Caches::once();
    caches.swap_theme(theme);
    let built = build_in(root, options, &mut caches);
    // The theme goes back to the caller whether the build succeeded or
    // not: a refused build (a finding in the site) parsed it as well.
    caches.swap_theme(theme);
    let (report, site) = built?;
    // Freeing every page, claim and memo entry is a twentieth of a cached
    // build's time at scale, on one thread once the work is done: a caller
    // that exits next (the command line) need not wait for it.
    // Where no thread can be started, the closure and what it owns are
    // dropped here instead.
    let freed = (site, caches);
    let _ = std::thread::Builder::new().spawn(move || drop(freed));
    Ok(report)
}

/// [`build_with_theme`] with its caches: the report, and the loaded site
/// for the caller to free.
fn build_in(
    root: &Path,
    options: BuildOptions,
    caches: &mut Caches,
) -> Result<(BuildReport, Site)> {
    let start = Instant::now();
    if options.cache {
        // Where the build directory is depends on `book.toml`, which the
        // load reads first.
        // A place that is refused below is never built into, so what is
        // read from its records here is never used.
        let (root, out) = (root.to_path_buf(), options.out.clone());
        caches.keep_checks(Box::new(move |config: &Config| {
            let place = match &out {
                Some(dir) => place::out_dir(&root, config, dir),
                None => place::build_dir(&root, config),
            };
            place.map_or_else(
                |_| root.join(output::STATE_DIR).join("unused.checks.json"),
                |p| output::checks_memo_path(&p.state, &p.out),
            )
        }));
    }
    let plan = plan::Plan {
        drafts: options.drafts,
        overrides: plan::Overrides {
            base_url: options.base_url.clone(),
            base_path: None,
            no_search: !options.search,
            preview: false,
        },
        progress: options.progress.as_deref(),
        ..plan::Plan::build()
    };
    let mut place = None;
    let mut archive_at = None;
    // Each file goes to the staging tree as soon as it is rendered, so the
    // output is never all in memory. Nothing reaches the build directory
    // unless everything succeeds: an error drops the staging tree.
    let open = |site: &Site, caches: &mut Caches| -> Result<Staged> {
        let at = match &options.out {
            Some(out) => place::out_dir(root, &site.config, out)?,
            None => place::build_dir(root, &site.config)?,
        };
        // Before anything is rendered or written: a refused archive path
        // changes nothing.
        if let Some(a) = &options.archive {
            archive_at = Some(archive::target(root, &site.config, &at, a)?);
        }
        let staging = output::Staging::begin_at(&at.out, &at.state, site.config.keep.clone())?;
        place::remember_target(&at)?;
        if options.cache {
            caches.read_units(&output::memo_path(&at.state, &at.out));
            caches.search =
                crate::search::Memo::read(&output::search_memo_path(&at.state, &at.out));
        }
        place = Some(at);
        Ok(Staged(staging))
    };
    let (ran, staged) = run::run(root, &plan, caches, open).map_err(|e| {
        if let Some(from) = output::changed_while_read(&e) {
            let shown = from.strip_prefix(root).unwrap_or(from);
            let shown = shown.to_string_lossy().replace('\\', "/");
            return Error::Content(vec![crate::evidence::changed_while_read(
                &shown,
                "the build",
            )]);
        }
        // Planned paths make this rare (a file where another output needs
        // a directory), but it is the same mistake as E042.
        match output::collision(&e) {
            Some(path) => Error::Content(vec![Diagnostic::error(
                "E042",
                crate::error::Location::file("content"),
                format!("two outputs would be written to `{path}`"),
            )
            .with_hint("rename the page or static file that collides with a generated one")]),
            None => e,
        }
    })?;
    let (Some(Staged(staging)), Some(place)) = (staged, place) else {
        unreachable!("a build renders, so its output was opened");
    };
    // The archive is made from the staged tree, before it is put in
    // place: one past its limit stops the build with nothing written.
    let archived = match (&options.archive, &archive_at) {
        (Some(a), Some(at)) => {
            let t = Instant::now();
            let renderer = memo::renderer(root, caches)?;
            let files: Vec<&str> = memo::unit_files(caches).collect();
            let read = |p: &str| staging.read(p);
            let made = archive::make(&ran.site, renderer.i18n(), &files, &read, a, at)?;
            crate::cost::lap("archive", t);
            Some(made)
        }
        _ => None,
    };
    let t = Instant::now();
    if let Some(tell) = &options.progress {
        tell(Progress::Writing);
    }
    // Everything read from the evidence is in the staged tree: published
    // only if no file changed meanwhile (a torn copy, a page of lines that
    // are no longer there).
    let changed = ran.site.evidence.changed_since_read();
    if !changed.is_empty() {
        return Err(Error::Content(changed));
    }
    let committed = staging.commit().map_err(|e| match output::conflicts(&e) {
        Some(found) => Error::Content(conflicting_files(&place.shown, found)),
        None => e,
    })?;
    // Only an optimisation for the next build: one that cannot be saved
    // leaves the next build cold, and this one is done.
    let _ = caches.save_units(&output::memo_path(&place.state, &place.out));
    let _ = caches.save_checks();
    let _ = caches
        .search
        .save(&output::search_memo_path(&place.state, &place.out));
    if let (Some(made), Some(at)) = (archived, &archive_at) {
        made.persist(at)?;
    }
    crate::cost::lap("write", t);
    let run::Ran {
        site,
        diagnostics: mut warnings,
        units,
        rendered,
        search,
        ..
    } = ran;
    warnings.extend(site.config.sitemap_warning());
    warnings.extend(foreign_files(&place.shown, &committed));
    warnings.extend(committed.set_aside.iter().map(|(path, found)| {
        Diagnostic::warning(
            "W043",
            crate::error::Location::file(path.to_string_lossy().replace('\\', "/")),
            format!(
                "kansoku's copy of an earlier build held entries it did not write ({}); it was moved here unused, and nothing of it was published",
                found.join(", ")
            ),
        )
        .with_hint(format!(
            "take what you need from {} and delete it; kansoku never removes it",
            path.display()
        ))
    }));
    warnings.extend(committed.stuck.iter().map(|(path, why)| {
        Diagnostic::warning(
            "W042",
            crate::error::Location::file(path.to_string_lossy().replace('\\', "/")),
            format!("kansoku could not remove this leftover of an earlier build: {why}"),
        )
        .with_hint(format!(
            "make it writable (`chmod -R u+w {p}`, or `chattr -R -i {p}` if it is immutable) or remove it; every build tries again",
            p = path.display()
        ))
    }));
    let report = BuildReport {
        pages: site.content.pages.len(),
        drafts: site.content.drafts.len(),
        drafts_evidence: site.evidence.left_out.len(),
        claims: site.content.claims_per_class(),
        evidence_files: site.evidence.files.len(),
        files_written: committed.files,
        out_dir: place.shown,
        warnings,
        elapsed: start.elapsed(),
        units,
        rendered,
        search,
        accept: site.config.accept.clone(),
    };
    Ok((report, site))
}

/// The staging tree as a run's output.
struct Staged(output::Staging);

impl plan::Output for Staged {
    fn write(&self, file: crate::render::OutputFile, _: u64) -> Result<()> {
        self.0.write(&file.path, &file.bytes)
    }

    /// A remembered unit's files are taken from the previous build only
    /// if every one of them is still the file the manifest recorded.
    fn reuse(&self, files: &[(String, u64)]) -> Result<bool> {
        if !files.iter().all(|(p, h)| self.0.reusable(p, *h)) {
            return Ok(false);
        }
        for (path, hash) in files {
            if !self.0.reuse(path, *hash)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    fn read(&self, path: &str) -> Result<Vec<u8>> {
        self.0.read(path)
    }

    fn copy(&self, path: &str, from: &std::path::Path, size: u64, hash: u64) -> Result<()> {
        self.0.copy(path, from, size, hash)
    }
}
