//! `kansoku diff` (issue 16): the changes between two states of a site's
//! claims in every format, and since a git revision.

use super::{build_quiet, reviewed};
use crate::common::SiteTest;
use std::process::Command;

fn claims_json_of(t: &mut SiteTest) -> std::path::PathBuf {
    build_quiet(t);
    let to = t.root().join(format!("claims-{}.json", std::process::id()));
    let n = std::fs::read_dir(t.root()).expect("dir").count();
    let to = to.with_extension(format!("{n}.json"));
    std::fs::copy(t.out_path("claims.json"), &to).expect("copy");
    to
}

fn edit_for_diff(t: &mut SiteTest) {
    t.edit(
        "content/_index.md",
        "id = \"uses-mmq\"\nclass = \"inferred\"",
        "id = \"uses-mmq\"\nclass = \"unresolved\"",
    );
    t.edit(
        "content/_index.md",
        "en = \"The runner loads libamdhip64.\"",
        "en = \"The runner loads libamdhip64 first.\"",
    );
    t.edit("content/_index.md", "logs/run.log#L2-L3", "logs/run.log#L2");
    t.edit(
        "content/life.md",
        "translated-by = \"machine\"\n",
        "translated-by = \"machine\"\n\n[[claims]]\nid = \"exit-zero\"\nclass = \"confirmed\"\nja = \"終了コードは 0。\"\nen = \"The exit code is 0.\"\nevidence = [\"logs/run.log#L4\"]\n",
    );
    t.edit("content/life.md", "[[claims]]\nid = \"mt\"\nclass = \"confirmed\"\nja = \"実行は正常に終わった。\"\nen = \"The run ended normally.\"\nevidence = [\"logs/run.log#L4\"]\ntranslated-by = \"machine\"\n", "");
    t.edit(
        "content/life.md",
        "state = \"retracted\"\nreason = { ja = \"読み違いだった。\", en = \"It was misread.\" }\n",
        "",
    );
}

const HUMAN: &str = "content/life.md: added `exit-zero` (confirmed)
content/life.md: state of `gone`: retracted → current
content/_index.md: en text of `loads-hip`: \"The runner loads libamdhip64.\" → \"The runner loads libamdhip64 first.\"
content/_index.md: evidence of `loads-hip`: logs/run.log#L2-L3 → logs/run.log#L2
content/life.md: removed `mt` (was confirmed)
content/_index.md: re-classed `uses-mmq`: inferred → unresolved
6 changes: 1 added, 1 evidence changed, 1 re-classed, 1 removed, 1 states changed, 1 texts changed
";

#[test]
fn diff_between_two_states_in_every_format() {
    let mut t = reviewed();
    let old = claims_json_of(&mut t);
    edit_for_diff(&mut t);
    let new = claims_json_of(&mut t);
    let a = kansoku::diff::read_json(&old).expect("old");
    let b = kansoku::diff::read_json(&new).expect("new");
    let changes = kansoku::diff::diff(&a, &b);
    use kansoku::diff::{format, Format};
    assert_eq!(format(&changes, Format::Human), HUMAN);
    let md = format(&changes, Format::Markdown);
    assert!(md.starts_with("### Claims changed\n\n6 changes: 1 added, 1 evidence changed, 1 re-classed, 1 removed, 1 states changed, 1 texts changed.\n\n| page | change |\n|---|---|\n| `content/life.md` | added `exit-zero` (confirmed) |\n"), "{md}");
    assert!(
        md.contains("| `content/_index.md` | re-classed `uses-mmq`: inferred → unresolved |\n"),
        "{md}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&format(&changes, Format::Json)).expect("json");
    assert_eq!(json.as_array().map(Vec::len), Some(6));
    assert_eq!(
        json[0],
        serde_json::json!({"kind": "added", "id": "exit-zero", "page": "content/life.md", "new": "confirmed"})
    );
    assert_eq!(
        json[2],
        serde_json::json!({"kind": "text", "id": "loads-hip", "page": "content/_index.md", "lang": "en", "old": "The runner loads libamdhip64.", "new": "The runner loads libamdhip64 first."})
    );
    let gh = format(&changes, Format::Github);
    assert_eq!(gh.lines().count(), 6);
    assert_eq!(gh.lines().last(), Some("::notice file=content/_index.md,title=claim class::re-classed `uses-mmq`: inferred → unresolved"));
    // Nothing changed: nothing listed.
    assert_eq!(
        format(&kansoku::diff::diff(&a, &a), Format::Human),
        "0 changes\n"
    );
    // The command prints the same, on stdout, for two files.
    let out = Command::new(env!("CARGO_BIN_EXE_kansoku"))
        .arg("diff")
        .args([&old, &new])
        .args(["--format", "markdown"])
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), md);
}

#[test]
fn diff_since_a_git_revision() {
    let mut t = reviewed();
    let git = |args: &[&str]| {
        let out = Command::new("git")
            .args([
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@example.invalid",
                "-c",
                "commit.gpgsign=false",
            ])
            .args(args)
            .current_dir(t.root())
            .output()
            .expect("git runs");
        assert!(
            out.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    git(&["init", "-q"]);
    git(&["add", "-A"]);
    git(&["commit", "-qm", "before"]);
    edit_for_diff(&mut t);
    let out = Command::new(env!("CARGO_BIN_EXE_kansoku"))
        .args(["diff", "--since", "HEAD", "--root"])
        .arg(t.root())
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), HUMAN);
    let out = Command::new(env!("CARGO_BIN_EXE_kansoku"))
        .args(["diff", "--since", "no-such-ref", "--root"])
        .arg(t.root())
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr)
        .starts_with("error: `no-such-ref` names no commit in the git repository of "));
}
