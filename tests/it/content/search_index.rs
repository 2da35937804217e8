//! The record in the search index (issue 6; the index's own properties
//! are in search.rs): Japanese compound terms on their pages, and evidence
//! logs indexed by their lines without line anchors.

use super::LANGS;
use crate::common::repo_built;
use crate::search::{fragments, searchable_pages};
use std::collections::BTreeSet;

/// Japanese compound terms of the site (kanji and katakana) are indexed
/// whole in the text of the pages that use them, so an exact-phrase match
/// and the search box's verbatim re-ranking can find them.
#[test]
fn japanese_compounds_reach_the_index_on_their_pages() {
    let t = repo_built();
    let frags = fragments(t);
    for (term, page) in [
        ("逆アセンブリ", "/ja/components/ggml-hip/"),
        ("量子化", "/ja/components/ggml-hip/"),
        ("量子化", "/ja/observers/"),
        ("線形代数", "/ja/components/rocm-bundle/"),
        ("環境変数", "/ja/observers/rocblas-layer/"),
        ("バッチサイズ", "/ja/"),
    ] {
        let f = frags
            .iter()
            .find(|f| f.lang == "ja" && f.url == page)
            .unwrap_or_else(|| panic!("{page} indexed"));
        assert!(
            f.text().contains(term),
            "{term} in the indexed text of {page}"
        );
    }
    // From search.rs: the record's pages are in each language's index.
    for lang in LANGS {
        let pages = searchable_pages(t, lang).len();
        assert!(pages > 20, "{lang}: the repo site has more than 20 pages");
        let indexed: BTreeSet<&str> = frags
            .iter()
            .filter(|f| f.lang == lang)
            .map(|f| f.url.as_str())
            .collect();
        assert!(indexed.contains(format!("/{lang}/components/ggml-hip/").as_str()));
        assert!(
            indexed.contains(format!("/{lang}/evidence/phase-c/runner-maps.txt/").as_str()),
            "evidence logs are searchable too"
        );
    }
}

/// An evidence log is found by its lines, but its lines are not anchors:
/// the search box uses anchors only to trace matches to claims, and each
/// one would add a marker to the index and a copy of its line to the
/// fragment (every log line has an id for links).
#[test]
fn evidence_logs_are_indexed_by_their_lines_without_line_anchors() {
    let t = repo_built();
    let frags = fragments(t);
    let raw = t.read("evidence/phase-c/runner-maps.txt");
    // The last line of words (the file opens with its provenance header).
    let line = raw
        .lines()
        .rfind(|l| l.split_whitespace().count() > 3)
        .expect("the log has a line of words");
    for lang in ["ja", "en"] {
        let url = format!("/{lang}/evidence/phase-c/runner-maps.txt/");
        let f = frags
            .iter()
            .find(|f| f.lang == lang && f.url == url)
            .unwrap_or_else(|| panic!("{url} indexed"));
        let indexed: String = f.text().split_whitespace().collect();
        let words: String = line.split_whitespace().collect();
        assert!(indexed.contains(&words), "{url}: {line:?} is indexed");
        assert!(
            !f.anchors.iter().any(|a| a.id.starts_with('L')),
            "{url}: no anchor per log line"
        );
    }
}
