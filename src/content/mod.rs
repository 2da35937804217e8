//! Content: pages under `content/` with their front matter, claims and body.
//!
//! Loading reads and checks each file on its own; references between pages
//! and evidence are resolved later (see `crate::validate`). Nothing here
//! renders HTML or writes files.

pub(crate) mod blocks;
pub(crate) mod body;
pub(crate) mod claims;
mod cmark;
pub(crate) mod front_matter;
mod links;
mod page;
pub(crate) mod placeholder;
mod split;
pub(crate) mod wikilinks;

pub use body::{Chunk, Segment};
pub(crate) use claims::{Claim, Class, EvidenceLink, State};
pub(crate) use page::{load_page, PageLoad};

use crate::error::{Diagnostic, Error, Result};
use crate::lang::Bi;
use crate::source::{decode_owned, Source};
use rayon::prelude::*;
use std::ops::Range;
use std::path::Path;

/// The template family a page uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Layout {
    /// An ordinary page.
    Page,
    /// The site's home page.
    Home,
    /// The component hub.
    Hub,
    /// The generation matrix.
    Matrix,
    /// The observer-blocked page.
    Observers,
    /// Every unresolved claim.
    OpenQuestions,
}

impl Layout {
    const NAMES: [(&'static str, Layout); 6] = [
        ("page", Layout::Page),
        ("home", Layout::Home),
        ("hub", Layout::Hub),
        ("matrix", Layout::Matrix),
        ("observers", Layout::Observers),
        ("open-questions", Layout::OpenQuestions),
    ];
}

/// Where a value was written in its file (a byte range), kept to locate
/// findings about it. It is not part of the value: it hashes as nothing,
/// so a page's [`Outline`] hashes alike wherever its declarations sit, and
/// an edit that only moves them (a longer claim above them) renders no
/// other page again.
#[derive(Debug, Clone)]
pub(crate) struct Span(pub(crate) Range<usize>);

impl std::hash::Hash for Span {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

/// The thing a page is about.
#[derive(Debug, Clone, Hash)]
pub struct Entity {
    /// A kind from `book.toml` `[kinds]`.
    pub(crate) kind: String,
    /// Unique within its kind.
    pub(crate) key: String,
    /// Display name.
    pub(crate) name: Bi<String>,
    /// Short role text.
    pub(crate) role: Option<Bi<String>>,
    /// The claim whose class colours the entity, with its span.
    pub(crate) status: Option<(String, Span)>,
    /// Spans of kind and key, for diagnostics.
    pub(crate) kind_span: Span,
    /// Span of the key.
    pub(crate) key_span: Span,
    /// Keys of entities of the same kind this one depends on (the edges
    /// of a named view's graph), with their spans.
    pub(crate) depends_on: Vec<(String, Span)>,
}

/// A named view: rows are the entities of `kind`, columns are claim
/// aspects; `[[table:NAME]]` draws it as a table, `[[graph:NAME]]` as the
/// `depends-on` graph of those entities.
#[derive(Debug, Clone, Hash)]
pub struct NamedView {
    /// The name used in the body markers.
    pub(crate) name: String,
    /// The entity kind of its rows.
    pub(crate) kind: String,
    /// Span of the kind, for diagnostics.
    pub(crate) kind_span: Span,
    /// Columns.
    pub(crate) columns: Vec<Column>,
}

/// The "can show / cannot show" table: claim ids with their spans.
#[derive(Debug, Clone, Default, Hash)]
pub struct Scope {
    /// What the observations can show.
    pub(crate) can: Vec<(String, Span)>,
    /// What they cannot show.
    pub(crate) cannot: Vec<(String, Span)>,
}

/// A generated view's column.
#[derive(Debug, Clone, Hash)]
pub struct Column {
    /// The claim aspect shown in the column.
    pub(crate) aspect: String,
    /// Where the aspect is named, for findings about it.
    pub(crate) aspect_span: Span,
    /// Heading.
    pub(crate) label: Bi<String>,
}

/// One page of content: its [`Outline`], which other outputs read, and
/// what only the page itself shows.
#[derive(Debug, Clone)]
pub struct Page {
    /// What other pages and views may read of it. A page reads as its
    /// outline too (`page.title`), through `Deref`.
    pub outline: Outline,
    /// Claims declared here. Other outputs read them one by one, through
    /// each claim's view (`Renderer::claim_views`), keyed on its own.
    pub claims: Vec<Claim>,
    /// Aspects summarised by the home page's summary of findings
    /// (`[view] findings`), with their spans.
    pub(crate) findings: Vec<(String, Range<usize>)>,
    /// The body.
    pub segments: Vec<Segment>,
    /// The decoded file, for locating later findings; its path is
    /// `content/` and the outline's `rel` (`parse_file`).
    pub(crate) src: Source,
}

/// What outputs other than a page's own may read of it: all of it but
/// its body, its claims and the home page's findings list. Its hash is
/// this page's part of every render unit's memo key (`site::memo`), so
/// a field added here is keyed by that alone, and a field left out of it
/// cannot be read through another page's outline.
#[derive(Debug, Clone, Hash)]
pub struct Outline {
    /// Path relative to `content/`, `/`-separated.
    pub rel: String,
    /// URL path under a language tree: `""`, `notes/` or `notes/first/`.
    pub url_path: String,
    /// Title in each language.
    pub(crate) title: Bi<String>,
    /// "What you'll gain here".
    pub(crate) lead: Option<Bi<String>>,
    /// Order within its section.
    pub(crate) weight: i64,
    /// Last update, `YYYY-MM-DD`.
    pub(crate) updated: Option<String>,
    /// Which layout renders it.
    pub(crate) layout: Layout,
    /// The entity the page is about.
    pub(crate) entity: Option<Entity>,
    /// Entities declared here without a page of their own (`[[entities]]`).
    pub(crate) members: Vec<Entity>,
    /// Named views (`[views.NAME]`).
    pub(crate) views: Vec<NamedView>,
    /// Scope table.
    pub(crate) scope: Option<Scope>,
    /// Columns of a generated view.
    pub(crate) columns: Vec<Column>,
    /// Whether the claim list at the end also lists the claims the text
    /// shows inline (`repeat-inline-claims`, default true).
    pub(crate) repeat_inline_claims: bool,
    /// `draft = true`: left out of `build` unless `--drafts`.
    pub(crate) draft: bool,
}

impl std::ops::Deref for Page {
    type Target = Outline;

    fn deref(&self) -> &Outline {
        &self.outline
    }
}

impl Page {
    /// Path relative to the site root, as shown in diagnostics.
    pub(crate) fn source_path(&self) -> &str {
        &self.src.rel
    }
}

impl Outline {
    /// True for `_index.md`.
    pub fn is_section_index(&self) -> bool {
        self.rel == "_index.md" || self.rel.ends_with("/_index.md")
    }
}

/// All pages of a site, in a stable order (sorted by path).
#[derive(Debug, Clone, Default)]
pub struct Content {
    /// Pages sorted by `rel`; shared with the memo of parsed pages
    /// (`site::memo`), so a dev server holds each page once.
    pub pages: Vec<std::sync::Arc<Page>>,
    /// Pages that exist but failed to load (already reported), so links
    /// and claim references into them are not also called missing.
    pub(crate) failed: Vec<FailedPage>,
    /// Drafts this build leaves out (`build` without `--drafts`): a link
    /// or claim reference into one is still an error, with its own hint.
    pub(crate) drafts: Vec<FailedPage>,
}

impl Content {
    /// The outline of the `i`th page: what another page's render may read
    /// of it (its claims through their views). Render code reads other
    /// pages through this, so what it reads is what the memo keys.
    pub(crate) fn outline(&self, i: usize) -> &Outline {
        &self.pages[i].outline
    }

    /// The number of claims of each class, in legend order.
    pub(crate) fn claims_per_class(&self) -> [(Class, usize); 4] {
        let mut counts = Class::ALL.map(|c| (c, 0));
        for c in self.pages.iter().flat_map(|p| &p.claims) {
            if let Some(slot) = counts.iter_mut().find(|(k, _)| *k == c.class) {
                slot.1 += 1;
            }
        }
        counts
    }
}

/// A page that exists but failed to load, and the claims it defines, so
/// that one mistake is reported once: references to those claims are not
/// also reported as unknown ids.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FailedPage {
    /// Path relative to `content/`.
    pub(crate) rel: String,
    /// Ids of the claims it defines (as far as they can be told).
    pub(crate) claims: Vec<String>,
    /// True if its front matter parsed (the ids are exact); false if they
    /// were picked out of lines that look like `id = "…"`.
    pub(crate) parsed: bool,
    /// The evidence files its front matter may name, read from its text
    /// as written (`"logs/x.log#L3"`, `path = "…"`), parsed or not: a
    /// citation the writer made counts, so W001 never says to remove a
    /// file a broken page cites.
    pub(crate) cites: Vec<String>,
    /// The entity keys and column aspects it may declare: a claim about
    /// one of them elsewhere is not also reported as naming nothing.
    /// Parsed or not, every quoted string of its front matter.
    pub(crate) names: Vec<String>,
}

impl FailedPage {
    /// What is known of a page that parsed (a draft left out): its claims
    /// and the files they cite, read from the page, not its text again.
    pub(crate) fn of(page: &Page) -> Self {
        FailedPage {
            rel: page.rel.clone(),
            claims: page.claims.iter().map(|c| c.id.clone()).collect(),
            parsed: true,
            cites: page
                .claims
                .iter()
                .flat_map(|c| c.evidence.iter().map(|l| l.path.clone()))
                .collect(),
            names: page
                .entity
                .iter()
                .chain(&page.members)
                .map(|e| e.key.clone())
                .chain(page.columns.iter().map(|c| c.aspect.clone()))
                .chain(
                    page.views
                        .iter()
                        .flat_map(|v| v.columns.iter().map(|c| c.aspect.clone())),
                )
                .collect(),
        }
    }

    pub(crate) fn new(rel: String, src: Option<&Source>) -> Self {
        #[derive(serde::Deserialize)]
        struct Ids {
            #[serde(default)]
            claims: Vec<Id>,
        }
        #[derive(serde::Deserialize)]
        struct Id {
            id: String,
        }
        let Some(src) = src else {
            return FailedPage {
                rel,
                claims: Vec::new(),
                parsed: false,
                cites: Vec::new(),
                names: Vec::new(),
            };
        };
        let cites = cited_in(&src.text);
        let names = quoted_in(&src.text);
        // Leniently: unknown keys and other fields' types do not matter
        // here, only whether each claim's id can be read.
        let lenient = front_matter::split(src, true)
            .ok()
            .flatten()
            .and_then(|split| front_matter::parse::<Ids>(src, split).ok());
        match lenient {
            Some(ids) => FailedPage {
                rel,
                claims: ids.claims.into_iter().map(|c| c.id).collect(),
                parsed: true,
                cites,
                names,
            },
            None => FailedPage {
                rel,
                claims: src
                    .text
                    .lines()
                    .filter_map(|l| {
                        let v = l
                            .trim()
                            .strip_prefix("id")?
                            .trim_start()
                            .strip_prefix('=')?;
                        let v = v.trim().strip_prefix('"')?;
                        Some(v[..v.find('"')?].to_owned())
                    })
                    .collect(),
                parsed: false,
                cites,
                names,
            },
        }
    }
}

/// Every quoted string of a page's front matter, however it parses.
fn quoted_in(text: &str) -> Vec<String> {
    let front = text.split("+++").nth(1).unwrap_or(text);
    front
        .lines()
        .flat_map(|line| line.split('"').skip(1).step_by(2))
        .filter(|q| !q.is_empty())
        .map(str::to_owned)
        .collect()
}

/// The evidence paths a page's front matter names, however it parses:
/// each quoted string up to its `#L…` or `:line`, normalised, when it
/// stays inside the evidence directory.
fn cited_in(text: &str) -> Vec<String> {
    let mut cites = Vec::new();
    // Every quoted string of the front matter, whatever its key (a
    // misspelt `evidense = […]` cites too): only compared with the files
    // there are, so a string that names none costs nothing.
    let front = text.split("+++").nth(1).unwrap_or(text);
    for line in front.lines() {
        for (i, quoted) in line.split('"').enumerate() {
            if i % 2 == 0 || quoted.is_empty() {
                continue;
            }
            let path = quoted.split('#').next().unwrap_or(quoted);
            let path = match path.rsplit_once(':') {
                Some((p, n))
                    if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit() || b == b'-') =>
                {
                    p
                }
                _ => path,
            };
            if let Ok(p) = claims::normalise_path(path) {
                cites.push(p);
            }
        }
    }
    cites
}

/// The URL path of a content file: `_index.md` is its directory.
pub(crate) fn url_path(rel: &str) -> String {
    let stem = rel.strip_suffix(".md").unwrap_or(rel);
    if stem == "_index" {
        return String::new();
    }
    if let Some(dir) = stem.strip_suffix("/_index") {
        return format!("{dir}/");
    }
    format!("{stem}/")
}

/// Loads every `*.md` under `content/`, collecting all findings.
///
/// Files are read and parsed in parallel, but results are merged in path
/// order, so pages, findings and the first I/O error reported do not depend
/// on the number of threads.
pub fn load_content(root: &Path) -> Result<(Content, Vec<Diagnostic>)> {
    load_content_with(root, &load_file)
}

/// Reads and parses one content file, given `content/` and the file.
pub(crate) type LoadFile<'a> =
    dyn Fn(&Path, &Path) -> Result<(Loaded, Vec<Diagnostic>)> + Sync + 'a;

/// [`load_content`], each file read and parsed by `load` (given the
/// `content/` directory and the file): how a memo of parsed pages is
/// consulted (`site::memo`).
pub(crate) fn load_content_with(
    root: &Path,
    load: &LoadFile<'_>,
) -> Result<(Content, Vec<Diagnostic>)> {
    let dir = root.join("content");
    if !dir.is_dir() {
        return Err(Error::Usage(format!(
            "no content/ directory in {}; pages live in content/*.md",
            root.display()
        )));
    }
    // The symlinks under content/ are found in the same walk as the pages
    // (a second walk was a third of a dev server's reading time at scale).
    let mut diags = skipped_symlinks_in(root, &["static", "templates"]);
    let mut content = Content::default();
    let mut sources = Vec::new();
    let is_page = |entry: &walkdir::DirEntry| {
        !entry.file_type().is_dir() && entry.path().extension().is_some_and(|e| e == "md")
    };
    for entry in walk(&dir, |entry| entry.path_is_symlink() || is_page(entry)) {
        let entry = entry?;
        let rel = rel_path(&dir, entry.path());
        if entry.path_is_symlink() {
            diags.push(symlink_warning(shown_path(&rel)));
            if !is_page(&entry) {
                continue;
            }
        }
        match unsafe_name(&rel) {
            // Reported whatever the entry is: `..md` names no page at all.
            Some(why) => {
                diags.push(
                    Diagnostic::error(
                        "E060",
                        crate::error::Location::file(shown_path(&rel)),
                        format!(
                            "file name `{}` cannot become a page URL: {why}",
                            crate::terminal::escape(&rel, &[])
                        ),
                    )
                    .with_hint(
                        "rename the file using letters, digits, `-`, `_` and `.` (a name is the page's URL)",
                    ),
                );
                content.failed.push(FailedPage::new(rel, None));
            }
            // Symlinks were reported above.
            None if entry.file_type().is_file() => sources.push(entry),
            None => {}
        }
    }
    let loaded: Vec<Result<(Loaded, Vec<Diagnostic>)>> = sources
        .into_par_iter()
        .map(|entry| load(&dir, entry.path()))
        .collect();
    for result in loaded {
        let (loaded, file_diags) = result?;
        diags.extend(file_diags);
        match loaded {
            Loaded::Page(page) => content.pages.push(page),
            Loaded::Failed(rel) => content.failed.push(rel),
            // Checked with the others; its errors keep the site from
            // being rendered, so no view ever shows it.
            Loaded::Partial(failed, page) => {
                content.pages.push(page);
                content.failed.push(failed);
            }
        }
    }
    Ok((content, diags))
}

/// The entries under `dir` that `keep` accepts, sorted by file name. A walk
/// error ends the list, so it is reported only if no earlier file fails.
pub(crate) fn walk(
    dir: &Path,
    keep: impl Fn(&walkdir::DirEntry) -> bool,
) -> Vec<Result<walkdir::DirEntry>> {
    let mut out = Vec::new();
    // Dot-files and dot-directories (`.obsidian/`, `.trash/`, editor
    // backups) are never sources, as in Hugo; pruned, so a hidden tree is
    // not even read. A name made of dots only (`..md`) is no hidden file
    // but a mistake, and is kept for the caller to report.
    let walker = walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !is_hidden(&e.file_name().to_string_lossy()));
    for entry in walker {
        match entry {
            Ok(entry) if keep(&entry) => out.push(Ok(entry)),
            Ok(_) => {}
            Err(e) => {
                let path = e
                    .path()
                    .map_or_else(|| dir.to_path_buf(), Path::to_path_buf);
                out.push(Err(Error::io(path, e.into())));
                break;
            }
        }
    }
    out
}

/// A hidden file or directory name: a dot, then something other than dots
/// and the `.md` extension (`..md` is a misnamed page, not a hidden one).
pub(crate) fn is_hidden(name: &str) -> bool {
    name.starts_with('.') && !dots_only(name)
}

fn dots_only(name: &str) -> bool {
    let stem = name.strip_suffix(".md").unwrap_or(name);
    !stem.is_empty() && stem.bytes().all(|b| b == b'.')
}

/// Why a content-relative path cannot be a page's URL, if it cannot: every
/// segment of it becomes a segment of the URL, and a page must be reachable
/// by the link the build writes.
pub(crate) fn unsafe_name(rel: &str) -> Option<String> {
    for seg in rel.split('/') {
        let stem = seg.strip_suffix(".md").unwrap_or(seg);
        if stem.is_empty() || stem.bytes().all(|b| b == b'.') {
            return Some(format!(
                "`{seg}` would be the URL segment `{stem}`, which names no page"
            ));
        }
        if let Some(why) = invisible_in_name(seg) {
            return Some(why);
        }
        if let Some(c) = seg
            .chars()
            .find(|c| matches!(c, '#' | '?' | '%' | '\\' | '"' | '<' | '>'))
        {
            let what = match c {
                '#' => "`#` starts a URL fragment".to_owned(),
                '?' => "`?` starts a URL query".to_owned(),
                '%' => "`%` starts a percent-escape".to_owned(),
                '\\' => "browsers read `\\` as `/`".to_owned(),
                c => format!("`{c}` is not allowed in a URL"),
            };
            return Some(what);
        }
    }
    None
}

/// Why `name` cannot be shown as it is, if it holds a control character
/// or an invisible format character.
fn invisible_in_name(name: &str) -> Option<String> {
    match name.chars().find(|c| c.is_control()) {
        Some(c) => Some(format!("it holds the control character U+{:04X}", c as u32)),
        None => format_char_in_name(name),
    }
}

/// Why `name` cannot be shown as it is, if it holds an invisible format
/// character (Unicode Cf): a bidi override or a zero-width character makes
/// a URL, a navigation entry or an evidence link read as another name.
pub(crate) fn format_char_in_name(name: &str) -> Option<String> {
    let c = name.chars().find(|&c| crate::terminal::is_format(c))?;
    Some(format!(
        "it holds the invisible format character {}, which can make a name read as another",
        crate::terminal::code_point(c)
    ))
}

/// A warning for each symlink in the site's source directories: the build
/// reads none of them (evidence/ has its own rule, see `crate::evidence`),
/// and a file silently missing from the site is worse than a message.
/// Here for the directories `dirs`; content/'s are found while its pages
/// are listed.
fn skipped_symlinks_in(root: &Path, dirs: &[&str]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for &dir in dirs {
        let base = root.join(dir);
        if !base.is_dir() {
            continue;
        }
        for entry in walk(&base, |e| e.path_is_symlink()) {
            let Ok(entry) = entry else { break };
            let rel = format!("{dir}/{}", rel_path(&base, entry.path()));
            out.push(symlink_warning(rel));
        }
    }
    out
}

/// W060: a symlink the build does not follow.
pub(crate) fn symlink_warning(rel: String) -> Diagnostic {
    Diagnostic::warning(
        "W060",
        crate::error::Location::file(rel.clone()),
        format!("`{rel}` is a symlink; it is skipped"),
    )
    .with_hint("copy the file (or directory) into place; the build follows no symlinks here")
}

/// One content file's outcome.
#[derive(Debug, Clone)]
pub(crate) enum Loaded {
    /// Shared: a page is large, and the memo of parsed pages keeps the
    /// same one the site holds.
    Page(std::sync::Arc<Page>),
    /// What is known of it; the findings say why it failed.
    Failed(FailedPage),
    /// A page with errors: what is known of it as a failed page, and the
    /// page as far as it parsed, which is checked but never rendered.
    Partial(FailedPage, std::sync::Arc<Page>),
}

/// Reads and parses one content file at `path` under `dir` (`content/`).
pub(crate) fn load_file(dir: &Path, path: &Path) -> Result<(Loaded, Vec<Diagnostic>)> {
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    Ok(parse_file(&rel_path(dir, path), bytes))
}

/// The path, relative to the site root, that messages and views show for
/// the page at `rel` (relative to `content/`): its `Source`'s path.
pub(crate) fn shown_path(rel: &str) -> String {
    format!("content/{rel}")
}

/// Parses the bytes of the content file at `rel` (under `content/`).
pub(crate) fn parse_file(rel: &str, bytes: Vec<u8>) -> (Loaded, Vec<Diagnostic>) {
    let shown = shown_path(rel);
    let rel = rel.to_owned();
    let mut diags = Vec::new();
    let loaded = match decode_owned(&shown, bytes) {
        Ok(text) => match load_page(Source::new(shown, text), &rel, &mut diags) {
            PageLoad::Ok(page) => Loaded::Page(std::sync::Arc::new(page)),
            PageLoad::Partial(page) => {
                let failed = FailedPage::new(rel, Some(&page.src));
                Loaded::Partial(failed, std::sync::Arc::new(page))
            }
            PageLoad::Failed(src) => Loaded::Failed(FailedPage::new(rel, Some(&src))),
        },
        Err(d) => {
            diags.push(d);
            Loaded::Failed(FailedPage::new(rel, None))
        }
    };
    (loaded, diags)
}

/// A path relative to `base`, `/`-separated.
pub(crate) fn rel_path(base: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(base).unwrap_or(path);
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

#[cfg(test)]
mod tests;
