//! The real `kansoku` binary: exit codes, what goes to stdout and stderr,
//! and that `init` and failing builds write nothing they should not.
//!
//! Every site is built in a temp dir; the repository's own site is copied
//! out first so no test ever writes `public/` into the repository.

use crate::common;

use common::{copy_dir, fixture, leftovers_in, SiteTest, Tree};
use std::path::Path;
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

fn path_arg(p: &Path) -> &str {
    p.to_str().expect("temp paths are UTF-8")
}

/// The one summary line of a successful build, checked for shape.
pub(crate) fn assert_one_summary_line(out: &Output) -> String {
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines.len(),
        1,
        "build prints one summary line, got:\n{stdout}"
    );
    let line = lines[0];
    assert!(line.starts_with("built "), "{line}");
    for part in [
        "pages",
        "confirmed",
        "inferred",
        "unresolved",
        "limited",
        "evidence file",
        " ms",
    ] {
        assert!(line.contains(part), "summary line lacks {part:?}: {line}");
    }
    line.to_owned()
}

#[test]
fn init_then_build_succeeds() {
    let tmp = crate::scratch::tempdir();
    let site = tmp.path().join("x");
    let out = kansoku(&["init", path_arg(&site)]);
    assert!(out.status.success(), "init failed: {}", text(&out.stderr));
    assert!(
        text(&out.stdout).starts_with("wrote "),
        "{}",
        text(&out.stdout)
    );
    assert!(site.join("book.toml").is_file() && site.join("content/_index.md").is_file());
    assert!(!site.join("public").exists(), "init does not build");

    let out = kansoku(&["build", "--root", path_arg(&site)]);
    assert!(
        out.status.success(),
        "build of the starter site failed:\n{}",
        text(&out.stderr)
    );
    let line = assert_one_summary_line(&out);
    assert!(line.starts_with("built 3 pages × 2 languages"), "{line}");
    for f in [
        "index.html",
        "ja/index.html",
        "en/index.html",
        "ja-en/index.html",
        "claims.json",
        "404.html",
    ] {
        assert!(
            site.join("public").join(f).is_file(),
            "starter site lacks public/{f}"
        );
    }
    // Its first observation opens with the answer it states (issue 26).
    let page = std::fs::read_to_string(site.join("public/en/notes/first-observation/index.html"))
        .expect("the first observation page");
    assert!(
        page.contains("Did it run on the threads asked for?")
            && page.contains("<span class=\"answer answer--no\">"),
        "the starter page shows its answer"
    );
    // Its book.toml has a stand-in absolute address (example.org), so
    // the first build warns about nothing (issue 25).
    assert!(site.join("public/sitemap.xml").is_file());
    assert_eq!(text(&out.stderr), "");
    assert_eq!(leftovers_in(&site), Vec::<String>::new());

    // `check` on the fresh starter site is clean (it ships no untranslated
    // segment, which `check` would refuse) and writes nothing.
    let before = Tree::of(&site);
    let out = kansoku(&["check", "--root", path_arg(&site)]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "check of the starter site: {}",
        text(&out.stderr)
    );
    before.assert_same(&Tree::of(&site), "the site after `check`");
}

#[test]
fn init_into_a_non_empty_dir_fails_with_2_and_writes_nothing() {
    let tmp = crate::scratch::tempdir();
    let site = tmp.path().join("busy");
    std::fs::create_dir_all(site.join("notes")).expect("mkdir");
    std::fs::write(site.join("notes/mine.md"), "my own notes\n").expect("write");
    let before = Tree::of(tmp.path());

    let out = kansoku(&["init", path_arg(&site)]);
    assert_eq!(out.status.code(), Some(2), "stderr: {}", text(&out.stderr));
    let stderr = text(&out.stderr);
    assert!(
        stderr.starts_with("error: ") && stderr.contains("is not empty"),
        "{stderr}"
    );
    assert_eq!(text(&out.stdout), "");
    before.assert_same(&Tree::of(tmp.path()), "the directory after a refused init");
}

#[test]
fn build_of_an_invalid_site_exits_1_with_the_diagnostic_on_stderr() {
    let mut t = SiteTest::from_fixture("invalid/unknown-class");
    t.write_previous_output();
    let before = t.tree();
    let out = kansoku(&["build", "--root", path_arg(t.root())]);
    assert_eq!(out.status.code(), Some(1), "stderr: {}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "",
        "nothing on stdout when the build fails"
    );
    assert_eq!(
        text(&out.stderr),
        r#"content/page.md:6:9: error[E010]: unknown evidence class `confimed`
  |
6 | class = "confimed"
  |         ^^^^^^^^^^
  = hint: did you mean `confirmed`?
error: 1 error found; nothing was written
"#
    );
    before.assert_same(&t.tree(), "public/ after a failed CLI build");
    assert_eq!(t.leftovers(), Vec::<String>::new());
}

#[test]
fn check_reports_untranslated_segments_as_errors_and_writes_nothing() {
    // `build` warns about the basic fixture's English-only block; `check`,
    // the CI gate, refuses it (SPEC §6).
    let t = SiteTest::from_fixture("basic");
    let out = kansoku(&["check", "--root", path_arg(t.root())]);
    assert_eq!(out.status.code(), Some(1), "stderr: {}", text(&out.stderr));
    let stderr = text(&out.stderr);
    assert!(
        stderr.starts_with("content/notes/page.md:73:1: error[E032]: untranslated segment: this `::: en` block has no `::: ja` partner\n"),
        "{stderr}"
    );
    assert!(!t.out().exists(), "check wrote a build directory");

    let out = kansoku(&["build", "--root", path_arg(t.root())]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_one_summary_line(&out);
    assert!(
        text(&out.stderr).contains("warning[E032]"),
        "build shows the warning: {}",
        text(&out.stderr)
    );
}

#[test]
fn missing_book_toml_is_a_usage_error() {
    let tmp = crate::scratch::tempdir();
    let out = kansoku(&["build", "--root", path_arg(tmp.path())]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(stderr.starts_with("error: no book.toml in "), "{stderr}");
    assert!(!tmp.path().join("public").exists());
}

#[test]
fn the_fixture_copy_helper_copies_everything() {
    let tmp = crate::scratch::tempdir();
    copy_dir(&fixture("basic"), tmp.path());
    Tree::of(&fixture("basic")).assert_same(&Tree::of(tmp.path()), "a copied fixture");
}

// ---------------------------------------------------------------------------
// Issue 23, finding 8: what `diff` reads and what `claims` and `diff` print.

/// `kansoku` as [`kansoku`], killed if still running after 10 s: a read
/// without bound fails the test instead of filling the machine's memory.
fn kansoku_within_10s(args: &[&str]) -> Output {
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_kansoku"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the kansoku binary runs");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while child.try_wait().expect("wait for kansoku").is_none() {
        if std::time::Instant::now() > deadline {
            child.kill().expect("kill kansoku");
            child.wait().expect("reap kansoku");
            panic!("kansoku {args:?} still running after 10 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.wait_with_output().expect("kansoku's output")
}

/// The `check/clean` fixture, committed to a new git repository.
fn site_in_git() -> SiteTest {
    let t = SiteTest::from_fixture("check/clean");
    for args in [
        &["init", "-q"][..],
        &["add", "-A"],
        &["commit", "-qm", "first"],
    ] {
        let out = Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@example.invalid"])
            .args(["-c", "commit.gpgsign=false"])
            .args(args)
            .current_dir(t.root())
            .output()
            .expect("git runs");
        assert!(out.status.success(), "git {args:?}: {}", text(&out.stderr));
    }
    t
}

#[test]
fn diff_since_a_ref_that_looks_like_an_option_reaches_no_git_issue_23() {
    let t = site_in_git();
    let before = Tree::of(t.root());
    for rev in ["--output=F", "-oF", "--remote=x"] {
        let out = kansoku(&[
            "diff",
            &format!("--since={rev}"),
            "--root",
            path_arg(t.root()),
        ]);
        assert_eq!(out.status.code(), Some(2), "{rev}");
        assert_eq!(
            text(&out.stderr),
            format!(
                "error: `{rev}` is not a git revision: it starts with `-`, which git reads as an option; \
                 name a branch, tag or commit, e.g. `--since main` or `--since HEAD~1`\n"
            )
        );
        assert_eq!(text(&out.stdout), "");
    }
    // No `F:` (nor anything else) was written.
    before.assert_same(&Tree::of(t.root()), "the site after `diff --since=-…`");
}

#[test]
fn diff_since_a_ref_that_is_no_commit_says_so_issue_23() {
    let t = site_in_git();
    for rev in ["no-such-ref", "HEAD:content", "HEAD^{tree}"] {
        let out = kansoku(&["diff", "--since", rev, "--root", path_arg(t.root())]);
        assert_eq!(out.status.code(), Some(2), "{rev}");
        assert_eq!(
            text(&out.stderr),
            format!(
                "error: `{rev}` names no commit in the git repository of {}; \
                 name a branch, tag or commit that `git log` lists, e.g. `--since HEAD~1`\n",
                t.root().display()
            )
        );
    }
    // A real revision still works, by any of its names.
    for rev in ["HEAD", "HEAD^{commit}", "HEAD~0"] {
        let out = kansoku(&["diff", "--since", rev, "--root", path_arg(t.root())]);
        assert!(out.status.success(), "{rev}: {}", text(&out.stderr));
        assert_eq!(text(&out.stdout), "0 changes\n", "{rev}");
    }
}

#[test]
fn diff_refuses_a_claims_json_that_is_not_a_regular_file_issue_23() {
    let t = SiteTest::from_fixture("check/clean");
    let new = t.root().join("new.json");
    std::fs::write(&new, "{\"version\": 1, \"claims\": []}\n").expect("write new.json");
    let dir = t.root().join("content");
    for old in [Path::new("/dev/zero"), dir.as_path()] {
        let out = kansoku_within_10s(&["diff", path_arg(old), path_arg(&new)]);
        assert_eq!(out.status.code(), Some(2), "{}", old.display());
        assert_eq!(
            text(&out.stderr),
            format!(
                "error: {}: not a regular file; give the path of a claims.json \
                 (a build writes public/claims.json); save the output of a command to a file first\n",
                old.display()
            )
        );
    }
}

#[test]
fn diff_refuses_a_claims_json_over_256_mib_issue_23() {
    let t = SiteTest::from_fixture("check/clean");
    let (big, new) = (t.root().join("big.json"), t.root().join("new.json"));
    std::fs::write(&new, "{\"version\": 1, \"claims\": []}\n").expect("write new.json");
    // Sparse: no disk is used, and the fixed code never reads it.
    let file = std::fs::File::create(&big).expect("create big.json");
    file.set_len(256 * 1024 * 1024 + 1).expect("grow big.json");
    let out = kansoku_within_10s(&["diff", path_arg(&new), path_arg(&big)]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        format!(
            "error: {}: 268435457 bytes, more than the 256 MiB a claims.json may have; \
             give the path of the claims.json a build wrote (public/claims.json)\n",
            big.display()
        )
    );
}

/// A claim text with an escape sequence, a carriage return, a tab, a
/// newline, DEL, a C1 control (NEL), a bidi override and a zero-width space.
const HOSTILE_TOML: &str = r"Red \u001B[31m\r\tx\ny\u007F\u0085 \u202Edcba\u200B.";
/// The same text, escaped, as every terminal format must show it: as
/// every output holds it, isolated for its override (W062, issue 39).
const HOSTILE_SHOWN: &str =
    r"\u{2068}Red \u{1b}[31m\u{d}\u{9}x\u{a}y\u{7f}\u{85} \u{202e}dcba\u{200b}.\u{202c}\u{2069}";

#[test]
fn claims_table_and_csv_show_control_and_format_characters_escaped_issue_23() {
    let mut t = SiteTest::from_fixture("check/clean");
    t.edit(
        "content/page.md",
        "en = \"The second line holds output.\"",
        &format!("en = \"{HOSTILE_TOML}\""),
    );
    let root = path_arg(t.root());
    let out = kansoku(&["claims", "--root", root, "--page", "page.md"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        format!(
            "ID          CLASS      ANSWER  PAGE             TEXT\n\
             page-claim  confirmed          content/page.md  {HOSTILE_SHOWN}\n\
             1 claim\n"
        )
    );
    let out = kansoku(&[
        "claims", "--root", root, "--page", "page.md", "--format", "csv",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // A CSV field keeps its tab and newline (quoted): they are data, and
    // a terminal only moves to the next line or tab stop for them.
    let csv_shown = HOSTILE_SHOWN
        .replace(r"\u{9}", "\t")
        .replace(r"\u{a}", "\n");
    assert_eq!(
        text(&out.stdout),
        format!(
            "id,class,page,about,aspect,answer,ja,en\r\n\
             page-claim,confirmed,content/page.md,,,,二行目に出力がある。,\"{csv_shown}\"\r\n"
        )
    );
    // JSON was already escaped by serde: the text comes back as written,
    // isolated as in claims.json.
    let out = kansoku(&[
        "claims", "--root", root, "--page", "page.md", "--format", "json",
    ]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(
        json[0]["text"]["en"],
        "\u{2068}Red \u{1b}[31m\r\tx\ny\u{7f}\u{85} \u{202e}dcba\u{200b}.\u{202c}\u{2069}"
    );
}

#[test]
fn diff_human_and_markdown_show_control_and_format_characters_escaped_issue_23() {
    let t = SiteTest::from_fixture("check/clean");
    let claims = |page: &str, en: &str| {
        serde_json::json!({"version": 1, "claims": [
            {"id": "c", "page": page, "class": "confirmed", "text": {"ja": "前", "en": en}},
        ]})
        .to_string()
    };
    let (old, new) = (t.root().join("old.json"), t.root().join("new.json"));
    std::fs::write(&old, claims("content/p.md", "old")).expect("write old.json");
    // A text that would clear the screen and print a fake second change,
    // on a page whose name is reversed by a bidi override.
    let hostile = "new\u{1b}[2J\r\ncontent/p.md: removed `c`\u{feff}";
    std::fs::write(&new, claims("content/\u{202e}dm.p", hostile)).expect("write new.json");
    let (page, shown) = (
        r"content/\u{202e}dm.p",
        r"new\u{1b}[2J\u{d}\u{a}content/p.md: removed `c`\u{feff}",
    );
    let out = kansoku(&["diff", path_arg(&old), path_arg(&new)]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        format!("{page}: en text of `c`: \"old\" → \"{shown}\"\n1 change: 1 texts changed\n")
    );
    let out = kansoku(&[
        "diff",
        path_arg(&old),
        path_arg(&new),
        "--format",
        "markdown",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        format!(
            "### Claims changed\n\n1 change: 1 texts changed.\n\n| page | change |\n|---|---|\n\
             | `{page}` | en text of `c`: \"old\" → \"{shown}\" |\n"
        )
    );
    // A CI log shows GitHub's annotations as text too: GitHub's own
    // escapes (`%0D%0A`), and the rest escaped as on a terminal.
    let out = kansoku(&["diff", path_arg(&old), path_arg(&new), "--format", "github"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "::notice file=content/\\u{202e}dm.p,title=claim text::en text of `c`: \"old\" → \"new\\u{1b}[2J%0D%0Acontent/p.md: removed `c`\\u{feff}\"\n"
    );
}

// Issue 25, point 7: every mistake reported once, with a hint that leads
// to the fix; no panic on the way.

/// A pipe whose reader is already gone, as `| head -1` leaves stdout once
/// head has exited: the reader (`true`) is waited for before the write
/// end is handed over, so every write to it fails with EPIPE.
#[cfg(unix)]
fn widowed_pipe() -> std::process::Stdio {
    let mut reader = Command::new("true")
        .stdin(std::process::Stdio::piped())
        .spawn()
        .expect("true runs");
    let write_end = reader.stdin.take().expect("stdin was piped");
    reader.wait().expect("true exits");
    std::process::Stdio::from(write_end)
}

#[cfg(unix)]
#[test]
fn issue_25_a_closed_stdout_ends_quietly_without_a_panic() {
    let t = SiteTest::from_fixture("basic");
    for args in [
        vec!["claims", "--root", path_arg(t.root())],
        vec!["claims", "--root", path_arg(t.root()), "--format", "json"],
        vec!["completions", "bash"],
        vec!["help", "build"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_kansoku"))
            .args(&args)
            .stdout(widowed_pipe())
            .stderr(std::process::Stdio::piped())
            .output()
            .expect("the kansoku binary runs");
        assert_eq!(text(&out.stderr), "", "kansoku {args:?}");
        assert_eq!(out.status.code(), Some(0), "kansoku {args:?}");
    }
}

#[test]
fn issue_25_help_has_help_and_matches_each_commands_own() {
    let out = kansoku(&["help", "--help"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "Print this message or the help of the given command\n\nUsage: kansoku help [OPTIONS] [COMMAND]\n\nArguments:\n  [COMMAND]  The command to describe [default: all of them]\n\nOptions:\n      --root <ROOT>  The site's root directory (the one holding book.toml) [default: the nearest directory upwards from here that holds a book.toml]\n  -h, --help         Print help\n"
    );
    assert_eq!(text(&kansoku(&["help", "-h"]).stdout), text(&out.stdout));
    assert_eq!(text(&kansoku(&["help", "help"]).stdout), text(&out.stdout));

    let out = kansoku(&["help", "build"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        text(&out.stdout),
        text(&kansoku(&["build", "--help"]).stdout)
    );
    let out = kansoku(&["help"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stdout), text(&kansoku(&["--help"]).stdout));

    let out = kansoku(&["help", "biuld"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(text(&out.stdout), "");
    assert_eq!(
        text(&out.stderr),
        "error: unrecognized subcommand 'biuld'\n\n  tip: a similar subcommand exists: 'build'\n\nUsage: kansoku [OPTIONS] <COMMAND>\n\nFor more information, try '--help'.\n"
    );
}

#[test]
fn issue_25_no_book_toml_says_the_parents_were_searched() {
    let tmp = crate::scratch::tempdir();
    let inner = tmp.path().join("a/b");
    std::fs::create_dir_all(&inner).expect("mkdir");
    let out = Command::new(env!("CARGO_BIN_EXE_kansoku"))
        .arg("build")
        .current_dir(&inner)
        .output()
        .expect("the kansoku binary runs");
    assert_eq!(out.status.code(), Some(2));
    let cwd = std::fs::canonicalize(&inner).expect("canonical");
    assert_eq!(
        text(&out.stderr),
        format!(
            "error: no book.toml in {} or any directory above it; run `kansoku init DIR` to start a site, or pass --root\n",
            cwd.display()
        )
    );
    assert!(!inner.join("public").exists());

    // With --root, only that directory is looked at, and said so.
    let out = kansoku(&["build", "--root", path_arg(&inner)]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        format!(
            "error: no book.toml in {}; run `kansoku init DIR` to start a site, or pass --root\n",
            inner.display()
        )
    );
}

#[test]
fn issue_25_w041_for_base_url_names_the_flag_not_book_toml() {
    let t = SiteTest::from_fixture("basic");
    let out = kansoku(&["build", "--root", path_arg(t.root()), "--base-url", "/x/"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    let w041: Vec<&str> = stderr
        .split_inclusive('\n')
        .skip_while(|l| !l.contains("[W041]"))
        .take(2)
        .collect();
    assert_eq!(
        w041.concat(),
        "<command-line>: warning[W041]: --base-url \"/x/\" is not an absolute URL, so no sitemap.xml is written\n  = hint: a sitemap lists full addresses: pass the address the site is published at (e.g. --base-url https://example.org/docs/)\n",
        "{stderr}"
    );
}

#[test]
fn issue_25_the_starter_site_builds_without_a_warning_and_with_generic_kinds() {
    let tmp = crate::scratch::tempdir();
    let site = tmp.path().join("x");
    assert!(kansoku(&["init", path_arg(&site)]).status.success());
    let out = kansoku(&["build", "--root", path_arg(&site)]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stderr), "");
    assert_one_summary_line(&out);
    assert!(site.join("public/sitemap.xml").is_file());
    let book = std::fs::read_to_string(site.join("book.toml")).expect("book.toml");
    for rocm in ["component", "generation", "observer"] {
        assert!(
            !book.contains(rocm),
            "the starter site ships ROCm's kind {rocm}"
        );
    }
}

#[test]
fn issue_25_new_takes_any_unicode_slug_that_is_a_safe_file_name() {
    let tmp = crate::scratch::tempdir();
    let site = tmp.path().join("site");
    assert!(kansoku(&["init", path_arg(&site)]).status.success());
    let new = |spec: &str| {
        Command::new(env!("CARGO_BIN_EXE_kansoku"))
            .args(["new", spec])
            .current_dir(&site)
            .output()
            .expect("the kansoku binary runs")
    };
    for (spec, written) in [
        ("notes/観測-2", "content/notes/観測-2.md"),
        (
            "Log/Second Run",
            "content/Log/_index.md and content/Log/Second Run.md",
        ),
        ("メモ.md", "content/メモ.md"),
    ] {
        let out = new(spec);
        assert_eq!(out.status.code(), Some(0), "{spec}: {}", text(&out.stderr));
        assert_eq!(
            text(&out.stdout),
            format!("wrote {written}, a draft; fill in its claim and its evidence until `kansoku check` is clean, then remove `draft = true` to publish it\n")
        );
    }
    // Each is a page `check` knows, with only the stub's finding.
    let out = Command::new(env!("CARGO_BIN_EXE_kansoku"))
        .args(["check", "--format", "json"])
        .current_dir(&site)
        .output()
        .expect("check runs");
    let codes: Vec<String> = text(&out.stdout)
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("JSON");
            format!(
                "{} {}",
                v["code"].as_str().expect("code"),
                v["path"].as_str().expect("path")
            )
        })
        .collect();
    assert_eq!(
        codes,
        [
            // The title in the other language than the slug's (issue 40).
            "E005 content/Log/Second Run.md",
            "E011 content/Log/Second Run.md",
            "E005 content/notes/観測-2.md",
            "E011 content/notes/観測-2.md",
            "E005 content/メモ.md",
            "E011 content/メモ.md"
        ]
    );

    let before = Tree::of(&site);
    for (spec, shown, why) in [
        ("notes/../x", "notes/../x", "it has `..`"),
        ("../x", "../x", "it has `..`"),
        ("notes//x", "notes//x", "it has an empty segment"),
        (
            "notes/_index",
            "notes/_index",
            "it has `_index`, a section's own page",
        ),
        (
            "notes/.draft",
            "notes/.draft",
            "it has a leading `.`, which hides a file from the site",
        ),
        ("notes/...", "notes/...", "it has a name made of dots only"),
        ("notes/ x", "notes/ x", "it has a leading or trailing space"),
        (
            "notes/a\u{202e}b",
            "notes/a\\u{202e}b",
            "it has the invisible or control character U+202E",
        ),
        (
            "notes/a\u{200b}b",
            "notes/a\\u{200b}b",
            "it has the invisible or control character U+200B",
        ),
        (
            "notes/a\tb",
            "notes/a\\u{9}b",
            "it has the invisible or control character U+0009",
        ),
        ("notes/a\\b", "notes/a\\b", "browsers read `\\` as `/`"),
        ("notes/a#b", "notes/a#b", "`#` starts a URL fragment"),
    ] {
        let out = new(spec);
        assert_eq!(out.status.code(), Some(2), "{spec:?}");
        assert_eq!(
            text(&out.stderr),
            format!(
                "error: `{shown}` is not a SECTION/SLUG path: {why}; any other Unicode is fine, e.g. `notes/second-observation` or `メモ/観測-2`\n"
            ),
            "{spec:?}"
        );
    }
    before.assert_same(&Tree::of(&site), "the site after refused `new`s");
}
