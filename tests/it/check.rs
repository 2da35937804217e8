//! `kansoku check`, the CI gate (SPEC §6, §8; issue 3).
//!
//! Every case under `tests/fixtures/check/<case>/` is the small valid site of
//! `tests/fixtures/check/clean/` with exactly one mistake (`combined` has
//! many). For each case the human output is an insta snapshot
//! (`tests/it/snapshots/it__check__<case>.snap`) and the JSON output is parsed and
//! compared with the table below: code, severity, path, line and column of
//! every finding, in order. Codes that only rendering can find (E040) go
//! through `build` instead; their table rows say so.
//!
//! SPEC §8's bad inputs that are bytes rather than text (BOM, CRLF, invalid
//! UTF-8, symlinks, a 10 MB log, very deep or very long Markdown) are made in
//! the test from the clean site. The real binary is used for exit codes and
//! for `--format github`. Nothing here writes into the repository.

use crate::common;

use common::{fixture, json_findings, parse_json_findings, repo_root, JsonFinding, SiteTest, Tree};
use kansoku::check::{self, Format, Report};
use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Command, Output};

/// Which command finds the case's mistake.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// `check` reports it (and `build` refuses the site too).
    Check,
    /// Only rendering can find it: `check` is clean, `build` fails.
    Build,
}

/// `(code, severity, path, line, col)` of one expected finding.
type Expected = (&'static str, &'static str, &'static str, usize, usize);

/// One `#[test]` per fixture plus `CASES`, the list the pairing test holds
/// against the fixture directories, and `TABLE`, every expected finding.
macro_rules! cases {
    ($( $(#[$meta:meta])* $test:ident: $dir:literal, $stage:ident, [$($f:expr),* $(,)?]; )*) => {
        const CASES: &[(&str, Stage, &[Expected])] = &[$(($dir, Stage::$stage, &[$($f),*])),*];
        $(
            #[test]
            $(#[$meta])*
            fn $test() {
                run_case($dir, Stage::$stage, &[$($f),*]);
            }
        )*
    };
}

cases! {
    clean_site_has_no_findings: "clean", Check, [];
    e001_toml_syntax: "e001-toml-syntax", Check,
        [("E001", "error", "content/page.md", 3, 10)];
    e001_front_matter_never_closed: "e001-unclosed-front-matter", Check,
        [("E001", "error", "content/page.md", 1, 1)];
    e002_unknown_key: "e002-unknown-key", Check,
        [("E002", "error", "content/page.md", 10, 1)];
    e003_wrong_type: "e003-wrong-type", Check,
        [("E003", "error", "content/page.md", 3, 10)];
    e004_missing_title: "e004-missing-title", Check,
        [("E004", "error", "content/page.md", 1, 1)];
    e005_gz_too_large: "e005-gz-too-large", Check,
        [("E005", "error", "evidence/logs/dmesg.log.gz", 1, 1)];
    e007_license_not_on_the_spdx_list: "e007-unknown-license", Check,
        [("E007", "error", "book.toml", 4, 12)];
    e008_publisher_url_without_a_scheme: "e008-publisher", Check,
        [("E008", "error", "book.toml", 4, 35)];
    e010_unknown_class: "e010-unknown-class", Check,
        [("E010", "error", "content/page.md", 6, 9)];
    e011_claim_without_evidence: "e011-no-evidence", Check,
        [("E011", "error", "content/page.md", 5, 6)];
    e012_evidence_file_missing: "e012-evidence-missing", Check,
        [("E012", "error", "content/page.md", 9, 13)];
    e013_range_outside_the_file: "e013-range-outside", Check,
        [("E013", "error", "content/page.md", 9, 13)];
    e014_quote_not_in_range: "e014-quote-not-in-range", Check,
        [("E014", "error", "content/page.md", 9, 59)];
    e015_dotdot_path: "e015-dotdot", Check,
        [("E015", "error", "content/page.md", 9, 30)];
    e015_percent_encoded_dotdot: "e015-percent-encoded", Check,
        [("E015", "error", "content/page.md", 9, 30)];
    e015_absolute_path: "e015-absolute", Check,
        [("E015", "error", "content/page.md", 9, 30)];
    e016_duplicate_claim_id: "e016-duplicate-id", Check,
        [("E016", "error", "content/page.md", 5, 6)];
    e017_claim_id_with_spaces: "e017-id-with-spaces", Check,
        [("E017", "error", "content/page.md", 5, 6)];
    e018_malformed_range: "e018-malformed-range", Check,
        [("E018", "error", "content/page.md", 9, 13)];
    e020_unknown_claim_reference: "e020-unknown-claim-ref", Check,
        [("E020", "error", "content/page.md", 16, 7)];
    e021_unknown_entity_kind: "e021-unknown-kind", Check,
        [("E021", "error", "content/page.md", 5, 8)];
    e022_duplicate_entity_key: "e022-duplicate-key", Check,
        [("E022", "error", "content/twin.md", 6, 7)];
    e019_a_captured_body_changed: "e019-capture-changed", Check,
        [("E019", "error", "evidence/logs/run.txt", 1, 1)];
    e023_two_claims_in_one_cell: "e023-two-claims-one-cell", Check,
        [("E023", "error", "content/page.md", 14, 6)];
    e024_unknown_answer: "e024-unknown-answer", Check,
        [("E024", "error", "content/page.md", 18, 10)];
    e030_link_to_missing_page: "e030-missing-page", Check,
        [("E030", "error", "content/page.md", 16, 32)];
    e030_link_to_missing_anchor: "e030-missing-anchor", Check,
        [("E030", "error", "content/page.md", 20, 36)];
    e031_claim_lacks_a_language: "e031-missing-lang", Check,
        [("E031", "error", "content/page.md", 5, 6)];
    e032_untranslated_segment: "e032-untranslated", Check,
        [("E032", "error", "content/page.md", 19, 1)];
    e033_unclosed_language_block: "e033-unclosed-block", Check,
        [("E033", "error", "content/page.md", 15, 1)];
    e040_template_error_in_override: "e040-template-error", Build,
        [("E040", "error", "templates/page.html", 1, 1)];
    e041_fluent_syntax_error: "e041-fluent-error", Check,
        [("E041", "error", "templates/i18n/en.ftl", 2, 30)];
    e042_output_path_collision: "e042-output-collision", Check,
        [
            ("E042", "error", "content/evidence/_index.md", 1, 1),
            ("E042", "error", "content/evidence/_index.md", 1, 1),
        ];
    e050_dot_diagram_does_not_parse: "e050-bad-dot", Check,
        [("E050", "error", "content/page.md", 19, 1)];
    e090_unknown_key_in_depends_on: "e090-unknown-depends-on", Check,
        [("E090", "error", "content/page.md", 15, 15)];
    e091_unknown_named_view: "e091-unknown-view", Check,
        [("E091", "error", "content/page.md", 28, 1)];
    w001_evidence_cited_by_no_claim: "w001-uncited-evidence", Check,
        [("W001", "warning", "evidence/logs/unused.log", 1, 1)];
    w002_confirmed_on_transcript_only: "w002-transcript-only", Check,
        [("W002", "warning", "content/page.md", 5, 6)];
    w003_raw_html_in_claim_text: "w003-raw-html", Check,
        [("W003", "warning", "content/page.md", 8, 6)];
    /// Issue 25: English under `ja =` (a copy-paste, or swapped texts).
    w004_text_in_the_other_language: "w004-other-language", Check,
        [("W004", "warning", "content/page.md", 7, 6)];
    /// Issue 39: a bidirectional control in a text (attacks L8).
    w062_bidi_control_in_a_text: "w062-bidi-control", Check,
        [("W062", "warning", "content/page.md", 8, 6)];
    e080_lock_does_not_parse: "e080-bad-lock", Check,
        [("E080", "error", "kansoku.lock", 7, 9)];
    e081_cited_text_changed_after_review: "e081-suspect", Check,
        [
            ("E081", "error", "content/_index.md", 9, 13),
            ("E081", "error", "content/page.md", 9, 13),
        ];
    e082_cited_text_moved: "e082-moved", Check,
        [
            ("E082", "error", "content/_index.md", 9, 13),
            ("E082", "error", "content/page.md", 9, 13),
        ];
    e083_premise_reclassed: "e083-premise", Check,
        [
            ("E083", "error", "content/page.md", 17, 9),
            ("W081", "warning", "content/_index.md", 5, 6),
        ];
    e084_stale_claim_translation: "e084-stale-claim", Check,
        [("E084", "error", "content/page.md", 5, 6)];
    e085_stale_pair_translation: "e085-stale-pair", Check,
        [("E085", "error", "content/page.md", 15, 1)];
    e086_from_cycle: "e086-from-cycle", Check,
        [("E086", "error", "content/page.md", 17, 9)];
    e087_retracted_without_reason: "e087-lifecycle", Check,
        [("E087", "error", "content/page.md", 7, 9)];
    w080_unreviewed_claim: "w080-unreviewed", Check,
        [("W080", "warning", "content/page.md", 5, 6)];
    w081_changed_since_review: "w081-changed", Check,
        [("W081", "warning", "content/page.md", 5, 6)];
    w082_stronger_than_premises: "w082-stronger", Check,
        [("W082", "warning", "content/page.md", 24, 9)];
    w083_confirmed_with_from: "w083-confirmed-from", Check,
        [("W083", "warning", "content/page.md", 10, 9)];
    w084_lock_names_a_removed_claim: "w084-lock-orphan", Check,
        [("W084", "warning", "kansoku.lock", 1, 1)];
    /// Issue 15: one mistake, one finding. The claim without evidence is
    /// still known to the page that refers to it.
    e011_does_not_cascade_into_e020_issue_15: "e011-no-cascade", Check,
        [("E011", "error", "content/page.md", 5, 6)];
    /// Issue 15: references into a claim whose TOML does not parse are
    /// reported once, not as unknown ids (issue 25: the rest of the page
    /// is still read; here the claim itself is what does not parse).
    w071_reference_into_a_failed_page_issue_15: "w071-reference-into-failed-page", Check,
        [
            ("E001", "error", "content/page.md", 7, 9),
            ("W071", "warning", "content/_index.md", 13, 26),
        ];
    e070_only_warnings_can_be_accepted: "e070-accept-an-error", Check,
        [("E070", "error", "book.toml", 9, 8)];
    e071_acceptance_needs_a_reason: "e071-accept-without-reason", Check,
        [("E071", "error", "book.toml", 10, 10)];
    e072_acceptance_takes_one_scope: "e072-accept-two-scopes", Check,
        [("E072", "error", "book.toml", 12, 9)];
    w070_acceptance_that_matches_nothing: "w070-acceptance-matches-nothing", Check,
        [("W070", "warning", "book.toml", 8, 1)];
    w002_accepted_is_counted_not_listed: "w002-accepted", Check, [];
    e060_file_name_unsafe_in_a_url: "e060-unsafe-name", Check,
        [("E060", "error", "content/a#b.md", 1, 1)];
    w060_symlink_skipped: "w060-symlink", Check,
        [("W060", "warning", "content/alias.md", 1, 1)];
    e061_raw_html_denied: "e061-raw-html-deny", Check,
        [("E061", "error", "content/page.md", 16, 28)];
    e062_active_url_in_a_body: "e062-active-url", Check,
        [("E062", "error", "content/page.md", 16, 28)];
    w061_raw_html_warned: "w061-raw-html-warn", Check,
        [("W061", "warning", "content/page.md", 16, 28)];
    combined_reports_every_mistake_in_order: "combined", Check,
        [
            ("E020", "error", "content/_index.md", 13, 26),
            ("E030", "error", "content/_index.md", 16, 41),
            ("E010", "error", "content/a.md", 6, 9),
            ("E011", "error", "content/a.md", 12, 6),
            ("E031", "error", "content/a.md", 18, 6),
            ("E012", "error", "content/b.md", 9, 13),
            ("E013", "error", "content/b.md", 16, 13),
            ("E014", "error", "content/b.md", 23, 57),
            ("E021", "error", "content/notes/c.md", 5, 8),
            ("E020", "error", "content/notes/c.md", 8, 10),
            ("E016", "error", "content/notes/c.md", 11, 6),
            ("E032", "error", "content/notes/c.md", 18, 1),
            ("E033", "error", "content/notes/d.md", 11, 1),
            // Errors first, then warnings, each in source order.
            ("W002", "warning", "content/b.md", 26, 6),
            ("W003", "warning", "content/b.md", 35, 6),
            ("W001", "warning", "evidence/logs/unused.log", 1, 1),
        ];
}

/// Codes the engine defines that no fixture can reach, with the reason.
const UNREACHABLE: &[(&str, &str)] = &[
    (
        "E009",
        "a value of the environment (SOURCE_DATE_EPOCH), not of a site: tests/it/workflow.rs runs the binary with one and asserts the message",
    ),
    (
        "W005",
        "needs a log over 8 MiB with a line over 1 MiB, too large to commit as a fixture: tests/it/large_logs.rs writes one and asserts the message",
    ),
    (
        "E045",
        "names the build directory's resolved path, which differs from machine to machine, and build stops on it as a usage error: tests/it/build_dir.rs asserts both on a temporary site",
    ),
    (
        "E043",
        "an evidence file that became unreadable, or changed, between loading and writing: a race, not a site (tests/it/large_logs.rs changes one at known points of a build)",
    ),
    (
        "W041",
        "about the published address, which only a build uses: `check` never reports it (tests/it/build.rs asserts it)",
    ),
    (
        "W040",
        "about a file in the build directory, not the sources: `check` never looks there (tests/it/build_dir.rs asserts it)",
    ),
    (
        "E044",
        "a person's file at a path the build writes: about the build directory, which `check` never looks at (tests/it/build_dir.rs asserts it)",
    ),
    (
        "W042",
        "a leftover of an earlier build kansoku cannot remove: about its own records, not the sources (tests/it/build_dir.rs asserts it)",
    ),
    (
        "W043",
        "entries planted in kansoku's spare tree: about its own records, not the sources (tests/it/build_dir.rs asserts it)",
    ),
];

/// Errors in `check` that `build` and `serve` only warn about: an
/// untranslated segment, and what the review lock finds (the page then
/// shows readers a notice instead).
const BUILD_WARNS: &[&str] = &["E032", "E081", "E082", "E083", "E084", "E085"];

/// The case's site in a temp dir.
fn site(case: &str) -> SiteTest {
    SiteTest::from_fixture(&format!("check/{case}"))
}

fn keys(findings: &[JsonFinding]) -> Vec<(&str, &str, &str, usize, usize)> {
    findings.iter().map(JsonFinding::key).collect()
}

/// Checks a site and asserts `check` wrote nothing.
fn check_untouched(t: &SiteTest) -> Report {
    let before = Tree::of(t.root());
    let report = t.check();
    before.assert_same(&Tree::of(t.root()), "the site after `check`");
    report
}

/// The JSON findings of `report`, asserted to be `expected` exactly and in
/// the same order as the human output.
fn assert_json(case: &str, report: &Report, expected: &[Expected]) -> Vec<JsonFinding> {
    let found = json_findings(report);
    assert_eq!(keys(&found), expected.to_vec(), "{case}: JSON findings");
    for (f, d) in found.iter().zip(&report.diagnostics) {
        assert_eq!(f.message, d.message, "{case}: JSON message");
        assert_eq!(f.hint, d.hint, "{case}: JSON hint");
        assert!(
            f.hint.as_deref().is_some_and(|h| !h.is_empty()),
            "{case}: every finding has a hint: {f:?}"
        );
    }
    found
}

fn run_case(case: &str, stage: Stage, expected: &[Expected]) {
    assert!(
        fixture(&format!("check/{case}")).is_dir(),
        "no fixture tests/fixtures/check/{case}"
    );
    let mut t = site(case);
    let report = check_untouched(&t);
    match stage {
        Stage::Check => {
            assert_json(case, &report, expected);
            insta::assert_snapshot!(case, check::format(&report, Format::Human));
            let errors = expected.iter().any(|e| e.1 == "error");
            assert_eq!(report.exit_code(), u8::from(errors), "{case}: exit code");
            // `build` runs the same rules: errors stop it, warnings do not,
            // and an untranslated segment (E032) is only a warning there.
            if expected
                .iter()
                .any(|e| e.1 == "error" && !BUILD_WARNS.contains(&e.0))
            {
                assert!(
                    matches!(t.build_err(), kansoku::Error::Content(_)),
                    "{case}: build refuses the site"
                );
                assert!(!t.out().exists(), "{case}: build wrote public/");
            } else if errors {
                t.build();
                // In place order: `build` keeps the warnings it made of
                // these errors where they are in the files.
                // W041 is about the published address, which `check` does
                // not look at.
                let mut warned: Vec<&str> = t
                    .report()
                    .warnings
                    .iter()
                    .map(|d| d.code)
                    .filter(|&c| c != "W041")
                    .collect();
                let mut want: Vec<&str> = expected.iter().map(|e| e.0).collect();
                warned.sort_unstable();
                want.sort_unstable();
                assert_eq!(warned, want, "{case}: build warns instead");
            }
        }
        Stage::Build => {
            // Rendering is where these live: `check` does not see them.
            assert_eq!(
                keys(&json_findings(&report)),
                Vec::<(&str, &str, &str, usize, usize)>::new(),
                "{case}: check findings"
            );
            let err = t.build_err();
            let kansoku::Error::Content(diagnostics) = &err else {
                panic!("{case}: expected content errors, got {err}");
            };
            insta::assert_snapshot!(case, err.to_string());
            let report = Report {
                diagnostics: diagnostics.clone(),
                ..Report::default()
            };
            assert_json(case, &report, expected);
            assert!(!t.out().exists(), "{case}: build wrote public/");
        }
    }
}

// ---------------------------------------------------------------------------
// Pairing: fixtures, table, engine codes and README stay in step.

fn fixture_dirs() -> BTreeSet<String> {
    std::fs::read_dir(fixture("check"))
        .expect("tests/fixtures/check is readable")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect()
}

#[test]
fn every_fixture_has_a_case_and_every_case_a_fixture() {
    let dirs = fixture_dirs();
    let cases: BTreeSet<String> = CASES.iter().map(|c| c.0.to_owned()).collect();
    assert_eq!(CASES.len(), cases.len(), "a case is listed twice");
    let untested: Vec<_> = dirs.difference(&cases).collect();
    let missing: Vec<_> = cases.difference(&dirs).collect();
    assert!(untested.is_empty(), "fixtures without a case: {untested:?}");
    assert!(missing.is_empty(), "cases without a fixture: {missing:?}");
}

#[test]
fn every_case_has_its_own_snapshot() {
    for (case, _, _) in CASES {
        let snap = repo_root().join(format!("tests/it/snapshots/it__check__{case}.snap"));
        assert!(snap.is_file(), "no snapshot {}", snap.display());
    }
}

/// Every `"E…"`/`"W…"` code literal in the engine's sources.
fn engine_codes() -> BTreeSet<String> {
    let mut codes = BTreeSet::new();
    for entry in walk(&repo_root().join("src")) {
        if entry.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let text = std::fs::read_to_string(&entry).expect("source is UTF-8");
        let b = text.as_bytes();
        for i in 0..b.len().saturating_sub(5) {
            let code = &b[i + 1..i + 5];
            if b[i] == b'"'
                && matches!(code[0], b'E' | b'W')
                && code[1..].iter().all(u8::is_ascii_digit)
                && b[i + 5] == b'"'
            {
                codes.insert(String::from_utf8_lossy(code).into_owned());
            }
        }
    }
    codes
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).expect("readable dir") {
        let p = e.expect("entry").path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

#[test]
fn every_engine_code_has_a_fixture() {
    let covered: BTreeSet<&str> = CASES.iter().flat_map(|c| c.2.iter().map(|e| e.0)).collect();
    let unreachable: BTreeSet<&str> = UNREACHABLE.iter().map(|u| u.0).collect();
    let missing: Vec<String> = engine_codes()
        .into_iter()
        .filter(|c| !covered.contains(c.as_str()) && !unreachable.contains(c.as_str()))
        .collect();
    assert!(missing.is_empty(), "codes with no fixture: {missing:?}");
}

#[test]
fn readme_documents_every_engine_code() {
    let readme = std::fs::read_to_string(repo_root().join("README.md")).expect("README.md");
    let section = readme
        .split("\n## Diagnostics\n")
        .nth(1)
        .expect("README has a Diagnostics section");
    let section = section.split("\n## ").next().expect("section text");
    for code in engine_codes() {
        assert!(
            section.contains(&format!("| `{code}` |")),
            "README's Diagnostics table has no row for {code}"
        );
    }
}

// ---------------------------------------------------------------------------
// Exact messages and hints of a few cases.

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

// ---------------------------------------------------------------------------
// SPEC §8: bad input gives a finding, never a panic.

/// The clean site with `content/page.md` replaced by `bytes`.
fn clean_with_page(bytes: &[u8]) -> SiteTest {
    let mut t = site("clean");
    t.write_bytes("content/page.md", bytes);
    t
}

fn human(report: &Report) -> String {
    check::format(report, Format::Human)
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

#[test]
fn bad_book_toml_is_one_located_finding() {
    let mut t = site("combined");
    t.edit(
        "book.toml",
        "languages = [\"ja\", \"en\"]",
        "languages = [\"ja\", \"en\"\nlangs = 2",
    );
    let report = t.check();
    let found = json_findings(&report);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(
        (found[0].code.as_str(), found[0].path.as_str()),
        ("E001", "book.toml")
    );
    assert_eq!(report.exit_code(), 1);
}

// ---------------------------------------------------------------------------
// The real binary: formats, streams and exit codes.

fn kansoku(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kansoku"))
        .args(args)
        .output()
        .expect("the kansoku binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("output is UTF-8")
}

fn root_arg(t: &SiteTest) -> &str {
    t.root().to_str().expect("temp paths are UTF-8")
}

#[test]
fn github_format_through_the_binary() {
    let t = site("e013-range-outside");
    let out = kansoku(&["check", "--root", root_arg(&t), "--format", "github"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stdout),
        "::error file=content/page.md,line=9,col=13,title=E013::line range L4-L9 is outside \
         `evidence/logs/a.log`, which has 5 lines after its header (hint: lines count from 1 \
         after the header; the last is L5)\n::notice title=kansoku check::check: 1 error, 0 warnings\n"
    );
    assert_eq!(text(&out.stderr), "");
}

#[test]
fn github_format_marks_warnings_as_warnings() {
    let t = site("w001-uncited-evidence");
    let out = kansoku(&["check", "--root", root_arg(&t), "--format", "github"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        text(&out.stdout),
        "::warning file=evidence/logs/unused.log,line=1,col=1,title=W001::evidence file \
         `evidence/logs/unused.log` is cited by no claim (hint: cite it from a claim's \
         `evidence`, or remove it)\n::notice title=kansoku check::check: no errors, 1 warning\n"
    );
}

#[test]
fn json_format_through_the_binary_is_one_object_per_finding() {
    let t = site("combined");
    let out = kansoku(&["check", "--root", root_arg(&t), "--format", "json"]);
    assert_eq!(out.status.code(), Some(1));
    let found = parse_json_findings(&text(&out.stdout));
    assert_eq!(found, json_findings(&t.check()));
    assert_eq!(found.len(), 16);
}

#[test]
fn exit_0_when_clean() {
    let t = site("clean");
    let out = kansoku(&["check", "--root", root_arg(&t)]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stderr), "check: no errors, 0 warnings\n");
    assert_eq!(text(&out.stdout), "");
}

#[test]
fn exit_0_with_warnings_only() {
    for case in [
        "w001-uncited-evidence",
        "w002-transcript-only",
        "w003-raw-html",
    ] {
        let t = site(case);
        let out = kansoku(&["check", "--root", root_arg(&t)]);
        assert_eq!(out.status.code(), Some(0), "{case}");
        assert!(
            text(&out.stderr).ends_with("check: no errors, 1 warning\n"),
            "{case}"
        );
    }
}

#[test]
fn exit_1_on_content_errors() {
    let t = site("e010-unknown-class");
    let out = kansoku(&["check", "--root", root_arg(&t)]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stderr), human(&t.check()));
    let t = site("combined");
    let out = kansoku(&["check", "--root", root_arg(&t)]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).ends_with("check: 13 errors, 3 warnings\n"));
}

#[test]
fn exit_2_without_book_toml() {
    let dir = crate::scratch::tempdir();
    std::fs::create_dir(dir.path().join("content")).expect("mkdir");
    let root = dir.path().to_str().expect("UTF-8 path");
    let out = kansoku(&["check", "--root", root]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.starts_with("error: no book.toml in "), "{err}");
    assert_eq!(text(&out.stdout), "");
    assert!(matches!(
        check::check(dir.path()),
        Err(kansoku::Error::Usage(_))
    ));
}

#[test]
fn exit_2_on_usage_errors() {
    let missing = repo_root().join("tests/fixtures/check/no-such-site");
    let out = kansoku(&["check", "--root", missing.to_str().expect("UTF-8")]);
    assert_eq!(out.status.code(), Some(2));
    let t = site("clean");
    let out = kansoku(&["check", "--root", root_arg(&t), "--format", "xml"]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "an unknown format is a usage error"
    );
    std::fs::remove_dir_all(t.root().join("content")).expect("rm content");
    let out = kansoku(&["check", "--root", root_arg(&t)]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
}

// ---------------------------------------------------------------------------
// Pages are loaded and checked in parallel; the findings must not show it.

/// The combined case copied into many sections, so that pages are split
/// between threads and the site-wide rules (duplicate ids, entity keys,
/// matrix cells, links between pages) fire across copies, checked with 1,
/// 2 and 4 rayon threads.
#[test]
fn findings_do_not_depend_on_the_thread_count() {
    let t = site("combined");
    for i in 0..24 {
        common::copy_dir(
            &fixture("check/combined/content"),
            &t.root().join(format!("content/copy{i:02}")),
        );
    }
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a thread pool can be built");
        let report = pool
            .install(|| check::check(t.root()))
            .unwrap_or_else(|e| panic!("check with {threads} thread(s) failed outright: {e}"));
        (
            check::format(&report, Format::Human),
            check::format(&report, Format::Json),
        )
    };
    let one = run(1);
    for code in ["E016", "E020", "E030"] {
        assert!(one.1.contains(code), "the copies give {code}:\n{}", one.0);
    }
    for threads in [2, 4] {
        let many = run(threads);
        assert_eq!(many.0, one.0, "human output, {threads} threads vs 1");
        assert_eq!(many.1, one.1, "JSON output, {threads} threads vs 1");
    }
}

/// Issue 25: ten usual mistakes made in one editing session, most of them
/// on one page, give exactly ten errors, each where it was made, and no
/// false warning: no error hides another, and a page with errors still
/// cites its evidence (no W001).
#[test]
fn ten_mistakes_at_once_give_ten_errors_issue_25() {
    let mut t = SiteTest::from_fixture("check/clean");
    let log = "+++\nkind = \"raw\"\nsource = \"./run\"\n+++\nline one\nline two: output\nline three\nline four\nline five\n";
    t.write("evidence/logs/a.log", log);
    t.write(
        "content/notes.md",
        "+++\ntitle = { ja = \"記録\", en = \"Notes\" }\nweigth = 3\n\n[[claims]]\nid = \"gone-file\"\nclass = \"confirmed\"\nja = \"一。\"\nen = \"One.\"\nevidence = [\"logs/missing.log#L1\"]\n\n[[claims]]\nid = \"past-end\"\nclass = \"confirmed\"\nja = \"二。\"\nen = \"Two.\"\nevidence = [\"logs/a.log#L4-L9\"]\n\n[[claims]]\nid = \"bad-class\"\nclass = \"confimed\"\nja = \"三。\"\nen = \"Three.\"\nevidence = [\"logs/a.log#L1\"]\n\n[[claims]]\nid = \"no-evidence\"\nclass = \"inferred\"\nja = \"四。\"\nen = \"Four.\"\n\n[[claims]]\nid = \"no-ja\"\nclass = \"confirmed\"\nen = \"Five.\"\nevidence = [\"logs/a.log#L5\"]\n\n[[claims]]\nid = \"wrong-quote\"\nclass = \"confirmed\"\nja = \"六。\"\nen = \"Six.\"\nevidence = [{ path = \"logs/a.log\", lines = \"3\", quote = \"output\" }]\n+++\n\n::: ja\n本文。\n:::\n\n::: en\nBody.\n:::\n\n[記録 / The record](missing.md)\n",
    );
    t.write(
        "content/broken.md",
        "+++\ntitle = { ja = \"壊れ\", en = \"Broken\" }\nweight = = 3\n\n[[claims]]\nid = \"broken-ok\"\nclass = \"confirmed\"\nja = \"七。\"\nen = \"Seven.\"\nevidence = [\"logs/a.log#L2\"]\n+++\n\n::: ja\n本文。\n:::\n\n::: en\nBody.\n:::\n",
    );
    t.write(
        "content/twice.md",
        "+++\ntitle = { ja = \"二重\", en = \"Twice\" }\n\n[[claims]]\nid = \"past-end\"\nclass = \"confirmed\"\nja = \"八。\"\nen = \"Eight.\"\nevidence = [\"logs/a.log#L3\"]\n+++\n\n::: ja\n本文。\n:::\n\n::: en\nBody.\n:::\n",
    );
    let report = check_untouched(&t);
    let found: Vec<(&str, String)> = report
        .diagnostics
        .iter()
        .map(|d| (d.code, d.location.to_string()))
        .collect();
    let expected = [
        ("E001", "content/broken.md:3:10"),
        ("E002", "content/notes.md:3:1"),
        ("E012", "content/notes.md:10:13"),
        ("E013", "content/notes.md:17:13"),
        ("E010", "content/notes.md:21:9"),
        ("E011", "content/notes.md:27:6"),
        ("E031", "content/notes.md:33:6"),
        ("E014", "content/notes.md:43:57"),
        ("E030", "content/notes.md:54:1"),
        ("E016", "content/twice.md:5:6"),
    ];
    let mut got: Vec<(&str, &str)> = found.iter().map(|(c, l)| (*c, l.as_str())).collect();
    got.sort_by_key(|(_, l)| l.to_owned());
    let mut want = expected.to_vec();
    want.sort_by_key(|(_, l)| *l);
    assert_eq!(got, want, "{}", check::format(&report, Format::Human));
}

/// Issue 25, point 6: `check` gives headings the ids the page gets, theme
/// ids included (a heading "Main" is `#main-1`: `<main id="main">` has
/// `#main`), and an anchor written in the other language's id is named as
/// such.
#[test]
fn heading_ids_are_the_rendered_ones_issue_25() {
    let mut t = SiteTest::from_fixture("check/clean");
    t.write(
        "content/ids.md",
        "+++\ntitle = { ja = \"見出し\", en = \"Headings\" }\n+++\n\n::: ja\n## 観測\n\n## Main\n:::\n\n::: en\n## Observation\n\n## Main\n\n[to main](#main) and [to the other](#観測) and [ok](#main-1)\n:::\n",
    );
    let report = check_untouched(&t);
    let found: Vec<(String, String, Option<String>)> = report
        .diagnostics
        .iter()
        .map(|d| (d.location.to_string(), d.message.clone(), d.hint.clone()))
        .collect();
    assert_eq!(
        found,
        [
            (
                "content/ids.md:16:1".to_owned(),
                "anchor `#main` not found in the en page of `content/ids.md`".to_owned(),
                Some("did you mean `#main-1`?".to_owned())
            ),
            (
                "content/ids.md:16:22".to_owned(),
                "anchor `#観測` not found in the en page of `content/ids.md`".to_owned(),
                Some("`#観測` is a heading id of the ja text; the en text's ids are `#main-1`, `#observation`".to_owned())
            ),
        ],
        "{}",
        check::format(&report, Format::Human)
    );
    // What the page really has: the same ids.
    t.write(
        "content/ids.md",
        "+++\ntitle = { ja = \"見出し\", en = \"Headings\" }\n+++\n\n::: ja\n## 観測\n\n## Main\n:::\n\n::: en\n## Observation\n\n## Main\n\n[ok](#main-1)\n:::\n",
    );
    t.build();
    let en = std::fs::read_to_string(t.out_path("en/ids/index.html")).expect("built");
    assert!(en.contains("id=\"main-1\"") && en.contains("id=\"observation\""));
}

/// A valid page of the `clean` site whose claim is `id`.
fn page_with_claim(id: &str) -> String {
    format!(
        "+++\ntitle = {{ ja = \"別\", en = \"Other\" }}\n\n[[claims]]\nid = \"{id}\"\nclass = \"confirmed\"\nja = \"二行目。\"\nen = \"Line two.\"\nevidence = [\"logs/a.log#L2\"]\n+++\n\n::: ja\n本文。\n:::\n::: en\nBody.\n:::\n"
    )
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

/// Issue 25, point 2: a citation counts however its page parses. A file
/// cited only from a claim whose TOML is broken, or only through a
/// malformed link, is not "cited by no claim" (no W001).
#[test]
fn broken_citations_still_count_against_w001_issue_25() {
    let mut t = SiteTest::from_fixture("check/clean");
    let log = "+++\nkind = \"raw\"\nsource = \"./run\"\n+++\none\ntwo\n";
    t.write("evidence/logs/only-broken.log", log);
    t.write("evidence/logs/only-malformed.log", log);
    t.write(
        "content/broken.md",
        "+++\ntitle = { ja = \"壊れ\", en = \"Broken\" }\n\n[[claims]]\nid = \"b1\"\nclass = = \"confirmed\"\nja = \"一。\"\nen = \"One.\"\nevidence = [\"logs/only-broken.log#L1\"]\n\n[[claims]]\nid = \"b2\"\nclass = \"confirmed\"\nja = \"二。\"\nen = \"Two.\"\nevidence = [\"logs/only-malformed.log:2\"]\n+++\n\n::: ja\n本文。\n:::\n\n::: en\nBody.\n:::\n",
    );
    let report = check_untouched(&t);
    let found: Vec<(&str, String)> = report
        .diagnostics
        .iter()
        .map(|d| (d.code, d.location.to_string()))
        .collect();
    assert_eq!(
        found,
        [
            ("E001", "content/broken.md:6:9".to_owned()),
            ("E018", "content/broken.md:16:13".to_owned())
        ],
        "{}",
        check::format(&report, Format::Human)
    );
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
            "",
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
        let fixed = if code == "E014" {
            // The hint names the link as it should be written.
            text.replace(
                "{ path = \"logs/h.log\", lines = \"1\", quote = \"line two\" }",
                &format!(
                    "{{ path = \"{}\", lines = \"{}\", quote = \"line two\" }}",
                    suggestion.split('#').next().unwrap_or_default(),
                    suggestion.split("#L").nth(1).unwrap_or_default()
                ),
            )
        } else {
            text.replacen(wrong, suggestion, 1)
        };
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
