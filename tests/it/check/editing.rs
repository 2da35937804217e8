//! `kansoku check` on the mistakes of an editing session: findings that do
//! not depend on the thread count, ten mistakes at once giving ten errors
//! (issue 25), heading ids as rendered, and citations that count however
//! their page parses (no false W001).

use super::{check_untouched, site};
use crate::common;
use crate::common::{fixture, SiteTest};
use kansoku::check::{self, Format};

/// The combined case copied into many sections, so that pages are split
/// between threads and the site-wide rules (duplicate ids, entity keys,
/// matrix cells, links between pages) fire across copies, checked with 1,
/// 2 and 4 rayon threads.
#[test]
fn findings_do_not_depend_on_the_thread_count() {
    let t = site("combined");
    for i in 0..24 {
        common::copy_dir(
            &fixture("check/combined/content"),
            &t.root().join(format!("content/copy{i:02}")),
        );
    }
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a thread pool can be built");
        let report = pool
            .install(|| check::check(t.root()))
            .unwrap_or_else(|e| panic!("check with {threads} thread(s) failed outright: {e}"));
        (
            check::format(&report, Format::Human),
            check::format(&report, Format::Json),
        )
    };
    let one = run(1);
    for code in ["E016", "E020", "E030"] {
        assert!(one.1.contains(code), "the copies give {code}:\n{}", one.0);
    }
    for threads in [2, 4] {
        let many = run(threads);
        assert_eq!(many.0, one.0, "human output, {threads} threads vs 1");
        assert_eq!(many.1, one.1, "JSON output, {threads} threads vs 1");
    }
}

/// Issue 25: ten usual mistakes made in one editing session, most of them
/// on one page, give exactly ten errors, each where it was made, and no
/// false warning: no error hides another, and a page with errors still
/// cites its evidence (no W001).
#[test]
fn ten_mistakes_at_once_give_ten_errors_issue_25() {
    let mut t = SiteTest::from_fixture("check/clean");
    let log = "+++\nkind = \"raw\"\nsource = \"./run\"\n+++\nline one\nline two: output\nline three\nline four\nline five\n";
    t.write("evidence/logs/a.log", log);
    t.write(
        "content/notes.md",
        "+++\ntitle = { ja = \"記録\", en = \"Notes\" }\nweigth = 3\n\n[[claims]]\nid = \"gone-file\"\nclass = \"confirmed\"\nja = \"一。\"\nen = \"One.\"\nevidence = [\"logs/missing.log#L1\"]\n\n[[claims]]\nid = \"past-end\"\nclass = \"confirmed\"\nja = \"二。\"\nen = \"Two.\"\nevidence = [\"logs/a.log#L4-L9\"]\n\n[[claims]]\nid = \"bad-class\"\nclass = \"confimed\"\nja = \"三。\"\nen = \"Three.\"\nevidence = [\"logs/a.log#L1\"]\n\n[[claims]]\nid = \"no-evidence\"\nclass = \"inferred\"\nja = \"四。\"\nen = \"Four.\"\n\n[[claims]]\nid = \"no-ja\"\nclass = \"confirmed\"\nen = \"Five.\"\nevidence = [\"logs/a.log#L5\"]\n\n[[claims]]\nid = \"wrong-quote\"\nclass = \"confirmed\"\nja = \"六。\"\nen = \"Six.\"\nevidence = [{ path = \"logs/a.log\", lines = \"3\", quote = \"output\" }]\n+++\n\n::: ja\n本文。\n:::\n\n::: en\nBody.\n:::\n\n[記録 / The record](missing.md)\n",
    );
    t.write(
        "content/broken.md",
        "+++\ntitle = { ja = \"壊れ\", en = \"Broken\" }\nweight = = 3\n\n[[claims]]\nid = \"broken-ok\"\nclass = \"confirmed\"\nja = \"七。\"\nen = \"Seven.\"\nevidence = [\"logs/a.log#L2\"]\n+++\n\n::: ja\n本文。\n:::\n\n::: en\nBody.\n:::\n",
    );
    t.write(
        "content/twice.md",
        "+++\ntitle = { ja = \"二重\", en = \"Twice\" }\n\n[[claims]]\nid = \"past-end\"\nclass = \"confirmed\"\nja = \"八。\"\nen = \"Eight.\"\nevidence = [\"logs/a.log#L3\"]\n+++\n\n::: ja\n本文。\n:::\n\n::: en\nBody.\n:::\n",
    );
    let report = check_untouched(&t);
    let found: Vec<(&str, String)> = report
        .diagnostics
        .iter()
        .map(|d| (d.code, d.location.to_string()))
        .collect();
    let expected = [
        ("E001", "content/broken.md:3:10"),
        ("E002", "content/notes.md:3:1"),
        ("E012", "content/notes.md:10:13"),
        ("E013", "content/notes.md:17:13"),
        ("E010", "content/notes.md:21:9"),
        ("E011", "content/notes.md:27:6"),
        ("E031", "content/notes.md:33:6"),
        ("E014", "content/notes.md:43:57"),
        ("E030", "content/notes.md:54:1"),
        ("E016", "content/twice.md:5:6"),
    ];
    let mut got: Vec<(&str, &str)> = found.iter().map(|(c, l)| (*c, l.as_str())).collect();
    got.sort_by_key(|(_, l)| l.to_owned());
    let mut want = expected.to_vec();
    want.sort_by_key(|(_, l)| *l);
    assert_eq!(got, want, "{}", check::format(&report, Format::Human));
}

/// Issue 25, point 6: `check` gives headings the ids the page gets, theme
/// ids included (a heading "Main" is `#main-1`: `<main id="main">` has
/// `#main`), and an anchor written in the other language's id is named as
/// such.
#[test]
fn heading_ids_are_the_rendered_ones_issue_25() {
    let mut t = SiteTest::from_fixture("check/clean");
    t.write(
        "content/ids.md",
        "+++\ntitle = { ja = \"見出し\", en = \"Headings\" }\n+++\n\n::: ja\n## 観測\n\n## Main\n:::\n\n::: en\n## Observation\n\n## Main\n\n[to main](#main) and [to the other](#観測) and [ok](#main-1)\n:::\n",
    );
    let report = check_untouched(&t);
    let found: Vec<(String, String, Option<String>)> = report
        .diagnostics
        .iter()
        .map(|d| (d.location.to_string(), d.message.clone(), d.hint.clone()))
        .collect();
    assert_eq!(
        found,
        [
            (
                "content/ids.md:16:1".to_owned(),
                "anchor `#main` not found in the en page of `content/ids.md`".to_owned(),
                Some("did you mean `#main-1`?".to_owned())
            ),
            (
                "content/ids.md:16:22".to_owned(),
                "anchor `#観測` not found in the en page of `content/ids.md`".to_owned(),
                Some("`#観測` is a heading id of the ja text; the en text's ids are `#main-1`, `#observation`".to_owned())
            ),
        ],
        "{}",
        check::format(&report, Format::Human)
    );
    // What the page really has: the same ids.
    t.write(
        "content/ids.md",
        "+++\ntitle = { ja = \"見出し\", en = \"Headings\" }\n+++\n\n::: ja\n## 観測\n\n## Main\n:::\n\n::: en\n## Observation\n\n## Main\n\n[ok](#main-1)\n:::\n",
    );
    t.build();
    let en = std::fs::read_to_string(t.out_path("en/ids/index.html")).expect("built");
    assert!(en.contains("id=\"main-1\"") && en.contains("id=\"observation\""));
}

/// Issue 25, point 2: a citation counts however its page parses. A file
/// cited only from a claim whose TOML is broken, or only through a
/// malformed link, is not "cited by no claim" (no W001).
#[test]
fn broken_citations_still_count_against_w001_issue_25() {
    let mut t = SiteTest::from_fixture("check/clean");
    let log = "+++\nkind = \"raw\"\nsource = \"./run\"\n+++\none\ntwo\n";
    t.write("evidence/logs/only-broken.log", log);
    t.write("evidence/logs/only-malformed.log", log);
    t.write(
        "content/broken.md",
        "+++\ntitle = { ja = \"壊れ\", en = \"Broken\" }\n\n[[claims]]\nid = \"b1\"\nclass = = \"confirmed\"\nja = \"一。\"\nen = \"One.\"\nevidence = [\"logs/only-broken.log#L1\"]\n\n[[claims]]\nid = \"b2\"\nclass = \"confirmed\"\nja = \"二。\"\nen = \"Two.\"\nevidence = [\"logs/only-malformed.log:2\"]\n+++\n\n::: ja\n本文。\n:::\n\n::: en\nBody.\n:::\n",
    );
    let report = check_untouched(&t);
    let found: Vec<(&str, String)> = report
        .diagnostics
        .iter()
        .map(|d| (d.code, d.location.to_string()))
        .collect();
    assert_eq!(
        found,
        [
            ("E001", "content/broken.md:6:9".to_owned()),
            ("E018", "content/broken.md:16:13".to_owned())
        ],
        "{}",
        check::format(&report, Format::Human)
    );
}
