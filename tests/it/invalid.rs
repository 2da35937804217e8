//! Invalid sites: each `tests/fixtures/invalid/<case>` must fail the build
//! with exactly the diagnostic asserted here, and leave a previous `public/`
//! byte-for-byte as it was, with no staging directory behind (SPEC §4, §8).
//!
//! Every case site is valid apart from its one defect: `content/_index.md`
//! holds a good claim citing `evidence/logs/a.log` (5 lines after a header),
//! and the defect sits in `content/page.md` or `book.toml`.

use crate::common;

use common::SiteTest;

/// Builds the case over a pre-existing `public/`, asserts the build fails
/// with a content error and touches nothing; returns the error's full text.
fn fail(case: &str) -> String {
    fail_edited(case, |_| {})
}

/// As [`fail`], after `edit` changed the copied case (for defects that are
/// bytes, not text: BOM, CRLF, invalid UTF-8, symlinks).
fn fail_edited(case: &str, edit: impl FnOnce(&mut SiteTest)) -> String {
    let mut t = SiteTest::from_fixture(&format!("invalid/{case}"));
    edit(&mut t);
    t.write_previous_output();
    let before = t.tree();
    assert_eq!(before.0.len(), 4, "the previous output was written");
    let err = t.build_err();
    let text = err.to_string();
    assert!(
        matches!(err, kansoku::Error::Content(_)),
        "{case}: expected content errors, got: {text}"
    );
    before.assert_same(
        &t.tree(),
        &format!("{case}: public/ after the failed build"),
    );
    assert_eq!(
        t.leftovers(),
        Vec::<String>::new(),
        "{case}: staging left behind"
    );
    text
}

fn assert_text(case: &str, got: &str, expected: &str) {
    assert_eq!(
        got, expected,
        "\n--- {case}: got ---\n{got}\n--- expected ---\n{expected}\n"
    );
}

/// The case fails with exactly `expected` (every diagnostic and the count).
fn assert_invalid(case: &str, expected: &str) {
    assert_text(case, &fail(case), expected);
}

#[test]
fn bad_toml() {
    assert_invalid(
        "bad-toml",
        r#"content/page.md:3:10: error[E001]: extra `=`, expected nothing
  |
3 | weight = = 3
  |          ^
  = hint: fix the TOML syntax at this place
1 error found"#,
    );
}

#[test]
fn unknown_key() {
    assert_invalid(
        "unknown-key",
        r#"content/page.md:4:1: error[E002]: unknown field `summary`, expected one of `title`, `lead`, `weight`, `updated`, `layout`, `entity`, `claims`, `scope`, `view`, `entities`, `views`, `repeat-inline-claims`, `draft`
  |
4 | summary = { ja = "要約", en = "Summary" }
  | ^^^^^^^
  = hint: remove the key or fix its spelling
1 error found"#,
    );
}

#[test]
fn claim_without_evidence() {
    assert_invalid(
        "claim-without-evidence",
        r#"content/page.md:5:6: error[E011]: claim `no-evidence` has no evidence link
  |
5 | id = "no-evidence"
  |      ^^^^^^^^^^^^^
  = hint: add `evidence = ["path/under/evidence.txt#L1-L5"]`
1 error found"#,
    );
}

#[test]
fn evidence_missing() {
    assert_invalid(
        "evidence-missing",
        r#"content/page.md:9:13: error[E012]: evidence file `evidence/logs/b.log` not found
  |
9 | evidence = ["logs/b.log#L2"]
  |             ^^^^^^^^^^^^^^^
  = hint: did you mean `logs/a.log`?
1 error found"#,
    );
}

#[test]
fn range_past_end() {
    assert_invalid(
        "range-past-end",
        r#"content/page.md:9:13: error[E013]: line range L4-L9 is outside `evidence/logs/a.log`, which has 5 lines after its header
  |
9 | evidence = ["logs/a.log#L4-L9"]
  |             ^^^^^^^^^^^^^^^^^^
  = hint: lines count from 1 after the header; the last is L5
1 error found"#,
    );
}

#[test]
fn dotdot_path() {
    assert_invalid(
        "dotdot-path",
        r#"content/page.md:9:13: error[E015]: evidence path `logs/../../book.toml` leaves the evidence directory (`..`)
  |
9 | evidence = ["logs/../../book.toml#L1"]
  |             ^^^^^^^^^^^^^^^^^^^^^^^^^
  = hint: write the path relative to `evidence/`, without `..`
1 error found"#,
    );
}

#[test]
fn percent_encoded_dotdot() {
    assert_invalid(
        "percent-encoded-dotdot",
        r#"content/page.md:9:13: error[E015]: evidence path `%2e%2e/book.toml` leaves the evidence directory (`..`)
  |
9 | evidence = ["%2e%2e/book.toml"]
  |             ^^^^^^^^^^^^^^^^^^
  = hint: write the path relative to `evidence/`, without `..`
1 error found"#,
    );
}

#[test]
fn unclosed_block() {
    // The `::: en` opened inside the unclosed `::: ja` is reported too, with
    // the line of the block it is stuck in.
    assert_invalid(
        "unclosed-block",
        r#"content/page.md:7:1: error[E033]: `::: ja` block is never closed
  |
7 | ::: ja
  | ^^^^^^
  = hint: add a line `:::` where the block ends
content/page.md:10:1: error[E033]: language block opened inside the `::: ja` block that starts at line 7
   |
10 | ::: en
   | ^^^^^^
  = hint: close the outer block with a line `:::` first
2 errors found"#,
    );
}

#[test]
fn unknown_class_suggests_the_nearest() {
    assert_invalid(
        "unknown-class",
        r#"content/page.md:6:9: error[E010]: unknown evidence class `confimed`
  |
6 | class = "confimed"
  |         ^^^^^^^^^^
  = hint: did you mean `confirmed`?
1 error found"#,
    );
}

#[test]
fn duplicate_claim_id_names_both_places() {
    assert_invalid(
        "duplicate-claim-id",
        r#"content/page.md:5:6: error[E016]: duplicate claim id `base-ok` (first defined at content/_index.md:5:6)
  |
5 | id = "base-ok"
  |      ^^^^^^^^^
  = hint: claim ids are unique on the whole site; rename one of them
1 error found"#,
    );
}

#[test]
fn bad_book_toml_key() {
    assert_invalid(
        "bad-book-toml",
        r#"book.toml:7:1: error[E002]: unknown field `site-title`, expected one of `site-url`, `git-repository-url`, `edit-url-template`, `paginate-by`
  |
7 | site-title = "Broken"
  | ^^^^^^^^^^
  = hint: remove the key or fix its spelling
1 error found"#,
    );
}

#[test]
fn quote_not_in_range() {
    assert_invalid(
        "quote-not-in-range",
        r#"content/page.md:9:59: error[E014]: quote "line five" not found in lines 1-2 of `evidence/logs/a.log`
  |
9 | evidence = [{ path = "logs/a.log", lines = "1-2", quote = "line five" }]
  |                                                           ^^^^^^^^^^^
  = hint: the quote is on line 5 of this file now: move the range to cover it (or fix the quote)
1 error found"#,
    );
}

#[test]
fn unknown_claim_reference_in_a_table() {
    assert_invalid(
        "unknown-claim-ref",
        r#"content/page.md:7:3: error[E020]: unknown claim `base-okay` in `[[claim:…]]`
  |
7 | | [[claim:base-okay]] |
  |   ^^^^^^^^^^^^^^^^^^^
  = hint: did you mean `base-ok`?
1 error found"#,
    );
}

#[test]
fn broken_page_link_in_both_languages() {
    assert_invalid(
        "broken-page-link",
        r#"content/page.md:6:1: error[E030]: link to missing page `content/notes/first.md`
  |
6 | [ノート](notes/first.md) を見よ。
  | ^^^^^^^^^^^^^^^^^^^^^^^^
  = hint: link to a file under content/, e.g. `/notes/first.md`
content/page.md:9:9: error[E030]: link to missing page `content/notes/first.md`
  |
9 | See the [notes](notes/first.md).
  |         ^^^^^^^^^^^^^^^^^^^^^^^
  = hint: link to a file under content/, e.g. `/notes/first.md`
2 errors found"#,
    );
}

#[test]
fn broken_anchor_in_each_language() {
    assert_invalid(
        "broken-anchor",
        r#"content/page.md:8:1: error[E030]: anchor `#no-such-heading` not found in the ja page of `content/_index.md`
  |
8 | [ホーム](_index.md#no-such-heading) と [この見出し](#見出し)。
  | ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  = hint: that page has no heading ids in this language: give a heading one with `{#id}`
content/page.md:13:5: error[E030]: anchor `#no-such-heading` not found in the en page of `content/_index.md`
   |
13 | The [home](_index.md#no-such-heading) and [this heading](#heading).
   |     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  = hint: that page has no heading ids in this language: give a heading one with `{#id}`
2 errors found"#,
    );
}

/// `content/page.md` of the bad-toml case replaced by raw bytes.
fn page_bytes(bytes: &'static [u8]) -> impl FnOnce(&mut SiteTest) {
    move |t| {
        std::fs::write(t.root().join("content/page.md"), bytes).expect("write page");
    }
}

#[test]
fn bom_and_crlf_keep_line_and_column_numbers() {
    let got = fail_edited(
        "bad-toml",
        page_bytes(b"\xEF\xBB\xBF+++\r\ntitle = { ja = \"x\", en = \"y\" }\r\nweight = = 3\r\n+++\r\n\r\nBody.\r\n"),
    );
    assert_text(
        "bom+crlf",
        &got,
        r#"content/page.md:3:10: error[E001]: extra `=`, expected nothing
  |
3 | weight = = 3
  |          ^
  = hint: fix the TOML syntax at this place
1 error found"#,
    );
}

#[test]
fn invalid_utf8_names_line_and_column() {
    let got = fail_edited(
        "bad-toml",
        page_bytes(b"+++\ntitle = \"x\"\n+++\nab\xFFc\n"),
    );
    assert_text(
        "invalid-utf8",
        &got,
        "content/page.md:4:3: error[E001]: invalid UTF-8 at byte 22\n  = hint: save the file as UTF-8\n1 error found",
    );
}

#[test]
fn empty_page() {
    let got = fail_edited("bad-toml", page_bytes(b""));
    assert!(
        got.starts_with("content/page.md:1:1: error[E001]: empty file\n"),
        "{got}"
    );
    assert!(got.ends_with("\n1 error found"), "{got}");
}

#[test]
fn claim_id_with_spaces() {
    let got = fail_edited("unknown-class", |t| {
        t.edit(
            "content/page.md",
            "id = \"typo-class\"\nclass = \"confimed\"",
            "id = \"typo class\"\nclass = \"confirmed\"",
        );
    });
    assert_text(
        "id-with-spaces",
        &got,
        r#"content/page.md:5:6: error[E017]: claim id `typo class` is not a valid id
  |
5 | id = "typo class"
  |      ^^^^^^^^^^^^
  = hint: use letters, digits, `-`, `_` or `.`, e.g. `typo-class`
1 error found"#,
    );
}

#[cfg(unix)]
#[test]
fn symlink_out_of_the_evidence_dir() {
    let got = fail_edited("evidence-missing", |t| {
        std::os::unix::fs::symlink(
            t.root().join("book.toml"),
            t.root().join("evidence/logs/b.log"),
        )
        .expect("symlink");
    });
    assert_text(
        "symlink",
        &got,
        r#"content/page.md:9:13: error[E015]: evidence path `logs/b.log` is a symlink that leaves the evidence directory
  |
9 | evidence = ["logs/b.log#L2"]
  |             ^^^^^^^^^^^^^^^
  = hint: copy the file into the evidence directory instead of linking to it
1 error found"#,
    );
}

#[test]
fn template_syntax_error_in_an_override_is_located() {
    let got = fail("template-syntax-error");
    let first = got.lines().next().expect("a diagnostic");
    assert!(
        first.starts_with("templates/page.html:3:7: error[E040]: template syntax error: "),
        "{got}"
    );
    assert!(got.ends_with("\n1 error found"), "{got}");
}

#[test]
fn template_syntax_error_message_is_clean() {
    assert_invalid(
        "template-syntax-error",
        r#"templates/page.html:3:7: error[E040]: template syntax error: expected a value that can be negated
  = hint: fix the template, or delete the override to use the built-in one
1 error found"#,
    );
}

#[test]
fn template_render_error_names_the_override_and_the_variable() {
    let got = fail("template-render-error");
    assert!(got.starts_with("templates/page.html:"), "{got}");
    assert!(
        got.contains("error[E040]") && got.contains("page.no_such_field.deeper"),
        "{got}"
    );
}

#[test]
fn template_render_error_is_reported_once() {
    let got = fail("template-render-error");
    assert_eq!(got.matches("error[E040]").count(), 1, "{got}");
    assert!(got.ends_with("\n1 error found"), "{got}");
}

/// Claim views are rendered when an output first shows them, not all up
/// front: one that fails still fails the build, naming the template.
#[test]
fn a_claim_view_that_fails_to_render_fails_the_build() {
    let got = fail("claim-template-error");
    assert!(
        got.starts_with("templates/partials/claim.html:")
            && got.contains("error[E040]")
            && got.contains("claim.no_such_field.deeper"),
        "{got}"
    );
    assert!(got.ends_with("\n1 error found"), "{got}");
}

#[test]
fn output_collision_fails_before_writing() {
    let got = fail("output-collision");
    assert!(
        got.contains("error[E042]: two outputs would be written to `ja/evidence/index.html`"),
        "{got}"
    );
}

#[test]
fn output_collision_names_the_page() {
    let got = fail("output-collision");
    assert!(
        got.starts_with("content/evidence/_index.md:1:1: error[E042]"),
        "{got}"
    );
}

/// Every case directory has a test above (a new fixture without one is a
/// test that silently never runs).
#[test]
fn every_invalid_fixture_is_tested() {
    let src = include_str!("invalid.rs");
    let dir = common::fixture("invalid");
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("invalid fixtures dir") {
        let name = entry
            .expect("entry")
            .file_name()
            .to_string_lossy()
            .into_owned();
        if !src.contains(&format!("\"{name}\"")) {
            missing.push(name);
        }
    }
    assert_eq!(missing, Vec::<String>::new());
}
