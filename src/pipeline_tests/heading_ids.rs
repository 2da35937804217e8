//! `check` and render give a page's headings the same ids (issue 41): a
//! link `check` lets through lands on a heading, and one it refuses has
//! no heading to land on. Over random bodies of headings (with and
//! without `{#id}`, Japanese, repeated, spelled like the ids a diagram
//! takes) and `dot` diagrams, in shared text and language pairs.
//!
//! Black box on both sides: the ids are read from the built pages, and
//! `check`'s from the links it refuses (E030), so the test holds whatever
//! the two walkers do inside.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

const BOOK: &str = "[book]\ntitle = { ja = \"記録\", en = \"Record\" }\nlanguages = [\"ja\", \"en\"]\n\n[output.html]\nsite-url = \"https://example.org/\"\n\n[search]\nenabled = false\n";

const HOME: &str = "+++\ntitle = { ja = \"ホーム\", en = \"Home\" }\n+++\n\n::: ja\nようこそ。\n:::\n::: en\nWelcome.\n:::\n";

/// A page `p.md` with `body`, titled so that its own title makes no id.
fn page(body: &str) -> String {
    format!("+++\ntitle = {{ ja = \"頁\", en = \"Page\" }}\n+++\n\n{body}")
}

/// A page `q.md` linking to each anchor of `p.md`, once in each language.
fn links(anchors: &BTreeSet<String>) -> String {
    let list = |lang: &str| -> String {
        let items: String = anchors
            .iter()
            .map(|a| format!("- [{lang}](p.md#{a})\n"))
            .collect();
        format!("::: {lang}\n{items}:::\n")
    };
    format!(
        "+++\ntitle = {{ ja = \"索引\", en = \"Index\" }}\n+++\n\n{}{}",
        list("ja"),
        list("en")
    )
}

/// Every `id="…"` in `html`, in order, and those of headings.
fn ids(html: &str) -> (Vec<String>, BTreeSet<String>) {
    let mut all = Vec::new();
    let mut headings = BTreeSet::new();
    let mut rest = html;
    while let Some(i) = rest.find(" id=\"") {
        let tag_start = rest[..i].rfind('<').unwrap_or(0);
        let tag = &rest[tag_start..i];
        let value = &rest[i + 5..];
        let end = value.find('"').expect("a closing quote");
        let id = value[..end].to_owned();
        let is_heading =
            tag.len() == 3 && tag.starts_with("<h") && tag.as_bytes()[2].is_ascii_digit();
        if is_heading {
            headings.insert(id.clone());
        }
        all.push(id);
        rest = &value[end..];
    }
    (all, headings)
}

/// The ids of `p.md`'s built page in each language: all of them, and its
/// body's headings'. Panics if the site does not build.
fn built(root: &Path) -> BTreeMap<&'static str, (Vec<String>, BTreeSet<String>)> {
    let (files, _) = super::in_memory(root, &super::oracle()).expect("builds");
    let files: BTreeMap<String, Vec<u8>> = files.into_iter().map(|f| (f.path, f.bytes)).collect();
    let theme: BTreeSet<String> = crate::theme::theme_ids(root).into_iter().collect();
    ["ja", "en"]
        .into_iter()
        .map(|lang| {
            let html =
                String::from_utf8(files[&format!("{lang}/p/index.html")].clone()).expect("UTF-8");
            let (all, mut headings) = ids(&html);
            // The theme's own headings are not the body's.
            headings.retain(|h| !theme.contains(h));
            (lang, (all, headings))
        })
        .collect()
}

/// The anchors `check` refuses in links from `q.md`, by language: its
/// validation, as `kansoku check` runs it (links are judged there; the
/// theme and output paths it checks after do not bear on them).
fn refused(root: &Path) -> BTreeMap<String, BTreeSet<String>> {
    use crate::site::plan::{Errors, Nothing, Plan};
    use crate::site::run::run;
    let plan = Plan {
        errors: Errors::Report,
        ..Plan::load(crate::validate::Mode::Check)
    };
    let caches = &mut crate::site::Caches::unrendered();
    let (ran, _) = run(root, &plan, caches, |_, _| Ok(Nothing)).expect("checks");
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for d in ran.diagnostics.iter().filter(|d| d.code == "E030") {
        // "anchor `#X` not found in the ja page of `content/p.md`"
        let (anchor, rest) = d
            .message
            .strip_prefix("anchor `#")
            .and_then(|m| m.split_once("` not found in the "))
            .unwrap_or_else(|| panic!("an E030 message: {}", d.message));
        let lang = rest.split(' ').next().expect("a language").to_owned();
        out.entry(lang).or_default().insert(anchor.to_owned());
    }
    out
}

/// Builds a site whose page `p.md` has `body`, links to every id its
/// built pages hold (and to `more`), and checks that (1) no id repeats on
/// a page, (2) `check` refuses exactly the anchors that are no heading's
/// in that language.
fn same_ids(body: &str, more: &[&str]) -> Result<(), String> {
    let dir = crate::scratch::tempdir();
    let root = dir.path();
    std::fs::create_dir_all(root.join("content")).expect("mkdir");
    std::fs::write(root.join("book.toml"), BOOK).expect("book.toml");
    std::fs::write(root.join("content/_index.md"), HOME).expect("home");
    std::fs::write(root.join("content/p.md"), page(body)).expect("page");
    let pages = built(root);
    let mut anchors: BTreeSet<String> = more.iter().map(|s| (*s).to_owned()).collect();
    for (lang, (all, _)) in &pages {
        let mut seen = BTreeSet::new();
        for id in all {
            if !seen.insert(id) {
                return Err(format!("`{id}` twice on the {lang} page:\n{body}"));
            }
        }
        anchors.extend(all.iter().cloned());
    }
    std::fs::write(root.join("content/q.md"), links(&anchors)).expect("links");
    let refused = refused(root);
    for (lang, (_, headings)) in &pages {
        let want: BTreeSet<String> = anchors.difference(headings).cloned().collect();
        let got = refused.get(*lang).cloned().unwrap_or_default();
        if got != want {
            let wrongly_refused: Vec<&String> = got.difference(&want).collect();
            let wrongly_passed: Vec<&String> = want.difference(&got).collect();
            return Err(format!(
                "{lang}: check refuses links to headings {wrongly_refused:?} and lets through links to {wrongly_passed:?}, which are no heading's:\n{body}"
            ));
        }
    }
    Ok(())
}

/// The 2026-11-28 review's experiment (b): a diagram, then a heading
/// spelled like its id, and one spelled like an id inside its SVG. The
/// link to `#diagram` passed `check` and landed on the figure; the second
/// heading repeated `diagram-arrow0`.
#[test]
fn issue_41_a_heading_beside_a_diagram_has_the_id_check_knows() {
    let body = "```dot\ndigraph { a -> b }\n```\n\n## Diagram\n\n## Diagram arrow0\n";
    same_ids(body, &["diagram", "diagram-1", "diagram-arrow0"]).unwrap_or_else(|e| panic!("{e}"));
}

/// One block of a generated body.
#[derive(Debug, Clone)]
enum Block {
    /// `level` (1 to 3), a text from [`TEXTS`], an `{#id}` from [`GIVEN`].
    Heading(u8, usize, Option<usize>),
    /// A `dot` diagram with this many edges.
    Dot(u8),
    Para,
}

/// Heading texts: spelled like a diagram's id or the ids inside its SVG,
/// Japanese, like the theme's ids, with nothing to slug, with
/// per-language text and code.
const TEXTS: [&str; 13] = [
    "Diagram",
    "Diagram arrow0",
    "Diagram 1 arrow0",
    "diagram C0",
    "Diagram 1",
    "概要",
    "観測 ポイント",
    "Main",
    "Notes",
    "--",
    "ja confirmed",
    "Lang [[ja:語]][[en:word]]",
    "Run `dot` here",
];

/// Ids given with `{#id}`.
const GIVEN: [&str; 7] = [
    "diagram",
    "diagram-1",
    "diagram-endarrow",
    "diagram-C1",
    "notes",
    "main",
    "観測",
];

fn block() -> impl proptest::strategy::Strategy<Value = Block> {
    use proptest::prelude::*;
    prop_oneof![
        4 => (1u8..4, 0..TEXTS.len(), proptest::option::weighted(0.3, 0..GIVEN.len()))
            .prop_map(|(l, t, g)| Block::Heading(l, t, g)),
        2 => (0u8..4).prop_map(Block::Dot),
        1 => Just(Block::Para),
    ]
}

fn blocks_text(blocks: &[Block]) -> String {
    let mut s = String::new();
    for b in blocks {
        match *b {
            Block::Heading(level, t, given) => {
                let hashes = "#".repeat(usize::from(level));
                let id = given
                    .map(|g| format!(" {{#{}}}", GIVEN[g]))
                    .unwrap_or_default();
                s.push_str(&format!("{hashes} {}{id}\n\n", TEXTS[t]));
            }
            Block::Dot(edges) => {
                let edges: String = (0..edges)
                    .map(|e| format!(" n{e} -> n{};", e + 1))
                    .collect();
                s.push_str(&format!("```dot\ndigraph {{ n0;{edges} }}\n```\n\n"));
            }
            Block::Para => s.push_str("Text.\n\n"),
        }
    }
    s
}

/// A body: shared runs and language pairs, in order.
fn body() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    let run = || proptest::collection::vec(block(), 0..4);
    let segment = prop_oneof![
        run().prop_map(|b| blocks_text(&b)),
        (run(), run()).prop_map(|(ja, en)| format!(
            "::: ja\n{}:::\n::: en\n{}:::\n\n",
            blocks_text(&ja),
            blocks_text(&en)
        )),
    ];
    proptest::collection::vec(segment, 1..4).prop_map(|s| s.concat())
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig {
        cases: super::cases(48),
        ..proptest::prelude::ProptestConfig::default()
    })]

    #[test]
    fn check_and_render_give_headings_the_same_ids(body in body()) {
        if let Err(e) = same_ids(&body, &["section-1", "diagram-2"]) {
            proptest::prop_assert!(false, "{}", e);
        }
    }
}
