//! Claims in the built `basic` fixture: badge text and evidence links in
//! both languages, claim references inline in tables and lists, the cited
//! range marking exactly its lines, the evidence page, and `claims.json`.

use super::{basic, claims_json, page_file, resolve, s};
use crate::common;
use crate::common::{element_by_id, elements, escape, ftl};

#[test]
fn basic_every_claim_has_badge_text_and_evidence_link_in_both_languages() {
    let t = basic();
    let claims = claims_json(&t);
    assert_eq!(claims.len(), 4);
    for claim in &claims {
        let id = s(claim, "id");
        let class = s(claim, "class");
        for lang in ["ja", "en"] {
            let file = page_file(lang, "notes/page/");
            let html = t.read(&file);
            let anchor = format!("claim-{id}");
            let item = element_by_id(&html, &anchor)
                .unwrap_or_else(|| panic!("{file} has no element #{anchor}"));
            assert!(
                item.contains(&format!("badge--{class}")),
                "{file} #{anchor} has no badge--{class}: {item}"
            );
            let label = ftl(lang, &format!("class-{class}"), None);
            assert!(
                item.contains(&format!(">{label}<")),
                "{file} #{anchor} lacks the label {label:?}: {item}"
            );
            let text = escape(s(&claim["text"], lang));
            assert!(
                item.contains(&text),
                "{file} #{anchor} lacks its {lang} text {text:?}"
            );
            let other = escape(s(&claim["text"], if lang == "ja" { "en" } else { "ja" }));
            assert!(
                !item.contains(&other),
                "{file} #{anchor} shows the other language's text"
            );
            // Every evidence link of the claim is in the item and lands on an
            // existing evidence page holding the anchor.
            for ev in claim["evidence"].as_array().expect("evidence is a list") {
                let url = s(&ev["url"], lang);
                assert!(
                    url.starts_with(&format!("/{lang}/evidence/")),
                    "{url} is not in the {lang} tree"
                );
                assert!(
                    item.contains(&format!("href=\"{url}\"")),
                    "{file} #{anchor} does not link {url}"
                );
                let (target, frag) = resolve(url);
                assert!(t.exists(&target), "{url} -> {target} does not exist");
                if let Some(frag) = frag {
                    let page = t.read(&target);
                    assert!(
                        page.contains(&format!(" id=\"{frag}\"")),
                        "{target} has no id {frag}"
                    );
                }
            }
        }
        // The parallel view lists the claim once, with both texts.
        let par = t.read(&page_file("ja-en", "notes/page/"));
        let item = element_by_id(&par, &format!("claim-{id}"))
            .unwrap_or_else(|| panic!("ja-en lacks claim-{id}"));
        assert!(
            item.contains(&escape(s(&claim["text"], "ja")))
                && item.contains(&escape(s(&claim["text"], "en")))
        );
        assert!(item.contains(&format!("badge--{class}")));
    }
}

#[test]
fn basic_claim_references_render_inline_in_tables_and_lists() {
    let t = basic();
    for lang in ["ja", "en"] {
        let main = t.main_of(&page_file(lang, "notes/page/"));
        assert!(
            !main.contains("[[claim:"),
            "an unrendered claim reference is left in {lang}"
        );
        let text = |ja: &str, en: &str| escape(if lang == "ja" { ja } else { en });
        let started = text(
            "ランナーは 1 本のスレッドで起動した。",
            "The runner started with one thread.",
        );
        let fallback = text(
            "入力が小さいとランナーは分割しない。",
            "The runner does not split small inputs.",
        );
        let threshold = text(
            "分割が始まる入力サイズはまだ分からない。",
            "The input size at which splitting starts is not known yet.",
        );
        let trace = text(
            "ログには起動時の行しか残らない。",
            "The log keeps only the start-up lines.",
        );
        let intro = text(
            "ランナーを 4 スレッドの指定で動かした。",
            "The runner was run with 4 threads requested.",
        );

        // Inline, inside the paragraph that mentions it.
        let para = elements(&main, "p")
            .into_iter()
            .find(|p| p.contains(&intro))
            .expect("intro paragraph");
        assert!(
            para.contains(&started) && para.contains("badge--confirmed"),
            "inline claim missing: {para}"
        );

        // In the body's table (the first table; the scope table comes later).
        let table = elements(&main, "table")
            .into_iter()
            .next()
            .expect("body table");
        let cells = elements(table, "td");
        assert!(
            cells
                .iter()
                .any(|c| c.contains(&started) && c.contains("badge--confirmed")),
            "{table}"
        );
        assert!(
            cells
                .iter()
                .any(|c| c.contains(&fallback) && c.contains("badge--inferred")),
            "{table}"
        );

        // In list items of the body (not the page's claim list).
        let items: Vec<&str> = elements(&main, "li")
            .into_iter()
            .filter(|li| !li.contains("claim-item"))
            .collect();
        assert!(
            items
                .iter()
                .any(|li| li.contains(&threshold) && li.contains("badge--unresolved")),
            "{items:?}"
        );
        assert!(
            items
                .iter()
                .any(|li| li.contains(&trace) && li.contains("badge--limited")),
            "{items:?}"
        );
    }
}

#[test]
fn basic_cited_range_marks_exactly_lines_7_to_12() {
    let t = basic();
    for lang in ["ja", "en"] {
        let file = format!("{lang}/evidence/logs/run.log/index.html");
        let html = t.read(&file);
        // One element per line, L1..L16, and nothing past the end.
        for n in 1..=16 {
            assert!(
                html.contains(&format!(" id=\"L{n}\"")),
                "{file} lacks line L{n}"
            );
        }
        assert!(
            !html.contains(" id=\"L17\""),
            "{file} has a line past the end"
        );
        let line7 = element_by_id(&html, "L7").expect("line 7");
        assert!(
            line7.contains("line 7: threads requested: 4"),
            "line numbers count after the header: {line7}"
        );
        let line13 = element_by_id(&html, "L13").expect("line 13");
        assert!(line13.contains("line 13: warning"), "{line13}");

        // The range target sits on line 7 and nowhere else.
        assert_eq!(html.matches(" id=\"L7-L12\"").count(), 1, "{file}");
        assert!(
            line7.contains(" id=\"L7-L12\""),
            "the L7-L12 target is not inside line 7: {line7}"
        );

        // The head's CSS marks lines 7..=12 when #L7-L12 is targeted: the rule
        // naming #L7-L12 selects children n+7 through -n+12, i.e. not 13.
        let style = elements(&html, "style")
            .into_iter()
            .next()
            .unwrap_or_else(|| panic!("{file} has no <style>"));
        let head_end = html.find("</head>").expect("head");
        assert!(
            html.find("<style").expect("style") < head_end,
            "the range CSS is not in <head>"
        );
        let rules: Vec<&str> = style.lines().filter(|l| l.contains("#L7-L12")).collect();
        assert_eq!(rules.len(), 1, "one rule for L7-L12: {style}");
        let rule = rules[0];
        assert!(rule.contains(":target"), "{rule}");
        assert!(
            rule.contains(":nth-child(n+7)") && rule.contains(":nth-child(-n+12)"),
            "range must be lines 7..=12: {rule}"
        );
        assert!(!rule.contains("-n+13") && !rule.contains("n+6)"), "{rule}");
        // The only other cited range is L3-L4 (from `lines = "3-4"`); the
        // single-line link #L13 needs no rule.
        let targeted: Vec<&str> = style.lines().filter(|l| l.contains(":target")).collect();
        assert_eq!(targeted.len(), 2, "{style}");
        assert!(style.contains("#L3-L4:target"), "{style}");
        assert!(!style.contains("#L13"), "{style}");
    }
}

#[test]
fn basic_evidence_page_shows_header_cited_by_and_raw_copy() {
    let mut t = basic();
    let raw = std::fs::read(common::fixture("basic/evidence/logs/run.log")).expect("fixture log");
    assert_eq!(
        std::fs::read(t.out_path("evidence/logs/run.log")).expect("raw copy"),
        raw,
        "raw evidence bytes"
    );
    for lang in ["ja", "en"] {
        let file = format!("{lang}/evidence/logs/run.log/index.html");
        t.assert_file_contains(&file, "./runner --threads 4 numbers.txt")
            .assert_file_contains(&file, "test-host")
            .assert_file_contains(&file, "href=\"/evidence/logs/run.log\"");
        // Cited by all four claims, each linking back to its page anchor.
        for id in [
            "runner-started",
            "runner-fallback",
            "runner-threshold",
            "runner-trace",
        ] {
            t.assert_file_contains(&file, &format!("href=\"/{lang}/notes/page/#claim-{id}\""));
        }
        t.assert_file_contains(
            &format!("{lang}/evidence/index.html"),
            &format!("href=\"/{lang}/evidence/logs/run.log/\""),
        );
    }
}

#[test]
fn basic_claims_json_lists_every_claim() {
    let t = basic();
    let claims = claims_json(&t);
    let got: Vec<(&str, &str, &str)> = claims
        .iter()
        .map(|c| (s(c, "id"), s(c, "class"), s(c, "page")))
        .collect();
    let page = "content/notes/page.md";
    assert_eq!(
        got,
        [
            ("runner-started", "confirmed", page),
            ("runner-fallback", "inferred", page),
            ("runner-threshold", "unresolved", page),
            ("runner-trace", "limited", page)
        ]
    );
    let started = &claims[0];
    assert_eq!(
        s(&started["text"], "ja"),
        "ランナーは 1 本のスレッドで起動した。"
    );
    assert_eq!(
        s(&started["text"], "en"),
        "The runner started with one thread."
    );
    assert_eq!(started["evidence"][0]["path"], "logs/run.log");
    assert_eq!(started["evidence"][0]["lines"], serde_json::json!([7, 12]));
    assert_eq!(
        s(&started["url"], "en"),
        "/en/notes/page/#claim-runner-started"
    );
    assert_eq!(claims[1]["from"], serde_json::json!(["runner-started"]));
    assert_eq!(claims[2]["evidence"][0]["quote"], "input: numbers.txt");
    assert_eq!(claims[3]["evidence"][0]["lines"], serde_json::Value::Null);
}
