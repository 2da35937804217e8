//! Issue 39, finding 6, a block of the build-directory property test: a
//! site copied (`cp -a`: new inodes, the same bytes and times), moved, or
//! restored from a tar archive or a CI cache (new inodes, the archive's
//! times or the time of the restore) goes on being built where it now is.
//! Every build succeeds, with no E044 and no W040, and leaves what a
//! `--no-cache` build into a fresh directory writes.

use super::{copy_tree, no_search, relative, snapshot};
use proptest::prelude::*;
use std::fs;
use std::path::Path;

#[derive(Debug, Clone)]
enum CopyOp {
    Build,
    /// Adds or removes page `n % 3` (every page's navigation changes).
    Page(u8),
    /// Edits the body of the fixture's page (one page changes).
    Body(u8),
    /// `cp -a site site-N`, and the sequence goes on in the copy.
    Copy,
    /// `mv site site-N`.
    Move,
    /// `tar` of the whole site extracted elsewhere; `true`: with `-m`.
    Tar(bool),
    /// A fresh copy of the sources, with `.kansoku/` and `public/`
    /// restored into it from a tar archive, as a CI cache does.
    Cache(bool),
}

fn copy_op() -> impl Strategy<Value = CopyOp> {
    prop_oneof![
        4 => Just(CopyOp::Build),
        2 => any::<u8>().prop_map(CopyOp::Page),
        2 => any::<u8>().prop_map(CopyOp::Body),
        2 => Just(CopyOp::Copy),
        1 => Just(CopyOp::Move),
        1 => any::<bool>().prop_map(CopyOp::Tar),
        1 => any::<bool>().prop_map(CopyOp::Cache),
    ]
}

#[cfg(unix)]
fn sh(cmd: &mut std::process::Command) {
    let status = cmd.status().expect("runs");
    assert!(status.success(), "{cmd:?}");
}

/// Extracts `tar -cf - -C from what…` into `to` (made first).
#[cfg(unix)]
fn tar_into(from: &Path, what: &[&str], to: &Path, touch: bool) {
    let archive = to.with_extension("tar");
    sh(std::process::Command::new("tar")
        .arg("-cf")
        .arg(&archive)
        .arg("-C")
        .arg(from)
        .args(what));
    fs::create_dir_all(to).expect("mkdir");
    let mut x = std::process::Command::new("tar");
    x.arg("-xf").arg(&archive).arg("-C").arg(to);
    if touch {
        x.arg("-m");
    }
    sh(&mut x);
    fs::remove_file(&archive).expect("rm archive");
}

#[cfg(unix)]
fn run_copies(ops: &[CopyOp]) -> Result<(), TestCaseError> {
    let tmp = crate::scratch::tempdir();
    let base = fs::canonicalize(tmp.path()).expect("canonical");
    let mut root = base.join("site");
    copy_tree(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/basic"),
        &root,
    );
    for (step, op) in ops.iter().enumerate() {
        let elsewhere = base.join(format!("site-{step}"));
        match op {
            CopyOp::Build => {
                let report = kansoku::site::build_with(&root, no_search());
                let report = match report {
                    Ok(r) => r,
                    Err(e) => return Err(TestCaseError::fail(format!("step {step}: {e}"))),
                };
                let codes: Vec<&str> = report.warnings.iter().map(|d| d.code).collect();
                prop_assert!(!codes.contains(&"W040"), "step {}: {:?}", step, codes);
                let fresh = base.join(format!("fresh-{step}"));
                let cold = kansoku::site::BuildOptions {
                    out: Some(fresh.clone()),
                    cache: false,
                    ..no_search()
                };
                kansoku::site::build_with(&root, cold).expect("cold build");
                let out = root.join("public");
                prop_assert_eq!(
                    relative(&out, snapshot(&out)),
                    relative(&fresh, snapshot(&fresh)),
                    "step {}",
                    step
                );
                fs::remove_dir_all(&fresh).expect("rm fresh");
                let _ = fs::remove_dir_all(root.join(".kansoku/out"));
            }
            CopyOp::Page(n) => {
                let page = root.join(format!("content/notes/extra{}.md", n % 3));
                if page.exists() {
                    fs::remove_file(&page).expect("rm");
                } else {
                    fs::write(
                        &page,
                        format!("+++\ntitle = \"Extra {n}\"\n+++\n\n::: ja\n追加 {n}\n:::\n\n::: en\nExtra {n}\n:::\n"),
                    )
                    .expect("write");
                }
            }
            CopyOp::Body(n) => {
                let page = root.join("content/notes/page.md");
                let mut text = fs::read_to_string(&page).expect("read");
                text.push_str(&format!("\nMore words, {n}.\n"));
                fs::write(&page, text).expect("write");
            }
            CopyOp::Copy => {
                sh(std::process::Command::new("cp")
                    .arg("-a")
                    .arg(&root)
                    .arg(&elsewhere));
                fs::remove_dir_all(&root).expect("rm the original");
                root = elsewhere;
            }
            CopyOp::Move => {
                fs::rename(&root, &elsewhere).expect("mv");
                root = elsewhere;
            }
            CopyOp::Tar(touch) => {
                tar_into(&root, &["."], &elsewhere, *touch);
                fs::remove_dir_all(&root).expect("rm the original");
                root = elsewhere;
            }
            CopyOp::Cache(touch) => {
                copy_tree(&root.join("content"), &elsewhere.join("content"));
                copy_tree(&root.join("evidence"), &elsewhere.join("evidence"));
                fs::copy(root.join("book.toml"), elsewhere.join("book.toml")).expect("copy");
                let cached: Vec<&str> = [".kansoku", "public"]
                    .into_iter()
                    .filter(|d| root.join(d).exists())
                    .collect();
                if !cached.is_empty() {
                    tar_into(&root, &cached, &elsewhere, *touch);
                }
                fs::remove_dir_all(&root).expect("rm the original");
                root = elsewhere;
            }
        }
        prop_assert!(
            crate::common::leftovers_in(&root).is_empty(),
            "step {}: {:?}",
            step,
            crate::common::leftovers_in(&root)
        );
    }
    Ok(())
}

#[cfg(unix)]
proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn a_copied_moved_or_restored_site_builds_as_no_cache_does(
        ops in proptest::collection::vec(copy_op(), 1..12)
    ) {
        run_copies(&ops)?;
    }
}
