//! The record exact to the seeds (issue 26): each test pins one place
//! where the site said more than, or other than, the record (via routes,
//! the home page's worlds, Tensile, the bounded fatbin scan, the Japanese
//! wording of NEEDED, the legend, LLVM's names, the gfx1201 fallback).

use super::{
    built, cell_claim, class_of, declared, entity, evidence_file, evidence_files, front_matter,
    Declared, Site, LANGS,
};
use crate::common::{elements, escape};
use std::collections::BTreeSet;

/// A library's load route in the words of the record's Phase C table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Route {
    /// "NEEDED by X": X lists it as NEEDED, a direct dependency.
    Needed,
    /// "referenced by X" (rocblas/library/).
    Referenced,
    /// "via X": the record does not say it is NEEDED by X.
    Via,
    /// "direct".
    Direct,
}

/// Each library row of the bundle page: its name, its route (read from its
/// load-route claim) and the name of the library the route names.
fn library_routes(s: &Site) -> Vec<(String, Route, Option<String>)> {
    let entities = declared();
    let libraries: Vec<&Declared> = entities
        .iter()
        .filter(|(_, e)| e.kind == "library")
        .map(|(_, e)| e)
        .collect();
    libraries
        .iter()
        .map(|e| {
            let claim = cell_claim(s, &e.key, "load-route")
                .unwrap_or_else(|| panic!("{} has no load route", e.key));
            let route = claim
                .text
                .en
                .split_once("load route: ")
                .unwrap_or_else(|| panic!("{}: {}", claim.id, claim.text.en))
                .1
                .trim_end_matches('.');
            let (kind, named) = if let Some(x) = route.strip_prefix("NEEDED by ") {
                (Route::Needed, Some(x))
            } else if let Some(x) = route.strip_prefix("referenced by ") {
                (Route::Referenced, Some(x))
            } else if let Some(x) = route.strip_prefix("via ") {
                (Route::Via, Some(x))
            } else {
                assert!(route.starts_with("direct"), "{}: {route}", claim.id);
                (Route::Direct, None)
            };
            // The record names a library by its soname ("librocblas.so.4").
            let named = named.map(|x| {
                libraries
                    .iter()
                    .find(|d| d.name.en == x || d.name.en.starts_with(&format!("{x}.")))
                    .unwrap_or_else(|| panic!("{}: {x} is not a library of the page", claim.id))
                    .name
                    .en
                    .clone()
            });
            (e.name.en.clone(), kind, named)
        })
        .collect()
}

/// The label of an evidence class in `lang` (templates/i18n).
fn class_label(class: &str, lang: &str) -> &'static str {
    match (class, lang) {
        ("confirmed", "ja") => "確認済み",
        ("confirmed", _) => "Confirmed",
        ("inferred", "ja") => "推論",
        ("inferred", _) => "Inferred",
        ("unresolved", "ja") => "未確定",
        ("unresolved", _) => "Unresolved",
        (_, "ja") => "制約あり",
        _ => "Limited",
    }
}

/// Seed 001 lines 50-59: five libraries come "via libamdhip64.so.6", which
/// the record does not state as direct; "NEEDED by" is the direct relation.
/// The entities depend only on their direct relations, which the generated
/// graph draws; the via routes are drawn apart, dashed and labelled (the
/// generated graph has one edge style); and the text reports no
/// disagreement with the record's BLAS → HIP → HSA → DRM.
#[test]
fn issue_26_via_routes_are_drawn_apart_from_needed_ones() {
    let s = built();
    let routes = library_routes(s);
    let via: Vec<&str> = routes
        .iter()
        .filter(|r| r.1 == Route::Via)
        .map(|r| r.0.as_str())
        .collect();
    assert_eq!(
        via,
        [
            "libhsa-runtime64.so.1.14.60303",
            "libamd_comgr.so.2.8.60303",
            "librocprofiler-register.so.0.4.0",
            "libdrm.so.2.123.0",
            "libdrm_amdgpu.so.1.123.0",
        ],
        "the record's via rows"
    );
    let entities = declared();
    let name_of = |key: &str| -> String {
        entities
            .iter()
            .find(|(_, e)| e.kind == "library" && e.key == key)
            .expect("a library")
            .1
            .name
            .en
            .clone()
    };
    for (_, e) in entities.iter().filter(|(_, e)| e.kind == "library") {
        let mut deps: Vec<String> = e.depends_on.iter().map(|k| name_of(k)).collect();
        deps.sort();
        let mut direct: Vec<String> = routes
            .iter()
            .filter(|r| matches!(r.1, Route::Needed | Route::Referenced))
            .filter(|r| r.2.as_deref() == Some(e.name.en.as_str()))
            .map(|r| r.0.clone())
            .collect();
        direct.sort();
        assert_eq!(
            deps, direct,
            "{}: depends-on is its direct relations",
            e.key
        );
    }
    let status_class = |name: &str| -> String {
        let (_, e) = entities
            .iter()
            .find(|(_, e)| e.kind == "library" && e.name.en == name)
            .unwrap_or_else(|| panic!("no library {name}"));
        s.claim(e.status.as_deref().expect("a status"))
            .class
            .clone()
    };
    // Every edge a figure draws: (from, to, dashed), in the order of its
    // accessible name ("A [class] → B [class]; …"), which is the order of
    // its paths; each node names the class of its library's route claim.
    let drawn = |figure: &str, lang: &str| -> Vec<(String, String, bool)> {
        let label = figure
            .split_once("aria-label=\"")
            .and_then(|(_, r)| r.split_once('"'))
            .expect("an accessible name")
            .0;
        let node = |n: &str| -> String {
            let (name, class) = n
                .rsplit_once(" [")
                .unwrap_or_else(|| panic!("{lang}: node {n} names no class"));
            assert_eq!(
                class.trim_end_matches(']'),
                class_label(&status_class(name), lang),
                "{lang}: the class of {name}"
            );
            name.to_owned()
        };
        let edges: Vec<(String, String)> = label
            .split("; ")
            .flat_map(|chain| {
                let nodes: Vec<String> = chain.split(" → ").map(node).collect();
                nodes
                    .windows(2)
                    .map(|w| (w[0].clone(), w[1].clone()))
                    .collect::<Vec<_>>()
            })
            .collect();
        let paths: Vec<&str> = figure
            .match_indices("<path ")
            .map(|(i, _)| &figure[i..i + figure[i..].find('>').expect("closed")])
            .filter(|p| p.contains("marker-end"))
            .collect();
        assert_eq!(paths.len(), edges.len(), "{lang}: one path per edge");
        edges
            .into_iter()
            .zip(paths)
            .map(|((from, to), path)| (from, to, path.contains("stroke-dasharray")))
            .collect()
    };
    let expected = |kinds: &[Route]| -> BTreeSet<(String, String, bool)> {
        routes
            .iter()
            .filter(|r| kinds.contains(&r.1))
            .map(|r| {
                (
                    r.2.clone().expect("a named library"),
                    r.0.clone(),
                    r.1 == Route::Via,
                )
            })
            .collect()
    };
    for lang in LANGS {
        let html =
            s.t.main_of(&format!("{lang}/components/rocm-bundle/index.html"));
        let figures: Vec<&str> = html
            .match_indices("<figure class=\"diagram")
            .map(|(at, _)| &html[at..at + html[at..].find("</figure>").expect("closed")])
            .collect();
        let (generated, drawn_apart): (Vec<&str>, Vec<&str>) = figures
            .into_iter()
            .partition(|f| f.contains(&format!("id=\"graph-libraries-{lang}\"")));
        // The generated graph (issue 17): the direct relations only, solid.
        assert_eq!(generated.len(), 1, "{lang}: the generated graph");
        assert_eq!(
            drawn(generated[0], lang)
                .into_iter()
                .collect::<BTreeSet<_>>(),
            expected(&[Route::Needed, Route::Referenced]),
            "{lang}: the generated graph draws the NEEDED by / referenced by routes"
        );
        // The via routes, drawn apart: dashed, each labelled via.
        assert_eq!(drawn_apart.len(), 1, "{lang}: the graph of the via routes");
        assert_eq!(
            drawn(drawn_apart[0], lang)
                .into_iter()
                .collect::<BTreeSet<_>>(),
            expected(&[Route::Via]),
            "{lang}: the via graph draws the via routes, dashed"
        );
        let word = if lang == "ja" { "経由" } else { "via" };
        assert_eq!(
            drawn_apart[0].matches(&format!(">{word}</tspan>")).count(),
            via.len(),
            "{lang}: every via edge is labelled {word}"
        );
        // The text no longer reports a disagreement the record does not have.
        let text = s.text_of(&format!("{lang}/components/rocm-bundle/index.html"));
        for invented in [
            "hang directly off",
            "直接ぶら下が",
            "no arrow runs between HSA and DRM",
        ] {
            assert!(!text.contains(invented), "{lang}: {invented}");
        }
        let says = if lang == "ja" {
            "記録はこれらを libamdhip64.so.6 の NEEDED とは書いておらず"
        } else {
            "the record does not say they are NEEDED by libamdhip64.so.6"
        };
        assert!(text.contains(says), "{lang}: the via routes are explained");
    }
}

/// Each observation world's observation clause in the record's home table
/// (seed 004 lines 22, 25, 28): the world claim's words in ja and en, and
/// the line of the home-page transcript it cites.
const WORLD_CLAUSES: [(&str, &str, &str, usize); 3] = [
    (
        "gfx900",
        "rocprofv3 が有効で、直接観測できる世代",
        "Direct observation via rocprofv3 is available",
        14,
    ),
    (
        "gfx1201",
        "phase proxy による間接観測が唯一の現実的な手段",
        "indirect observation through the phase proxy is the only viable approach",
        20,
    ),
    (
        "gfx942",
        "直接観測環境の整備が先行課題",
        "Setting up direct observation is the prerequisite",
        27,
    ),
];

#[test]
fn issue_26_home_worlds_keep_each_worlds_observation_clause() {
    let s = built();
    for (key, ja, en, line) in WORLD_CLAUSES {
        let world =
            cell_claim(s, key, "world").unwrap_or_else(|| panic!("{key} has no world claim"));
        assert!(
            world.cites("record/home-worlds.txt", line),
            "{}: cites L{line}",
            world.id
        );
        for (lang, clause) in [("ja", ja), ("en", en)] {
            assert!(
                world.text.get(lang).contains(clause),
                "{lang}: {} lacks {clause:?}",
                world.id
            );
            let home = s.text_of(&format!("{lang}/index.html"));
            let view = elements(&home, "div")
                .into_iter()
                .find(|d| class_of(d).contains("view--home"))
                .expect("the worlds view");
            let row = elements(view, "tr")
                .into_iter()
                .find(|r| r.contains(&format!("href=\"/{lang}/generations/{key}/\"")))
                .unwrap_or_else(|| panic!("{lang}: no home row for {key}"));
            assert!(
                row.contains(&escape(world.text.get(lang))),
                "{lang}: the home row of {key} shows its world claim"
            );
        }
    }
}

/// `world-gfx1201-phase-proxy-only` is a cell of the generation matrix and
/// a premise of the gfx1201 world claim, not a claim no view shows.
#[test]
fn issue_26_phase_proxy_only_claim_has_its_place() {
    let s = built();
    let c = s.claim("world-gfx1201-phase-proxy-only");
    assert_eq!(c.about.as_deref(), Some("gfx1201"));
    let aspect = c.aspect.as_deref().expect("an aspect");
    let columns = front_matter("generations/_index.md");
    assert!(
        columns["view"]["columns"]
            .as_array()
            .expect("[view] columns")
            .iter()
            .any(|col| col["aspect"].as_str() == Some(aspect)),
        "{aspect} is a column of the matrix"
    );
    assert!(s
        .claim("world-gfx1201")
        .from
        .iter()
        .any(|f| f == "world-gfx1201-phase-proxy-only"));
    for lang in LANGS {
        let page = s.text_of(&format!("{lang}/generations/index.html"));
        let row = elements(&page, "tr")
            .into_iter()
            .find(|r| r.contains(&format!("href=\"/{lang}/generations/gfx1201/\"")))
            .expect("the gfx1201 row");
        assert!(row.contains(&escape(c.text.get(lang))), "{lang}: the cell");
    }
}

/// Seed 000 line 22 and seed 001 line 70: Tensile's status is file presence
/// (gfx1201 hsaco), not a load; that it is a build-time generator is its
/// role; whether the kernels it generated ran is unresolved.
#[test]
fn issue_26_tensile_cells_say_presence_role_and_open_dispatch() {
    let s = built();
    let (status, _) = entity("components/tensile.md");
    let loaded = s.claim(&status);
    assert_eq!(
        (loaded.aspect.as_deref(), loaded.class.as_str()),
        (Some("loaded"), "confirmed")
    );
    assert!(loaded
        .text
        .en
        .contains("the files are present, not an observation of them being loaded"));
    assert!(loaded
        .text
        .ja
        .contains("ファイルがあることで、ロードを観測したものではない"));
    let dispatched = cell_claim(s, "tensile", "dispatched").expect("a dispatched cell");
    assert_eq!(dispatched.class, "unresolved");
    assert!(
        dispatched.cites("record/rocm-bundle.txt", 14),
        "the 56 files in a live run"
    );
    let role = cell_claim(s, "tensile", "role").expect("a role cell");
    assert!(role.text.en.contains("not directly involved at runtime"));
    assert!(role.text.ja.contains("runtime には直接関与しない"));
    assert_eq!(
        s.claim("tensile-build-time").aspect,
        None,
        "not a dispatch cell"
    );
}

/// Seed 002 line 65: the scan was bounded. The transcript does not say a
/// whole 587 MiB section was scanned, and the Phase D claim says bounded.
#[test]
fn issue_26_fatbin_transcript_and_phase_d_say_the_scan_was_bounded() {
    let (_, body) = evidence_file("phase-d/fatbin-targets.txt");
    assert!(!body.iter().any(|l| l.contains("Section scanned")));
    // Each line is the English, then " ‖ " and the Japanese (issue 40, F28).
    let en = |i: usize| body[i].split(" ‖ ").next().expect("a line");
    assert_eq!(en(1), "libggml-hip.so's .hip_fatbin: 587 MiB.");
    assert_eq!(
        en(18),
        "The .hip_fatbin scan was bounded; additional clusters may remain in later sections."
    );
    let c = built().claim("phase-d-fatbin-scan");
    assert!(c.cites("phase-d/fatbin-targets.txt", 19));
    assert!(c.text.en.contains("the record calls the scan bounded"));
    assert!(c.text.ja.contains("範囲を区切ったもの"));
    assert!(!c.text.en.contains("587 MiB") && !c.text.ja.contains("587 MiB"));
}

/// Seed 000 lines 3-9: "involved in inference" and "in /proc/maps" are the
/// two things the component hub keeps apart; the claim says each in the
/// record's words.
#[test]
fn issue_26_subset_claim_keeps_involved_apart_from_loaded() {
    let c = built().claim("only-a-subset-loaded");
    assert_eq!(
        c.text.en,
        "ROCm includes many components, but only a subset is involved in Ollama LLM inference. \
         Phase C's /proc/maps check found some components not loaded at all, and others loaded \
         but with uncertain dispatch status."
    );
    assert_eq!(
        c.text.ja,
        "ROCm には多数のコンポーネントがあるが、Ollama での LLM 推論に関与するのはその一部だ。\
         Phase C で /proc/maps を確認したところ、ロードされていないコンポーネントもあれば、\
         ロードはされているが dispatch されたかが不明なコンポーネントもある。"
    );
    assert!(c.cites("record/components.txt", 1) && c.cites("record/components.txt", 3));
}

/// "NEEDED by X" reads in Japanese as "X の NEEDED に載る"; "X が NEEDED"
/// would say that X needs it.
#[test]
fn issue_26_japanese_routes_say_needed_by_not_needs() {
    let s = built();
    let mut seen = BTreeSet::new();
    for c in s.claims.values() {
        let Some((_, rest)) = c.text.en.split_once("NEEDED by ") else {
            continue;
        };
        let by: String = rest
            .chars()
            .take_while(|ch| !matches!(ch, ')' | ' '))
            .collect();
        let by = by.trim_end_matches('.');
        assert!(
            c.text.ja.contains(&format!("{by} の NEEDED に載る")),
            "{}: {}",
            c.id,
            c.text.ja
        );
        assert!(!c.text.ja.contains(&format!("{by} が NEEDED")), "{}", c.id);
        seen.insert(c.id.as_str());
    }
    assert_eq!(
        seen.len(),
        8,
        "five load routes and three loaded cells: {seen:?}"
    );
}

/// Seed 004 line 43: the record's meaning of confirmed is 実機コマンド (a
/// command on the real machine), in the legend of every Japanese page.
#[test]
fn issue_26_legend_gives_the_records_meaning_of_confirmed() {
    let page = built().t.read("ja/index.html");
    assert!(page.contains("直接観測した(実機コマンド、ログ、逆アセンブリ)"));
    assert!(!page.contains("実行中のコマンド"));
}

/// The record's account of its own investigation (its status, the questions
/// it asked, why it proceeds by layers) is filed as stated by the record:
/// confirmed, resting on no inference (content/observers/_index.md).
#[test]
fn issue_26_the_records_account_of_itself_is_confirmed() {
    let s = built();
    for id in [
        "phases-multilayer",
        "c14-multilayer",
        "world-gfx900-status",
        "world-gfx1201-status",
        "world-gfx942-status",
        "wrap-target",
        "attach-target",
        "layer-target",
        "proxy-target",
    ] {
        let c = s.claim(id);
        assert_eq!(c.class, "confirmed", "{id}");
        assert!(
            c.from.is_empty(),
            "{id} rests on the record, not on premises"
        );
    }
}

/// The one outside fact the site uses: LLVM's names for gfx1200 (RDNA 4)
/// and gfx942 (CDNA 3), in a note of its own that only the two label
/// questions cite; every other evidence file is a transcript of the record.
#[test]
fn issue_26_llvm_names_rest_on_a_note_with_only_those_names() {
    let note = "outside/llvm-amdgpu-processors.txt";
    let (header, body) = evidence_file(note);
    assert_eq!(header["kind"].as_str(), Some("note"));
    assert!(header["source"]
        .as_str()
        .expect("a source")
        .contains("AMDGPUUsage"));
    let names: Vec<&str> = body
        .iter()
        .filter(|l| l.starts_with("gfx"))
        .map(String::as_str)
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
    assert!(names[0].starts_with("gfx1200: RDNA 4 "), "{}", names[0]);
    assert!(names[1].starts_with("gfx942: CDNA 3 "), "{}", names[1]);
    let s = built();
    assert!(s.claim("label-gfx1200-mismatch").cites(note, 2));
    assert!(s.claim("label-gfx942-mismatch").cites(note, 3));
    let citing: BTreeSet<&str> = s
        .claims
        .values()
        .filter(|c| c.evidence.iter().any(|e| e.path == note))
        .map(|c| c.id.as_str())
        .collect();
    assert_eq!(
        citing,
        BTreeSet::from(["label-gfx1200-mismatch", "label-gfx942-mismatch"])
    );
    for rel in evidence_files().into_iter().filter(|r| r != note) {
        let (header, _) = evidence_file(&rel);
        assert_eq!(header["kind"].as_str(), Some("transcript"), "{rel}");
    }
}

/// Seed 004 line 52 says the content is grounded in the observation record;
/// the site holds transcripts of it, not the raw logs.
#[test]
fn issue_26_home_says_grounded_in_the_record_restated_as_transcripts() {
    let s = built();
    let en = s.text_of("en/index.html");
    assert!(!en.contains("observation logs"));
    assert!(en.contains("grounded in the observation record"));
    assert!(en.contains("the evidence files taken from the record are transcripts"));
    let ja = s.text_of("ja/index.html");
    assert!(ja.contains("観測記録に基づいています"));
    assert!(ja.contains("書き写した転記です"));
}

/// Seed 003: wrapping made the run fall back to the CPU; the gfx1201 page
/// says that, not that the whole run was sent there.
#[test]
fn issue_26_gfx1201_page_says_the_run_fell_back() {
    let en = built().text_of("en/generations/gfx1201/index.html");
    assert!(en.contains("launching under rocprofv3 made the run fall back to the CPU"));
    assert!(!en.contains("whole run"));
}
