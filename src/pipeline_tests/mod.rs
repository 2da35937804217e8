//! Property test of the memoised pipeline (issue 13): over random edit
//! sequences on a small site ([`model`]), after every step the tree
//! `serve` keeps and its findings, and the output of a `kansoku build`
//! that reuses the previous build's memo, equal a cold, full build's,
//! byte for byte (the build's: without drafts). Since issue 41 the site
//! holds what the memo's hand-written keys cover: entities and the cells
//! their claims fill, a matrix, a hub and an open-questions page, answers
//! from a declared vocabulary, the review lock, drafts, a captured log,
//! headings without ids and diagrams; [`heading_ids`] holds `check`'s
//! heading ids to render's.
//!
//! In the crate rather than under tests/: it drives serve's tree
//! directly, without a process or a server per step. Search is off here
//! (its bundle is covered by serve's own tests); the cold build shares
//! one theme load per theme variant, which is a pure function of the
//! same files.

mod heading_ids;
mod model;
mod serve_tree;

use crate::error::Error;
use crate::serve::tree::Tree;
use model::{Model, Op};
use proptest::prelude::*;
use std::collections::BTreeMap;
use std::path::Path;

/// How many cases a property test runs: `PROPTEST_CASES` when set (as
/// proptest's own default reads it), else `default`.
pub(crate) fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(default)
}

/// Writes the model's files into `root`, removing files it no longer has.
fn write(root: &Path, before: &BTreeMap<String, String>, now: &BTreeMap<String, String>) {
    for path in before.keys().filter(|p| !now.contains_key(*p)) {
        std::fs::remove_file(root.join(path)).expect("remove");
    }
    for (path, text) in now {
        if before.get(path) != Some(text) {
            let abs = root.join(path);
            std::fs::create_dir_all(abs.parent().expect("a parent")).expect("mkdir");
            std::fs::write(abs, text).expect("write");
        }
    }
}

/// A cold build of `root` as `plan` says: its findings, and its files if
/// it builds.
type Cold = (
    Result<Vec<crate::Diagnostic>, Error>,
    Option<BTreeMap<String, Vec<u8>>>,
);

/// The parsed themes these tests' cold runs and builds share, for the
/// whole test process: one per variant of the theme's files (the `Theme`
/// edit switches between two). libtest runs each test on a thread of its
/// own, so a theme kept per thread was parsed again by every test, and
/// again at every switch: 50 parses in a run of the property tests.
/// serve's tree keeps its own, as serve does.
static THEMES: std::sync::Mutex<Vec<crate::site::memo::ThemeCache>> =
    std::sync::Mutex::new(Vec::new());

/// Runs `f` with the kept theme of the site at `root` as its files are
/// (none yet: an empty cache, which `f` fills), and keeps what `f` parsed.
fn with_theme<T>(root: &Path, f: impl FnOnce(&mut crate::site::memo::ThemeCache) -> T) -> T {
    let lock = || {
        THEMES
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    };
    let now = crate::site::memo::theme_fingerprint(root).ok();
    let mut theme = lock()
        .iter()
        .find(|t| now.is_some() && t.fingerprint() == now)
        .cloned()
        .unwrap_or_default();
    let out = f(&mut theme);
    if let Some(made) = theme.fingerprint() {
        let mut themes = lock();
        if !themes.iter().any(|t| t.fingerprint() == Some(made)) {
            themes.push(theme);
        }
    }
    out
}

/// A cold run of the pipeline into memory (`site::run::in_memory`), with
/// the kept theme.
fn in_memory(
    root: &Path,
    plan: &crate::site::plan::Plan<'_>,
) -> crate::error::Result<(Vec<crate::render::OutputFile>, Vec<crate::Diagnostic>)> {
    with_theme(root, |theme| {
        crate::site::run::in_memory_with(root, plan, theme)
    })
}

fn cold(root: &Path, plan: &crate::site::plan::Plan<'_>) -> Cold {
    match in_memory(root, plan) {
        Ok((files, warnings)) => (
            Ok(warnings),
            Some(files.into_iter().map(|f| (f.path, f.bytes)).collect()),
        ),
        Err(e) => (Err(e), None),
    }
}

/// A successful cold run of the site whose files are the key.
type Made = (
    BTreeMap<String, String>,
    Vec<crate::Diagnostic>,
    BTreeMap<String, Vec<u8>>,
);

/// [`cold`] with [`oracle`] for the site every case starts from (one per
/// `locked`), made once per test process and shared: a cold run is a
/// pure function of the site's files and the theme, and the key is the
/// very files written, so a start that differs is run again. Step 0
/// builds everything three times, almost half of a case's time, and
/// the oracle was the same run in each of the 200 cases.
fn start_oracle(root: &Path, files: &BTreeMap<String, String>) -> Cold {
    static MADE: std::sync::Mutex<Vec<Made>> = std::sync::Mutex::new(Vec::new());
    let made = |m: &Made| (Ok(m.1.clone()), Some(m.2.clone()));
    let lock = || {
        MADE.lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    };
    if let Some(m) = lock().iter().find(|m| &m.0 == files) {
        return made(m);
    }
    let (want, want_files) = cold(root, &oracle());
    if let (Ok(warnings), Some(out)) = (&want, &want_files) {
        lock().push((files.clone(), warnings.clone(), out.clone()));
    }
    (want, want_files)
}

/// The cold runs one case has made, by the files they were made from and
/// whether drafts were left out (`build`): a case's edits often come back
/// to a state it was in (an edit undone, a switch turned back, a review
/// refused): two of every five steps after the first, counted over a
/// run of these tests. A cold run is a pure function of the files (see
/// [`start_oracle`]), so such a step takes the one made before. Kept per
/// case, so it holds only a case's few states.
#[derive(Default)]
struct Oracles(Vec<(bool, Made)>);

impl Oracles {
    fn cold(&mut self, root: &Path, files: &BTreeMap<String, String>, build: bool) -> Cold {
        if let Some((_, m)) = self.0.iter().find(|(b, m)| *b == build && &m.0 == files) {
            return (Ok(m.1.clone()), Some(m.2.clone()));
        }
        let plan = if build { build_oracle() } else { oracle() };
        let made = cold(root, &plan);
        self.remember(files, build, &made);
        made
    }

    fn remember(&mut self, files: &BTreeMap<String, String>, build: bool, made: &Cold) {
        if let (Ok(warnings), Some(out)) = made {
            self.0
                .push((build, (files.clone(), warnings.clone(), out.clone())));
        }
    }
}

/// A cold run as serve's: drafts in, served at `/`; with search when
/// `search`.
pub(crate) fn oracle_with(search: bool) -> crate::site::plan::Plan<'static> {
    use crate::site::plan::{Overrides, Plan};
    Plan {
        drafts: true,
        search,
        overrides: Overrides {
            base_path: Some("/".to_owned()),
            preview: true,
            ..Overrides::default()
        },
        ..Plan::build()
    }
}

fn oracle() -> crate::site::plan::Plan<'static> {
    oracle_with(false)
}

/// A cold run as the test's `kansoku build`: no drafts, no search.
fn build_oracle() -> crate::site::plan::Plan<'static> {
    use crate::site::plan::{Overrides, Plan};
    Plan {
        search: false,
        overrides: Overrides {
            no_search: true,
            ..Overrides::default()
        },
        ..Plan::build()
    }
}

/// Everything in the served directory.
fn served(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|e| e.expect("walk"))
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let rel = crate::content::rel_path(dir, e.path());
            (rel, std::fs::read(e.path()).expect("read"))
        })
        .collect()
}

/// What `kansoku review` writes for `op` on the site at `root` as it is:
/// the lock's new text, or `None` when the review is refused (a site with
/// errors, a page without claims) and the lock stays as it was.
fn review(root: &Path, op: &Op, model: &Model) -> Option<String> {
    let Op::Review(k, whole) = *op else {
        return None;
    };
    let page = model.pages.get(&k)?;
    let selection = if whole {
        crate::review::Selection {
            pages: vec![format!("content/p{k}.md")],
            ..Default::default()
        }
    } else {
        crate::review::Selection {
            claims: page.claims.iter().map(|c| format!("c{}", c.id)).collect(),
            ..Default::default()
        }
    };
    let (site, _) = crate::site::load_unreviewed(root, crate::validate::Mode::Build).ok()?;
    crate::review::review(root, &site, &selection).ok()?;
    Some(std::fs::read_to_string(root.join(crate::review::LOCK_FILE)).expect("the lock written"))
}

/// The files that differ between `a` and `b`.
fn differ<'a>(
    a: &'a BTreeMap<String, Vec<u8>>,
    b: &'a BTreeMap<String, Vec<u8>>,
) -> Vec<&'a String> {
    a.keys()
        .chain(b.keys().filter(|k| !a.contains_key(*k)))
        .filter(|k| a.get(*k) != b.get(*k))
        .collect()
}

/// Runs `ops` on [`Model::start`], reviewed whole first when `locked`
/// (so that the edits meet a lock at once).
fn run_from(locked: bool, ops: &[Op]) -> Result<(), TestCaseError> {
    let dir = crate::scratch::tempdir();
    let root = dir.path().join("site");
    let mut model = Model::start();
    let mut files = model.files();
    write(&root, &BTreeMap::new(), &files);
    if locked {
        let (site, _) = crate::site::load_unreviewed(&root, crate::validate::Mode::Build)
            .expect("the start loads");
        let all = crate::review::Selection {
            all: true,
            ..Default::default()
        };
        crate::review::review(&root, &site, &all).expect("review --all");
        model.lock =
            Some(std::fs::read_to_string(root.join(crate::review::LOCK_FILE)).expect("the lock"));
        files = model.files();
    }
    let mut tree = Tree::new(root.clone(), dir.path().join("served"), None);
    tree.swap_theme(&mut with_theme(&root, |theme| theme.clone()));
    let mut last_good: Option<BTreeMap<String, Vec<u8>>> = None;
    let mut oracles = Oracles::default();
    for (step, op) in std::iter::once(None)
        .chain(ops.iter().map(Some))
        .enumerate()
    {
        // What serve's watcher would report: the files written or removed;
        // a change to the theme or book.toml is a full one.
        let mut full = step == 0;
        if let Some(op) = op {
            model.apply(op);
            if let Some(lock) = review(&root, op, &model) {
                model.lock = Some(lock);
            }
            let now = model.files();
            write(&root, &files, &now);
            let touched: Vec<std::path::PathBuf> = files
                .keys()
                .chain(now.keys())
                .filter(|p| files.get(*p) != now.get(*p))
                .map(|p| root.join(p))
                .collect();
            full |= touched.iter().any(|p| {
                let rel = p.strip_prefix(&root).expect("under the root");
                rel.starts_with("templates") || rel == Path::new("book.toml")
            });
            tree.changed((!full).then_some(&touched));
            files = now;
        }
        let got = tree.build(full);
        let (want, want_files) = if step == 0 {
            let made = start_oracle(&root, &files);
            oracles.remember(&files, false, &made);
            made
        } else {
            oracles.cold(&root, &files, false)
        };
        match (&got, &want) {
            (Ok((_, a)), Ok(b)) => prop_assert_eq!(a, b, "warnings at step {}", step),
            (Err(Error::Content(a)), Err(Error::Content(b))) => {
                prop_assert_eq!(a, b, "errors at step {}", step)
            }
            _ => prop_assert!(
                false,
                "step {}: serve {:?}, cold {:?}",
                step,
                got.as_ref().map(|_| ()),
                want.as_ref().map(|_| ())
            ),
        }
        let shown = served(tree.out());
        let options = crate::site::BuildOptions {
            search: false,
            ..Default::default()
        };
        let built = with_theme(&root, |theme| {
            crate::site::build_with_theme(&root, options, theme)
        });
        // A build leaves drafts out; serve shows them.
        let without_drafts = model
            .has_drafts()
            .then(|| oracles.cold(&root, &files, true));
        let (want_built, want_built_files) = match &without_drafts {
            Some((w, f)) => (w, f),
            None => (&want, &want_files),
        };
        prop_assert_eq!(
            built.is_ok(),
            want_built_files.is_some(),
            "step {}: build {:?}",
            step,
            built.as_ref().err()
        );
        // The cached build's findings (its page facts and findings are
        // taken from the last build's where they hold) are a cold load's;
        // a build adds its own warnings after them (sitemap, foreign
        // files).
        match (&built, want_built) {
            (Ok(report), Ok(b)) => prop_assert_eq!(
                &report.warnings[..b.len().min(report.warnings.len())],
                &b[..],
                "build warnings at step {}",
                step
            ),
            (Err(Error::Content(a)), Err(Error::Content(b))) => {
                prop_assert_eq!(a, b, "build errors at step {}", step)
            }
            _ => {}
        }
        if let Some(w) = &want_built_files {
            let public = served(&root.join("public"));
            let differ = differ(w, &public);
            prop_assert!(
                differ.is_empty(),
                "step {}: build differs {:?}",
                step,
                differ
            );
        }
        match want_files {
            Some(w) => {
                let differ = differ(&w, &shown);
                prop_assert!(differ.is_empty(), "step {}: differ {:?}", step, differ);
                last_good = Some(w);
            }
            // A failed build leaves the last good tree as it was.
            None => prop_assert_eq!(Some(&shown), last_good.as_ref().or(Some(&shown))),
        }
    }
    Ok(())
}

fn run(ops: &[Op]) -> Result<(), TestCaseError> {
    run_from(false, ops)
}

// Random edit sequences as eight tests, each drawing its own cases
// (`PROPTEST_CASES` each; 25 by default, 200 in all): each case builds
// three times a step (serve's tree, a cold run, a cached build), so one
// test of all the cases was the unit suite's long pole, and with four
// the last one still ran alone for seconds at the end of the run. A
// failing sequence is saved under proptest-regressions/ and tried first
// on the next run.
proptest! {
    #![proptest_config(ProptestConfig {
        cases: cases(25),
        ..ProptestConfig::default()
    })]

    #[test]
    fn served_tree_equals_a_cold_build_1(locked in any::<bool>(), ops in proptest::collection::vec(model::op(), 1..8)) {
        run_from(locked, &ops)?;
    }

    #[test]
    fn served_tree_equals_a_cold_build_2(locked in any::<bool>(), ops in proptest::collection::vec(model::op(), 1..8)) {
        run_from(locked, &ops)?;
    }

    #[test]
    fn served_tree_equals_a_cold_build_3(locked in any::<bool>(), ops in proptest::collection::vec(model::op(), 1..8)) {
        run_from(locked, &ops)?;
    }

    #[test]
    fn served_tree_equals_a_cold_build_4(locked in any::<bool>(), ops in proptest::collection::vec(model::op(), 1..8)) {
        run_from(locked, &ops)?;
    }

    #[test]
    fn served_tree_equals_a_cold_build_5(locked in any::<bool>(), ops in proptest::collection::vec(model::op(), 1..8)) {
        run_from(locked, &ops)?;
    }

    #[test]
    fn served_tree_equals_a_cold_build_6(locked in any::<bool>(), ops in proptest::collection::vec(model::op(), 1..8)) {
        run_from(locked, &ops)?;
    }

    #[test]
    fn served_tree_equals_a_cold_build_7(locked in any::<bool>(), ops in proptest::collection::vec(model::op(), 1..8)) {
        run_from(locked, &ops)?;
    }

    #[test]
    fn served_tree_equals_a_cold_build_8(locked in any::<bool>(), ops in proptest::collection::vec(model::op(), 1..8)) {
        run_from(locked, &ops)?;
    }
}

/// Issue 28: the llms files hold every page's text, so a prose edit on a
/// page renders them again; switching twins off and on again leaves no
/// twin behind and brings every one back.
#[test]
fn the_llms_files_and_twins_follow_prose_and_switches() {
    let ops = [
        Op::Prose(1),
        Op::Link(2, 1),
        Op::Outputs,
        Op::Prose(2),
        Op::Outputs,
        Op::Outputs,
        Op::ClaimText(0),
        Op::Outputs,
    ];
    run(&ops).expect("equal to a cold build");
}

/// The edit the hand-tracked version got right only by recording: a claim
/// cited inline on another page changes its text.
#[test]
fn an_inline_citation_follows_the_claim() {
    let ops = [Op::AddPage(1), Op::Cite(1, 0), Op::ClaimText(0)];
    run(&ops).expect("equal to a cold build");
}

/// A page's own findings are remembered under the site facts they read
/// (issue 13): a link's anchor on another page goes away with a prose
/// edit there, which leaves the linking page's bytes alone.
#[test]
fn a_link_follows_the_heading_it_names() {
    let ops = [Op::Link(1, 0), Op::Prose(0), Op::Prose(0)];
    run(&ops).expect("equal to a cold build");
}

/// The same for a premise on another page whose class changes (W082).
#[test]
fn an_inference_follows_its_premise_class() {
    let ops = [
        Op::ClaimClass(2, 1),
        Op::From(2, 1),
        Op::ClaimClass(1, 0),
        Op::ClaimClass(1, 3),
    ];
    run(&ops).expect("equal to a cold build");
}

/// Issue 41: the review lock changes alone, and the notices it gave go
/// away: a stale translation of a claim cited on another page, then a
/// suspect claim (its log edited), each reviewed again.
#[test]
fn a_review_takes_a_claims_notices_away_issue_41() {
    let ops = [
        Op::ClaimJa(0),
        Op::Review(0, false),
        Op::EditLog(0, false),
        Op::Review(0, false),
    ];
    run_from(true, &ops).expect("equal to a cold build");
}

/// Issue 41: the same for a page's stale translation, whose notice only
/// that page shows.
#[test]
fn a_review_takes_a_pairs_notice_away_issue_41() {
    let ops = [
        Op::ProseJa(1),
        Op::Review(1, true),
        Op::ProseJa(1),
        Op::Review(1, false),
        Op::Review(1, true),
    ];
    run_from(true, &ops).expect("equal to a cold build");
}

/// Issue 41: a draft is served and not built; a published page citing
/// its claim fails the build, not serve, and differently once the draft
/// no longer defines that claim; the drafts published again.
#[test]
fn a_draft_is_served_and_left_out_of_a_build_issue_41() {
    let ops = [
        Op::Draft(0),
        Op::Draft(1),
        Op::ClaimId(1, 3),
        Op::Draft(1),
        Op::Draft(0),
    ];
    run(&ops).expect("equal to a cold build");
}

/// Issue 41: claims start and stop filling cells, entities come and go,
/// the matrix and hub change their columns and the vocabulary its words
/// and scope: every view that shows a cell follows.
#[test]
fn the_views_follow_their_cells_issue_41() {
    let ops = [
        Op::Cell(2, 0, 1, 1),
        Op::Cell(0, 4, 0, 0),
        Op::Entity(2, 0),
        Op::Cell(2, 2, 0, 2),
        Op::Matrix(7),
        Op::Hub(3, true),
        Op::Vocab,
        Op::EntityEdit(1),
        Op::Entity(0, 2),
    ];
    run(&ops).expect("equal to a cold build");
}

/// Issue 41: a captured log cited by a claim has its header's note
/// edited, its lines changed (with a hash made anew), and stops being a
/// capture.
#[test]
fn a_captured_header_edit_reaches_the_pages_issue_41() {
    let ops = [
        Op::AddClaim(0, 1),
        Op::Capture(1, true),
        Op::EditLog(1, false),
        Op::Capture(1, false),
    ];
    run_from(true, &ops).expect("equal to a cold build");
}

/// Issue 41: headings without ids and diagrams come and go on a page
/// another page links to by a heading's slug.
#[test]
fn a_link_follows_a_slugged_heading_issue_41() {
    let ops = [
        Op::Heading(0, 2),
        Op::Dot(0, 2),
        Op::LinkSlug(1, 0, 0),
        Op::Heading(0, 3),
        Op::Heading(0, 3),
        Op::Dot(0, 0),
        Op::Heading(0, 1),
    ];
    run(&ops).expect("equal to a cold build");
}

/// A claim about an entity on no aspect fills no cell, but the
/// open-questions page names its row by `about`: moving it between
/// entities, or taking its `about` away, reaches that page.
#[test]
fn the_open_questions_rows_follow_about_without_an_aspect() {
    let ops = [
        Op::ClaimClass(1, 2),
        Op::Cell(1, 1, 3, 3),
        Op::Cell(1, 0, 3, 3),
        Op::Cell(1, 4, 0, 0),
    ];
    run(&ops).expect("equal to a cold build");
}
