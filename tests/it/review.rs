//! Evidence that stays true over time (issue 16): the review lock, `check`
//! against it, `check --fix`, notices on pages, claim lifecycle, `diff`,
//! the claims.json schema and the JSON-LD export.
//!
//! The site is `tests/fixtures/review/`, copied to a temp dir, reviewed
//! with `kansoku review --all`, then edited the way a maintainer would.
//! Per-code fixtures with exact messages are in tests/it/check.rs
//! (`tests/fixtures/check/e08*`, `w08*`).

use crate::common;

use common::{json_findings, repo_root, SiteTest};
use kansoku::review::{self, Selection};
use proptest::prelude::*;
use std::path::Path;
use std::process::Command;

fn reviewed() -> SiteTest {
    let t = SiteTest::from_fixture("review");
    review_all(t.root());
    assert_eq!(
        findings(&t),
        Vec::<(String, String)>::new(),
        "clean after review"
    );
    t
}

/// The site at `root` as `kansoku review` loads it: without its lock.
fn unreviewed(root: &Path) -> kansoku::validate::Site {
    kansoku::site::load_unreviewed(root, kansoku::validate::Mode::Build)
        .expect("loads")
        .0
}

pub(crate) fn review_all(root: &Path) {
    review::review(
        root,
        &unreviewed(root),
        &Selection {
            all: true,
            ..Selection::default()
        },
    )
    .expect("review --all");
}

/// `(code, message)` of every finding of `check`.
pub(crate) fn findings(t: &SiteTest) -> Vec<(String, String)> {
    json_findings(&t.check())
        .into_iter()
        .map(|f| (f.code, f.message))
        .collect()
}

fn f(code: &str, msg: &str) -> (String, String) {
    (code.to_owned(), msg.to_owned())
}

fn build_quiet(t: &mut SiteTest) {
    crate::common::build_with(
        t.root(),
        kansoku::site::BuildOptions {
            search: false,
            ..Default::default()
        },
    )
    .unwrap_or_else(|e| panic!("build failed: {e}"));
}

fn claim_item<'a>(html: &'a str, id: &str) -> &'a str {
    common::element_by_id(html, &format!("claim-{id}"))
        .unwrap_or_else(|| panic!("no element #claim-{id}"))
}

#[test]
fn edited_log_line_makes_claims_suspect_until_reviewed() {
    let mut t = reviewed();
    t.edit(
        "evidence/logs/run.log",
        "dispatch: mul_mat_q",
        "dispatch: mul_mat_vec",
    );
    assert_eq!(
        findings(&t),
        [
            f("E081", "claim `loads-hip` is suspect: `evidence/logs/run.log#L2-L3` changed after the claim was reviewed"),
            f("E081", "claim `uses-mmq` is suspect: `evidence/logs/run.log#L3` changed after the claim was reviewed"),
            f("E083", "claim `uses-mmq` is suspect: it rests on `loads-hip`, which is suspect"),
            f("E081", "claim `old-path` is suspect: `evidence/logs/run.log#L3` changed after the claim was reviewed"),
        ]
    );
    assert_eq!(t.check().exit_code(), 1);
    // The site still builds, and tells readers on the page and on the
    // evidence page.
    build_quiet(&mut t);
    let en = t.read("en/index.html");
    let item = claim_item(&en, "loads-hip");
    assert!(item.contains("claim-notice--suspect"), "{item}");
    assert!(
        item.contains(&common::escape(&common::ftl(
            "en",
            "notice-suspect-evidence",
            None
        ))),
        "{item}"
    );
    let ev = t.read("ja/evidence/logs/run.log/index.html");
    assert!(
        ev.contains(&common::ftl("ja", "notice-evidence-suspect", None)),
        "evidence page notice"
    );
    // Reviewing the three claims makes check clean again.
    review::review(
        t.root(),
        &unreviewed(t.root()),
        &Selection {
            claims: vec!["loads-hip".into(), "uses-mmq".into(), "old-path".into()],
            ..Selection::default()
        },
    )
    .expect("review");
    assert_eq!(findings(&t), Vec::<(String, String)>::new());
}

#[test]
fn lines_inserted_above_a_cited_range_are_moved_and_fix_repairs_the_link() {
    let mut t = reviewed();
    t.edit(
        "evidence/logs/run.log",
        "+++\nstart\n",
        "+++\nnew first line\nnew second line\nstart\n",
    );
    assert_eq!(
        findings(&t),
        [
            f("E082", "the text cited by claim `loads-hip` moved: `evidence/logs/run.log#L2-L3` is now `evidence/logs/run.log#L4-L5`"),
            f("E082", "the text cited by claim `uses-mmq` moved: `evidence/logs/run.log#L3` is now `evidence/logs/run.log#L5`"),
            f("E082", "the text cited by claim `old-path` moved: `evidence/logs/run.log#L3` is now `evidence/logs/run.log#L5`"),
            f("E082", "the text cited by claim `gone` moved: `evidence/logs/run.log#L4` is now `evidence/logs/run.log#L6`"),
            f("E082", "the text cited by claim `mt` moved: `evidence/logs/run.log#L4` is now `evidence/logs/run.log#L6`"),
        ]
    );
    let (site, found) =
        kansoku::site::load_unchecked(t.root(), kansoku::validate::Mode::Build).expect("loads");
    let done = review::fix(t.root(), &site, &found).expect("fix");
    assert_eq!(done.len(), 5, "{done:?}");
    assert_eq!(
        done[0],
        "fixed content/_index.md: \"logs/run.log#L3\" → \"logs/run.log#L5\""
    );
    let page = std::fs::read_to_string(t.root().join("content/_index.md")).expect("page");
    assert!(
        page.contains("evidence = [\"logs/run.log#L4-L5\"]"),
        "{page}"
    );
    assert_eq!(
        findings(&t),
        Vec::<(String, String)>::new(),
        "check is clean after --fix"
    );
}

/// Issue 25, point 3: lines inserted above a quoted range are one finding
/// (E082, not also E014), and `check --fix` repairs it on a site that has
/// another mistake too, which `check` then still reports.
#[test]
fn check_fix_repairs_a_moved_quoted_range_beside_other_mistakes_issue_25() {
    let mut t = SiteTest::from_fixture("review");
    t.edit(
        "content/_index.md",
        "evidence = [\"logs/run.log#L3\"]",
        "evidence = [{ path = \"logs/run.log\", lines = \"3\", quote = \"mul_mat_q\" }]",
    );
    review_all(t.root());
    let log = t.root().join("evidence/logs/run.log");
    let text = std::fs::read_to_string(&log).expect("log");
    std::fs::write(
        &log,
        text.replace("+++\nstart\n", "+++\nzero\none\nstart\n"),
    )
    .expect("write");
    // Another mistake, on another claim of the same page.
    t.edit(
        "content/_index.md",
        "class = \"inferred\"",
        "class = \"infered\"",
    );
    let found = findings(&t);
    let codes: Vec<&str> = found.iter().map(|(c, _)| c.as_str()).collect();
    assert_eq!(
        codes,
        ["E082", "E010", "E082", "E082", "E082", "E082"],
        "one finding per moved link, none for its quote: {found:#?}"
    );
    let out = Command::new(env!("CARGO_BIN_EXE_kansoku"))
        .args(["check", "--fix", "--root"])
        .arg(t.root())
        .output()
        .expect("runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.starts_with("fixed content/_index.md: { path = \"logs/run.log\", lines = \"3\", quote = \"mul_mat_q\" } → { path = \"logs/run.log\", lines = \"5\", quote = \"mul_mat_q\" }\nfixed content/_index.md: \"logs/run.log#L2-L3\" → \"logs/run.log#L4-L5\"\n")
            && err.ends_with("check: 1 error, 0 warnings\n"),
        "{err}"
    );
    let found = findings(&t);
    assert_eq!(
        found,
        [f("E010", "unknown evidence class `infered`")],
        "only the other mistake is left"
    );
}

#[test]
fn check_fix_through_the_binary() {
    let t = reviewed();
    let log = t.root().join("evidence/logs/run.log");
    let text = std::fs::read_to_string(&log).expect("log");
    std::fs::write(&log, text.replace("+++\nstart\n", "+++\nzero\nstart\n")).expect("write");
    // The rewritten page keeps its permissions (not a temporary file's
    // private 0600), and the lock is readable by all.
    #[cfg(unix)]
    let page = t.root().join("content/_index.md");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&page, std::fs::Permissions::from_mode(0o664)).expect("chmod");
        let lock = std::fs::metadata(t.root().join("kansoku.lock")).expect("lock");
        assert_eq!(lock.permissions().mode() & 0o777, 0o644);
    }
    let out = Command::new(env!("CARGO_BIN_EXE_kansoku"))
        .args(["check", "--fix", "--root"])
        .arg(t.root())
        .output()
        .expect("runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("fixed content/_index.md: \"logs/run.log#L2-L3\" → \"logs/run.log#L3-L4\""),
        "{err}"
    );
    assert!(err.ends_with("check: no errors, 0 warnings\n"), "{err}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&page).expect("page").permissions().mode();
        assert_eq!(mode & 0o777, 0o664);
    }
}

#[test]
fn editing_only_english_is_a_stale_translation_shown_with_the_previous_text() {
    let mut t = reviewed();
    t.edit(
        "content/_index.md",
        "en = \"The runner loads libamdhip64.\"",
        "en = \"The runner loads libamdhip64 first.\"",
    );
    t.edit(
        "content/_index.md",
        "Reading the log.",
        "Reading the whole log.",
    );
    assert_eq!(
        findings(&t),
        [
            f("E084", "stale translation: the `en` text of claim `loads-hip` changed since its review, the `ja` text did not"),
            f("E085", "stale translation: this `::: en` block changed since the page was reviewed, its `::: ja` partner did not"),
        ]
    );
    build_quiet(&mut t);
    let ja = t.read("ja/index.html");
    let item = claim_item(&ja, "loads-hip");
    assert!(item.contains("claim-notice--stale"), "{item}");
    assert!(
        item.contains("The runner loads libamdhip64."),
        "previous text shown: {item}"
    );
    let parallel = t.read("ja-en/index.html");
    assert!(parallel.contains("pair-notice"), "pair notice in 対訳");
    assert!(
        parallel.contains("Reading the log. [[claim:loads-hip]]"),
        "previous pair text"
    );
    // Build only warns.
    let report = crate::common::build_with(
        t.root(),
        kansoku::site::BuildOptions {
            search: false,
            ..Default::default()
        },
    )
    .expect("builds");
    let codes: Vec<&str> = report.warnings.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["E084", "E085", "W041"]);
    // Translating and reviewing makes it clean.
    t.edit(
        "content/_index.md",
        "ja = \"runner は libamdhip64 を読み込む。\"",
        "ja = \"runner はまず libamdhip64 を読み込む。\"",
    );
    // The claim is no longer a stale translation but changed since its
    // review (the pair is still stale until it is reviewed too).
    let codes: Vec<String> = findings(&t).into_iter().map(|f| f.0).collect();
    assert_eq!(codes, ["E085", "W081"]);
    review_all(t.root());
    assert_eq!(findings(&t), Vec::<(String, String)>::new());
}

#[test]
fn review_needs_a_selection_and_known_ids() {
    let t = SiteTest::from_fixture("review");
    let err = review::review(t.root(), &unreviewed(t.root()), &Selection::default())
        .expect_err("nothing named");
    assert_eq!(
        err.to_string(),
        "name the claims to review, or use `--page PAGE` or `--all`"
    );
    let err = review::review(
        t.root(),
        &unreviewed(t.root()),
        &Selection {
            claims: vec!["loads-hp".into()],
            ..Selection::default()
        },
    )
    .expect_err("unknown id");
    assert_eq!(
        err.to_string(),
        "no claim `loads-hp` on the site; did you mean `loads-hip`?"
    );
    let done = review::review(
        t.root(),
        &unreviewed(t.root()),
        &Selection {
            pages: vec!["content/life.md".into()],
            ..Selection::default()
        },
    )
    .expect("page");
    assert_eq!((done.claims, done.pages), (3, 1));
    let unreviewed: Vec<String> = findings(&t).into_iter().map(|f| f.1).collect();
    assert_eq!(
        unreviewed,
        [
            "claim `loads-hip` has not been reviewed",
            "claim `uses-mmq` has not been reviewed"
        ]
    );
}

#[test]
fn lock_is_sorted_and_stable() {
    let t = reviewed();
    let first = std::fs::read_to_string(t.root().join("kansoku.lock")).expect("lock");
    review_all(t.root());
    let second = std::fs::read_to_string(t.root().join("kansoku.lock")).expect("lock");
    assert_eq!(first, second, "a second review changes nothing");
    let ids: Vec<&str> = first
        .lines()
        .filter_map(|l| l.strip_prefix("[claims.")?.strip_suffix(']'))
        .collect();
    let mut sorted = ids.clone();
    sorted.sort_unstable();
    assert_eq!(ids, sorted);
}

#[test]
fn retracted_and_superseded_claims_keep_their_anchor_and_say_why() {
    let mut t = reviewed();
    build_quiet(&mut t);
    let en = t.read("en/life/index.html");
    let gone = claim_item(&en, "gone");
    assert!(gone.contains("claim--retracted"), "struck through: {gone}");
    assert!(
        gone.contains("<strong>Retracted</strong>: It was misread."),
        "{gone}"
    );
    let old = claim_item(&en, "old-path");
    assert!(old.contains("The log shows MMQ."), "{old}");
    assert!(
        old.contains("href=\"/en/#claim-uses-mmq\""),
        "successor linked: {old}"
    );
    let mt = claim_item(&en, "mt");
    assert!(mt.contains("Machine-translated."), "{mt}");
    let ja = t.read("ja/life/index.html");
    assert!(claim_item(&ja, "gone").contains("読み違いだった。"));
    let json: serde_json::Value = serde_json::from_str(&t.read("claims.json")).expect("json");
    let by_id = |id: &str| {
        json["claims"]
            .as_array()
            .expect("claims")
            .iter()
            .find(|c| c["id"] == id)
            .cloned()
            .expect("claim listed")
    };
    assert_eq!(by_id("gone")["state"], "retracted");
    assert_eq!(by_id("gone")["reason"]["en"], "It was misread.");
    assert_eq!(by_id("old-path")["superseded-by"], "uses-mmq");
    assert_eq!(by_id("mt")["translated-by"], "machine");
    assert_eq!(by_id("loads-hip")["state"], "current");
}

/// Where and by which keyword a `claims.json` breaks
/// `schemas/claims.schema.json`, checked by a full JSON Schema (draft
/// 2020-12) implementation, so that no keyword of the schema goes
/// unchecked: `(instance path, keyword, message)`, none if it follows it.
pub(crate) fn schema_errors(claims_json: &str) -> Vec<(String, String, String)> {
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(repo_root().join("schemas/claims.schema.json")).expect("schema"),
    )
    .expect("the schema is JSON");
    let validator =
        jsonschema::draft202012::new(&schema).expect("the schema is valid JSON Schema 2020-12");
    let doc: serde_json::Value = serde_json::from_str(claims_json).expect("claims.json is JSON");
    validator
        .iter_errors(&doc)
        .map(|e| {
            (
                e.instance_path().to_string(),
                e.kind().keyword().to_owned(),
                e.to_string(),
            )
        })
        .collect()
}

// ---------------------------------------------------------------------------
// Property: no changed cited text goes unflagged.

const LOG_LINES: usize = 12;

#[derive(Debug, Clone)]
enum Edit {
    Replace(usize, String),
    Insert(usize, String),
    Delete(usize),
    TrailingBlank(usize),
}

fn edit_strategy() -> impl Strategy<Value = Edit> {
    let text = "[a-c]{1,3}";
    prop_oneof![
        (0..LOG_LINES, text).prop_map(|(i, s)| Edit::Replace(i, s)),
        (0..LOG_LINES, text).prop_map(|(i, s)| Edit::Insert(i, s)),
        (0..LOG_LINES).prop_map(Edit::Delete),
        (0..LOG_LINES).prop_map(Edit::TrailingBlank),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// After random edits to a reviewed log, every claim whose cited lines
    /// no longer read as they did at the review (trailing blanks aside) is
    /// flagged: suspect (E081) or moved (E082). Claims whose text is
    /// unchanged are not called suspect.
    #[test]
    fn changed_cited_text_is_never_unflagged(
        lines in proptest::collection::vec("[a-c]{1,3}", LOG_LINES),
        ranges in proptest::collection::vec((1..=LOG_LINES, 0..3usize), 1..5),
        edits in proptest::collection::vec(edit_strategy(), 1..4),
    ) {
        let tmp = crate::scratch::tempdir();
        let root = tmp.path();
        std::fs::create_dir_all(root.join("content")).expect("dir");
        std::fs::create_dir_all(root.join("evidence")).expect("dir");
        std::fs::write(root.join("book.toml"), "[book]\ntitle = { ja = \"試験\", en = \"Test\" }\n").expect("write");
        let log = |ls: &[String]| format!("+++\nkind = \"raw\"\n+++\n{}\n", ls.join("\n"));
        std::fs::write(root.join("evidence/log.txt"), log(&lines)).expect("write");
        let mut page = String::from("+++\ntitle = { ja = \"頁\", en = \"Page\" }\n");
        let mut cited = Vec::new();
        for (i, (a, len)) in ranges.iter().enumerate() {
            let b = (a + len).min(LOG_LINES);
            page.push_str(&format!("\n[[claims]]\nid = \"c{i}\"\nclass = \"confirmed\"\nja = \"確認\"\nen = \"Seen\"\nevidence = [\"log.txt#L{a}-L{b}\"]\n"));
            cited.push((format!("c{i}"), *a, b));
        }
        page.push_str("+++\n");
        std::fs::write(root.join("content/_index.md"), &page).expect("write");
        review_all(root);
        let mut now = lines.clone();
        for e in &edits {
            match e {
                Edit::Replace(i, s) => { let i = (*i).min(now.len() - 1); now[i] = s.clone(); }
                Edit::Insert(i, s) => { let i = (*i).min(now.len()); now.insert(i, s.clone()); }
                Edit::Delete(i) => { if now.len() > 1 { let i = (*i).min(now.len() - 1); now.remove(i); } }
                Edit::TrailingBlank(i) => { let i = (*i).min(now.len() - 1); now[i].push_str("  "); }
            }
        }
        std::fs::write(root.join("evidence/log.txt"), log(&now)).expect("write");
        let report = crate::common::check(root).expect("check runs");
        let flagged = |id: &str, code: &str| report.diagnostics.iter().any(|d| d.code == code && d.message.contains(&format!("claim `{id}`")));
        for (id, a, b) in &cited {
            let before: Vec<&str> = lines[a - 1..*b].iter().map(|s| s.trim_end()).collect();
            let after: Option<Vec<&str>> = now.get(a - 1..*b).map(|r| r.iter().map(|s| s.trim_end()).collect());
            if after.as_ref() != Some(&before) {
                // A range now past the end of the file is E013, which
                // names the range rather than the claim.
                let frag = if a == b { format!("L{a}") } else { format!("L{a}-L{b}") };
                let outside = report.diagnostics.iter().any(|d| {
                    d.code == "E013" && d.message.starts_with(&format!("line range {frag} "))
                });
                prop_assert!(
                    flagged(id, "E081") || flagged(id, "E082") || outside,
                    "{id} (L{a}-L{b}) changed from {before:?} to {after:?} but nothing was said: {:?}",
                    report.diagnostics.iter().map(ToString::to_string).collect::<Vec<_>>()
                );
            } else {
                prop_assert!(!flagged(id, "E081") && !flagged(id, "E082"), "{id} unchanged yet flagged");
            }
        }
    }
}

/// Issue 25, point 4: a duplicate id is reported on the claim just added,
/// not on the reviewed original, even when the new page comes first.
#[test]
fn a_duplicate_id_is_reported_on_the_new_claim_not_the_reviewed_one_issue_25() {
    let mut t = reviewed();
    t.write(
        "content/0-new.md",
        "+++\ntitle = { ja = \"新\", en = \"New\" }\n\n[[claims]]\nid = \"loads-hip\"\nclass = \"confirmed\"\nja = \"新しい。\"\nen = \"New.\"\nevidence = [\"logs/run.log#L2\"]\n+++\n\n::: ja\n本文。\n:::\n::: en\nBody.\n:::\n",
    );
    let report = t.check();
    let e016: Vec<(String, String, Option<String>)> = report
        .diagnostics
        .iter()
        .filter(|d| d.code == "E016")
        .map(|d| (d.location.to_string(), d.message.clone(), d.hint.clone()))
        .collect();
    assert_eq!(
        e016,
        [(
            "content/0-new.md:5:6".to_owned(),
            "duplicate claim id `loads-hip` (reviewed at content/_index.md:5:6, in kansoku.lock)"
                .to_owned(),
            Some(
                "claim ids are unique on the whole site; rename this one, the one added later"
                    .to_owned()
            )
        )]
    );
}

mod diff;
mod formats;
