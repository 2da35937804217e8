//! Rendering: the validated site to output files, in memory.
//!
//! A pure function of the [`Site`] and the [`Renderer`]: no file is read or
//! written here (the theme was read when the renderer was made), so the same
//! input gives the same bytes and a failure leaves nothing behind.

pub mod diagram;
mod files;
mod generated;
pub mod highlight;
pub mod i18n;
pub mod markdown;
mod pages;
pub mod templates;
pub mod theme;
pub mod views;

use crate::error::{Diagnostic, Result};
use crate::lang::Lang;
use crate::validate::Site;
use highlight::Highlighter;
use i18n::I18n;
use std::path::Path;
use std::sync::Arc;
use templates::Templates;
use theme::ThemeFile;

/// One file of output, path relative to the build directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputFile {
    /// `/`-separated relative path.
    pub path: String,
    /// Contents.
    pub bytes: Vec<u8>,
}

/// Costly, immutable rendering state, built once and passed by reference.
#[derive(Debug)]
pub struct Renderer {
    templates: Templates,
    i18n: Arc<I18n>,
    highlighter: Highlighter,
    diagrams: diagram::Diagrams,
    static_files: Vec<ThemeFile>,
}

impl Renderer {
    /// Loads the theme (embedded plus the site's overrides). The outer
    /// `Result` is I/O; the inner one lists problems in the theme files.
    pub fn new(root: &Path) -> Result<std::result::Result<Renderer, Vec<Diagnostic>>> {
        let mut sources = Vec::new();
        for f in theme::merged_i18n(root)? {
            sources.push(f);
        }
        let i18n = match I18n::new(&sources) {
            Ok(i) => Arc::new(i),
            Err(d) => return Ok(Err(d)),
        };
        let templates = match Templates::load(root, i18n.clone())? {
            Ok(t) => t,
            Err(d) => return Ok(Err(d)),
        };
        let static_files = theme::merged(root, "static", theme::STATIC, None)?;
        Ok(Ok(Renderer {
            templates,
            i18n,
            highlighter: Highlighter::default(),
            diagrams: diagram::Diagrams::default(),
            static_files,
        }))
    }

    /// The source file that produces an output path, for messages.
    fn origin_of(&self, site: &Site, path: &str) -> String {
        for page in &site.content.pages {
            for tree in ["ja", "en", "ja-en"] {
                if path == format!("{tree}/{}index.html", page.url_path) {
                    return page.source_path().to_owned();
                }
            }
        }
        if let Some(name) = path.strip_prefix("static/") {
            if let Some(f) = self.static_files.iter().find(|f| f.name == name) {
                return f.origin.trim_start_matches("(embedded) ").to_owned();
            }
        }
        "content".to_owned()
    }

    /// The UI strings.
    pub fn i18n(&self) -> &I18n {
        &self.i18n
    }

    /// Renders the whole site.
    pub fn render(&self, site: &Site) -> std::result::Result<Vec<OutputFile>, Vec<Diagnostic>> {
        let mut out = pages::render_site(self, site)?;
        for f in &self.static_files {
            out.push(OutputFile {
                path: format!("static/{}", f.name),
                bytes: f.bytes.clone(),
            });
        }
        out.push(OutputFile {
            path: "static/syntax.css".to_owned(),
            bytes: highlight::stylesheet().into_bytes(),
        });
        out.sort_by(|a, b| a.path.cmp(&b.path));
        let mut diags = Vec::new();
        for w in out.windows(2) {
            if w[0].path == w[1].path {
                diags.push(
                    Diagnostic::error(
                        "E042",
                        crate::error::Location::file(self.origin_of(site, &w[0].path)),
                        format!("two outputs would be written to `{}`", w[0].path),
                    )
                    .with_hint("rename the page or static file that collides with a generated one"),
                );
            }
        }
        if diags.is_empty() {
            Ok(out)
        } else {
            Err(diags)
        }
    }
}

/// `ja`, `en` or `ja-en`.
pub(crate) fn tree(lang: Option<Lang>) -> &'static str {
    match lang {
        Some(l) => l.code(),
        None => "ja-en",
    }
}
