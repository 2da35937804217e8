//! Build directories kansoku cannot replace (issue 11; issue 23,
//! finding 9): a mount point is built into in place and `clean` empties it,
//! a read-only or immutable one is refused with nothing lost, and an
//! immutable directory inside `public/` never wedges later builds.

use super::{assert_built, assert_intact, build, run, site, small, text, user_files};
use crate::common::{leftovers_in, Tree};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

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
