//! kansoku's integration tests, as one test binary (mdBook's
//! `tests/testsuite/main.rs` shape): the crate and its dependencies are
//! linked once, not once per file, and the repository's own site is built
//! once per run for every test that only reads it ([`common::repo_built`]).
//!
//! Each module is one area; [`common`] is the harness they share. Run one
//! area with `cargo test --test it cli::`, one test by its name.
//! Assertions about the observation record in `content/` and `evidence/`
//! (its claim ids, titles and counts) live in [`content`] only; every other
//! module holds to fixtures under `tests/fixtures/` or to properties that
//! do not depend on the record's wording.

// The binary's allocator (src/main.rs), so that the in-process builds run
// on what users' builds run, `mi_collect` (src/memory.rs) included.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod answers;
mod archive;
mod bidi;
mod build;
mod build_cache;
mod build_dir;
mod build_dir_copy;
mod build_dir_prop;
mod capture;
mod capture_bounds;
mod capture_screen;
mod check;
mod cli;
mod common;
mod commonmark;
mod content;
mod crate_archive;
mod drafts;
// The benches' corpus generator, run in-process: no test runs `cargo run`.
// The example's command line reads parts of it that the tests do not.
#[allow(dead_code)]
#[path = "../../examples/gen_corpus/corpus.rs"]
mod corpus;
mod invalid;
mod large_logs;
mod machine;
mod maintainer_loop;
mod output;
mod page_prop;
mod readme;
mod recapture;
mod release;
mod review;
mod safety;
mod scale;
// Where scratch trees go: the unit tests' own module (in memory when
// the machine has room).
#[path = "../../src/scratch.rs"]
mod scratch;
mod search;
mod serve;
mod summary;
mod threads;
mod trial_lows;
mod workflow;
