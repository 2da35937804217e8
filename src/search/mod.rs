//! Search stage: the rendered pages to one Pagefind bundle per language, in
//! memory.
//!
//! Runs after `render` ([`Job`], made by `site::run`, which runs it inline
//! for a build; serve runs the same job on its indexing thread): it reads
//! the rendered HTML of the `ja/` and `en/` trees through the caller's
//! output and the validated claims' classes, and returns the files of
//! `ja/pagefind/` and `en/pagefind/`. It writes nothing and knows nothing
//! about serving.
//!
//! - Each language tree is indexed on its own thread into its own bundle
//!   (`<base><lang>/pagefind/`), so a reader searches the language of the page
//!   they are on, and the two indexes are built in parallel. Japanese is
//!   segmented by the `extended` feature (icu_segmenter).
//! - Content and evidence pages go in (Pagefind keeps those with
//!   `data-pagefind-body`); the parallel view, the chooser and 404 do not:
//!   they mix languages and would only duplicate results.
//! - Pagefind gets each page reduced to what it reads (`searchable_part`,
//!   then `compact`): its cost grows with the elements it parses and the
//!   anchors it keeps, and a page's markup (badges, tooltips, one anchor per
//!   log line) is several times its text.
//! - Claims are found through their page: each claim's list item carries its
//!   anchor (`claim-<id>`), its text and its id, so Pagefind's anchors and
//!   match positions tell the search box which claims matched. The box shows
//!   their class badges from `kansoku-claims.json` (id → class), written
//!   beside each bundle. One record per claim would cost as much again as
//!   the pages themselves (measured: +50 % on a 1,000-page site).

//!
//! The stage in files: `select` (which pages, and which part of each),
//! `reduce` (that part cut down to what Pagefind reads), `memo` (which
//! shards must be indexed again, and which keep their files), `pagefind`
//! (a shard's bundle files) and `profile` (`KANSOKU_TIMINGS`).

mod memo;
mod pagefind;
mod profile;
mod reduce;
mod select;

pub use memo::{Indexed, Load, Memo, Reuse, Shards};
pub(crate) use reduce::compact;
pub(crate) use select::{indexed, searchable_part};

use crate::error::Result;
use crate::render::{paths, OutputFile};
use crate::validate::Site;
use profile::{proc_status_kb, process_cpu_ms};
use std::collections::BTreeMap;

/// The claim classes file written beside each bundle.
pub(crate) const CLAIMS_FILE: &str = "kansoku-claims.json";

/// The list of further shards written beside each bundle, for the search
/// box to merge (`pagefind.mergeIndex`): `["shard-1/", …]`, relative to
/// the bundle.
pub(crate) const SHARDS_FILE: &str = "kansoku-shards.json";

/// Pages per Pagefind index. Pagefind holds every word position and
/// fragment of an index until it is written, and its cost per page grows
/// with the pages already added, so a large site is indexed in shards of
/// this many pages, one after the other, each written and dropped before
/// the next; the search box merges them and ranks their results together.
/// See benches/README.md for the figures behind the size.
pub const SHARD_PAGES: usize = 500;

/// The languages indexed, each from its own tree.
const LANGS: [&str; 2] = ["ja", "en"];

/// `{"<id>": "<class>", …}` for every claim of the site, sorted by id.
pub(crate) fn claim_classes(site: &Site) -> String {
    let map: BTreeMap<&str, &str> = site
        .content
        .pages
        .iter()
        .flat_map(|p| &p.claims)
        .map(|c| (c.id.as_str(), c.class.name()))
        .collect();
    serde_json::to_string(&map).expect("a map of strings serializes")
}

/// What the index reads of a rendered file: for a page of the `ja/` or
/// `en/` tree, the page reduced by [`searchable_part`] and [`compact`];
/// `None` for anything not indexed. A build keeps only these while it
/// writes the pages themselves.
pub(crate) fn searchable(file: &OutputFile) -> Option<OutputFile> {
    let indexed = paths::lang_tree(&file.path).is_some() && paths::page_of(&file.path).is_some();
    indexed.then(|| OutputFile {
        path: file.path.clone(),
        bytes: compact(&searchable_part(&String::from_utf8_lossy(&file.bytes))).into_bytes(),
    })
}

/// One run of the search stage: the pages of a rendered site to index,
/// and what the index needs of the site. Made by the pipeline after
/// rendering (`site::run`), and by the dev server for its indexing thread,
/// which no longer holds the site when the job runs.
#[derive(Debug)]
pub(crate) struct Job {
    base: String,
    classes: String,
    /// Output paths of the pages to index, sorted, with their content
    /// hashes.
    pages: Vec<(String, u64)>,
}

/// Gives the bytes of a rendered page by its output path; `Ok(None)`: it
/// is gone (the page was removed since the job was made).
pub(crate) type Read<'a> = dyn Fn(&str) -> Result<Option<Vec<u8>>> + Sync + 'a;

/// Takes an unchanged shard's files from the last run, all or none.
pub(crate) type Take<'a> = dyn Fn(&[(String, u64)]) -> Result<bool> + Sync + 'a;

impl Job {
    /// A job for `site`'s rendered pages `pages` (output paths of the
    /// indexed ones, with the hashes of their bytes).
    pub(crate) fn new(site: &Site, mut pages: Vec<(String, u64)>) -> Job {
        pages.sort_unstable();
        Job {
            base: site.config.base_path.clone(),
            classes: claim_classes(site),
            pages,
        }
    }

    /// Indexes the pages, each read by `read` and reduced by
    /// [`searchable`]; a shard whose pages are unchanged since `memo` was
    /// made is offered to `take` first. `memo` becomes this run's. The
    /// first error of `read` or `take` is the one returned.
    pub(crate) fn run(&self, memo: &mut Memo, read: &Read<'_>, take: &Take<'_>) -> Result<Indexed> {
        let error = std::sync::Mutex::new(None);
        let fail = |e| {
            crate::sync::lock(&error).get_or_insert(e);
        };
        let load = |path: &str| -> Option<Vec<u8>> {
            match read(path) {
                Ok(bytes) => searchable(&OutputFile {
                    path: path.to_owned(),
                    bytes: bytes?,
                })
                .map(|f| f.bytes),
                Err(e) => {
                    fail(e);
                    None
                }
            }
        };
        let reuse = |files: &[(String, u64)]| -> bool {
            take(files).unwrap_or_else(|e| {
                fail(e);
                false
            })
        };
        let indexed = index_memoised(&self.base, &self.classes, &self.pages, memo, &load, &reuse)?;
        match error
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
        {
            Some(e) => Err(e),
            None => Ok(indexed),
        }
    }
}

/// The search stage, memoised across runs (see [`memo`]): `pages` are the
/// output paths of the pages to index with their content hashes, `load`
/// gives a page reduced by [`searchable`], `reuse` takes an unchanged
/// shard's files from the last run. Prints the stage's CPU time and memory
/// with `KANSOKU_TIMINGS`.
pub(crate) fn index_memoised(
    base: &str,
    classes: &str,
    pages: &[(String, u64)],
    memo: &mut Memo,
    load: &Load<'_>,
    reuse: &Reuse<'_>,
) -> Result<Indexed> {
    crate::memory::release_freed_memory();
    let cpu_before = process_cpu_ms();
    let rss_before = proc_status_kb("VmRSS");
    let indexed = memo::index(base, classes, pages, memo, load, reuse)?;
    if let (Some(before), Some(after), Some(_)) = (
        cpu_before,
        process_cpu_ms(),
        std::env::var_os("KANSOKU_TIMINGS"),
    ) {
        eprintln!(
            "timing: search cpu {:>5} ms (user+sys, all threads)",
            after - before
        );
        // The stage keeps every page's words until the bundles are built, so
        // its peak is the process's high-water mark, if it is the highest.
        if let (Some(rss), Some(peak)) = (rss_before, proc_status_kb("VmHWM")) {
            eprintln!(
                "timing: search rss {} MB before, process peak {} MB",
                rss / 1024,
                peak / 1024
            );
        }
    }
    Ok(indexed)
}
