//! Issue 39: drafts stay private. Without `--drafts` nothing a draft
//! alone brings in is published: its page, its claims, and the evidence
//! files only drafts cite, in any output (pages, "cited by" lists,
//! evidence indexes, search, twins, llms files, claims files, RO-Crate,
//! sitemap, the archive). `kansoku claims` and `diff --since` list what
//! `claims.json` holds, and the review lock keeps a draft's reviews.
//!
//! Every text that only the draft brings in holds the mark `zqx`, so one
//! search of every output file (compressed search files decoded) finds
//! any trace of it.

use crate::common::build_with;
use crate::common::{fixture, SiteTest};
use kansoku::site::archive::Archive;
use kansoku::site::BuildOptions;
use serde_json::Value;
use std::io::Read;
use std::path::Path;
use std::process::{Command, Output};

/// What every text only the draft brings in holds.
pub(crate) const MARK: &str = "zqx";

/// A draft with the mark in its path, title, lead, entity, claims, body
/// and the one evidence file only it cites; one of its claims also cites
/// the log a published page cites.
pub(crate) const DRAFT: &str = "+++
title = { ja = \"zqx下書きの題\", en = \"zqxdrafttitle\" }
lead = { ja = \"zqx下書きの要旨。\", en = \"zqxdraftlead.\" }
draft = true
updated = 2031-03-03

[entity]
kind = \"component\"
key = \"zqx-entity\"
name = { ja = \"zqx部品\", en = \"zqxentityname\" }

[[claims]]
id = \"zqx-claim-log\"
class = \"confirmed\"
ja = \"zqxの記録は一行目にある。\"
en = \"The zqxclaimtext is on the first line.\"
evidence = [\"secret/zqxonly.txt#L1\"]

[[claims]]
id = \"zqx-claim-shared\"
class = \"inferred\"
ja = \"zqx共有の主張。\"
en = \"A zqxshared claim on the published log.\"
evidence = [\"logs/run.log#L13\"]
+++

::: ja
zqx下書きの本文。
:::

::: en
The zqxdraftbody.
:::
";

/// The draft's own evidence file.
pub(crate) const DRAFT_LOG: (&str, &str) = (
    "evidence/secret/zqxonly.txt",
    "+++\nkind = \"raw\"\nsource = \"zqxsource --flag\"\ncaptured = 2031-03-03\n+++\nzqxlogline one\nsecond line\n",
);

/// The basic fixture with [`DRAFT`] and its log.
fn draft_site() -> SiteTest {
    let mut t = SiteTest::from_fixture("basic");
    t.write("content/notes/zqxdraft.md", DRAFT)
        .write(DRAFT_LOG.0, DRAFT_LOG.1);
    t
}

/// The bytes of a file as a reader of it gets them: gzip (Pagefind's
/// index and fragments) decoded.
pub(crate) fn readable(bytes: &[u8]) -> Vec<u8> {
    if bytes.starts_with(&[0x1f, 0x8b]) {
        let mut out = Vec::new();
        if flate2::read::MultiGzDecoder::new(bytes)
            .read_to_end(&mut out)
            .is_ok()
        {
            return out;
        }
    }
    bytes.to_vec()
}

/// Every file under `dir` whose path or (decoded) bytes hold `mark`,
/// letter case ignored (search indexes keep words in lower case).
pub(crate) fn traces(dir: &Path, mark: &str) -> Vec<String> {
    let mark = mark.to_ascii_lowercase();
    let mut found = Vec::new();
    for e in walkdir::WalkDir::new(dir) {
        let e = e.expect("walkable");
        if !e.file_type().is_file() {
            continue;
        }
        let rel = e.path().strip_prefix(dir).expect("under dir");
        let rel = rel.to_string_lossy().into_owned();
        let bytes = readable(&std::fs::read(e.path()).expect("readable"));
        let text = String::from_utf8_lossy(&bytes).to_lowercase();
        if rel.to_lowercase().contains(&mark) || text.contains(&mark) {
            found.push(rel);
        }
    }
    found
}

fn kansoku(root: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kansoku"))
        .args(args)
        .arg("--root")
        .arg(root)
        .output()
        .expect("the kansoku binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("output is UTF-8")
}

#[test]
fn a_draft_and_the_evidence_only_it_cites_are_left_out_of_every_output_issue_39() {
    let t = draft_site();
    let archive = t.root().parent().expect("a parent").join("record.html");
    let report = build_with(
        t.root(),
        BuildOptions {
            archive: Some(Archive::new(archive.clone())),
            ..BuildOptions::default()
        },
    )
    .expect("builds");
    assert_eq!(traces(&t.out(), MARK), Vec::<String>::new());
    let archived = std::fs::read_to_string(&archive).expect("the archive is written");
    assert!(
        !archived.to_lowercase().contains(MARK),
        "the archive holds a trace of the draft"
    );
    assert_eq!((report.drafts, report.drafts_evidence), (1, 1));
    assert!(
        report
            .summary()
            .contains(" · 1 draft and 1 evidence file left out · claims: "),
        "{}",
        report.summary()
    );
    // Cited by the draft and by a published page: published.
    assert!(t.exists("evidence/logs/run.log"));
    assert!(t.exists("en/evidence/logs/run.log/index.html"));
    // Cited, if only by a draft: no W001.
    assert!(
        report.warnings.iter().all(|d| d.code != "W001"),
        "{:?}",
        report.warnings
    );

    // `check` reads the draft, says nothing of the file as uncited, and
    // says in its summary what a build leaves out.
    let check = kansoku::check::check(t.root()).expect("checks");
    assert!(
        check.diagnostics.iter().all(|d| d.code != "W001"),
        "{:?}",
        check.diagnostics
    );
    assert_eq!((check.drafts, check.drafts_evidence), (1, 1));
    // (The fixture's one untranslated block is its one error.)
    assert_eq!(
        kansoku::check::summary(&check),
        "check: 1 error, 0 warnings · `kansoku build` leaves out 1 draft and 1 evidence file (`--drafts` publishes them)"
    );

    // `--drafts` publishes both.
    let all = t.root().parent().expect("a parent").join("with-drafts");
    let report = build_with(
        t.root(),
        BuildOptions {
            out: Some(all.clone()),
            drafts: true,
            ..BuildOptions::default()
        },
    )
    .expect("builds with drafts");
    assert_eq!((report.drafts, report.drafts_evidence), (0, 0));
    assert!(all.join("evidence/secret/zqxonly.txt").is_file());
    let page = std::fs::read_to_string(all.join("en/evidence/secret/zqxonly.txt/index.html"))
        .expect("its evidence page");
    assert!(page.contains("zqx-claim-log"), "cited by the draft's claim");
}

/// A capture's two streams go together: the stderr of a command whose
/// stdout a published page cites is published, though only a draft cites
/// it; both streams of a capture only a draft cites are left out.
#[test]
fn a_capture_stays_whole_whoever_cites_its_streams_issue_39() {
    let capture = |stream: &str, other: &str, line: &str| {
        use sha2::Digest;
        let body = format!("{line}\n");
        let sha: String = sha2::Sha256::digest(body.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        format!(
            "+++\nkind = \"capture\"\ncommand = [\"run\"]\ncwd = \".\"\nstarted = \"2026-01-15T00:00:00Z\"\nended = \"2026-01-15T00:00:01Z\"\nexit = \"0\"\nstream = \"{stream}\"\nother-stream = \"{other}\"\nbody-sha256 = \"{sha}\"\n+++\n{body}"
        )
    };
    let mut t = SiteTest::from_fixture("basic");
    t.write(
        "evidence/cap/pub.txt",
        &capture("stdout", "cap/pub.stderr.txt", "out"),
    )
    .write(
        "evidence/cap/pub.stderr.txt",
        &capture("stderr", "cap/pub.txt", "err"),
    )
    .write(
        "evidence/cap/zqx.txt",
        &capture("stdout", "cap/zqx.stderr.txt", "out"),
    )
    .write(
        "evidence/cap/zqx.stderr.txt",
        &capture("stderr", "cap/zqx.txt", "err"),
    )
    .edit(
        "content/notes/page.md",
        "evidence = [\"logs/run.log\"]",
        "evidence = [\"logs/run.log\", \"cap/pub.txt#L1\"]",
    )
    .write(
        "content/notes/zqxdraft.md",
        "+++\ntitle = { ja = \"下書き\", en = \"Draft\" }\ndraft = true\n\n[[claims]]\nid = \"draft-err\"\nclass = \"limited\"\nja = \"標準エラーに一行。\"\nen = \"One line on stderr.\"\nevidence = [\"cap/pub.stderr.txt#L1\", \"cap/zqx.txt#L1\"]\n+++\n\n::: ja\n本文。\n:::\n\n::: en\nBody.\n:::\n",
    );
    t.build_searched();
    assert_eq!(t.report().drafts_evidence, 2, "{}", t.report().summary());
    assert!(t.exists("evidence/cap/pub.txt"));
    assert!(t.exists("evidence/cap/pub.stderr.txt"));
    assert_eq!(traces(&t.out(), MARK), Vec::<String>::new());
}

/// `kansoku claims --format json` gives exactly the objects of the
/// `claims.json` a build writes; with `--drafts`, those of
/// `build --drafts`.
#[test]
fn claims_lists_exactly_what_claims_json_holds_issue_39() {
    let t = draft_site();
    let built = |out: &Path, drafts: bool| -> Value {
        build_with(
            t.root(),
            BuildOptions {
                out: Some(out.to_path_buf()),
                drafts,
                search: false,
                ..BuildOptions::default()
            },
        )
        .expect("builds");
        let file: Value = serde_json::from_str(
            &std::fs::read_to_string(out.join("claims.json")).expect("claims.json"),
        )
        .expect("JSON");
        file["claims"].clone()
    };
    let listed = |args: &[&str]| -> Value {
        let out = kansoku(t.root(), args);
        assert!(out.status.success(), "{}", text(&out.stderr));
        serde_json::from_slice(&out.stdout).expect("JSON")
    };
    let base = t.root().parent().expect("a parent").to_path_buf();
    let published = built(&base.join("plain"), false);
    assert_eq!(
        listed(&["claims", "--format", "json"]),
        published,
        "claims = claims.json"
    );
    assert!(!published.to_string().contains(MARK));
    let with_drafts = built(&base.join("drafts"), true);
    assert_eq!(
        listed(&["claims", "--format", "json", "--drafts"]),
        with_drafts,
        "claims --drafts = the claims.json of build --drafts"
    );
    assert_eq!(
        with_drafts.as_array().map(Vec::len),
        published.as_array().map(|a| a.len() + 2)
    );
}

fn git(root: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.invalid"])
        .args(["-c", "commit.gpgsign=false"])
        .args(args)
        .current_dir(root)
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git {args:?}: {}", text(&out.stderr));
}

/// `diff --since REF` and `diff OLD.json NEW.json` of the same two trees
/// say the same: a draft added in between is no change of the published
/// claims (and is one with `--drafts`).
#[test]
fn diff_since_and_diff_of_built_claims_agree_on_drafts_issue_39() {
    let mut t = SiteTest::from_fixture("basic");
    git(t.root(), &["init", "-q"]);
    git(t.root(), &["add", "-A"]);
    git(t.root(), &["commit", "-qm", "first"]);
    let base = t.root().parent().expect("a parent").to_path_buf();
    let build_to = |t: &SiteTest, out: &Path| {
        build_with(
            t.root(),
            BuildOptions {
                out: Some(out.to_path_buf()),
                search: false,
                ..BuildOptions::default()
            },
        )
        .expect("builds");
    };
    build_to(&t, &base.join("old"));
    t.write("content/notes/zqxdraft.md", DRAFT)
        .write(DRAFT_LOG.0, DRAFT_LOG.1)
        .edit(
            "content/notes/page.md",
            "The runner started with one thread.",
            "The runner started with a single thread.",
        );
    build_to(&t, &base.join("new"));
    let files = kansoku(
        t.root(),
        &[
            "diff",
            base.join("old/claims.json").to_str().expect("UTF-8"),
            base.join("new/claims.json").to_str().expect("UTF-8"),
            "--format",
            "json",
        ],
    );
    let since = kansoku(t.root(), &["diff", "--since", "HEAD", "--format", "json"]);
    assert!(since.status.success(), "{}", text(&since.stderr));
    assert_eq!(text(&since.stdout), text(&files.stdout));
    let changes: Value = serde_json::from_slice(&since.stdout).expect("JSON");
    assert_eq!(
        changes.as_array().map(Vec::len),
        Some(1),
        "only the edited text: {changes}"
    );
    let drafts = kansoku(
        t.root(),
        &["diff", "--since", "HEAD", "--drafts", "--format", "json"],
    );
    let changes: Value = serde_json::from_slice(&drafts.stdout).expect("JSON");
    let added: Vec<&str> = changes
        .as_array()
        .expect("an array")
        .iter()
        .filter(|c| c["kind"] == "added")
        .filter_map(|c| c["id"].as_str())
        .collect();
    assert_eq!(added, ["zqx-claim-log", "zqx-claim-shared"]);
}

/// Trial M8: with a review lock, a page turned into a draft keeps its
/// claims' reviews and draws no W084; a claim really gone draws a W084
/// whose hint names it (never `review --all`, which would approve every
/// unreviewed claim), and `kansoku review ID` drops that one entry.
#[test]
fn a_draft_keeps_its_reviews_and_a_gone_claim_is_dropped_by_name_issue_39() {
    let mut t = SiteTest::from_dir(&fixture("basic"));
    t.write(
        "content/notes/other.md",
        "+++\ntitle = { ja = \"別\", en = \"Other\" }\n\n[[claims]]\nid = \"other-claim\"\nclass = \"inferred\"\nja = \"入力は小さい。\"\nen = \"The input is small.\"\nevidence = [\"logs/run.log#L13\"]\n+++\n\n::: ja\n本文。\n:::\n\n::: en\nBody.\n:::\n",
    );
    let review = |t: &SiteTest, args: &[&str]| {
        let out = kansoku(t.root(), &[&["review"][..], args].concat());
        assert!(out.status.success(), "{}", text(&out.stderr));
        text(&out.stdout)
    };
    review(&t, &["--all"]);
    // One claim that nobody reviewed since, so that `review --all` would
    // approve it unseen.
    t.edit(
        "content/notes/page.md",
        "The runner does not split small inputs.",
        "The runner never splits small inputs.",
    )
    .edit(
        "content/notes/page.md",
        "入力が小さいとランナーは分割しない。",
        "入力が小さければランナーは決して分割しない。",
    );
    t.edit(
        "content/notes/other.md",
        "\n\n[[claims]]",
        "\ndraft = true\n\n[[claims]]",
    );
    let build = kansoku(t.root(), &["build"]);
    assert!(build.status.success(), "{}", text(&build.stderr));
    let stderr = text(&build.stderr);
    assert!(!stderr.contains("W084"), "{stderr}");
    assert!(stderr.contains("W081"), "{stderr}");
    assert!(!stderr.contains("review --all"), "{stderr}");

    std::fs::remove_file(t.root().join("content/notes/other.md")).expect("rm");
    let build = kansoku(t.root(), &["build"]);
    let stderr = text(&build.stderr);
    assert!(
        stderr.contains("kansoku.lock:1:1: warning[W084]: `kansoku.lock` reviews claim `other-claim`, which is no longer on the site"),
        "{stderr}"
    );
    assert!(
        stderr.contains("= hint: if it was removed on purpose, run `kansoku review other-claim` to drop its entry; if it was renamed, review the new id too"),
        "{stderr}"
    );
    assert!(!stderr.contains("review --all"), "{stderr}");
    assert_eq!(
        review(&t, &["other-claim"]),
        "reviewed 0 claims (0 new or changed) and 0 pages; 1 dropped; wrote kansoku.lock\n"
    );
    let build = kansoku(t.root(), &["build"]);
    let stderr = text(&build.stderr);
    assert!(!stderr.contains("W084"), "{stderr}");
    assert!(
        stderr.contains("W081"),
        "the edited claim is still unreviewed: {stderr}"
    );
}
