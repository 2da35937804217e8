//! `kansoku build`'s memo between runs (issue 13): a second build after
//! an edit renders only what changed and writes what a cold build writes,
//! and finds what a cold build finds;
//! a corrupt memo is ignored; `--no-cache` builds cold; `kansoku clean`
//! removes the memo.

use std::path::Path;
use std::process::Command;

fn kansoku(root: &Path, args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_kansoku"))
        .env("KANSOKU_TIMINGS", "1")
        .args(args)
        .arg("--root")
        .arg(root)
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout)
}

fn tree(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|e| e.expect("walk"))
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let rel = e.path().strip_prefix(dir).expect("inside");
            (
                rel.to_string_lossy().into_owned(),
                std::fs::read(e.path()).expect("read"),
            )
        })
        .collect();
    files.sort();
    files
}

/// A `--no-cache` build of `root` into `out`, for comparison.
fn cold_build(root: &Path, out: &Path) -> std::path::PathBuf {
    kansoku(
        root,
        &[
            "build",
            "-q",
            "--no-cache",
            "--out",
            out.to_str().expect("utf-8"),
        ],
    );
    out.to_path_buf()
}

fn copy_fixture(to: &Path) {
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/basic");
    for entry in walkdir::WalkDir::new(&from) {
        let entry = entry.expect("walk");
        let dest = to.join(entry.path().strip_prefix(&from).expect("inside"));
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&dest).expect("mkdir");
        } else {
            std::fs::copy(entry.path(), &dest).expect("copy");
        }
    }
}

#[test]
fn a_cached_build_after_an_edit_equals_a_cold_one() {
    let dir = crate::scratch::tempdir();
    let root = dir.path().join("site");
    copy_fixture(&root);
    kansoku(&root, &["build", "-q"]);
    let memo = root.join(".kansoku/public.memo.json");
    assert!(memo.is_file(), "the memo is kept beside the manifest");
    let page = root.join("content/notes/page.md");
    let text = std::fs::read_to_string(&page).expect("read");
    std::fs::write(
        &page,
        text.replacen("## 概要", "## 概要\n\n編集した行。", 1),
    )
    .expect("edit");
    kansoku(&root, &["build", "-q"]);
    let cold = cold_build(&root, &dir.path().join("cold"));
    assert_eq!(tree(&root.join("public")), tree(&cold));

    // A corrupt memo is no error: the build is cold.
    std::fs::write(&memo, "{ not json").expect("corrupt");
    kansoku(&root, &["build", "-q"]);
    assert_eq!(tree(&root.join("public")), tree(&cold));

    kansoku(&root, &["clean"]);
    assert!(!memo.exists(), "clean removes the memo");
}

/// The search bundles of a build, by language: (pages, shards, shards
/// indexed in this build).
fn shards(report: &kansoku::site::BuildReport) -> Vec<(&str, (usize, usize, usize))> {
    report
        .search
        .iter()
        .map(|(lang, s)| (lang.as_str(), (s.pages, s.shards, s.indexed)))
        .collect()
}

#[test]
fn a_cached_build_indexes_again_only_the_search_shards_of_edited_pages() {
    let dir = crate::scratch::tempdir();
    let root = dir.path().join("site");
    copy_fixture(&root);
    let build = || crate::common::build_searched(&root).expect("builds");
    let cold = build();
    assert_eq!(shards(&cold), [("ja", (5, 1, 1)), ("en", (5, 1, 1))]);
    let memo = root.join(".kansoku/public.search.json");
    assert!(
        memo.is_file(),
        "the search memo is kept beside the manifest"
    );

    let again = build();
    assert_eq!(shards(&again), [("ja", (5, 1, 0)), ("en", (5, 1, 0))]);

    // The Japanese text alone changes: only the Japanese index is rebuilt,
    // and the result is a cold build's.
    let page = root.join("content/notes/page.md");
    let text = std::fs::read_to_string(&page).expect("read");
    std::fs::write(&page, text.replacen("## 概要", "## 概要\n\n索引語。", 1)).expect("edit");
    let edited = build();
    assert_eq!(shards(&edited), [("ja", (5, 1, 1)), ("en", (5, 1, 0))]);
    let cold = cold_build(&root, &dir.path().join("cold"));
    assert_eq!(tree(&root.join("public")), tree(&cold));

    // A bundle file changed by hand is not the recorded one: its shard is
    // indexed again rather than taken.
    let entry = root.join("public/en/pagefind/pagefind-entry.json");
    std::fs::write(&entry, "{}").expect("tamper");
    let repaired = build();
    assert_eq!(shards(&repaired), [("ja", (5, 1, 0)), ("en", (5, 1, 1))]);
    assert_eq!(tree(&root.join("public")), tree(&cold));

    kansoku(&root, &["clean"]);
    assert!(!memo.exists(), "clean removes the search memo");
}

/// A page's findings are kept between builds (`.kansoku/public.checks.json`)
/// under the key of its bytes and the site facts: a page that did not
/// change gets a new finding when a claim it rests on elsewhere changes
/// class, as a cold build says.
#[test]
fn a_cached_build_finds_what_a_cold_one_finds_on_an_unchanged_page() {
    let dir = crate::scratch::tempdir();
    let root = dir.path().join("site");
    copy_fixture(&root);
    let page = |name: &str, class: &str, from: &str| {
        format!(
            "+++\ntitle = {{ ja = \"{name}\", en = \"{name}\" }}\n\n[[claims]]\nid = \"{name}-claim\"\nclass = \"{class}\"\nja = \"主張。\"\nen = \"A claim.\"\nevidence = [\"logs/run.log#L7\"]\n{from}+++\n\n::: ja\n本文。\n:::\n::: en\nBody.\n:::\n"
        )
    };
    let premise = root.join("content/notes/premise.md");
    std::fs::write(&premise, page("premise", "confirmed", "")).expect("write");
    std::fs::write(
        root.join("content/notes/inference.md"),
        page("inference", "inferred", "from = [\"premise-claim\"]\n"),
    )
    .expect("write");
    let first = kansoku(&root, &["build"]);
    assert!(!first.contains("W082"), "{first}");
    assert!(root.join(".kansoku/public.checks.json").is_file());

    // Only the premise changes; the inference's page is taken from the
    // memo unless the key sees the new class.
    std::fs::write(&premise, page("premise", "unresolved", "")).expect("edit");
    let cached = kansoku(&root, &["build"]);
    let cold = kansoku(
        &root,
        &[
            "build",
            "--no-cache",
            "--out",
            dir.path().join("cold").to_str().expect("utf-8"),
        ],
    );
    let findings = |out: &str| -> Vec<String> {
        out.lines()
            .filter(|l| l.contains("warning[") || l.contains("error["))
            .map(str::to_owned)
            .collect()
    };
    assert!(
        findings(&cached)
            .iter()
            .any(|l| l.starts_with("content/notes/inference.md:") && l.contains("W082")),
        "{cached}"
    );
    assert_eq!(findings(&cached), findings(&cold));
}

/// The raw copy of an evidence file is the file: an edit that leaves its
/// text as it was (a header's spacing, a comment in it) still reaches the
/// published copy in a cached build. The memo keyed the evidence on its
/// text and parsed header, and kept the old copy.
#[test]
fn a_cached_build_publishes_an_evidence_file_edited_outside_its_text() {
    let dir = crate::scratch::tempdir();
    let root = dir.path().join("site");
    copy_fixture(&root);
    kansoku(&root, &["build", "-q"]);
    let log = walkdir::WalkDir::new(root.join("evidence"))
        .into_iter()
        .map(|e| e.expect("walk").into_path())
        .find(|p| p.is_file() && std::fs::read_to_string(p).is_ok_and(|t| t.starts_with("+++\n")))
        .expect("a log with a header");
    let text = std::fs::read_to_string(&log).expect("read");
    std::fs::write(&log, text.replacen("+++\n", "+++\n# reviewed again\n", 1)).expect("edit");
    kansoku(&root, &["build", "-q"]);
    let rel = log.strip_prefix(&root).expect("inside");
    assert_eq!(
        std::fs::read(root.join("public").join(rel)).expect("published"),
        std::fs::read(&log).expect("source"),
        "the published copy is the file as it is now"
    );
    let cold = cold_build(&root, &dir.path().join("cold"));
    assert_eq!(tree(&root.join("public")), tree(&cold));
}

/// A build reports what it rendered, by kind, and what it indexed: a cold
/// one everything, a cached one with nothing changed nothing, one after a
/// prose edit that page alone.
#[test]
fn a_build_reports_what_it_rendered_and_indexed() {
    use crate::common::build_with;
    use kansoku::site::{BuildOptions, UnitCounts};
    let dir = crate::scratch::tempdir();
    let root = dir.path().join("site");
    copy_fixture(&root);
    let build = |cache| {
        build_with(
            &root,
            BuildOptions {
                cache,
                ..BuildOptions::default()
            },
        )
        .expect("builds")
    };
    let cold = build(false);
    let everything = UnitCounts {
        pages: cold.pages,
        evidence: cold.evidence_files,
        site: cold.units - cold.pages - cold.evidence_files,
    };
    assert_eq!(cold.rendered, everything);
    assert!(everything.site > 0, "{everything:?}");
    assert!(cold.search.iter().all(|(_, s)| s.indexed == s.shards));

    let again = build(true);
    assert_eq!(again.rendered, UnitCounts::default());
    assert!(again.search.iter().all(|(_, s)| s.indexed == 0));

    let page = root.join("content/notes/page.md");
    let text = std::fs::read_to_string(&page).expect("read");
    std::fs::write(&page, text.replacen("## 概要", "## 概要\n\n編集。", 1)).expect("edit");
    let edited = build(true);
    assert_eq!(edited.units, cold.units);
    assert_eq!(
        edited.rendered,
        UnitCounts {
            pages: 1,
            // The llms files hold every page's text (issue 28).
            site: 1,
            ..UnitCounts::default()
        }
    );
}

/// Issue 29: `KANSOKU_TIMINGS` splits rendering's time by what it makes
/// and the search stage's by step (the counts of what a build did are on
/// its report, above; these lines are for people).
#[test]
fn issue_29_timings_split_render_by_page_kind_and_search_by_step() {
    let dir = crate::scratch::tempdir();
    let root = dir.path().join("site");
    copy_fixture(&root);
    let cold = kansoku(&root, &["build", "-q", "--no-cache"]);
    for name in [
        "render/ja",
        "render/en",
        "render/ja-en",
        "render/evidence",
        "render/site",
        "render/write",
        "search/read",
        "search/parse",
        "search/bundle",
    ] {
        assert!(
            cold.lines()
                .any(|l| l.starts_with("timing: ") && l.split_whitespace().nth(1) == Some(name)),
            "no {name} in {cold}"
        );
    }
}

/// A two-language site with no pages yet, search off, and one log,
/// `evidence/a.log`: the temporary directory and the site's root in it.
fn small_site() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = crate::scratch::tempdir();
    let root = dir.path().join("site");
    std::fs::create_dir_all(root.join("content")).expect("content");
    std::fs::create_dir_all(root.join("evidence")).expect("evidence");
    std::fs::write(
        root.join("book.toml"),
        "[book]\ntitle = \"Record\"\nlanguages = [\"ja\", \"en\"]\n\n[search]\nenabled = false\n",
    )
    .expect("book.toml");
    std::fs::write(root.join("evidence/a.log"), "alpha ready\n").expect("a.log");
    (dir, root)
}

/// Issue 41: an evidence page marks a citing claim suspect only when the
/// lock says this very file changed. When the lock moves that mark from
/// one cited file to another, with no file edited, both evidence pages
/// change in a cached build as in a cold one: the claim's view, in their
/// input, names the file.
#[test]
fn a_suspect_mark_that_moves_between_evidence_files_reaches_both_pages() {
    let (dir, root) = small_site();
    std::fs::write(root.join("evidence/b.log"), "beta ready\n").expect("b.log");
    std::fs::write(
        root.join("content/_index.md"),
        "+++\ntitle = { ja = \"記録\", en = \"Record\" }\n\n[[claims]]\nid = \"both-ready\"\nclass = \"confirmed\"\nja = \"両方とも準備できた。\"\nen = \"Both were ready.\"\nevidence = [\"a.log#L1\", \"b.log#L1\"]\n+++\n\n::: ja\n本文。\n:::\n::: en\nText.\n:::\n",
    )
    .expect("page");
    kansoku(&root, &["review", "--all"]);
    let lock_path = root.join("kansoku.lock");
    let lock = std::fs::read_to_string(&lock_path).expect("lock");
    let hash_of = |link: &str| {
        let at = lock
            .find(&format!("link = \"{link}\""))
            .expect("link locked");
        let line = lock[at..]
            .lines()
            .find(|l| l.starts_with("hash = "))
            .expect("its hash");
        line.to_owned()
    };
    let (a, b) = (hash_of("a.log#L1"), hash_of("b.log#L1"));
    let forged = "hash = \"fnv1a64:0000000000000000\"";
    // The lock says a.log changed since the review, then b.log instead.
    std::fs::write(&lock_path, lock.replacen(&a, forged, 1)).expect("lock: a");
    kansoku(&root, &["build", "-q"]);
    std::fs::write(&lock_path, lock.replacen(&b, forged, 1)).expect("lock: b");
    kansoku(&root, &["build", "-q"]);
    let cold = cold_build(&root, &dir.path().join("cold"));
    let (cached, cold) = (tree(&root.join("public")), tree(&cold));
    let differ: Vec<&str> = cached
        .iter()
        .zip(&cold)
        .filter(|(a, b)| a != b)
        .map(|(a, _)| a.0.as_str())
        .collect();
    assert_eq!(cached.len(), cold.len());
    assert!(differ.is_empty(), "differ from a cold build: {differ:?}");
}

/// Issue 41: a plain page's scope table may name another page's claims;
/// the page's input holds them, so the page shows them, and an edit to
/// one reaches it in a cached build as in a cold one.
#[test]
fn a_scope_table_shows_another_pages_claim_and_follows_its_edit() {
    let (dir, root) = small_site();
    std::fs::write(
        root.join("content/_index.md"),
        "+++\ntitle = { ja = \"記録\", en = \"Record\" }\n\n[[claims]]\nid = \"alpha-ready\"\nclass = \"confirmed\"\nja = \"アルファは準備できた。\"\nen = \"Alpha was ready.\"\nevidence = [\"a.log#L1\"]\n+++\n\n::: ja\n本文。\n:::\n::: en\nText.\n:::\n",
    )
    .expect("home");
    std::fs::write(
        root.join("content/scope.md"),
        "+++\ntitle = { ja = \"範囲\", en = \"Scope\" }\n\n[scope]\ncan = [\"alpha-ready\"]\ncannot = []\n+++\n\n::: ja\n範囲。\n:::\n::: en\nScope.\n:::\n",
    )
    .expect("scope page");
    kansoku(&root, &["build", "-q"]);
    let page = std::fs::read_to_string(root.join("public/en/scope/index.html")).expect("built");
    assert!(
        page.contains("Alpha was ready."),
        "the scope table shows the claim"
    );
    let home = root.join("content/_index.md");
    let text = std::fs::read_to_string(&home).expect("read");
    std::fs::write(
        &home,
        text.replace("Alpha was ready.", "Alpha was ready, twice."),
    )
    .expect("edit");
    kansoku(&root, &["build", "-q"]);
    let page = std::fs::read_to_string(root.join("public/en/scope/index.html")).expect("built");
    assert!(
        page.contains("Alpha was ready, twice."),
        "the edit reaches the scope table"
    );
    let cold = cold_build(&root, &dir.path().join("cold"));
    assert_eq!(tree(&root.join("public")), tree(&cold));
}

/// A claim's `about` names its row on the open-questions page even
/// without an `aspect` (so it fills no cell). Moving such a claim to
/// another entity changes that page in a cached build as in a cold one:
/// what a unit reads of a claim is keyed with its views.
#[test]
fn an_open_questions_row_follows_a_claims_about_without_an_aspect() {
    let (dir, root) = small_site();
    let book = root.join("book.toml");
    let config = std::fs::read_to_string(&book).expect("book.toml");
    std::fs::write(
        &book,
        format!("{config}\n[kinds]\nthing = {{ ja = \"物\", en = \"Thing\" }}\n"),
    )
    .expect("kinds");
    std::fs::write(
        root.join("content/_index.md"),
        "+++\ntitle = { ja = \"記録\", en = \"Record\" }\n\n[[entities]]\nkind = \"thing\"\nkey = \"west-wing\"\nname = { ja = \"左\", en = \"Left side\" }\n\n[[entities]]\nkind = \"thing\"\nkey = \"east-wing\"\nname = { ja = \"右\", en = \"Right side\" }\n\n[[claims]]\nid = \"alpha-open\"\nclass = \"unresolved\"\nabout = \"west-wing\"\nsettle = { ja = \"見る。\", en = \"Look.\" }\nja = \"アルファは未確定。\"\nen = \"Alpha is open.\"\nevidence = [\"a.log#L1\"]\n+++\n\n::: ja\n本文。\n:::\n::: en\nText.\n:::\n",
    )
    .expect("home");
    std::fs::write(
        root.join("content/open.md"),
        "+++\ntitle = { ja = \"未確定\", en = \"Open\" }\nlayout = \"open-questions\"\n+++\n\n::: ja\n一覧。\n:::\n::: en\nList.\n:::\n",
    )
    .expect("open page");
    kansoku(&root, &["build", "-q"]);
    let open = root.join("public/en/open/index.html");
    let page = std::fs::read_to_string(&open).expect("built");
    assert!(page.contains("west-wing"), "the row names the entity");
    let home = root.join("content/_index.md");
    let text = std::fs::read_to_string(&home).expect("read");
    std::fs::write(
        &home,
        text.replace("about = \"west-wing\"", "about = \"east-wing\""),
    )
    .expect("edit");
    kansoku(&root, &["build", "-q"]);
    let page = std::fs::read_to_string(&open).expect("built");
    assert!(
        page.contains("east-wing") && !page.contains("west-wing"),
        "the move reaches the open-questions page"
    );
    let cold = cold_build(&root, &dir.path().join("cold"));
    assert_eq!(tree(&root.join("public")), tree(&cold));
}
