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

use common::{fixture, json_findings, repo_root, JsonFinding, SiteTest, Tree};
use kansoku::check::{self, Format, Report};
use std::collections::BTreeSet;
use std::path::Path;

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
    e005_placeholder_title: "e005-placeholder-title", Check,
        [("E005", "error", "content/page.md", 2, 32)];
    e006_gz_too_large: "e006-gz-too-large", Check,
        [("E006", "error", "evidence/logs/dmesg.log.gz", 1, 1)];
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
    /// Issue 40 (trial H1): a misspelt `about` took its claim out of every
    /// view in silence.
    e025_unknown_entity_in_about: "e025-unknown-about", Check,
        [("E025", "error", "content/page.md", 7, 9)];
    /// Issue 40 (trial M7): a misspelt `aspect` likewise.
    e026_unknown_aspect: "e026-unknown-aspect", Check,
        [("E026", "error", "content/page.md", 8, 10)];
    /// Issue 40: every answer says what kind of statement it is.
    e027_answer_without_kind: "e027-answer-without-kind", Check,
        [("E027", "error", "book.toml", 11, 11)];
    e028_not_known_answer_confirmed: "e028-not-known-confirmed", Check,
        [("E028", "error", "content/page.md", 9, 10)];
    e029_answer_without_premises: "e029-answer-without-premises", Check,
        [("E029", "error", "content/page.md", 9, 10)];
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
    /// Issue 40: an open claim says what would settle it, a confirmed
    /// one has nothing to settle.
    e034_open_claim_without_settle: "e034-no-settle", Check,
        [("E034", "error", "content/page.md", 5, 6)];
    e035_settle_on_a_confirmed_claim: "e035-settle-on-confirmed", Check,
        [("E035", "error", "content/page.md", 10, 10)];
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
    /// Issue 40 (record L7): one answer word, one meaning.
    w025_answer_words_read_two_ways: "w025-answer-words", Check,
        [("W025", "warning", "book.toml", 17, 38)];
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
        [("W082", "warning", "content/page.md", 25, 9)];
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
        "names the build directory's resolved path, which differs from machine to machine, and build stops on it as a usage error: tests/it/build_dir/trust.rs asserts both on a temporary site",
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
        "a person's file at a path the build writes: about the build directory, which `check` never looks at (tests/it/build_dir/trust.rs asserts it)",
    ),
    (
        "W042",
        "a leftover of an earlier build kansoku cannot remove: about its own records, not the sources (tests/it/build_dir/mounts.rs asserts it)",
    ),
    (
        "W043",
        "entries planted in kansoku's spare tree: about its own records, not the sources (tests/it/build_dir/spare.rs asserts it)",
    ),
];

/// Errors in `check` that `build` and `serve` only warn about: an
/// untranslated segment, and what the review lock finds (the page then
/// shows readers a notice instead).
const BUILD_WARNS: &[&str] = &["E032", "E034", "E081", "E082", "E083", "E084", "E085"];

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
// Pairing: fixtures, table, engine codes and docs/diagnostics.md stay in step.

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

/// The table of every code lives in docs/diagnostics.md (issue 42 moved
/// it out of the README, which links to it from its Diagnostics section).
#[test]
fn readme_documents_every_engine_code() {
    let readme = std::fs::read_to_string(repo_root().join("README.md")).expect("README.md");
    let readme_section = readme
        .split("\n## Diagnostics\n")
        .nth(1)
        .expect("README has a Diagnostics section");
    let readme_section = readme_section.split("\n## ").next().expect("section text");
    assert!(
        readme_section.contains("](docs/diagnostics.md)"),
        "README's Diagnostics section links to docs/diagnostics.md"
    );
    let page = std::fs::read_to_string(repo_root().join("docs/diagnostics.md"))
        .expect("docs/diagnostics.md");
    let table = page
        .strip_prefix("# Diagnostics\n")
        .expect("docs/diagnostics.md is the Diagnostics page");
    // The table comes before the page's first subsection.
    let table = table.split("\n## ").next().expect("table text");
    for code in engine_codes() {
        assert!(
            table.contains(&format!("| `{code}` |")),
            "docs/diagnostics.md's table has no row for {code}"
        );
    }
}

/// The serve overlay says what each code means in the page's language
/// (issue 40, trial L19): every engine code has its words in each
/// language's Fluent file.
#[test]
fn every_engine_code_has_a_meaning_in_each_language() {
    for lang in ["ja", "en"] {
        let path = repo_root().join(format!("templates/i18n/{lang}.ftl"));
        let ftl = std::fs::read_to_string(&path).expect("the theme's Fluent file");
        for code in engine_codes() {
            assert!(
                ftl.contains(&format!("\nfinding-{code} = ")),
                "templates/i18n/{lang}.ftl has no `finding-{code}`"
            );
        }
    }
}

fn human(report: &Report) -> String {
    check::format(report, Format::Human)
}

/// A valid page of the `clean` site whose claim is `id`.
fn page_with_claim(id: &str) -> String {
    format!(
        "+++\ntitle = {{ ja = \"別\", en = \"Other\" }}\n\n[[claims]]\nid = \"{id}\"\nclass = \"confirmed\"\nja = \"二行目。\"\nen = \"Line two.\"\nevidence = [\"logs/a.log#L2\"]\n+++\n\n::: ja\n本文。\n:::\n::: en\nBody.\n:::\n"
    )
}

mod bad_input;
mod binary;
mod editing;
mod messages;
