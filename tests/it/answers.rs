//! Answers (issue 26): a claim about an entity's aspect states its answer
//! from the vocabulary `book.toml` declares for the aspect; `check` says
//! every wrong answer where it is written; `claims.json`, JSON-LD, the
//! `claims` command, `diff` and the review lock carry it; views show the
//! answer and the class as two things.

use crate::common;
use common::SiteTest;
use kansoku::check::{self, Format};

const ASPECTS: &str = r#"
[aspects.runs]
question = { ja = "動いたか", en = "Did it run?" }
scope = "toy-runner"
answers = [
  { key = "yes", kind = "yes", label = { ja = "動いた", en = "Ran" } },
  { key = "no", kind = "no", label = { ja = "動いていない", en = "Did not run" } },
  { key = "partial", kind = "partial", label = { ja = "一部", en = "Partly" } },
]
"#;

/// The basic fixture with the `runs` aspect declared and `claims`
/// (TOML `[[claims]]` entries) added to the observation page.
fn site(claims: &str) -> SiteTest {
    let mut t = SiteTest::from_fixture("basic");
    let book = std::fs::read_to_string(t.root().join("book.toml")).expect("book.toml");
    t.write("book.toml", &format!("{book}{ASPECTS}"));
    let page = std::fs::read_to_string(t.root().join("content/notes/page.md")).expect("page");
    let page = page.replacen("\n[[claims]]\n", &format!("\n{claims}\n[[claims]]\n"), 1);
    t.write("content/notes/page.md", &page);
    t
}

const GOOD: &str = r#"[[claims]]
id = "runner-ran"
class = "limited"
about = "toy-runner"
aspect = "runs"
answer = "yes"
ja = "ランナーは動いた。"
en = "The runner ran."
evidence = ["logs/run.log#L7"]
settle = { ja = "ランナーのスレッドを一つずつ記録したログ。", en = "A log of each of the runner's threads." }
"#;

/// The E024 findings of a check (the fixture's own untranslated block is
/// an E032 of its own).
fn e024(t: &SiteTest) -> usize {
    t.check()
        .diagnostics
        .iter()
        .filter(|d| d.code == "E024")
        .count()
}

fn human(t: &SiteTest) -> String {
    check::format(&t.check(), Format::Human)
}

#[test]
fn every_wrong_answer_is_named_where_it_is_written() {
    let claims = r#"[[claims]]
id = "typo"
class = "confirmed"
about = "toy-runner"
aspect = "runs"
answer = "yse"
ja = "動いた。"
en = "It ran."
evidence = ["logs/run.log#L7"]

[[claims]]
id = "label-for-key"
class = "confirmed"
aspect = "runs"
answer = "Did not run"
ja = "動いていない。"
en = "It did not run."
evidence = ["logs/run.log#L7"]

[[claims]]
id = "no-aspect"
class = "confirmed"
answer = "yes"
ja = "動いた。"
en = "It ran."
evidence = ["logs/run.log#L7"]

[[claims]]
id = "no-vocabulary"
class = "confirmed"
about = "toy-runner"
aspect = "speed"
answer = "fast"
ja = "速い。"
en = "Fast."
evidence = ["logs/run.log#L7"]
"#;
    let mut t = site(claims);
    // An aspect the site knows (declared, or shown in a column) but that
    // declares no vocabulary.
    let book = std::fs::read_to_string(t.root().join("book.toml")).expect("book.toml");
    t.write(
        "book.toml",
        &format!("{book}\n[aspects.speed]\nquestion = {{ ja = \"速いか\", en = \"Fast?\" }}\n"),
    );
    let out = human(&t);
    for expected in [
        "content/notes/page.md:18:10: error[E024]: unknown answer `yse` for aspect `runs`",
        "  = hint: did you mean `yes`?",
        "content/notes/page.md:27:10: error[E024]: unknown answer `Did not run` for aspect `runs`",
        "  = hint: did you mean `no`?",
        "content/notes/page.md:35:10: error[E024]: claim `no-aspect` states an answer but no aspect",
        "  = hint: an answer is one of an aspect's declared answers: add `aspect = \"…\"`, or remove `answer`",
        "content/notes/page.md:45:10: error[E024]: aspect `speed` declares no answers",
    ] {
        assert!(out.contains(expected), "missing {expected:?} in:\n{out}");
    }
    assert_eq!(e024(&t), 4, "every wrong answer once:\n{out}");
}

#[test]
fn following_the_hint_fixes_the_answer() {
    let bad = GOOD.replace("answer = \"yes\"", "answer = \"yse\"");
    let mut t = site(&bad);
    assert!(human(&t).contains("did you mean `yes`?"));
    t.edit(
        "content/notes/page.md",
        "answer = \"yse\"",
        "answer = \"yes\"",
    );
    assert_eq!(e024(&t), 0, "{}", human(&t));
}

#[test]
fn a_scope_naming_no_entity_is_an_error_in_book_toml() {
    let mut t = site(GOOD);
    t.edit(
        "book.toml",
        "scope = \"toy-runner\"",
        "scope = \"toy-runer\"",
    );
    let out = human(&t);
    assert!(
        out.contains("book.toml:")
            && out.contains("error[E024]: the scope of aspect `runs` names no entity: `toy-runer`"),
        "{out}"
    );
    assert!(out.contains("= hint: did you mean `toy-runner`?"), "{out}");
}

#[test]
fn a_duplicate_answer_key_is_an_error() {
    let mut t = site(GOOD);
    t.edit(
        "book.toml",
        "{ key = \"partial\",",
        "{ key = \"yes\", kind = \"yes\", label = { ja = \"再\", en = \"Again\" } },\n  { key = \"partial\",",
    );
    let err = t.build_err().to_string();
    assert!(
        err.contains("error[E024]: answer `yes` is declared twice for aspect `runs`"),
        "{err}"
    );
}

#[test]
fn claims_json_json_ld_and_the_claims_command_carry_the_answer() {
    let mut t = site(GOOD);
    t.build();
    let json: serde_json::Value =
        serde_json::from_str(&t.read("claims.json")).expect("claims.json");
    assert_eq!(json["version"], 3);
    let claim = json["claims"]
        .as_array()
        .expect("claims")
        .iter()
        .find(|c| c["id"] == "runner-ran")
        .expect("the claim");
    assert_eq!(
        claim["answer"],
        serde_json::json!({"key": "yes", "kind": "yes", "label": {"ja": "動いた", "en": "Ran"}})
    );
    // Issue 40: what would settle it, in both languages.
    assert_eq!(
        claim["settle"],
        serde_json::json!({"ja": "ランナーのスレッドを一つずつ記録したログ。", "en": "A log of each of the runner's threads."})
    );
    let plain = json["claims"]
        .as_array()
        .expect("claims")
        .iter()
        .find(|c| c["id"] == "runner-started")
        .expect("a claim without an answer");
    assert!(plain.get("answer").is_none(), "{plain}");
    let ld: serde_json::Value = serde_json::from_str(&t.read("claims.jsonld")).expect("JSON-LD");
    let node = ld["@graph"]
        .as_array()
        .expect("graph")
        .iter()
        .find(|n| n["identifier"] == "runner-ran")
        .expect("its node");
    assert_eq!(
        node["additionalProperty"],
        serde_json::json!([
            {"@type": "PropertyValue", "name": "evidenceClass", "value": "limited"},
            {"@type": "PropertyValue", "name": "answer", "value": "yes"},
            {"@type": "PropertyValue", "name": "answerKind", "value": "yes"},
            {"@type": "PropertyValue", "name": "settledBy", "value": [
                {"@language": "ja", "@value": "ランナーのスレッドを一つずつ記録したログ。"},
                {"@language": "en", "@value": "A log of each of the runner's threads."},
            ]},
        ])
    );
    let claims =
        kansoku::claims::query(t.root(), &kansoku::claims::Query::default()).expect("claims");
    let csv = kansoku::claims::csv(&claims);
    assert!(
        csv.starts_with("id,class,page,about,aspect,answer,ja,en\r\n"),
        "{csv}"
    );
    assert!(csv.contains(",toy-runner,runs,yes,"), "{csv}");
}

#[test]
fn views_show_the_answer_and_the_class_apart() {
    let mut t = site(GOOD);
    t.build();
    let page = t.main_of("en/notes/page/index.html");
    // The answers box at the top: the question, the answer's glyph and
    // words, and the class as its own badge.
    assert!(
        page.contains("What the record says of Toy Runner"),
        "{page}"
    );
    assert!(
        page.contains(
            "<span class=\"answer answer--yes\"><span class=\"answer__glyph\" aria-hidden=\"true\">✓</span>Ran</span>"
        ),
        "{page}"
    );
    assert!(page.contains("badge badge--limited"), "{page}");
    assert!(page.contains("Did it run?"), "{page}");
}

#[test]
fn diff_and_review_see_a_changed_answer() {
    let mut t = site(GOOD);
    let old = kansoku::diff::from_site(t.root()).expect("old");
    t.edit(
        "content/notes/page.md",
        "answer = \"yes\"",
        "answer = \"partial\"",
    );
    let new = kansoku::diff::from_site(t.root()).expect("new");
    let changes = kansoku::diff::diff(&old, &new);
    assert_eq!(changes.len(), 1, "{changes:?}");
    assert_eq!(changes[0].kind, "answer");
    assert_eq!(changes[0].old.as_deref(), Some("yes"));
    assert_eq!(changes[0].new.as_deref(), Some("partial"));
}

/// Issue 40: the fields the content is written with (each answer's
/// `kind`, a claim's `settle`) are read, not refused as unknown keys.
#[test]
fn answer_kinds_and_settle_are_read() {
    let claims = r#"[[claims]]
id = "runner-unsettled"
class = "unresolved"
about = "toy-runner"
aspect = "runs"
answer = "unseen"
ja = "動いたかは分からない。"
en = "Whether it ran is not known."
evidence = ["logs/run.log#L7"]
settle = { ja = "ランナーのログを取り直す。", en = "A new capture of the runner's log." }
"#;
    let mut t = site(claims);
    t.edit(
        "book.toml",
        "{ key = \"partial\",",
        "{ key = \"unseen\", kind = \"not-known\", label = { ja = \"見ていない\", en = \"Nobody looked\" } },\n  { key = \"partial\",",
    );
    let report = t.check();
    let unknown: Vec<_> = report
        .diagnostics
        .iter()
        .filter(|d| d.code == "E002" || d.code == "E024")
        .map(|d| d.to_string())
        .collect();
    assert!(unknown.is_empty(), "{unknown:?}");
}

/// The findings of `t`'s check with `code`, as `check` prints them.
fn findings(t: &SiteTest, code: &str) -> Vec<String> {
    t.check()
        .diagnostics
        .iter()
        .filter(|d| d.code == code)
        .map(|d| {
            format!(
                "{}: {} | {}",
                d.location,
                d.message,
                d.hint.as_deref().unwrap_or("")
            )
        })
        .collect()
}

/// Issue 40, trial H1: a misspelt `about` was never reported, and the
/// claim silently left the entity's answers and every view.
#[test]
fn a_misspelt_about_is_reported_with_the_nearest_entity() {
    let t = site(&GOOD.replace("about = \"toy-runner\"", "about = \"toyrunner\""));
    assert_eq!(
        findings(&t, "E025"),
        ["content/notes/page.md:16:9: unknown entity `toyrunner` in `about` | did you mean `toy-runner`?"]
    );
    let t = site(&GOOD.replace("about = \"toy-runner\"", "about = \"gpu-nine\""));
    assert_eq!(
        findings(&t, "E025"),
        ["content/notes/page.md:16:9: unknown entity `gpu-nine` in `about` | name the key of an entity declared by a page's `[entity]` or `[[entities]]`: `toy-runner`"]
    );
}

/// Issue 40, trial M7: a misspelt `aspect` was silent without an answer,
/// and with one got "declares no answers", a hint leading away from the fix.
#[test]
fn a_misspelt_aspect_is_reported_with_the_nearest_aspect_answer_or_not() {
    let plain = GOOD
        .replace("aspect = \"runs\"", "aspect = \"rusn\"")
        .replace("answer = \"yes\"\n", "");
    let t = site(&plain);
    assert_eq!(
        findings(&t, "E026"),
        ["content/notes/page.md:17:10: unknown aspect `rusn` in `aspect` | did you mean `runs`?"]
    );
    let answered = GOOD.replace("aspect = \"runs\"", "aspect = \"rusn\"");
    let t = site(&answered);
    assert_eq!(
        findings(&t, "E026"),
        ["content/notes/page.md:17:10: unknown aspect `rusn` in `aspect` | did you mean `runs`?"]
    );
    assert_eq!(
        findings(&t, "E024"),
        Vec::<String>::new(),
        "one mistake, one finding"
    );
}

/// Issue 40: every key naming an aspect is checked, not only a claim's.
#[test]
fn misspelt_columns_and_findings_are_reported() {
    let mut t = site(GOOD);
    let home = std::fs::read_to_string(t.root().join("content/_index.md")).expect("home");
    let home = home.replacen(
        "weight = 0\n",
        "weight = 0\n\n[view]\nfindings = [\"rusn\"]\ncolumns = [{ aspect = \"rns\", label = { ja = \"動作\", en = \"Runs\" } }]\n\n[views.table]\nkind = \"component\"\ncolumns = [{ aspect = \"rnus\", label = { ja = \"動作\", en = \"Runs\" } }]\n",
        1,
    );
    t.write("content/_index.md", &home);
    assert_eq!(
        findings(&t, "E026"),
        [
            "content/_index.md:7:13: unknown aspect `rusn` in `[view] findings` | did you mean `runs`?",
            "content/_index.md:8:23: unknown aspect `rns` in `[view] columns` | did you mean `runs`?",
            "content/_index.md:12:23: unknown aspect `rnus` in `[views.table] columns` | did you mean `runs`?",
        ]
    );
}

/// A claim about an entity of a draft that the build leaves out, or of a
/// page that failed to load, is not reported as naming nothing: the
/// draft's entity still exists, and the broken page has its own finding.
#[test]
fn an_entity_of_a_draft_or_a_broken_page_is_not_unknown() {
    let claim = GOOD.replace("about = \"toy-runner\"", "about = \"draft-runner\"");
    let mut t = site(&claim);
    t.write(
        "content/notes/draft.md",
        "+++\ntitle = { ja = \"下書き\", en = \"Draft\" }\ndraft = true\n\n[entity]\nkind = \"component\"\nkey = \"draft-runner\"\nname = { ja = \"下書き\", en = \"Draft runner\" }\n+++\n",
    );
    t.build();
    assert_eq!(findings(&t, "E025"), Vec::<String>::new());
    t.write(
        "content/notes/draft.md",
        "+++\ntitle = { ja = \"壊れた\", en = \"Broken\" \n\n[entity]\nkind = \"component\"\nkey = \"draft-runner\"\n",
    );
    let report = t.check();
    assert!(report.diagnostics.iter().any(|d| d.code == "E001"));
    assert_eq!(findings(&t, "E025"), Vec::<String>::new());
}

/// Issue 40, trial M6: a typo in `book.toml` hid every finding in the
/// pages. Now a mistake there costs only its key, answer or table: the
/// pages are still checked, and a name the unread part may declare is not
/// reported again.
#[test]
fn a_mistake_in_book_toml_costs_only_its_key_and_the_pages_are_still_checked() {
    let bad_class = GOOD.replace("class = \"limited\"", "class = \"limitd\"");
    let mut t = site(&bad_class);
    t.edit("book.toml", "question = {", "qestion = {");
    let codes = |t: &SiteTest| -> Vec<String> {
        t.check()
            .diagnostics
            .iter()
            .map(|d| {
                format!(
                    "{} {} {}",
                    d.code,
                    d.location,
                    d.hint.as_deref().unwrap_or("")
                )
            })
            .collect()
    };
    let found = codes(&t);
    assert!(
        found
            .iter()
            .any(|f| f.starts_with("E002 book.toml:") && f.ends_with("did you mean `question`?")),
        "{found:?}"
    );
    assert!(
        found
            .iter()
            .any(|f| f.starts_with("E010 content/notes/page.md:")),
        "the page's mistake in the same run: {found:?}"
    );
    // The rest of the aspect is read: its answers still check the claim's.
    assert!(
        !found
            .iter()
            .any(|f| f.starts_with("E024") || f.starts_with("E026")),
        "{found:?}"
    );
    // A broken answer costs itself, and the claim naming it is not also
    // told its answer is unknown.
    t.edit("book.toml", "qestion = {", "question = {");
    t.edit(
        "book.toml",
        "{ key = \"yes\", kind = \"yes\", label",
        "{ key = \"yes\", knd = \"yes\", label",
    );
    let found = codes(&t);
    assert!(
        found
            .iter()
            .any(|f| f.starts_with("E002 book.toml:") && f.ends_with("did you mean `kind`?")),
        "{found:?}"
    );
    assert!(found.iter().any(|f| f.starts_with("E010")), "{found:?}");
    assert!(!found.iter().any(|f| f.starts_with("E024")), "{found:?}");
    // A table that does not parse costs that table; a claim naming its
    // aspect is not told the aspect is unknown.
    t.edit("book.toml", "knd = \"yes\"", "kind = \"yes\"");
    t.edit("book.toml", "[aspects.runs]", "[aspects.runs\n");
    let found = codes(&t);
    assert!(
        found.iter().any(|f| f.starts_with("E001 book.toml:")),
        "{found:?}"
    );
    assert!(found.iter().any(|f| f.starts_with("E010")), "{found:?}");
    assert!(
        !found
            .iter()
            .any(|f| f.starts_with("E024") || f.starts_with("E026")),
        "{found:?}"
    );
    // And a build stops on them all, writing nothing.
    let err = t.build_err().to_string();
    assert!(
        err.contains("error[E001]") && err.contains("error[E010]"),
        "{err}"
    );
}

/// The findings of `t`'s check with `code`, as `check` prints them, with
/// their hints on a line of their own.
fn printed(t: &SiteTest, code: &str) -> String {
    let report = t.check();
    let only: Vec<kansoku::Diagnostic> = report
        .diagnostics
        .iter()
        .filter(|d| d.code == code)
        .cloned()
        .collect();
    only.iter()
        .map(|d| {
            let severity = if d.is_error() { "error" } else { "warning" };
            format!(
                "{}: {severity}[{}]: {}\n  = hint: {}",
                d.location,
                d.code,
                d.message,
                d.hint.as_deref().unwrap_or("")
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Issue 40: every declared answer says what kind of statement it is,
/// and a not-known answer, being no answer, has no glyph.
#[test]
fn an_answer_says_its_kind_and_a_not_known_one_has_no_glyph() {
    let mut t = site(GOOD);
    t.edit(
        "book.toml",
        "{ key = \"no\", kind = \"no\",",
        "{ key = \"no\",",
    );
    t.edit(
        "book.toml",
        "{ key = \"partial\", kind = \"partial\",",
        "{ key = \"unseen\", kind = \"not-known\", glyph = \"–\", label = { ja = \"見ていない\", en = \"Nobody looked\" } },\n  { key = \"partial\", kind = \"partial\",",
    );
    let book = std::fs::read_to_string(t.root().join("book.toml")).expect("book.toml");
    let line = |needle: &str| {
        1 + book[..book.find(needle).expect(needle)]
            .matches('\n')
            .count()
    };
    assert_eq!(
        printed(&t, "E027"),
        format!(
            "book.toml:{}:11: error[E027]: answer `no` of aspect `runs` does not say what kind of answer it is\n  = hint: add `kind = \"yes\"`, `\"no\"`, `\"partial\"` or `\"not-known\"` (nothing decisive was seen, or nobody could look)\n\
             book.toml:{}:49: error[E027]: answer `unseen` of aspect `runs` is not known, and a not-known answer has no glyph\n  = hint: remove `glyph`: a not-known answer is shown as the absence of an answer, never as a glyph beside a certainty badge",
            line("{ key = \"no\""),
            line("{ key = \"unseen\""),
        )
    );
}

/// Issue 40: "nothing decisive was seen" is never seen directly, nor
/// deduced.
#[test]
fn a_not_known_answer_is_never_confirmed_or_inferred() {
    let claim = GOOD
        .replace("class = \"limited\"", "class = \"confirmed\"")
        .replace("answer = \"yes\"", "answer = \"unseen\"");
    let mut t = site(&claim);
    t.edit(
        "book.toml",
        "{ key = \"partial\",",
        "{ key = \"unseen\", kind = \"not-known\", label = { ja = \"見ていない\", en = \"Nobody looked\" } },\n  { key = \"partial\",",
    );
    assert_eq!(
        printed(&t, "E028"),
        "content/notes/page.md:18:10: error[E028]: claim `runner-ran` is confirmed, but its answer `unseen` is not known\n  = hint: a not-known answer is unresolved or limited: class the claim by what was seen, or state what was seen as its answer"
    );
    t.edit(
        "content/notes/page.md",
        "class = \"confirmed\"\nabout",
        "class = \"inferred\"\nabout",
    );
    assert!(
        printed(&t, "E028").contains(
            "error[E028]: claim `runner-ran` is inferred, but its answer `unseen` is not known"
        ),
        "{}",
        printed(&t, "E028")
    );
    t.edit(
        "content/notes/page.md",
        "class = \"inferred\"\nabout",
        "class = \"unresolved\"\nabout",
    );
    assert_eq!(printed(&t, "E028"), "");
}

/// Issue 40 (record M3): an answer deduced from other claims names them
/// with `from` and is no stronger than they are.
#[test]
fn an_answer_by_deduction_names_its_premises_and_is_no_stronger() {
    let inferred = GOOD.replace("class = \"limited\"", "class = \"inferred\"");
    let mut t = site(&inferred);
    assert_eq!(
        printed(&t, "E029"),
        "content/notes/page.md:18:10: error[E029]: inferred claim `runner-ran` states an answer but names no premises (`from`)\n  = hint: an answer deduced from other claims names them: add `from = [\"…\"]` with the claims it follows from"
    );
    // On an open premise: an error, not W082's warning, since the answer
    // is what views show first.
    t.edit(
        "content/notes/page.md",
        "evidence = [\"logs/run.log#L7\"]\nsettle",
        "evidence = [\"logs/run.log#L7\"]\nfrom = [\"runner-threshold\"]\nsettle",
    );
    assert_eq!(
        printed(&t, "E029"),
        "content/notes/page.md:22:9: error[E029]: claim `runner-ran` states an answer stronger than its premises: `runner-threshold` is unresolved\n  = hint: an answer is no stronger than what it rests on: make `runner-ran` unresolved too, or settle `runner-threshold` first"
    );
    assert_eq!(printed(&t, "W082"), "", "one finding");
    // A confirmed answer with premises claims to be seen and deduced.
    t.edit(
        "content/notes/page.md",
        "class = \"inferred\"\nabout",
        "class = \"confirmed\"\nabout",
    );
    t.edit(
        "content/notes/page.md",
        "from = [\"runner-threshold\"]",
        "from = [\"runner-started\"]",
    );
    assert_eq!(
        printed(&t, "E029"),
        "content/notes/page.md:22:9: error[E029]: confirmed claim `runner-ran` states an answer deduced from other claims (`from`)\n  = hint: an answer deduced from other claims is inferred at most: make `runner-ran` inferred, or drop `from` if the answer was seen directly"
    );
    assert_eq!(printed(&t, "W083"), "", "one finding");
    t.edit(
        "content/notes/page.md",
        "class = \"confirmed\"\nabout",
        "class = \"inferred\"\nabout",
    );
    assert_eq!(printed(&t, "E029"), "");
}

/// Issue 40 (record L7): one word, one meaning across the languages of
/// the site's answers.
#[test]
fn an_answer_word_read_two_ways_across_languages_is_a_warning() {
    let mut t = site(GOOD);
    let book = std::fs::read_to_string(t.root().join("book.toml")).expect("book.toml");
    t.write(
        "book.toml",
        &format!(
            "{book}\n[aspects.watch]\nanswers = [\n  {{ key = \"blocked\", kind = \"no\", label = {{ ja = \"使えない\", en = \"Did not run\" }} }},\n]\n"
        ),
    );
    let book = std::fs::read_to_string(t.root().join("book.toml")).expect("book.toml");
    let line = 1 + book[..book.find("key = \"blocked\"").expect("declared")]
        .matches('\n')
        .count();
    assert_eq!(
        printed(&t, "W025"),
        format!(
            "book.toml:{line}:43: warning[W025]: the answer words `Did not run` stand for two ja words: `動いていない` (`runs.no`) and `使えない` (`watch.blocked`)\n  = hint: one word, one meaning: give these answers the same ja words, or one of them other en words"
        )
    );
}

/// Issue 40: every unresolved or limited claim says what would settle it;
/// a confirmed one has nothing to settle.
#[test]
fn an_open_claim_says_what_would_settle_it() {
    let unsettled = GOOD.replace(
        "settle = { ja = \"ランナーのスレッドを一つずつ記録したログ。\", en = \"A log of each of the runner's threads.\" }\n",
        "",
    );
    let mut t = site(&unsettled);
    assert_eq!(
        printed(&t, "E034"),
        "content/notes/page.md:14:6: error[E034]: limited claim `runner-ran` does not say what would settle it\n  = hint: add `settle = { ja = \"…\", en = \"…\" }`: the observation that would settle it"
    );
    // A warning in a build, as an untranslated segment is: a writer can
    // preview an open claim before saying what would settle it.
    t.build();
    let warnings = &t.report().warnings;
    assert_eq!(warnings.iter().filter(|d| d.code == "E034").count(), 1);
    // In one language only: E031, as for any text.
    t.edit(
        "content/notes/page.md",
        "evidence = [\"logs/run.log#L7\"]\n",
        "evidence = [\"logs/run.log#L7\"]\nsettle = { en = \"A trace of the runner's threads.\" }\n",
    );
    assert!(
        printed(&t, "E031").contains("error[E031]: the `settle` of claim `runner-ran` lacks ja"),
        "{}",
        printed(&t, "E031")
    );
    assert!(!printed(&t, "E034").contains("`runner-ran`"), "one finding");
    // On a confirmed claim there is nothing to settle.
    t.edit(
        "content/notes/page.md",
        "settle = { en = \"A trace of the runner's threads.\" }",
        "settle = { ja = \"スレッドのトレース。\", en = \"A trace of the runner's threads.\" }",
    );
    t.edit(
        "content/notes/page.md",
        "class = \"limited\"\nabout",
        "class = \"confirmed\"\nabout",
    );
    assert_eq!(
        printed(&t, "E035"),
        "content/notes/page.md:22:10: error[E035]: confirmed claim `runner-ran` has nothing to settle, but gives `settle`\n  = hint: remove `settle`, or class the claim by what was seen: `settle` says what would settle an unresolved or limited claim"
    );
}
