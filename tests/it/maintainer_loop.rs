//! Issue 15, the maintainer's and contributor's loop: the commands and
//! switches around `build` and `check`, run through the real binary on
//! temp copies (nothing here writes into the repository).

use crate::common;

use common::{repo_root, SiteTest, Tree};
use std::path::Path;
use std::process::{Command, Output};

fn kansoku_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kansoku"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the kansoku binary runs")
}

fn kansoku(args: &[&str]) -> Output {
    kansoku_in(repo_root(), args)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("output is UTF-8")
}

fn arg(p: &Path) -> &str {
    p.to_str().expect("temp paths are UTF-8")
}

/// The site's files, without kansoku's bookkeeping directory.
fn sources(root: &Path) -> Tree {
    let mut t = Tree::of(root);
    t.0.retain(|path, _| !path.starts_with(".kansoku/"));
    t
}

#[test]
fn running_from_inside_the_site_finds_book_toml_in_a_parent() {
    // Two levels down; the repository's site says the same from inside
    // as with --root (content.rs asserts what that is).
    let t = SiteTest::from_fixture("check/clean");
    let out = kansoku_in(&t.root().join("evidence/logs"), &["check"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).ends_with("check: no errors, 0 warnings\n"),
        "{}",
        text(&out.stderr)
    );
    let with_root = kansoku(&["check", "--root", arg(t.root())]);
    assert_eq!(text(&out.stderr), text(&with_root.stderr));
}

#[test]
fn build_out_writes_only_there() {
    let t = SiteTest::from_fixture("basic");
    let before = sources(t.root());
    let tmp = crate::scratch::tempdir();
    let out_dir = tmp.path().join("site-out");
    let out = kansoku(&[
        "build",
        "--root",
        arg(t.root()),
        "--out",
        arg(&out_dir),
        "--base-url",
        "https://example.org/docs/",
        "--quiet",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "", "--quiet prints nothing");
    assert_eq!(text(&out.stderr), "");
    before.assert_same(&sources(t.root()), "the site after build --out");
    assert!(!t.root().join("public").exists());
    let index = std::fs::read_to_string(out_dir.join("en/index.html")).expect("built page");
    assert!(index.contains("href=\"/docs/"), "--base-url applies");
    assert!(
        index.contains("https://example.org/docs/"),
        "--base-url's origin applies"
    );
    // Beside the output, at most kansoku's records of it (.kansoku/).
    for e in std::fs::read_dir(tmp.path()).expect("readable") {
        let name = e.expect("entry").file_name().to_string_lossy().into_owned();
        assert!(
            name == "site-out" || name == ".kansoku",
            "build --out wrote {name} beside its output"
        );
    }
}

#[test]
fn build_out_refuses_the_site_and_its_sources() {
    let t = SiteTest::from_fixture("basic");
    let root = std::fs::canonicalize(t.root()).expect("canonical");
    for (bad, why) in [
        (root.clone(), "which is the site root".to_owned()),
        (
            root.join("content/x"),
            "which lies inside the site's content/".to_owned(),
        ),
    ] {
        let out = kansoku(&["build", "--root", arg(t.root()), "--out", arg(&bad)]);
        assert_eq!(out.status.code(), Some(2));
        assert_eq!(
            text(&out.stderr),
            format!(
                "error: --out \"{b}\" resolves to {b}, {why}: a build there would write among the site's sources, and `kansoku clean` would remove them; kansoku changed nothing. Hint: choose a directory of its own, such as \"public\"\n",
                b = bad.display()
            )
        );
    }
}

#[test]
fn new_then_check_gives_exactly_the_stub_finding() {
    let tmp = crate::scratch::tempdir();
    let site = tmp.path().join("site");
    let out = kansoku(&["init", arg(&site)]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        std::fs::read_to_string(site.join(".gitignore")).expect(".gitignore"),
        kansoku::init::GITIGNORE
    );
    let out = kansoku_in(&site, &["new", "measurements/second-run"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "wrote content/measurements/_index.md and content/measurements/second-run.md, \
         a draft; fill in its claim and its evidence until `kansoku check` is clean, then remove `draft = true` to publish it\n"
    );
    let out = kansoku_in(&site, &["check", "--format", "json"]);
    // A draft's missing evidence is a warning (issue 25): check passes,
    // and says what is missing.
    assert_eq!(out.status.code(), Some(0));
    let findings: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect();
    assert_eq!(findings.len(), 2, "{findings:?}");
    // The title in the language the slug is not in (issue 40).
    assert_eq!(findings[0]["code"], "E005");
    assert_eq!(
        findings[0]["message"],
        "`title.ja` is still the placeholder `kansoku new` wrote"
    );
    assert_eq!(findings[1]["code"], "E011");
    for f in &findings {
        assert_eq!(f["severity"], "warning");
        assert_eq!(f["path"], "content/measurements/second-run.md");
    }
    assert_eq!(
        findings[1]["message"],
        "claim `measurements-second-run-first` has no evidence link"
    );

    // Filling in the stub is all it takes.
    let page = site.join("content/measurements/second-run.md");
    let filled = std::fs::read_to_string(&page)
        .expect("page")
        .replace("evidence = []", "evidence = [\"logs/run-1.log#L4-L5\"]")
        .replace("ja = \"日本語のタイトル\"", "ja = \"二回目の実行\"");
    std::fs::write(&page, filled).expect("write");
    let out = kansoku_in(&site, &["check"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));

    // Never overwrites.
    let out = kansoku_in(&site, &["new", "measurements/second-run"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("already exists"));
    // Any Unicode name is fine (issue 25); one that climbs out is not.
    let out = kansoku_in(&site, &["new", "notes/../../escape"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "error: `notes/../../escape` is not a SECTION/SLUG path: it has `..`; any other Unicode is fine, e.g. `notes/second-observation` or `メモ/観測-2`\n"
    );
}

#[test]
fn init_takes_root_or_dir_but_not_both() {
    let tmp = crate::scratch::tempdir();
    let a = tmp.path().join("a");
    let out = kansoku(&["init", "--root", arg(&a)]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(a.join("book.toml").is_file());
    let b = tmp.path().join("b");
    let out = kansoku(&["init", arg(&b), "--root", arg(&a)]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "error: give the new site's directory once: as DIR or as --root, not both\n"
    );
    assert!(!b.exists());
}

#[test]
fn clean_removes_the_build_directory_and_bookkeeping_only() {
    let mut t = SiteTest::from_fixture("basic");
    t.build();
    std::fs::create_dir_all(t.root().join(".kansoku")).expect("mkdir");
    std::fs::write(t.root().join(".kansoku/state"), "x").expect("write");
    let out = kansoku(&["clean", "--root", arg(t.root())]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "removed public and .kansoku\n");
    assert!(!t.out().exists() && !t.root().join(".kansoku").exists());
    assert!(t.root().join("book.toml").is_file() && t.root().join("content").is_dir());
    let out = kansoku(&["clean", "--root", arg(t.root())]);
    assert_eq!(text(&out.stdout), "nothing to clean\n");
}

#[test]
fn completions_name_the_commands() {
    let out = kansoku(&["completions", "bash"]);
    assert!(out.status.success());
    let script = text(&out.stdout);
    for word in ["claims", "clean", "new", "--base-url", "--out"] {
        assert!(script.contains(word), "bash completion lacks {word}");
    }
}

#[test]
fn every_command_has_help() {
    for cmd in [
        "build",
        "check",
        "serve",
        "init",
        "new",
        "claims",
        "clean",
        "completions",
    ] {
        let out = kansoku(&[cmd, "--help"]);
        assert!(out.status.success(), "{cmd} --help");
        assert!(text(&out.stdout).starts_with(char::is_uppercase), "{cmd}");
    }
}

#[test]
fn errors_precede_warnings_in_every_format() {
    let t = SiteTest::from_fixture("check/combined");
    let out = kansoku(&["check", "--root", arg(t.root())]);
    let human = text(&out.stderr);
    let first_warning = human.find("warning[").expect("a warning");
    let last_error = human.rfind("error[").expect("an error");
    assert!(last_error < first_warning, "{human}");
    assert!(human.ends_with("check: 13 errors, 3 warnings\n"), "{human}");

    let out = kansoku(&["check", "--root", arg(t.root()), "--format", "json"]);
    let severities: Vec<String> = text(&out.stdout)
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("JSON");
            v["severity"].as_str().expect("severity").to_owned()
        })
        .collect();
    let mut sorted = severities.clone();
    sorted.sort();
    assert_eq!(severities, sorted, "errors, then warnings");

    let out = kansoku(&["check", "--root", arg(t.root()), "--format", "github"]);
    let gh = text(&out.stdout);
    // Issue 42: as many annotations of a level as GitHub shows a step
    // (10), the other errors as plain lines of the log, still before
    // every warning.
    let levels: Vec<&str> = gh
        .lines()
        .map(|l| match l.strip_prefix("::") {
            Some(command) => command.split(' ').next().expect("a level"),
            None if l.contains(": error[") => "plain error",
            None => "other",
        })
        .collect();
    assert_eq!(levels.iter().filter(|l| **l == "error").count(), 10);
    assert_eq!(levels.iter().filter(|l| **l == "plain error").count(), 3);
    assert!(levels[..13].iter().all(|l| l.ends_with("error")), "{gh}");
    assert_eq!(
        gh.lines().last(),
        Some("::notice title=kansoku check::check: 13 errors, 3 warnings. GitHub shows 10 annotations of each kind per step: 3 more errors not shown here; the log lists every finding")
    );

    // A failing build lists the same way: errors first, then the count.
    let out = kansoku(&["build", "--root", arg(t.root())]);
    let stderr = text(&out.stderr);
    let first_warning = stderr.find("warning[").expect("a warning");
    assert!(stderr.rfind("error[").expect("an error") < first_warning);
    assert!(
        stderr.ends_with("error: 12 errors found; nothing was written\n"),
        "{stderr}"
    );
}

#[test]
fn the_progress_hook_hears_every_unit_then_the_write() {
    let t = SiteTest::from_fixture("basic");
    let events = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let heard = events.clone();
    let options = kansoku::site::BuildOptions {
        search: false,
        progress: Some(std::sync::Arc::new(move |p| {
            heard.lock().expect("not poisoned").push(p);
        })),
        ..Default::default()
    };
    crate::common::build_with(t.root(), options).expect("the fixture builds");
    use kansoku::site::Progress;
    let events = events.lock().expect("not poisoned").clone();
    let Some(Progress::Rendering(total)) = events.first().copied() else {
        panic!("rendering is announced first: {events:?}");
    };
    let rendered: usize = events
        .iter()
        .filter_map(|e| match e {
            Progress::Rendered(n) => Some(*n),
            _ => None,
        })
        .sum();
    assert_eq!(rendered, total);
    assert_eq!(events.last(), Some(&Progress::Writing));
}
