//! The build directory is never a place where a user's files are lost
//! (issue 11, findings 1–7): a symlinked `public/` keeps its target, an
//! interrupted build leaves nothing behind, files a person keeps in
//! `public/` survive, mount points and read-only directories give a clear
//! message, and two builds at once both end cleanly.
//!
//! Each test runs the real binary on a copy of the repository's own site,
//! which takes long enough in a debug build to be interrupted midway.

use crate::common;

use common::{leftovers_in, repo_root, SiteTest, Tree};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

fn kansoku() -> Command {
    Command::new(env!("CARGO_BIN_EXE_kansoku"))
}

fn build(root: &Path) -> Output {
    kansoku()
        .args(["build", "--root"])
        .arg(root)
        .output()
        .expect("the kansoku binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn site() -> SiteTest {
    SiteTest::from_parts(repo_root(), &["book.toml", "content", "evidence"])
}

/// Files a person keeps somewhere, with their bytes.
fn user_files(dir: &Path) -> Vec<(PathBuf, &'static str)> {
    let files = [
        (dir.join(".git/HEAD"), "ref: refs/heads/gh-pages\n"),
        (dir.join(".git/objects/ab/cdef"), "blob"),
        (dir.join("notes.txt"), "my notes\n"),
        (dir.join("deep/er/file.bin"), "bytes"),
    ];
    for (p, bytes) in &files {
        fs::create_dir_all(p.parent().expect("has a parent")).expect("mkdir");
        fs::write(p, bytes).expect("write");
    }
    files.to_vec()
}

fn assert_intact(files: &[(PathBuf, &str)]) {
    for (p, bytes) in files {
        let got = fs::read_to_string(p).unwrap_or_else(|e| panic!("{} is gone: {e}", p.display()));
        assert_eq!(&got, bytes, "{} changed", p.display());
    }
}

fn assert_built(out: &Path) {
    for f in [
        "index.html",
        "ja/index.html",
        "en/index.html",
        "claims.json",
    ] {
        assert!(out.join(f).is_file(), "{f} missing in {}", out.display());
    }
}

#[cfg(unix)]
#[test]
fn issue_11_a_symlinked_build_dir_keeps_its_target_and_is_built_into() {
    let t = site();
    let deploy = t.root().parent().expect("temp dir").join("deploy-checkout");
    let mine = user_files(&deploy);
    std::os::unix::fs::symlink("../deploy-checkout", t.out()).expect("symlink");

    for round in 0..2 {
        let out = build(t.root());
        assert!(out.status.success(), "round {round}: {}", text(&out.stderr));
        assert!(
            fs::symlink_metadata(t.out())
                .expect("public")
                .file_type()
                .is_symlink(),
            "public/ is still the link"
        );
        assert_intact(&mine);
        assert_built(&deploy);
        // Files nobody keeps are named, once each, and left in place.
        let stderr = text(&out.stderr);
        assert!(
            stderr.contains(
                "public/notes.txt:1:1: warning[W040]: not written by kansoku; left in place"
            ),
            "{stderr}"
        );
        assert!(
            !stderr.contains(".git"),
            "dot-files are kept silently: {stderr}"
        );
    }
    assert_eq!(leftovers_in(t.root()), Vec::<String>::new());
}

#[test]
fn issue_11_files_kept_in_public_survive_and_stale_pages_still_go() {
    let mut t = site();
    t.write(
        "content/extra-page.md",
        "+++\ntitle = { ja = \"追加\", en = \"Extra\" }\n+++\n\n::: ja\n追加のページ。\n:::\n\n::: en\nAn extra page.\n:::\n",
    );
    let first = build(t.root());
    assert!(first.status.success(), "{}", text(&first.stderr));
    let out = t.out();
    let mine = user_files(&out);
    fs::write(out.join(".nojekyll"), "").expect("write");
    // A page goes away: its output must go too, the user's files stay.
    assert!(out.join("en/extra-page/index.html").is_file());
    fs::remove_file(t.root().join("content/extra-page.md")).expect("remove page");
    t.edit(
        "book.toml",
        "[build]",
        "[build]\nkeep = [\".*\", \"notes.txt\", \"deep\"]",
    );
    let second = build(t.root());
    assert!(second.status.success(), "{}", text(&second.stderr));
    assert_intact(&mine);
    assert!(out.join(".nojekyll").is_file());
    assert!(
        !out.join("en/extra-page").exists(),
        "the removed page's output is gone"
    );
    assert_built(&out);
    assert!(
        !text(&second.stderr).contains("W040"),
        "kept files give no warning: {}",
        text(&second.stderr)
    );
    assert_eq!(t.leftovers(), Vec::<String>::new());
}

/// Starts a build and waits until its staging tree exists, so a signal
/// lands in the middle of it. Cold: a build that takes the previous
/// build's files from its memo can finish before the signal arrives.
fn start_build_midway(root: &Path) -> Child {
    let child = kansoku()
        .args(["build", "--no-cache", "--root"])
        .arg(root)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the kansoku binary runs");
    let deadline = Instant::now() + Duration::from_secs(60);
    while leftovers_in(root).is_empty() {
        assert!(Instant::now() < deadline, "no staging tree appeared");
        std::thread::sleep(Duration::from_millis(2));
    }
    child
}

#[cfg(unix)]
fn signal(child: &Child, sig: &str) {
    let status = Command::new("kill")
        .args([sig, &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
}

#[cfg(unix)]
#[test]
fn issue_11_an_interrupted_build_removes_its_staging_tree() {
    let t = site();
    let first = build(t.root());
    assert!(first.status.success(), "{}", text(&first.stderr));
    let before = Tree::of(&t.out());
    for (sig, code) in [("-INT", 130), ("-TERM", 143), ("-HUP", 129)] {
        let child = start_build_midway(t.root());
        signal(&child, sig);
        let out = child.wait_with_output().expect("wait");
        assert_eq!(
            out.status.code(),
            Some(code),
            "{sig}: {}",
            text(&out.stderr)
        );
        assert_eq!(t.leftovers(), Vec::<String>::new(), "after {sig}");
        before.assert_same(&Tree::of(&t.out()), &format!("public/ after {sig}"));
    }
}

#[cfg(unix)]
#[test]
fn issue_11_the_next_build_removes_what_a_killed_one_left() {
    let t = site();
    let first = build(t.root());
    assert!(first.status.success(), "{}", text(&first.stderr));
    for _ in 0..3 {
        let child = start_build_midway(t.root());
        signal(&child, "-KILL");
        let out = child.wait_with_output().expect("wait");
        assert_eq!(out.status.code(), None, "killed");
    }
    // kill -9 cannot be caught: the last one's staging tree is still
    // there; each build removed the one before it.
    assert_eq!(t.leftovers().len(), 1, "{:?}", t.leftovers());
    let next = build(t.root());
    assert!(next.status.success(), "{}", text(&next.stderr));
    assert_eq!(t.leftovers(), Vec::<String>::new());
    assert_built(&t.out());
}

#[test]
fn issue_11_two_builds_at_once_both_end_cleanly() {
    let t = site();
    let spawn = || {
        kansoku()
            .args(["build", "--root"])
            .arg(t.root())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the kansoku binary runs")
    };
    let children: Vec<Child> = (0..4).map(|_| spawn()).collect();
    for child in children {
        let out = child.wait_with_output().expect("wait");
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
    assert_eq!(t.leftovers(), Vec::<String>::new());
    assert_built(&t.out());
    // The tree is exactly one build's.
    let after = Tree::of(&t.out());
    let again = build(t.root());
    assert!(again.status.success());
    after.assert_same(&Tree::of(&t.out()), "public/ after a third build");
}

// ---------------------------------------------------------------------------
// Issue 23: a build directory that resolves into the sources, trusted
// records, and user files at generated paths. Each runs the binary on the
// small `basic` fixture with search off, so a build takes milliseconds.

fn small() -> SiteTest {
    SiteTest::from_fixture("basic")
}

/// `kansoku ARGS --root ROOT` (search off for `build`).
fn run(root: &Path, args: &[&str]) -> Output {
    let mut cmd = kansoku();
    cmd.args(args).arg("--root").arg(root);
    if args.first() == Some(&"build") {
        cmd.arg("--no-search");
    }
    cmd.output().expect("the kansoku binary runs")
}

/// Every file under the site root but kansoku's own trees (`public/`'s
/// target aside), to show that a refused command changed nothing.
fn sources(root: &Path) -> Tree {
    let mut t = Tree::default();
    for part in ["book.toml", "content", "evidence"] {
        let p = root.join(part);
        if p.is_dir() {
            for (k, v) in Tree::of(&p).0 {
                t.0.insert(format!("{part}/{k}"), v);
            }
        } else if let Ok(b) = fs::read(&p) {
            t.0.insert(part.to_owned(), b);
        }
    }
    t
}

#[cfg(unix)]
/// The first line of a record, as this kansoku writes it, that describes
/// the directory `dir` (device, inode and birth time): a forged record
/// with it is taken for the build directory's own, the strongest claim a
/// record can make.
fn record_head(dir: &Path) -> String {
    use std::os::unix::fs::MetadataExt;
    let m = fs::metadata(dir).expect("stat");
    let born = m
        .created()
        .expect("this file system keeps birth times")
        .duration_since(std::time::UNIX_EPOCH)
        .expect("born after 1970")
        .as_nanos();
    format!("kansoku-manifest 3 {} {} {born}", m.dev(), m.ino())
}

fn refused(out: &Output, expected: &str) {
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert_eq!(text(&out.stderr), expected);
}

mod mounts;
mod spare;
mod trust;
