//! `kansoku check` on a generated corpus: config, content, evidence,
//! validation and the theme, with nothing rendered or written.
//!
//! `cargo bench --bench check`. `site_load` is the same minus the theme.

// `criterion_group!` defines an undocumented `pub fn`.
#![allow(missing_docs)]

mod common;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use kansoku::validate::Mode;
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let n = common::corpus_pages();
    let root = common::corpus(n);
    let report = kansoku::check::check(&root).expect("corpus reads");
    assert_eq!(report.errors(), 0, "the generated corpus checks clean");

    let mut g = c.benchmark_group("check");
    g.throughput(Throughput::Elements(n as u64));
    g.bench_function(format!("check/{n}"), |b| {
        b.iter(|| black_box(kansoku::check::check(black_box(&root)).expect("reads")))
    });
    g.bench_function(format!("site_load/{n}"), |b| {
        b.iter(|| black_box(kansoku::site::load(black_box(&root), Mode::Check).expect("valid")))
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = common::quick();
    targets = bench
}
criterion_main!(benches);
