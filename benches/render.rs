//! Template rendering of a whole (small) site: `Renderer::new` (theme,
//! templates, Fluent bundles) and `Renderer::render` (every page in ja, en
//! and side by side, the views, the evidence pages), in memory.
//!
//! `cargo bench --bench render`. Nothing is written; search indexing and
//! the atomic write are not included (time them with whole builds, see
//! benches/README.md). `render/warm` reuses one renderer, so its
//! highlighting cache is already full, as it would be for the second and
//! later pages of a build; `render/cold` is what one build pays.

// `criterion_group!` defines an undocumented `pub fn`.
#![allow(missing_docs)]

mod common;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use kansoku::render::Renderer;
use kansoku::site::load;
use kansoku::validate::Mode;
use std::hint::black_box;

fn renderer(root: &std::path::Path) -> Renderer {
    Renderer::new(root).expect("theme reads and is valid")
}

fn bench(c: &mut Criterion) {
    let n = common::corpus_pages();
    let root = common::corpus(n);
    let (site, _) = load(&root, Mode::Build).expect("corpus is valid");
    let pages = site.content.pages.len() as u64;

    let mut g = c.benchmark_group("render");
    g.bench_function("renderer_new", |b| b.iter(|| black_box(renderer(&root))));
    // Elements = source pages; each is rendered three times (ja, en, ja-en).
    g.throughput(Throughput::Elements(pages));
    let warm = renderer(&root);
    g.bench_function(format!("warm/{n}"), |b| {
        b.iter(|| black_box(warm.render(black_box(&site)).expect("renders")))
    });
    g.bench_function(format!("cold/{n}"), |b| {
        b.iter(|| black_box(renderer(&root).render(&site).expect("renders")))
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = common::quick();
    targets = bench
}
criterion_main!(benches);
