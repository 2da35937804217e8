//! kansoku: a static site generator for bilingual observation records.
//!
//! The pipeline runs one way, each stage a function over values, and one
//! function sequences them: [`site::run`](crate::site) (crate-internal),
//! which `build`, `serve`, `check`, `claims`, `review` and the tests'
//! oracle all call, with a plan (where to stop, which overrides) and an
//! output (the staging tree, serve's tree, memory, nothing):
//!
//! 1. [`config::Config::load`] reads `book.toml`; the plan's overrides
//!    (`--base-url`, serve's base path, `--no-search`) are applied at once.
//! 2. [`content`] parses the pages: front matter, claims, language blocks.
//! 3. [`evidence`] indexes `evidence/` with headers and lines.
//! 4. [`validate`] resolves claims against evidence and each other, giving
//!    the [`validate::Site`] rendering consumes; [`review`] compares it
//!    with the review lock.
//! 5. [`render::Renderer`] turns the site into output files, unit by unit
//!    (a page in every language, an evidence file, a site-wide part).
//! 6. [`search`] indexes the rendered pages (Pagefind) into search bundles.
//! 7. The output keeps the files: [`site::output::Staging`] swaps the new
//!    tree in only when all succeeded.
//!
//! Every stage is memoised on hashes of its input ([`site::Caches`]): an
//! unchanged page is not parsed again and a unit whose input is unchanged
//! is not rendered again, in `serve` and, through a memo kept under
//! `.kansoku/`, from one `build` to the next. `src/site/memo.rs` says what
//! each key is made of.

pub(crate) mod accept;
pub(crate) mod bidi;
pub mod capture;
pub mod check;
pub mod claims;
pub mod clean;
pub mod config;
pub mod content;
pub(crate) mod cost;
pub mod diff;
pub(crate) mod error;
pub mod evidence;
pub(crate) mod fsutil;
pub(crate) mod glob;
pub(crate) mod hash;
pub mod init;
pub mod lang;
#[cfg(test)]
mod layering_tests;
pub(crate) mod memory;
#[cfg(test)]
mod pipeline_tests;
// The unit tests run on the binary's allocator (src/main.rs), as users'
// builds do.
#[cfg(test)]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
pub(crate) mod publication;
pub mod record;
pub mod render;
pub mod review;
#[cfg(test)]
mod scratch;
pub mod search;
pub mod serve;
pub mod site;
pub(crate) mod source;
pub(crate) mod suggest;
pub(crate) mod sync;
pub(crate) mod terminal;
pub(crate) mod theme;
pub mod validate;
pub(crate) mod version;

pub use error::{Diagnostic, Error, Location, Result, Severity};
