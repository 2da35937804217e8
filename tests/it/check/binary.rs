//! `kansoku check` through the real binary: the `github` and `json`
//! formats, which stream gets what, and the exit codes 0, 1 and 2.

use super::{human, site};
use crate::common::{json_findings, parse_json_findings, repo_root, SiteTest};
use kansoku::check;
use std::process::{Command, Output};

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
