//! What a build directory and its records may not make kansoku do (issue
//! 23, issue 24): build into the sources, overwrite a person's file at a
//! generated path, or delete what a forged, outside or lost record names;
//! `check` reports the build directory `build` refuses, and `clean` tells
//! the truth.

use super::{assert_built, kansoku, record_head, refused, run, small, sources, text};
use crate::common::Tree;
use std::fs;
use std::path::Path;

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
    let head = record_head(&root);
    fs::create_dir_all(root.join(".kansoku")).expect("mkdir");
    fs::write(
        root.join(".kansoku/public.manifest"),
        format!(
            "{head}\n1 0000000000000001 - - - - - - - book.toml\n1 0000000000000001 - - - - - - - content/_index.md\nend 2\n"
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
    let head = record_head(&victim);
    let record = root.join(".kansoku/out/0000000000000001");
    fs::create_dir_all(&record).expect("mkdir");
    fs::write(record.join("target"), victim.display().to_string()).expect("write");
    fs::write(
        record.join("victim.manifest"),
        format!("{head}\n9 0000000000000001 - - - - - - - precious.txt\nend 1\n"),
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
            let head = record_head(&dir);
            let record = root.join(".kansoku").join(file);
            let text_now =
                fs::read_to_string(&record).unwrap_or_else(|_| format!("{head}\nend 0\n"));
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
