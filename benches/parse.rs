//! Loading: front matter + claims + `::: ja`/`::: en` segment parsing
//! (`load_content`), evidence indexing (`load_evidence`), and the
//! cross-checks (`validate`) on a generated corpus.
//!
//! `cargo bench --bench parse`. The front-matter and segment splitters are
//! crate-private, so they are timed through `load_content`, which also
//! walks and reads `content/` (from the page cache once warm).

// `criterion_group!` defines an undocumented `pub fn`.
#![allow(missing_docs)]

mod common;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use kansoku::config::Config;
use kansoku::content::load_content;
use kansoku::evidence::load_evidence;
use kansoku::validate::{validate, Mode};
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let n = common::corpus_pages();
    let root = common::corpus(n);
    let config = Config::load(&root).expect("corpus has a valid book.toml");
    let (content, _) = load_content(&root).expect("corpus loads");
    let (evidence, _) = load_evidence(&root, &config.evidence_dir).expect("corpus evidence loads");
    let theme_ids = kansoku::site::load_sources(&root)
        .expect("corpus loads")
        .theme_ids;

    let mut g = c.benchmark_group("parse");
    g.throughput(Throughput::Elements(content.pages.len() as u64));
    g.bench_function(format!("load_content/{n}"), |b| {
        b.iter(|| black_box(load_content(black_box(&root)).expect("loads")))
    });
    g.throughput(Throughput::Elements(evidence.files.len() as u64));
    g.bench_function(format!("load_evidence/{n}"), |b| {
        b.iter(|| black_box(load_evidence(black_box(&root), &config.evidence_dir).expect("loads")))
    });
    g.throughput(Throughput::Elements(content.pages.len() as u64));
    g.bench_function(format!("validate/{n}"), |b| {
        b.iter(|| {
            black_box(validate(
                &config,
                &content,
                &evidence,
                &theme_ids,
                Mode::Build,
            ))
        })
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = common::quick();
    targets = bench
}
criterion_main!(benches);
