//! Markdown rendering of one chunk (`render::markdown::render`) and code
//! highlighting (`render::highlight::Highlighter`), fresh and warm.
//!
//! `cargo bench --bench markdown`. The chunks come from one generated page
//! (the corpus' first non-index page). The claim HTML callback is a
//! stand-in: the real one (in the private `render::pages`) formats the
//! claim with its class badge; this one returns a fixed span, so the
//! figures are Markdown + kansoku's event rewriting, not claim formatting.

// `criterion_group!` defines an undocumented `pub fn`.
#![allow(missing_docs)]

mod common;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use kansoku::content::{load_content, Chunk, Page, Segment};
use kansoku::render::diagram::Diagrams;
use kansoku::render::highlight::Highlighter;
use kansoku::render::markdown::{render, IdSet, MdContext};
use std::collections::BTreeMap;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// The corpus' code block (identical on every generated page).
const SH: &str = "OLLAMA_DEBUG=1 ollama run llama3:8b --verbose\ncat /proc/$(pgrep -f runner)/maps | grep rocm\nexport LD_LIBRARY_PATH=/usr/local/lib/ollama/rocm\n";

/// Forty lines shaped like the corpus' evidence logs.
fn log_block() -> String {
    (1..=40)
        .map(|i| {
            format!(
                "2026-03-{:02}T10:{:02}:{:02} INFO runner[7] step {i}: map 0x{:012x} /usr/local/lib/ollama/rocm/libhipblas.so marker-7-{i}\n",
                1 + i % 28,
                i % 60,
                (i * 7) % 60,
                i * 0x1f3d
            )
        })
        .collect()
}

fn sample_page() -> (Page, BTreeMap<String, String>) {
    let root = common::corpus(common::corpus_pages());
    let (content, _) = load_content(&root).expect("corpus loads");
    let urls = content
        .pages
        .iter()
        .map(|p| (p.rel.clone(), format!("/en/{}", p.url_path)))
        .collect();
    let page = content
        .pages
        .into_iter()
        .find(|p| !p.is_section_index() && !p.claims.is_empty())
        .expect("corpus has content pages");
    (std::sync::Arc::unwrap_or_clone(page), urls)
}

fn bench_markdown(c: &mut Criterion) {
    let (page, urls) = sample_page();
    let highlighter = Highlighter::default();
    let diagrams = Diagrams::default();
    let claim_html = |id: &str| {
        Some(format!(
            "<span class=\"claim claim-confirmed\" id=\"claim-{id}\">stand-in</span>"
        ))
    };
    let cx = MdContext {
        page_rel: &page.rel,
        tree_prefix: "/en/",
        urls: &urls,
        claim_html: &claim_html,
        highlighter: &highlighter,
        diagrams: &diagrams,
        view_html: None,
        named_view: &|_: &str| None,
        id_prefix: "",
        lang: Some(kansoku::lang::Lang::En),
    };
    let pair = page
        .segments
        .iter()
        .find_map(|s| match s {
            Segment::Pair { ja, en } => Some((ja.clone(), en.clone())),
            _ => None,
        })
        .expect("generated pages have ja/en pairs");
    let table = page
        .segments
        .iter()
        .find_map(|s| match s {
            Segment::Shared(c) if c.text.contains("```") => Some(c.clone()),
            _ => None,
        })
        .expect("generated pages have a shared table + code chunk");
    let en_chunks: Vec<&Chunk> = page
        .segments
        .iter()
        .map(|s| match s {
            Segment::Shared(c) => c,
            Segment::Pair { en, .. } => en,
            Segment::Untranslated { chunk, .. } => chunk,
        })
        .collect();
    let page_bytes: usize = en_chunks.iter().map(|c| c.text.len()).sum();

    let mut g = c.benchmark_group("markdown");
    for (name, chunk) in [
        ("pair_ja", &pair.0),
        ("pair_en", &pair.1),
        ("table_code", &table),
    ] {
        g.throughput(Throughput::Bytes(chunk.text.len() as u64));
        g.bench_function(name, |b| {
            b.iter(|| {
                let mut ids = IdSet::new();
                black_box(render(black_box(chunk), &cx, &mut ids))
            })
        });
    }
    g.throughput(Throughput::Bytes(page_bytes as u64));
    g.bench_function("page_en_all_chunks", |b| {
        b.iter(|| {
            let mut ids = IdSet::new();
            for chunk in &en_chunks {
                black_box(render(chunk, &cx, &mut ids));
            }
        })
    });
    g.finish();
}

fn warm_uncached(token: &str, code: &str, iters: u64) -> Duration {
    let mut total = Duration::ZERO;
    let mut done = 0;
    while done < iters {
        let h = Highlighter::default();
        h.highlight(token, code);
        let batch = (iters - done).min(2000);
        let inputs: Vec<String> = (0..batch).map(|k| format!("{code}echo {k}\n")).collect();
        let start = Instant::now();
        for input in &inputs {
            black_box(h.highlight(token, input));
        }
        total += start.elapsed();
        done += batch;
    }
    total
}

fn bench_highlight(c: &mut Criterion) {
    let log = log_block();
    let mut g = c.benchmark_group("highlight");
    // Fresh: a new Highlighter per call, so the syntax set is deserialised
    // (sh) or the embedded grammar compiled (log) every time.
    g.bench_function("sh_fresh", |b| {
        b.iter(|| black_box(Highlighter::default().highlight("sh", black_box(SH))))
    });
    g.bench_function("log_fresh", |b| {
        b.iter(|| black_box(Highlighter::default().highlight("log", black_box(&log))))
    });
    // Warm, uncached: syntaxes loaded, but each call highlights new text
    // (a distinct trailing line), which is the real per-block cost. The
    // highlighter caches every block, so a fresh, pre-warmed one is swapped
    // in (untimed) every 2,000 calls to keep the cache from growing unbounded.
    g.bench_function("sh_warm_uncached", |b| {
        b.iter_custom(|iters| warm_uncached("sh", SH, iters))
    });
    g.throughput(Throughput::Bytes(log.len() as u64));
    g.bench_function("log_warm_uncached", |b| {
        b.iter_custom(|iters| warm_uncached("log", &log, iters))
    });
    let warm = Highlighter::default();
    warm.highlight("sh", SH);
    g.throughput(Throughput::Elements(1));
    // Warm, cached: the same block again, as for the ja, en and parallel
    // renderings of one page (and, in the generated corpus, every page).
    g.bench_function("sh_warm_cached", |b| {
        b.iter(|| black_box(warm.highlight("sh", black_box(SH))))
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = common::quick();
    targets = bench_markdown, bench_highlight
}
criterion_main!(benches);
