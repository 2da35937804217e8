//! The build directory is never a place where a user's files are lost
//! (issue 11, findings 1–7): a symlinked `public/` keeps its target, an
//! interrupted build leaves nothing behind, files a person keeps in
//! `public/` survive, mount points and read-only directories give a clear
//! message, and two builds at once both end cleanly.
//!
//! Each test runs the real binary on a copy of the repository's own site,
//! which takes long enough in a debug build to be interrupted midway.

mod common;

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
        !out.join("en/phase-c").exists(),
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

/// A tmpfs mounted on `dir` for the length of a test; unmounted on drop.
/// `None` where mounting is not allowed (not root, no CAP_SYS_ADMIN).
struct Mount(PathBuf);

impl Mount {
    fn tmpfs(dir: &Path) -> Option<Mount> {
        fs::create_dir_all(dir).expect("mkdir");
        let ok = Command::new("mount")
            .args(["-t", "tmpfs", "-o", "size=64m", "kansoku-test"])
            .arg(dir)
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        ok.then(|| Mount(dir.to_path_buf()))
    }

    fn read_only(&self) {
        let ok = Command::new("mount")
            .args(["-o", "remount,ro"])
            .arg(&self.0)
            .status()
            .expect("mount runs");
        assert!(ok.success(), "remount read-only");
    }
}

impl Drop for Mount {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

fn is_mount_point(dir: &Path) -> bool {
    let dir = fs::canonicalize(dir).expect("canonical path");
    fs::read_to_string("/proc/self/mountinfo")
        .expect("mountinfo")
        .lines()
        .any(|l| l.split(' ').nth(4) == Some(dir.to_str().expect("UTF-8 path")))
}

#[cfg(target_os = "linux")]
#[test]
fn issue_11_a_mount_point_build_dir_is_built_into_in_place() {
    let t = site();
    let Some(_mount) = Mount::tmpfs(&t.out()) else {
        eprintln!("skipped: mounting a tmpfs is not allowed here");
        return;
    };
    let mine = user_files(&t.out());
    for round in 0..2 {
        let out = build(t.root());
        assert!(out.status.success(), "round {round}: {}", text(&out.stderr));
        assert!(is_mount_point(&t.out()), "still a mount point");
        assert_intact(&mine);
        assert_built(&t.out());
    }
    assert_eq!(t.leftovers(), Vec::<String>::new());
}

#[cfg(target_os = "linux")]
#[test]
fn issue_11_a_read_only_build_dir_is_refused_and_nothing_is_lost() {
    let t = site();
    let Some(mount) = Mount::tmpfs(&t.out()) else {
        eprintln!("skipped: mounting a tmpfs is not allowed here");
        return;
    };
    let first = build(t.root());
    assert!(first.status.success(), "{}", text(&first.stderr));
    let mine = user_files(&t.out());
    let before = Tree::of(&t.out());
    mount.read_only();
    let out = build(t.root());
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let public = t.out();
    assert_eq!(
        text(&out.stderr),
        format!(
            "error: {} cannot be written (Read-only file system (os error 30)); kansoku changed nothing. Make it writable (for example `chmod -R u+w {}`) or choose another build-dir\n",
            public.display(),
            public.display()
        )
    );
    before.assert_same(&Tree::of(&public), "the read-only public/");
    assert_intact(&mine);
    assert_eq!(t.leftovers(), Vec::<String>::new());
}

#[cfg(target_os = "linux")]
#[test]
fn issue_11_an_immutable_build_dir_is_refused_and_nothing_is_lost() {
    let t = site();
    let first = build(t.root());
    assert!(first.status.success(), "{}", text(&first.stderr));
    let before = Tree::of(&t.out());
    let chattr = |flag: &str| {
        Command::new("chattr")
            .arg(flag)
            .arg(t.out())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    if !chattr("+i") {
        eprintln!("skipped: chattr +i is not allowed here");
        return;
    }
    let out = build(t.root());
    chattr("-i");
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(
            "cannot be written (Operation not permitted (os error 1)); kansoku changed nothing"
        ),
        "{stderr}"
    );
    before.assert_same(&Tree::of(&t.out()), "the immutable public/");
    assert_eq!(t.leftovers(), Vec::<String>::new());
}

/// Each file of `dir` with its inode and change time (which a new hard
/// link, an unlink or a write moves), by `/`-separated path.
#[cfg(unix)]
fn inodes(dir: &Path) -> std::collections::BTreeMap<String, (u64, i64, i64)> {
    use std::os::unix::fs::MetadataExt;
    walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|e| e.expect("walkable"))
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let m = e.metadata().expect("stat");
            let rel = e.path().strip_prefix(dir).expect("under dir");
            (
                rel.to_string_lossy().into_owned(),
                (m.ino(), m.ctime(), m.ctime_nsec()),
            )
        })
        .collect()
}

/// A `--no-cache` build of `root` into `out`, to compare with.
fn cold(root: &Path, out: &Path) -> Tree {
    let done = kansoku()
        .args(["build", "-q", "--no-cache", "--root"])
        .arg(root)
        .arg("--out")
        .arg(out)
        .output()
        .expect("the kansoku binary runs");
    assert!(done.status.success(), "{}", text(&done.stderr));
    Tree::of(out)
}

/// Issue 13: a cached build writes only what changed. Every file whose
/// bytes stay the same keeps its inode and is not even touched (no new
/// link, which would move its change time); the changed ones are new
/// files; the whole equals a cold build.
#[cfg(unix)]
#[test]
fn issue_13_a_cached_build_touches_only_the_files_that_changed() {
    let mut t = SiteTest::from_fixture("basic");
    for _ in 0..2 {
        let out = build(t.root());
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
    let out = t.out();
    let check = |before: &std::collections::BTreeMap<String, (u64, i64, i64)>,
                 old: &Tree,
                 what: &str| {
        let (after, new) = (inodes(&out), Tree::of(&out));
        for (path, id) in &after {
            match (before.get(path), old.0.get(path) == new.0.get(path)) {
                (Some(was), true) => assert_eq!(was, id, "{what}: unchanged {path} was touched"),
                (Some(was), false) => assert_ne!(was.0, id.0, "{what}: {path} written in place"),
                (None, _) => {}
            }
        }
    };
    let (before, old) = (inodes(&t.out()), Tree::of(&t.out()));
    let again = build(t.root());
    assert!(again.status.success(), "{}", text(&again.stderr));
    check(&before, &old, "no edit");
    old.assert_same(&Tree::of(&t.out()), "no edit");

    let (before, old) = (inodes(&t.out()), Tree::of(&t.out()));
    t.edit(
        "content/notes/page.md",
        "## 概要",
        "## 概要\n\n編集した行。",
    );
    let edited = build(t.root());
    assert!(edited.status.success(), "{}", text(&edited.stderr));
    check(&before, &old, "one edit");
    let changed = old
        .0
        .iter()
        .filter(|(p, b)| Tree::of(&t.out()).0.get(*p) != Some(b))
        .count();
    assert!(changed > 0, "the edit changed some output");
    let cold = cold(t.root(), &t.root().parent().expect("temp").join("cold"));
    cold.assert_same(&Tree::of(&t.out()), "cached and cold builds");
    assert_eq!(t.leftovers(), Vec::<String>::new());
}

/// Issue 13: a page edited by hand inside `public/` (in place, so the
/// spare's copy, the same inode, changes too) is written again by the
/// next build with the right bytes, never published as edited.
#[cfg(unix)]
#[test]
fn issue_13_a_file_edited_in_public_is_rewritten_by_the_next_build() {
    let t = SiteTest::from_fixture("basic");
    for _ in 0..2 {
        let out = build(t.root());
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
    let built = Tree::of(&t.out());
    let page = t.out().join("en/index.html");
    let mut f = fs::OpenOptions::new()
        .append(true)
        .open(&page)
        .expect("open");
    std::io::Write::write_all(&mut f, b"x\n").expect("append");
    drop(f);
    for round in 0..2 {
        let out = build(t.root());
        assert!(out.status.success(), "{}", text(&out.stderr));
        built.assert_same(
            &Tree::of(&t.out()),
            &format!("build {round} after the edit"),
        );
    }
    let cold = cold(t.root(), &t.root().parent().expect("temp").join("cold"));
    cold.assert_same(&Tree::of(&t.out()), "cached and cold builds");
}

/// Issue 13: a build killed while it updates the spare leaves `public/`
/// as the previous build made it; the next build removes the half-updated
/// tree and is right.
#[cfg(unix)]
#[test]
fn issue_13_a_build_killed_while_updating_the_spare_loses_nothing() {
    let mut t = site();
    for _ in 0..2 {
        let out = build(t.root());
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
    let spare = t.root().join(".kansoku/public.spare");
    assert!(spare.is_dir(), "two builds leave a spare");
    let before = Tree::of(&t.out());
    let page = fs::read_dir(t.root().join("content"))
        .expect("content")
        .map(|e| e.expect("entry").path())
        .find(|p| p.extension().is_some_and(|x| x == "md"))
        .expect("a page");
    let rel = page
        .strip_prefix(t.root())
        .expect("under root")
        .to_string_lossy()
        .into_owned();
    let text_of = fs::read_to_string(&page).expect("read");
    t.write(&rel, &format!("{text_of}\n\nAn edit.\n"));
    let child = start_build_midway(t.root());
    assert!(!spare.exists(), "the spare is the staging tree now");
    signal(&child, "-KILL");
    let out = child.wait_with_output().expect("wait");
    assert_eq!(out.status.code(), None, "killed");
    before.assert_same(&Tree::of(&t.out()), "public/ after the kill");
    let next = build(t.root());
    assert!(next.status.success(), "{}", text(&next.stderr));
    assert_eq!(t.leftovers(), Vec::<String>::new());
    let cold = cold(t.root(), &t.root().parent().expect("temp").join("cold"));
    cold.assert_same(
        &Tree::of(&t.out()),
        "the build after the kill and a cold one",
    );
}

#[test]
fn issue_13_clean_removes_the_spare_and_a_user_file_survives_it_all() {
    let t = SiteTest::from_fixture("basic");
    let first = build(t.root());
    assert!(first.status.success(), "{}", text(&first.stderr));
    let mine = user_files(&t.out());
    for _ in 0..2 {
        let out = build(t.root());
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert_intact(&mine);
    }
    // With files of a person's in public/, each build is in place; once
    // they are gone, builds swap again.
    for d in [".git", "deep"] {
        fs::remove_dir_all(t.out().join(d)).expect("remove");
    }
    fs::remove_file(t.out().join("notes.txt")).expect("remove");
    for _ in 0..2 {
        let out = build(t.root());
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
    let spare = t.root().join(".kansoku/public.spare");
    assert!(spare.is_dir(), "builds that swap leave a spare");
    let clean = kansoku()
        .args(["clean", "--root"])
        .arg(t.root())
        .output()
        .expect("runs");
    assert!(clean.status.success(), "{}", text(&clean.stderr));
    assert!(!spare.exists() && !t.out().exists());
}
