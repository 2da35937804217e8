//! The pipeline, once: [`run`] sequences the stages for every caller.
//!
//! `build`, `serve`, `check`, `claims`, `review` and the tests' oracle
//! differ only in a [`Plan`] (what to stop after, which overrides) and in
//! where rendered files go (an [`Output`]: the staging tree, serve's tree,
//! memory, or nothing). The stages, in order:
//!
//! 1. load: `book.toml` (with the plan's overrides applied before anything
//!    is hashed), the pages and the evidence ([`super::memo::load_sources`]);
//! 2. validate, then compare with the review lock;
//! 3. the theme, and the output paths two sources would share (E042);
//! 4. render every unit whose input changed into the output;
//! 5. index the rendered pages for search, into the same output.
//!
//! Each stage's result is remembered in [`Caches`] by a hash of its input,
//! so a caller that keeps its caches (serve) or saves them (build) repeats
//! only what changed.

use super::memo::{self, Caches};
use super::plan::{Errors, Memory, Output, Plan, UnitCounts, Until};
use crate::config::Config;
use crate::cost::lap;
use crate::error::{Diagnostic, Error, Result};
use crate::render::input::{ClaimsInput, SiteInput};
use crate::render::{OutputFile, Unit};
use crate::validate::Site;
use std::path::Path;
use std::time::Instant;

/// What a run gives back.
pub(crate) struct Ran {
    /// The site as loaded and validated.
    pub(crate) site: Site,
    /// Its findings: warnings, and errors too under [`Errors::Report`].
    pub(crate) diagnostics: Vec<Diagnostic>,
    /// Units in the site (0 if nothing was rendered).
    pub(crate) units: usize,
    /// Units rendered in this run, by kind (the others were remembered).
    pub(crate) rendered: UnitCounts,
    /// Each language's search bundle, when this run indexed search.
    pub(crate) search: Vec<(String, crate::search::Shards)>,
}

/// Runs the pipeline on the site at `root` as `plan` says, remembering in
/// and taking from `caches`. `open` makes the output once the site is
/// loaded (where files go may depend on `book.toml`); it is not called
/// for a run that renders nothing. Returns the run and its output.
pub(crate) fn run<O: Output>(
    root: &Path,
    plan: &Plan<'_>,
    caches: &mut Caches,
    open: impl FnOnce(&Site, &mut Caches) -> Result<O>,
) -> Result<(Ran, Option<O>)> {
    let t = Instant::now();
    let (site, mut diagnostics) = super::load_site(root, plan, caches)?;
    lap("load", t);
    let failed = diagnostics.iter().any(Diagnostic::is_error);
    if failed && plan.errors == Errors::Stop {
        return Err(Error::Content(diagnostics));
    }
    let ran = |site, diagnostics| Ran {
        site,
        diagnostics,
        units: 0,
        rendered: UnitCounts::default(),
        search: Vec::new(),
    };
    if plan.until == Until::Validated {
        return Ok((ran(site, diagnostics), None));
    }
    // The theme is part of the site: a broken template or Fluent file is
    // a finding of `check` too. Output paths are known without rendering,
    // so two sources claiming one (E042) are found here.
    let t = Instant::now();
    let renderer = match memo::renderer(root, caches) {
        Ok(r) => Some(r),
        Err(Error::Content(theme)) if plan.errors == Errors::Report => {
            diagnostics.extend(theme);
            None
        }
        Err(e) => return Err(e),
    };
    lap("theme", t);
    // What every unit reads (`render::input`), hashed once: the key of the
    // output paths here and, above the claims input, of every unit.
    let site_input = renderer
        .as_ref()
        .map(|_| SiteInput::new(&site, memo::theme_key(caches)).key());
    if let (Some(renderer), Some(input)) = (&renderer, site_input) {
        if !failed && plan.only.is_none() {
            let collisions = memo::collisions(&site, renderer, caches, input);
            if plan.errors == Errors::Stop && !collisions.is_empty() {
                return Err(Error::Content(collisions));
            }
            diagnostics.extend(collisions);
        }
    }
    if plan.until == Until::Checked {
        // Where a build would write is checked too, as a build checks it
        // before writing anything.
        diagnostics.extend(refused_build_dir(root, &site.config));
    }
    let (renderer, site_input) = match (renderer, site_input) {
        (Some(r), Some(k)) if plan.until == Until::Rendered && plan.errors == Errors::Stop => {
            (r, k)
        }
        _ => {
            crate::validate::sort(&mut diagnostics);
            return Ok((ran(site, diagnostics), None));
        }
    };
    let t = Instant::now();
    // What the site-wide files read besides, hashed once and standing for
    // itself by that hash in their inputs.
    let claims_input = ClaimsInput::new(&site, site_input).key();
    let (prepared, views) =
        memo::prepare(&site, &renderer, caches, claims_input).map_err(Error::Content)?;
    lap("prepare", t);
    let out = open(&site, caches)?;
    let t = Instant::now();
    let units = match plan.only {
        Some(part) => vec![Unit::Site(part)],
        None => renderer.units(&site),
    };
    let job = memo::Job {
        site: &site,
        renderer: &renderer,
        prepared: &prepared,
        site_input,
        claims_input,
        views: &views,
    };
    let mut done = memo::Rendered::default();
    match plan.progress {
        None => done = memo::render(&job, &units, caches, &out)?,
        // In batches, to tell the progress between them; still in unit
        // order, so the first error reported is the same.
        Some(tell) => {
            tell(super::Progress::Rendering(units.len()));
            for batch in units.chunks(256) {
                let more = memo::render(&job, batch, caches, &out)?;
                done.rendered.pages += more.rendered.pages;
                done.rendered.evidence += more.rendered.evidence;
                done.rendered.site += more.rendered.site;
                tell(super::Progress::Rendered(batch.len()));
            }
        }
    }
    drop((prepared, views));
    memo::drop_render_state(caches);
    if plan.only.is_none() {
        memo::retain_units(&site, &units, caches);
    }
    lap("render", t);
    crate::cost::report("render");
    if std::env::var_os("KANSOKU_TIMINGS").is_some() {
        eprintln!(
            "timing: {} of {} units rendered, the rest taken from the last build",
            done.rendered.total(),
            units.len()
        );
    }
    let units = units.len();
    let mut search = Vec::new();
    if plan.search && site.config.search && plan.only.is_none() {
        // Search reads the rendered pages, so it runs after render.
        let t = Instant::now();
        if let Some(tell) = plan.progress {
            tell(super::Progress::Indexing);
        }
        // Every page of this run: the memo lists every unit's files.
        let pages = memo::unit_files_hashed(caches)
            .filter(|(p, _)| crate::search::indexed(p))
            .map(|(p, h)| (p.to_owned(), h))
            .collect();
        let job = crate::search::Job::new(&site, pages);
        let read = |path: &str| out.read(path).map(Some);
        let take = |files: &[(String, u64)]| out.reuse(files);
        let indexed = job.run(&mut caches.search, &read, &take)?;
        for f in indexed.files {
            let hash = crate::hash::content_hash(&f.bytes);
            out.write(f, hash)?;
        }
        search = indexed.languages;
        lap("search", t);
        crate::cost::report("search");
    }
    Ok((
        Ran {
            site,
            diagnostics,
            units,
            rendered: done.rendered,
            search,
        },
        Some(out),
    ))
}

/// E045 when a build would refuse the configured build directory (it is,
/// holds or lies inside the site's sources): `check` reports what `build`
/// would stop on.
fn refused_build_dir(root: &Path, config: &Config) -> Option<Diagnostic> {
    // A directory that cannot be resolved is the build's to report.
    let refusal = super::place::build_dir_refusal(root, config).ok()??;
    Some(
        Diagnostic::error(
            "E045",
            crate::error::Location::file(crate::config::CONFIG_FILE),
            refusal.message,
        )
        .with_hint(refusal.hint),
    )
}

/// A cold run of the whole pipeline into memory, as `plan` says: the site's
/// files sorted by path, with its findings. The tests' oracle, and what
/// [`super::build_in_memory`] gives.
pub(crate) fn in_memory(
    root: &Path,
    plan: &Plan<'_>,
) -> Result<(Vec<OutputFile>, Vec<Diagnostic>)> {
    in_memory_with(root, plan, &mut memo::ThemeCache::default())
}

/// [`in_memory`] with the parsed theme taken from `theme` where its files
/// are those it was parsed from, and left there: the caller owns it (the
/// tests' oracle, which runs cold many times in one process). Nothing else
/// is remembered, so the run stays independent of any memo under test.
pub(crate) fn in_memory_with(
    root: &Path,
    plan: &Plan<'_>,
    theme: &mut memo::ThemeCache,
) -> Result<(Vec<OutputFile>, Vec<Diagnostic>)> {
    let caches = &mut Caches::once();
    caches.swap_theme(theme);
    let ran = run(root, plan, caches, |_, _| Ok(Memory::default()));
    caches.swap_theme(theme);
    let (ran, out) = ran?;
    Ok((
        out.map(Memory::into_files).unwrap_or_default(),
        ran.diagnostics,
    ))
}
