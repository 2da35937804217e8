//! Cached builds and the spare tree (issue 13; issue 23, findings 5 and 7):
//! only the files that changed are touched, a file edited in `public/` is
//! rewritten, a build killed while updating the spare loses nothing,
//! `clean` removes the spare, and a spare with a link or a planted file is
//! not used.

use super::{
    assert_intact, build, kansoku, run, signal, site, small, start_build_midway, text, user_files,
};
use crate::common::{SiteTest, Tree};
use std::fs;
use std::path::Path;

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
