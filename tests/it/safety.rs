//! Hostile and odd input in a site's sources (issue 11, findings 8–11 and
//! 13): dot-files, symlinks, file names that cannot be URLs, control
//! characters reaching the terminal, a page with very many claims, raw HTML
//! and active URLs. Each test was written to fail on the code before the fix.

use crate::common;

use common::{json_findings, JsonFinding, SiteTest};
use kansoku::check::{self, Format};

fn clean() -> SiteTest {
    SiteTest::from_fixture("check/clean")
}

/// A valid page whose claim has the given id and whose title is `title`.
fn page(id: &str, title: &str) -> String {
    format!(
        "+++\ntitle = {{ ja = \"{title}\", en = \"{title}\" }}\n\n[[claims]]\nid = \"{id}\"\nclass = \"confirmed\"\nja = \"二行目。\"\nen = \"Line two.\"\nevidence = [\"logs/a.log#L2\"]\n+++\n\n::: ja\n本文。\n:::\n::: en\nBody.\n:::\n"
    )
}

fn keys(found: &[JsonFinding]) -> Vec<(&str, &str, &str, usize, usize)> {
    found.iter().map(JsonFinding::key).collect()
}

/// Every file of the last build, as `path` → text (lossy).
fn outputs(t: &SiteTest) -> Vec<(String, String)> {
    common::Tree::of(&t.out())
        .0
        .into_iter()
        .map(|(p, b)| (p, String::from_utf8_lossy(&b).into_owned()))
        .collect()
}

#[test]
fn dot_files_in_content_are_not_published_issue_11() {
    let mut t = clean();
    t.write("content/.hidden.md", &page("hidden-claim", "HIDDENPAGE"))
        .write(
            "content/.obsidian/x.md",
            &page("obsidian-claim", "OBSIDIANPAGE"),
        )
        .write("content/.trash/y.md", &page("trash-claim", "TRASHPAGE"))
        // Not even valid: a hidden file is never read.
        .write("content/.trash/broken.md", "+++\ntitle = \n");
    assert_eq!(json_findings(&t.check()), Vec::new());
    t.build();
    let out = outputs(&t);
    assert!(out.iter().any(|(p, _)| p == "en/page/index.html"));
    for (path, text) in &out {
        for word in [".hidden", "obsidian", "trash"] {
            assert!(!path.contains(word), "{path} was published");
        }
        for word in ["HIDDENPAGE", "OBSIDIANPAGE", "TRASHPAGE"] {
            assert!(!text.contains(word), "{path} mentions {word}");
        }
        for id in ["hidden-claim", "obsidian-claim", "trash-claim"] {
            assert!(!text.contains(id), "{path} mentions {id}");
        }
    }
}

/// Each name the issue lists, with the exact message `check` gives.
#[test]
fn odd_file_names_are_diagnosed_at_the_file_issue_11() {
    let cases = [
        ("a#b.md", "`#` starts a URL fragment"),
        ("a?b.md", "`?` starts a URL query"),
        ("a%2e.md", "`%` starts a percent-escape"),
        ("a\\b.md", "browsers read `\\` as `/`"),
        (
            "..md",
            "`..md` would be the URL segment `.`, which names no page",
        ),
        (
            "...md",
            "`...md` would be the URL segment `..`, which names no page",
        ),
    ];
    for (name, why) in cases {
        let mut t = clean();
        t.write(&format!("content/{name}"), &page("odd-claim", "Odd"));
        let path = format!("content/{name}");
        let found = json_findings(&t.check());
        assert_eq!(
            keys(&found),
            vec![("E060", "error", path.as_str(), 1, 1)],
            "{name}"
        );
        assert_eq!(
            found[0].message,
            format!("file name `{name}` cannot become a page URL: {why}")
        );
        assert_eq!(
            found[0].hint.as_deref(),
            Some("rename the file using letters, digits, `-`, `_` and `.` (a name is the page's URL)")
        );
        // A content error (exit 1) naming the file, never an I/O failure.
        match t.build_err() {
            kansoku::Error::Content(d) => assert_eq!(d[0].location.path, path),
            e => panic!("{name}: not a content error: {e}"),
        }
        assert!(!t.out().exists(), "{name}: build wrote public/");
    }
}

#[test]
fn a_directory_name_that_cannot_be_a_url_is_diagnosed_issue_11() {
    let mut t = clean();
    t.write("content/q?dir/p.md", &page("odd-claim", "Odd"));
    let found = json_findings(&t.check());
    assert_eq!(
        keys(&found),
        vec![("E060", "error", "content/q?dir/p.md", 1, 1)]
    );
}

#[test]
fn names_with_spaces_and_unicode_still_build_issue_11() {
    let mut t = clean();
    t.write("content/観測 ノート.md", &page("space-claim", "Space"));
    assert_eq!(json_findings(&t.check()), Vec::new());
    t.build();
    assert!(t.exists("en/観測 ノート/index.html"));
}

#[cfg(unix)]
#[test]
fn every_skipped_symlink_is_a_warning_issue_11() {
    let outside = crate::scratch::tempdir();
    std::fs::write(outside.path().join("s.log"), "outside\n").expect("write");
    let mut t = clean();
    t.write("static/real.css", "body{}\n")
        .write("templates/partials/x.html", "x\n");
    let link = |target: &std::path::Path, at: &str| {
        std::os::unix::fs::symlink(target, t.root().join(at)).expect("symlink");
    };
    link(std::path::Path::new("page.md"), "content/alias.md");
    link(std::path::Path::new("real.css"), "static/alias.css");
    link(std::path::Path::new("partials"), "templates/linked");
    link(std::path::Path::new("logs"), "evidence/logs-again");
    link(&outside.path().join("s.log"), "evidence/logs/out.log");
    let found = json_findings(&t.check());
    let mut got: Vec<(&str, &str)> = found
        .iter()
        .map(|f| (f.code.as_str(), f.path.as_str()))
        .collect();
    got.sort();
    assert_eq!(
        got,
        vec![
            ("W060", "content/alias.md"),
            ("W060", "evidence/logs-again"),
            ("W060", "evidence/logs/out.log"),
            ("W060", "static/alias.css"),
            ("W060", "templates/linked"),
        ]
    );
    let alias = found
        .iter()
        .find(|f| f.path == "content/alias.md")
        .expect("alias found");
    assert_eq!(
        alias.message,
        "`content/alias.md` is a symlink; it is skipped"
    );
    assert_eq!(
        alias.hint.as_deref(),
        Some("copy the file (or directory) into place; the build follows no symlinks here")
    );
}

#[test]
fn control_characters_in_findings_are_escaped_issue_11() {
    let mut t = clean();
    // An evidence file whose name holds ESC and BEL (cited by nothing:
    // W001 names it), and a claim citing a path holding them (E012).
    // (Far from the missing name: a near one would be its likely new name,
    // named in E012's hint instead of a W001 of its own.)
    t.write("evidence/other/\u{1b}[2Jwipe the screen\u{7}.dat", "x\n");
    t.edit(
        "content/page.md",
        "\"logs/a.log#L2\"",
        "\"logs/a.log#L2\", \"logs/\\u001b[31mred\\u0007.log#L1\"",
    );
    let report = t.check();
    let human = check::format(&report, Format::Human);
    let github = check::format(&report, Format::Github);
    for text in [&human, &github] {
        assert!(
            !text.chars().any(|c| c.is_control() && c != '\n'),
            "a control character reached the output: {text:?}"
        );
    }
    assert!(
        human.contains(
            "content/page.md:9:30: error[E012]: evidence file `evidence/logs/\\u{1b}[31mred\\u{7}.log` not found\n"
        ),
        "{human}"
    );
    assert!(
        human.contains(
            "evidence/other/\\u{1b}[2Jwipe the screen\\u{7}.dat:1:1: warning[W001]: evidence file `evidence/other/\\u{1b}[2Jwipe the screen\\u{7}.dat` is cited by no claim\n"
        ),
        "{human}"
    );
    assert!(
        github.contains(
            "::error file=content/page.md,line=9,col=30,title=E012::evidence file `evidence/logs/\\u{1b}[31mred\\u{7}.log` not found"
        ),
        "{github}"
    );
    assert!(
        github.contains(
            "::warning file=evidence/other/\\u{1b}[2Jwipe the screen\\u{7}.dat,line=1,col=1,title=W001::"
        ),
        "{github}"
    );
    // JSON escapes them its own way, and is unchanged.
    let json = check::format(&report, Format::Json);
    assert!(json.contains("logs/\\u001b[31mred\\u0007.log"), "{json}");
}

#[test]
#[ignore = "about 40 s: .ci/run runs it (cargo test -- --include-ignored)"]
fn a_page_with_100000_claims_builds_issue_11() {
    const N: usize = 100_000;
    let mut t = SiteTest::from_fixture("check/clean");
    let mut text = String::from("+++\ntitle = { ja = \"多数\", en = \"Many\" }\n");
    for i in 0..N {
        text.push_str(&format!(
            "[[claims]]\nid = \"c{i}\"\nclass = \"confirmed\"\nja = \"主張{i}\"\nen = \"Claim {i}\"\nevidence = [\"logs/a.log#L2\"]\n"
        ));
    }
    text.push_str("+++\n\n::: ja\n本文。\n:::\n::: en\nBody.\n:::\n");
    t.write("content/many.md", &text);
    let report = crate::common::build_with(
        t.root(),
        kansoku::site::BuildOptions {
            search: false,
            ..Default::default()
        },
    )
    .unwrap_or_else(|e| panic!("build failed: {e}"));
    assert_eq!(report.pages, 3);
    let last = N - 1;
    for rel in ["en/many/index.html", "ja/many/index.html"] {
        let html = t.read(rel);
        assert!(html.contains(&format!("id=\"claim-c{last}\"")), "{rel}");
    }
    // The parallel view pairs each claim with its own translation.
    let parallel = t.read("ja-en/many/index.html");
    let item = common::element_by_id(&parallel, &format!("claim-c{last}")).expect("last claim");
    assert!(item.contains(&format!("主張{last}")), "{item}");
    assert!(item.contains(&format!("Claim {last}")), "{item}");
    assert!(!item.contains(&format!("Claim {}", last - 1)), "{item}");
}

#[test]
fn active_urls_are_refused_wherever_a_body_holds_them_issue_11() {
    let mut t = clean();
    t.edit(
        "content/page.md",
        "Body. [[claim:page-claim]]\n",
        concat!(
            "Body. [[claim:page-claim]]\n\n",
            "[a](JavaScript:alert(1)) ![b](data:text/html;base64,PHNjcmlwdD4=)\n\n",
            "<a href=\"vbscript:msgbox\">c</a> <img src='data:image/svg+xml,<svg/onload=alert(1)>'>\n\n",
            "<a href=\"jav&#x61;script&colon;alert(1)\">d</a>\n\n",
            "<div>\n<a href=javascript:alert(1)>e</a>\n</div>\n\n",
            "[fine](https://example.org/javascript:) <a href=\"/en/\">fine</a>\n",
        ),
    );
    let found = json_findings(&t.check());
    let got: Vec<(&str, usize, &str)> = found
        .iter()
        .map(|f| (f.code.as_str(), f.line, f.message.as_str()))
        .collect();
    let msg = |url: &str| {
        format!("URL `{url}` would run a script or open an HTML document in the reader's browser")
    };
    let want = [
        (18, msg("JavaScript:alert(1)")),
        (18, msg("data:text/html;base64,PHNjcmlwdD4=")),
        (20, msg("vbscript:msgbox")),
        (20, msg("data:image/svg+xml,<svg/onload=alert(1)>")),
        (22, msg("jav&#x61;script&colon;alert(1)")),
        (25, msg("javascript:alert(1)")),
    ];
    assert_eq!(
        got,
        want.iter()
            .map(|(l, m)| ("E062", *l, m.as_str()))
            .collect::<Vec<_>>()
    );
}

#[test]
fn raw_html_is_allowed_by_default_issue_11() {
    let mut t = clean();
    t.edit(
        "content/page.md",
        "Body. [[claim:page-claim]]\n",
        "Body. [[claim:page-claim]] <kbd>Ctrl</kbd>\n",
    );
    assert_eq!(json_findings(&t.check()), Vec::new());
    t.build();
    assert!(t.read("en/page/index.html").contains("<kbd>Ctrl</kbd>"));
}

#[test]
fn an_unknown_raw_html_policy_is_a_config_error_issue_11() {
    let mut t = clean();
    let book = std::fs::read_to_string(t.root().join("book.toml")).expect("book.toml");
    t.write(
        "book.toml",
        &format!("{book}\n[markdown]\nraw-html = \"sometimes\"\n"),
    );
    let found = json_findings(&t.check());
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].path, "book.toml");
    assert!(
        found[0]
            .message
            .contains("unknown variant `sometimes`, expected one of `allow`, `warn`, `deny`"),
        "{}",
        found[0].message
    );
}

#[test]
fn evidence_of_an_active_type_is_published_as_text_issue_11() {
    let mut t = clean();
    t.write("evidence/captures/page.html", "<script>alert(1)</script>\n")
        .write("evidence/captures/plot.SVG", "<svg onload=\"alert(1)\"/>\n");
    t.edit(
        "content/page.md",
        "\"logs/a.log#L2\"",
        "\"logs/a.log#L2\", \"captures/page.html#L1\", \"captures/plot.SVG#L1\"",
    );
    t.build();
    assert!(!t.exists("evidence/captures/page.html"));
    assert!(!t.exists("evidence/captures/plot.SVG"));
    assert_eq!(
        t.read("evidence/captures/page.html.txt"),
        "<script>alert(1)</script>\n"
    );
    assert_eq!(
        t.read("evidence/captures/plot.SVG.txt"),
        "<svg onload=\"alert(1)\"/>\n"
    );
    // Its page links the text copy and shows the markup escaped.
    let page = t.read("en/evidence/captures/page.html/index.html");
    assert!(
        page.contains("href=\"/evidence/captures/page.html.txt\""),
        "{page}"
    );
    assert!(!page.contains("<script>alert(1)"), "{page}");
    // Other evidence keeps its name.
    assert!(t.exists("evidence/logs/a.log"));
}

/// Issue 25: a page of 20,000 claims with mistakes in two of them is read
/// claim by claim: exactly those two mistakes are reported (the other
/// 19,998 claims are checked as usual), and nothing cascades.
#[test]
fn a_page_of_many_claims_with_two_mistakes_reports_just_those_issue_25() {
    const N: usize = 20_000;
    let mut t = clean();
    let mut text = String::from("+++\ntitle = { ja = \"多数\", en = \"Many\" }\n");
    for i in 0..N {
        let class = match i {
            7_000 => "class = = \"confirmed\"",
            13_000 => "class = \"confirmed\"\nwrong = 1",
            _ => "class = \"confirmed\"",
        };
        text.push_str(&format!(
            "\n[[claims]]\nid = \"c{i}\"\n{class}\nja = \"二行目。\"\nen = \"Line two.\"\nevidence = [\"logs/a.log#L2\"]\n"
        ));
    }
    text.push_str("+++\n\n::: ja\n本文。\n:::\n::: en\nBody.\n:::\n");
    t.write("content/many.md", &text);
    let found = json_findings(&t.check());
    let codes: Vec<(&str, usize)> = found.iter().map(|f| (f.code.as_str(), f.line)).collect();
    assert_eq!(codes, [("E001", 7 * 7_000 + 6), ("E002", 7 * 13_000 + 7)]);
}
