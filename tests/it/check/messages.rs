//! `kansoku check`'s exact messages and hints (issue 3; issue 25, point 4;
//! issue 41): the nearest suggestion, the real length, both places of a
//! duplicate, errors before warnings, hints that fix their finding when
//! followed, and an acceptance scoped to the claim a finding is about.

use super::{check_untouched, site};
use crate::common::{json_findings, JsonFinding, SiteTest};
use kansoku::check::{self, Format, Report};
use std::collections::BTreeSet;

fn only_finding(case: &str) -> JsonFinding {
    let found = json_findings(&site(case).check());
    assert_eq!(found.len(), 1, "{case}: {found:?}");
    found.into_iter().next().expect("one finding")
}

#[test]
fn misspelt_class_suggests_the_nearest() {
    let f = only_finding("e010-unknown-class");
    assert_eq!(f.message, "unknown evidence class `confimed`");
    assert_eq!(f.hint.as_deref(), Some("did you mean `confirmed`?"));
}

#[test]
fn an_unknown_license_suggests_the_spdx_id_and_a_bad_publisher_url_says_why() {
    let f = only_finding("e007-unknown-license");
    assert_eq!(f.message, "`CC-BY-4` is not an SPDX license id");
    assert_eq!(f.hint.as_deref(), Some("did you mean `CC-BY-4.0`?"));
    let f = only_finding("e008-publisher");
    assert_eq!(f.message, "the publisher's `url` is not an http(s) URL");
    assert_eq!(
        f.hint.as_deref(),
        Some("give the publisher's web address, e.g. \"https://example.org/\"")
    );
}

#[test]
fn range_outside_names_the_real_length() {
    let f = only_finding("e013-range-outside");
    assert_eq!(
        f.message,
        "line range L4-L9 is outside `evidence/logs/a.log`, which has 5 lines after its header"
    );
    assert_eq!(
        f.hint.as_deref(),
        Some("lines count from 1 after the header; the last is L5")
    );
}

#[test]
fn duplicate_claim_id_names_both_places() {
    let f = only_finding("e016-duplicate-id");
    assert_eq!(
        f.message,
        "duplicate claim id `base-ok` (first defined at content/_index.md:5:6)"
    );
}

#[test]
fn claim_id_with_spaces_suggests_a_valid_one() {
    let f = only_finding("e017-id-with-spaces");
    assert_eq!(f.message, "claim id `Page Claim 2` is not a valid id");
    assert_eq!(
        f.hint.as_deref(),
        Some("use letters, digits, `-`, `_` or `.`, e.g. `page-claim-2`")
    );
}

#[test]
fn missing_claim_reference_suggests_the_nearest() {
    let f = only_finding("e020-unknown-claim-ref");
    assert_eq!(f.message, "unknown claim `page-cliam` in `[[claim:…]]`");
    assert_eq!(f.hint.as_deref(), Some("did you mean `page-claim`?"));
}

#[test]
fn misspelt_about_and_aspect_suggest_the_nearest() {
    let f = only_finding("e025-unknown-about");
    assert_eq!(f.message, "unknown entity `runer` in `about`");
    assert_eq!(f.hint.as_deref(), Some("did you mean `runner`?"));
    let f = only_finding("e026-unknown-aspect");
    assert_eq!(f.message, "unknown aspect `ouptut` in `aspect`");
    assert_eq!(f.hint.as_deref(), Some("did you mean `output`?"));
}

#[test]
fn answer_kinds_and_settle_are_told_with_the_fix() {
    let f = only_finding("e027-answer-without-kind");
    assert_eq!(
        f.message,
        "answer `yes` of aspect `output` does not say what kind of answer it is"
    );
    assert_eq!(
        f.hint.as_deref(),
        Some("add `kind = \"yes\"`, `\"no\"`, `\"partial\"` or `\"not-known\"` (nothing decisive was seen, or nobody could look)")
    );
    let f = only_finding("e028-not-known-confirmed");
    assert_eq!(
        f.message,
        "claim `page-claim` is confirmed, but its answer `unseen` is not known"
    );
    let f = only_finding("e029-answer-without-premises");
    assert_eq!(
        f.message,
        "inferred claim `page-claim` states an answer but names no premises (`from`)"
    );
    let f = only_finding("e034-no-settle");
    assert_eq!(
        f.message,
        "unresolved claim `page-claim` does not say what would settle it"
    );
    assert_eq!(
        f.hint.as_deref(),
        Some("add `settle = { ja = \"…\", en = \"…\" }`: the observation that would settle it")
    );
    let f = only_finding("e035-settle-on-confirmed");
    assert_eq!(
        f.message,
        "confirmed claim `page-claim` has nothing to settle, but gives `settle`"
    );
    let f = only_finding("w025-answer-words");
    assert_eq!(
        f.message,
        "the answer words `Blocked` stand for two ja words: `出ていない` (`output.no`) and `止められた` (`runs.no`)"
    );
    assert_eq!(
        f.hint.as_deref(),
        Some("one word, one meaning: give these answers the same ja words, or one of them other en words")
    );
}

#[test]
fn missing_anchor_names_the_language_and_the_nearest() {
    let f = only_finding("e030-missing-anchor");
    assert_eq!(
        f.message,
        "anchor `#sumary` not found in the en page of `content/page.md`"
    );
    assert_eq!(f.hint.as_deref(), Some("did you mean `#summary`?"));
}

#[test]
fn transcript_only_warning_does_not_fail() {
    let report = site("w002-transcript-only").check();
    let f = &json_findings(&report)[0];
    assert_eq!(
        f.message,
        "confirmed claim `page-claim` rests only on transcript or note evidence"
    );
    assert_eq!(report.exit_code(), 0);
}

/// Errors before warnings (issue 15), each group by file, line, column.
#[test]
fn combined_findings_are_errors_first_then_sorted_by_file_then_line() {
    let found = json_findings(&site("combined").check());
    let order: Vec<_> = found
        .iter()
        .map(|f| (f.severity != "error", f.path.clone(), f.line, f.col))
        .collect();
    let mut sorted = order.clone();
    sorted.sort();
    assert_eq!(order, sorted);
    let files: BTreeSet<&str> = found.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(files.len(), 6, "{files:?}");
}

/// Issue 25, point 4: hints that lead to the fix. Each case makes one
/// mistake, takes the suggestion out of the hint (the first `…` after
/// "did you mean" or "write"), puts it where the mistake was, and checks
/// again: the finding is gone and nothing new appears.
#[test]
fn following_each_hint_fixes_its_finding_issue_25() {
    let page = |claim: &str, body: &str| {
        format!(
            "+++\ntitle = {{ ja = \"頁\", en = \"Page\" }}\n\n[[claims]]\nid = \"hinted\"\n{claim}\n+++\n\n::: ja\n本文。\n:::\n\n::: en\nBody.\n:::\n\n{body}\n"
        )
    };
    let good =
        "class = \"confirmed\"\nja = \"一。\"\nen = \"One.\"\nevidence = [\"logs/h.log#L1\"]";
    let cases = [
        (
            "E002",
            page(&good.replace("evidence", "evidense"), ""),
            "evidense",
        ),
        (
            "E010",
            page(&good.replace("\"confirmed\"", "\"推論\""), ""),
            "推論",
        ),
        (
            "E018",
            page(&good.replace("logs/h.log#L1", "logs/h.log:1"), ""),
            "logs/h.log:1",
        ),
        (
            "E014",
            page(
                &good.replace(
                    "\"logs/h.log#L1\"",
                    "{ path = \"logs/h.log\", lines = \"1\", quote = \"line two\" }",
                ),
                "",
            ),
            "lines = \"1\"",
        ),
        ("E030", page(good, "[home](_indx.md)"), "_indx.md"),
    ];
    for (code, text, wrong) in cases {
        let mut t = SiteTest::from_fixture("check/clean");
        let log = "+++\nkind = \"raw\"\nsource = \"./run\"\n+++\nline one\nline two: output\n";
        t.write("evidence/logs/h.log", log);
        t.write("content/hinted.md", &text);
        let report = t.check();
        let found: Vec<&kansoku::Diagnostic> = report.diagnostics.iter().collect();
        assert_eq!(
            found.iter().map(|d| d.code).collect::<Vec<_>>(),
            [code],
            "{}",
            check::format(&report, Format::Human)
        );
        let hint = found[0].hint.clone().expect("a hint");
        let suggestion = hint
            .split_once("did you mean `")
            .or_else(|| hint.split_once("write `"))
            .and_then(|(_, rest)| rest.split('`').next())
            .unwrap_or_else(|| panic!("{code}: no suggestion in {hint:?}"));
        let fixed = text.replacen(wrong, suggestion, 1);
        t.write("content/hinted.md", &fixed);
        let after = t.check();
        assert!(
            after.diagnostics.is_empty(),
            "{code}: following {hint:?} left:\n{}",
            check::format(&after, Format::Human)
        );
    }
}

/// Issue 25, point 4: without a lock, a duplicate id is reported on the
/// page changed last (the one just written), even when it comes first in
/// page order, and says where the other is.
#[test]
fn a_duplicate_id_is_reported_where_it_was_just_written_issue_25() {
    let mut t = SiteTest::from_fixture("check/clean");
    // The original was written an hour ago.
    let hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    std::fs::File::options()
        .write(true)
        .open(t.root().join("content/page.md"))
        .and_then(|f| f.set_modified(hour_ago))
        .expect("set the original's mtime");
    t.write(
        "content/0-new.md",
        "+++\ntitle = { ja = \"新\", en = \"New\" }\n\n[[claims]]\nid = \"page-claim\"\nclass = \"confirmed\"\nja = \"新しい。\"\nen = \"New.\"\nevidence = [\"logs/a.log#L2\"]\n+++\n\n::: ja\n本文。\n:::\n::: en\nBody.\n:::\n",
    );
    let report = check_untouched(&t);
    let e016: Vec<(String, String)> = report
        .diagnostics
        .iter()
        .filter(|d| d.code == "E016")
        .map(|d| (d.location.to_string(), d.message.clone()))
        .collect();
    assert_eq!(
        e016,
        [(
            "content/0-new.md:5:6".to_owned(),
            "duplicate claim id `page-claim` (also at content/page.md:5:6, in a file changed before this one)".to_owned()
        )]
    );
}

/// A site whose claim `a` is inferred from `b`, which is unresolved
/// (W082 on `a`, naming `b`), accepting W082 for the claim `accepted`.
fn inferred_from_unresolved(accepted: &str) -> Report {
    let dir = crate::scratch::tempdir();
    let root = dir.path();
    let write = |path: &str, text: &str| {
        let at = root.join(path);
        std::fs::create_dir_all(at.parent().expect("a parent")).expect("mkdir");
        std::fs::write(at, text).expect("write");
    };
    write(
        "book.toml",
        &format!("[book]\ntitle = \"R\"\nlanguages = [\"ja\", \"en\"]\n\n[[check.accept]]\ncode = \"W082\"\nclaim = \"{accepted}\"\nreason = {{ ja = \"理由\", en = \"Why.\" }}\n"),
    );
    write(
        "content/_index.md",
        "+++\ntitle = \"Home\"\n+++\n\n::: ja\n本文。\n:::\n::: en\nText.\n:::\n",
    );
    write(
        "content/p.md",
        "+++\ntitle = \"P\"\n\n[[claims]]\nid = \"a\"\nclass = \"inferred\"\nja = \"甲。\"\nen = \"A.\"\nevidence = [\"log.txt#L1\"]\nfrom = [\"b\"]\n\n[[claims]]\nid = \"b\"\nclass = \"unresolved\"\nja = \"乙。\"\nen = \"B.\"\nevidence = [\"log.txt#L1\"]\nsettle = { ja = \"丙。\", en = \"C.\" }\n+++\n\n::: ja\n[[claim:a]]\n:::\n::: en\n[[claim:a]]\n:::\n",
    );
    write("evidence/log.txt", "+++\nkind = \"raw\"\n+++\nline\n");
    crate::common::check(root).expect("checks")
}

/// Issue 41: an acceptance scoped to a claim covers the findings about
/// that claim, not every finding whose text names it: W082 about `a`
/// names its premise `b`, and accepting it for `b` hid it.
#[test]
fn a_claim_scope_covers_findings_about_the_claim_not_naming_it_issue_41() {
    let report = inferred_from_unresolved("b");
    let shown: Vec<&str> = report.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(shown, ["W082", "W070"], "{:#?}", report.diagnostics);
    assert_eq!(report.accepted_count(), 0);
    let report = inferred_from_unresolved("a");
    assert!(report.diagnostics.is_empty(), "{:#?}", report.diagnostics);
    assert_eq!(report.accepted_count(), 1);
}
