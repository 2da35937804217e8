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

/// Why the tests that mount a file system are ignored unless asked for.
const NEEDS_MOUNT: &str =
    "needs root (CAP_SYS_ADMIN) to mount a tmpfs: run with cargo test -- --ignored";

/// Why the tests that make a directory immutable are ignored unless asked for.
const NEEDS_CHATTR: &str = "needs root (CAP_LINUX_IMMUTABLE) and chattr on a file system with the immutable flag: run with cargo test -- --ignored";

/// A tmpfs mounted on `dir` for the length of a test; unmounted on drop.
/// Panics where mounting is not allowed (not root, no CAP_SYS_ADMIN): a
/// test that asked for a mount point and got none has tested nothing.
struct Mount(PathBuf);

impl Mount {
    fn tmpfs(dir: &Path) -> Mount {
        fs::create_dir_all(dir).expect("mkdir");
        let status = Command::new("mount")
            .args(["-t", "tmpfs", "-o", "size=64m", "kansoku-test"])
            .arg(dir)
            .status();
        assert!(
            status.as_ref().is_ok_and(|s| s.success()),
            "mount -t tmpfs on {} failed ({status:?}); this test {NEEDS_MOUNT}",
            dir.display()
        );
        Mount(dir.to_path_buf())
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
#[ignore = "needs root (CAP_SYS_ADMIN) to mount a tmpfs: run with cargo test -- --ignored"]
fn issue_11_a_mount_point_build_dir_is_built_into_in_place() {
    let t = site();
    let _mount = Mount::tmpfs(&t.out());
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
#[ignore = "needs root (CAP_SYS_ADMIN) to mount a tmpfs: run with cargo test -- --ignored"]
fn issue_11_a_read_only_build_dir_is_refused_and_nothing_is_lost() {
    let t = site();
    let mount = Mount::tmpfs(&t.out());
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
#[ignore = "needs root (CAP_LINUX_IMMUTABLE) and chattr on a file system with the immutable flag: run with cargo test -- --ignored"]
fn issue_11_an_immutable_build_dir_is_refused_and_nothing_is_lost() {
    let t = site();
    let first = build(t.root());
    assert!(first.status.success(), "{}", text(&first.stderr));
    let before = Tree::of(&t.out());
    let chattr = |flag: &str| {
        Command::new("chattr")
            .arg(flag)
            .arg(t.out())
            .status()
            .is_ok_and(|s| s.success())
    };
    assert!(chattr("+i"), "chattr +i failed; this test {NEEDS_CHATTR}");
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

/// The device and inode a manifest names its directory by.
#[cfg(unix)]
fn dir_id(dir: &Path) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt;
    let m = fs::metadata(dir).expect("stat");
    (m.dev(), m.ino())
}

fn refused(out: &Output, expected: &str) {
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert_eq!(text(&out.stderr), expected);
}

#[cfg(unix)]
#[test]
fn issue_23_1_public_linked_to_the_site_root_is_refused_by_build_and_clean() {
    let t = small();
    let root = fs::canonicalize(t.root()).expect("canonical");
    let before = sources(&root);
    std::os::unix::fs::symlink(".", root.join("public")).expect("symlink");
    let message = format!(
        "error: build-dir \"public\" resolves to {r}, which is the site root: a build there would write among the site's sources, and `kansoku clean` would remove them; kansoku changed nothing. Hint: point the symbolic link \"public\" at a directory of its own, or remove the link\n",
        r = root.display()
    );
    refused(&run(&root, &["build"]), &message);
    // A record from before this guard, naming the sources as output (what
    // the build wrote through the link), must not lead clean to them.
    let id = dir_id(&root);
    fs::create_dir_all(root.join(".kansoku")).expect("mkdir");
    fs::write(
        root.join(".kansoku/public.manifest"),
        format!(
            "kansoku-manifest 2 {} {}\n1 0000000000000001 - - - - - - - book.toml\n1 0000000000000001 - - - - - - - content/_index.md\nend 2\n",
            id.0, id.1
        ),
    )
    .expect("forged record");
    refused(&run(&root, &["clean"]), &message);
    before.assert_same(&sources(&root), "the sources after build and clean");
}

#[cfg(unix)]
#[test]
fn issue_23_2_build_dirs_that_resolve_into_the_sources_are_refused() {
    let t = small();
    let root = fs::canonicalize(t.root()).expect("canonical");
    let parent = root.parent().expect("temp dir");
    let before = sources(&root);
    let site_out = |what: &str, shown: &str, resolved: &Path, why: &str, link: bool| {
        let fix = if link {
            format!(
                "point the symbolic link \"{shown}\" at a directory of its own, or remove the link"
            )
        } else {
            "choose a directory of its own, such as \"public\"".to_owned()
        };
        format!(
            "error: {what} \"{shown}\" resolves to {}, {why}: a build there would write among the site's sources, and `kansoku clean` would remove them; kansoku changed nothing. Hint: {fix}\n",
            resolved.display()
        )
    };
    // --out, relative to the current directory (the site root here).
    for (arg, resolved, why) in [
        (
            "..",
            parent.to_path_buf(),
            format!("which holds the site root {}", root.display()),
        ),
        ("../site", root.clone(), "which is the site root".to_owned()),
        (
            "evidence/../content/x",
            root.join("content/x"),
            "which lies inside the site's content/".to_owned(),
        ),
        (
            ".kansoku",
            root.join(".kansoku"),
            "which is the site's .kansoku/".to_owned(),
        ),
    ] {
        let out = kansoku()
            .current_dir(&root)
            .args(["build", "--no-search", "--out", arg])
            .output()
            .expect("runs");
        refused(&out, &site_out("--out", arg, &resolved, &why, false));
    }
    // public/ as a link into the sources.
    for (to, resolved, why) in [
        (
            "content",
            root.join("content"),
            "which is the site's content/",
        ),
        (
            "evidence",
            root.join("evidence"),
            "which is the site's evidence/",
        ),
        ("..", parent.to_path_buf(), "which holds the site root"),
        (
            "content/notes",
            root.join("content/notes"),
            "which lies inside the site's content/",
        ),
    ] {
        std::os::unix::fs::symlink(to, root.join("public")).expect("symlink");
        let why = if to == ".." {
            format!("{why} {}", root.display())
        } else {
            why.to_owned()
        };
        refused(
            &run(&root, &["build"]),
            &site_out("build-dir", "public", &resolved, &why, true),
        );
        fs::remove_file(root.join("public")).expect("unlink");
    }
    before.assert_same(&sources(&root), "the sources after refused builds");
    assert!(!root.join(".kansoku/public.manifest").exists());
}

#[test]
fn issue_23_3_a_persons_file_at_a_generated_path_is_never_overwritten() {
    let t = small();
    let root = t.root();
    // A pre-existing public/ with no record: the person's index.html.
    fs::create_dir_all(t.out().join("en")).expect("mkdir");
    fs::write(t.out().join("index.html"), "my home page\n").expect("write");
    fs::write(t.out().join("en/index.html"), "my english page\n").expect("write");
    fs::write(t.out().join("notes.txt"), "notes\n").expect("write");
    let out = run(root, &["build"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let hint = "  = hint: move the file out of public/ to keep it; if public/ holds only an earlier build's output whose record in .kansoku/ was lost, remove public/ and build again\n";
    let stderr = text(&out.stderr);
    assert!(
        stderr.ends_with(&format!(
            "public/en/index.html:1:1: error[E044]: not written by kansoku (no record names it), and this build writes this path; nothing was changed\n{hint}public/index.html:1:1: error[E044]: not written by kansoku (no record names it), and this build writes this path; nothing was changed\n{hint}error: 2 errors found; nothing was written\n"
        )),
        "{stderr}"
    );
    assert_eq!(
        fs::read_to_string(t.out().join("index.html")).expect("kept"),
        "my home page\n"
    );
    assert_eq!(
        fs::read_to_string(t.out().join("en/index.html")).expect("kept"),
        "my english page\n"
    );
    assert!(
        !t.out().join("ja/index.html").exists(),
        "nothing was written"
    );

    // --out DIR: the same, and the records stay inside the site.
    let elsewhere = crate::scratch::tempdir();
    let dir = elsewhere.path().join("deploy");
    fs::create_dir_all(&dir).expect("mkdir");
    fs::write(dir.join("claims.json"), "mine\n").expect("write");
    let out = kansoku()
        .args(["build", "--no-search", "--root"])
        .arg(root)
        .arg("--out")
        .arg(&dir)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("/deploy/claims.json:1:1: error[E044]"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(
        fs::read_to_string(dir.join("claims.json")).expect("kept"),
        "mine\n"
    );
    fs::remove_file(dir.join("claims.json")).expect("rm");
    let out = kansoku()
        .args(["build", "--no-search", "--root"])
        .arg(root)
        .arg("--out")
        .arg(&dir)
        .output()
        .expect("runs");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_built(&dir);
    assert!(
        !elsewhere.path().join(".kansoku").exists(),
        ".kansoku/ is not made beside the --out directory"
    );
    // Plain clean keeps the --out tree's records and names the tree;
    // clean --out removes what kansoku wrote there, and the records.
    fs::write(dir.join("mine.txt"), "mine\n").expect("write");
    fs::remove_dir_all(t.out()).expect("rm public");
    let out = run(root, &["clean"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "nothing to clean\n");
    let resolved = fs::canonicalize(&dir).expect("canonical");
    assert_eq!(
        text(&out.stderr),
        format!(
            "kansoku: kept the records of {0}, built with --out; `kansoku clean --out {0}` removes what kansoku wrote there\n",
            resolved.display()
        )
    );
    assert!(
        dir.join("index.html").is_file(),
        "plain clean leaves --out trees"
    );
    let out = kansoku()
        .args(["clean", "--root"])
        .arg(root)
        .arg("--out")
        .arg(&dir)
        .output()
        .expect("runs");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), format!("removed {}\n", dir.display()));
    assert_eq!(
        text(&out.stderr),
        format!(
            "kansoku: left {} in place: kansoku did not write it\n",
            dir.join("mine.txt").display()
        )
    );
    assert_eq!(Tree::of(&dir).paths(), ["mine.txt"]);
    assert!(!root.join(".kansoku").exists());
}

/// A forged `--out` record (a `target` naming another directory, with a
/// manifest of that directory) never makes `clean` remove anything there.
#[cfg(unix)]
#[test]
fn issue_23_3_a_forged_out_record_chooses_nothing_to_delete() {
    let t = small();
    let root = t.root();
    let victim = root.parent().expect("temp").join("victim");
    fs::create_dir_all(&victim).expect("mkdir");
    fs::write(victim.join("precious.txt"), "precious\n").expect("write");
    let id = dir_id(&victim);
    let record = root.join(".kansoku/out/0000000000000001");
    fs::create_dir_all(&record).expect("mkdir");
    fs::write(record.join("target"), victim.display().to_string()).expect("write");
    fs::write(
        record.join("victim.manifest"),
        format!(
            "kansoku-manifest 2 {} {}\n9 0000000000000001 - - - - - - - precious.txt\nend 1\n",
            id.0, id.1
        ),
    )
    .expect("forge");
    assert!(run(root, &["build"]).status.success());
    let out = run(root, &["clean"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        fs::read_to_string(victim.join("precious.txt")).expect("kept"),
        "precious\n"
    );
    // Naming another --out directory touches only that one's records.
    let elsewhere = root.parent().expect("temp").join("elsewhere");
    let out = kansoku()
        .args(["clean", "--root"])
        .arg(root)
        .arg("--out")
        .arg(&elsewhere)
        .output()
        .expect("runs");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "nothing to clean\n");
    assert_eq!(
        fs::read_to_string(victim.join("precious.txt")).expect("kept"),
        "precious\n"
    );
}

/// Records of every kind naming a file outside the site, by `../` and by
/// an absolute path: neither build nor clean may remove it.
#[cfg(unix)]
#[test]
fn issue_23_4_records_naming_paths_outside_are_discarded() {
    let t = small();
    let root = t.root();
    let victim_dir = root.parent().expect("temp").join("victim");
    fs::create_dir_all(&victim_dir).expect("mkdir");
    let victim = victim_dir.join("precious.txt");
    for (i, file) in [
        "public.manifest",
        "public.manifest.pending",
        "public.spare-manifest",
    ]
    .iter()
    .enumerate()
    {
        for path in [
            "../../victim/precious.txt".to_owned(),
            victim.display().to_string(),
        ] {
            fs::write(&victim, "precious\n").expect("write");
            let out = run(root, &["build"]);
            assert!(out.status.success(), "{}", text(&out.stderr));
            let out = run(root, &["build"]);
            assert!(out.status.success(), "{}", text(&out.stderr));
            let dir = if *file == "public.spare-manifest" {
                root.join(".kansoku/public.spare")
            } else {
                t.out()
            };
            let id = dir_id(&dir);
            let record = root.join(".kansoku").join(file);
            let text_now = fs::read_to_string(&record)
                .unwrap_or_else(|_| format!("kansoku-manifest 2 {} {}\nend 0\n", id.0, id.1));
            let (body, _) = text_now.trim_end().rsplit_once('\n').expect("lines");
            let n = body.lines().count();
            fs::write(
                &record,
                format!("{body}\n9 0000000000000001 - - - - - - - {path}\nend {n}\n"),
            )
            .expect("forge");
            // The forged record is discarded: this build finds its files
            // unrecorded, and takes them back as they are the same bytes.
            let out = run(root, &["build"]);
            assert!(out.status.success(), "{}", text(&out.stderr));
            let edit = format!("content/notes/page{i}.md");
            fs::write(
                root.join(&edit),
                "+++\ntitle = { ja = \"頁\", en = \"Page\" }\n+++\n\n::: ja\n頁。\n:::\n\n::: en\nPage.\n:::\n",
            )
            .expect("write");
            let out = run(root, &["build"]);
            assert!(out.status.success(), "{}", text(&out.stderr));
            fs::remove_file(root.join(&edit)).expect("rm");
            let out = run(root, &["build"]);
            assert!(out.status.success(), "{}", text(&out.stderr));
            assert_eq!(
                fs::read_to_string(&victim).expect("kept by build"),
                "precious\n",
                "{file}: {path}"
            );
            let out = run(root, &["clean"]);
            assert!(out.status.success(), "{}", text(&out.stderr));
            assert_eq!(
                fs::read_to_string(&victim).expect("kept by clean"),
                "precious\n",
                "{file}: {path}"
            );
        }
    }
}

#[cfg(unix)]
#[test]
fn issue_23_5_and_7_a_spare_with_a_link_or_a_planted_file_is_not_used() {
    let t = small();
    let root = t.root();
    let outside = root.parent().expect("temp").join("outside");
    fs::create_dir_all(&outside).expect("mkdir");
    fs::write(outside.join("index.html"), "outside\n").expect("write");
    for round in 0..2 {
        assert!(run(root, &["build"]).status.success());
        assert!(run(root, &["build"]).status.success());
        let spare = root.join(".kansoku/public.spare");
        assert!(spare.join("en").is_dir(), "a spare was kept");
        if round == 0 {
            // A directory of the spare replaced by a link to outside.
            fs::remove_dir_all(spare.join("en")).expect("rm");
            std::os::unix::fs::symlink(&outside, spare.join("en")).expect("symlink");
        } else {
            // A file planted in the spare.
            fs::write(spare.join("en/planted.html"), "planted\n").expect("write");
        }
        let out = run(root, &["build"]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert_eq!(
            fs::read_to_string(outside.join("index.html")).expect("kept"),
            "outside\n"
        );
        assert_eq!(Tree::of(&outside).paths(), ["index.html"]);
        assert!(
            fs::symlink_metadata(t.out().join("en"))
                .expect("en")
                .is_dir(),
            "public/en is a directory, not the link"
        );
        assert!(
            !t.out().join("en/planted.html").exists(),
            "the planted file is not published"
        );
        // Later builds are not wedged.
        assert!(run(root, &["build"]).status.success());
        let out = run(root, &["build"]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert_eq!(
            text(&out.stderr).matches("W040").count(),
            0,
            "{}",
            text(&out.stderr)
        );
    }
}

#[test]
fn issue_23_6_a_lost_record_replaces_nothing_and_warns_nothing_false() {
    let t = small();
    let root = t.root();
    assert!(run(root, &["build"]).status.success());
    let first = Tree::of(&t.out());
    for damage in ["delete", "truncate", "garbage"] {
        let record = root.join(".kansoku/public.manifest");
        match damage {
            "delete" => fs::remove_dir_all(root.join(".kansoku")).expect("rm"),
            "truncate" => {
                let text = fs::read_to_string(&record).expect("read");
                fs::write(&record, &text[..text.len() / 2]).expect("write");
            }
            _ => fs::write(&record, "not a record\n").expect("write"),
        }
        // Unchanged sources: the files are the same bytes, taken back
        // silently.
        let out = run(root, &["build"]);
        assert!(out.status.success(), "{damage}: {}", text(&out.stderr));
        assert!(
            !text(&out.stderr).contains("W040"),
            "{damage}: {}",
            text(&out.stderr)
        );
        first.assert_same(&Tree::of(&t.out()), damage);
    }
    // A lost record and a changed page: the files that differ are not
    // overwritten, and are named.
    fs::remove_dir_all(root.join(".kansoku")).expect("rm");
    let page = "content/notes/page.md";
    let text_before = fs::read_to_string(root.join(page)).expect("read");
    fs::write(root.join(page), format!("{text_before}\nShared words.\n")).expect("edit");
    let out = run(root, &["build"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("error[E044]"),
        "{}",
        text(&out.stderr)
    );
    first.assert_same(&Tree::of(&t.out()), "public/ after the refused build");
    // Following the hint reaches what a --no-cache build into a fresh
    // directory writes.
    fs::remove_dir_all(t.out()).expect("rm public");
    assert!(run(root, &["build"]).status.success());
    let fresh = crate::scratch::tempdir();
    let out = kansoku()
        .args(["build", "--no-search", "--no-cache", "--root"])
        .arg(root)
        .arg("--out")
        .arg(fresh.path().join("p"))
        .output()
        .expect("runs");
    assert!(out.status.success(), "{}", text(&out.stderr));
    Tree::of(&fresh.path().join("p")).assert_same(&Tree::of(&t.out()), "against --no-cache");
}

#[cfg(unix)]
#[test]
#[ignore = "needs root (CAP_LINUX_IMMUTABLE) and chattr on a file system with the immutable flag: run with cargo test -- --ignored"]
fn issue_23_9_an_immutable_directory_in_public_never_wedges_later_builds() {
    let t = small();
    let root = t.root();
    assert!(run(root, &["build"]).status.success());
    assert!(run(root, &["build"]).status.success());
    let chattr = |flag: &str, p: &Path| {
        Command::new("chattr")
            .arg(flag)
            .arg(p)
            .status()
            .is_ok_and(|s| s.success())
    };
    let en = t.out().join("en");
    assert!(
        chattr("+i", &en),
        "chattr +i failed; this test {NEEDS_CHATTR}"
    );
    let mut stuck = None;
    for i in 0..3 {
        fs::write(
            root.join("content/notes/extra.md"),
            format!("+++\ntitle = \"x{i}\"\n+++\n\n::: ja\nx\n:::\n\n::: en\nx\n:::\n"),
        )
        .expect("edit");
        let out = run(root, &["build"]);
        assert!(out.status.success(), "build {i}: {}", text(&out.stderr));
        let stderr = text(&out.stderr);
        if let Some(line) = stderr.lines().find(|l| l.contains("W042")) {
            // Whichever entry of the immutable `en/` its parallel
            // removal met first.
            let named = line
                .split_once("kansoku could not remove this leftover of an earlier build: ")
                .and_then(|(_, rest)| rest.split_once(": Operation not permitted"))
                .map(|(entry, _)| Path::new(entry));
            assert!(
                named.is_some_and(|p| p.to_string_lossy().contains("/.kansoku/public.spare")
                    && p.parent().is_some_and(|d| d.ends_with("en"))),
                "{line}"
            );
            stuck = Some(line.to_owned());
        }
    }
    assert!(stuck.is_some(), "the stuck tree is named");
    // Unblocked as the hint says, the next build removes it.
    for entry in fs::read_dir(root.join(".kansoku")).expect("read").flatten() {
        Command::new("chattr")
            .args(["-R", "-i"])
            .arg(entry.path())
            .status()
            .expect("chattr");
    }
    chattr("-i", &en);
    let out = run(root, &["build"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(!text(&out.stderr).contains("W042"), "{}", text(&out.stderr));
    let names: Vec<String> = fs::read_dir(root.join(".kansoku"))
        .expect("read")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("stuck"))
        .collect();
    assert_eq!(names, Vec::<String>::new());
    assert_eq!(leftovers_in(root), Vec::<String>::new());
}

/// `check` finds what `build` would stop on before writing: a build
/// directory among the sources is an error of the site (E045), not only of
/// the build.
#[test]
fn issue_24_check_reports_a_build_dir_that_build_refuses() {
    let mut t = small();
    let root = t.root().to_path_buf();
    let book = fs::read_to_string(root.join("book.toml")).expect("read");
    t.write(
        "book.toml",
        &book.replacen("build-dir = \"public\"", "build-dir = \"content\"", 1),
    );
    let out = run(&root, &["check"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let resolved = fs::canonicalize(root.join("content")).expect("resolves");
    let shown = text(&out.stderr);
    // Sorted first (book.toml), with the fixture's own E032 after it.
    let want = format!(
        "book.toml:1:1: error[E045]: build-dir \"content\" resolves to {}, which is the site's content/: a build there would write among the site's sources, and `kansoku clean` would remove them\n  = hint: choose a directory of its own, such as \"public\"\n\n",
        resolved.display()
    );
    assert!(shown.starts_with(&want), "{shown}");
    assert!(shown.ends_with("check: 2 errors, 0 warnings\n"), "{shown}");
    // The configured one is fine again.
    t.write("book.toml", &book);
    let out = run(&root, &["check"]);
    assert!(!text(&out.stderr).contains("E045"), "{}", text(&out.stderr));
    assert!(text(&out.stderr).ends_with("check: 1 error, 0 warnings\n"));
}

#[test]
fn issue_23_9_clean_tells_the_truth_and_kansoku_as_a_file_gets_a_hint() {
    let mut t = small();
    let root = t.root().to_path_buf();
    // build-dir = "content": refused by clean as by build, nothing removed.
    let book = fs::read_to_string(root.join("book.toml")).expect("read");
    t.write(
        "book.toml",
        &book.replacen("build-dir = \"public\"", "build-dir = \"content\"", 1),
    );
    let before = sources(&root);
    let out = run(&root, &["clean"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).starts_with("error: build-dir \"content\" resolves to ")
            && text(&out.stderr).contains(", which is the site's content/:"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(text(&out.stdout), "");
    before.assert_same(&sources(&root), "the sources after clean");
    t.write("book.toml", &book);
    // `.kansoku` as a regular file.
    t.write(".kansoku", "a note\n");
    let out = run(&root, &["build"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        format!(
            "error: {} is not a directory; kansoku keeps its build records in a directory of that name. Move it away (nothing of kansoku's is in it) and build again\n",
            root.join(".kansoku").display()
        )
    );
    assert_eq!(
        fs::read_to_string(root.join(".kansoku")).expect("kept"),
        "a note\n"
    );
    assert!(!t.out().exists());
}

#[test]
#[ignore = "needs root (CAP_SYS_ADMIN) to mount a tmpfs: run with cargo test -- --ignored"]
fn issue_23_9_clean_on_a_mount_point_empties_it_and_removes_the_records() {
    let t = small();
    let _mount = Mount::tmpfs(&t.out());
    assert!(run(t.root(), &["build"]).status.success());
    assert!(run(t.root(), &["build"]).status.success());
    let out = run(t.root(), &["clean"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(is_mount_point(&t.out()), "still mounted");
    assert_eq!(Tree::of(&t.out()).paths(), Vec::<&str>::new());
    assert!(!t.root().join(".kansoku").exists(), ".kansoku/ is removed");
}
