//! Search stage, page selection: which rendered pages each language's
//! index reads, and which part of each page. Reads output files, writes
//! nothing.

use crate::render::paths;

/// The rendered pages of one language tree that go into its index, from
/// the output paths of the site's pages and their content hashes:
/// `(url, path, hash)` for every `<lang>/…/index.html`, in URL order.
pub(crate) fn language_pages<'a>(
    pages: &'a [(String, u64)],
    lang: &str,
    base: &str,
) -> Vec<(String, &'a str, u64)> {
    let mut mine: Vec<(String, &str, u64)> = pages
        .iter()
        .filter(|(p, _)| paths::lang_tree(p).is_some_and(|l| l.code() == lang))
        .filter_map(|(p, h)| Some((format!("{base}{}", paths::page_of(p)?), p.as_str(), *h)))
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
    paths::lang_tree(path).is_some() && paths::page_of(path).is_some() && !paths::in_bundle(path)
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

    /// Only the bundle's own directory is left out, not a page of a
    /// section that happens to be called `pagefind`.
    #[test]
    fn a_page_is_indexed_unless_it_lies_in_the_bundle() {
        assert!(indexed("ja/tools/pagefind/index.html"));
        assert!(indexed("en/index.html"));
        assert!(!indexed("ja/pagefind/index.html"));
        assert!(!indexed("en/pagefind/fragment/index.html"));
        assert!(!indexed("ja-en/index.html"));
        assert!(!indexed("ja/a/index.md"));
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
