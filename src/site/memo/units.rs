//! Rendering units through the memo: each unit whose input is unchanged
//! keeps its files from the last run; the others are rendered, and what
//! serve's tree and a build learn from that (the files, those gone).

use super::*;
use crate::render::input::{Cells, Sources, UnitInput};

/// What [`render`] renders from.
pub(crate) struct Job<'a> {
    pub(crate) site: &'a Site,
    pub(crate) renderer: &'a Renderer,
    pub(crate) prepared: &'a RenderState,
    /// The hash of what every unit reads (`render::input::SiteInput`).
    pub(crate) site_input: u64,
    /// The hash of what the site-wide files read besides
    /// (`render::input::ClaimsInput`).
    pub(crate) claims_input: u64,
    /// Every claim's views, hashed.
    pub(crate) views: &'a ClaimViews,
}

/// What [`render`] did.
#[derive(Debug, Default)]
pub(crate) struct Rendered {
    /// Units rendered, by kind (the others were remembered).
    pub(crate) rendered: crate::site::plan::UnitCounts,
}

/// Renders the units of `units` whose input changed since `caches` saw
/// them, writing each new file to `out` (from any thread) with the hash
/// of its bytes. A unit's input is a value (`render::input::UnitInput`)
/// and its memo key that value's hash: a remembered unit whose input
/// hashes the same is offered to `out` first, which takes its files as
/// they are where it already has them, or declines (then it is rendered).
/// The first error in unit order is the one returned. The memo is updated
/// only on success, so it never names files `out` was not given.
pub(crate) fn render(
    job: &Job<'_>,
    units: &[Unit<'_>],
    caches: &mut Caches,
    out: &dyn crate::site::plan::Output,
) -> Result<Rendered> {
    use rayon::prelude::*;
    let Job {
        site,
        renderer,
        prepared,
        ..
    } = job;
    let memo = &caches.units;
    let pages = &caches.pages;
    let source = |rel: &str| pages.get(rel).map(|m| m.bytes);
    let names = |rel: &str| pages.get(rel).map(|m| m.names.as_slice());
    let cells = Cells::new(site);
    let from = Sources {
        site: job.site_input,
        claims: job.claims_input,
        views: job.views,
        source: &source,
        names: &names,
        cells: &cells,
    };
    /// A unit's outcome: remembered (its memo entry stands), or rendered,
    /// with its key, the hash of its input, its files and what it read.
    enum Done {
        Remembered,
        Rendered(String, UnitMemo),
    }
    let results: Vec<Result<Done>> = units
        .par_iter()
        .map(|&unit| {
            let key = unit_key(site, unit);
            let old = memo.get(&key);
            let read = old.map_or(&[][..], |m| m.read.as_slice());
            let input = UnitInput::of(site, &from, unit, read);
            if let Some(m) = old.filter(|m| m.input == input.key()) {
                if out.reuse(&m.files)? {
                    // Its files stay where they are listed: the memo.
                    return Ok(Done::Remembered);
                }
            }
            let made = renderer
                .render_input(site, prepared, &input)
                .map_err(|d| Error::Content(vec![d]))?;
            let mut files = Vec::new();
            for f in made.files {
                let h = crate::hash::content_hash(&f.bytes);
                files.push((f.path.clone(), h));
                crate::cost::timed(crate::cost::Kind::Write, || out.write(f, h))?;
            }
            if let Unit::Evidence(path) = unit {
                if let Some(file) = site.evidence.files.get(path).filter(|f| f.is_streamed()) {
                    // A large log's raw copy, in pieces (its page is made
                    // from the lines it shows).
                    let from = &file.disk_path;
                    let io = |e| Error::io(from, e);
                    let size = std::fs::metadata(from).map_err(io)?.len();
                    let hash = file.file_hash();
                    let raw = crate::render::raw_evidence_path(path);
                    out.copy(&raw, from, size, hash)?;
                    files.push((raw, hash));
                }
            }
            // What the llms files read is known now: their input is made
            // again over it.
            let input = if made.read.as_slice() == read {
                input.key()
            } else {
                UnitInput::of(site, &from, unit, &made.read).key()
            };
            Ok(Done::Rendered(
                key,
                UnitMemo {
                    input,
                    files,
                    read: made.read,
                },
            ))
        })
        .collect();
    let results: Vec<Done> = results.into_iter().collect::<Result<_>>()?;
    let mut out = Rendered::default();
    for (done, &unit) in results.into_iter().zip(units) {
        caches.keyed += 1;
        let Done::Rendered(key, new) = done else {
            continue;
        };
        out.rendered.add(unit);
        caches
            .gone
            .made
            .extend(new.files.iter().map(|(p, _)| p.clone()));
        if let Some(old) = caches.units.get(&key) {
            let now: std::collections::HashSet<&str> =
                new.files.iter().map(|(p, _)| p.as_str()).collect();
            caches.gone.dropped.extend(
                old.files
                    .iter()
                    .filter(|(p, _)| !now.contains(p.as_str()))
                    .map(|(p, _)| p.clone()),
            );
        }
        caches.units.insert(key, new);
    }
    Ok(out)
}

/// Every file of the units in the memo (after [`retain_units`]: of every
/// unit of the last render that has a key), by path.
pub(crate) fn unit_files(caches: &Caches) -> impl Iterator<Item = &str> {
    caches
        .units
        .values()
        .flat_map(|m| m.files.iter().map(|(p, _)| p.as_str()))
}

/// Forgets, in a run that is not repeated, the render state: at scale it
/// is large, and the search stage comes next.
pub(crate) fn drop_render_state(caches: &mut Caches) {
    if caches.once {
        caches.prepared = None;
    }
}

/// [`unit_files`] with the hash of each file's bytes.
pub(crate) fn unit_files_hashed(caches: &Caches) -> impl Iterator<Item = (&str, u64)> {
    caches
        .units
        .values()
        .flat_map(|m| m.files.iter().map(|(p, h)| (p.as_str(), *h)))
}

/// Forgets the units `units` does not name (pages and evidence files that
/// are gone), after a whole site was rendered.
pub(crate) fn retain_units(site: &Site, units: &[Unit<'_>], caches: &mut Caches) {
    // Each unit has a key of its own, so a table holding only the keys
    // this run set holds no unit that is gone.
    if caches.units.len() == caches.keyed {
        return;
    }
    let dropped = &mut caches.gone.dropped;
    let keys: std::collections::HashSet<String> =
        units.iter().map(|&u| unit_key(site, u)).collect();
    caches.units.retain(|k, m| {
        let keep = keys.contains(k);
        if !keep {
            dropped.extend(m.files.iter().map(|(p, _)| p.clone()));
        }
        keep
    });
}

/// The files the last run's units made and this run's do not, after a
/// render of the whole site and [`retain_units`]; `None` when that is not
/// known (the unit table was cleared since, [`forget_units`]): then the
/// caller compares every file it has with [`unit_files`]. Asking marks
/// the table as known again.
pub(crate) fn gone_files(caches: &mut Caches) -> Option<Vec<String>> {
    let gone = &mut caches.gone;
    if std::mem::take(&mut gone.unknown) {
        return None;
    }
    let mut files: Vec<String> = gone
        .dropped
        .drain(..)
        .filter(|p| !gone.made.contains(p))
        .collect();
    files.sort_unstable();
    files.dedup();
    Some(files)
}

/// Forgets every rendered unit: the next run renders them all (the sink
/// lost files the memo says it has).
pub(crate) fn forget_units(caches: &mut Caches) {
    caches.units.clear();
    caches.gone.unknown = true;
}
