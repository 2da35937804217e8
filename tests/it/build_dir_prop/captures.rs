//! Issue 39 (capture and recapture), a block of the build-directory
//! property test: forged capture headers, forged
//! `[capture] facts` and hand-edited approvals, each of whose commands
//! would create a marker file outside the site, between recaptures of
//! every kind (dry run, compare, write), a maintainer's own captures,
//! checks and builds. The marker is never created: nothing a header,
//! book.toml or an edited lock names runs unless a person approved it.

use super::{copy_tree, no_search};
use proptest::prelude::*;
use std::fs;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone)]
enum CaptureOp {
    /// The maintainer captures a command of their own (approved by it).
    Capture(u8),
    /// A header's command is forged to create the marker.
    ForgeHeader(u8),
    /// A header's working directory is forged out of the site, with a
    /// command creating the marker.
    ForgeCwd(u8),
    /// book.toml's `[capture] facts` is forged to create the marker.
    ForgeFacts,
    /// The lock's approval of a capture is edited by hand (its text to
    /// the forged command, its hash kept), along with the header.
    ForgeLock(u8),
    DryRun,
    Recapture,
    Compare,
    /// `kansoku capture -- echo x`.
    Echo,
    Check,
    Build,
}

fn capture_op() -> impl Strategy<Value = CaptureOp> {
    prop_oneof![
        2 => any::<u8>().prop_map(CaptureOp::Capture),
        2 => any::<u8>().prop_map(CaptureOp::ForgeHeader),
        1 => any::<u8>().prop_map(CaptureOp::ForgeCwd),
        1 => Just(CaptureOp::ForgeFacts),
        1 => any::<u8>().prop_map(CaptureOp::ForgeLock),
        2 => Just(CaptureOp::DryRun),
        2 => Just(CaptureOp::Recapture),
        2 => Just(CaptureOp::Compare),
        1 => Just(CaptureOp::Echo),
        1 => Just(CaptureOp::Check),
        1 => Just(CaptureOp::Build),
    ]
}

/// The captures under `evidence/runs/` of the site at `root`.
fn captures_in(root: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = fs::read_dir(root.join("evidence/runs"))
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    found.retain(|p| p.extension().is_some_and(|e| e == "txt"));
    found.sort();
    found
}

/// Replaces the header line starting with `key = ` in the file at `path`.
fn forge_line(path: &Path, key: &str, line: &str) {
    let Ok(text) = fs::read_to_string(path) else {
        return;
    };
    let Some(old) = text.lines().find(|l| l.starts_with(&format!("{key} = "))) else {
        return;
    };
    fs::write(path, text.replacen(old, line, 1)).expect("forge");
}

fn run_captures(ops: &[CaptureOp]) -> Result<(), TestCaseError> {
    use kansoku::capture::{self, Limits, Mode, Options, Request};
    let tmp = crate::scratch::tempdir();
    let base = fs::canonicalize(tmp.path()).expect("canonical");
    let root = base.join("site");
    copy_tree(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/check/clean"),
        &root,
    );
    let marker = base.join("MARKER");
    let hostile = format!(
        "command = [\"sh\", \"-c\", \"touch {}; printf 'x\\\\ny\\\\n'\"]",
        marker.display()
    );
    let mut facts_forged = false;
    let recapture = |mode: Mode| {
        let _ = capture::recapture(
            &root,
            &Options {
                files: Vec::new(),
                mode,
                approvals_from: None,
                limits: Limits::default(),
                on_run: &|_| {},
            },
        );
    };
    let capture = |dest: String, command: &[&str]| {
        capture::capture(
            &root,
            &Request {
                command: command.iter().map(|s| (*s).to_owned()).collect(),
                dest: Some(dest),
                replace: true,
                cwd: Some(root.clone()),
                ..Request::default()
            },
        )
    };
    capture("runs/c0.txt".to_owned(), &["printf", "x\\ny\\n"]).expect("a first capture");
    for (step, op) in ops.iter().enumerate() {
        let pick = |n: &u8| {
            let all = captures_in(&root);
            (!all.is_empty()).then(|| all[usize::from(*n) % all.len()].clone())
        };
        match op {
            CaptureOp::Capture(n) => {
                let done = capture(format!("runs/c{}.txt", n % 4), &["printf", "x\\ny\\n"]);
                prop_assert_eq!(done.is_ok(), !facts_forged, "step {}: {:?}", step, done);
            }
            CaptureOp::ForgeHeader(n) => {
                if let Some(p) = pick(n) {
                    forge_line(&p, "command", &hostile);
                }
            }
            CaptureOp::ForgeCwd(n) => {
                if let Some(p) = pick(n) {
                    forge_line(&p, "command", &hostile);
                    let cwd = ["/", "content/../..", ".."][usize::from(*n) % 3];
                    forge_line(&p, "cwd", &format!("cwd = \"{cwd}\""));
                }
            }
            CaptureOp::ForgeFacts => {
                if !facts_forged {
                    let book = fs::read_to_string(root.join("book.toml")).expect("book");
                    fs::write(
                        root.join("book.toml"),
                        format!(
                            "{book}\n[capture]\nfacts = {{ k = \"touch {}\" }}\n",
                            marker.display()
                        ),
                    )
                    .expect("forge facts");
                    facts_forged = true;
                }
            }
            CaptureOp::ForgeLock(n) => {
                if let Some(p) = pick(n) {
                    forge_line(&p, "command", &hostile);
                    let lock = root.join("kansoku.lock");
                    let key = format!(
                        "evidence/runs/{}",
                        p.file_name().expect("a name").to_string_lossy()
                    );
                    let mut table: toml::Table = fs::read_to_string(&lock)
                        .expect("the lock")
                        .parse()
                        .expect("TOML");
                    let entry = table
                        .get_mut("captures")
                        .and_then(|c| c.as_table_mut())
                        .and_then(|c| c.get_mut(&key))
                        .and_then(|e| e.as_table_mut());
                    // The entry's text says the forged command; its hash
                    // is still that of the approved one.
                    if let Some(entry) = entry {
                        let words = [
                            "sh".to_owned(),
                            "-c".to_owned(),
                            format!("touch {}; printf 'x\\ny\\n'", marker.display()),
                        ];
                        entry.insert(
                            "command".to_owned(),
                            toml::Value::Array(
                                words.into_iter().map(toml::Value::String).collect(),
                            ),
                        );
                        fs::write(&lock, toml::to_string(&table).expect("TOML")).expect("forge");
                    }
                }
            }
            CaptureOp::DryRun => recapture(Mode::DryRun),
            CaptureOp::Recapture => recapture(Mode::Write),
            CaptureOp::Compare => recapture(Mode::Compare),
            CaptureOp::Echo => {
                let done = capture("runs/echo.txt".to_owned(), &["echo", "x"]);
                prop_assert_eq!(done.is_ok(), !facts_forged, "step {}: {:?}", step, done);
            }
            CaptureOp::Check => {
                let _ = crate::common::check(&root);
            }
            CaptureOp::Build => {
                let _ = crate::common::build_with(&root, no_search());
            }
        }
        prop_assert!(
            !marker.exists(),
            "step {} ({:?}): a forged command ran",
            step,
            op
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn no_forged_capture_command_ever_runs(
        ops in proptest::collection::vec(capture_op(), 1..12)
    ) {
        run_captures(&ops)?;
    }
}

/// The sequence a stranger's pull request would try first: a forged
/// header and forged facts, then every command CI and a maintainer run.
#[test]
fn a_forged_header_and_forged_facts_never_run() {
    run_captures(&[
        CaptureOp::ForgeHeader(0),
        CaptureOp::DryRun,
        CaptureOp::Compare,
        CaptureOp::Recapture,
        CaptureOp::Echo,
        CaptureOp::Check,
        CaptureOp::Build,
        CaptureOp::ForgeLock(0),
        CaptureOp::DryRun,
        CaptureOp::Compare,
        CaptureOp::Recapture,
        CaptureOp::ForgeFacts,
        CaptureOp::DryRun,
        CaptureOp::Compare,
        CaptureOp::Recapture,
        CaptureOp::Echo,
        CaptureOp::Check,
        CaptureOp::Build,
    ])
    .expect("holds");
}
