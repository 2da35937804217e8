//! What a run of the pipeline is asked to do and where its files go: the
//! [`Plan`] (where to stop, what to do with errors, the overrides), the
//! [`Output`] rendered files are written to, and the counts a run reports.
//!
//! These are the pipeline's vocabulary, shared by [`super::run`] (which
//! sequences the stages) and [`super::memo`] (which remembers them), so
//! they sit below both and import neither.

use crate::config::Config;
use crate::error::{Error, Result};
use crate::render::{OutputFile, SitePart, Unit};
use crate::validate::Mode;
use std::path::Path;
use std::sync::Mutex;

/// Where a run stops.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Until {
    /// After validation (and the lock, if the plan compares it).
    Validated,
    /// After the theme and the output paths are checked too (`check`).
    Checked,
    /// After rendering (and indexing search, if the plan says so).
    Rendered,
}

/// What to do with errors found while loading.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Errors {
    /// Stop with them (`Err(Error::Content)`).
    Stop,
    /// Go on to the checks after loading and return them with the site
    /// (`check`, `check --fix`); nothing is rendered.
    Report,
}

/// Settings applied to `book.toml` as it is read.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub(crate) struct Overrides {
    /// Publish under this URL (`build --base-url`).
    pub(crate) base_url: Option<String>,
    /// Serve under this base path whatever `site-url` says (`serve`: `/`,
    /// as Zola's `serve` replaces `base_url`).
    pub(crate) base_path: Option<String>,
    /// No search index and no search box (`--no-search`).
    pub(crate) no_search: bool,
    /// `serve`'s preview, read by the site's writer, not its readers.
    pub(crate) preview: bool,
}

impl Overrides {
    pub(crate) fn apply(&self, config: &mut Config) {
        if let Some(url) = &self.base_url {
            config.set_site_url(url);
        }
        if let Some(path) = &self.base_path {
            config.base_path = path.clone();
        }
        config.search &= !self.no_search;
        config.preview |= self.preview;
        if *self != Overrides::default() {
            config.key = crate::hash::memo::hash_of((config.key, self));
        }
    }
}

/// What one run does.
pub(crate) struct Plan<'a> {
    pub(crate) mode: Mode,
    pub(crate) until: Until,
    pub(crate) errors: Errors,
    /// Compare the site with its review lock (`kansoku.lock`).
    pub(crate) lock: bool,
    /// Keep pages with `draft = true`.
    pub(crate) drafts: bool,
    pub(crate) overrides: Overrides,
    /// Only this site-wide part is rendered (`claims`); `None`: every unit.
    pub(crate) only: Option<SitePart>,
    /// Index the rendered pages for search in this run (when the site has
    /// search on); off, the caller indexes later (serve's indexing thread).
    pub(crate) search: bool,
    /// Told how far rendering is; rendering then goes in batches.
    pub(crate) progress: Option<&'a (dyn Fn(super::Progress) + Send + Sync)>,
}

impl Plan<'_> {
    /// Load and validate in `mode` with the lock, stopping on errors:
    /// what `site::load` does.
    pub(crate) fn load(mode: Mode) -> Plan<'static> {
        Plan {
            mode,
            until: Until::Validated,
            errors: Errors::Stop,
            lock: true,
            drafts: true,
            overrides: Overrides::default(),
            only: None,
            search: false,
            progress: None,
        }
    }

    /// A whole build with search, as `kansoku build` runs it.
    pub(crate) fn build() -> Plan<'static> {
        Plan {
            until: Until::Rendered,
            drafts: false,
            search: true,
            ..Plan::load(Mode::Build)
        }
    }
}

/// Where rendered files go. Called from many threads at once.
pub(crate) trait Output: Sync {
    /// Receives a rendered file with the hash of its bytes.
    fn write(&self, file: OutputFile, hash: u64) -> Result<()>;
    /// Takes the files a remembered unit (or search shard) made last time
    /// as they are, all of them (`true`) or none (`false`: it is made
    /// again).
    fn reuse(&self, files: &[(String, u64)]) -> Result<bool>;
    /// The bytes of a file written or taken in this run, for search.
    fn read(&self, path: &str) -> Result<Vec<u8>>;
    /// Receives a copy of the file at `from` (a large evidence log), of
    /// `size` bytes with `hash`. An output that can copy in pieces does;
    /// this one reads it whole.
    fn copy(&self, path: &str, from: &Path, size: u64, hash: u64) -> Result<()> {
        let _ = size;
        let bytes = std::fs::read(from).map_err(|e| Error::io(from, e))?;
        let path = path.to_owned();
        self.write(OutputFile { path, bytes }, hash)
    }
}

/// An output for runs that render nothing.
pub(crate) struct Nothing;

impl Output for Nothing {
    fn write(&self, _: OutputFile, _: u64) -> Result<()> {
        Ok(())
    }
    fn copy(&self, _: &str, _: &Path, _: u64, _: u64) -> Result<()> {
        Ok(())
    }
    fn reuse(&self, _: &[(String, u64)]) -> Result<bool> {
        Ok(false)
    }
    fn read(&self, path: &str) -> Result<Vec<u8>> {
        Err(Error::Usage(format!("{path} was not rendered")))
    }
}

/// Every file in memory, by path (the tests' oracle, `claims`).
#[derive(Default)]
pub(crate) struct Memory(Mutex<std::collections::BTreeMap<String, Vec<u8>>>);

impl Memory {
    /// The files, sorted by path.
    pub(crate) fn into_files(self) -> Vec<OutputFile> {
        self.0
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .into_iter()
            .map(|(path, bytes)| OutputFile { path, bytes })
            .collect()
    }
}

impl Output for Memory {
    fn write(&self, file: OutputFile, _: u64) -> Result<()> {
        crate::sync::lock(&self.0).insert(file.path, file.bytes);
        Ok(())
    }
    fn reuse(&self, _: &[(String, u64)]) -> Result<bool> {
        Ok(false)
    }
    fn read(&self, path: &str) -> Result<Vec<u8>> {
        crate::sync::lock(&self.0)
            .get(path)
            .cloned()
            .ok_or_else(|| Error::Usage(format!("{path} was not rendered")))
    }
}

/// Render units by kind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct UnitCounts {
    /// Content pages (each in every tree, with its twins).
    pub pages: usize,
    /// Evidence files (their pages and raw copies).
    pub evidence: usize,
    /// Site-wide parts (claims.json, the evidence index, …).
    pub site: usize,
}

impl UnitCounts {
    /// Counts `unit`.
    pub(crate) fn add(&mut self, unit: Unit<'_>) {
        match unit {
            Unit::Page(_) => self.pages += 1,
            Unit::Evidence(_) => self.evidence += 1,
            Unit::Site(_) => self.site += 1,
        }
    }

    /// Units of every kind.
    pub fn total(&self) -> usize {
        self.pages + self.evidence + self.site
    }
}
