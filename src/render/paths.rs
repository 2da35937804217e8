//! The site's URL scheme, in one place: where a page, a listing page, an
//! evidence file and a Markdown twin are published and linked from. Pages,
//! twins, the evidence pages and RO-Crate all take their URLs from here.

use crate::content::Outline;
use crate::lang::Lang;

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
pub(in crate::render) fn evidence_href(
    base: &str,
    tree: impl std::fmt::Display,
    path: &str,
) -> String {
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
        format!("evidence/{path}.txt")
    } else {
        format!("evidence/{path}")
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
