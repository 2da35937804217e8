//! SPEC §8: bad input gives a finding, never a panic. BOM and CRLF,
//! invalid UTF-8, empty pages, wide characters under the caret, encoded
//! `..`, symlinks out of and inside `evidence/`, script in claim text, a
//! 10 MB log, deep and very long Markdown, a bad `book.toml`, and
//! invisible format characters in file names (issue 23, finding 9).

use super::{human, keys, page_with_claim, site};
use crate::common::{fixture, json_findings, SiteTest, Tree};

/// The clean site with `content/page.md` replaced by `bytes`.
fn clean_with_page(bytes: &[u8]) -> SiteTest {
    let mut t = site("clean");
    t.write_bytes("content/page.md", bytes);
    t
}

/// Every file of a site rewritten: a BOM in front and CRLF line ends.
fn bom_and_crlf(t: &mut SiteTest) {
    for (rel, bytes) in Tree::of(t.root()).0 {
        let text = String::from_utf8(bytes).expect("fixture text is UTF-8");
        let mut out = b"\xEF\xBB\xBF".to_vec();
        out.extend_from_slice(text.replace('\n', "\r\n").as_bytes());
        t.write_bytes(&rel, &out);
    }
}

#[test]
fn bom_and_crlf_change_no_finding() {
    for case in [
        "clean",
        "e001-toml-syntax",
        "e010-unknown-class",
        "e013-range-outside",
        "e014-quote-not-in-range",
        "e020-unknown-claim-ref",
        "e030-missing-anchor",
        "e033-unclosed-block",
        "combined",
    ] {
        let plain = human(&site(case).check());
        let mut t = site(case);
        bom_and_crlf(&mut t);
        let report = t.check();
        assert_eq!(human(&report), plain, "{case} with BOM + CRLF");
        assert!(
            !human(&report).contains('\r'),
            "{case}: a CR reached the output"
        );
    }
}

#[test]
fn bom_and_crlf_site_builds() {
    let mut t = site("clean");
    bom_and_crlf(&mut t);
    t.build();
    t.assert_file_contains("en/page/index.html", "The second line holds output.");
}

#[test]
fn invalid_utf8_in_a_page_names_the_byte() {
    let text = std::fs::read_to_string(fixture("check/clean/content/page.md")).expect("page");
    let at = text.find("Body.").expect("body line") + 2;
    let mut bytes = text.as_bytes().to_vec();
    bytes.insert(at, 0xFF);
    let report = clean_with_page(&bytes).check();
    let found = json_findings(&report);
    assert_eq!(
        keys(&found),
        vec![("E001", "error", "content/page.md", 16, 3)]
    );
    assert_eq!(found[0].message, format!("invalid UTF-8 at byte {at}"));
    insta::assert_snapshot!("bad_input_invalid_utf8_page", human(&report));
}

#[test]
fn invalid_utf8_in_evidence_names_the_byte() {
    let mut t = site("clean");
    let log = b"+++\nkind = \"raw\"\n+++\nline one\nline two: out\xFFput\nline three\n";
    t.write_bytes("evidence/logs/a.log", log);
    let found = json_findings(&t.check());
    let f = found
        .iter()
        .find(|f| f.path == "evidence/logs/a.log")
        .unwrap_or_else(|| panic!("no finding for the log: {found:?}"));
    assert_eq!(f.key(), ("E001", "error", "evidence/logs/a.log", 5, 14));
    assert_eq!(f.message, "invalid UTF-8 at byte 43");
}

#[test]
fn undecodable_evidence_is_not_reported_missing() {
    let mut t = site("clean");
    t.write_bytes(
        "evidence/logs/a.log",
        b"+++\nkind = \"raw\"\n+++\nline \xFF\n",
    );
    let found = json_findings(&t.check());
    assert_eq!(
        keys(&found),
        vec![("E001", "error", "evidence/logs/a.log", 4, 6)]
    );
}

#[test]
fn empty_page_is_an_error() {
    for bytes in [&b""[..], b"\n\n  \n", b"\xEF\xBB\xBF"] {
        let report = clean_with_page(bytes).check();
        let found = json_findings(&report);
        assert_eq!(
            keys(&found),
            vec![("E001", "error", "content/page.md", 1, 1)]
        );
        assert_eq!(found[0].message, "empty file");
    }
    insta::assert_snapshot!("bad_input_empty_page", human(&clean_with_page(b"").check()));
}

#[test]
fn page_without_front_matter_is_an_error() {
    let found = json_findings(&clean_with_page(b"# Just Markdown\n").check());
    assert_eq!(
        keys(&found),
        vec![("E001", "error", "content/page.md", 1, 1)]
    );
    assert_eq!(
        found[0].message,
        "page does not start with `+++` front matter"
    );
}

#[test]
fn page_with_errors_is_not_reported_missing() {
    let mut t = site("e010-unknown-class");
    t.edit(
        "content/_index.md",
        "A valid page. [[claim:base-ok]]",
        "A valid page. [[claim:base-ok]] More on the [page](page.md).",
    );
    let found = json_findings(&t.check());
    assert_eq!(
        keys(&found),
        vec![("E010", "error", "content/page.md", 6, 9)]
    );
}

#[test]
fn caret_aligns_under_wide_characters() {
    let mut t = site("clean");
    t.edit(
        "content/page.md",
        "本文。[[claim:page-claim]]",
        "本文。[[claim:nope]]",
    );
    let text = human(&t.check());
    assert!(
        text.contains("13 | 本文。[[claim:nope]]\n   |       ^^^^^^^^^^^^^^\n"),
        "{text}"
    );
}

#[test]
fn double_percent_encoded_dotdot_is_refused() {
    let mut t = site("e015-percent-encoded");
    t.edit(
        "content/page.md",
        "%2e%2e/%2e%2e/etc/passwd",
        "%252e%252e/secret.txt",
    );
    let found = json_findings(&t.check());
    assert_eq!(
        keys(&found),
        vec![("E015", "error", "content/page.md", 9, 30)]
    );
    assert_eq!(
        found[0].message,
        "evidence path `%252e%252e/secret.txt` leaves the evidence directory (`..`)"
    );
}

#[test]
fn symlink_out_of_evidence_is_refused() {
    let mut t = site("clean");
    t.write("secret.txt", "not evidence\n");
    std::os::unix::fs::symlink("../../secret.txt", t.root().join("evidence/logs/out.log"))
        .expect("symlink");
    t.edit(
        "content/page.md",
        "\"logs/a.log#L2\"",
        "\"logs/a.log#L2\", \"logs/out.log#L1\"",
    );
    let report = t.check();
    let found = json_findings(&report);
    assert_eq!(
        keys(&found),
        vec![("E015", "error", "content/page.md", 9, 30)]
    );
    assert_eq!(
        found[0].message,
        "evidence path `logs/out.log` is a symlink that leaves the evidence directory"
    );
    insta::assert_snapshot!("bad_input_symlink_out", human(&report));
}

#[test]
fn symlink_inside_evidence_is_followed() {
    let mut t = site("clean");
    std::os::unix::fs::symlink("a.log", t.root().join("evidence/logs/alias.log")).expect("symlink");
    t.edit(
        "content/page.md",
        "\"logs/a.log#L2\"",
        "\"logs/alias.log#L2\"",
    );
    assert_eq!(json_findings(&t.check()), Vec::new());
}

#[test]
fn directory_symlink_out_of_evidence_is_e015() {
    let outside = crate::scratch::tempdir();
    std::fs::write(outside.path().join("s.log"), "outside\n").expect("write");
    let mut t = site("clean");
    std::os::unix::fs::symlink(outside.path(), t.root().join("evidence/linked")).expect("symlink");
    t.edit(
        "content/page.md",
        "\"logs/a.log#L2\"",
        "\"logs/a.log#L2\", \"linked/s.log#L1\"",
    );
    let found = json_findings(&t.check());
    assert_eq!(
        keys(&found),
        vec![("E015", "error", "content/page.md", 9, 30)]
    );
}

#[test]
fn directory_symlink_out_of_evidence_is_refused() {
    let outside = crate::scratch::tempdir();
    std::fs::write(outside.path().join("s.log"), "outside\n").expect("write");
    let mut t = site("clean");
    std::os::unix::fs::symlink(outside.path(), t.root().join("evidence/linked")).expect("symlink");
    t.edit(
        "content/page.md",
        "\"logs/a.log#L2\"",
        "\"logs/a.log#L2\", \"linked/s.log#L1\"",
    );
    let report = t.check();
    assert_eq!(report.exit_code(), 1, "{}", human(&report));
    assert!(matches!(t.build_err(), kansoku::Error::Content(_)));
    assert!(!t.out().exists());
}

#[test]
fn script_in_claim_text_warns_and_is_escaped_in_every_page() {
    let mut t = site("w003-raw-html");
    let found = json_findings(&t.check());
    assert_eq!(
        found[0].message,
        "claim `page-claim` has raw HTML in its `en` text; it is shown escaped, as text"
    );
    t.build();
    let codes: Vec<&str> = t.report().warnings.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["W003", "W041"], "build reports the W003 too");
    t.assert_file_contains(
        "en/page/index.html",
        "The second line holds &lt;script&gt;alert(1)&lt;/script&gt; output.",
    );
    t.assert_file_contains(
        "ja-en/page/index.html",
        "&lt;script&gt;alert(1)&lt;/script&gt;",
    );
    for (path, bytes) in t.tree().0 {
        let text = String::from_utf8_lossy(&bytes);
        if path.ends_with(".html") {
            assert!(!text.contains("<script>alert"), "{path} has the raw script");
        }
    }
}

#[test]
fn ten_megabyte_evidence_file_checks_fine() {
    let mut t = site("clean");
    let mut log = String::from("+++\nkind = \"raw\"\nsource = \"generated\"\n+++\n");
    let mut n = 0;
    while log.len() < 10 * 1024 * 1024 {
        n += 1;
        log.push_str(&format!(
            "{n:08} sample payload line with some words to fill it up\n"
        ));
    }
    log.push_str("the very last line\n");
    n += 1;
    t.write("evidence/logs/big.log", &log);
    t.edit(
        "content/page.md",
        "\"logs/a.log#L2\"",
        &format!(
            "\"logs/a.log#L2\", {{ path = \"logs/big.log\", lines = \"{}-{n}\", quote = \"the very last line\" }}",
            n - 1
        ),
    );
    assert_eq!(json_findings(&t.check()), Vec::new());
    t.edit(
        "content/page.md",
        &format!("-{n}\""),
        &format!("-{}\"", n + 1),
    );
    let found = json_findings(&t.check());
    assert_eq!(
        keys(&found),
        vec![("E013", "error", "content/page.md", 9, 63)]
    );
    assert!(
        found[0].message.contains(&format!("which has {n} lines")),
        "{found:?}"
    );
}

#[test]
fn deeply_nested_markdown_checks_and_builds() {
    // `<div>` opens an HTML block: the reference inside is not Markdown.
    for (opener, refs) in [
        (">", 1),
        ("- ", 1),
        ("* ", 1),
        ("[", 1),
        ("*", 1),
        ("1. ", 1),
        ("<div>", 0),
    ] {
        let mut t = site("clean");
        let deep = opener.repeat(10_000);
        t.edit(
            "content/page.md",
            "Body. [[claim:page-claim]]",
            &format!("Body. [[claim:page-claim]]\n\n{deep} deep [[claim:nope]]"),
        );
        let found = json_findings(&t.check());
        assert_eq!(found.len(), refs, "{opener:?}: {found:?}");
        assert!(
            found.iter().all(|f| f.code == "E020"),
            "{opener:?}: {found:?}"
        );
        t.edit("content/page.md", "[[claim:nope]]", "");
        assert_eq!(json_findings(&t.check()), Vec::new(), "{opener:?}");
        t.build();
    }
}

#[test]
fn very_long_line_is_located() {
    let mut t = site("clean");
    let long = "word ".repeat(200_000);
    t.edit(
        "content/page.md",
        "Body. [[claim:page-claim]]",
        &format!("Body. [[claim:page-claim]]\n\n{long}[[claim:nope]]"),
    );
    let report = t.check();
    let found = json_findings(&report);
    assert_eq!(
        keys(&found),
        vec![("E020", "error", "content/page.md", 18, 1_000_001)]
    );
    // The source line is cut to a window around the span, the caret still
    // under it: a megabyte of line would drown the terminal.
    let text = human(&report);
    let snippet: Vec<&str> = text.lines().filter(|l| l.contains(" | ")).collect();
    let (line, caret) = (snippet[0], snippet[1]);
    assert!(
        line.len() < 400,
        "source line shown in full: {} bytes",
        line.len()
    );
    assert!(
        line.contains("…word word") && line.ends_with("[[claim:nope]]"),
        "{line}"
    );
    let at = caret.chars().position(|c| c == '^').expect("a caret");
    let under: String = line.chars().skip(at).take(14).collect();
    assert_eq!(under, "[[claim:nope]]");
    t.edit("content/page.md", "[[claim:nope]]", "");
    t.build();
}

/// A mistake in book.toml is one located finding, and (issue 40, trial
/// M6) it no longer hides the pages' findings: the same run reports them.
#[test]
fn bad_book_toml_is_one_located_finding_beside_the_pages_findings() {
    let mut t = site("combined");
    let pages = json_findings(&t.check());
    t.edit(
        "book.toml",
        "languages = [\"ja\", \"en\"]",
        "languages = [\"ja\", \"en\"\nlangs = 2",
    );
    let report = t.check();
    let found = json_findings(&report);
    let in_book: Vec<_> = found.iter().filter(|f| f.path == "book.toml").collect();
    assert_eq!(in_book.len(), 1, "{found:?}");
    assert_eq!(in_book[0].code, "E001");
    let rest: Vec<_> = found
        .iter()
        .filter(|f| f.path != "book.toml")
        .cloned()
        .collect();
    assert_eq!(rest, pages, "the pages' findings, unchanged");
    assert_eq!(report.exit_code(), 1);
}

/// Issue 23, finding 9: an invisible format character (Unicode Cf) in a
/// page's name, or its directory's, makes its URL and its place in the
/// navigation read as another name (`a\u{202e}dm.b` shows as `ab.md`).
#[test]
fn format_characters_in_page_names_are_e060_issue_23() {
    let cases = [
        ("a\u{202e}dm.b.md", "U+202E RIGHT-TO-LEFT OVERRIDE"),
        ("zero\u{200b}width.md", "U+200B ZERO WIDTH SPACE"),
        ("iso\u{2066}late.md", "U+2066 LEFT-TO-RIGHT ISOLATE"),
        ("\u{feff}bom.md", "U+FEFF ZERO WIDTH NO-BREAK SPACE"),
        ("soft\u{ad}hyphen.md", "U+00AD SOFT HYPHEN"),
        ("notes\u{2069}/p.md", "U+2069 POP DIRECTIONAL ISOLATE"),
        ("tag\u{e0041}.md", "U+E0041"),
    ];
    for (name, what) in cases {
        let mut t = site("clean");
        t.write(&format!("content/{name}"), &page_with_claim("other-claim"));
        let path = format!("content/{name}");
        let found = json_findings(&t.check());
        assert_eq!(
            keys(&found),
            [("E060", "error", path.as_str(), 1, 1)],
            "{what}"
        );
        // The name in the message is escaped: the message is for a terminal.
        let shown: String = name
            .chars()
            .map(|c| {
                if c.is_ascii() {
                    c.to_string()
                } else {
                    c.escape_unicode().to_string()
                }
            })
            .collect();
        assert_eq!(
            found[0].message,
            format!(
                "file name `{shown}` cannot become a page URL: it holds the invisible \
                 format character {what}, which can make a name read as another"
            )
        );
        assert_eq!(
            found[0].hint.as_deref(),
            Some("rename the file using letters, digits, `-`, `_` and `.` (a name is the page's URL)")
        );
    }
}

/// Issue 23, finding 9: the same in evidence file names, which become
/// evidence pages and are cited by claims. A claim citing such a file gets
/// no second finding.
#[test]
fn format_characters_in_evidence_names_are_e060_issue_23() {
    let cases = [
        (
            "logs/run\u{202e}gol.txt",
            r"logs/run\u{202e}gol.txt",
            "U+202E RIGHT-TO-LEFT OVERRIDE",
        ),
        (
            "\u{200b}logs/b.log",
            r"\u{200b}logs/b.log",
            "U+200B ZERO WIDTH SPACE",
        ),
        (
            "logs/\u{2067}c.log",
            r"logs/\u{2067}c.log",
            "U+2067 RIGHT-TO-LEFT ISOLATE",
        ),
    ];
    for (name, shown, what) in cases {
        let in_toml: String = name
            .chars()
            .map(|c| {
                if c.is_ascii_graphic() {
                    c.to_string()
                } else {
                    format!("\\U{:08X}", c as u32)
                }
            })
            .collect();
        let mut t = site("clean");
        t.write(&format!("evidence/{name}"), "one\ntwo\n").edit(
            "content/page.md",
            "evidence = [\"logs/a.log#L2\"]",
            &format!("evidence = [\"logs/a.log#L2\", \"{in_toml}#L1\"]"),
        );
        let path = format!("evidence/{name}");
        let found = json_findings(&t.check());
        assert_eq!(
            keys(&found),
            [("E060", "error", path.as_str(), 1, 1)],
            "{shown}"
        );
        assert_eq!(
            found[0].message,
            format!(
                "file name `{shown}` cannot become a URL: it holds the invisible format \
                 character {what}, which can make a name read as another"
            )
        );
        assert_eq!(
            found[0].hint.as_deref(),
            Some("rename the file using letters, digits, `-`, `_` and `.`, and the evidence links that cite it")
        );
    }
}
