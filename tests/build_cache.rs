//! `kansoku build`'s memo between runs (issue 13): a second build after
//! an edit renders only what changed and writes what a cold build writes;
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
    let dir = tempfile::tempdir().expect("temp dir");
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
    let cold = dir.path().join("cold");
    kansoku(
        &root,
        &[
            "build",
            "-q",
            "--no-cache",
            "--out",
            cold.to_str().expect("utf-8"),
        ],
    );
    assert_eq!(tree(&root.join("public")), tree(&cold));

    // A corrupt memo is no error: the build is cold.
    std::fs::write(&memo, "{ not json").expect("corrupt");
    kansoku(&root, &["build", "-q"]);
    assert_eq!(tree(&root.join("public")), tree(&cold));

    kansoku(&root, &["clean"]);
    assert!(!memo.exists(), "clean removes the memo");
}
