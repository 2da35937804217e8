//! Integration tests of `kansoku::site::build` over fixture sites.
//!
//! Structure is asserted with plain asserts (files, ids, classes, links);
//! HTML wording is left to the `<main>` snapshots, which the theme's authors
//! re-accept when they change templates.

use crate::common;

use common::{duplicate_ids, elements, ftl, SiteTest};

/// Every page of the basic fixture: (source, URL path under a tree).
const BASIC_PAGES: [(&str, &str); 3] = [
    ("_index.md", ""),
    ("notes/_index.md", "notes/"),
    ("notes/page.md", "notes/page/"),
];

const CLASSES: [&str; 4] = ["confirmed", "inferred", "unresolved", "limited"];

fn basic() -> SiteTest {
    let mut t = SiteTest::from_fixture("basic");
    t.build();
    t
}

fn page_file(tree: &str, url_path: &str) -> String {
    format!("{tree}/{url_path}index.html")
}

/// Turns a site-absolute href (`/ja/evidence/x/#L7`) into the output file it
/// names and its fragment.
fn resolve(href: &str) -> (String, Option<String>) {
    let (path, frag) = match href.split_once('#') {
        // Browsers percent-decode a fragment before matching it to an id.
        Some((p, f)) => (p, Some(percent_decode(f))),
        None => (href, None),
    };
    let path = path
        .strip_prefix('/')
        .unwrap_or_else(|| panic!("href {href} is not site-absolute"));
    let file = if path.is_empty() || path.ends_with('/') {
        format!("{path}index.html")
    } else {
        path.to_owned()
    };
    (file, frag)
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |j: usize| b.get(j).and_then(|&c| (c as char).to_digit(16));
        match (b[i], hex(i + 1), hex(i + 2)) {
            (b'%', Some(h), Some(l)) => {
                out.push(u8::try_from(h * 16 + l).expect("two hex digits fit a byte"));
                i += 3;
            }
            (c, _, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8(out).expect("fragments decode to UTF-8")
}

fn hrefs(html: &str) -> Vec<&str> {
    html.match_indices("href=\"")
        .map(|(i, m)| {
            let rest = &html[i + m.len()..];
            &rest[..rest.find('"').expect("attribute is closed")]
        })
        .collect()
}

fn claims_json(t: &SiteTest) -> Vec<serde_json::Value> {
    let v: serde_json::Value =
        serde_json::from_str(&t.read("claims.json")).expect("claims.json is JSON");
    assert_eq!(v["version"], 3, "claims.json names its format version");
    v["claims"]
        .as_array()
        .expect("claims.json has a `claims` array")
        .clone()
}

fn s<'a>(v: &'a serde_json::Value, key: &str) -> &'a str {
    v[key]
        .as_str()
        .unwrap_or_else(|| panic!("{key} is a string in {v}"))
}

#[test]
fn basic_every_page_exists_in_both_languages_and_the_parallel_view() {
    let mut t = basic();
    for (_, url) in BASIC_PAGES {
        t.assert_file_contains(&page_file("ja", url), "<html lang=\"ja\">")
            .assert_file_contains(&page_file("en", url), "<html lang=\"en\">")
            .assert_file_exists(&page_file("ja-en", url));
        for tree in ["ja", "en", "ja-en"] {
            let file = page_file(tree, url);
            let html = t.read(&file);
            for lang in ["ja", "en"] {
                let alt = format!("<link rel=\"alternate\" hreflang=\"{lang}\" href=\"https://example.org/{lang}/{url}\">");
                assert!(
                    html.contains(&alt),
                    "{file} lacks the {lang} alternate {alt}"
                );
            }
            // The switcher reaches the same page in every tree.
            for target in ["ja", "en", "ja-en"] {
                let href = format!("href=\"/{target}/{url}\"");
                assert!(html.contains(&href), "{file} has no switcher link {href}");
            }
            assert_eq!(
                duplicate_ids(&html),
                Vec::<String>::new(),
                "{file} repeats ids"
            );
        }
    }
    // The parallel view's chrome is in the default language (ja) and each
    // column says which language it is in.
    let par = t.main_of("ja-en/notes/page/index.html");
    assert!(
        par.contains("lang=\"ja\"") && par.contains("lang=\"en\""),
        "parallel columns carry lang: {par}"
    );
    assert!(par.contains("The runner was run with 4 threads requested."));
    assert!(par.contains("ランナーを 4 スレッドの指定で動かした。"));
}

#[test]
fn basic_report_counts_pages_claims_and_the_untranslated_warning() {
    let t = basic();
    let r = t.report();
    assert_eq!(r.pages, 3);
    assert_eq!(
        r.claims.map(|(c, n)| (c.name(), n)),
        [
            ("confirmed", 1),
            ("inferred", 1),
            ("unresolved", 1),
            ("limited", 1)
        ]
    );
    assert_eq!(r.evidence_files, 1);
    assert!(
        r.summary().starts_with("built 3 pages × 2 languages"),
        "{}",
        r.summary()
    );
    // The lone `::: en` block is a warning in build mode, not an error.
    let warnings: Vec<String> = r.warnings.iter().map(ToString::to_string).collect();
    assert_eq!(
        warnings,
        [
            r#"content/notes/page.md:73:1: warning[E032]: untranslated segment: this `::: en` block has no `::: ja` partner
   |
73 | ::: en
   | ^^^^^^
  = hint: add a `::: ja` block right after this one"#
        ]
    );
}

#[test]
fn basic_untranslated_segment_is_shown_with_a_notice() {
    let t = basic();
    let para = "This paragraph exists only in English.";
    // In the ja page the English-only block is shown, with the ja notice.
    let ja_notice = ftl("ja", "untranslated-notice", Some("en"));
    let ja = t.main_of("ja/notes/page/index.html");
    // The innermost element around the English-only paragraph.
    let block = elements(&ja, "div")
        .into_iter()
        .filter(|d| d.contains(para))
        .min_by_key(|d| d.len())
        .expect("block");
    assert!(
        block.contains(&ja_notice),
        "no notice {ja_notice:?} next to the English-only block: {block}"
    );
    assert!(
        block.contains("lang=\"en\""),
        "the English-only block is not marked lang=en: {block}"
    );
    assert_eq!(
        ja.matches(&ja_notice).count(),
        1,
        "exactly one untranslated notice in ja"
    );
    // In the en page it is ordinary text: no notice in either language.
    let en = t.main_of("en/notes/page/index.html");
    assert!(en.contains(para));
    assert!(
        !en.contains(&ja_notice) && !en.contains(&ftl("en", "untranslated-notice", Some("en"))),
        "{en}"
    );
    // The parallel view shows it in its column and a notice in the other.
    let par = t.main_of("ja-en/notes/page/index.html");
    assert!(par.contains(para) && par.contains(&ja_notice), "{par}");
}

#[test]
fn basic_page_links_are_rewritten_to_the_same_language() {
    let t = basic();
    for tree in ["ja", "en", "ja-en"] {
        // `../_index.md` from notes/page.md is the home page of the same tree.
        let main = t.main_of(&page_file(tree, "notes/page/"));
        assert!(
            main.contains(&format!("href=\"/{tree}/\"")),
            "{tree}: ../_index.md not rewritten: {main}"
        );
        // `page.md` from notes/_index.md, and `notes/_index.md` from the home.
        assert!(t
            .main_of(&page_file(tree, "notes/"))
            .contains(&format!("href=\"/{tree}/notes/page/\"")));
        assert!(t
            .main_of(&page_file(tree, ""))
            .contains(&format!("href=\"/{tree}/notes/\"")));
    }
    // Anchors survive the rewrite (percent-encoded in the href for non-ASCII).
    assert!(t
        .main_of("en/notes/index.html")
        .contains("href=\"/en/notes/page/#summary\""));
    assert!(t
        .main_of("ja/notes/index.html")
        .contains("href=\"/ja/notes/page/#%E6%A6%82%E8%A6%81\""));
    // No source-form link survives anywhere, and every site-absolute link in
    // every page lands on a file that was written.
    for (path, bytes) in t.tree().0 {
        if !path.ends_with(".html") {
            continue;
        }
        let html = String::from_utf8(bytes).expect("pages are UTF-8");
        for href in hrefs(&html) {
            // A page's Markdown twin (`index.md`, issue 28) is output, not
            // a source: it is linked from the head and must exist.
            let twin = href.ends_with("/index.md") && t.exists(resolve(href).0.as_str());
            assert!(
                twin || !href.contains(".md"),
                "{path} links a source file: {href}"
            );
            if href.starts_with('/') && !href.starts_with("//") {
                let (target, frag) = resolve(href);
                assert!(t.exists(&target), "{path}: {href} -> missing {target}");
                if let Some(frag) = frag.filter(|f| !f.is_empty()) {
                    assert!(
                        t.read(&target).contains(&format!(" id=\"{frag}\"")),
                        "{path}: {href}: no id {frag} in {target}"
                    );
                }
            }
        }
    }
}

/// Every site-absolute href and src in every page of `t`'s output.
fn all_links(t: &SiteTest) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (path, bytes) in t.tree().0 {
        if path.ends_with(".html") {
            let html = String::from_utf8(bytes).expect("pages are UTF-8");
            for href in hrefs(&html) {
                out.push((path.clone(), href.to_owned()));
            }
        }
    }
    out
}

#[test]
fn site_url_base_path_prefixes_every_link() {
    let mut t = SiteTest::from_fixture("basic");
    t.edit(
        "book.toml",
        "site-url = \"https://example.org/\"",
        "site-url = \"https://example.org/sub/\"",
    )
    .build();
    let links = all_links(&t);
    assert!(links.len() > 100, "{}", links.len());
    for (path, href) in links {
        if href.starts_with('#') {
            continue;
        }
        let rest = href
            .strip_prefix("/sub/")
            .or_else(|| href.strip_prefix("https://example.org/sub/"))
            .unwrap_or_else(|| panic!("{path}: {href} ignores the base path /sub/"));
        let (target, _) = resolve(&format!("/{rest}"));
        assert!(t.exists(&target), "{path}: {href} -> missing {target}");
    }
    t.assert_file_contains(
        "sitemap.xml",
        "<loc>https://example.org/sub/en/notes/page/</loc>",
    );
}

#[test]
fn english_as_default_language_leads_the_chrome_and_x_default() {
    let mut t = SiteTest::from_fixture("basic");
    t.edit(
        "book.toml",
        "languages = [\"ja\", \"en\"]",
        "languages = [\"en\", \"ja\"]",
    )
    .build();
    for f in ["index.html", "404.html", "ja-en/notes/page/index.html"] {
        t.assert_file_contains(f, "<html lang=\"en\">");
    }
    for tree in ["ja", "en"] {
        t.assert_file_contains(
            &page_file(tree, "notes/"),
            "<link rel=\"alternate\" hreflang=\"x-default\" href=\"https://example.org/en/notes/\">",
        );
    }
    // Shared segments of the parallel view speak the default language.
    let par = t.main_of("ja-en/notes/page/index.html");
    let shared = elements(&par, "table")
        .into_iter()
        .next()
        .expect("shared table");
    assert!(
        shared.contains("The runner started with one thread."),
        "{shared}"
    );
    t.assert_file_contains("ja/notes/page/index.html", "<html lang=\"ja\">");
}

#[test]
fn basic_sitemap_has_hreflang_alternates() {
    let t = basic();
    let xml = t.read("sitemap.xml");
    assert!(xml.starts_with("<?xml"), "{xml}");
    let urls: Vec<&str> = xml.split("<url>").skip(1).collect();
    assert_eq!(
        urls.len(),
        BASIC_PAGES.len() * 2,
        "one <url> per page and language: {xml}"
    );
    for (_, path) in BASIC_PAGES {
        for lang in ["ja", "en"] {
            let loc = format!("<loc>https://example.org/{lang}/{path}</loc>");
            let entry = urls
                .iter()
                .find(|u| u.contains(&loc))
                .unwrap_or_else(|| panic!("no {loc}"));
            for alt in ["ja", "en"] {
                let link = format!("<xhtml:link rel=\"alternate\" hreflang=\"{alt}\" href=\"https://example.org/{alt}/{path}\"/>");
                assert!(entry.contains(&link), "{loc} lacks {link}");
            }
        }
    }
    assert!(
        xml.contains("<lastmod>2026-01-15</lastmod>"),
        "page.md's `updated` is its lastmod"
    );
}

/// A sitemap lists full addresses: without an absolute `site-url` there
/// is none, and the build says why (issue 14).
#[test]
fn no_sitemap_without_an_absolute_site_url() {
    let mut t = SiteTest::from_fixture("basic");
    t.edit(
        "book.toml",
        "site-url = \"https://example.org/\"",
        "site-url = \"/docs/\"",
    )
    .build();
    assert!(!t.exists("sitemap.xml"));
    // (The fixture's other warning, an untranslated segment, is left out.)
    let warnings: Vec<String> = t
        .report()
        .warnings
        .iter()
        .filter(|d| d.code != "E032")
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        warnings,
        ["book.toml:11:12: warning[W041]: site-url \"/docs/\" is not an absolute URL, so no sitemap.xml is written\n  = hint: a sitemap lists full addresses: set `site-url` under [output.html] to where the site is published (e.g. \"https://example.org/docs/\"), or build with --base-url"]
    );
    // An absolute --base-url gives the sitemap its addresses.
    let report = crate::common::build_with(
        t.root(),
        kansoku::site::BuildOptions {
            base_url: Some("https://example.org/docs/".into()),
            ..Default::default()
        },
    )
    .expect("builds");
    assert!(
        report.warnings.iter().all(|d| d.code != "W041"),
        "{:?}",
        report.warnings
    );
    assert!(t
        .read("sitemap.xml")
        .contains("<loc>https://example.org/docs/ja/notes/page/</loc>"));
}

#[test]
fn basic_site_files_exist() {
    let mut t = basic();
    t.assert_file_contains("index.html", "href=\"/ja/\"")
        .assert_file_contains("index.html", "href=\"/en/\"")
        .assert_file_contains("index.html", "href=\"/ja-en/\"")
        .assert_file_contains("404.html", "<html lang=\"ja\">")
        .assert_file_exists("static/kansoku.css")
        .assert_file_exists("static/syntax.css")
        .assert_file_exists("claims.json")
        .assert_file_exists("sitemap.xml");
    // The chooser works without JavaScript: plain links, no refresh trick.
    t.assert_file_not_contains("index.html", "http-equiv=\"refresh\"");
    assert!(t.leftovers().is_empty(), "{:?}", t.leftovers());
}

#[test]
fn basic_output_file_list() {
    let mut t = SiteTest::from_fixture("basic");
    t.build_searched();
    // Pagefind names its fragment, index and meta files after a hash of
    // their contents: keep the shape, not the hash, so a template change
    // does not churn this list (tests/it/search.rs covers the bundle itself).
    let paths: Vec<String> = t
        .tree()
        .paths()
        .iter()
        .map(|p| match p.split_once("/pagefind/") {
            Some((lang, rest)) if rest.contains('_') || rest.contains(".pf_meta") => {
                let dir = rest.rsplit_once('/').map_or("", |(d, _)| d);
                let ext = rest.rsplit_once('.').map_or("", |(_, e)| e);
                format!(
                    "{lang}/pagefind/{dir}{}*.{ext}",
                    if dir.is_empty() { "" } else { "/" }
                )
            }
            _ => (*p).to_owned(),
        })
        .collect();
    let mut paths = paths;
    paths.dedup();
    insta::assert_snapshot!("basic_output_file_list", paths.join("\n"));
}

#[test]
fn build_is_deterministic() {
    // Search on: the bundle must not depend on the path either.
    let searched = || {
        let mut t = SiteTest::from_fixture("basic");
        t.build_searched();
        t
    };
    let a = searched();
    let b = searched();
    assert_ne!(a.root(), b.root());
    a.tree()
        .assert_same(&b.tree(), "two builds of the basic fixture");
    // And rebuilding in place gives the same bytes again.
    let mut a = a;
    let first = a.tree();
    a.build_searched();
    first.assert_same(&a.tree(), "a rebuild in place");
}

#[test]
fn rebuild_picks_up_an_edit() {
    let mut t = basic();
    t.assert_file_contains(
        "en/notes/page/index.html",
        "The runner started with one thread.",
    );
    t.edit(
        "content/notes/page.md",
        "The runner started with one thread.",
        "The runner started with exactly one thread.",
    )
    .build()
    .assert_file_contains(
        "en/notes/page/index.html",
        "The runner started with exactly one thread.",
    )
    .assert_file_contains(
        "en/notes/index.html",
        "The runner started with exactly one thread.",
    )
    .assert_file_not_contains(
        "en/notes/page/index.html",
        "The runner started with one thread.",
    );
    assert!(t.leftovers().is_empty(), "{:?}", t.leftovers());
}

#[test]
fn failed_rebuild_leaves_the_previous_output_untouched() {
    let mut t = basic();
    let before = t.tree();
    assert!(!before.0.is_empty());
    t.edit(
        "content/notes/page.md",
        "::: en\nThis paragraph",
        "::: en\nThis paragraph\n\n::: ja\nnested",
    );
    let err = t.build_err();
    assert!(matches!(err, kansoku::Error::Content(_)), "{err}");
    before.assert_same(&t.tree(), "public/ after a failed rebuild");
    assert!(t.leftovers().is_empty(), "{:?}", t.leftovers());
}

#[test]
fn main_snapshots_of_a_small_page() {
    let t = basic();
    insta::assert_snapshot!("notes_index_main_ja", t.main_of("ja/notes/index.html"));
    insta::assert_snapshot!("notes_index_main_en", t.main_of("en/notes/index.html"));
    insta::assert_snapshot!(
        "notes_index_main_ja_en",
        t.main_of("ja-en/notes/index.html")
    );
}

mod claims;
mod pages;
