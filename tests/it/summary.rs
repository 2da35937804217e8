//! The summary of findings and what would settle a claim, as readers see
//! them (issue 40): each question's own scope, the same badge as every
//! view, entities linked to their pages, a numbered note per row below
//! confirmed, open questions counted; `settle` wherever a claim is shown.
//! The site is `answers`' basic fixture with the `runs` aspect, and more.

use crate::answers::{findings, site, GOOD};
use crate::common::SiteTest;

/// A site whose home page opens with a summary of findings on `runs`
/// (issue 40): Toy Runner's limited yes (with what would settle it),
/// Spare Runner's confirmed no resting on a transcript, Third Runner's
/// not-known answer; `runs` is observed on Toy Runner, and Spare Runner's
/// own `watch` claim answers it there (`elsewhere`).
fn summary_site() -> SiteTest {
    let mut t = site(GOOD);
    t.edit(
        "book.toml",
        "{ key = \"partial\",",
        "{ key = \"unseen\", kind = \"not-known\", label = { ja = \"誰も見ていない\", en = \"nobody looked\" } },\n  { key = \"partial\",",
    );
    t.edit(
        "book.toml",
        "scope = \"toy-runner\"",
        "scope = \"toy-runner\"\nsetup = { ja = \"ランナーのログ、2026-01-15 時点\", en = \"The runner's log, as of 2026-01-15\" }\nelsewhere = \"watch\"",
    );
    let book = std::fs::read_to_string(t.root().join("book.toml")).expect("book.toml");
    t.write(
        "book.toml",
        &format!("{book}\n[aspects.watch]\nquestion = {{ ja = \"見られるか\", en = \"Can it be watched?\" }}\nanswers = [{{ key = \"yes\", kind = \"yes\", label = {{ ja = \"見られる\", en = \"Watchable\" }} }}]\n"),
    );
    let home = std::fs::read_to_string(t.root().join("content/_index.md")).expect("home");
    t.write(
        "content/_index.md",
        &home.replacen(
            "weight = 0\n",
            "weight = 0\n\n[view]\nfindings = [\"runs\"]\n",
            1,
        ),
    );
    t.write(
        "evidence/logs/told.txt",
        "+++\nkind = \"transcript\"\nsource = \"the spare runner's notes\"\n+++\nThe spare runner did not run.\nIt can be watched.\n",
    );
    let entity = |key: &str, name: &str, claims: &str| {
        format!("+++\ntitle = {{ ja = \"{name}\", en = \"{name}\" }}\n\n[entity]\nkind = \"component\"\nkey = \"{key}\"\nname = {{ ja = \"{name}\", en = \"{name}\" }}\n\n{claims}+++\n")
    };
    t.write(
        "content/notes/spare.md",
        &entity(
            "spare-runner",
            "Spare Runner",
            "[[claims]]\nid = \"spare-ran\"\nclass = \"confirmed\"\nabout = \"spare-runner\"\naspect = \"runs\"\nanswer = \"no\"\nja = \"予備のランナーは動いていない。\"\nen = \"The spare runner did not run.\"\nevidence = [\"logs/told.txt#L1\"]\n\n[[claims]]\nid = \"spare-watch\"\nclass = \"confirmed\"\nabout = \"spare-runner\"\naspect = \"watch\"\nanswer = \"yes\"\nja = \"予備のランナーは見られる。\"\nen = \"The spare runner can be watched.\"\nevidence = [\"logs/told.txt#L2\"]\n\n",
        ),
    );
    t.write(
        "content/notes/third.md",
        &entity(
            "third-runner",
            "Third Runner",
            "[[claims]]\nid = \"third-ran\"\nclass = \"unresolved\"\nabout = \"third-runner\"\naspect = \"runs\"\nanswer = \"unseen\"\nja = \"三つ目のランナーが動いたかは分からない。\"\nen = \"Whether the third runner ran is not known.\"\nevidence = [\"logs/run.log#L3\"]\nsettle = { ja = \"三つ目のランナーのログ。\", en = \"A log of the third runner.\" }\n\n",
        ),
    );
    t.write(
        "content/open.md",
        "+++\ntitle = { ja = \"未確定事項\", en = \"Open questions\" }\nlayout = \"open-questions\"\n+++\n\n[[view]]\n",
    );
    t
}

/// The `<section class="sof">` of a page.
fn sof_of(page: &str) -> String {
    let start = page
        .find("<section class=\"sof\"")
        .expect("a summary of findings");
    let end = start + page[start..].find("</section>").expect("closed") + "</section>".len();
    page[start..end].to_owned()
}

/// Issue 40 (trial M1, M4, L1; record M2, M5, L8): the summary's badges
/// say "per record" as every other view's do, each question its own scope
/// and date, entities link to their pages, a row below confirmed has a
/// numbered note saying what would settle it, a not-known answer is shown
/// as the absence of one, and the open questions are counted and linked.
#[test]
fn the_summary_of_findings_says_why_and_where() {
    let mut t = summary_site();
    let report = t.check();
    let errors: Vec<String> = report
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.to_string())
        .collect();
    // The basic fixture's own untranslated block is its one error.
    assert!(errors.iter().all(|e| e.contains("E032")), "{errors:?}");
    t.build();
    let en = sof_of(&t.main_of("en/index.html"));
    insta::assert_snapshot!("issue40_sof_en", en);
    let ja = sof_of(&t.main_of("ja/index.html"));
    insta::assert_snapshot!("issue40_sof_ja", ja);
    // "Per record" on the transcript-only confirmed row, as on its badge
    // everywhere else.
    assert!(
        en.contains("Confirmed <span class=\"badge__basis\">· per record</span>"),
        "{en}"
    );
    // The question's own setup and date; Spare Runner answers it through
    // its own `watch` claim, so only Third Runner is "not observed".
    assert!(
        en.contains("The runner&#39;s log, as of 2026-01-15."),
        "{en}"
    );
    assert!(
        en.contains("Not observed on: <a href=\"/en/notes/third/\">Third Runner</a>."),
        "{en}"
    );
    // Entities link to their pages, not to evidence.
    assert!(
        en.contains("<a href=\"/en/notes/spare/\">Spare Runner</a>"),
        "{en}"
    );
    assert!(!en.contains("/evidence/"), "{en}");
    // Notes 1 and 2: what would settle each.
    assert!(en.contains("What would settle it:</span> <span class=\"sof-note__text\">A log of each of the runner&#39;s threads.</span>"), "{en}");
    assert!(
        en.contains("<span class=\"sof-note__text\">A log of the third runner.</span>"),
        "{en}"
    );
    // Not known: no glyph, no frame.
    assert!(en.contains("<span class=\"answer-none answer--unseen\"><span class=\"answer-none__label\">Not known</span>: nobody looked</span>"), "{en}");
    // The open questions: basic's two, Toy Runner's and Third Runner's.
    assert!(
        en.contains("<a href=\"/en/open/\">4 open questions →</a>"),
        "{en}"
    );
    assert!(
        ja.contains("<a href=\"/ja/open/\">未確定事項 4 件 →</a>"),
        "{ja}"
    );
    assert!(ja.contains("ランナーのログ、2026-01-15 時点。"), "{ja}");
    assert!(
        !ja.contains(", ") && !ja.contains(". "),
        "ja: 、 and 。: {ja}"
    );
    // The twin says the same.
    let twin = t.read("en/index.md");
    assert!(
        twin.contains("| Question | Answer | How well it is known | For |"),
        "{twin}"
    );
    assert!(
        twin.contains("Not known: nobody looked | Unresolved [2]"),
        "{twin}"
    );
    assert!(twin.contains("Confirmed (per record) |"), "{twin}");
    assert!(twin.contains("1. Limited — [Toy Runner](https://example.org/en/notes/page/index.md): What would settle it: A log of each of the runner's threads."), "{twin}");
}

/// Issue 40: what would settle a claim is shown wherever the claim is:
/// in the text, the claim list, an entity's answers and open questions,
/// which counts them per class and names a column by its question.
#[test]
fn settle_is_shown_with_the_claim_and_on_open_questions() {
    let mut t = summary_site();
    t.build();
    let page = t.main_of("en/notes/page/index.html");
    let settle = "<span class=\"claim__settle\"><span class=\"claim__settle-label\">What would settle it:</span> A log of each of the runner&#39;s threads.</span>";
    assert!(
        page.matches(settle).count() >= 2,
        "the answers box and the claim list: {page}"
    );
    let ja = t.main_of("ja/notes/page/index.html");
    assert!(ja.contains("<span class=\"claim__settle-label\">確定させる観測：</span>ランナーのスレッドを一つずつ記録したログ。"), "{ja}");
    let open = t.main_of("en/open/index.html");
    assert!(
        open.contains("<p class=\"oq-counts\">4 open questions:"),
        "{open}"
    );
    assert!(
        open.matches("class=\"claim__settle\"").count() == 4,
        "{open}"
    );
    // The claim's row and column, the column by its question.
    assert!(
        open.contains("<span class=\"claim__context\">Toy Runner · Did it run?</span>"),
        "{open}"
    );
}

/// An `elsewhere` naming no aspect is E026, like any name of an aspect.
#[test]
fn a_misspelt_elsewhere_is_reported() {
    let mut t = summary_site();
    t.edit(
        "book.toml",
        "elsewhere = \"watch\"",
        "elsewhere = \"wacth\"",
    );
    let found = findings(&t, "E026");
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].starts_with("book.toml:")
            && found[0].ends_with(": unknown aspect `wacth` in the `elsewhere` of aspect `runs` | did you mean `watch`?"),
        "{found:?}"
    );
}
