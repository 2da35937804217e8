//! Search stage, page selection: which rendered pages each language's
//! index reads, and which part of each page. Reads output files, writes
//! nothing.

use super::{BUNDLE_DIR, LANGS};
use crate::render::OutputFile;

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

/// Whether the output at `path` is a page the index reads: a page of the
/// `ja/` or `en/` tree.
pub fn indexed(path: &str) -> bool {
    LANGS
        .iter()
        .any(|l| path.strip_prefix(l).is_some_and(|r| r.starts_with('/')))
        && path.ends_with("/index.html")
        && !path.contains(&format!("/{BUNDLE_DIR}/"))
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
