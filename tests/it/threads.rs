//! Output does not depend on the number of threads: the repo's own site
//! built with 1 thread equals the run's shared build (every core), and a
//! generated corpus built with 1 and with 2 rayon threads is identical.

use crate::common;

use crate::corpus::{self, Corpus, Shape};
use common::{copy_dir, repo_built, repo_root, Tree};
use std::path::Path;

fn build_with(threads: usize, site: &Path) -> Tree {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool can be built");
    // Search on: its shards are indexed on threads too.
    pool.install(|| crate::common::build_searched(site))
        .unwrap_or_else(|e| panic!("build with {threads} thread(s): {e}"));
    Tree::of(&site.join("public"))
}

/// Threads the shared build of the repository's site ran with: rayon's
/// default, one per core unless `RAYON_NUM_THREADS` says otherwise.
fn shared_build_threads() -> usize {
    std::env::var("RAYON_NUM_THREADS")
        .ok()
        .and_then(|n| n.parse().ok())
        .filter(|n| *n > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

#[test]
fn one_and_two_threads_give_identical_output() {
    let a = crate::scratch::tempdir();
    copy_repo_site(a.path());
    let one = build_with(1, a.path());
    // The run's shared build used every core; on a machine of one core,
    // a build with 2 threads of its own.
    let two = if shared_build_threads() >= 2 {
        repo_built().tree()
    } else {
        let b = crate::scratch::tempdir();
        copy_repo_site(b.path());
        build_with(2, b.path())
    };
    assert!(one.paths().len() > 100, "the repo site has many outputs");
    one.assert_same(&two, "1 thread vs 2 or more threads");
}

fn copy_repo_site(to: &Path) {
    let root = repo_root();
    std::fs::copy(root.join("book.toml"), to.join("book.toml")).expect("copy book.toml");
    copy_dir(&root.join("content"), &to.join("content"));
    copy_dir(&root.join("evidence"), &to.join("evidence"));
}

/// Builds a 60-page corpus of `shape` with 1 and with 2 threads.
fn corpus_with_1_and_2_threads(shape: Shape) {
    let tmp = crate::scratch::tempdir();
    corpus::generate(&Corpus {
        pages: 60,
        dir: &tmp.path().join("a"),
        seed: corpus::DEFAULT_SEED,
        shape,
        hugo: None,
        zola: None,
    });
    copy_dir(&tmp.path().join("a"), &tmp.path().join("b"));
    let one = build_with(1, &tmp.path().join("a"));
    let two = build_with(2, &tmp.path().join("b"));
    one.assert_same(&two, &format!("{shape:?} corpus: 1 thread vs 2 threads"));
}

#[test]
fn generated_corpus_is_thread_count_independent() {
    corpus_with_1_and_2_threads(Shape::Sectioned);
}

/// Issue 12: one section of every page (navigation windows, a paginated
/// listing) is as deterministic.
#[test]
fn issue_12_flat_corpus_is_thread_count_independent() {
    corpus_with_1_and_2_threads(Shape::Flat);
}
