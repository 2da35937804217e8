//! The observation record in `content/` and `evidence/` (ROCm-pages,
//! issue 4): every assertion that names the record's claims, pages, words
//! or counts lives in this module, so that a change to the record breaks
//! these tests and no other. The other modules test the engine on fixtures,
//! or on the record only for what holds whatever it says.
//!
//! The site is the run's one shared build ([`repo_built`]: a temp copy of
//! `book.toml`, `content/` and `evidence/` built by the real binary), read
//! for the facts of the record rather than for markup. Classes and texts
//! come from the built `claims.json`; which claim colours an entity comes
//! from the page's `[entity] status`; the record's own words (the seeds'
//! status column, the 12 libraries of Phase C, the five generations, the
//! four observers) are written out, here or in the child module that uses
//! them (`record`, `views`, `seeds`, `fidelity`). The generated views are read
//! only for which entities they show, in which order, with which class and
//! which claim text.

use crate::common;

use common::{elements, escape, repo_built, repo_root, SiteTest};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::LazyLock;

const LANGS: [&str; 2] = ["ja", "en"];

#[derive(Debug, Deserialize)]
struct Bi {
    ja: String,
    en: String,
}

impl Bi {
    fn get(&self, lang: &str) -> &str {
        match lang {
            "ja" => &self.ja,
            "en" => &self.en,
            _ => panic!("no language {lang}"),
        }
    }
}

#[derive(Debug, Deserialize)]
struct Link {
    url: Bi,
    path: String,
    /// The cited range (first and last line); none for a whole file.
    lines: Option<[usize; 2]>,
}

#[derive(Debug, Deserialize)]
struct Claim {
    id: String,
    class: String,
    page: String,
    text: Bi,
    evidence: Vec<Link>,
    about: Option<String>,
    aspect: Option<String>,
    /// The answer it states (issue 26).
    #[serde(default)]
    answer: Option<Answer>,
    /// The claims an inference rests on.
    #[serde(default)]
    from: Vec<String>,
    /// What would settle it (issue 40; unresolved and limited claims).
    #[serde(default)]
    settle: Option<Bi>,
}

#[derive(Debug, Deserialize)]
struct Answer {
    key: String,
    label: Bi,
}

/// `claims.json` is `{ version, claims }` (schemas/claims.schema.json).
#[derive(Debug, Deserialize)]
struct ClaimsJson {
    claims: Vec<Claim>,
}

/// The built site and its `claims.json`, by id.
struct Site {
    t: &'static SiteTest,
    claims: BTreeMap<String, Claim>,
}

/// The shared build of the repository's site ([`repo_built`]), its
/// `claims.json` read once.
fn built() -> &'static Site {
    static SITE: LazyLock<Site> = LazyLock::new(|| {
        let t = repo_built();
        let doc: ClaimsJson =
            serde_json::from_str(&t.read("claims.json")).expect("claims.json parses");
        let claims = doc.claims.into_iter().map(|c| (c.id.clone(), c)).collect();
        Site { t, claims }
    });
    &SITE
}

impl Site {
    fn claim(&self, id: &str) -> &Claim {
        self.claims
            .get(id)
            .unwrap_or_else(|| panic!("claims.json has no claim {id}"))
    }

    /// `<main>` of a page, with inline SVG diagrams left out: a fact must be
    /// stated in the text, not only drawn.
    fn text_of(&self, rel: &str) -> String {
        strip_svg(&self.t.main_of(rel))
    }
}

fn strip_svg(html: &str) -> String {
    let mut out = String::new();
    let mut rest = html;
    while let Some(i) = rest.find("<svg") {
        out.push_str(&rest[..i]);
        let end = rest[i..].find("</svg>").expect("svg is closed") + i + "</svg>".len();
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// The TOML front matter of a content file of the repository.
fn front_matter(rel: &str) -> toml::Table {
    let text = std::fs::read_to_string(repo_root().join("content").join(rel))
        .unwrap_or_else(|e| panic!("read content/{rel}: {e}"));
    let fm = text
        .strip_prefix("+++\n")
        .and_then(|t| t.split_once("\n+++\n"))
        .unwrap_or_else(|| panic!("content/{rel} has no front matter"))
        .0;
    fm.parse()
        .unwrap_or_else(|e| panic!("content/{rel} front matter: {e}"))
}

/// `[entity] status` and `name` of an entity page.
fn entity(rel: &str) -> (String, toml::Table) {
    let fm = front_matter(rel);
    let e = fm["entity"].as_table().expect("[entity]").clone();
    let status = e["status"].as_str().expect("entity.status").to_owned();
    (status, e)
}

fn entity_name(e: &toml::Table, lang: &str) -> String {
    e["name"][lang].as_str().expect("entity.name").to_owned()
}

/// The value of every `href="…"` in a piece of HTML, in order.
fn hrefs(html: &str) -> Vec<&str> {
    html.match_indices("href=\"")
        .map(|(i, m)| {
            let rest = &html[i + m.len()..];
            &rest[..rest.find('"').expect("attribute is closed")]
        })
        .collect()
}

/// The class attribute of the outermost element of `html` (empty if none).
fn class_of(html: &str) -> &str {
    let open = &html[..html.find('>').expect("a start tag")];
    let Some(at) = open.find("class=\"") else {
        return "";
    };
    let at = at + 7;
    &open[at..at + open[at..].find('"').expect("closed")]
}

/// The key of the first link to `/{lang}/{section}/{key}/` in `html`.
fn linked_key<'a>(html: &'a str, lang: &str, section: &str) -> &'a str {
    let prefix = format!("/{lang}/{section}/");
    hrefs(html)
        .into_iter()
        .find_map(|h| h.strip_prefix(prefix.as_str()))
        .map(|k| k.trim_end_matches('/'))
        .unwrap_or_else(|| panic!("no link into /{lang}/{section}/ in {html}"))
}

/// Asserts that a built link `/{lang}/…/#anchor` names an output page that
/// exists and carries the anchor.
fn assert_link_lands(t: &SiteTest, href: &str) {
    let (path, anchor) = href.split_once('#').unwrap_or((href, ""));
    let file = format!("{}index.html", path.trim_start_matches('/'));
    assert!(t.exists(&file), "link {href}: no {file}");
    if !anchor.is_empty() {
        assert!(
            t.read(&file).contains(&format!(" id=\"{anchor}\"")),
            "link {href}: {file} has no id {anchor}"
        );
    }
}

/// The component hub of the record: key, and the status column's words in
/// the seed, which decide the class (every one is an observed fact: a load,
/// a binary, or an absence from the maps).
const COMPONENTS: [(&str, &str, &str); 9] = [
    ("rocm-bundle", "確認済み / Confirmed", "confirmed"),
    (
        "ggml-hip",
        "ロード・binary 確認 / Load + binary confirmed",
        "confirmed",
    ),
    ("hipblas", "ロード確認 / Load confirmed", "confirmed"),
    (
        "rocblas",
        "ロード・hsaco 確認 / Load + hsaco confirmed",
        "confirmed",
    ),
    ("hipblaslt", "ロード確認 / Load confirmed", "confirmed"),
    (
        "tensile",
        "gfx1201 hsaco 確認 / gfx1201 hsaco confirmed",
        "confirmed",
    ),
    ("rocsolver", "ロード確認 / Load confirmed", "confirmed"),
    ("miopen", "maps に不在 / Absent from maps", "confirmed"),
    (
        "migraphx",
        "maps・bundle とも不在 / Absent from maps and bundle",
        "confirmed",
    ),
];

/// The claim filling the cell `about` × `aspect`, if any.
fn cell_claim<'a>(s: &'a Site, about: &str, aspect: &str) -> Option<&'a Claim> {
    s.claims
        .values()
        .find(|c| c.about.as_deref() == Some(about) && c.aspect.as_deref() == Some(aspect))
}

/// An entity as declared in front matter: `[entity]` or `[[entities]]`.
struct Declared {
    kind: String,
    key: String,
    name: Bi,
    status: Option<String>,
    depends_on: Vec<String>,
}

fn content_files() -> Vec<String> {
    fn walk(dir: &std::path::Path, base: &std::path::Path, out: &mut Vec<String>) {
        for e in std::fs::read_dir(dir).expect("readable") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                walk(&p, base, out);
            } else if p.extension().is_some_and(|x| x == "md") {
                let rel = p.strip_prefix(base).expect("under content");
                out.push(rel.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    let base = repo_root().join("content");
    let mut out = Vec::new();
    walk(&base, &base, &mut out);
    out.sort();
    out
}

fn declared() -> Vec<(String, Declared)> {
    let mut out = Vec::new();
    for rel in content_files() {
        let fm = front_matter(&rel);
        let own = fm.get("entity").into_iter().cloned();
        let members = fm
            .get("entities")
            .and_then(|e| e.as_array())
            .cloned()
            .unwrap_or_default();
        for e in own.chain(members) {
            let name = &e["name"];
            out.push((
                rel.clone(),
                Declared {
                    kind: e["kind"].as_str().expect("kind").to_owned(),
                    key: e["key"].as_str().expect("key").to_owned(),
                    name: Bi {
                        ja: name["ja"].as_str().expect("ja").to_owned(),
                        en: name["en"].as_str().expect("en").to_owned(),
                    },
                    status: e.get("status").and_then(|s| s.as_str()).map(str::to_owned),
                    depends_on: e
                        .get("depends-on")
                        .and_then(|d| d.as_array())
                        .map(|d| {
                            d.iter()
                                .map(|k| k.as_str().expect("key").to_owned())
                                .collect()
                        })
                        .unwrap_or_default(),
                },
            ));
        }
    }
    out
}

impl Claim {
    /// Whether one of the claim's links cites `line` of evidence file `path`.
    fn cites(&self, path: &str, line: usize) -> bool {
        self.evidence
            .iter()
            .any(|e| e.path == path && e.lines.is_some_and(|[a, b]| a <= line && line <= b))
    }
}

/// The header (TOML) and the body lines of an evidence file of the
/// repository (line 1 of the body is `#L1`).
fn evidence_file(rel: &str) -> (toml::Table, Vec<String>) {
    let text = std::fs::read_to_string(repo_root().join("evidence").join(rel))
        .unwrap_or_else(|e| panic!("read evidence/{rel}: {e}"));
    let (header, body) = text
        .strip_prefix("+++\n")
        .and_then(|t| t.split_once("\n+++\n"))
        .unwrap_or_else(|| panic!("evidence/{rel} has no header"));
    let header = header
        .parse()
        .unwrap_or_else(|e| panic!("evidence/{rel} header: {e}"));
    (header, body.lines().map(str::to_owned).collect())
}

/// Every evidence file of the repository, relative to `evidence/`.
fn evidence_files() -> Vec<String> {
    fn walk(dir: &Path, base: &Path, out: &mut Vec<String>) {
        for e in std::fs::read_dir(dir).expect("readable") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                walk(&p, base, out);
            } else {
                let rel = p.strip_prefix(base).expect("under evidence");
                out.push(rel.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    let base = repo_root().join("evidence");
    let mut out = Vec::new();
    walk(&base, &base, &mut out);
    out.sort();
    out
}

mod commands;
mod record;
mod search_index;
mod seeds;
mod views;

// ---------------------------------------------------------------------------
// Issue 40: the record against the seeds, second audit (2026-11-28).
mod fidelity;
