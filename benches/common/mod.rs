//! Shared setup for the benches: a generated corpus and Criterion settings
//! short enough for a busy 2-core machine.

// Each bench uses only part of this module.
#![allow(dead_code)]

use criterion::Criterion;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// Criterion tuned for short runs: 10 samples, 1 s warm-up, 3 s measuring.
pub(crate) fn quick() -> Criterion {
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args()
}

/// A corpus of `n` pages written by `examples/gen_corpus/` (default seed),
/// or the directory in `KANSOKU_BENCH_CORPUS` if set. Generated once under
/// Cargo's target tmp dir and regenerated when the generator is newer.
pub(crate) fn corpus(n: usize) -> PathBuf {
    if let Some(dir) = std::env::var_os("KANSOKU_BENCH_CORPUS") {
        return PathBuf::from(dir);
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("bench-corpus-{n}"));
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let generator = ["main.rs", "corpus.rs"].map(|f| manifest.join("examples/gen_corpus").join(f));
    let stamp = dir.join("book.toml");
    // The newer of the generator's two files; unknown if either is missing.
    let source = generator
        .iter()
        .map(|g| mtime(g))
        .collect::<Option<Vec<_>>>()
        .and_then(|t| t.into_iter().max());
    let fresh = match (mtime(&stamp), source) {
        (Some(made), Some(source)) => made >= source,
        _ => false,
    };
    if !fresh {
        let _ = std::fs::remove_dir_all(&dir);
        // Cargo releases its build lock before running benches, so a nested
        // `cargo run` is fine; the example shares the bench profile's
        // (release) artefacts.
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
        let status = Command::new(cargo)
            .current_dir(manifest)
            .args([
                "run",
                "--quiet",
                "--release",
                "--example",
                "gen_corpus",
                "--",
            ])
            .arg(n.to_string())
            .arg(&dir)
            .status()
            .expect("cargo runs");
        assert!(status.success(), "gen_corpus failed for N = {n}");
    }
    dir
}

fn mtime(p: &Path) -> Option<std::time::SystemTime> {
    std::fs::metadata(p).and_then(|m| m.modified()).ok()
}

/// Pages in the benches' corpus: `KANSOKU_BENCH_N`, default 200.
pub(crate) fn corpus_pages() -> usize {
    std::env::var("KANSOKU_BENCH_N")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(200)
}
