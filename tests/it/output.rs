//! Tests of `site::output`: the streaming, atomic writer of the output tree,
//! and its reuse of unchanged files from the previous tree.

use kansoku::render::OutputFile;
use kansoku::site::output::{collision, remove, write_atomic, Staging};
use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

/// A directory tree as relative path -> bytes.
fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for e in fs::read_dir(dir).expect("readable dir") {
            let path = e.expect("dir entry").path();
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                let rel = path.strip_prefix(root).expect("under root");
                let rel = rel.to_string_lossy().replace('\\', "/");
                out.insert(rel, fs::read(&path).expect("readable file"));
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

fn as_tree(files: &[OutputFile]) -> BTreeMap<String, Vec<u8>> {
    files
        .iter()
        .map(|f| (f.path.clone(), f.bytes.clone()))
        .collect()
}

fn file(path: &str, bytes: impl Into<Vec<u8>>) -> OutputFile {
    OutputFile {
        path: path.to_owned(),
        bytes: bytes.into(),
    }
}

/// A site-shaped set of files: nested directories, sizes from 0 to ~20 kB.
fn site(n: usize, version: &str) -> Vec<OutputFile> {
    let mut files = vec![file("index.html", format!("<h1>{version}</h1>"))];
    for i in 0..n {
        for lang in ["ja", "en", "ja-en"] {
            let body = format!("<p>{lang} page {i}</p>").repeat(i * 37 % 800);
            files.push(file(&format!("{lang}/s{}/p{i}/index.html", i % 7), body));
        }
    }
    files.push(file("static/empty.css", ""));
    files
}

/// Entries beside `out` other than `out` itself and kansoku's state.
fn litter(out: &Path) -> Vec<String> {
    let parent = out.parent().expect("out has a parent");
    fs::read_dir(parent)
        .expect("readable parent")
        .map(|e| {
            e.expect("dir entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|n| n != "public" && n != ".kansoku")
        .collect()
}

#[test]
fn streamed_writes_from_many_threads_match_write_atomic() {
    let tmp = crate::scratch::tempdir();
    let files = site(120, "v1");
    let a = tmp.path().join("a/public");
    write_atomic(&files, &a).expect("write_atomic");

    let b = tmp.path().join("b/public");
    let staging = Staging::begin(&b).expect("begin");
    std::thread::scope(|s| {
        for t in 0..8 {
            let (staging, files) = (&staging, &files);
            s.spawn(move || {
                for f in files.iter().skip(t).step_by(8) {
                    staging.write(&f.path, &f.bytes).expect("write");
                }
            });
        }
    });
    assert_eq!(staging.commit().expect("commit").files, files.len());
    assert_eq!(tree(&a), as_tree(&files));
    assert_eq!(tree(&b), tree(&a));
    assert!(litter(&b).is_empty(), "{:?}", litter(&b));
}

#[test]
fn aborted_staging_leaves_previous_out_untouched() {
    let tmp = crate::scratch::tempdir();
    let out = tmp.path().join("public");
    let v1 = site(30, "v1");
    write_atomic(&v1, &out).expect("first build");
    let before = tree(&out);

    // Dropped after a few writes, some equal to the tree's (linked).
    let staging = Staging::begin(&out).expect("begin");
    for f in site(30, "v2").iter().take(40) {
        staging.write(&f.path, &f.bytes).expect("write");
    }
    drop(staging);
    assert_eq!(tree(&out), before);
    assert!(litter(&out).is_empty(), "{:?}", litter(&out));

    // Stopped by an error midway: the same.
    let mut v2 = site(30, "v2");
    v2.insert(50, file("ja/s0/p0/index.html", "twice"));
    assert!(write_atomic(&v2, &out).is_err());
    assert_eq!(tree(&out), before);
    assert!(litter(&out).is_empty(), "{:?}", litter(&out));

    // And a build after those still gives exactly its own files.
    write_atomic(&v1, &out).expect("rebuild");
    assert_eq!(tree(&out), as_tree(&v1));
}

#[test]
fn rebuild_gives_exactly_the_new_content() {
    let tmp = crate::scratch::tempdir();
    let out = tmp.path().join("public");
    let v1 = site(40, "v1");
    write_atomic(&v1, &out).expect("first build");

    // Hand edits between builds, each keeping the size: one in place, one
    // with its mtime put back afterwards, one replacing the file.
    let edited = [
        "en/s1/p1/index.html",
        "ja/s2/p2/index.html",
        "ja-en/s3/p3/index.html",
    ];
    for (i, p) in edited.iter().enumerate() {
        let path = out.join(p);
        let meta = fs::metadata(&path).expect("built file");
        let mut bytes = fs::read(&path).expect("built file");
        bytes[0] = b'X';
        match i {
            0 => fs::write(&path, &bytes).expect("edit"),
            1 => {
                let f = fs::OpenOptions::new()
                    .write(true)
                    .open(&path)
                    .expect("open");
                std::io::Write::write_all(&mut &f, &bytes).expect("edit");
                f.set_modified(meta.modified().expect("mtime"))
                    .expect("restore mtime");
            }
            _ => {
                fs::remove_file(&path).expect("remove");
                fs::write(&path, &bytes).expect("replace");
            }
        }
    }
    fs::write(out.join("stray.html"), "not built").expect("stray file");

    let mut v2 = site(40, "v2");
    v2.retain(|f| f.path != "en/s4/p4/index.html");
    v2.push(file("en/new/index.html", "new"));
    if let Some(f) = v2.iter_mut().find(|f| f.path == "ja/s5/p5/index.html") {
        f.bytes[3] ^= 1;
    }
    let staging = Staging::begin(&out).expect("begin");
    for f in &v2 {
        staging.write(&f.path, &f.bytes).expect("write");
    }
    let linked = staging.linked();
    let committed = staging.commit().expect("commit");
    // The stray file is not kansoku's: left in place, and reported.
    assert_eq!(committed.foreign, ["stray.html"]);
    assert!(committed.in_place);
    let mut expected = as_tree(&v2);
    expected.insert("stray.html".into(), b"not built".to_vec());
    assert_eq!(tree(&out), expected);
    fs::remove_file(out.join("stray.html")).expect("remove stray");
    // Everything but the front page, the edited, changed and new files.
    assert_eq!(linked, v2.len() - 1 - edited.len() - 2);

    // A third build links what the second wrote or linked.
    let staging = Staging::begin(&out).expect("begin");
    for f in &v2 {
        staging.write(&f.path, &f.bytes).expect("write");
    }
    assert_eq!(staging.linked(), v2.len());
    staging.commit().expect("commit");
    assert_eq!(tree(&out), as_tree(&v2));
    assert!(litter(&out).is_empty(), "{:?}", litter(&out));
}

#[cfg(unix)]
#[test]
fn unchanged_files_share_the_previous_inode() {
    use std::os::unix::fs::MetadataExt;
    let tmp = crate::scratch::tempdir();
    let out = tmp.path().join("public");
    let v1 = site(5, "v1");
    write_atomic(&v1, &out).expect("first build");
    let ino = |p: &str| fs::metadata(out.join(p)).expect("built").ino();
    let (same, changed) = (ino("ja/s1/p1/index.html"), ino("index.html"));
    write_atomic(&site(5, "v2"), &out).expect("second build");
    assert_eq!(ino("ja/s1/p1/index.html"), same);
    assert_ne!(ino("index.html"), changed);
    assert_eq!(
        fs::metadata(out.join("index.html")).expect("built").nlink(),
        1
    );
}

/// A manifest damaged in one copy is whole in the other; damaged in both,
/// each file is still taken back if a line that survived names its bytes,
/// and the rest costs a full write.
#[test]
fn a_damaged_manifest_only_costs_a_full_write() {
    let tmp = crate::scratch::tempdir();
    let out = tmp.path().join("public");
    let v1 = site(10, "v1");
    write_atomic(&v1, &out).expect("first build");
    let manifest = tmp.path().join(".kansoku/public.manifest");
    let copy = tmp.path().join(".kansoku/public.manifest.copy");
    let rewrite = |files: &[&std::path::Path], keep: fn(&str) -> &str| {
        for f in files {
            let text = fs::read_to_string(f).expect("manifest saved");
            fs::write(f, keep(&text)).expect("damage");
        }
        // Without a spare: what is taken back is the records' doing.
        let _ = fs::remove_file(tmp.path().join(".kansoku/public.spare-manifest"));
        let staging = Staging::begin(&out).expect("begin");
        for f in &v1 {
            staging.write(&f.path, &f.bytes).expect("write");
        }
        let linked = staging.linked();
        staging.commit().expect("commit");
        assert_eq!(tree(&out), as_tree(&v1));
        linked
    };
    // One copy cut in half: the other is whole.
    assert_eq!(rewrite(&[&manifest], |t| &t[..t.len() / 2]), v1.len());
    // Both: the lines before the cut.
    let half = rewrite(&[&manifest, &copy], |t| &t[..t.len() / 2]);
    assert!(half > 0 && half < v1.len(), "{half}");
    // Both emptied: nothing to go by.
    assert_eq!(rewrite(&[&manifest, &copy], |_| ""), 0);
}

#[test]
fn a_path_written_twice_is_a_collision() {
    let tmp = crate::scratch::tempdir();
    let out = tmp.path().join("public");
    let staging = Staging::begin(&out).expect("begin");
    staging.write("ja/a/index.html", b"one").expect("first");
    let err = staging
        .write("ja/a/index.html", b"two")
        .expect_err("second write of one path");
    assert_eq!(collision(&err), Some("ja/a/index.html"));
    assert!(err.to_string().contains("written twice"), "{err}");
    // A file where another output needs a directory, and the reverse.
    staging.write("en/x", b"file").expect("file");
    let err = staging
        .write("en/x/index.html", b"")
        .expect_err("under a file");
    assert_eq!(collision(&err), Some("en/x/index.html"));
    let err = staging.write("ja/a", b"").expect_err("over a directory");
    assert_eq!(collision(&err), Some("ja/a"));
    drop(staging);
    assert!(!out.exists());
    assert!(litter(&out).is_empty(), "{:?}", litter(&out));

    // The same through write_atomic, also when the first copy was linked.
    let files = vec![file("a.html", "a"), file("b.html", "b")];
    write_atomic(&files, &out).expect("first build");
    let twice = vec![file("a.html", "a"), file("a.html", "a")];
    let err = write_atomic(&twice, &out).expect_err("collision");
    assert_eq!(collision(&err), Some("a.html"));
    assert_eq!(tree(&out), as_tree(&files));
}

#[test]
fn paths_cannot_leave_the_staging_dir() {
    let tmp = crate::scratch::tempdir();
    let out = tmp.path().join("site/public");
    let staging = Staging::begin(&out).expect("begin");
    for bad in [
        "",
        "/etc/passwd",
        "../escape.html",
        "ja/../../escape.html",
        "ja/..",
        "./index.html",
        "ja//index.html",
        "ja/",
        "ja\\..\\escape.html",
        "nul\0.html",
    ] {
        let err = staging.write(bad, b"x").expect_err(bad);
        assert!(collision(&err).is_none(), "{bad:?}: {err}");
    }
    drop(staging);
    assert!(!tmp.path().join("escape.html").exists());
    assert!(!tmp.path().join("site/escape.html").exists());
    let staging = Staging::begin(&out).expect("begin");
    staging
        .write("..ok/index.html", b"x")
        .expect("dots in a name");
    staging.commit().expect("commit");
    assert_eq!(tree(&out).len(), 1);
    assert_eq!(
        tree(tmp.path()).into_keys().collect::<Vec<_>>(),
        [
            "site/.kansoku/public.lock",
            "site/.kansoku/public.manifest",
            "site/.kansoku/public.manifest.copy",
            "site/public/..ok/index.html"
        ],
        "only the file, the manifest, its copy and the lock"
    );
}

#[test]
fn out_that_is_a_file_is_refused() {
    let tmp = crate::scratch::tempdir();
    let out = tmp.path().join("public");
    fs::write(&out, "a file").expect("file");
    assert!(Staging::begin(&out).is_err());
    assert_eq!(fs::read(&out).expect("still there"), b"a file");
}

// The staging tree is shared between the render threads: held at compile
// time, not by a test that cannot fail once it compiles.
const _: () = {
    const fn send_sync<T: Send + Sync>() {}
    send_sync::<Staging>();
};

#[test]
fn no_commit_after_a_failed_write() {
    let tmp = crate::scratch::tempdir();
    let out = tmp.path().join("public");
    let v1 = site(3, "v1");
    write_atomic(&v1, &out).expect("first build");
    let staging = Staging::begin(&out).expect("begin");
    staging.write("a.html", b"a").expect("write");
    assert!(staging.write("../b.html", b"b").is_err());
    assert!(staging.commit().is_err());
    assert_eq!(tree(&out), as_tree(&v1));
    assert!(litter(&out).is_empty(), "{:?}", litter(&out));
}

#[test]
fn remove_takes_the_manifest_too() {
    let tmp = crate::scratch::tempdir();
    let out = tmp.path().join("public");
    write_atomic(&site(3, "v1"), &out).expect("build");
    assert!(tmp.path().join(".kansoku/public.manifest").exists());
    remove(&out).expect("remove");
    assert_eq!(fs::read_dir(tmp.path()).expect("temp dir").count(), 0);
    remove(&out).expect("removing nothing is fine");
}

#[test]
fn a_manifest_where_kansoku_0_1_kept_it_still_counts_then_goes() {
    let tmp = crate::scratch::tempdir();
    let out = tmp.path().join("public");
    write_atomic(&site(4, "v1"), &out).expect("first build");
    // As kansoku 0.1 left it: beside public/, format 1.
    let state = tmp.path().join(".kansoku/public.manifest");
    let legacy = tmp.path().join(".public.kansoku.manifest");
    let text = fs::read_to_string(&state).expect("manifest");
    // Format 1 named the directory by device and inode only.
    let (head, body) = text.split_once('\n').expect("a header");
    let words: Vec<&str> = head.split(' ').collect();
    assert_eq!(words[..2], ["kansoku-manifest", "3"], "{head}");
    fs::write(
        &legacy,
        format!("kansoku-manifest 1 {} {}\n{body}", words[2], words[3]),
    )
    .expect("legacy");
    fs::remove_file(&state).expect("remove");
    let v2 = site(2, "v2");
    let committed = write_atomic(&v2, &out).expect("second build");
    assert!(committed.foreign.is_empty(), "{:?}", committed.foreign);
    assert_eq!(tree(&out), as_tree(&v2));
    assert!(!legacy.exists() && state.exists());
}

#[test]
fn leftovers_of_killed_builds_go_and_a_tree_lost_mid_swap_comes_back() {
    let tmp = crate::scratch::tempdir();
    let out = tmp.path().join("public");
    let v1 = site(3, "v1");
    write_atomic(&v1, &out).expect("first build");
    // Killed between the two renames of kansoku 0.1: no public/, the
    // previous tree aside; and a staging tree of another dead build.
    fs::rename(&out, tmp.path().join(".public.kansoku-old-999999")).expect("aside");
    fs::create_dir_all(tmp.path().join(".public.kansoku-staging-999998/ja")).expect("mkdir");
    let staging = Staging::begin(&out).expect("begin");
    assert_eq!(tree(&out), as_tree(&v1), "the previous tree is back");
    assert!(litter(&out)
        .iter()
        .all(|n| n.ends_with(&std::process::id().to_string())));
    drop(staging);
    assert!(litter(&out).is_empty(), "{:?}", litter(&out));
}

#[cfg(unix)]
#[test]
fn in_place_never_writes_through_a_link_or_over_a_kept_file() {
    let tmp = crate::scratch::tempdir();
    let out = tmp.path().join("public");
    let v1 = site(3, "v1");
    write_atomic(&v1, &out).expect("first build");
    let elsewhere = tmp.path().join("x/elsewhere");
    fs::create_dir_all(&elsewhere).expect("mkdir");
    // A person replaced a directory of the build by a link.
    fs::remove_dir_all(out.join("ja/s1")).expect("remove");
    std::os::unix::fs::symlink(&elsewhere, out.join("ja/s1")).expect("symlink");
    let before = tree(tmp.path());
    let err = write_atomic(&site(3, "v2"), &out).expect_err("refused");
    assert_eq!(
        err.to_string(),
        format!(
            "cannot update {0} in place: {0}/ja/s1 is a symbolic link, and kansoku never writes through one; remove it; kansoku changed nothing",
            out.display()
        )
    );
    assert_eq!(tree(tmp.path()), before);
    fs::remove_file(out.join("ja/s1")).expect("remove link");

    // A kept name the build also writes.
    fs::write(out.join(".nojekyll"), "mine").expect("write");
    let mut v2 = site(3, "v2");
    v2.push(file(".nojekyll", "generated"));
    let err = write_atomic(&v2, &out).expect_err("refused");
    assert!(
        err.to_string()
            .contains("public/.nojekyll is kept by [build] keep but this build also writes it"),
        "{err}"
    );
    assert_eq!(fs::read(out.join(".nojekyll")).expect("kept"), b"mine");
    assert_eq!(litter(&out), ["x"], "nothing but the link's target beside");
}

/// Builds `files` into `out` through a staging tree, as a build does.
fn build(files: &[OutputFile], out: &Path) -> kansoku::site::output::Committed {
    let staging = Staging::begin(out).expect("begin");
    for f in files {
        staging.write(&f.path, &f.bytes).expect("write");
    }
    staging.commit().expect("commit")
}

/// Issue 13: after a swap the previous tree is kept as the spare, and the
/// next build updates it: a file it already holds is not written again,
/// one that changed is, one that went is removed with the directories it
/// leaves empty.
#[test]
fn the_spare_is_updated_into_the_next_tree() {
    let tmp = crate::scratch::tempdir();
    let out = tmp.path().join("public");
    let spare = tmp.path().join(".kansoku/public.spare");
    let v1 = site(20, "v1");
    write_atomic(&v1, &out).expect("first build");
    assert!(!spare.exists(), "a first build swaps nothing out");
    write_atomic(&v1, &out).expect("second build");
    assert_eq!(tree(&spare), as_tree(&v1), "the previous tree is kept");

    let staging = Staging::begin(&out).expect("begin");
    assert!(!spare.exists(), "taken as the staging tree");
    assert!(!tmp.path().join(".kansoku/public.spare-manifest").exists());
    for f in &v1 {
        staging.write(&f.path, &f.bytes).expect("write");
    }
    assert_eq!(staging.linked(), v1.len(), "nothing written");
    staging.commit().expect("commit");
    assert_eq!(tree(&out), as_tree(&v1));

    // Pages go, one changes, one is new: exactly the new tree, and no
    // directory of a removed page is left.
    let mut v2: Vec<OutputFile> = site(20, "v2")
        .into_iter()
        .filter(|f| !f.path.contains("/s3/"))
        .collect();
    v2.push(file("en/new/deep/index.html", "new"));
    for round in 0..3 {
        let staging = Staging::begin(&out).expect("begin");
        for f in &v2 {
            staging.write(&f.path, &f.bytes).expect("write");
        }
        let reused = staging.linked();
        staging.commit().expect("commit");
        assert_eq!(tree(&out), as_tree(&v2), "round {round}");
        if round == 2 {
            assert_eq!(reused, v2.len(), "round {round}: all kept");
        }
        for lang in ["ja", "en", "ja-en"] {
            assert!(!out.join(lang).join("s3").exists(), "round {round}");
        }
    }
    assert!(litter(&out).is_empty(), "{:?}", litter(&out));
}

/// A path that was a file becomes a directory and back, across builds
/// that update the spare.
#[test]
fn the_spare_gives_way_where_a_file_becomes_a_directory() {
    let tmp = crate::scratch::tempdir();
    let out = tmp.path().join("public");
    let a = vec![file("x", "a file"), file("y/index.html", "y")];
    let b = vec![
        file("x/index.html", "now a directory"),
        file("y", "now a file"),
    ];
    for (i, v) in [&a, &a, &b, &b, &a, &b, &a].into_iter().enumerate() {
        build(v, &out);
        assert_eq!(tree(&out), as_tree(v), "build {i}");
    }
    // A collision of this build is still one, with a spare in place.
    build(&a, &out);
    let staging = Staging::begin(&out).expect("begin");
    staging.write("x", b"one").expect("first");
    let err = staging
        .write("x/index.html", b"two")
        .expect_err("collision");
    assert_eq!(collision(&err), Some("x/index.html"));
    drop(staging);
    assert_eq!(tree(&out), as_tree(&a));
}

/// A file edited in place in `public/` is also the spare's file (they
/// share the inode): the next build must write it again, from its bytes.
#[test]
fn a_file_edited_in_public_is_written_again_never_taken_from_the_spare() {
    let tmp = crate::scratch::tempdir();
    let out = tmp.path().join("public");
    let v1 = site(6, "v1");
    for _ in 0..2 {
        write_atomic(&v1, &out).expect("build");
    }
    let edited = "ja/s2/p2/index.html";
    let mut f = fs::OpenOptions::new()
        .append(true)
        .open(out.join(edited))
        .expect("open");
    std::io::Write::write_all(&mut f, b"edited by hand").expect("append");
    drop(f);
    for round in 0..3 {
        let staging = Staging::begin(&out).expect("begin");
        for f in &v1 {
            staging.write(&f.path, &f.bytes).expect("write");
        }
        if round == 0 {
            assert_eq!(staging.linked(), v1.len() - 1, "all but the edited file");
        }
        staging.commit().expect("commit");
        assert_eq!(tree(&out), as_tree(&v1), "round {round}");
    }
}

/// A file in the spare that its record does not name (written into
/// `public/` just before a swap, or planted) is never removed and never
/// published (issue 23, finding 7): the spare is moved aside unused, named
/// in the report, and the build starts from an empty staging tree.
#[test]
fn a_file_the_spare_record_does_not_name_is_left_alone() {
    let tmp = crate::scratch::tempdir();
    let out = tmp.path().join("public");
    let v1 = site(3, "v1");
    for _ in 0..2 {
        write_atomic(&v1, &out).expect("build");
    }
    let spare = tmp.path().join(".kansoku/public.spare");
    fs::write(spare.join("ja/late.txt"), "mine").expect("write");
    let v2 = site(3, "v2");
    let committed = build(&v2, &out);
    assert_eq!(
        tree(&out),
        as_tree(&v2),
        "nothing of the spare is published"
    );
    let [(aside, found)] = &committed.set_aside[..] else {
        panic!("one spare set aside: {committed:?}");
    };
    assert_eq!(found, &["ja/late.txt"]);
    assert_eq!(fs::read(aside.join("ja/late.txt")).expect("kept"), b"mine");
    let committed = build(&v2, &out);
    assert!(committed.foreign.is_empty() && committed.set_aside.is_empty());
    assert_eq!(tree(&out), as_tree(&v2));
    assert_eq!(
        fs::read(aside.join("ja/late.txt")).expect("still kept"),
        b"mine"
    );
}

/// A build stopped after taking the spare (killed, or failed) leaves the
/// build directory as it was; the next build starts afresh and is right.
#[test]
fn a_build_stopped_while_updating_the_spare_loses_nothing() {
    let tmp = crate::scratch::tempdir();
    let out = tmp.path().join("public");
    let v1 = site(8, "v1");
    for _ in 0..2 {
        write_atomic(&v1, &out).expect("build");
    }
    let v2 = site(8, "v2");
    let staging = Staging::begin(&out).expect("begin");
    for f in v2.iter().take(10) {
        staging.write(&f.path, &f.bytes).expect("write");
    }
    staging.abandon();
    assert_eq!(tree(&out), as_tree(&v1), "public/ untouched");
    build(&v2, &out);
    assert_eq!(tree(&out), as_tree(&v2));
    build(&v1, &out);
    assert_eq!(tree(&out), as_tree(&v1));
    assert!(litter(&out).is_empty(), "{:?}", litter(&out));
}

#[test]
fn remove_takes_the_spare_too() {
    let tmp = crate::scratch::tempdir();
    let out = tmp.path().join("public");
    for _ in 0..2 {
        write_atomic(&site(3, "v1"), &out).expect("build");
    }
    assert!(tmp.path().join(".kansoku/public.spare").is_dir());
    remove(&out).expect("remove");
    assert_eq!(fs::read_dir(tmp.path()).expect("temp dir").count(), 0);
}

/// A survey reads only directories whose identity moved since one found
/// them clean: a file a person adds anywhere, even with the directory's
/// modification time put back, is still found and left in place, at
/// every depth and in either of the two trees that take turns.
#[test]
fn a_file_added_to_an_unchanged_directory_is_still_found() {
    let tmp = crate::scratch::tempdir();
    let out = tmp.path().join("public");
    let v1 = site(12, "v1");
    for _ in 0..4 {
        build(&v1, &out);
    }
    assert!(tmp.path().join(".kansoku/public.dirs").is_file());
    for (i, rel) in [
        "ja/s3/p3/mine.txt",
        "en/s1/mine.txt",
        "ja-en/s5/p5/x/y/mine.txt",
    ]
    .into_iter()
    .enumerate()
    {
        let path = out.join(rel);
        let dir = path.parent().expect("parent");
        let existed = dir.exists();
        let before = fs::metadata(dir).and_then(|m| m.modified());
        fs::create_dir_all(dir).expect("mkdir");
        fs::write(&path, "mine").expect("write");
        if i == 0 {
            // The directory's modification time put back: its change time
            // still moved.
            let mtime = before.expect("the directory was built");
            fs::File::open(dir)
                .and_then(|f| f.set_modified(mtime))
                .expect("set mtime");
        }
        let committed = build(&v1, &out);
        assert_eq!(committed.foreign, [rel], "{rel}");
        assert!(committed.in_place);
        assert_eq!(fs::read(&path).expect("kept"), b"mine");
        fs::remove_file(&path).expect("remove");
        if !existed {
            fs::remove_dir_all(out.join("ja-en/s5/p5/x")).expect("remove");
        }
        // Swapping again, and each tree surveyed with its record.
        for round in 0..3 {
            let committed = build(&v1, &out);
            assert!(committed.foreign.is_empty(), "{rel} {round}");
            assert!(!committed.in_place, "{rel} {round}");
            assert_eq!(tree(&out), as_tree(&v1));
        }
    }
}
