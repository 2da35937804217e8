//! serve's tree against a full build over scripted edits of this
//! repository's site: what `kansoku serve` shows after each edit, search
//! bundle included, equals a cold build (moved from serve/tree.rs, whose
//! code it tests through the pipeline).

use super::served;
use crate::error::Error;
use crate::serve::tree::{Stats, Tree};
use crate::validate::Mode;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// A copy of this repository's own site to edit.
fn site_copy() -> tempfile::TempDir {
    let dir = crate::scratch::tempdir();
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    for entry in walkdir::WalkDir::new(repo.join("content"))
        .into_iter()
        .chain(walkdir::WalkDir::new(repo.join("evidence")))
    {
        let entry = entry.expect("walk");
        let rel = entry.path().strip_prefix(repo).expect("inside");
        let to = dir.path().join(rel);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&to).expect("mkdir");
        } else {
            std::fs::copy(entry.path(), &to).expect("copy");
        }
    }
    std::fs::copy(repo.join("book.toml"), dir.path().join("book.toml")).expect("book.toml");
    dir
}

/// What a full build of `root` writes (served at `/`), search included.
fn full_build(root: &Path) -> BTreeMap<String, Vec<u8>> {
    let (files, _) = super::in_memory(root, &super::oracle_with(true)).expect("builds");
    files.into_iter().map(|f| (f.path, f.bytes)).collect()
}

fn assert_same(root: &Path, b: &mut Builder) {
    b.index_search().expect("search");
    let want = full_build(root);
    let got = served(b.state.out());
    let only = |a: &BTreeMap<String, Vec<u8>>, b: &BTreeMap<String, Vec<u8>>| -> Vec<String> {
        a.keys().filter(|k| !b.contains_key(*k)).cloned().collect()
    };
    assert_eq!(
        only(&want, &got),
        Vec::<String>::new(),
        "missing from serve"
    );
    assert_eq!(only(&got, &want), Vec::<String>::new(), "only in serve");
    let differ: Vec<&String> = want.keys().filter(|k| want[*k] != got[*k]).collect();
    assert!(differ.is_empty(), "differ from a full build: {differ:?}");
}

/// A builder the way `serve` drives it: each step names the paths the
/// watcher reported.
struct Builder {
    root: PathBuf,
    state: Tree,
    search_files: BTreeSet<String>,
    search_memo: crate::search::Memo,
    _work: tempfile::TempDir,
}

impl Builder {
    fn new(root: &Path) -> Builder {
        let work = crate::scratch::tempdir();
        Builder {
            root: root.to_path_buf(),
            state: Tree::new(root.to_path_buf(), work.path().join("site"), None),
            search_files: BTreeSet::new(),
            search_memo: crate::search::Memo::default(),
            _work: work,
        }
    }
    /// One build after a change to `paths` (none: the first build);
    /// its findings must be those of a full load.
    fn build(&mut self, paths: &[PathBuf]) -> Result<Stats, Error> {
        self.state.changed((!paths.is_empty()).then_some(paths));
        let got = self.state.build(paths.is_empty());
        let want = crate::site::load(&self.root, Mode::Build);
        match (&got, &want) {
            (Ok((_, a)), Ok((_, b))) => assert_eq!(a, b, "warnings differ from a full check"),
            (Err(Error::Content(a)), Err(Error::Content(b))) => {
                assert_eq!(a, b, "errors differ from a full check")
            }
            _ => panic!("serve and a full load disagree: {got:?} / {:?}", want.err()),
        }
        got.map(|(s, _)| s)
    }
    fn index_search(&mut self) -> Result<(), Error> {
        let job = self.state.search_job().expect("built");
        job.run(
            &Mutex::new(false),
            &mut self.search_files,
            &mut self.search_memo,
        )
    }
}

fn edit(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).expect("read");
    assert!(text.contains(from), "{} lacks {from:?}", path.display());
    std::fs::write(path, text.replacen(from, to, 1)).expect("write");
}

#[test]
fn incremental_rebuilds_equal_a_full_build() {
    let dir = site_copy();
    let root = dir.path();
    let mut b = Builder::new(root);
    let first = b.build(&[]).expect("first build");
    assert!(first.full);
    let total = first.total;
    assert_same(root, &mut b);

    // Add a page: the navigation changes, so everything renders.
    let new_page = root.join("content/components/scratch.md");
    std::fs::write(
        &new_page,
        r#"+++
title = { ja = "メモ", en = "Scratch" }
weight = 200

[[claims]]
id = "scratch-note"
class = "inferred"
ja = "MIOpen は maps に現れない。"
en = "MIOpen is not in the maps."
evidence = [{ path = "phase-c/runner-maps.txt", lines = "18" }]
+++

::: ja
[[claim:scratch-note]] と [[claim:dispatch-blas]]。
:::
::: en
[[claim:scratch-note]] and [[claim:dispatch-blas]].
:::
"#,
    )
    .expect("write page");
    let s = b
        .build(std::slice::from_ref(&new_page))
        .expect("page added");
    assert!(s.full, "a new page changes the navigation");
    assert_same(root, &mut b);

    // Edit a claim's class: cited inline by the new page, rested on by
    // claims of the home page and of its own page.
    let ggml = root.join("content/components/ggml-hip.md");
    edit(
        &ggml,
        "id = \"dispatch-blas\"\nclass = \"confirmed\"",
        "id = \"dispatch-blas\"\nclass = \"inferred\"",
    );
    let s = b.build(std::slice::from_ref(&ggml)).expect("class edited");
    assert!(
        !s.full,
        "same structure: only what depends on the claim: {s:?}"
    );
    assert!(s.units < total);
    assert!(s.written > 0 && s.written < total, "{s:?}");
    assert_same(root, &mut b);

    // Edit the text of a claim that two other pages cite inline.
    let index = root.join("content/components/_index.md");
    edit(
        &index,
        "rocSOLVER と hipBLASLt が、",
        "rocSOLVER と hipBLASLt とが、",
    );
    let s = b.build(std::slice::from_ref(&index)).expect("text edited");
    assert!(!s.full);
    assert_same(root, &mut b);

    // Rename a claim other pages cite: their findings change, so the
    // whole site is checked again, and the build fails.
    edit(
        &index,
        "id = \"rocsolver-hipblaslt-called\"",
        "id = \"rocsolver-hipblaslt-used\"",
    );
    match b.build(std::slice::from_ref(&index)) {
        Err(Error::Content(d)) => assert!(
            d.iter()
                .any(|d| d.code == "E020" && d.location.path != "content/components/_index.md"),
            "{d:?}"
        ),
        other => panic!("expected E020 elsewhere, got {other:?}"),
    }
    edit(
        &index,
        "id = \"rocsolver-hipblaslt-used\"",
        "id = \"rocsolver-hipblaslt-called\"",
    );
    b.build(std::slice::from_ref(&index)).expect("renamed back");
    assert_same(root, &mut b);

    // Delete an evidence file the claims cite: the build fails and the
    // served tree stays as it was.
    let log = root.join("evidence/phase-c/runner-maps.txt");
    let saved = std::fs::read(&log).expect("read log");
    let before = served(b.state.out());
    std::fs::remove_file(&log).expect("delete log");
    match b.build(std::slice::from_ref(&log)) {
        Err(Error::Content(d)) => assert!(d.iter().any(|d| d.code == "E012"), "{d:?}"),
        other => panic!("expected E012, got {other:?}"),
    }
    assert_eq!(
        served(b.state.out()),
        before,
        "a failed build writes nothing"
    );

    // Fix it: the file comes back.
    std::fs::write(&log, saved).expect("restore log");
    let s = b.build(std::slice::from_ref(&log)).expect("fixed");
    assert!(!s.full);
    assert_same(root, &mut b);

    // A prose edit that touches no claim: only that page's outputs.
    let text = std::fs::read_to_string(&ggml).expect("read");
    let prose = text
        .lines()
        .skip_while(|l| *l != "::: en")
        .find(|l| l.len() > 40 && !l.starts_with('#'))
        .expect("a line of English prose")
        .to_owned();
    edit(&ggml, &prose, &format!("{prose} (edited)"));
    let s = b.build(std::slice::from_ref(&ggml)).expect("prose edited");
    assert!(!s.full);
    assert_same(root, &mut b);

    // And an edit after a failure still lands.
    edit(&index, "hipBLASLt とが、", "hipBLASLt が、");
    b.build(std::slice::from_ref(&index)).expect("edited again");
    assert_same(root, &mut b);
}

/// A copy of `tests/fixtures/basic` to edit.
fn basic_copy() -> tempfile::TempDir {
    let dir = crate::scratch::tempdir();
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/basic");
    for entry in walkdir::WalkDir::new(&from) {
        let entry = entry.expect("walk");
        let to = dir
            .path()
            .join(entry.path().strip_prefix(&from).expect("inside"));
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&to).expect("mkdir");
        } else {
            std::fs::copy(entry.path(), &to).expect("copy");
        }
    }
    dir
}

/// A page defining claim `dup-x`, citing the fixture's log.
fn dup_page(title: &str) -> String {
    format!(
        "+++\ntitle = {{ ja = \"{title}\", en = \"{title}\" }}\n\n[[claims]]\nid = \"dup-x\"\nclass = \"confirmed\"\nja = \"ランナーは起動した。\"\nen = \"The runner started.\"\nevidence = [\"logs/run.log#L7\"]\n+++\n\n::: ja\n[[claim:dup-x]]\n:::\n::: en\n[[claim:dup-x]]\n:::\n"
    )
}

/// Issue 13: pages A and B both define claim `x`; a line inserted at
/// the top of B's front matter moves B's duplicate, and the E016
/// finding must follow it to B's new line.
#[test]
fn issue_13_duplicate_id_follows_its_line() {
    let dir = basic_copy();
    let root = dir.path();
    let (a, b_page) = (root.join("content/a.md"), root.join("content/b.md"));
    std::fs::write(&a, dup_page("A")).expect("write a");
    std::fs::write(&b_page, dup_page("B").replace("dup-x", "own-y")).expect("write b");
    let mut b = Builder::new(root);
    b.build(&[]).expect("no duplicate yet");
    std::fs::write(&b_page, dup_page("B")).expect("write b");
    let line = |r: Result<Stats, Error>| match r {
        Err(Error::Content(d)) => d
            .iter()
            .find(|d| d.code == "E016")
            .map(|d| (d.location.path.clone(), d.location.line))
            .expect("an E016"),
        other => panic!("expected E016, got {other:?}"),
    };
    assert_eq!(
        line(b.build(std::slice::from_ref(&b_page))),
        ("content/b.md".to_owned(), 5)
    );
    let text = std::fs::read_to_string(&b_page).expect("read b");
    std::fs::write(&b_page, text.replacen("+++\n", "+++\n# moved down\n", 1)).expect("edit b");
    assert_eq!(
        line(b.build(std::slice::from_ref(&b_page))),
        ("content/b.md".to_owned(), 6)
    );
}

/// With a review lock, an edited log puts notices on the pages citing
/// it (and on pages resting on them): serve shows what a full build
/// does, and again after `kansoku review` rewrites the lock.
#[test]
fn review_notices_follow_the_lock() {
    let dir = site_copy();
    let root = dir.path();
    crate::review::review(
        root,
        &crate::site::load_unreviewed(root, crate::validate::Mode::Build)
            .expect("loads")
            .0,
        &crate::review::Selection {
            all: true,
            ..Default::default()
        },
    )
    .expect("review --all");
    let mut b = Builder::new(root);
    b.build(&[]).expect("first build");
    assert_same(root, &mut b);
    let log = root.join("evidence/phase-c/runner-maps.txt");
    let text = std::fs::read_to_string(&log).expect("log");
    let (first, rest) = text.split_once("\n+++\n").expect("a header");
    let lines: Vec<&str> = rest.lines().collect();
    let edited = format!(
        "{first}\n+++\n{} (edited)\n{}\n",
        lines[0],
        lines[1..].join("\n")
    );
    std::fs::write(&log, edited).expect("edit log");
    b.build(std::slice::from_ref(&log)).expect("log edited");
    let shown = served(b.state.out());
    assert!(
        shown
            .values()
            .any(|v| String::from_utf8_lossy(v).contains("claim-notice--suspect")),
        "a suspect notice is served"
    );
    assert_same(root, &mut b);
    crate::review::review(
        root,
        &crate::site::load_unreviewed(root, crate::validate::Mode::Build)
            .expect("loads")
            .0,
        &crate::review::Selection {
            all: true,
            ..Default::default()
        },
    )
    .expect("review again");
    b.build(&[root.join(crate::review::LOCK_FILE)])
        .expect("lock rewritten");
    assert_same(root, &mut b);
}

/// One line of the first `::: {lang}` block of `text` long enough to be
/// prose, not a heading or a marker.
fn prose_line(text: &str, lang: &str) -> String {
    let marker = format!("::: {lang}");
    text.lines()
        .skip_while(|l| *l != marker)
        .skip(1)
        .take_while(|l| *l != ":::")
        .find(|l| l.chars().count() > 20 && !l.starts_with('#') && !l.contains("[["))
        .expect("a line of prose")
        .to_owned()
}

/// Issue 25: with a review lock, a prose edit on one page renders that
/// page alone, also when it makes a translation stale (E085) and when the
/// site already has a stale one: what the lock says about one page's
/// pairs is read by that page only, and what it says about a claim only
/// where the claim is shown.
#[test]
fn issue_25_with_a_lock_a_prose_edit_renders_one_page() {
    let dir = site_copy();
    let root = dir.path();
    crate::review::review(
        root,
        &crate::site::load_unreviewed(root, crate::validate::Mode::Build)
            .expect("loads")
            .0,
        &crate::review::Selection {
            all: true,
            ..Default::default()
        },
    )
    .expect("review --all");
    let mut b = Builder::new(root);
    b.build(&[]).expect("first build");

    // The first stale translation: one side of a reviewed pair changes.
    let ggml = root.join("content/components/ggml-hip.md");
    let text = std::fs::read_to_string(&ggml).expect("read");
    let ja = prose_line(&text, "ja");
    edit(&ggml, &ja, &format!("{ja}（編集）"));
    let s = b.build(std::slice::from_ref(&ggml)).expect("ja edited");
    // The page, and the llms files, which hold every page's text (issue
    // 28): nothing else.
    assert_eq!((s.full, s.units), (false, 2), "{s:?}");
    assert_same(root, &mut b);

    // Another page's prose, and the stale page's own again.
    let index = root.join("content/components/_index.md");
    let text = std::fs::read_to_string(&index).expect("read");
    let en = prose_line(&text, "en");
    edit(&index, &en, &format!("{en} (edited)"));
    let s = b.build(std::slice::from_ref(&index)).expect("en edited");
    assert_eq!((s.full, s.units), (false, 2), "{s:?}");
    assert_same(root, &mut b);

    edit(&ggml, &format!("{ja}（編集）"), &format!("{ja}（再編集）"));
    let s = b
        .build(std::slice::from_ref(&ggml))
        .expect("ja edited again");
    assert_eq!((s.full, s.units), (false, 2), "{s:?}");
    assert_same(root, &mut b);

    // Reviewing them again takes the notices away from the two edited
    // pages, their bytes unchanged, and renders nothing else.
    let stale = |b: &Builder| {
        served(b.state.out())
            .values()
            .any(|v| String::from_utf8_lossy(v).contains("<div class=\"pair-notice\""))
    };
    assert!(stale(&b), "stale-translation notices are served");
    crate::review::review(
        root,
        &crate::site::load_unreviewed(root, crate::validate::Mode::Build)
            .expect("loads")
            .0,
        &crate::review::Selection {
            all: true,
            ..Default::default()
        },
    )
    .expect("review again");
    let s = b
        .build(&[root.join(crate::review::LOCK_FILE)])
        .expect("lock rewritten");
    assert_eq!((s.full, s.units), (false, 2), "{s:?}");
    assert!(!stale(&b), "the notices are gone");
    assert_same(root, &mut b);
}

/// A log too large to hold (issue 27) is copied into the served tree, not
/// read, and serve gives what a full build gives, before and after it
/// grows.
#[test]
fn issue_27_a_large_log_is_served_as_a_full_build_writes_it() {
    let dir = basic_copy();
    let root = dir.path();
    let log = root.join("evidence/big.log");
    let text: String = (0..300_000)
        .map(|n| format!("{n:>7} amdgpu: ring gfx_0.0.0 ready\n"))
        .collect();
    assert!(text.len() as u64 > 8 << 20, "large enough to be streamed");
    std::fs::write(&log, &text).expect("write log");
    let mut b = Builder::new(root);
    b.build(&[]).expect("first build");
    assert_same(root, &mut b);
    std::fs::write(&log, format!("{text}one more line\n")).expect("grow log");
    b.build(std::slice::from_ref(&log)).expect("rebuild");
    assert_same(root, &mut b);
    assert!(
        std::fs::read_to_string(b.state.out().join("evidence/big.log"))
            .expect("served")
            .ends_with("one more line\n")
    );
}

/// Issue 28: the llms files are made again after a prose edit only when
/// they read that page's text: here, with `llms-full.txt` cut after some
/// 230 of 600 pages and every page described by its lead, an edit to the
/// last page renders that page alone; one to the first, it and the llms
/// files. serve's output is a cold build's after each.
#[test]
fn issue_28_a_prose_edit_past_the_llms_cut_renders_one_page() {
    let dir = crate::scratch::tempdir();
    let root = dir.path();
    std::fs::write(
        root.join("book.toml"),
        "[book]\ntitle = \"Record\"\nlanguages = [\"ja\", \"en\"]\n\n[output.html]\nsite-url = \"https://example.org/\"\n\n[search]\nenabled = false\n",
    )
    .expect("book.toml");
    std::fs::create_dir_all(root.join("content")).expect("content");
    std::fs::write(
        root.join("content/_index.md"),
        "+++\ntitle = \"Home\"\nlead = \"The home page.\"\n+++\n\nWelcome.\n",
    )
    .expect("home");
    let para = "A sentence of prose that fills the page to a known size. ".repeat(70);
    for i in 0..600 {
        std::fs::write(
            root.join(format!("content/p{i:03}.md")),
            format!(
                "+++\ntitle = \"Page {i}\"\nlead = \"Page {i}.\"\nweight = {i}\n+++\n\n{para}\n"
            ),
        )
        .expect("page");
    }
    let mut b = Builder::new(root);
    b.build(&[]).expect("first build");
    let served_now = served(b.state.out());
    let full = String::from_utf8_lossy(&served_now["en/llms-full.txt"]).into_owned();
    assert!(full.contains("# Page 0\n") && !full.contains("# Page 599\n"));

    let last = root.join("content/p599.md");
    edit(&last, "known size.", "known size, edited.");
    let s = b
        .build(std::slice::from_ref(&last))
        .expect("last page edited");
    assert_eq!((s.full, s.units), (false, 1), "{s:?}");
    let first = root.join("content/p000.md");
    edit(&first, "known size.", "known size, edited.");
    let s = b
        .build(std::slice::from_ref(&first))
        .expect("first page edited");
    assert_eq!((s.full, s.units), (false, 2), "{s:?}");
    let want: BTreeMap<String, Vec<u8>> = super::in_memory(root, &super::oracle_with(false))
        .expect("builds")
        .0
        .into_iter()
        .map(|f| (f.path, f.bytes))
        .collect();
    let got = served(b.state.out());
    let differ: Vec<&String> = want
        .keys()
        .chain(got.keys())
        .filter(|k| want.get(*k) != got.get(*k))
        .collect();
    assert!(differ.is_empty(), "differ from a cold build: {differ:?}");
}
