//! Search stage, page selection: which rendered pages each language's
//! index reads, and which part of each page. Reads output files, writes
//! nothing.

use super::{BUNDLE_DIR, LANGS};

/// The rendered pages of one language tree that go into its index, from
/// the output paths of the site's pages and their content hashes:
/// `(url, path, hash)` for every `<lang>/…/index.html`, in URL order.
pub(crate) fn language_pages<'a>(
    pages: &'a [(String, u64)],
    lang: &str,
    base: &str,
) -> Vec<(String, &'a str, u64)> {
    let prefix = format!("{lang}/");
    let mut mine: Vec<(String, &str, u64)> = pages
        .iter()
        .filter(|(p, _)| p.starts_with(&prefix) && p.ends_with("/index.html"))
        .map(|(p, h)| {
            let dir = p.strip_suffix("index.html").unwrap_or(p);
            (format!("{base}{dir}"), p.as_str(), *h)
        })
        .collect();
    mine.sort_by(|a, b| a.0.cmp(&b.0));
    mine
}

/// What Pagefind needs of a page: its `<html>` tag (the language) and the
/// element with `data-pagefind-body` up to the end of `<main>`. The rest
/// (head, header, the navigation listing every page, legend, footer) is never
/// indexed when a body is marked, but Pagefind would still parse it, and the
/// navigation grows with the site. Pages
/// without a marked body, or a theme without `<main>`, go in whole.
pub(crate) fn searchable_part(html: &str) -> String {
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
pub(crate) fn indexed(path: &str) -> bool {
    LANGS
        .iter()
        .any(|l| path.strip_prefix(l).is_some_and(|r| r.starts_with('/')))
        && path.ends_with("/index.html")
        && !path.contains(&format!("/{BUNDLE_DIR}/"))
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let files: Vec<(String, u64)> = [
            "index.html",
            "404.html",
            "ja-en/index.html",
            "ja-en/notes/index.html",
            "en/notes/index.html",
            "ja/index.html",
            "ja/evidence/logs/run.log/index.html",
            "evidence/logs/run.log",
            "static/kansoku.css",
            "claims.json",
        ]
        .iter()
        .map(|p| (p.to_string(), 0))
        .collect();
        let urls = |lang| -> Vec<String> {
            language_pages(&files, lang, "/base/")
                .into_iter()
                .map(|(u, _, _)| u)
                .collect()
        };
        assert_eq!(urls("ja"), ["/base/ja/", "/base/ja/evidence/logs/run.log/"]);
        assert_eq!(urls("en"), ["/base/en/notes/"]);
    }
}
