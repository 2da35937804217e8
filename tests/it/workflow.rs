//! Issue 42, kansoku for people who are not us: every finding of
//! `check --format github` in the job summary and the GitHub workflow
//! `kansoku init` writes (the release archive and its install script are
//! in `release.rs`).
//!
//! zizmor and actionlint lint the workflows in `.ci/run`; here are what
//! the files say and what the scripts do, run for real.

use crate::common::repo_root;
use std::path::Path;
use std::process::{Command, Output};

fn kansoku(args: &[&str], env: &[(&str, &Path)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_kansoku"));
    c.args(args);
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("the kansoku binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("output is UTF-8")
}

fn arg(p: &Path) -> &str {
    p.to_str().expect("temp paths are UTF-8")
}

#[test]
fn issue_42_fifteen_errors_all_reach_the_job_summary() {
    // The starter site, which has no finding of its own.
    let tmp = crate::scratch::tempdir();
    let root = tmp.path().join("site");
    assert!(kansoku(&["init", "--no-ci", arg(&root)], &[])
        .status
        .success());
    let mut page = String::from(
        "+++\ntitle = { ja = \"壊れた\", en = \"Broken\" }\nlead = { ja = \"証拠なし。\", en = \"No evidence.\" }\n",
    );
    for i in 1..=15 {
        page.push_str(&format!(
            "\n[[claims]]\nid = \"broken-{i}\"\nclass = \"confirmed\"\nja = \"主張 {i}。\"\nen = \"Claim {i}.\"\nevidence = [\"logs/missing-{i:02}.log#L1\"]\n"
        ));
    }
    page.push_str("+++\n\n::: ja\n本文。\n:::\n::: en\nBody.\n:::\n");
    std::fs::write(root.join("content/notes/broken.md"), &page).expect("a page");
    let summary = tmp.path().join("step-summary.md");
    // What an earlier step of the job wrote stays: GitHub's file is appended to.
    std::fs::write(&summary, "## build\n\nearlier step\n").expect("summary file");
    let out = kansoku(
        &["check", "--format", "github", "--root", arg(&root)],
        &[("GITHUB_STEP_SUMMARY", &summary)],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let annotations = stdout.lines().filter(|l| l.starts_with("::error ")).count();
    assert_eq!(annotations, 10, "as many as GitHub shows a step:\n{stdout}");
    assert!(
        stdout.ends_with("::notice title=kansoku check::check: 15 errors, 0 warnings. GitHub shows 10 annotations of each kind per step: 5 more errors not shown here; the job summary lists every finding\n"),
        "{stdout}"
    );
    let written = std::fs::read_to_string(&summary).expect("the summary");
    assert!(written.starts_with("## build\n\nearlier step\n### kansoku check\n\ncheck: 15 errors, 0 warnings\n\n| where | code | message | hint |\n"), "{written}");
    let rows: Vec<&str> = written
        .lines()
        .filter(|l| l.contains("| E012 error |"))
        .collect();
    assert_eq!(rows.len(), 15, "{written}");
    for i in 1..=15 {
        let file = format!("evidence/logs/missing-{i:02}.log");
        assert_eq!(
            rows.iter().filter(|r| r.contains(&file)).count(),
            1,
            "{file} in:\n{written}"
        );
    }
    // Without the variable, nothing is written and the notice says where
    // the rest are.
    let out = kansoku(&["check", "--format", "github", "--root", arg(&root)], &[]);
    assert!(text(&out.stdout).ends_with("the log lists every finding\n"));
}

/// Every `uses:` of a workflow: (action, SHA, the comment after it).
fn pins(workflow: &str) -> Vec<(String, String, String)> {
    workflow
        .lines()
        .filter_map(|l| l.trim().trim_start_matches("- ").strip_prefix("uses: "))
        .map(|u| {
            let (action, rest) = u.split_once('@').expect("action@ref");
            let (sha, comment) = rest.split_once(" # ").unwrap_or((rest, ""));
            (action.to_owned(), sha.to_owned(), comment.to_owned())
        })
        .collect()
}

#[test]
fn issue_42_init_writes_a_pinned_least_privilege_workflow_and_no_ci_leaves_it_out() {
    let tmp = crate::scratch::tempdir();
    let site = tmp.path().join("site");
    let out = kansoku(&["init", arg(&site)], &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let said = text(&out.stdout);
    assert!(
        said.contains("book.toml: license = \"CC-BY-4.0\""),
        "{said}"
    );
    assert!(said.contains(".github/workflows/kansoku.yml: "), "{said}");
    let workflow =
        std::fs::read_to_string(site.join(".github/workflows/kansoku.yml")).expect("the workflow");
    assert!(workflow.contains(&format!(
        "KANSOKU_VERSION: \"{}\"",
        env!("CARGO_PKG_VERSION")
    )));
    assert!(site.join(".github/kansoku-install.sh").is_file());
    let used = pins(&workflow);
    let actions: Vec<&str> = used.iter().map(|(a, _, _)| a.as_str()).collect();
    assert_eq!(
        actions,
        [
            "actions/checkout",
            "actions/checkout",
            "actions/configure-pages",
            "actions/cache",
            "actions/upload-pages-artifact",
            "actions/deploy-pages",
        ]
    );
    // The same pin for an action wherever this repository uses it, so one
    // version is updated in every file at once.
    let mut seen: std::collections::BTreeMap<String, (String, String)> = Default::default();
    let dir = repo_root().join(".github/workflows");
    let mut files: Vec<(String, String)> = vec![("init".to_owned(), workflow.clone())];
    for entry in std::fs::read_dir(&dir).expect(".github/workflows") {
        let path = entry.expect("entry").path();
        files.push((
            path.display().to_string(),
            std::fs::read_to_string(&path).expect("a workflow"),
        ));
    }
    for (file, text) in &files {
        assert!(
            text.contains("\npermissions: {}\n"),
            "{file}: no default permissions"
        );
        let checkouts = text.matches("uses: actions/checkout@").count();
        assert_eq!(
            text.matches("persist-credentials: false").count(),
            checkouts,
            "{file}: a checkout keeps its credentials"
        );
        for (action, sha, comment) in pins(text) {
            assert!(
                sha.len() == 40 && sha.bytes().all(|b| b.is_ascii_hexdigit()),
                "{file}: {action}@{sha} is not a full commit SHA"
            );
            assert!(
                comment.starts_with('v'),
                "{file}: {action} has no version comment"
            );
            let pin = (sha.clone(), comment.clone());
            let first = seen.entry(action.clone()).or_insert(pin.clone());
            assert_eq!(*first, pin, "{file}: {action} pinned differently elsewhere");
        }
    }

    let bare = tmp.path().join("bare");
    let out = kansoku(&["init", "--no-ci", arg(&bare)], &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(!bare.join(".github").exists());
    assert!(!text(&out.stdout).contains(".github/"));
}

#[test]
fn issue_42_with_no_updated_date_the_crate_is_dated_by_source_date_epoch() {
    let tmp = crate::scratch::tempdir();
    let root = tmp.path().join("site");
    assert!(kansoku(&["init", "--no-ci", arg(&root)], &[])
        .status
        .success());
    let page = root.join("content/notes/first-observation.md");
    let source = std::fs::read_to_string(&page).expect("the page");
    let undated: String = source
        .lines()
        .filter(|l| !l.starts_with("updated = "))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&page, undated).expect("no updated date");
    let build = |epoch: &str| {
        Command::new(env!("CARGO_BIN_EXE_kansoku"))
            .args(["build", "--quiet", "--root", arg(&root)])
            .env("SOURCE_DATE_EPOCH", epoch)
            .output()
            .expect("the kansoku binary runs")
    };
    let date = || {
        let crate_: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(root.join("public/ro-crate-metadata.json")).expect("crate"),
        )
        .expect("JSON");
        crate_["@graph"][1]["datePublished"]
            .as_str()
            .expect("a date")
            .to_owned()
    };
    assert!(build("0").status.success());
    assert_eq!(date(), "1970-01-01");
    // The second build remembers every unit but the crate, whose date
    // the memo keys on.
    assert!(build("86400").status.success());
    assert_eq!(date(), "1970-01-02");
    let out = build("yesterday");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "SOURCE_DATE_EPOCH: error[E009]: `yesterday` is not a whole number of seconds since 1970-01-01 UTC\n  = hint: unset it, or give the time the record was last changed, e.g. SOURCE_DATE_EPOCH=$(git log -1 --format=%ct)\nerror: 1 error found; nothing was written\n"
    );
    assert_eq!(
        date(),
        "1970-01-02",
        "a failed build leaves public/ as it was"
    );
}
