//! Issue 39, finding 6, a block of the build-directory property test: a
//! site copied (`cp -a`: new inodes, the same bytes and times), moved, or
//! restored from a tar archive or a CI cache (new inodes, the archive's
//! times or the time of the restore) goes on being built where it now is,
//! between builds killed with SIGKILL at random points.
//!
//! After every copy or restore the page is edited and the site built at
//! once. Every build succeeds, with no E044 and no W040, and leaves what a
//! `--no-cache` build into a fresh directory writes; except when a person
//! changed a built page of the copied or restored `public/` (its bytes are
//! no longer those the record names): then every build is E044 at that
//! file, which keeps the person's bytes through every later kill, copy and
//! restore, until a `Build` step takes the file away as the hint says and
//! builds again.

use super::{copy_tree, no_search, relative, snapshot};
use proptest::prelude::*;
use std::fs;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone)]
enum CopyOp {
    Build,
    /// Adds or removes page `n % 3` (every page's navigation changes).
    Page(u8),
    /// Edits the body of the fixture's page (one page changes).
    Body(u8),
    /// `cp -a site site-N`, and the sequence goes on in the copy; `Some`:
    /// then a person changes a built page in the copy's `public/`.
    Copy(Option<u8>),
    /// `mv site site-N`.
    Move,
    /// `tar` of the whole site extracted elsewhere; `true`: with `-m`;
    /// `Some`: a person's change after, as for `Copy`.
    Tar(bool, Option<u8>),
    /// A fresh copy of the sources, with `.kansoku/` and `public/`
    /// restored into it from a tar archive, as a CI cache does.
    Cache(bool, Option<u8>),
    /// `kansoku build` started and killed with SIGKILL after `n % 40 * 5`
    /// milliseconds (some finish first).
    Kill(u8),
}

fn person() -> impl Strategy<Value = Option<u8>> {
    proptest::option::weighted(0.3, any::<u8>())
}

fn copy_op() -> impl Strategy<Value = CopyOp> {
    prop_oneof![
        4 => Just(CopyOp::Build),
        2 => any::<u8>().prop_map(CopyOp::Page),
        2 => any::<u8>().prop_map(CopyOp::Body),
        2 => person().prop_map(CopyOp::Copy),
        1 => Just(CopyOp::Move),
        1 => (any::<bool>(), person()).prop_map(|(t, p)| CopyOp::Tar(t, p)),
        2 => (any::<bool>(), person()).prop_map(|(t, p)| CopyOp::Cache(t, p)),
        2 => any::<u8>().prop_map(CopyOp::Kill),
    ]
}

/// Pages every build of the fixture writes, whatever the edits: a
/// person's change to one of them is always in the build's way.
const ALWAYS_BUILT: [&str; 3] = ["index.html", "en/index.html", "ja/notes/page/index.html"];

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

/// The sequence's state: where the site is now, and the file of its
/// `public/` a person changed (relative path, the bytes they wrote).
#[cfg(unix)]
struct Copies {
    base: PathBuf,
    root: PathBuf,
    person: Option<(String, Vec<u8>)>,
    /// A build was killed since the last one ran: its staging tree may
    /// be there, for the next build to remove.
    killed: bool,
}

#[cfg(unix)]
impl Copies {
    /// A cached build, as the module doc says it must end; with a
    /// person's change in the way, E044, and then, if `resolve`, the
    /// person takes the file away and the site is built again.
    fn build(&mut self, step: usize, resolve: bool) -> Result<(), TestCaseError> {
        let report = crate::common::build_with(&self.root, no_search());
        self.killed = false;
        if let Some((rel, bytes)) = self.person.clone() {
            let codes: Vec<String> = match &report {
                Err(kansoku::Error::Content(found)) => found
                    .iter()
                    .map(|d| format!("{} {}", d.code, d.location))
                    .collect(),
                other => {
                    return Err(TestCaseError::fail(format!(
                        "step {step}: a build over a person's public/{rel}: {other:?}"
                    )))
                }
            };
            prop_assert_eq!(
                codes,
                vec![format!("E044 public/{rel}:1:1")],
                "step {}",
                step
            );
            let at = self.root.join("public").join(&rel);
            prop_assert!(
                fs::read(&at).ok() == Some(bytes),
                "step {}: the person's public/{} was changed",
                step,
                rel
            );
            if !resolve {
                return Ok(());
            }
            // As the hint says: moved out of public/, the file is no
            // longer in the way.
            fs::remove_file(&at).expect("the person takes their file");
            self.person = None;
            return self.build(step, false);
        }
        let report = match report {
            Ok(r) => r,
            Err(e) => return Err(TestCaseError::fail(format!("step {step}: {e}"))),
        };
        let codes: Vec<&str> = report.warnings.iter().map(|d| d.code).collect();
        prop_assert!(!codes.contains(&"W040"), "step {}: {:?}", step, codes);
        let fresh = self.base.join(format!("fresh-{step}"));
        let cold = kansoku::site::BuildOptions {
            out: Some(fresh.clone()),
            cache: false,
            ..no_search()
        };
        crate::common::build_with(&self.root, cold).expect("cold build");
        let out = self.root.join("public");
        prop_assert_eq!(
            relative(&out, snapshot(&out)),
            relative(&fresh, snapshot(&fresh)),
            "step {}",
            step
        );
        fs::remove_dir_all(&fresh).expect("rm fresh");
        let _ = fs::remove_dir_all(self.root.join(".kansoku/out"));
        Ok(())
    }

    fn edit_body(&self, n: u8) {
        let page = self.root.join("content/notes/page.md");
        let mut text = fs::read_to_string(&page).expect("read");
        text.push_str(&format!("\nMore words, {n}.\n"));
        fs::write(&page, text).expect("write");
    }

    /// The sequence goes on in `to`; the site's old place is removed.
    /// `Some(n)`: a person then changes a page built there before, unless
    /// a change of theirs is already in the way.
    fn moved_to(&mut self, to: PathBuf, person: Option<u8>) {
        if to != self.root && self.root.exists() {
            fs::remove_dir_all(&self.root).expect("rm the original");
        }
        self.root = to;
        let Some(n) = person else { return };
        let rel = ALWAYS_BUILT[usize::from(n) % ALWAYS_BUILT.len()];
        let at = self.root.join("public").join(rel);
        if self.person.is_none() && at.is_file() {
            let mut bytes = fs::read(&at).expect("read");
            bytes.extend_from_slice(format!("<!-- a person's note {n} -->\n").as_bytes());
            fs::write(&at, &bytes).expect("write");
            self.person = Some((rel.to_owned(), bytes));
        }
    }
}

#[cfg(unix)]
fn run_copies(ops: &[CopyOp]) -> Result<(), TestCaseError> {
    let tmp = crate::scratch::tempdir();
    let base = fs::canonicalize(tmp.path()).expect("canonical");
    let mut s = Copies {
        root: base.join("site"),
        base,
        person: None,
        killed: false,
    };
    copy_tree(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/basic"),
        &s.root,
    );
    for (step, op) in ops.iter().enumerate() {
        let elsewhere = s.base.join(format!("site-{step}"));
        match op {
            CopyOp::Build => s.build(step, true)?,
            CopyOp::Page(n) => {
                let page = s.root.join(format!("content/notes/extra{}.md", n % 3));
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
            CopyOp::Body(n) => s.edit_body(*n),
            CopyOp::Copy(person) => {
                sh(std::process::Command::new("cp")
                    .arg("-a")
                    .arg(&s.root)
                    .arg(&elsewhere));
                s.moved_to(elsewhere, *person);
            }
            CopyOp::Move => {
                fs::rename(&s.root, &elsewhere).expect("mv");
                s.moved_to(elsewhere, None);
            }
            CopyOp::Tar(touch, person) => {
                tar_into(&s.root, &["."], &elsewhere, *touch);
                s.moved_to(elsewhere, *person);
            }
            CopyOp::Cache(touch, person) => {
                // A fresh checkout: the sources written now.
                copy_tree(&s.root.join("content"), &elsewhere.join("content"));
                copy_tree(&s.root.join("evidence"), &elsewhere.join("evidence"));
                fs::copy(s.root.join("book.toml"), elsewhere.join("book.toml")).expect("copy");
                let cached: Vec<&str> = [".kansoku", "public"]
                    .into_iter()
                    .filter(|d| s.root.join(d).exists())
                    .collect();
                if !cached.is_empty() {
                    tar_into(&s.root, &cached, &elsewhere, *touch);
                }
                s.moved_to(elsewhere, *person);
            }
            CopyOp::Kill(n) => {
                let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_kansoku"))
                    .args(["build", "-q", "--no-search", "--root"])
                    .arg(&s.root)
                    .stdout(std::process::Stdio::null())
                    .stderr(std::process::Stdio::null())
                    .spawn()
                    .expect("the kansoku binary runs");
                std::thread::sleep(std::time::Duration::from_millis(u64::from(n % 40) * 5));
                // SIGKILL; an error only says it had ended already.
                let _ = child.kill();
                child.wait().expect("reap the build");
                s.killed = true;
            }
        }
        // After a copy or a restore: an edit, and a build at once.
        if matches!(
            op,
            CopyOp::Copy(_) | CopyOp::Move | CopyOp::Tar(..) | CopyOp::Cache(..)
        ) {
            s.edit_body(step as u8);
            s.build(step, false)?;
        }
        if let Some((rel, bytes)) = &s.person {
            prop_assert!(
                fs::read(s.root.join("public").join(rel)).ok().as_ref() == Some(bytes),
                "step {} ({:?}): the person's public/{} was changed",
                step,
                op,
                rel
            );
        }
        if !s.killed {
            prop_assert!(
                crate::common::leftovers_in(&s.root).is_empty(),
                "step {}: {:?}",
                step,
                crate::common::leftovers_in(&s.root)
            );
        }
    }
    Ok(())
}

/// 32 cases, or `PROPTEST_CASES` when set: what proptest's default
/// config reads is overridden by any `cases` given, and a failure that
/// depends on what the file system hands out (inode numbers) needs more
/// runs to show.
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(32)
}

#[cfg(unix)]
proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    #[test]
    fn a_copied_moved_or_restored_site_builds_as_no_cache_does(
        ops in proptest::collection::vec(copy_op(), 1..12)
    ) {
        run_copies(&ops)?;
    }
}

/// The sequences of the finding: a site built, copied with `cp -a` (and,
/// in the second, restored from a CI cache into a fresh checkout), a page
/// edited, built again; a person's change carried through both.
#[cfg(unix)]
#[test]
fn a_copy_and_a_cache_restore_build_after_an_edit_and_keep_a_persons_change() {
    run_copies(&[
        CopyOp::Build,
        CopyOp::Build,
        CopyOp::Copy(None),
        CopyOp::Page(1),
        CopyOp::Cache(false, None),
        CopyOp::Kill(6),
        CopyOp::Copy(Some(1)),
        CopyOp::Kill(3),
        CopyOp::Cache(true, None),
        CopyOp::Build,
    ])
    .expect("holds");
}
