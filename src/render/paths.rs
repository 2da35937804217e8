//! The site's URL scheme, in one place: where a page, a listing page, an
//! evidence file, a Markdown twin and each language's search bundle are
//! published and linked from, and back from a path to what lies there.
//! Pages, twins, the evidence pages and RO-Crate take their URLs from here;
//! so do the archive's link mapping, the search step and `serve`.

use crate::content::Outline;
use crate::lang::Lang;

/// The trees a page is published in: each language's and the parallel
/// view's (the archive holds them in this order too).
pub(crate) const TREES: [&str; 3] = ["ja", "en", "ja-en"];

/// The URL of `page` in `tree` (`ja`, `en` or `ja-en`) under `base`.
pub(in crate::render) fn page_href(base: &str, tree: &str, page: &Outline) -> String {
    format!("{base}{tree}/{}", page.url_path)
}

/// The output path of `page` in `tree`.
pub(in crate::render) fn page_path(tree: &str, url: &str) -> String {
    format!("{tree}/{url}index.html")
}

/// The output path of the Markdown twin of the page at `url` in `tree`.
pub(in crate::render) fn page_twin_path(tree: &str, url: &str) -> String {
    format!("{tree}/{url}index.md")
}

/// The URL of the page of evidence file `path` in `tree` under `base`.
pub(crate) fn evidence_href(base: &str, tree: impl std::fmt::Display, path: &str) -> String {
    format!("{base}{tree}/evidence/{path}/")
}

/// The output path of the page of evidence file `path` in `tree`.
pub(in crate::render) fn evidence_path(tree: impl std::fmt::Display, path: &str) -> String {
    format!("{tree}/evidence/{path}/index.html")
}

/// The output path of the twin of evidence file `path`'s page in `tree`.
pub(in crate::render) fn evidence_twin_path(tree: impl std::fmt::Display, path: &str) -> String {
    format!("{tree}/evidence/{path}/index.md")
}

/// The URL of the list of evidence files in `tree` under `base`.
pub(in crate::render) fn evidence_index_href(base: &str, tree: impl std::fmt::Display) -> String {
    format!("{base}{tree}/evidence/")
}

/// The output path of the list of evidence files in `tree`.
pub(in crate::render) fn evidence_index_path(tree: impl std::fmt::Display) -> String {
    format!("{tree}/evidence/index.html")
}

/// The output path of the twin of the list of evidence files in `tree`.
pub(in crate::render) fn evidence_index_twin_path(tree: impl std::fmt::Display) -> String {
    format!("{tree}/evidence/index.md")
}

/// The URL of listing page `n` of `page` in `tree`: the section's own URL
/// for the first, `page/<n>/` under it after (Zola's and Hugo's naming).
pub(in crate::render) fn listing_href(base: &str, tree: &str, page: &Outline, n: usize) -> String {
    if n == 1 {
        page_href(base, tree, page)
    } else {
        format!("{}page/{n}/", page_href(base, tree, page))
    }
}

/// The output path of listing page `n` (from 2) of the section at `url`.
pub(in crate::render) fn listing_path(tree: &str, url: &str, n: usize) -> String {
    format!("{tree}/{url}page/{n}/index.html")
}

/// The output path of the twin of listing page `n` (from 2) of the
/// section at `url` in `tree`.
pub(in crate::render) fn listing_twin_path(tree: &str, url: &str, n: usize) -> String {
    format!("{tree}/{url}page/{n}/index.md")
}

/// The URL path under which the listing pages after the first of the
/// section at `url` in `tree` lie.
pub(in crate::render) fn listings_prefix(tree: &str, url: &str) -> String {
    format!("{tree}/{url}page/")
}

/// The search bundle's directory inside each language tree.
pub(crate) const BUNDLE_DIR: &str = "pagefind";

/// The directory of the search bundle of the tree of `lang`: `ja/pagefind`.
pub(crate) fn bundle_dir(lang: impl std::fmt::Display) -> String {
    format!("{lang}/{BUNDLE_DIR}")
}

/// Whether the output at `path` is a search bundle's directory or lies
/// in one (`ja/pagefind`, `en/pagefind/pagefind.js`): files the search
/// step writes, not render.
pub(crate) fn in_bundle(path: &str) -> bool {
    let mut parts = path.splitn(3, '/');
    matches!(
        (parts.next().and_then(Lang::from_code), parts.next()),
        (Some(_), Some(BUNDLE_DIR))
    )
}

/// The language of the tree the output at `path` lies in (`ja/…`,
/// `en/…`); `None` for the parallel view's and for files beside the trees.
pub(crate) fn lang_tree(path: &str) -> Option<Lang> {
    path.split_once('/')
        .and_then(|(tree, _)| Lang::from_code(tree))
}

/// The URL path under the base of the page written at `path`, the
/// inverse of [`page_path`], [`listing_path`], [`evidence_path`] and
/// [`evidence_index_path`] (`ja/a/index.html` is `ja/a/`, the root's
/// `index.html` is ``); `None` for a file that is not a page.
pub(crate) fn page_of(path: &str) -> Option<&str> {
    let dir = path.strip_suffix("index.html")?;
    (dir.is_empty() || dir.ends_with('/')).then_some(dir)
}

/// The path under the base of the URL path `url` (`/docs/ja/a/` is
/// `ja/a/` under `/docs/`), the inverse of the hrefs above: the base
/// without its slash (`/docs`) is the site's root too. `None` for
/// another part of the host.
pub(crate) fn under_base<'a>(base: &str, url: &'a str) -> Option<&'a str> {
    url.strip_prefix(base)
        .or_else(|| (base.strip_suffix('/') == Some(url)).then_some(""))
}

/// The directory of the raw copies of the evidence (`evidence/run.log`).
const RAW_EVIDENCE_DIR: &str = "evidence";

/// Whether `path` under the base is a raw copy of an evidence file (the
/// inverse of [`raw_evidence_path`]).
pub(crate) fn is_raw_evidence(path: &str) -> bool {
    path.split_once('/')
        .is_some_and(|(dir, _)| dir == RAW_EVIDENCE_DIR)
}

/// Extensions a browser opens as an active document (HTML, SVG and XML
/// can all run script), compared without case.
const ACTIVE_TYPES: [&str; 10] = [
    "html", "htm", "xhtml", "shtml", "svg", "svgz", "xml", "xsl", "mht", "mhtml",
];

/// Where the raw copy of an evidence file is published. Evidence is text
/// to read, never a page to run: a file of an active type (`.html`,
/// `.svg`, …) gets `.txt` added, so every static host serves it as plain
/// text and a captured page cannot run script on the site's origin.
pub(crate) fn raw_evidence_path(path: &str) -> String {
    let active = path
        .rsplit_once('.')
        .is_some_and(|(_, ext)| ACTIVE_TYPES.iter().any(|a| ext.eq_ignore_ascii_case(a)));
    if active {
        format!("{RAW_EVIDENCE_DIR}/{path}.txt")
    } else {
        format!("{RAW_EVIDENCE_DIR}/{path}")
    }
}

/// The `<link rel="alternate" type="text/markdown">` entries of an HTML
/// page whose view is `view` and address `canonical`: its own twin, both
/// languages' on the parallel view, none on pages without one (the
/// chooser, `404.html`) or when the site writes no twins.
pub(in crate::render) fn twin_links(
    markdown: bool,
    base: &str,
    view: &str,
    canonical: &str,
) -> Vec<TwinLink> {
    if !markdown {
        return Vec::new();
    }
    match view {
        "page" | "listing" | "evidence" | "evidence-index" if canonical.starts_with(base) => {
            vec![TwinLink {
                hreflang: None,
                href: format!("{canonical}index.md"),
            }]
        }
        "parallel" => {
            let rest = canonical
                .strip_prefix(base)
                .and_then(|r| r.strip_prefix("ja-en/"))
                .unwrap_or_default();
            Lang::ALL
                .iter()
                .map(|l| TwinLink {
                    hreflang: Some(l.code()),
                    href: format!("{}{l}/{rest}index.md", base),
                })
                .collect()
        }
        _ => Vec::new(),
    }
}

/// A Markdown twin linked from an HTML page's head.
#[derive(serde::Serialize)]
pub(in crate::render) struct TwinLink {
    hreflang: Option<&'static str>,
    href: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The inverse mappings undo the forward ones, so a change to the
    /// scheme is made here and nowhere else.
    #[test]
    fn the_inverses_undo_the_scheme() {
        for (tree, url) in [("ja", "a/b/"), ("ja-en", ""), ("en", "メモ/")] {
            let page = format!("{tree}/{url}");
            assert_eq!(page_of(&page_path(tree, url)), Some(page.as_str()));
            assert_eq!(
                page_of(&listing_path(tree, url, 2)),
                Some(&*format!("{page}page/2/"))
            );
            assert_eq!(page_of(&page_twin_path(tree, url)), None);
        }
        assert_eq!(
            page_of(&evidence_path("en", "run.log")),
            Some("en/evidence/run.log/")
        );
        assert_eq!(page_of(&evidence_index_path("ja")), Some("ja/evidence/"));
        assert_eq!(page_of("index.html"), Some(""));
        assert_eq!(page_of("static/myindex.html"), None);
        for path in ["run.log", "capture/page.html"] {
            assert!(is_raw_evidence(&raw_evidence_path(path)));
        }
        assert!(!is_raw_evidence("ja/evidence/run.log/"));
        assert_eq!(under_base("/docs/", "/docs/ja/a/"), Some("ja/a/"));
        assert_eq!(under_base("/docs/", "/docs"), Some(""));
        assert_eq!(under_base("/docs/", "/docsx/"), None);
        assert_eq!(under_base("/", "/ja/"), Some("ja/"));
    }

    #[test]
    fn the_search_bundles_lie_in_the_language_trees() {
        assert_eq!(bundle_dir(Lang::Ja), "ja/pagefind");
        for inside in [
            "ja/pagefind",
            "en/pagefind/pagefind.js",
            "ja/pagefind/shard-1/x",
        ] {
            assert!(in_bundle(inside), "{inside}");
        }
        for outside in [
            "ja-en/pagefind/x",
            "ja/a/pagefind/index.html",
            "pagefind/x",
            "ja/pagefindx",
        ] {
            assert!(!in_bundle(outside), "{outside}");
        }
        assert_eq!(lang_tree("en/a/index.html"), Some(Lang::En));
        assert_eq!(lang_tree("ja-en/a/index.html"), None);
        assert_eq!(lang_tree("ja"), None);
    }
}
