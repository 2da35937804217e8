//! The record's main pages against its words (issue 4): the component hub
//! and its nine components, the twelve libraries of the bundle page, the
//! generation matrix, the observers in order, the open questions, and the
//! site checking with only the transcript warning.

use super::{
    assert_link_lands, built, class_of, entity, entity_name, front_matter, hrefs, linked_key,
    Claim, COMPONENTS, LANGS,
};
use crate::common::{elements, escape, repo_root, repo_site};
use std::collections::{BTreeMap, BTreeSet};

#[test]
fn hub_shows_the_nine_components_with_the_records_class() {
    let s = built();
    for lang in LANGS {
        let hub = s.text_of(&format!("{lang}/components/index.html"));
        let rows: Vec<&str> = elements(&hub, "tr")
            .into_iter()
            .filter(|r| class_of(r).contains("view-row"))
            .collect();
        let mut seen = BTreeSet::new();
        for row in &rows {
            let key = linked_key(row, lang, "components");
            assert!(seen.insert(key), "{lang}: {key} twice in the hub");
            let (_, record_words, class) = COMPONENTS
                .iter()
                .find(|c| c.0 == key)
                .unwrap_or_else(|| panic!("{lang}: the hub shows {key}, not in the record"));
            let (status, e) = entity(&format!("components/{key}.md"));
            let claim = s.claim(&status);
            assert_eq!(
                claim.class, *class,
                "{key}: status claim {status} should be {class} (the record says {record_words})"
            );
            // A row carries no class stripe (issue 26): its cells may be
            // known unequally well, and each cell says how well.
            assert_eq!(
                class_of(row),
                "view-row",
                "{lang}: hub row of {key} is striped by a class"
            );
            assert!(
                row.contains(&escape(&entity_name(&e, lang))),
                "{lang}: {key} name"
            );
            assert!(
                row.contains(&escape(claim.text.get(lang))),
                "{lang}: hub row of {key} lacks its status claim text"
            );
        }
        let expected: BTreeSet<&str> = COMPONENTS.iter().map(|c| c.0).collect();
        assert_eq!(seen, expected, "{lang}: components in the hub");
    }
}

/// The 12 libraries Phase C saw in the runner's maps.
const LIBRARIES: [&str; 12] = [
    "libggml-base.so.0.0.0",
    "libggml-hip.so",
    "libhipblas.so.2.3.60303",
    "librocblas.so.4.3.60303",
    "libhipblaslt.so.0.10.60303",
    "librocsolver.so.0.3.60303",
    "libamdhip64.so.6.3.60303",
    "libhsa-runtime64.so.1.14.60303",
    "libamd_comgr.so.2.8.60303",
    "librocprofiler-register.so.0.4.0",
    "libdrm.so.2.123.0",
    "libdrm_amdgpu.so.1.123.0",
];

/// Line numbers (after the header) of each library in the maps transcript.
fn maps_lines() -> BTreeMap<String, usize> {
    let text = std::fs::read_to_string(repo_root().join("evidence/phase-c/runner-maps.txt"))
        .expect("runner-maps.txt");
    let body = text
        .strip_prefix("+++\n")
        .and_then(|t| t.split_once("\n+++\n"))
        .expect("a header")
        .1;
    assert!(body.contains("Libraries seen in the runner's maps: 12."));
    body.lines()
        .enumerate()
        .filter(|(_, l)| l.starts_with("lib") && l.contains(" | load route: "))
        .map(|(i, l)| (l.split(" | ").next().expect("name").to_owned(), i + 1))
        .collect()
}

#[test]
fn bundle_page_lists_the_twelve_libraries_in_both_languages() {
    let s = built();
    let lines = maps_lines();
    let listed: BTreeSet<&str> = lines.keys().map(String::as_str).collect();
    assert_eq!(
        listed,
        LIBRARIES.into_iter().collect(),
        "the maps transcript"
    );
    let bundle = "content/components/rocm-bundle.md";
    for lang in LANGS {
        let page = s.text_of(&format!("{lang}/components/rocm-bundle/index.html"));
        let rows = elements(&page, "tr");
        for lib in LIBRARIES {
            let code = format!("<code>{lib}</code>");
            let row: Vec<&&str> = rows.iter().filter(|r| r.contains(&code)).collect();
            assert_eq!(row.len(), 1, "{lang}: rows naming {lib}");
            // The claims that restate this library's line of the maps.
            let line = lines[lib];
            let cites = format!("/{lang}/evidence/phase-c/runner-maps.txt/#L{line}");
            let about: Vec<&Claim> = s
                .claims
                .values()
                .filter(|c| c.page == bundle)
                .filter(|c| c.evidence.iter().any(|e| e.url.get(lang) == cites))
                .collect();
            assert!(
                !about.is_empty(),
                "{lang}: no claim cites {lib}'s line L{line}"
            );
            for c in about {
                assert!(
                    row[0].contains(&escape(c.text.get(lang))),
                    "{lang}: the row of {lib} lacks claim {} ({})",
                    c.id,
                    c.text.get(lang)
                );
            }
        }
    }
}

/// The generation matrix's rows, in order, and the names LLVM's AMDGPU
/// processor table gives them (issue 4).
const GENERATIONS: [(&str, &str); 5] = [
    ("gfx900", "GCN5"),
    ("gfx1100", "RDNA 3"),
    ("gfx1200", "RDNA 4"),
    ("gfx1201", "RDNA 4"),
    ("gfx942", "CDNA 3"),
];

#[test]
fn matrix_has_five_generations_and_confirmed_cells_land_on_evidence() {
    let s = built();
    let view = front_matter("generations/_index.md");
    let aspects: Vec<&str> = view["view"]["columns"]
        .as_array()
        .expect("[view] columns")
        .iter()
        .map(|c| c["aspect"].as_str().expect("aspect"))
        .collect();
    let mut confirmed = 0;
    for lang in LANGS {
        let page = s.text_of(&format!("{lang}/generations/index.html"));
        let table = elements(&page, "table")
            .into_iter()
            .find(|t| class_of(t).contains("view-table--matrix"))
            .expect("the matrix table");
        let body = elements(table, "tbody")[0];
        let rows = elements(body, "tr");
        let keys: Vec<&str> = rows
            .iter()
            .map(|r| linked_key(r, lang, "generations"))
            .collect();
        assert_eq!(keys, GENERATIONS.map(|g| g.0), "{lang}: matrix rows");
        for (row, (key, arch)) in rows.iter().zip(GENERATIONS) {
            let header = elements(row, "th")[0];
            assert!(
                header.contains(arch),
                "{lang}: {key} is not labelled {arch}: {header}"
            );
            let cells = elements(row, "td");
            assert_eq!(cells.len(), aspects.len(), "{lang}: cells of {key}");
            for (cell, aspect) in cells.iter().zip(&aspects) {
                let claim = s.claims.values().find(|c| {
                    c.about.as_deref() == Some(key) && c.aspect.as_deref() == Some(aspect)
                });
                let Some(claim) = claim else {
                    assert!(
                        class_of(cell).contains("cell--empty"),
                        "{lang}: {key} × {aspect} has no claim but shows {cell}"
                    );
                    continue;
                };
                let class = format!("cell--{}", claim.class);
                assert!(
                    class_of(cell).split(' ').any(|c| c == class),
                    "{lang}: {key} × {aspect} should be {class}: {cell}"
                );
                assert!(
                    cell.contains(&escape(claim.text.get(lang))),
                    "{lang}: {key} × {aspect}"
                );
                if claim.class != "confirmed" {
                    continue;
                }
                confirmed += 1;
                let links: Vec<&str> = hrefs(cell)
                    .into_iter()
                    .filter(|h| h.starts_with(&format!("/{lang}/evidence/")))
                    .collect();
                assert!(
                    !links.is_empty(),
                    "{lang}: confirmed {key} × {aspect} links no evidence"
                );
                for href in links {
                    assert!(
                        claim.evidence.iter().any(|e| e.url.get(lang) == href),
                        "{lang}: {key} × {aspect} links {href}, not the claim's evidence"
                    );
                    assert_link_lands(s.t, href);
                }
            }
        }
    }
    assert!(confirmed > 0, "no confirmed cell at all");
    for id in ["label-gfx1200-mismatch", "label-gfx942-mismatch"] {
        let c = s.claim(id);
        assert_eq!(
            (c.class.as_str(), c.page.as_str()),
            ("unresolved", "content/generations/_index.md"),
            "{id}"
        );
    }
}

/// What an observer's status claim says about it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verdict {
    /// Tried and failed: not a working observer.
    NotWorking,
    /// The one means that remains.
    Remains,
}

/// Reads the verdict the status claim states as its answer (issue 40: its
/// text no longer opens with a status word repeating the answer).
fn verdict(claim: &Claim) -> Verdict {
    match claim.answer.as_ref().map(|a| a.key.as_str()) {
        Some("blocked") => Verdict::NotWorking,
        Some("partial") => Verdict::Remains,
        other => panic!("{}: state answer {other:?}", claim.id),
    }
}

/// The four approaches, in the order the record tried them.
const OBSERVERS: [(&str, Verdict); 4] = [
    ("rocprofv3-wrap", Verdict::NotWorking),
    ("rocprofv3-attach", Verdict::NotWorking),
    ("rocblas-layer", Verdict::NotWorking),
    ("phase-proxy", Verdict::Remains),
];

#[test]
fn observers_in_order_and_only_the_phase_proxy_remains() {
    let s = built();
    for lang in LANGS {
        let page = s.text_of(&format!("{lang}/observers/index.html"));
        let cards: Vec<&str> = elements(&page, "li")
            .into_iter()
            .filter(|li| class_of(li).split(' ').any(|c| c == "observer-card"))
            .collect();
        let keys: Vec<&str> = cards
            .iter()
            .map(|c| linked_key(c, lang, "observers"))
            .collect();
        assert_eq!(keys, OBSERVERS.map(|o| o.0), "{lang}: observer order");
        for (card, (key, expected)) in cards.iter().zip(OBSERVERS) {
            let (status, e) = entity(&format!("observers/{key}.md"));
            let claim = s.claim(&status);
            assert_eq!(verdict(claim), expected, "{key}: {}", claim.text.en);
            assert!(
                card.contains(&escape(&entity_name(&e, lang))),
                "{lang}: {key} name"
            );
            // The card's edge says the observer's state, not its class
            // (issue 26): a blocked observer was drawn as a green box.
            let state = &claim
                .answer
                .as_ref()
                .expect("an observer's status states its state")
                .key;
            assert!(
                class_of(card)
                    .split(' ')
                    .any(|c| c == format!("observer-card--{state}")),
                "{lang}: card of {key} is not {state}"
            );
            let status_p = elements(card, "p")
                .into_iter()
                .find(|p| class_of(p).contains("observer-card__status"))
                .unwrap_or_else(|| panic!("{lang}: card of {key} has no status"));
            assert!(
                status_p.contains(&escape(claim.text.get(lang))),
                "{lang}: card of {key} does not state its status claim"
            );
        }
    }
    let remaining: Vec<&str> = OBSERVERS
        .iter()
        .filter(|o| o.1 == Verdict::Remains)
        .map(|o| o.0)
        .collect();
    assert_eq!(remaining, ["phase-proxy"]);
}

#[test]
fn open_questions_lists_every_unresolved_and_limited_claim() {
    let s = built();
    // Limited answers are open too (issue 26): rocBLAS's dispatch was missing.
    let unresolved: BTreeSet<&str> = s
        .claims
        .values()
        .filter(|c| c.class == "unresolved" || c.class == "limited")
        .map(|c| c.id.as_str())
        .collect();
    assert!(!unresolved.is_empty());
    for lang in LANGS {
        let page = s.text_of(&format!("{lang}/open-questions/index.html"));
        let mut listed = BTreeSet::new();
        for item in elements(&page, "li")
            .into_iter()
            .filter(|li| class_of(li).contains("claim-item"))
        {
            let href = hrefs(item)
                .into_iter()
                .find(|h| h.contains("#claim-"))
                .unwrap_or_else(|| panic!("{lang}: an item links no claim: {item}"));
            let id = href.split_once("#claim-").expect("anchor").1;
            let claim = s.claim(id);
            assert!(
                claim.class == "unresolved" || claim.class == "limited",
                "{lang}: {id} is listed"
            );
            assert!(
                item.contains(&escape(claim.text.get(lang))),
                "{lang}: {id} text"
            );
            assert_link_lands(s.t, href);
            assert!(listed.insert(id.to_owned()), "{lang}: {id} listed twice");
        }
        let listed: BTreeSet<&str> = listed.iter().map(String::as_str).collect();
        assert_eq!(listed, unresolved, "{lang}: open questions vs claims.json");
    }
}

#[test]
fn repo_checks_with_no_errors_and_only_the_transcript_warning() {
    let t = repo_site();
    let report = t.check();
    let human = kansoku::check::format(&report, kansoku::check::Format::Human);
    assert_eq!(report.errors(), 0, "{human}");
    assert_eq!(report.exit_code(), 0);
    let codes: BTreeSet<&str> = report.diagnostics.iter().map(|d| d.code).collect();
    assert!(
        codes.iter().all(|c| *c == "W002"),
        "codes other than W002: {codes:?}"
    );
}
