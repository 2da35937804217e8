//! kansoku: a static site generator for bilingual observation records.
//!
//! The pipeline runs one way, each stage a function over values:
//!
//! 1. [`config::Config::load`] reads `book.toml`.
//! 2. [`content::load_content`] parses pages: front matter, claims, language blocks.
//! 3. [`evidence::load_evidence`] indexes `evidence/` with headers and lines.
//! 4. [`validate::validate`] resolves claims against evidence and each other,
//!    giving the [`validate::Site`] rendering consumes.
//! 5. [`render::Renderer`] turns the site into output files, unit by unit.
//! 6. [`search`] indexes the rendered pages (Pagefind) into search bundles.
//! 7. [`site::output::Staging`] swaps the new tree in only when all succeeded.
//!
//! [`site::build`] runs them in order and `check` stops after step 4; `serve`
//! runs the same stages after each change. `site::memo` memoises them on
//! content hashes ([`site::Caches`]): an unchanged page is not parsed again
//! and a unit whose input is unchanged is not rendered again, in `serve`
//! and, through a memo kept under `.kansoku/`, from one `build` to the next.

pub(crate) mod accept;
pub mod check;
pub mod claims;
pub mod clean;
pub mod config;
pub mod content;
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
pub mod render;
pub mod review;
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
