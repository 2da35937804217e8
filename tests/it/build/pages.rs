//! What built pages hold beyond the basics: code and language blocks,
//! a site's own templates and messages over the embedded theme, class
//! labels, heading and footnote ids, claim references in headings, pages
//! that leave inline claims out of their list, and drafts (issue 25).

use super::{basic, page_file, CLASSES};
use crate::common::{duplicate_ids, element_by_id, elements, ftl, SiteTest, Tree};

#[test]
fn basic_code_blocks_and_language_blocks_render() {
    let t = basic();
    for lang in ["ja", "en"] {
        let main = t.main_of(&page_file(lang, "notes/page/"));
        let pre = elements(&main, "pre")
            .into_iter()
            .next()
            .expect("the ```log block");
        assert!(
            pre.contains("threads requested:") && pre.contains("threads started:"),
            "{pre}"
        );
        assert!(
            !main.contains(":::"),
            "a fenced-div line leaked into {lang}: {main}"
        );
        // Only this language's side of a pair.
        let (mine, theirs) = if lang == "ja" {
            ("概要", "Summary")
        } else {
            ("Summary", "概要")
        };
        assert!(
            main.contains(mine) && !main.contains(&format!(">{theirs}<")),
            "{lang} pair"
        );
    }
}

#[test]
fn override_template_and_messages_win_over_the_embedded_theme() {
    let mut t = SiteTest::from_fixture("override");
    t.build();
    for lang in ["ja", "en"] {
        t.assert_file_contains(
            &format!("{lang}/index.html"),
            &format!("OVERRIDE-MARKER page.html lang={lang}"),
        )
        // The override extends the embedded base.html.
        .assert_file_contains(
            &format!("{lang}/index.html"),
            &format!("<html lang=\"{lang}\">"),
        )
        // The body still renders through the override.
        .assert_file_contains(
            &format!("{lang}/index.html"),
            if lang == "ja" {
                "上書きの本文。"
            } else {
                "Override body."
            },
        );
    }
    // Fluent messages override one by one: en is replaced, ja keeps the default.
    t.assert_file_contains("en/index.html", "Claims, as the site says")
        .assert_file_contains("ja/index.html", &ftl("ja", "claims-title", None));
    // Other templates are still the embedded ones.
    t.assert_file_not_contains("ja-en/index.html", "OVERRIDE-MARKER");
    // A site's static file replaces the embedded one of the same name.
    assert_eq!(
        t.read("static/kansoku.css"),
        "/* OVERRIDE-MARKER kansoku.css */\n"
    );
    // That one only: the theme's second stylesheet is still published and
    // linked after it (docs/theme-contract.md: replace it too, or empty
    // it, to drop the theme's styles whole).
    assert_eq!(
        t.read("static/kansoku-views.css"),
        include_str!("../../../static/kansoku-views.css")
    );
    let html = t.read("ja/index.html");
    let at = |name: &str| html.find(&format!("static/{name}\"")).expect(name);
    assert!(at("kansoku.css") < at("kansoku-views.css"), "{html}");
}

/// SPEC §3.3 fixes the Japanese class labels; the theme must use them.
#[test]
fn japanese_class_labels_follow_the_spec() {
    let got: Vec<String> = CLASSES
        .iter()
        .map(|c| ftl("ja", &format!("class-{c}"), None))
        .collect();
    assert_eq!(got, ["確認済み", "推論", "未確定", "制約あり"]);
}

#[test]
fn heading_ids_do_not_collide_with_theme_ids() {
    let mut t = SiteTest::from_fixture("basic");
    t.write(
        "content/notes/ids.md",
        "+++\ntitle = \"ids\"\n+++\n\n# Main\n\n## Site nav\n\n## Kansoku claims\n",
    )
    .build();
    for tree in ["ja", "en", "ja-en"] {
        let html = t.read(&page_file(tree, "notes/ids/"));
        assert_eq!(
            duplicate_ids(&html),
            Vec::<String>::new(),
            "{tree}/notes/ids/"
        );
    }
}

#[test]
fn parallel_view_footnotes_have_unique_ids() {
    let mut t = SiteTest::from_fixture("basic");
    t.write(
        "content/notes/fn.md",
        "+++\ntitle = \"fn\"\n+++\n\n::: ja\n日本語[^1]。\n\n[^1]: 注。\n:::\n::: en\nEnglish[^1].\n\n[^1]: Note.\n:::\n",
    )
    .build();
    let html = t.read("ja-en/notes/fn/index.html");
    assert_eq!(duplicate_ids(&html), Vec::<String>::new());
}

#[test]
fn claim_refs_and_page_links_inside_headings_are_rendered() {
    let mut t = SiteTest::from_fixture("basic");
    t.write(
        "content/notes/h.md",
        "+++\ntitle = \"h\"\n+++\n\n## Result [[claim:runner-started]]\n\n## See [the page](page.md)\n",
    )
    .build();
    for tree in ["ja", "en", "ja-en"] {
        let main = t.main_of(&page_file(tree, "notes/h/"));
        let heads = elements(&main, "h2");
        assert!(
            heads[0].contains("badge--confirmed"),
            "{tree}: {}",
            heads[0]
        );
        assert!(!main.contains("href=\"claim:"), "{tree}: {main}");
        assert!(
            heads[1].contains(&format!("href=\"/{tree}/notes/page/\"")),
            "{tree}: {}",
            heads[1]
        );
    }
}

#[test]
fn untouched_tree_helper_sees_a_one_byte_change() {
    // The harness itself: a "same tree" assertion must catch a tiny change.
    let t = basic();
    let before = t.tree();
    let mut after = before.clone();
    let file = after.0.get_mut("claims.json").expect("claims.json");
    file.push(b' ');
    assert_ne!(before, after);
    let caught = std::panic::catch_unwind(|| before.assert_same(&after, "edited"));
    assert!(caught.is_err());
    assert_eq!(Tree::of(&t.root().join("no-such-dir")), Tree::default());
}

/// `repeat-inline-claims = false`: a claim the text shows in a language is
/// not listed again at the end of that language's page; its first
/// appearance in the text carries its anchor, so links still land on it.
#[test]
fn a_page_can_leave_inline_claims_out_of_its_list() {
    const PAGE: &str = r#"+++
title = { ja = "本文の主張", en = "Claims in the text" }
repeat-inline-claims = false

[[claims]]
id = "inline-both"
class = "confirmed"
ja = "両方の言語で本文に出る。"
en = "Shown in the text in both languages."
evidence = ["logs/run.log#L7"]

[[claims]]
id = "inline-ja"
class = "inferred"
ja = "日本語の本文だけに出る。"
en = "Shown in the Japanese text only."
evidence = ["logs/run.log#L13"]

[[claims]]
id = "listed-only"
class = "limited"
ja = "本文には出ない。"
en = "Not shown in the text."
evidence = ["logs/run.log"]
+++

::: ja
本文。[[claim:inline-both]] と [[claim:inline-ja]]。もう一度 [[claim:inline-both]]。
:::
::: en
Text. [[claim:inline-both]]
:::
"#;
    let mut t = SiteTest::from_fixture("basic");
    t.write("content/notes/inline.md", PAGE).build();
    let listed = |t: &SiteTest, file: &str| -> Vec<String> {
        let html = t.read(file);
        let list = &html[html.find("<ul class=\"claim-list").expect("a claim list")..];
        let list = &list[..list.find("</ul>").expect("the list ends")];
        elements(list, "li")
            .iter()
            .filter_map(|li| {
                let id = li.split_once(" id=\"")?.1;
                Some(id[..id.find('"')?].to_owned())
            })
            .collect()
    };
    // Shown inline in Japanese only: listed on the English page and, since
    // the parallel lists pair the languages, on the parallel page.
    assert_eq!(
        listed(&t, "ja/notes/inline/index.html"),
        ["claim-listed-only"]
    );
    assert_eq!(
        listed(&t, "en/notes/inline/index.html"),
        ["claim-inline-ja", "claim-listed-only"]
    );
    assert_eq!(
        listed(&t, "ja-en/notes/inline/index.html"),
        ["claim-inline-ja", "claim-listed-only"]
    );
    for file in [
        "ja/notes/inline/index.html",
        "en/notes/inline/index.html",
        "ja-en/notes/inline/index.html",
    ] {
        let html = t.read(file);
        assert_eq!(duplicate_ids(&html), Vec::<String>::new(), "{file}");
        let anchor = element_by_id(&html, "claim-inline-both")
            .unwrap_or_else(|| panic!("{file} has no anchor for inline-both"));
        assert!(
            anchor.starts_with("<span class=\"claim-anchor\" id=\"claim-inline-both\">"),
            "{file}: {anchor}"
        );
    }
    let ja = t.read("ja/notes/inline/index.html");
    assert!(
        element_by_id(&ja, "claim-inline-ja")
            .is_some_and(|e| e.starts_with("<span class=\"claim-anchor\"")),
        "the Japanese text carries inline-ja's anchor"
    );
    // Without the switch every claim is listed, and none is anchored in
    // the text.
    t.edit(
        "content/notes/inline.md",
        "repeat-inline-claims = false\n",
        "",
    )
    .build();
    assert_eq!(
        listed(&t, "ja/notes/inline/index.html"),
        ["claim-inline-both", "claim-inline-ja", "claim-listed-only"]
    );
    assert!(!t
        .read("ja/notes/inline/index.html")
        .contains("claim-anchor"));
}

/// Issue 25, point 5: `draft = true` keeps a page out of `build` (counted
/// in the summary), `--drafts` publishes it marked as a draft, a draft's
/// missing evidence is a warning, and a published page that refers to a
/// draft's claim is refused with a hint that says so.
#[test]
fn drafts_are_left_out_of_build_and_published_with_drafts_issue_25() {
    let mut t = SiteTest::from_fixture("basic");
    t.write(
        "content/notes/idea.md",
        "+++\ntitle = { ja = \"構想\", en = \"Idea\" }\ndraft = true\n\n[[claims]]\nid = \"idea-first\"\nclass = \"inferred\"\nja = \"まだ証拠がない。\"\nen = \"No evidence yet.\"\n\n[[claims]]\nid = \"idea-second\"\nclass = \"inferred\"\nja = \"証拠は後で。\"\nen = \"Evidence later.\"\nevidence = [\"logs/not-yet.log#L1\"]\n+++\n\n::: ja\n書きかけ。\n:::\n\n::: en\nWork in progress.\n:::\n",
    );
    let report = crate::common::build_with(
        t.root(),
        kansoku::site::BuildOptions {
            search: false,
            ..Default::default()
        },
    )
    .expect("a draft never stops the build");
    assert_eq!(report.drafts, 1);
    assert!(
        report.summary().starts_with(&format!(
            "built {} pages × 2 languages (+ parallel view) · 1 draft left out · claims:",
            report.pages
        )),
        "{}",
        report.summary()
    );
    assert!(!t.exists("en/notes/idea/index.html"), "left out");
    assert!(!t.read("claims.json").contains("idea-first"));

    let report = crate::common::build_with(
        t.root(),
        kansoku::site::BuildOptions {
            search: false,
            drafts: true,
            ..Default::default()
        },
    )
    .expect("--drafts builds");
    assert_eq!(report.drafts, 0);
    let codes: Vec<(&str, String)> = report
        .warnings
        .iter()
        .filter(|d| d.location.path == "content/notes/idea.md")
        .map(|d| (d.code, d.location.to_string()))
        .collect();
    assert_eq!(
        codes,
        [
            ("E011", "content/notes/idea.md:6:6".to_owned()),
            ("E012", "content/notes/idea.md:16:13".to_owned())
        ],
        "missing evidence is a warning in a draft"
    );
    // Published with --drafts, its notice speaks to a reader, not to the
    // writer about kansoku's commands (issue 40, trial L8).
    let en = t.read("en/notes/idea/index.html");
    assert!(
        en.contains("<p class=\"draft-notice\" role=\"note\">Draft: this page is not final"),
        "{en}"
    );

    // A published page citing the draft's claim cannot be built without it.
    t.edit(
        "content/notes/page.md",
        "::: en\n",
        "::: en\n[[claim:idea-first]]\n",
    );
    let err = crate::common::build_with(
        t.root(),
        kansoku::site::BuildOptions {
            search: false,
            ..Default::default()
        },
    )
    .expect_err("refers to a draft");
    let text = err.to_string();
    assert!(
        text.contains("error[E020]: unknown claim `idea-first` in `[[claim:…]]`")
            && text.contains("= hint: it is on `content/notes/idea.md`, a draft this build leaves out: publish that page (remove `draft = true`), build with `--drafts`, or refer to it once it is published"),
        "{text}"
    );
}
