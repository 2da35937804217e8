//! Integration tests of `kansoku::site::build` over fixture sites.
//!
//! Structure is asserted with plain asserts (files, ids, classes, links);
//! HTML wording is left to the `<main>` snapshots, which the theme's authors
//! re-accept when they change templates.

use crate::common;

use common::{duplicate_ids, element_by_id, elements, escape, ftl, SiteTest, Tree};

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
fn basic_every_claim_has_badge_text_and_evidence_link_in_both_languages() {
    let t = basic();
    let claims = claims_json(&t);
    assert_eq!(claims.len(), 4);
    for claim in &claims {
        let id = s(claim, "id");
        let class = s(claim, "class");
        for lang in ["ja", "en"] {
            let file = page_file(lang, "notes/page/");
            let html = t.read(&file);
            let anchor = format!("claim-{id}");
            let item = element_by_id(&html, &anchor)
                .unwrap_or_else(|| panic!("{file} has no element #{anchor}"));
            assert!(
                item.contains(&format!("badge--{class}")),
                "{file} #{anchor} has no badge--{class}: {item}"
            );
            let label = ftl(lang, &format!("class-{class}"), None);
            assert!(
                item.contains(&format!(">{label}<")),
                "{file} #{anchor} lacks the label {label:?}: {item}"
            );
            let text = escape(s(&claim["text"], lang));
            assert!(
                item.contains(&text),
                "{file} #{anchor} lacks its {lang} text {text:?}"
            );
            let other = escape(s(&claim["text"], if lang == "ja" { "en" } else { "ja" }));
            assert!(
                !item.contains(&other),
                "{file} #{anchor} shows the other language's text"
            );
            // Every evidence link of the claim is in the item and lands on an
            // existing evidence page holding the anchor.
            for ev in claim["evidence"].as_array().expect("evidence is a list") {
                let url = s(&ev["url"], lang);
                assert!(
                    url.starts_with(&format!("/{lang}/evidence/")),
                    "{url} is not in the {lang} tree"
                );
                assert!(
                    item.contains(&format!("href=\"{url}\"")),
                    "{file} #{anchor} does not link {url}"
                );
                let (target, frag) = resolve(url);
                assert!(t.exists(&target), "{url} -> {target} does not exist");
                if let Some(frag) = frag {
                    let page = t.read(&target);
                    assert!(
                        page.contains(&format!(" id=\"{frag}\"")),
                        "{target} has no id {frag}"
                    );
                }
            }
        }
        // The parallel view lists the claim once, with both texts.
        let par = t.read(&page_file("ja-en", "notes/page/"));
        let item = element_by_id(&par, &format!("claim-{id}"))
            .unwrap_or_else(|| panic!("ja-en lacks claim-{id}"));
        assert!(
            item.contains(&escape(s(&claim["text"], "ja")))
                && item.contains(&escape(s(&claim["text"], "en")))
        );
        assert!(item.contains(&format!("badge--{class}")));
    }
}

#[test]
fn basic_claim_references_render_inline_in_tables_and_lists() {
    let t = basic();
    for lang in ["ja", "en"] {
        let main = t.main_of(&page_file(lang, "notes/page/"));
        assert!(
            !main.contains("[[claim:"),
            "an unrendered claim reference is left in {lang}"
        );
        let text = |ja: &str, en: &str| escape(if lang == "ja" { ja } else { en });
        let started = text(
            "ランナーは 1 本のスレッドで起動した。",
            "The runner started with one thread.",
        );
        let fallback = text(
            "入力が小さいとランナーは分割しない。",
            "The runner does not split small inputs.",
        );
        let threshold = text(
            "分割が始まる入力サイズはまだ分からない。",
            "The input size at which splitting starts is not known yet.",
        );
        let trace = text(
            "ログには起動時の行しか残らない。",
            "The log keeps only the start-up lines.",
        );
        let intro = text(
            "ランナーを 4 スレッドの指定で動かした。",
            "The runner was run with 4 threads requested.",
        );

        // Inline, inside the paragraph that mentions it.
        let para = elements(&main, "p")
            .into_iter()
            .find(|p| p.contains(&intro))
            .expect("intro paragraph");
        assert!(
            para.contains(&started) && para.contains("badge--confirmed"),
            "inline claim missing: {para}"
        );

        // In the body's table (the first table; the scope table comes later).
        let table = elements(&main, "table")
            .into_iter()
            .next()
            .expect("body table");
        let cells = elements(table, "td");
        assert!(
            cells
                .iter()
                .any(|c| c.contains(&started) && c.contains("badge--confirmed")),
            "{table}"
        );
        assert!(
            cells
                .iter()
                .any(|c| c.contains(&fallback) && c.contains("badge--inferred")),
            "{table}"
        );

        // In list items of the body (not the page's claim list).
        let items: Vec<&str> = elements(&main, "li")
            .into_iter()
            .filter(|li| !li.contains("claim-item"))
            .collect();
        assert!(
            items
                .iter()
                .any(|li| li.contains(&threshold) && li.contains("badge--unresolved")),
            "{items:?}"
        );
        assert!(
            items
                .iter()
                .any(|li| li.contains(&trace) && li.contains("badge--limited")),
            "{items:?}"
        );
    }
}

#[test]
fn basic_cited_range_marks_exactly_lines_7_to_12() {
    let t = basic();
    for lang in ["ja", "en"] {
        let file = format!("{lang}/evidence/logs/run.log/index.html");
        let html = t.read(&file);
        // One element per line, L1..L16, and nothing past the end.
        for n in 1..=16 {
            assert!(
                html.contains(&format!(" id=\"L{n}\"")),
                "{file} lacks line L{n}"
            );
        }
        assert!(
            !html.contains(" id=\"L17\""),
            "{file} has a line past the end"
        );
        let line7 = element_by_id(&html, "L7").expect("line 7");
        assert!(
            line7.contains("line 7: threads requested: 4"),
            "line numbers count after the header: {line7}"
        );
        let line13 = element_by_id(&html, "L13").expect("line 13");
        assert!(line13.contains("line 13: warning"), "{line13}");

        // The range target sits on line 7 and nowhere else.
        assert_eq!(html.matches(" id=\"L7-L12\"").count(), 1, "{file}");
        assert!(
            line7.contains(" id=\"L7-L12\""),
            "the L7-L12 target is not inside line 7: {line7}"
        );

        // The head's CSS marks lines 7..=12 when #L7-L12 is targeted: the rule
        // naming #L7-L12 selects children n+7 through -n+12, i.e. not 13.
        let style = elements(&html, "style")
            .into_iter()
            .next()
            .unwrap_or_else(|| panic!("{file} has no <style>"));
        let head_end = html.find("</head>").expect("head");
        assert!(
            html.find("<style").expect("style") < head_end,
            "the range CSS is not in <head>"
        );
        let rules: Vec<&str> = style.lines().filter(|l| l.contains("#L7-L12")).collect();
        assert_eq!(rules.len(), 1, "one rule for L7-L12: {style}");
        let rule = rules[0];
        assert!(rule.contains(":target"), "{rule}");
        assert!(
            rule.contains(":nth-child(n+7)") && rule.contains(":nth-child(-n+12)"),
            "range must be lines 7..=12: {rule}"
        );
        assert!(!rule.contains("-n+13") && !rule.contains("n+6)"), "{rule}");
        // The only other cited range is L3-L4 (from `lines = "3-4"`); the
        // single-line link #L13 needs no rule.
        let targeted: Vec<&str> = style.lines().filter(|l| l.contains(":target")).collect();
        assert_eq!(targeted.len(), 2, "{style}");
        assert!(style.contains("#L3-L4:target"), "{style}");
        assert!(!style.contains("#L13"), "{style}");
    }
}

#[test]
fn basic_evidence_page_shows_header_cited_by_and_raw_copy() {
    let mut t = basic();
    let raw = std::fs::read(common::fixture("basic/evidence/logs/run.log")).expect("fixture log");
    assert_eq!(
        std::fs::read(t.out_path("evidence/logs/run.log")).expect("raw copy"),
        raw,
        "raw evidence bytes"
    );
    for lang in ["ja", "en"] {
        let file = format!("{lang}/evidence/logs/run.log/index.html");
        t.assert_file_contains(&file, "./runner --threads 4 numbers.txt")
            .assert_file_contains(&file, "test-host")
            .assert_file_contains(&file, "href=\"/evidence/logs/run.log\"");
        // Cited by all four claims, each linking back to its page anchor.
        for id in [
            "runner-started",
            "runner-fallback",
            "runner-threshold",
            "runner-trace",
        ] {
            t.assert_file_contains(&file, &format!("href=\"/{lang}/notes/page/#claim-{id}\""));
        }
        t.assert_file_contains(
            &format!("{lang}/evidence/index.html"),
            &format!("href=\"/{lang}/evidence/logs/run.log/\""),
        );
    }
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
fn basic_code_blocks_and_language_blocks_render() {
    let t = basic();
    for lang in ["ja", "en"] {
        let main = t.main_of(&page_file(lang, "notes/page/"));
        let pre = elements(&main, "pre")
            .into_iter()
            .next()
            .expect("the ```log block");
        assert!(
            pre.contains("threads requested:") && pre.contains("threads started:"),
            "{pre}"
        );
        assert!(
            !main.contains(":::"),
            "a fenced-div line leaked into {lang}: {main}"
        );
        // Only this language's side of a pair.
        let (mine, theirs) = if lang == "ja" {
            ("概要", "Summary")
        } else {
            ("Summary", "概要")
        };
        assert!(
            main.contains(mine) && !main.contains(&format!(">{theirs}<")),
            "{lang} pair"
        );
    }
}

#[test]
fn basic_claims_json_lists_every_claim() {
    let t = basic();
    let claims = claims_json(&t);
    let got: Vec<(&str, &str, &str)> = claims
        .iter()
        .map(|c| (s(c, "id"), s(c, "class"), s(c, "page")))
        .collect();
    let page = "content/notes/page.md";
    assert_eq!(
        got,
        [
            ("runner-started", "confirmed", page),
            ("runner-fallback", "inferred", page),
            ("runner-threshold", "unresolved", page),
            ("runner-trace", "limited", page)
        ]
    );
    let started = &claims[0];
    assert_eq!(
        s(&started["text"], "ja"),
        "ランナーは 1 本のスレッドで起動した。"
    );
    assert_eq!(
        s(&started["text"], "en"),
        "The runner started with one thread."
    );
    assert_eq!(started["evidence"][0]["path"], "logs/run.log");
    assert_eq!(started["evidence"][0]["lines"], serde_json::json!([7, 12]));
    assert_eq!(
        s(&started["url"], "en"),
        "/en/notes/page/#claim-runner-started"
    );
    assert_eq!(claims[1]["from"], serde_json::json!(["runner-started"]));
    assert_eq!(claims[2]["evidence"][0]["quote"], "input: numbers.txt");
    assert_eq!(claims[3]["evidence"][0]["lines"], serde_json::Value::Null);
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
    let report = kansoku::site::build_with(
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
    let t = basic();
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
    let a = basic();
    let b = basic();
    assert_ne!(a.root(), b.root());
    a.tree()
        .assert_same(&b.tree(), "two builds of the basic fixture");
    // And rebuilding in place gives the same bytes again.
    let mut a = a;
    let first = a.tree();
    a.build();
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

#[test]
fn override_template_and_messages_win_over_the_embedded_theme() {
    let mut t = SiteTest::from_fixture("override");
    t.build();
    for lang in ["ja", "en"] {
        t.assert_file_contains(
            &format!("{lang}/index.html"),
            &format!("OVERRIDE-MARKER page.html lang={lang}"),
        )
        // The override extends the embedded base.html.
        .assert_file_contains(
            &format!("{lang}/index.html"),
            &format!("<html lang=\"{lang}\">"),
        )
        // The body still renders through the override.
        .assert_file_contains(
            &format!("{lang}/index.html"),
            if lang == "ja" {
                "上書きの本文。"
            } else {
                "Override body."
            },
        );
    }
    // Fluent messages override one by one: en is replaced, ja keeps the default.
    t.assert_file_contains("en/index.html", "Claims, as the site says")
        .assert_file_contains("ja/index.html", &ftl("ja", "claims-title", None));
    // Other templates are still the embedded ones.
    t.assert_file_not_contains("ja-en/index.html", "OVERRIDE-MARKER");
    // A site's static file replaces the embedded one of the same name.
    assert_eq!(
        t.read("static/kansoku.css"),
        "/* OVERRIDE-MARKER kansoku.css */\n"
    );
}

/// SPEC §3.3 fixes the Japanese class labels; the theme must use them.
#[test]
fn japanese_class_labels_follow_the_spec() {
    let got: Vec<String> = CLASSES
        .iter()
        .map(|c| ftl("ja", &format!("class-{c}"), None))
        .collect();
    assert_eq!(got, ["確認済み", "推論", "未確定", "制約あり"]);
}

#[test]
fn heading_ids_do_not_collide_with_theme_ids() {
    let mut t = SiteTest::from_fixture("basic");
    t.write(
        "content/notes/ids.md",
        "+++\ntitle = \"ids\"\n+++\n\n# Main\n\n## Site nav\n\n## Kansoku claims\n",
    )
    .build();
    for tree in ["ja", "en", "ja-en"] {
        let html = t.read(&page_file(tree, "notes/ids/"));
        assert_eq!(
            duplicate_ids(&html),
            Vec::<String>::new(),
            "{tree}/notes/ids/"
        );
    }
}

#[test]
fn parallel_view_footnotes_have_unique_ids() {
    let mut t = SiteTest::from_fixture("basic");
    t.write(
        "content/notes/fn.md",
        "+++\ntitle = \"fn\"\n+++\n\n::: ja\n日本語[^1]。\n\n[^1]: 注。\n:::\n::: en\nEnglish[^1].\n\n[^1]: Note.\n:::\n",
    )
    .build();
    let html = t.read("ja-en/notes/fn/index.html");
    assert_eq!(duplicate_ids(&html), Vec::<String>::new());
}

#[test]
fn claim_refs_and_page_links_inside_headings_are_rendered() {
    let mut t = SiteTest::from_fixture("basic");
    t.write(
        "content/notes/h.md",
        "+++\ntitle = \"h\"\n+++\n\n## Result [[claim:runner-started]]\n\n## See [the page](page.md)\n",
    )
    .build();
    for tree in ["ja", "en", "ja-en"] {
        let main = t.main_of(&page_file(tree, "notes/h/"));
        let heads = elements(&main, "h2");
        assert!(
            heads[0].contains("badge--confirmed"),
            "{tree}: {}",
            heads[0]
        );
        assert!(!main.contains("href=\"claim:"), "{tree}: {main}");
        assert!(
            heads[1].contains(&format!("href=\"/{tree}/notes/page/\"")),
            "{tree}: {}",
            heads[1]
        );
    }
}

#[test]
fn untouched_tree_helper_sees_a_one_byte_change() {
    // The harness itself: a "same tree" assertion must catch a tiny change.
    let t = basic();
    let before = t.tree();
    let mut after = before.clone();
    let file = after.0.get_mut("claims.json").expect("claims.json");
    file.push(b' ');
    assert_ne!(before, after);
    let caught = std::panic::catch_unwind(|| before.assert_same(&after, "edited"));
    assert!(caught.is_err());
    assert_eq!(Tree::of(&t.root().join("no-such-dir")), Tree::default());
}

/// `repeat-inline-claims = false`: a claim the text shows in a language is
/// not listed again at the end of that language's page; its first
/// appearance in the text carries its anchor, so links still land on it.
#[test]
fn a_page_can_leave_inline_claims_out_of_its_list() {
    const PAGE: &str = r#"+++
title = { ja = "本文の主張", en = "Claims in the text" }
repeat-inline-claims = false

[[claims]]
id = "inline-both"
class = "confirmed"
ja = "両方の言語で本文に出る。"
en = "Shown in the text in both languages."
evidence = ["logs/run.log#L7"]

[[claims]]
id = "inline-ja"
class = "inferred"
ja = "日本語の本文だけに出る。"
en = "Shown in the Japanese text only."
evidence = ["logs/run.log#L13"]

[[claims]]
id = "listed-only"
class = "limited"
ja = "本文には出ない。"
en = "Not shown in the text."
evidence = ["logs/run.log"]
+++

::: ja
本文。[[claim:inline-both]] と [[claim:inline-ja]]。もう一度 [[claim:inline-both]]。
:::
::: en
Text. [[claim:inline-both]]
:::
"#;
    let mut t = SiteTest::from_fixture("basic");
    t.write("content/notes/inline.md", PAGE).build();
    let listed = |t: &SiteTest, file: &str| -> Vec<String> {
        let html = t.read(file);
        let list = &html[html.find("<ul class=\"claim-list").expect("a claim list")..];
        let list = &list[..list.find("</ul>").expect("the list ends")];
        elements(list, "li")
            .iter()
            .filter_map(|li| {
                let id = li.split_once(" id=\"")?.1;
                Some(id[..id.find('"')?].to_owned())
            })
            .collect()
    };
    // Shown inline in Japanese only: listed on the English page and, since
    // the parallel lists pair the languages, on the parallel page.
    assert_eq!(
        listed(&t, "ja/notes/inline/index.html"),
        ["claim-listed-only"]
    );
    assert_eq!(
        listed(&t, "en/notes/inline/index.html"),
        ["claim-inline-ja", "claim-listed-only"]
    );
    assert_eq!(
        listed(&t, "ja-en/notes/inline/index.html"),
        ["claim-inline-ja", "claim-listed-only"]
    );
    for file in [
        "ja/notes/inline/index.html",
        "en/notes/inline/index.html",
        "ja-en/notes/inline/index.html",
    ] {
        let html = t.read(file);
        assert_eq!(duplicate_ids(&html), Vec::<String>::new(), "{file}");
        let anchor = element_by_id(&html, "claim-inline-both")
            .unwrap_or_else(|| panic!("{file} has no anchor for inline-both"));
        assert!(
            anchor.starts_with("<span class=\"claim-anchor\" id=\"claim-inline-both\">"),
            "{file}: {anchor}"
        );
    }
    let ja = t.read("ja/notes/inline/index.html");
    assert!(
        element_by_id(&ja, "claim-inline-ja")
            .is_some_and(|e| e.starts_with("<span class=\"claim-anchor\"")),
        "the Japanese text carries inline-ja's anchor"
    );
    // Without the switch every claim is listed, and none is anchored in
    // the text.
    t.edit(
        "content/notes/inline.md",
        "repeat-inline-claims = false\n",
        "",
    )
    .build();
    assert_eq!(
        listed(&t, "ja/notes/inline/index.html"),
        ["claim-inline-both", "claim-inline-ja", "claim-listed-only"]
    );
    assert!(!t
        .read("ja/notes/inline/index.html")
        .contains("claim-anchor"));
}

/// Issue 25, point 5: `draft = true` keeps a page out of `build` (counted
/// in the summary), `--drafts` publishes it marked as a draft, a draft's
/// missing evidence is a warning, and a published page that refers to a
/// draft's claim is refused with a hint that says so.
#[test]
fn drafts_are_left_out_of_build_and_published_with_drafts_issue_25() {
    let mut t = SiteTest::from_fixture("basic");
    t.write(
        "content/notes/idea.md",
        "+++\ntitle = { ja = \"構想\", en = \"Idea\" }\ndraft = true\n\n[[claims]]\nid = \"idea-first\"\nclass = \"inferred\"\nja = \"まだ証拠がない。\"\nen = \"No evidence yet.\"\n\n[[claims]]\nid = \"idea-second\"\nclass = \"inferred\"\nja = \"証拠は後で。\"\nen = \"Evidence later.\"\nevidence = [\"logs/not-yet.log#L1\"]\n+++\n\n::: ja\n書きかけ。\n:::\n\n::: en\nWork in progress.\n:::\n",
    );
    let report = kansoku::site::build_with(
        t.root(),
        kansoku::site::BuildOptions {
            search: false,
            ..Default::default()
        },
    )
    .expect("a draft never stops the build");
    assert_eq!(report.drafts, 1);
    assert!(
        report.summary().starts_with(&format!(
            "built {} pages × 2 languages (+ parallel view) · 1 draft left out · claims:",
            report.pages
        )),
        "{}",
        report.summary()
    );
    assert!(!t.exists("en/notes/idea/index.html"), "left out");
    assert!(!t.read("claims.json").contains("idea-first"));

    let report = kansoku::site::build_with(
        t.root(),
        kansoku::site::BuildOptions {
            search: false,
            drafts: true,
            ..Default::default()
        },
    )
    .expect("--drafts builds");
    assert_eq!(report.drafts, 0);
    let codes: Vec<(&str, String)> = report
        .warnings
        .iter()
        .filter(|d| d.location.path == "content/notes/idea.md")
        .map(|d| (d.code, d.location.to_string()))
        .collect();
    assert_eq!(
        codes,
        [
            ("E011", "content/notes/idea.md:6:6".to_owned()),
            ("E012", "content/notes/idea.md:16:13".to_owned())
        ],
        "missing evidence is a warning in a draft"
    );
    // Published with --drafts, its notice speaks to a reader, not to the
    // writer about kansoku's commands (issue 40, trial L8).
    let en = t.read("en/notes/idea/index.html");
    assert!(
        en.contains("<p class=\"draft-notice\" role=\"note\">Draft: this page is not final"),
        "{en}"
    );

    // A published page citing the draft's claim cannot be built without it.
    t.edit(
        "content/notes/page.md",
        "::: en\n",
        "::: en\n[[claim:idea-first]]\n",
    );
    let err = kansoku::site::build_with(
        t.root(),
        kansoku::site::BuildOptions {
            search: false,
            ..Default::default()
        },
    )
    .expect_err("refers to a draft");
    let text = err.to_string();
    assert!(
        text.contains("error[E020]: unknown claim `idea-first` in `[[claim:…]]`")
            && text.contains("= hint: it is on `content/notes/idea.md`, a draft this build leaves out: publish that page (remove `draft = true`), build with `--drafts`, or refer to it once it is published"),
        "{text}"
    );
}
