//! Issue 39 (drafts), a block of the build-directory property test:
//! drafts toggled between builds. Three pages, each with a token of its
//! own in its path, title, body and claim, each citing a log of its own
//! (with a token of its own in its name and text) and, at times, the next
//! page's log too. Pages become drafts and are published again between
//! builds. After every build without `--drafts`, no draft's token is
//! anywhere under `public/` (compressed search files decoded) or in the
//! archive, no log is there that only drafts cite, and the cached build is
//! what a `--no-cache` build into a fresh directory writes, archive
//! included.

use super::{copy_tree, relative, snapshot};
use proptest::prelude::*;
use std::fs;
use std::path::{Path, PathBuf};

/// The pages' tokens (in their path, title, body, claim ids and texts);
/// each page's log has the same name with `qzx` in front instead.
const DRAFT_PAGES: [&str; 3] = ["zqxalpha", "zqxbravo", "zqxcharlie"];

/// A page's log token.
fn log_token(page: &str) -> String {
    page.replacen("zqx", "qzx", 1)
}

#[derive(Debug, Clone)]
enum DraftOp {
    /// Page `n % 3` becomes a draft, or is published again.
    Toggle(u8),
    /// Page `n % 3` starts (or stops) citing the next page's log too.
    Cite(u8),
    /// Page `n % 3`'s body changes.
    Edit(u8),
    /// A cached build without `--drafts`, writing an archive too if asked.
    Build { archive: bool },
}

fn draft_op() -> impl Strategy<Value = DraftOp> {
    prop_oneof![
        3 => any::<u8>().prop_map(DraftOp::Toggle),
        1 => any::<u8>().prop_map(DraftOp::Cite),
        1 => any::<u8>().prop_map(DraftOp::Edit),
        3 => any::<bool>().prop_map(|archive| DraftOp::Build { archive }),
    ]
}

/// What the site says of each page: draft, cites the next page's log,
/// how often its body was edited.
#[derive(Debug, Clone, Copy, Default)]
struct DraftPage {
    draft: bool,
    cross: bool,
    edits: u8,
}

fn write_draft_page(root: &Path, n: usize, p: DraftPage) {
    let name = DRAFT_PAGES[n];
    let next = log_token(DRAFT_PAGES[(n + 1) % 3]);
    let cross = if p.cross {
        format!(", \"own/{next}.txt#L1\"")
    } else {
        String::new()
    };
    let text = format!(
        "+++\ntitle = {{ ja = \"{name} の題\", en = \"{name} title\" }}\ndraft = {}\n\n[[claims]]\nid = \"{name}-one\"\nclass = \"confirmed\"\nja = \"{name} は一行目を示す。\"\nen = \"{name} shows the first line.\"\nevidence = [\"own/{}.txt#L1\"{cross}, \"logs/run.log#L13\"]\n+++\n\n::: ja\n{name} の本文 {}。\n:::\n\n::: en\n{name} body {}.\n:::\n",
        p.draft,
        log_token(name),
        p.edits,
        p.edits
    );
    fs::write(root.join(format!("content/notes/{name}.md")), text).expect("write page");
}

fn run_drafts(ops: &[DraftOp]) -> Result<(), TestCaseError> {
    let tmp = crate::scratch::tempdir();
    let base = fs::canonicalize(tmp.path()).expect("canonical");
    let root = base.join("site");
    copy_tree(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/basic"),
        &root,
    );
    fs::create_dir_all(root.join("evidence/own")).expect("mkdir");
    let mut pages = [DraftPage::default(); 3];
    for (n, name) in DRAFT_PAGES.iter().enumerate() {
        let log = log_token(name);
        fs::write(
            root.join(format!("evidence/own/{log}.txt")),
            format!("+++\nkind = \"raw\"\nsource = \"{log} run\"\n+++\n{log} line one\n"),
        )
        .expect("write log");
        write_draft_page(&root, n, pages[n]);
    }
    let out = root.join("public");
    for (step, op) in ops.iter().enumerate() {
        match op {
            DraftOp::Toggle(n) => {
                let n = usize::from(*n) % 3;
                pages[n].draft = !pages[n].draft;
                write_draft_page(&root, n, pages[n]);
            }
            DraftOp::Cite(n) => {
                let n = usize::from(*n) % 3;
                pages[n].cross = !pages[n].cross;
                write_draft_page(&root, n, pages[n]);
            }
            DraftOp::Edit(n) => {
                let n = usize::from(*n) % 3;
                pages[n].edits = pages[n].edits.wrapping_add(1);
                write_draft_page(&root, n, pages[n]);
            }
            DraftOp::Build { archive } => {
                let archived = base.join("record.html");
                let cold_archive = base.join("cold.html");
                let options =
                    |out: Option<PathBuf>, cache: bool, to: &Path| kansoku::site::BuildOptions {
                        out,
                        cache,
                        archive: archive
                            .then(|| kansoku::site::archive::Archive::new(to.to_path_buf())),
                        ..kansoku::site::BuildOptions::default()
                    };
                let report = crate::common::build_with(&root, options(None, true, &archived))
                    .expect("the build succeeds");
                let drafts = pages.iter().filter(|p| p.draft).count();
                prop_assert_eq!(report.drafts, drafts, "step {}", step);
                // A log is published when a published page cites it.
                let published_log = |m: usize| {
                    (0..3).any(|n| {
                        !pages[n].draft && (n == m || (pages[n].cross && (n + 1) % 3 == m))
                    })
                };
                let mut hidden: Vec<String> = Vec::new();
                for (n, name) in DRAFT_PAGES.iter().enumerate() {
                    if pages[n].draft {
                        hidden.push((*name).to_owned());
                    }
                    if !published_log(n) {
                        hidden.push(log_token(name));
                    }
                }
                let left_out = (0..3).filter(|&m| !published_log(m)).count();
                prop_assert_eq!(report.drafts_evidence, left_out, "step {}", step);
                for token in &hidden {
                    let found = crate::drafts::traces(&out, token);
                    prop_assert!(found.is_empty(), "step {}: {} in {:?}", step, token, found);
                    if *archive {
                        let text = fs::read_to_string(&archived).expect("the archive");
                        prop_assert!(
                            !text.to_lowercase().contains(token.as_str()),
                            "step {}: {} in the archive",
                            step,
                            token
                        );
                    }
                }
                // What is published is there (the check above can fail).
                for (n, name) in DRAFT_PAGES.iter().enumerate() {
                    if !pages[n].draft {
                        prop_assert!(
                            out.join(format!("en/notes/{name}/index.html")).is_file(),
                            "step {}: {} is not published",
                            step,
                            name
                        );
                    }
                }
                let fresh = base.join(format!("fresh-{step}"));
                crate::common::build_with(
                    &root,
                    options(Some(fresh.clone()), false, &cold_archive),
                )
                .expect("the cold build succeeds");
                prop_assert_eq!(
                    relative(&out, snapshot(&out)),
                    relative(&fresh, snapshot(&fresh)),
                    "step {}: cached and --no-cache differ",
                    step
                );
                if *archive {
                    prop_assert!(
                        fs::read(&archived).ok() == fs::read(&cold_archive).ok(),
                        "step {}: the archives differ",
                        step
                    );
                }
                fs::remove_dir_all(&fresh).expect("rm fresh");
                let _ = fs::remove_dir_all(root.join(".kansoku/out"));
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    #[test]
    fn no_draft_leaks_and_cached_builds_equal_cold_ones_issue_39(
        ops in proptest::collection::vec(draft_op(), 1..10)
    ) {
        run_drafts(&ops)?;
    }
}

/// The sequence of the audit's draft: a published page turned into a
/// draft after a cached build, then published again.
#[test]
fn a_page_turned_into_a_draft_after_a_build_leaves_no_trace_issue_39() {
    run_drafts(&[
        DraftOp::Build { archive: true },
        DraftOp::Toggle(0),
        DraftOp::Build { archive: true },
        DraftOp::Cite(2),
        DraftOp::Build { archive: false },
        DraftOp::Toggle(0),
        DraftOp::Build { archive: true },
    ])
    .expect("holds");
}
