//! The record against the seeds, second audit (2026-11-28, issue 40): each
//! test pins one place where the site said more than, or other than, the
//! record, and names the seed lines (`000:11` = line 11 of seed 000 as
//! `cat -n` numbers it) it now follows. A child of [`super`], so it reads
//! the same shared build and the record's files through the same helpers.

use super::{
    built, cell_claim, class_of, content_files, elements, escape, evidence_file, front_matter,
    repo_root, LANGS,
};
use std::collections::{BTreeMap, BTreeSet};

/// `book.toml`, parsed.
fn book() -> toml::Table {
    std::fs::read_to_string(repo_root().join("book.toml"))
        .expect("book.toml")
        .parse()
        .expect("book.toml is TOML")
}

/// Each aspect's declared answers: key and its (ja, en) label.
fn vocabularies() -> BTreeMap<String, Vec<(String, String, String)>> {
    let book = book();
    book["aspects"]
        .as_table()
        .expect("[aspects]")
        .iter()
        .map(|(name, a)| {
            let answers = a
                .get("answers")
                .and_then(|x| x.as_array())
                .map(|list| {
                    list.iter()
                        .map(|x| {
                            (
                                x["key"].as_str().expect("key").to_owned(),
                                x["label"]["ja"].as_str().expect("ja").to_owned(),
                                x["label"]["en"].as_str().expect("en").to_owned(),
                            )
                        })
                        .collect()
                })
                .unwrap_or_default();
            (name.clone(), answers)
        })
        .collect()
}

/// The aspects `book.toml` marks as the record's own framing.
fn framing_aspects() -> BTreeSet<String> {
    book()["aspects"]
        .as_table()
        .expect("[aspects]")
        .iter()
        .filter(|(_, a)| a.get("framing").and_then(|f| f.as_bool()) == Some(true))
        .map(|(name, _)| name.clone())
        .collect()
}

/// Trial M3: rocBLAS's dispatch answer ("looked with ROCBLAS_LAYER=9, saw
/// the handle, no GEMM logged", 003:54, 83) and that of the components
/// nobody could look at (000:33-35, 001:68-70) are different answers, and
/// no answer reads like the empty cell's "not observed".
#[test]
fn issue_40_rocblas_looked_and_the_unobserved_components_answer_apart() {
    let s = built();
    let answer = |about: &str| {
        let c = cell_claim(s, about, "dispatched").expect("a dispatched cell");
        c.answer.as_ref().expect("an answer").key.clone()
    };
    let rocblas = answer("rocblas");
    for about in [
        "rocm-bundle",
        "hipblas",
        "hipblaslt",
        "tensile",
        "rocsolver",
    ] {
        assert_ne!(answer(about), rocblas, "{about} and rocBLAS answer alike");
    }
    let vocab = &vocabularies()["dispatched"];
    let label = |key: &str| vocab.iter().find(|a| a.0 == key).expect("declared");
    assert!(
        label(&rocblas).2.contains("handle"),
        "{:?}",
        label(&rocblas)
    );
    assert!(
        label(&rocblas).2.contains("no GEMM"),
        "{:?}",
        label(&rocblas)
    );
    for (aspect, answers) in vocabularies() {
        for (key, ja, en) in answers {
            // The search index's answers meta reads a comma as its separator.
            assert!(!en.contains(','), "{aspect}.{key}: {en}");
            assert_ne!(en, "Not observed", "{aspect}.{key}: the empty cell's word");
            assert_ne!(ja, "観測なし", "{aspect}.{key}: the empty cell's word");
        }
    }
}

/// M1: the record never says the phase proxy works as an observer. It is
/// an approximate inference of the dispatch zone, the last approach
/// standing (003:4-5, 12, 78).
#[test]
fn issue_40_m1_the_phase_proxy_is_indirect_and_approximate() {
    let c = built().claim("proxy-status");
    let answer = c.answer.as_ref().expect("an answer");
    assert_eq!(answer.key, "partial");
    assert_eq!(answer.label.en, "Indirect and approximate only");
    assert_eq!(answer.label.ja, "間接の近似のみ");
    assert!(
        c.cites("observers/phase-proxy.txt", 7),
        "approximate (003:78)"
    );
    assert!(
        c.cites("record/observers.txt", 5),
        "last approach standing (003:12)"
    );
    assert!(c.text.en.contains("approximates the dispatch zone"));
    assert!(c.text.ja.contains("近似的に推定するだけ"));
}

/// M3: the record's word for MIOpen's and MIGraphX's involvement is 未観測
/// (000:11, 24, 25); "not used" is its can-show table's parenthetical
/// (000:34), a deduction from their absence from the maps: inferred, from
/// the absence, citing both.
#[test]
fn issue_40_m3_not_dispatched_is_inferred_from_the_absence() {
    let s = built();
    for (key, role_line) in [("miopen", 22), ("migraphx", 24)] {
        let c = cell_claim(s, key, "dispatched").expect("a dispatched cell");
        assert_eq!(c.answer.as_ref().map(|a| a.key.as_str()), Some("no"));
        assert_eq!(c.class, "inferred", "{}", c.id);
        assert_eq!(c.from, [format!("{key}-absent")], "{}", c.id);
        for line in [5, role_line, 27] {
            assert!(c.cites("record/components.txt", line), "{}: L{line}", c.id);
        }
        assert!(c.text.ja.contains("「未観測」"), "{}", c.id);
        assert!(c.text.en.contains("\"not observed\""), "{}", c.id);
    }
}

/// M4: ROCBLAS_LAYER=9's answer and class do not contradict each other: the
/// record's verdict, "all fail" (003:4), confirmed; what it did show (the
/// handle, 003:54) in the text, and its page no longer argues for a class
/// the answer beside it denies.
#[test]
fn issue_40_m4_the_layer_answer_and_its_class_agree() {
    let s = built();
    let c = s.claim("layer-status");
    assert_eq!(c.answer.as_ref().map(|a| a.key.as_str()), Some("blocked"));
    assert_eq!(c.class, "confirmed");
    assert!(c.cites("record/observers.txt", 3), "003:4");
    assert!(c.text.en.contains("a handle created"));
    let en = s.text_of("en/observers/rocblas-layer/index.html");
    assert!(!en.contains("rather than a flat failure"));
    let ja = s.text_of("ja/observers/rocblas-layer/index.html");
    assert!(!ja.contains("状態を「制約あり」としている"));
}

/// M2, on the record's side: each aspect's setup names what its answers
/// rest on; the dispatched answers rest on the maps and on two observer
/// attempts (003:54, 003:73-78), the observer states carry their date
/// (003:23-24).
#[test]
fn issue_40_m2_each_setup_names_what_its_answers_rest_on() {
    let book = book();
    let setup = |aspect: &str, lang: &str| {
        book["aspects"][aspect]["setup"][lang]
            .as_str()
            .expect("a setup")
            .to_owned()
    };
    for part in ["/proc/maps", "ROCBLAS_LAYER=9", "phase proxy"] {
        assert!(setup("dispatched", "en").contains(part), "en: {part}");
        assert!(setup("dispatched", "ja").contains(part), "ja: {part}");
    }
    assert!(setup("state", "en").contains("2026-03-28"));
    assert!(setup("state", "ja").contains("2026-03-28"));
}

/// L1: ggml-hip's dispatched cell answers "was anything of it dispatched?"
/// with the record's inference (the MMVQ zone, execution on the GPU,
/// 003:71-78); "which bundle?" stays an open question of its own (002:63).
#[test]
fn issue_40_l1_ggml_hip_dispatch_is_the_phase_proxy_inference() {
    let s = built();
    let c = cell_claim(s, "ggml-hip", "dispatched").expect("a dispatched cell");
    assert_eq!(c.answer.as_ref().map(|a| a.key.as_str()), Some("yes"));
    assert_eq!(c.class, "inferred");
    assert!(
        c.from.iter().any(|f| f == "proxy-mmvq-zone"),
        "{:?}",
        c.from
    );
    assert!(
        c.cites("observers/phase-proxy.txt", 6),
        "executed on the GPU"
    );
    assert!(c.text.en.contains("approximate inference"));
    let bundle = s.claim("live-bundle-dispatch");
    assert_eq!(
        (bundle.about.as_deref(), bundle.class.as_str()),
        (None, "unresolved")
    );
}

/// L2: the record's framing (targets, next questions, statuses) is shown
/// "per record" with no class; the prose says so, not "classed confirmed".
#[test]
fn issue_40_l2_framing_prose_says_per_record() {
    let s = built();
    for page in ["en/observers/index.html", "en/generations/index.html"] {
        let text = s.text_of(page);
        assert!(
            !text.contains("and classed confirmed (the same rule"),
            "{page}"
        );
        let framing = "shown as the record's own framing";
        assert!(
            text.contains(framing) || text.contains(&escape(framing)),
            "{page}"
        );
    }
    for page in ["ja/observers/index.html", "ja/generations/index.html"] {
        let text = s.text_of(page);
        assert!(
            text.contains("クラスの印を付けずに「記録より」と示します"),
            "{page}"
        );
    }
}

/// L3, F16: a claim of a framing aspect is the record's own words, stored
/// confirmed; none is unresolved or limited, so none lands among the open
/// questions marked "per record" (003:44, 47, 54).
#[test]
fn issue_40_l3_framing_claims_are_stored_confirmed() {
    let framing = framing_aspects();
    assert!(framing.contains("next"), "{framing:?}");
    for c in built().claims.values() {
        if c.aspect.as_ref().is_some_and(|a| framing.contains(a)) {
            assert_eq!(c.class, "confirmed", "{}", c.id);
        }
    }
}

/// L4: the W002 reason is printed on every evidence page, the LLVM note's
/// included: it says the files taken from the record are transcripts.
#[test]
fn issue_40_l4_the_w002_reason_is_true_of_the_note() {
    let book = book();
    let accept = book["check"]["accept"]
        .as_array()
        .expect("[[check.accept]]")
        .iter()
        .find(|a| a["code"].as_str() == Some("W002"))
        .expect("W002 accepted");
    let en = accept["reason"]["en"].as_str().expect("en");
    assert!(!en.contains("every evidence file is a transcript"), "{en}");
    assert!(en.contains("the evidence files taken from the record are transcripts"));
    assert!(en.contains("note"), "{en}");
    let ja = accept["reason"]["ja"].as_str().expect("ja");
    assert!(!ja.contains("証拠ファイルはすべて"), "{ja}");
    assert!(
        ja.contains("記録から取った証拠ファイル") && ja.contains("注記"),
        "{ja}"
    );
}

/// L5 and L6: the leads of Tensile and MIOpen add nothing to the record
/// (000:22 the Cijk_* family; 000:11, 24 no timing of the maps read).
#[test]
fn issue_40_l5_l6_leads_say_what_the_record_says() {
    let lead = |rel: &str, lang: &str| {
        front_matter(rel)["lead"][lang]
            .as_str()
            .expect("a lead")
            .to_owned()
    };
    assert!(lead("components/tensile.md", "en").contains("gfx1201 Cijk_* kernel family"));
    assert!(lead("components/tensile.md", "ja").contains("gfx1201 向け Cijk_* kernel family"));
    assert!(!lead("components/miopen.md", "en").contains("During Ollama's LLM inference"));
    assert!(
        !lead("components/miopen.md", "ja").contains("LLM 推論では runner の maps に現れなかった")
    );
    assert!(lead("components/miopen.md", "en").contains("no involvement"));
}

/// L7: an English answer word stands for one Japanese word, site-wide (en
/// "Blocked" was both 使えない and ブロックされている).
#[test]
fn issue_40_l7_one_english_word_per_japanese_word() {
    let mut en_to_ja: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut ja_to_en: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (_, answers) in vocabularies() {
        for (_, ja, en) in answers {
            en_to_ja.entry(en.clone()).or_default().insert(ja.clone());
            ja_to_en.entry(ja).or_default().insert(en);
        }
    }
    for (en, ja) in &en_to_ja {
        assert_eq!(ja.len(), 1, "en {en:?} stands for {ja:?}");
    }
    for (ja, en) in &ja_to_en {
        assert_eq!(en.len(), 1, "ja {ja:?} stands for {en:?}");
    }
    assert_eq!(
        vocabularies()["state"]
            .iter()
            .find(|a| a.0 == "blocked")
            .map(|a| (a.1.as_str(), a.2.as_str())),
        Some(("機能しない", "Does not work")),
        "003:4, 8"
    );
}

/// L9: gfx1200 appears on the record's ggml-hip page beyond its table
/// (002:3, 7, 63); only gfx1100 is in the table alone (002:35).
#[test]
fn issue_40_l9_where_gfx1100_and_gfx1200_appear() {
    let s = built();
    let en = s.text_of("en/index.html");
    let said = "only in the ggml-hip page's table";
    assert!(!en.contains(said) && !en.contains(&escape(said)));
    assert!(en.contains("only on its ggml-hip page"));
    let ja = s.text_of("ja/index.html");
    assert!(
        ja.contains("ggml-hip のページにだけ現れる世代で(gfx1100 は .hip_fatbin target の表だけ)")
    );
}

/// F5, F6, F7, F12: prose that added to the record. gfx942: the record
/// raises only a separate build (002:38, 64; 004:28); IQ1_S: it does not
/// say whether anything was run (003:112-113); the bundles: "no
/// dispatch-safe observer" in this record, not "nobody" (002:63); the
/// machine "stops running" (003:19-20).
#[test]
fn issue_40_f5_f6_f7_f12_prose_adds_nothing() {
    let s = built();
    let page = |p: &str| s.text_of(p);
    assert!(
        !page("en/generations/gfx942/index.html").contains("a primary path that lies elsewhere")
    );
    assert!(!page("ja/generations/gfx942/index.html").contains("本命の経路が別のところにあるのか"));
    assert!(!page("en/observers/index.html").contains("not from a run"));
    assert!(!page("ja/observers/index.html").contains("実行して確かめたものではない"));
    assert!(!page("en/components/ggml-hip/index.html").contains("Nobody has yet seen"));
    assert!(!page("ja/components/ggml-hip/index.html").contains("まだ誰も"));
    for p in [
        "en/observers/index.html",
        "en/observers/rocprofv3-wrap/index.html",
    ] {
        let text = page(p);
        assert!(!text.contains("stops doing"), "{p}");
        assert!(text.contains("the machine itself stops running"), "{p}");
    }
}

/// F9: the wrap transcript's header says where each part of line 3 comes
/// from: "broke startup" from approach 2's look back (003:37, 39), "fell
/// back to CPU" from approach 1's reading and the can-show table (003:30,
/// 33, 81).
#[test]
fn issue_40_f9_the_wrap_header_gives_line_3_both_sources() {
    let (header, body) = evidence_file("observers/rocprofv3-wrap.txt");
    assert_eq!(
        body[2].split(" ‖ ").next(),
        Some("Result: wrapping from the start broke startup; the run fell back to CPU.")
    );
    let source = header["source"].as_str().expect("a source");
    assert!(source.contains("Line 3 gathers two places"), "{source}");
    assert!(source.contains("look back at approach 1"), "{source}");
    assert!(source.contains("fell back to the CPU"), "{source}");
}

/// F28: the evidence is read in Japanese too. Every line of every evidence
/// file gives its English, then " ‖ " and the same in Japanese (the
/// record's own words where it has them: the seeds alternate the two), and
/// each header says so.
#[test]
fn issue_40_f28_every_evidence_line_reads_in_both_languages() {
    let files = super::evidence_files();
    assert_eq!(files.len(), 20, "{files:?}");
    for rel in files {
        let (header, body) = evidence_file(&rel);
        let source = header["source"].as_str().expect("a source");
        assert!(
            source.contains("' ‖ '") && source.contains("Japanese"),
            "{rel}: {source}"
        );
        for (i, line) in body
            .iter()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
        {
            let (en, ja) = line
                .split_once(" ‖ ")
                .unwrap_or_else(|| panic!("{rel}#L{}: no Japanese: {line}", i + 1));
            assert!(!en.is_empty(), "{rel}#L{}", i + 1);
            assert!(
                ja.chars().any(|c| ('\u{3000}'..='\u{30ff}').contains(&c)
                    || ('\u{4e00}'..='\u{9fff}').contains(&c)),
                "{rel}#L{}: {ja}",
                i + 1
            );
            assert!(!ja.contains(" ‖ "), "{rel}#L{}: one separator", i + 1);
        }
    }
}

/// F11: the sequence the phase proxy's diagram shows ends in Flash, which
/// is no quantization format (003:77); the site does not call it one.
#[test]
fn issue_40_f11_the_diagram_sequence_is_not_called_quantization_formats() {
    let s = built();
    let c = s.claim("quant-order");
    assert!(!c.text.en.contains("quantization formats"), "{}", c.text.en);
    assert!(!c.text.ja.contains("量子化方式"), "{}", c.text.ja);
    assert!(!s
        .text_of("en/observers/index.html")
        .contains("lines up the quantization formats"));
    assert!(!s
        .text_of("ja/observers/index.html")
        .contains("量子化方式の並び"));
}

/// F13, F23: a cell's text does not open with a status word that repeats
/// its answer and badge, and does not turn the record's parenthetical
/// into a "so" (000:34). The record's own status column (000:15-25) is
/// kept, quoted as the record's.
#[test]
fn issue_40_f13_f23_cell_texts_do_not_repeat_their_answer() {
    let s = built();
    let openers_en = [
        "Not usable",
        "Does not work",
        "Load confirmed",
        "Load and",
        "Absent from",
        "ROCm Bundle: confirmed",
        "The one that remains",
    ];
    let openers_ja = [
        "使えない",
        "機能しない",
        "ロード確認",
        "ロード・",
        "maps に不在",
        "maps・",
        "残った唯一",
        "ROCm バンドル:確認済み",
    ];
    for c in s.claims.values().filter(|c| c.answer.is_some()) {
        for o in openers_en {
            assert!(!c.text.en.starts_with(o), "{}: {}", c.id, c.text.en);
        }
        for o in openers_ja {
            assert!(!c.text.ja.starts_with(o), "{}: {}", c.id, c.text.ja);
        }
    }
    assert!(!s
        .claim("miopen-absent")
        .text
        .en
        .contains("so it is not used"));
    let loaded = cell_claim(s, "hipblas", "loaded").expect("a loaded cell");
    assert!(loaded
        .text
        .ja
        .contains("記録の「Phase C 観測」欄は「ロード確認」"));
    assert!(loaded
        .text
        .en
        .contains("The record's \"Phase C status\" column: \"Load confirmed\""));
}

/// F14: what ran during the wrap's CPU fallback is unknown because the
/// observer changed the target (003:30, 81), not because of a tool's
/// limit (004:45-46): unresolved.
#[test]
fn issue_40_f14_the_cpu_run_is_unresolved() {
    assert_eq!(built().claim("wrap-cpu-run-unknown").class, "unresolved");
}

/// F18: gfx1201's status cites the status line alone.
#[test]
fn issue_40_f18_the_gfx1201_status_cites_its_line() {
    let c = built().claim("world-gfx1201-status");
    let ranges: Vec<_> = c
        .evidence
        .iter()
        .map(|e| (e.path.as_str(), e.lines))
        .collect();
    assert_eq!(ranges, [("record/home-worlds.txt", Some([22, 22]))]);
}

/// F19: an empty cell reads the same word in Japanese as the matrix's lead
/// and the scope notes (観測なし), and no answer uses that word.
#[test]
fn issue_40_f19_the_empty_cell_has_one_word() {
    let s = built();
    let ja = s.text_of("ja/generations/index.html");
    let empty: Vec<&str> = elements(&ja, "span")
        .into_iter()
        .filter(|e| class_of(e) == "not-observed")
        .collect();
    assert!(!empty.is_empty(), "the matrix has empty cells");
    for e in empty {
        assert!(e.contains(">観測なし<"), "{e}");
    }
    assert!(!ja.contains("未観測</span>"));
    let lead = front_matter("generations/_index.md")["lead"]["ja"]
        .as_str()
        .expect("lead")
        .to_owned();
    assert!(lead.contains("「観測なし」"), "{lead}");
}

/// F20: the record writes ml.NewBackend("ggml") (002:17), quotes included.
#[test]
fn issue_40_f20_the_backend_call_keeps_its_quotes() {
    let fm = front_matter("components/ggml-hip.md");
    let step = fm["entities"]
        .as_array()
        .expect("[[entities]]")
        .iter()
        .find(|e| e["key"].as_str() == Some("ml-newbackend"))
        .expect("the ml.NewBackend step");
    for lang in LANGS {
        assert_eq!(
            step["name"][lang].as_str(),
            Some("ml.NewBackend(\"ggml\")"),
            "{lang}"
        );
    }
}

/// F21: Japanese text puts a space between は and a library name, as the
/// other routes do.
#[test]
fn issue_40_f21_japanese_routes_keep_the_space() {
    for c in built().claims.values() {
        let ja = &c.text.ja;
        if let Some(i) = ja.find("依存経路は") {
            let next = ja[i + "依存経路は".len()..].chars().next();
            assert!(
                !next.is_some_and(|ch| ch.is_ascii_alphabetic()),
                "{}: {ja}",
                c.id
            );
        }
    }
}

/// F22: the phase proxy's state says "only" once (003:78).
#[test]
fn issue_40_f22_the_proxy_state_says_only_once() {
    let c = built().claim("proxy-status");
    let n = c.text.ja.matches("唯一").count() + c.text.ja.matches("ただ一つ").count();
    assert!(n <= 1, "{}", c.text.ja);
    assert!(c.text.en.matches("only").count() <= 1, "{}", c.text.en);
}

/// F24: 56 is the count of files, Kernels.so and TensileLibrary variants
/// together (001:61), not of Kernels.so.
#[test]
fn issue_40_f24_fifty_six_files_not_fifty_six_kernels_so() {
    let c = built().claim("tensile-gfx1201-hsaco");
    assert!(c
        .text
        .en
        .contains("56 gfx1201-targeted files (Kernels.so and TensileLibrary variants)"));
    assert!(c
        .text
        .ja
        .contains("ファイルが 56 本ある(Kernels.so と TensileLibrary の各 variant)"));
}

/// F26: the observers' targets say the record asked a question with an
/// approach, in English that parses.
#[test]
fn issue_40_f26_the_targets_read_as_english() {
    let s = built();
    for id in [
        "wrap-target",
        "attach-target",
        "layer-target",
        "proxy-target",
    ] {
        let en = &s.claim(id).text.en;
        assert!(!en.contains("the record set approach"), "{id}: {en}");
        assert!(
            en.starts_with("The question the record asked with approach"),
            "{id}: {en}"
        );
    }
}

/// F27: prose does not restate the claim it introduces.
#[test]
fn issue_40_f27_prose_does_not_restate_its_claim() {
    let s = built();
    for (page, words, id) in [
        (
            "en/observers/index.html",
            "source-side map from tensor type to dispatch family",
            "proxy-next",
        ),
        (
            "en/observers/phase-proxy/index.html",
            "number of matrix columns, ne11",
            "ne11-tracks-prompt-tokens",
        ),
    ] {
        let text = s.text_of(page);
        assert_eq!(
            text.matches(words).count(),
            text.matches(&format!("data-claim=\"{id}\"")).count(),
            "{page}: {words:?} only where {id} is shown"
        );
    }
}

/// F29: the observer cards' labels are the record's (003:25, 29).
#[test]
fn issue_40_f29_the_card_labels_are_the_records() {
    let s = built();
    for (lang, target, tells) in [
        ("ja", "観測ポイント", "ここから分かること"),
        ("en", "Observation target", "What it tells us"),
    ] {
        let page = s.text_of(&format!("{lang}/observers/index.html"));
        let terms: Vec<&str> = elements(&page, "dt").into_iter().collect();
        assert!(
            terms.iter().any(|t| t.contains(&format!(">{target}<"))),
            "{lang}"
        );
        assert!(
            terms
                .iter()
                .any(|t| t.contains(&format!(">{}<", escape(tells)))),
            "{lang}"
        );
        assert!(!terms.iter().any(|t| t.contains(">対象<")), "{lang}");
    }
}

/// Certainty says why: every unresolved or limited claim names the
/// observation that would settle it, in both languages, the Japanese in
/// Japanese punctuation (the seeds' next steps and cannot-show lines).
#[test]
fn issue_40_every_open_claim_says_what_would_settle_it() {
    let mut open = BTreeSet::new();
    for rel in content_files() {
        let fm = front_matter(&rel);
        let Some(claims) = fm.get("claims").and_then(|c| c.as_array()) else {
            continue;
        };
        for c in claims {
            let class = c["class"].as_str().expect("class");
            if !matches!(class, "unresolved" | "limited") {
                continue;
            }
            let id = c["id"].as_str().expect("id");
            let settle = c
                .get("settle")
                .unwrap_or_else(|| panic!("{rel}: {id} ({class}) has no settle"));
            let ja = settle["ja"].as_str().expect("settle.ja");
            let en = settle["en"].as_str().expect("settle.en");
            assert!(ja.ends_with('。') && !ja.contains(", "), "{id}: {ja}");
            assert!(en.ends_with('.') && en.is_ascii(), "{id}: {en}");
            // claims.json carries it as written.
            let built = built()
                .claim(id)
                .settle
                .as_ref()
                .expect("settle in claims.json");
            assert_eq!((built.ja.as_str(), built.en.as_str()), (ja, en), "{id}");
            open.insert(id.to_owned());
        }
    }
    let listed: BTreeSet<String> = built()
        .claims
        .values()
        .filter(|c| matches!(c.class.as_str(), "unresolved" | "limited"))
        .map(|c| c.id.clone())
        .collect();
    assert_eq!(open, listed);
    assert_eq!(open.len(), 25);
}
