//! A copied, moved or restored site builds (issue 39, finding 6; the
//! 2026-11-28 audit's L15 and the trial's L24): the build directory's
//! record is trusted by what it holds, not by where it sits. A file of
//! `public/` whose bytes are those a record says kansoku wrote there is
//! kansoku's, wherever the site now lives; a file a person changed is
//! still never overwritten, and a record, forged or not, never makes
//! kansoku remove a file outside the places a build writes.
//!
//! Each test runs the binary on the small `basic` fixture with search
//! off, so a build takes milliseconds.

use crate::common::{SiteTest, Tree};
use std::fs;
use std::path::Path;
use std::process::{Command, Output};

fn kansoku() -> Command {
    Command::new(env!("CARGO_BIN_EXE_kansoku"))
}

/// `kansoku build --no-search --root ROOT` and `ARGS`.
fn build(root: &Path, args: &[&str]) -> Output {
    kansoku()
        .args(["build", "--no-search", "--root"])
        .arg(root)
        .args(args)
        .output()
        .expect("the kansoku binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn built(out: &Output) {
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    for code in ["E044", "W040"] {
        assert!(!stderr.contains(code), "{code}: {stderr}");
    }
}

/// What a `--no-cache` build of `root` writes into a fresh directory.
fn cold(root: &Path) -> Tree {
    let tmp = crate::scratch::tempdir();
    let out = tmp.path().join("cold");
    let made = build(root, &["--no-cache", "--out", &out.display().to_string()]);
    assert!(made.status.success(), "{}", text(&made.stderr));
    Tree::of(&out)
}

/// `cp -a FROM TO`: new inodes, the same bytes, modes and times.
fn cp_a(from: &Path, to: &Path) {
    let status = Command::new("cp")
        .arg("-a")
        .arg(from)
        .arg(to)
        .status()
        .expect("cp runs");
    assert!(status.success());
}

/// A page that adds an entry to every page's navigation.
const NEW_PAGE: &str = "+++\ntitle = { ja = \"新しい頁\", en = \"New page\" }\n+++\n\n::: ja\n新しい。\n:::\n\n::: en\nNew.\n:::\n";

/// The basic fixture, built twice (so that a spare is kept too).
fn twice_built() -> SiteTest {
    let t = SiteTest::from_fixture("basic");
    for _ in 0..2 {
        built(&build(t.root(), &[]));
    }
    assert!(t.root().join(".kansoku/public.spare").is_dir());
    t
}

#[cfg(unix)]
#[test]
fn issue_39_6_a_copied_site_builds_after_an_edit_as_no_cache_does() {
    let t = twice_built();
    let copy = t.root().with_file_name("copy");
    cp_a(t.root(), &copy);
    let original = Tree::of(&t.out());
    // Any edit: one that changes every page's navigation.
    fs::write(copy.join("content/notes/new.md"), NEW_PAGE).expect("write");
    let raw = copy.join("public/evidence/logs/run.log");
    let ino = |p: &Path| std::os::unix::fs::MetadataExt::ino(&fs::metadata(p).expect("stat"));
    let before = ino(&raw);
    built(&build(&copy, &[]));
    // What did not change is taken as it is, not written again.
    assert_eq!(ino(&raw), before);
    cold(&copy).assert_same(
        &Tree::of(&copy.join("public")),
        "the copy against --no-cache",
    );
    // The copy builds on, and the original is untouched.
    fs::remove_file(copy.join("content/notes/new.md")).expect("rm");
    built(&build(&copy, &[]));
    cold(&copy).assert_same(&Tree::of(&copy.join("public")), "after a delete");
    original.assert_same(&Tree::of(&t.out()), "the original public/");
    built(&build(t.root(), &[]));
}

#[cfg(unix)]
#[test]
fn issue_39_6_a_page_deleted_in_a_copy_leaves_no_stale_output() {
    let mut t = twice_built();
    t.write("content/notes/extra.md", NEW_PAGE);
    built(&build(t.root(), &[]));
    assert!(t.out().join("en/notes/extra/index.html").is_file());
    let copy = t.root().with_file_name("copy");
    cp_a(t.root(), &copy);
    fs::remove_file(copy.join("content/notes/extra.md")).expect("rm");
    built(&build(&copy, &[]));
    assert!(!copy.join("public/en/notes/extra").exists());
    cold(&copy).assert_same(
        &Tree::of(&copy.join("public")),
        "the copy against --no-cache",
    );
}

#[cfg(unix)]
#[test]
fn issue_39_6_a_file_a_person_changed_in_a_copy_is_still_never_overwritten() {
    let t = twice_built();
    let copy = t.root().with_file_name("copy");
    cp_a(t.root(), &copy);
    a_persons_page_stops_the_build_until_moved_out(&copy);
}

/// A person changes `en/index.html` in `root`'s `public/` (not the build
/// directory kansoku wrote: a copy or a restore of it) and a page is
/// added: the build stops with E044 at that file and changes nothing;
/// once the file is moved out, as the hint says, the build goes on and
/// writes what `--no-cache` does.
#[cfg(unix)]
fn a_persons_page_stops_the_build_until_moved_out(root: &Path) {
    let out = root.join("public");
    fs::write(out.join("en/index.html"), "my own english page\n").expect("write");
    fs::write(root.join("content/notes/new.md"), NEW_PAGE).expect("write");
    let before = Tree::of(&out);
    let made = build(root, &[]);
    assert_eq!(made.status.code(), Some(1), "{}", text(&made.stderr));
    assert_eq!(
        text(&made.stderr),
        "public/en/index.html:1:1: error[E044]: changed since kansoku wrote it (the record of what it wrote there names other bytes), and this build writes this path; nothing was changed\n  = hint: move the file out of public/ to keep it, or delete it to have the build write it again\nerror: 1 error found; nothing was written\n"
    );
    before.assert_same(&Tree::of(&out), "public/ after the refused build");
    fs::remove_file(out.join("en/index.html")).expect("rm");
    built(&build(root, &[]));
    cold(root).assert_same(&Tree::of(&out), "against --no-cache");
}

/// The audit's L15: a damaged record, then a change to every page.
#[cfg(unix)]
#[test]
fn issue_39_l15_a_damaged_record_is_rebuilt_from_the_files_that_match_it() {
    for damage in ["flip", "truncate", "empty", "delete"] {
        let mut t = twice_built();
        let record = t.root().join(".kansoku/public.manifest");
        let bytes = fs::read(&record).expect("read");
        match damage {
            "flip" => {
                let mut b = bytes.clone();
                let mid = b.len() / 2;
                b[mid] ^= 0x01;
                b[10] ^= 0x20;
                fs::write(&record, b).expect("write");
            }
            "truncate" => fs::write(&record, &bytes[..bytes.len() / 3]).expect("write"),
            "empty" => fs::write(&record, "").expect("write"),
            _ => fs::remove_file(&record).expect("rm"),
        }
        t.write("content/notes/new.md", NEW_PAGE);
        built(&build(t.root(), &[]));
        cold(t.root()).assert_same(&t.tree(), damage);
    }
}

/// When nothing is left to rebuild the record from and many files differ,
/// one error says so, not one per file.
#[cfg(unix)]
#[test]
fn issue_39_l15_many_unrecorded_files_that_differ_are_one_error() {
    let mut t = twice_built();
    fs::remove_dir_all(t.root().join(".kansoku")).expect("rm");
    t.write("content/notes/new.md", NEW_PAGE);
    let before = t.tree();
    let made = build(t.root(), &[]);
    assert_eq!(made.status.code(), Some(1), "{}", text(&made.stderr));
    assert_eq!(
        text(&made.stderr),
        "public/: error[E044]: 13 files at paths this build writes are not known to be kansoku's (no record names the bytes they hold) and differ from what it writes there: en/llms-full.txt, en/llms.txt, en/notes/index.html, en/notes/index.md, en/notes/page/index.html and 8 more; nothing was changed\n  = hint: if public/ holds only kansoku's output (its records in .kansoku/ lost or damaged), remove public/ and build again; otherwise move your own files out of it first\nerror: 1 error found; nothing was written\n"
    );
    before.assert_same(&t.tree(), "public/ after the refused build");
}

/// A record line for `path` with the size and hash a real record gives
/// `like` (so the test need not compute kansoku's hash): with a person's
/// file holding `like`'s bytes at `path`, the line names that file with
/// its real hash.
fn forged_line(record: &str, like: &str, path: &str) -> String {
    let line = record
        .lines()
        .find(|l| l.ends_with(&format!(" {like}")))
        .unwrap_or_else(|| panic!("{like} is recorded"));
    let fields: Vec<&str> = line.split(' ').collect();
    format!("{} {} - - - - - - - {path}", fields[0], fields[1])
}

/// A record from elsewhere (a pull request, a restored cache) naming a
/// person's files with their real hashes makes kansoku remove none of
/// them outside the directories a build writes into, and none outside
/// `public/` at all.
#[cfg(unix)]
#[test]
fn issue_39_6_a_forged_record_never_removes_a_persons_file_outside_the_build() {
    let t = twice_built();
    let root = t.root();
    let out = t.out();
    let like = fs::read(out.join("en/index.html")).expect("read");
    let victim = root.with_file_name("victim.txt");
    let mine = [
        "CNAME",
        ".git/HEAD",
        ".well-known/security.txt",
        "downloads/report.html",
    ];
    for p in mine {
        fs::create_dir_all(out.join(p).parent().expect("parent")).expect("mkdir");
        fs::write(out.join(p), &like).expect("write");
    }
    fs::write(&victim, &like).expect("write");
    let record = fs::read_to_string(root.join(".kansoku/public.manifest")).expect("read");
    // Another directory's record (device 1, inode 2), as from a copy.
    let mut forged = String::from("kansoku-manifest 2 1 2\n");
    let body: Vec<&str> = record
        .lines()
        .skip(1)
        .filter(|l| !l.starts_with("end "))
        .collect();
    for l in &body {
        forged.push_str(l);
        forged.push('\n');
    }
    for p in mine {
        forged.push_str(&forged_line(&record, "en/index.html", p));
        forged.push('\n');
    }
    forged.push_str(&format!("end {}\n", body.len() + mine.len()));
    for name in ["public.manifest", "public.manifest.copy"] {
        fs::write(root.join(".kansoku").join(name), &forged).expect("forge");
    }
    fs::write(root.join("content/notes/new.md"), NEW_PAGE).expect("write");
    let made = build(root, &[]);
    assert!(made.status.success(), "{}", text(&made.stderr));
    for p in mine {
        assert_eq!(fs::read(out.join(p)).expect("kept"), like, "{p}");
    }
    // Each is named, as any file kansoku did not write.
    let stderr = text(&made.stderr);
    assert_eq!(stderr.matches("warning[W040]").count(), 2, "{stderr}");
    assert!(
        stderr.contains("public/CNAME:1:1: warning[W040]"),
        "{stderr}"
    );
    assert!(
        stderr.contains("public/downloads/report.html:1:1: warning[W040]"),
        "{stderr}"
    );

    // Lines naming a path out of public/ void the whole record, as a
    // record of this directory's does.
    let outside = format!(
        "kansoku-manifest 2 1 2\n{}\n{}\nend 2\n",
        forged_line(&record, "en/index.html", "../victim.txt"),
        forged_line(&record, "en/index.html", "en/notes/index.html"),
    );
    for name in ["public.manifest", "public.manifest.copy"] {
        fs::write(root.join(".kansoku").join(name), &outside).expect("forge");
    }
    fs::remove_file(root.join("content/notes/new.md")).expect("rm");
    let _ = build(root, &[]);
    let cleaned = kansoku()
        .args(["clean", "--root"])
        .arg(root)
        .output()
        .expect("runs");
    assert!(cleaned.status.success(), "{}", text(&cleaned.stderr));
    assert_eq!(fs::read(&victim).expect("kept"), like);
    for p in mine {
        assert_eq!(fs::read(out.join(p)).expect("kept by clean"), like, "{p}");
    }
}

/// `tar` the entries `what` of `from` into `to`, as a CI cache saves and
/// restores them (`actions/cache` uses tar); with `touch`, every
/// restored file gets the time of the restore (`tar -m`).
fn tar_restore(from: &Path, what: &[&str], to: &Path, touch: bool) {
    let archive = to.with_file_name("cache.tar");
    let status = Command::new("tar")
        .arg("-cf")
        .arg(&archive)
        .arg("-C")
        .arg(from)
        .args(what)
        .status()
        .expect("tar runs");
    assert!(status.success());
    let mut x = Command::new("tar");
    x.arg("-xf").arg(&archive).arg("-C").arg(to);
    if touch {
        x.arg("-m");
    }
    assert!(x.status().expect("tar runs").success());
    fs::remove_file(&archive).expect("rm");
}

/// The README's CI example: a fresh checkout of the same sources, the
/// cache of `.kansoku/` and `public/` restored into it, an edit, a build.
#[cfg(unix)]
#[test]
fn issue_39_6_a_ci_cache_restored_into_a_fresh_checkout_builds_after_an_edit() {
    let cached = twice_built();
    for touch in [false, true] {
        let mut checkout = SiteTest::from_fixture("basic");
        tar_restore(
            cached.root(),
            &[".kansoku", "public"],
            checkout.root(),
            touch,
        );
        checkout.edit(
            "content/notes/page.md",
            "Observation Page",
            "Observation Page, edited in CI",
        );
        checkout.write("content/notes/new.md", NEW_PAGE);
        let made = build(checkout.root(), &[]);
        built(&made);
        cold(checkout.root()).assert_same(&checkout.tree(), "the restored build");
        // The records are this directory's now: the next edit is cached too.
        fs::remove_file(checkout.root().join("content/notes/new.md")).expect("rm");
        built(&build(checkout.root(), &[]));
        cold(checkout.root()).assert_same(&checkout.tree(), "the next build");
    }
}

/// The device and inode number of `dir`.
#[cfg(unix)]
fn dev_ino(dir: &Path) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt;
    let m = fs::metadata(dir).expect("stat");
    (m.dev(), m.ino())
}

/// Makes `dir` anew, as a restore does, with the inode number the removed
/// original had when the file system hands it out again (ext4 often does
/// at once: it takes the lowest free number). Returns whether it did; the
/// numbers it gave instead are kept in `aside`, so that each try gets
/// another.
#[cfg(unix)]
fn made_again_at(dir: &Path, original: (u64, u64), aside: &Path) -> bool {
    fs::create_dir_all(aside).expect("mkdir");
    for i in 0..256 {
        fs::create_dir(dir).expect("mkdir");
        if dev_ino(dir) == original {
            return true;
        }
        fs::rename(dir, aside.join(i.to_string())).expect("set aside");
    }
    fs::create_dir(dir).expect("mkdir");
    false
}

/// The failure the copies property test found on ext4: a `public/`
/// restored after the original was removed took the original's inode
/// number, the record (which named the directory by device and inode)
/// took it for the directory it was made in, and a build replaced the
/// page a person had changed there. A restore cannot bring back the
/// directory's birth, so it is never taken for the original: the
/// person's page stops the build with E044, as in any other copy. Where
/// the file system does not hand the number out again (tmpfs counts up),
/// the records are made to name it, which is what a reuse looks like to
/// them.
#[cfg(unix)]
#[test]
fn issue_39_6_a_public_restored_into_the_originals_inode_is_not_taken_for_it() {
    let t = twice_built();
    let (root, out) = (t.root(), t.out());
    let original = dev_ino(&out);
    let backup = root.with_file_name("backup");
    cp_a(&out, &backup);
    fs::remove_dir_all(&out).expect("rm public/");
    let reused = made_again_at(&out, original, &root.with_file_name("aside"));
    if !reused {
        let now = dev_ino(&out);
        for name in ["public.manifest", "public.manifest.copy"] {
            let path = root.join(".kansoku").join(name);
            let record = fs::read_to_string(&path).expect("read");
            let (head, body) = record.split_once('\n').expect("a header");
            let mut fields: Vec<String> = head.split(' ').map(str::to_owned).collect();
            assert_eq!(
                (fields[2].as_str(), fields[3].as_str()),
                (
                    original.0.to_string().as_str(),
                    original.1.to_string().as_str()
                ),
                "{head}"
            );
            (fields[2], fields[3]) = (now.0.to_string(), now.1.to_string());
            fs::write(&path, format!("{}\n{body}", fields.join(" "))).expect("forge");
        }
    }
    eprintln!("public/ restored into its original inode number: {reused}");
    for entry in fs::read_dir(&backup).expect("read backup") {
        let entry = entry.expect("entry");
        fs::rename(entry.path(), out.join(entry.file_name())).expect("restore");
    }
    a_persons_page_stops_the_build_until_moved_out(root);
}
