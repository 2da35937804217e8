//! The record through the commands (issue 15): `check`, `build` and
//! `claims` run by the real binary on the shared build, and the record's
//! review lock (issue 16).

use super::built;
use crate::common::{repo_build_output, repo_built, repo_root, SiteTest};
use std::path::Path;
use std::process::{Command, Output};

fn kansoku(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kansoku"))
        .args(args)
        .current_dir(repo_root())
        .output()
        .expect("the kansoku binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("output is UTF-8")
}

fn arg(p: &Path) -> &str {
    p.to_str().expect("temp paths are UTF-8")
}

#[test]
fn builds_the_repository_site_in_a_temp_copy() {
    let t = repo_built();
    let out = repo_build_output();
    assert!(
        out.status.success(),
        "the repository's own site fails to build:\n{}",
        text(&out.stderr)
    );
    crate::cli::assert_one_summary_line(out);
    for f in [
        "index.html",
        "ja/index.html",
        "en/index.html",
        "ja-en/index.html",
        "claims.json",
        "404.html",
    ] {
        assert!(t.exists(f), "repository site lacks public/{f}");
    }
    // ROCm-pages has no published address yet (its book.toml accepts W041).
    assert!(!t.exists("sitemap.xml"));
    assert_eq!(t.leftovers(), Vec::<String>::new());
    // From search.rs: the record has many claims to find.
    assert!(built().claims.len() > 100);
}

#[test]
fn check_on_the_repository_site_has_no_unaccepted_warning_and_build_prints_only_its_summary() {
    let t = repo_built();
    let out = kansoku(&["check", "--root", arg(t.root())]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    assert!(!stderr.contains("warning["), "{stderr}");
    assert!(
        stderr.ends_with("check: no errors, 0 warnings (129 accepted)\n"),
        "{stderr}"
    );
    assert!(
        stderr.starts_with("129 W002 accepted: The raw captures"),
        "{stderr}"
    );

    let out = repo_build_output();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stderr),
        "",
        "build prints nothing but its summary"
    );
    let stdout = text(&out.stdout);
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    assert!(
        stdout.starts_with("built 23 pages × 2 languages"),
        "{stdout}"
    );
    // Readers see the reason on the evidence pages it concerns.
    let page = t.read("en/evidence/record/phases.txt/index.html");
    assert!(
        page.contains("Known and accepted by the maintainers:")
            && page.contains("The raw captures behind this record are not in hand"),
        "{page}"
    );
    let page = t.read("ja/evidence/record/phases.txt/index.html");
    assert!(page.contains("この記録の元の生ログは手元になく"), "{page}");

    let out = kansoku(&["check", "--root", arg(t.root()), "--all"]);
    let stderr = text(&out.stderr);
    assert_eq!(stderr.matches("warning[W002]").count(), 129, "{stderr}");
}

#[test]
fn claims_json_equals_the_unresolved_claims_of_claims_json() {
    let t = repo_built();
    let doc: serde_json::Value =
        serde_json::from_str(&t.read("claims.json")).expect("claims.json parses");
    let all = doc["claims"].as_array().expect("claims.json lists claims");
    let unresolved: Vec<&serde_json::Value> =
        all.iter().filter(|c| c["class"] == "unresolved").collect();
    assert!(unresolved.len() > 10, "ROCm-pages has many open questions");
    let out = kansoku(&[
        "claims",
        "--root",
        arg(t.root()),
        "--class",
        "unresolved",
        "--format",
        "json",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let listed: Vec<serde_json::Value> =
        serde_json::from_slice(&out.stdout).expect("claims --format json parses");
    assert_eq!(listed.iter().collect::<Vec<_>>(), unresolved);

    let out = kansoku(&[
        "claims",
        "--root",
        arg(t.root()),
        "--page",
        "components/rocblas.md",
        "--format",
        "csv",
    ]);
    let csv = text(&out.stdout);
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some("id,class,page,about,aspect,answer,ja,en")
    );
    let expected = all
        .iter()
        .filter(|c| c["page"] == "content/components/rocblas.md")
        .count();
    assert!(expected > 0);
    assert_eq!(lines.count(), expected, "{csv}");

    let out = kansoku(&["claims", "--root", arg(t.root()), "--class", "limited"]);
    let table = text(&out.stdout);
    assert!(table.starts_with("ID "), "{table}");
    assert!(table.ends_with("\n4 claims\n"), "{table}");
}

// ---------------------------------------------------------------------------
// The record's review lock (issue 16).

#[test]
fn rocm_pages_lock_reviews_every_claim_and_check_is_clean() {
    let t = SiteTest::from_parts(
        repo_root(),
        &["book.toml", "content", "evidence", "kansoku.lock"],
    );
    let review: Vec<(String, String)> = crate::review::findings(&t)
        .into_iter()
        .filter(|(code, _)| code.starts_with("E08") || code.starts_with("W08"))
        .collect();
    assert_eq!(
        review,
        Vec::<(String, String)>::new(),
        "regenerate with `kansoku review --all`"
    );
    assert_eq!(t.check().exit_code(), 0);
}
