//! kansoku's integration tests, as one test binary (mdBook's
//! `tests/testsuite/main.rs` shape): the crate and its dependencies are
//! linked once, not once per file under `tests/`, and the repository's own
//! site is built once per run for every test that only reads it
//! ([`common::repo_built`]).
//!
//! Each module is one area; [`common`] is the harness they share. Run one
//! area with `cargo test --test it cli::`, one test by its name.

mod build;
mod build_cache;
mod build_dir;
mod build_dir_prop;
mod check;
mod cli;
mod common;
// The benches' corpus generator, run in-process: no test runs `cargo run`.
// The example's command line reads parts of it that the tests do not.
#[allow(dead_code)]
#[path = "../../examples/gen_corpus/corpus.rs"]
mod corpus;
mod invalid;
mod maintainer_loop;
mod output;
mod page_prop;
mod review;
mod rocm_pages;
mod safety;
mod scale;
mod search;
mod serve;
mod threads;
