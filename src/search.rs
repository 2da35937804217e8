//! Search stage: the rendered pages to one Pagefind bundle per language, in
//! memory.
//!
//! Runs between `render` and `write` and, like them, is a function over
//! values: it reads the rendered HTML of the `ja/` and `en/` trees and the
//! validated claims, and returns the files of `ja/pagefind/` and
//! `en/pagefind/`. It never touches the disk and knows nothing about serving.
//!
//! - Each language tree is indexed on its own thread into its own bundle
//!   (`<base><lang>/pagefind/`), so a reader searches the language of the page
//!   they are on, and the two indexes are built in parallel. Japanese is
//!   segmented by the `extended` feature (icu_segmenter).
//! - Content and evidence pages go in (Pagefind keeps those with
//!   `data-pagefind-body`); the parallel view, the chooser and 404 do not:
//!   they mix languages and would only duplicate results.
//! - Claims are found through their page: each claim's list item carries its
//!   anchor (`claim-<id>`), its text and its id, so Pagefind's anchors and
//!   match positions tell the search box which claims matched. The box shows
//!   their class badges from `kansoku-claims.json` (id → class), written
//!   beside each bundle. One record per claim would cost as much again as
//!   the pages themselves (measured: +50 % on a 1,000-page site).

use crate::error::{Error, Result};
use crate::render::OutputFile;
use crate::validate::Site;
use pagefind::api::PagefindIndex;
use pagefind::options::PagefindServiceConfig;
use std::collections::BTreeMap;

/// The bundle's directory inside each language tree.
pub const BUNDLE_DIR: &str = "pagefind";

/// The claim classes file written beside each bundle.
pub const CLAIMS_FILE: &str = "kansoku-claims.json";

/// The languages indexed, each from its own tree.
const LANGS: [&str; 2] = ["ja", "en"];

/// Pagefind's own UI files: the site has its own search box, so these are
/// not published (they would only add weight and unchecked markup).
const UNUSED: &[&str] = &[
    "pagefind-ui.js",
    "pagefind-ui.css",
    "pagefind-modular-ui.js",
    "pagefind-modular-ui.css",
    "pagefind-component-ui.js",
    "pagefind-component-ui.css",
    "pagefind-highlight.js",
];

/// The rendered pages of one language tree that go into its index:
/// `(url, html)` for every `<lang>/…/index.html`, in path order.
pub fn indexable_pages<'a>(
    files: &'a [OutputFile],
    lang: &str,
    base: &str,
) -> Vec<(String, &'a [u8])> {
    let prefix = format!("{lang}/");
    let mut pages: Vec<(String, &[u8])> = files
        .iter()
        .filter(|f| f.path.starts_with(&prefix) && f.path.ends_with("/index.html"))
        .map(|f| {
            let dir = f.path.strip_suffix("index.html").unwrap_or(&f.path);
            (format!("{base}{dir}"), f.bytes.as_slice())
        })
        .collect();
    pages.sort_by(|a, b| a.0.cmp(&b.0));
    pages
}

/// What Pagefind needs of a page: its `<html>` tag (the language) and the
/// element with `data-pagefind-body` up to the end of `<main>`. The rest
/// (head, header, the navigation listing every page, legend, footer) is never
/// indexed when a body is marked, but Pagefind would still parse it, and the
/// navigation grows with the site. Pages
/// without a marked body, or a theme without `<main>`, go in whole.
pub fn searchable_part(html: &str) -> String {
    let Some(mark) = html.find("data-pagefind-body") else {
        return html.to_owned();
    };
    let (Some(open), Some(html_tag)) = (html[..mark].rfind('<'), html.find("<html")) else {
        return html.to_owned();
    };
    let Some(html_tag_end) = html[html_tag..].find('>').map(|e| html_tag + e + 1) else {
        return html.to_owned();
    };
    let end = html[mark..]
        .find("</main>")
        .map_or(html.len(), |e| mark + e);
    format!(
        "<!DOCTYPE html>{}<body>{}</body></html>",
        &html[html_tag..html_tag_end],
        &html[open..end]
    )
}

/// `{"<id>": "<class>", …}` for every claim of the site, sorted by id.
pub fn claim_classes(site: &Site) -> String {
    let map: BTreeMap<&str, &str> = site
        .content
        .pages
        .iter()
        .flat_map(|p| &p.claims)
        .map(|c| (c.id.as_str(), c.class.name()))
        .collect();
    serde_json::to_string(&map).expect("a map of strings serializes")
}

/// Builds the search bundles for a rendered site: the files to add to the
/// output (under `ja/pagefind/` and `en/pagefind/`), sorted by path.
pub fn index(site: &Site, files: &[OutputFile]) -> Result<Vec<OutputFile>> {
    let base = site.config.base_path.as_str();
    let classes = claim_classes(site);
    // One thread per language: the indexes are independent, Pagefind indexes
    // one page at a time, and a thread of our own also keeps its runtime
    // clear of any the caller may be running (a server rebuilding).
    let built: Vec<anyhow::Result<Vec<OutputFile>>> = std::thread::scope(|s| {
        let jobs: Vec<_> = LANGS
            .iter()
            .map(|lang| {
                let pages = indexable_pages(files, lang, base);
                s.spawn(move || bundle(lang, &pages))
            })
            .collect();
        jobs.into_iter()
            .map(|j| {
                j.join()
                    .unwrap_or_else(|_| Err(anyhow::anyhow!("the indexing thread panicked")))
            })
            .collect()
    });
    let mut out = Vec::new();
    for (lang, result) in LANGS.iter().zip(built) {
        // Not a content problem and not a diagnostic code: Pagefind failing
        // is the build failing to produce these files.
        let files = result.map_err(|e| {
            Error::io(
                format!("{lang}/{BUNDLE_DIR}"),
                std::io::Error::other(format!("the search index could not be built: {e:#}")),
            )
        })?;
        out.extend(files);
        out.push(OutputFile {
            path: format!("{lang}/{BUNDLE_DIR}/{CLAIMS_FILE}"),
            bytes: classes.clone().into_bytes(),
        });
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(out)
}

/// One language's bundle. Pagefind's API is async but only needs
/// `spawn_blocking`, so a current-thread runtime on this thread is enough.
fn bundle(lang: &str, pages: &[(String, &[u8])]) -> anyhow::Result<Vec<OutputFile>> {
    let start = std::time::Instant::now();
    let rt = tokio::runtime::Builder::new_current_thread().build()?;
    let out = rt.block_on(async {
        let config = PagefindServiceConfig::builder().build();
        let mut index = PagefindIndex::new(Some(config))?;
        for (url, html) in pages {
            let html = searchable_part(&String::from_utf8_lossy(html));
            index.add_html_file(None, Some(url.clone()), html).await?;
        }
        let files = index.get_files().await?;
        Ok(files
            .into_iter()
            .filter_map(|f| {
                let name = f.filename.to_string_lossy().replace('\\', "/");
                (!UNUSED.contains(&name.as_str())).then(|| OutputFile {
                    path: format!("{lang}/{BUNDLE_DIR}/{name}"),
                    bytes: f.contents,
                })
            })
            .collect::<Vec<_>>())
    });
    if std::env::var_os("KANSOKU_TIMINGS").is_some() {
        eprintln!(
            "timing: search {lang} {:>6} ms ({} pages)",
            start.elapsed().as_millis(),
            pages.len()
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(path: &str) -> OutputFile {
        OutputFile {
            path: path.to_owned(),
            bytes: path.as_bytes().to_vec(),
        }
    }

    #[test]
    fn only_the_marked_body_is_handed_to_pagefind() {
        let page = r#"<!DOCTYPE html>
<html lang="ja"><head><title>t</title></head><body><header>h</header>
<main id="main"><article class="page" data-pagefind-body><h1>題</h1><p>本文</p></article>
</main><nav>nav</nav></body></html>"#;
        assert_eq!(
            searchable_part(page),
            "<!DOCTYPE html><html lang=\"ja\"><body><article class=\"page\" data-pagefind-body><h1>題</h1><p>本文</p></article>\n</body></html>"
        );
        let unmarked = "<html lang=\"en\"><body><p>x</p></body></html>";
        assert_eq!(searchable_part(unmarked), unmarked);
    }

    #[test]
    fn each_language_indexes_its_own_tree_only() {
        let files = [
            file("index.html"),
            file("404.html"),
            file("ja-en/index.html"),
            file("ja-en/notes/index.html"),
            file("en/notes/index.html"),
            file("ja/index.html"),
            file("ja/evidence/logs/run.log/index.html"),
            file("evidence/logs/run.log"),
            file("static/kansoku.css"),
            file("claims.json"),
        ];
        let urls = |lang| -> Vec<String> {
            indexable_pages(&files, lang, "/base/")
                .into_iter()
                .map(|(u, _)| u)
                .collect()
        };
        assert_eq!(urls("ja"), ["/base/ja/", "/base/ja/evidence/logs/run.log/"]);
        assert_eq!(urls("en"), ["/base/en/notes/"]);
    }
}
