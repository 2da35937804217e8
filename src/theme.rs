//! The default theme, compiled into the binary, and a site's overrides.
//!
//! mdBook's rule: a site's own `templates/` and `static/` files replace the
//! embedded ones of the same name, file by file; `templates/i18n/*.ftl`
//! override message by message. This module only gathers file contents
//! (and the ids the templates write literally, which headings never
//! take: render and check both read them here, so that `validate` needs
//! nothing of `render`).

use crate::content::rel_path;
use crate::error::{Error, Result};
use std::path::Path;

macro_rules! embed {
    ($($path:literal),* $(,)?) => {
        &[$(($path, include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/", $path)))),*]
    };
}

/// Embedded theme templates: (path from the repo root, text).
pub(crate) const TEMPLATES: &[(&str, &str)] = embed!(
    "templates/404.html",
    "templates/base.html",
    "templates/bilingual.html",
    "templates/chooser.html",
    "templates/evidence.html",
    "templates/evidence_index.html",
    "templates/macros.html",
    "templates/page.html",
    "templates/parallel.html",
    "templates/partials/claim.html",
    "templates/partials/legend.html",
    "templates/partials/listing.html",
    "templates/partials/meanings.html",
    "templates/partials/nav_item.html",
    "templates/partials/pager.html",
    "templates/views/answers.html",
    "templates/views/home.html",
    "templates/views/hub.html",
    "templates/views/table.html",
    "templates/views/matrix.html",
    "templates/views/observers.html",
    "templates/views/open_questions.html",
);

/// Embedded Fluent files.
pub(crate) const I18N: &[(&str, &str)] = embed!("templates/i18n/en.ftl", "templates/i18n/ja.ftl");

/// Embedded static files.
pub(crate) const STATIC: &[(&str, &str)] = embed!(
    "static/favicon.svg",
    "static/kansoku-back.js",
    "static/kansoku-search.js",
    "static/kansoku-views.css",
    "static/kansoku.css",
    "static/kansoku.js"
);

/// The theme's stylesheets under `static/`, in the order `base.html` links
/// them (a later rule wins a tie, so the order is part of the style); the
/// highlighting's `syntax.css`, which render writes, follows them.
pub(crate) const STYLESHEETS: &[&str] = &["kansoku.css", "kansoku-views.css"];

/// A theme file and where it came from.
#[derive(Debug, Clone)]
pub(crate) struct ThemeFile {
    /// Name inside its directory (`page.html`, `kansoku.css`).
    pub(crate) name: String,
    /// Where it came from, for messages: `templates/page.html` or `(embedded) templates/page.html`.
    pub(crate) origin: String,
    /// Contents.
    pub(crate) bytes: Vec<u8>,
}

/// Embedded files under `dir` with the site's files of the same tree
/// replacing them, sorted by name.
pub(crate) fn merged(
    root: &Path,
    dir: &str,
    embedded: &[(&str, &str)],
    ext: Option<&str>,
) -> Result<Vec<ThemeFile>> {
    let mut files: std::collections::BTreeMap<String, ThemeFile> = embedded
        .iter()
        .filter_map(|(path, text)| {
            let name = path.strip_prefix(dir)?.trim_start_matches('/').to_owned();
            Some((
                name.clone(),
                ThemeFile {
                    name,
                    origin: format!("(embedded) {path}"),
                    bytes: text.as_bytes().to_vec(),
                },
            ))
        })
        .collect();
    let site_dir = root.join(dir);
    if site_dir.is_dir() {
        for entry in walkdir::WalkDir::new(&site_dir).sort_by_file_name() {
            let entry = entry.map_err(|e| Error::io(site_dir.clone(), e.into()))?;
            if !entry.file_type().is_file() {
                continue;
            }
            let name = rel_path(&site_dir, entry.path());
            if name.split('/').any(|p| p.starts_with('.'))
                || name.starts_with("i18n/") && dir == "templates"
            {
                continue;
            }
            if ext.is_some_and(|x| !name.ends_with(x)) {
                continue;
            }
            let bytes = std::fs::read(entry.path()).map_err(|e| Error::io(entry.path(), e))?;
            files.insert(
                name.clone(),
                ThemeFile {
                    origin: format!("{dir}/{name}"),
                    name,
                    bytes,
                },
            );
        }
    }
    Ok(files.into_values().collect())
}

/// The Fluent sources in override order: embedded first, then the site's.
pub(crate) fn merged_i18n(root: &Path) -> Result<Vec<(crate::lang::Lang, String, String)>> {
    use crate::lang::Lang;
    let mut out = Vec::new();
    for lang in Lang::ALL {
        let name = format!("templates/i18n/{lang}.ftl");
        if let Some((path, text)) = I18N.iter().find(|(p, _)| *p == name) {
            out.push((lang, format!("(embedded) {path}"), (*text).to_owned()));
        }
        let site = root.join(&name);
        if site.is_file() {
            let bytes = std::fs::read(&site).map_err(|e| Error::io(&site, e))?;
            let text = crate::source::decode(&name, &bytes).map_err(|d| Error::Content(vec![d]))?;
            out.push((lang, name, text));
        }
    }
    Ok(out)
}

/// Literal `id="…"` values in template sources (not computed ones).
pub(crate) fn fixed_ids<S: AsRef<str>>(texts: impl Iterator<Item = S>) -> Vec<String> {
    let mut ids = Vec::new();
    for text in texts {
        let text = text.as_ref();
        // memchr's searches: the whole theme is scanned on every load.
        for i in memchr::memmem::find_iter(text.as_bytes(), b"id=\"") {
            let rest = &text[i + 4..];
            let Some(end) = memchr::memchr(b'"', rest.as_bytes()) else {
                continue;
            };
            let id = &rest[..end];
            if !id.is_empty() && !id.contains(['{', '}', ' ']) {
                ids.push(id.to_owned());
            }
        }
    }
    ids.sort();
    ids.dedup();
    ids
}

/// The ids the theme of the site at `root` writes literally, as
/// `render::templates::Templates::reserved_ids` gives them, without compiling the
/// templates: what `check` needs to give headings the ids render gives.
/// Empty if the theme cannot be read (then that is reported elsewhere).
pub(crate) fn theme_ids(root: &Path) -> Vec<String> {
    match merged(root, "templates", TEMPLATES, Some(".html")) {
        Ok(files) => fixed_ids(files.iter().map(|f| String::from_utf8_lossy(&f.bytes))),
        Err(_) => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_ids_are_the_literal_ones() {
        let texts = [
            r#"<p id="b"><a id="{{ x }}"></a><i id=""></i><b id="c d"></b><s id="a">"#,
            r#"<nav id="b"></nav><u id="last"#,
        ];
        assert_eq!(fixed_ids(texts.iter()), ["a", "b"]);
    }

    /// Every theme file in the repo must be embedded, or `cargo install`
    /// would ship a theme that differs from the one tested here.
    #[test]
    fn every_theme_file_is_embedded() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut on_disk = Vec::new();
        for dir in ["templates", "static"] {
            for e in walkdir::WalkDir::new(root.join(dir)).sort_by_file_name() {
                let e = e.expect("theme dir is readable");
                if e.file_type().is_file() && !e.file_name().to_string_lossy().ends_with(".md") {
                    on_disk.push(rel_path(root, e.path()));
                }
            }
        }
        let mut embedded: Vec<String> = TEMPLATES
            .iter()
            .chain(I18N)
            .chain(STATIC)
            .map(|(p, _)| (*p).to_owned())
            .collect();
        embedded.sort();
        on_disk.sort();
        assert_eq!(embedded, on_disk);
    }

    fn embedded(path: &str) -> &'static str {
        STATIC
            .iter()
            .chain(TEMPLATES)
            .find(|(p, _)| *p == path)
            .map(|(_, text)| *text)
            .unwrap_or_else(|| panic!("{path} is embedded"))
    }

    /// On each line of `text` with `before`, the name between `prefix` and
    /// the next `"`: `{{ base }}static/NAME"` in a template.
    fn named(text: &str, before: &str, prefix: &str) -> Vec<String> {
        text.lines()
            .filter(|l| l.contains(before))
            .filter_map(|l| {
                let rest = &l[l.find(prefix)? + prefix.len()..];
                Some(rest[..rest.find('"')?].to_owned())
            })
            .collect()
    }

    /// The archive inlines `STYLESHEETS` in this order, so it must be the
    /// order in which base.html links them.
    #[test]
    fn base_html_links_the_stylesheets_in_their_order() {
        let base = embedded("templates/base.html");
        let linked = named(base, "rel=\"stylesheet\"", "static/");
        let mut want: Vec<&str> = STYLESHEETS.to_vec();
        want.push("syntax.css");
        assert_eq!(linked, want);
    }
}
