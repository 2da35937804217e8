//! Where the render and search stages' time goes, by what is made and by
//! step: with `KANSOKU_TIMINGS` set, the `timing: render/…` lines after
//! the render stage and `timing: search/…` after the search stage. Thread
//! time, summed over the threads (rendering runs on rayon's, search on
//! two of its own), so a stage's lines add up to more than its wall time.
//! Off, each measured call costs one relaxed load.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::Instant;

/// What a measured call makes.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Kind {
    /// A content page in `ja/`.
    Ja,
    /// A content page in `en/`.
    En,
    /// A content page in the parallel tree (`ja-en/`).
    Parallel,
    /// A content page's Markdown twins (both languages).
    Twin,
    /// A section's pages, in every tree, with their listing pages and twins.
    Section,
    /// An evidence file's pages and twins, and its raw copy.
    Evidence,
    /// The outputs about the whole site.
    Site,
    /// Handing the files to the output (the staging tree: the disk).
    Write,
    /// Search: reading a rendered page back and reducing it
    /// (`search::searchable`).
    Read,
    /// Search: Pagefind reading a page (`add_html_file`: parsing, word
    /// splitting, Japanese segmentation, stemming).
    Parse,
    /// Search: Pagefind making a shard's files (`get_files`: the word
    /// index, the fragments, their compression).
    Bundle,
}

const KINDS: usize = 11;
const NAMES: [&str; KINDS] = [
    "render/ja",
    "render/en",
    "render/ja-en",
    "render/twins",
    "render/sections",
    "render/evidence",
    "render/site",
    "render/write",
    "search/read",
    "search/parse",
    "search/bundle",
];

static NANOS: [AtomicU64; KINDS] = [const { AtomicU64::new(0) }; KINDS];
static CALLS: [AtomicU64; KINDS] = [const { AtomicU64::new(0) }; KINDS];

fn on() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("KANSOKU_TIMINGS").is_some())
}

/// Runs `f`, counting its time as `kind`'s when timings are on.
pub(crate) fn timed<T>(kind: Kind, f: impl FnOnce() -> T) -> T {
    if !on() {
        return f();
    }
    let start = Instant::now();
    let out = f();
    add(kind, start);
    out
}

/// A measurement across an `.await`, where [`timed`]'s closure cannot
/// reach: started, then stopped.
pub(crate) struct Measure(Kind, Option<Instant>);

impl Measure {
    pub(crate) fn start(kind: Kind) -> Measure {
        Measure(kind, on().then(Instant::now))
    }

    pub(crate) fn stop(self) {
        if let Some(start) = self.1 {
            add(self.0, start);
        }
    }
}

fn add(kind: Kind, start: Instant) {
    let nanos = u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX);
    NANOS[kind as usize].fetch_add(nanos, Ordering::Relaxed);
    CALLS[kind as usize].fetch_add(1, Ordering::Relaxed);
}

/// Prints what was counted for `stage` (`"render"`, `"search"`) since its
/// last report, and starts again.
pub(crate) fn report(stage: &str) {
    if !on() {
        return;
    }
    for (k, name) in NAMES.iter().enumerate() {
        if name.split('/').next() != Some(stage) {
            continue;
        }
        let nanos = NANOS[k].swap(0, Ordering::Relaxed);
        let calls = CALLS[k].swap(0, Ordering::Relaxed);
        if let Some(each) = (nanos / 1_000).checked_div(calls) {
            eprintln!(
                "timing: {name:<15} {:>6} ms thread time, {calls} calls, {each} µs each",
                nanos / 1_000_000
            );
        }
    }
}

/// With KANSOKU_TIMINGS set, prints how long a stage took.
pub(crate) fn lap(what: &str, since: Instant) {
    if std::env::var_os("KANSOKU_TIMINGS").is_some() {
        eprintln!("timing: {what:<14} {:>6} ms", since.elapsed().as_millis());
    }
}
