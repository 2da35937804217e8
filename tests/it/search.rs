//! Search (issue 6), the Rust side: what goes into the Pagefind bundles that
//! `build` writes under `public/ja/pagefind/` and `public/en/pagefind/`.
//!
//! Pagefind answers queries in WebAssembly in the browser, so the queries
//! themselves (Japanese compounds included) are asserted by
//! `tests/browser/search.test.js`. Here, from the bundles' own files: one
//! index per language; the reader-language pages and nothing else; every
//! claim findable in both languages (its anchor, text and id in its page's
//! indexed text, its class in `kansoku-claims.json`); no theme chrome in the
//! indexed text; the same bytes on every build; and the stage working when
//! called from inside a tokio runtime, as `serve` might.
//!
//! The site is the run's shared build of the repository's own site, read
//! only for what holds whatever the record says; which of the record's
//! pages and terms reach the index is asserted in content.rs.

use crate::common;

use common::{repo_built, repo_site, SiteTest, Tree};
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};
use std::io::Read;

#[derive(Debug, Deserialize)]
struct Entry {
    languages: BTreeMap<String, EntryLang>,
}

#[derive(Debug, Deserialize)]
struct EntryLang {
    page_count: usize,
}

/// One decoded `.pf_fragment`: a page.
#[derive(Debug, Deserialize)]
pub(crate) struct Fragment {
    pub(crate) url: String,
    content: String,
    #[serde(default)]
    meta: BTreeMap<String, String>,
    #[serde(default)]
    pub(crate) anchors: Vec<Anchor>,
    #[serde(skip)]
    pub(crate) lang: String,
}

#[derive(Debug, Deserialize)]
pub(crate) struct Anchor {
    element: String,
    pub(crate) id: String,
}

impl Fragment {
    /// The indexed text without the zero-width spaces Pagefind puts
    /// between the segments of Japanese words.
    pub(crate) fn text(&self) -> String {
        self.content.replace('\u{200B}', "")
    }
}

#[derive(Debug, Deserialize)]
struct Bi {
    ja: String,
    en: String,
}

#[derive(Debug, Deserialize)]
struct Claim {
    id: String,
    class: String,
    url: Bi,
    text: Bi,
}

/// Every page of both languages' bundles, decoded.
pub(crate) fn fragments(t: &SiteTest) -> Vec<Fragment> {
    let mut out = Vec::new();
    for lang in ["ja", "en"] {
        let dir = t.out_path(&format!("{lang}/pagefind/fragment"));
        for entry in std::fs::read_dir(&dir).expect("the bundle has fragments") {
            let path = entry.expect("readable entry").path();
            let gz = std::fs::read(&path).expect("readable fragment");
            let mut raw = Vec::new();
            flate2::read::GzDecoder::new(gz.as_slice())
                .read_to_end(&mut raw)
                .expect("fragments are gzip");
            let json = raw
                .strip_prefix(b"pagefind_dcd")
                .expect("Pagefind's fragment signature");
            let mut f: Fragment = serde_json::from_slice(json).expect("fragment JSON");
            f.lang = lang.to_owned();
            out.push(f);
        }
    }
    out.sort_by(|a, b| (&a.lang, &a.url).cmp(&(&b.lang, &b.url)));
    out
}

/// `claims.json` is `{ version, claims }` (schemas/claims.schema.json).
#[derive(Debug, Deserialize)]
struct ClaimsJson {
    claims: Vec<Claim>,
}

fn claims(t: &SiteTest) -> Vec<Claim> {
    let doc: ClaimsJson = serde_json::from_str(&t.read("claims.json")).expect("claims.json parses");
    doc.claims
}

/// `/ja/components/` for every `ja/…/index.html` that has a search body.
pub(crate) fn searchable_pages(t: &SiteTest, lang: &str) -> BTreeSet<String> {
    t.tree()
        .0
        .iter()
        .filter(|(p, bytes)| {
            p.starts_with(&format!("{lang}/"))
                && p.ends_with("index.html")
                && String::from_utf8_lossy(bytes).contains("data-pagefind-body")
        })
        .map(|(p, _)| format!("/{}", p.trim_end_matches("index.html")))
        .collect()
}

/// The run's shared build of the repository's site: only read here, and
/// only for what holds whatever the record says (its facts are asserted
/// in content.rs).
fn built() -> &'static SiteTest {
    repo_built()
}

#[test]
fn one_index_per_language_holding_its_pages() {
    let t = built();
    for lang in ["ja", "en"] {
        let entry: Entry =
            serde_json::from_str(&t.read(&format!("{lang}/pagefind/pagefind-entry.json")))
                .expect("entry JSON");
        assert_eq!(
            entry.languages.keys().collect::<Vec<_>>(),
            [lang],
            "the {lang} bundle holds the {lang} index only"
        );
        let pages = searchable_pages(t, lang).len();
        assert!(pages > 0, "{lang}: pages with a search body");
        assert_eq!(
            entry.languages[lang].page_count, pages,
            "{lang}: every page with a search body, once"
        );
    }
    assert!(
        !t.exists("pagefind"),
        "no bundle outside the language trees"
    );
    assert!(
        !t.exists("ja-en/pagefind"),
        "the parallel view has no index"
    );
}

#[test]
fn only_reader_language_pages_are_indexed() {
    let t = built();
    let frags = fragments(t);
    for f in &frags {
        assert!(
            f.meta.get("title").is_some_and(|t| !t.is_empty()),
            "{} has a title for its result",
            f.url
        );
        let prefix = format!("/{}/", f.lang);
        assert!(
            f.url.starts_with(&prefix),
            "{} fragment with url {} (parallel view, chooser and 404 stay out)",
            f.lang,
            f.url
        );
    }
    for lang in ["ja", "en"] {
        let indexed: BTreeSet<String> = frags
            .iter()
            .filter(|f| f.lang == lang)
            .map(|f| f.url.clone())
            .collect();
        assert_eq!(
            indexed,
            searchable_pages(t, lang),
            "{lang} pages in the index"
        );
        assert!(
            indexed
                .iter()
                .any(|u| u.starts_with(&format!("/{lang}/evidence/"))),
            "evidence logs are searchable too"
        );
    }
}

#[test]
fn every_claim_is_found_by_text_and_id_in_both_languages() {
    let t = built();
    let frags = fragments(t);
    let by_url: BTreeMap<(&str, &str), &Fragment> = frags
        .iter()
        .map(|f| ((f.lang.as_str(), f.url.as_str()), f))
        .collect();
    let claims = claims(t);
    assert!(!claims.is_empty());
    for lang in ["ja", "en"] {
        let classes: BTreeMap<String, String> =
            serde_json::from_str(&t.read(&format!("{lang}/pagefind/kansoku-claims.json")))
                .expect("claim classes JSON");
        let expected: BTreeMap<String, String> = claims
            .iter()
            .map(|c| (c.id.clone(), c.class.clone()))
            .collect();
        assert_eq!(
            classes, expected,
            "{lang}: every claim's class for the badges"
        );
    }
    for c in &claims {
        for (lang, url, text) in [("ja", &c.url.ja, &c.text.ja), ("en", &c.url.en, &c.text.en)] {
            let (page, anchor) = url.split_once('#').expect("claim urls have an anchor");
            assert_eq!(anchor, format!("claim-{}", c.id));
            let f = by_url.get(&(lang, page)).unwrap_or_else(|| {
                panic!("{lang}: the page of claim {} ({page}) is indexed", c.id)
            });
            assert!(
                f.anchors
                    .iter()
                    .any(|a| a.id == anchor && a.element == "li"),
                "{lang}: claim {} is an anchor of {page}, so a match can be traced to it",
                c.id
            );
            let indexed: String = f.text().split_whitespace().collect();
            let words: String = text.split_whitespace().collect();
            assert!(
                indexed.contains(&words),
                "{lang}: the text of claim {} is in the index of {page}",
                c.id
            );
            assert!(
                indexed.contains(&c.id),
                "{lang}: {} is searchable by id",
                c.id
            );
        }
    }
}

#[test]
fn theme_chrome_is_not_indexed() {
    let t = built();
    let frags = fragments(t);
    for f in frags.iter().filter(|f| f.lang == "ja") {
        let text = f.text();
        for noise in [
            "直接観測した(実機コマンド", // badge tooltip
            "根拠のログを開く",          // badge hint for screen readers
            "この主張へのリンク",        // permalink label
            "リンクをコピー",            // copy button
            "このページで得られる理解",  // lead label
        ] {
            assert!(
                !text.contains(noise),
                "{} indexes chrome text {noise:?}",
                f.url
            );
        }
    }
}

#[test]
fn the_bundle_is_deterministic() {
    // The shared build (the binary's) and one more, through the library.
    let a = built();
    let mut b = repo_site();
    b.build_searched();
    for lang in ["ja", "en"] {
        let bundle = |t: &SiteTest| Tree::of(&t.out_path(&format!("{lang}/pagefind")));
        let (ta, tb) = (bundle(a), bundle(&b));
        assert!(ta.0.len() > 10);
        ta.assert_same(&tb, "two builds of the same site");
    }
}

/// `serve` rebuilds on a thread of its own today, but the stage must not
/// panic ("cannot start a runtime from within a runtime") if it is ever
/// called from async code.
#[test]
fn indexing_works_inside_a_tokio_runtime() {
    let t = SiteTest::from_fixture("basic");
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a runtime");
    let files = rt.block_on(async {
        let options = kansoku::site::BuildOptions::default();
        let (files, _) = kansoku::site::build_in_memory(t.root(), &options).expect("builds");
        files
            .into_iter()
            .filter(|f| f.path.contains("/pagefind/"))
            .collect::<Vec<_>>()
    });
    for lang in ["ja", "en"] {
        let entry = format!("{lang}/pagefind/pagefind-entry.json");
        assert!(files.iter().any(|f| f.path == entry), "{entry}");
    }
    assert!(files
        .iter()
        .all(|f| f.path.starts_with("ja/pagefind/") || f.path.starts_with("en/pagefind/")));
    assert!(
        !files.iter().any(|f| f.path.ends_with("pagefind-ui.js")),
        "Pagefind's own UI is not published"
    );
}
