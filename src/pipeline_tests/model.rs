//! The site the pipeline property test edits, as a value: pages with
//! claims, entities and the cells their claims fill, a matrix, a hub and
//! an open-questions page, evidence logs (raw or captured), drafts,
//! headings with and without ids, diagrams, and the review lock; the
//! random edits on it; and its files, written out whole after each edit.
//!
//! Each part is here because a unit's input holds it (`render::input`,
//! issue 41): the cell fillers and the outlines (`SiteInput`), the review
//! lock (`ClaimsInput`, a page's stale pairs), drafts
//! (`validate::site_facts`), the generated views (`Shows::Every`), the
//! evidence headers (through the claim views), and the heading ids other
//! pages' links are checked against (`validate::page_facts`).

use proptest::prelude::*;
use std::collections::BTreeMap;

/// One claim of a page in the model.
#[derive(Debug, Clone)]
pub(super) struct Claim {
    pub(super) id: u8,
    class: u8,
    /// Its text: both languages.
    text: u8,
    /// Its Japanese text alone (a one-sided edit: a stale translation
    /// once reviewed).
    ja: u8,
    log: u8,
    lines: u8,
    /// The cell it fills: `about = "e{.0}"`, `aspect = ASPECTS[.1]`, and
    /// the answer `ANSWERS[.2]` it states, if any; with `.1` past
    /// `ASPECTS`, only `about` (its row on the open-questions page, no
    /// cell).
    cell: Option<(u8, u8, Option<u8>)>,
}

/// A page's entity (`[entity]`).
#[derive(Debug, Clone)]
struct Entity {
    /// `KINDS[kind]`: a matrix row or a hub row.
    kind: u8,
    /// `key = "e{key}"`.
    key: u8,
    /// Its name's revision.
    name: u8,
    /// Its `status` claim, by id.
    status: Option<u8>,
}

/// One page of the model.
#[derive(Debug, Clone)]
pub(super) struct Page {
    pub(super) claims: Vec<Claim>,
    /// Claim ids cited inline in the body (they may go away later).
    cites: Vec<u8>,
    /// Claim ids the first claim rests on (`from`): its check reads their
    /// classes on other pages.
    from: Vec<u8>,
    /// Links from the body: to page `.0`, anchor `.1` as it was when the
    /// link was made (an edit there breaks it), in the English block
    /// (`.2`) or in shared text (checked in both languages).
    links: Vec<(u8, String, bool)>,
    /// Its prose, in both languages.
    prose: u8,
    /// Its Japanese prose alone.
    prose_ja: u8,
    /// Headings without `{#id}` (slugged), from [`HEADINGS`]: even
    /// positions in shared text, odd ones in the language pair.
    headings: Vec<u8>,
    /// A `dot` diagram with this many edges, in shared text after the
    /// headings there.
    dot: Option<u8>,
    entity: Option<Entity>,
    /// `draft = true`.
    draft: bool,
    /// Comment lines at the top of the front matter.
    shift: u8,
    /// The front matter does not parse.
    broken: bool,
}

/// An evidence log.
#[derive(Debug, Clone)]
struct Log {
    lines: u8,
    /// Revision of its lines' text (an edit under the claims citing it).
    rev: u8,
    /// Lines added at its top (the cited text moves down).
    top: u8,
    /// Written by `kansoku capture` (`kind = "capture"`, with the body's
    /// SHA-256), with this revision of its header's note; else raw.
    capture: Option<u8>,
}

/// The site as a value; written out whole after each edit.
#[derive(Debug, Clone, Default)]
pub(super) struct Model {
    /// Page name (`content/p{k}.md`) → page.
    pub(super) pages: BTreeMap<u8, Page>,
    /// Evidence name (`evidence/log{k}.txt`) → log.
    logs: BTreeMap<u8, Log>,
    theme: u8,
    book: u8,
    /// `[output]`: 0 both on, 1 no twins, 2 no llms files, 3 neither.
    outputs: u8,
    /// `content/matrix.md`, `layout = "matrix"`: its columns, a bit per
    /// aspect of [`ASPECTS`].
    matrix: Option<u8>,
    /// `content/hub.md`, `layout = "hub"`: its columns as for the matrix
    /// (none: role and status), and whether it opens with a summary of
    /// findings for `a0`.
    hub: Option<(u8, bool)>,
    /// `content/open.md`, `layout = "open-questions"`: every unresolved
    /// or limited claim of the site, shown or not before.
    open: bool,
    /// The vocabulary's revision (its words), and whether `a0` names the
    /// scope `e0`.
    vocab: (u8, bool),
    /// `kansoku.lock` as `kansoku review` last wrote it.
    pub(super) lock: Option<String>,
}

/// The entity kinds `book.toml` declares: the matrix's rows, the hub's.
const KINDS: [&str; 2] = ["generation", "component"];

/// Aspects: `a0` and `a1` declare answers, `a2` declares none (an
/// answer on it is E024).
const ASPECTS: [&str; 3] = ["a0", "a1", "a2"];

/// Answers a claim may state; `partial` only `a0` declares.
const ANSWERS: [&str; 3] = ["yes", "no", "partial"];

/// Headings without ids, (ja, en): repeated, Japanese, spelled like a
/// diagram's ids.
const HEADINGS: [(&str, &str); 5] = [
    ("概要", "Overview"),
    ("観測 ポイント", "Observation point"),
    ("図", "Diagram"),
    ("Diagram arrow0", "Diagram arrow0"),
    ("概要", "Notes"),
];

#[derive(Debug, Clone)]
pub(super) enum Op {
    AddPage(u8),
    Prose(u8),
    /// The Japanese prose of page `.0` alone.
    ProseJa(u8),
    Rename(u8, u8),
    Delete(u8),
    AddLog(u8, u8),
    DeleteLog(u8),
    /// Log `.0`'s lines say something else (`.1` false), or a line is
    /// added at its top (true).
    EditLog(u8, bool),
    /// Log `.0` becomes a capture (`.1` false), or its header's note is
    /// edited (`.1` true; a raw log becomes a capture).
    Capture(u8, bool),
    ClaimClass(u8, u8),
    ClaimId(u8, u8),
    ClaimText(u8),
    /// The Japanese text of page `.0`'s first claim alone.
    ClaimJa(u8),
    ClaimLines(u8, u8),
    AddClaim(u8, u8),
    /// Page `.0` cites a claim of page `.1` inline.
    Cite(u8, u8),
    /// Page `.0` takes the id of another page's claim.
    Duplicate(u8, u8),
    /// Page `.0`'s first claim rests on the last claim of page `.1`.
    From(u8, u8),
    /// Page `.0` links to page `.1`'s heading with an id.
    Link(u8, u8),
    /// Page `.0` links, in English, to the slug of heading `.2` of page
    /// `.1` (without an id).
    LinkSlug(u8, u8, u8),
    /// Page `.0` gets another heading without an id.
    Heading(u8, u8),
    /// Page `.0`'s diagram gets `.1` edges (0: none).
    Dot(u8, u8),
    /// Page `.0` is the entity of kind `.1` (2: none), keyed by its name.
    Entity(u8, u8),
    /// Page `.0`'s entity renamed, and its status set to (or taken from)
    /// the page's first claim.
    EntityEdit(u8),
    /// Page `.0`'s first claim fills the cell `e{.1}` × `ASPECTS[.2]`,
    /// stating `ANSWERS[.3]` (3: no answer); `.1` 4: fills none; `.2` 3:
    /// is about `e{.1}` on no aspect (and states no answer).
    Cell(u8, u8, u8, u8),
    /// The matrix page's columns (0: no matrix page).
    Matrix(u8),
    /// The hub page's columns (8: no hub page), and its findings.
    Hub(u8, bool),
    /// The vocabulary's words change, and `a0`'s scope is toggled.
    Vocab,
    /// The open-questions page comes or goes.
    Open,
    /// `kansoku review` of page `.0`: its claims (`.1` false) or the
    /// whole page, pairs too.
    Review(u8, bool),
    /// Page `.0`'s `draft` is toggled.
    Draft(u8),
    Shift(u8),
    Break(u8),
    Fix(u8),
    Theme,
    Book,
    /// The `[output]` switches of issue 28 go to their next combination.
    Outputs,
}

pub(super) fn op() -> impl Strategy<Value = Op> {
    let n = 0u8..4;
    prop_oneof![
        2 => n.clone().prop_map(Op::AddPage),
        2 => n.clone().prop_map(Op::Prose),
        1 => n.clone().prop_map(Op::ProseJa),
        1 => (n.clone(), n.clone()).prop_map(|(a, b)| Op::Rename(a, b)),
        1 => n.clone().prop_map(Op::Delete),
        1 => (0u8..3, 1u8..6).prop_map(|(a, b)| Op::AddLog(a, b)),
        1 => (0u8..3).prop_map(Op::DeleteLog),
        2 => (0u8..3, any::<bool>()).prop_map(|(a, b)| Op::EditLog(a, b)),
        1 => (0u8..3, any::<bool>()).prop_map(|(a, b)| Op::Capture(a, b)),
        2 => (n.clone(), 0u8..4).prop_map(|(a, b)| Op::ClaimClass(a, b)),
        1 => (n.clone(), 0u8..6).prop_map(|(a, b)| Op::ClaimId(a, b)),
        2 => n.clone().prop_map(Op::ClaimText),
        1 => n.clone().prop_map(Op::ClaimJa),
        1 => (n.clone(), 1u8..4).prop_map(|(a, b)| Op::ClaimLines(a, b)),
        1 => (n.clone(), 0u8..6).prop_map(|(a, b)| Op::AddClaim(a, b)),
        2 => (n.clone(), n.clone()).prop_map(|(a, b)| Op::Cite(a, b)),
        1 => (n.clone(), n.clone()).prop_map(|(a, b)| Op::Duplicate(a, b)),
        2 => (n.clone(), n.clone()).prop_map(|(a, b)| Op::From(a, b)),
        2 => (n.clone(), n.clone()).prop_map(|(a, b)| Op::Link(a, b)),
        2 => (n.clone(), n.clone(), 0u8..4).prop_map(|(a, b, j)| Op::LinkSlug(a, b, j)),
        2 => (n.clone(), 0..HEADINGS.len() as u8).prop_map(|(a, h)| Op::Heading(a, h)),
        1 => (n.clone(), 0u8..4).prop_map(|(a, e)| Op::Dot(a, e)),
        2 => (n.clone(), 0u8..3).prop_map(|(a, k)| Op::Entity(a, k)),
        1 => n.clone().prop_map(Op::EntityEdit),
        3 => (n.clone(), 0u8..5, 0u8..4, 0u8..4).prop_map(|(a, b, c, d)| Op::Cell(a, b, c, d)),
        1 => (0u8..8).prop_map(Op::Matrix),
        1 => (0u8..9, any::<bool>()).prop_map(|(c, f)| Op::Hub(c, f)),
        1 => Just(Op::Vocab),
        1 => Just(Op::Open),
        4 => (n.clone(), any::<bool>()).prop_map(|(a, w)| Op::Review(a, w)),
        2 => n.clone().prop_map(Op::Draft),
        2 => n.clone().prop_map(Op::Shift),
        1 => n.clone().prop_map(Op::Break),
        1 => n.prop_map(Op::Fix),
        1 => Just(Op::Theme),
        1 => Just(Op::Book),
        1 => Just(Op::Outputs),
    ]
}

impl Model {
    /// Three pages, each but the first citing the one before inline: the
    /// first a matrix row whose claim answers `a0`, the second a hub row
    /// whose claim fills an `a1` cell, the third with a heading spelled
    /// like its diagram's id and one in each language, without ids; two
    /// logs, one captured; the matrix, hub and open-questions pages. No
    /// lock, no draft: edits bring them.
    pub(super) fn start() -> Model {
        let mut m = Model::default();
        m.logs.insert(
            0,
            Log {
                lines: 4,
                rev: 0,
                top: 0,
                capture: None,
            },
        );
        m.logs.insert(
            1,
            Log {
                lines: 3,
                rev: 0,
                top: 0,
                capture: Some(0),
            },
        );
        for k in 0..3u8 {
            let mut p = page(k * 10);
            if k > 0 {
                p.cites.push((k - 1) * 10);
            }
            m.pages.insert(k, p);
        }
        m.apply(&Op::Entity(0, 0));
        m.apply(&Op::Cell(0, 0, 0, 0));
        m.apply(&Op::Entity(1, 1));
        m.apply(&Op::Cell(1, 1, 1, 3));
        m.apply(&Op::Heading(2, 2));
        m.apply(&Op::Heading(2, 0));
        m.apply(&Op::Dot(2, 1));
        m.matrix = Some(0b011);
        m.hub = Some((0, false));
        m.open = true;
        m
    }

    pub(super) fn apply(&mut self, op: &Op) {
        match *op {
            Op::AddPage(k) => {
                self.pages.entry(k).or_insert_with(|| page(k * 10));
            }
            Op::Prose(k) => self.with(k, |p| p.prose = p.prose.wrapping_add(1)),
            Op::ProseJa(k) => self.with(k, |p| p.prose_ja = p.prose_ja.wrapping_add(1)),
            Op::Rename(a, b) => {
                if let Some(p) = self.pages.remove(&a) {
                    self.pages.insert(b, p);
                }
            }
            Op::Delete(k) => {
                self.pages.remove(&k);
            }
            Op::AddLog(k, n) => {
                let log = self.logs.entry(k).or_insert(Log {
                    lines: n,
                    rev: 0,
                    top: 0,
                    capture: None,
                });
                log.lines = n;
            }
            Op::DeleteLog(k) => {
                self.logs.remove(&k);
            }
            Op::EditLog(k, top) => {
                if let Some(log) = self.logs.get_mut(&k) {
                    if top {
                        log.top = (log.top + 1) % 3;
                    } else {
                        log.rev = log.rev.wrapping_add(1);
                    }
                }
            }
            Op::Capture(k, edit) => {
                if let Some(log) = self.logs.get_mut(&k) {
                    log.capture = match (log.capture, edit) {
                        (Some(n), true) => Some(n.wrapping_add(1)),
                        (Some(_), false) => None,
                        (None, _) => Some(0),
                    };
                }
            }
            Op::ClaimClass(k, c) => self.with_claim(k, |c0| c0.class = c),
            Op::ClaimId(k, id) => self.with_claim(k, |c| c.id = id * 10 + 1),
            Op::ClaimText(k) => self.with_claim(k, |c| c.text = c.text.wrapping_add(1)),
            Op::ClaimJa(k) => self.with_claim(k, |c| c.ja = c.ja.wrapping_add(1)),
            Op::ClaimLines(k, n) => self.with_claim(k, |c| c.lines = n),
            Op::AddClaim(k, id) => self.with(k, |p| {
                p.claims.push(Claim {
                    id: id * 10 + 2,
                    class: id % 4,
                    text: 0,
                    ja: 0,
                    log: id % 3,
                    lines: 1,
                    cell: None,
                })
            }),
            Op::Cite(a, b) => {
                if let Some(id) = self.claim_id(b, <[Claim]>::last) {
                    self.with(a, |p| p.cites.push(id));
                }
            }
            Op::Duplicate(a, b) => {
                if let Some(id) = self.claim_id(b, <[Claim]>::first) {
                    self.with_claim(a, |c| c.id = id);
                }
            }
            Op::From(a, b) => {
                if let Some(id) = self.claim_id(b, <[Claim]>::last) {
                    self.with(a, |p| p.from.push(id));
                }
            }
            Op::Link(a, b) => {
                let prose = self.pages.get(&b).map(|p| p.prose);
                if let Some(prose) = prose {
                    self.with(a, |p| p.links.push((b, format!("h{prose}"), false)));
                }
            }
            Op::LinkSlug(a, b, j) => {
                let heading = self
                    .pages
                    .get(&b)
                    .and_then(|p| p.headings.get(usize::from(j)).copied());
                if let Some(h) = heading {
                    let slug = crate::content::body::slugify(HEADINGS[usize::from(h)].1);
                    self.with(a, |p| p.links.push((b, slug, true)));
                }
            }
            Op::Heading(k, h) => self.with(k, |p| {
                if p.headings.len() == 4 {
                    p.headings.remove(0);
                }
                p.headings.push(h);
            }),
            Op::Dot(k, e) => self.with(k, |p| p.dot = (e > 0).then_some(e)),
            Op::Entity(k, kind) => self.with(k, |p| {
                p.entity = (usize::from(kind) < KINDS.len()).then_some(Entity {
                    kind,
                    key: k,
                    name: 0,
                    status: None,
                })
            }),
            Op::EntityEdit(k) => self.with(k, |p| {
                let first = p.claims.first().map(|c| c.id);
                if let Some(e) = &mut p.entity {
                    e.name = e.name.wrapping_add(1);
                    e.status = if e.status.is_some() { None } else { first };
                }
            }),
            Op::Cell(k, about, aspect, answer) => self.with_claim(k, |c| {
                c.cell = (about < 4).then_some((
                    about,
                    aspect,
                    (usize::from(answer) < ANSWERS.len()).then_some(answer),
                ))
            }),
            Op::Matrix(columns) => self.matrix = (columns > 0).then_some(columns),
            Op::Hub(columns, findings) => {
                self.hub = (columns < 8).then_some((columns, findings));
            }
            Op::Vocab => self.vocab = (self.vocab.0.wrapping_add(1), !self.vocab.1),
            Op::Open => self.open = !self.open,
            // Written by `kansoku review` on the site as it is (see
            // `super::review`), not by the model.
            Op::Review(..) => {}
            Op::Draft(k) => self.with(k, |p| p.draft = !p.draft),
            Op::Shift(k) => self.with(k, |p| p.shift = (p.shift + 1) % 3),
            Op::Break(k) => self.with(k, |p| p.broken = true),
            Op::Fix(k) => self.with(k, |p| p.broken = false),
            Op::Theme => self.theme = (self.theme + 1) % 2,
            Op::Book => self.book = (self.book + 1) % 2,
            Op::Outputs => self.outputs = (self.outputs + 1) % 4,
        }
    }

    /// The id of the claim `pick` chooses on page `k`, if it has one.
    fn claim_id(&self, k: u8, pick: impl FnOnce(&[Claim]) -> Option<&Claim>) -> Option<u8> {
        self.pages
            .get(&k)
            .and_then(|p| pick(&p.claims))
            .map(|c| c.id)
    }

    fn with(&mut self, k: u8, f: impl FnOnce(&mut Page)) {
        if let Some(p) = self.pages.get_mut(&k) {
            f(p);
        }
    }

    fn with_claim(&mut self, k: u8, f: impl FnOnce(&mut Claim)) {
        self.with(k, |p| {
            if let Some(c) = p.claims.first_mut() {
                f(c);
            }
        });
    }

    /// Whether a page is a draft: a build then differs from serve's tree.
    pub(super) fn has_drafts(&self) -> bool {
        self.pages.values().any(|p| p.draft)
    }

    /// Every file of the site.
    pub(super) fn files(&self) -> BTreeMap<String, String> {
        let mut files = BTreeMap::new();
        files.insert("book.toml".to_owned(), self.book_toml());
        files.insert(
            "content/_index.md".to_owned(),
            "+++\ntitle = { ja = \"ホーム\", en = \"Home\" }\n+++\n\n::: ja\nようこそ。\n:::\n::: en\nWelcome.\n:::\n"
                .to_owned(),
        );
        for (k, p) in &self.pages {
            files.insert(format!("content/p{k}.md"), page_text(*k, p));
        }
        if let Some(columns) = self.matrix {
            files.insert(
                "content/matrix.md".to_owned(),
                format!(
                    "+++\ntitle = {{ ja = \"表\", en = \"Matrix\" }}\nweight = 50\nlayout = \"matrix\"\n\n[view]\n{}+++\n\n::: ja\n世代の表。\n:::\n::: en\nThe generations.\n:::\n",
                    view_columns(columns)
                ),
            );
        }
        if let Some((columns, findings)) = self.hub {
            let findings = if findings {
                "findings = [\"a0\"]\n"
            } else {
                ""
            };
            files.insert(
                "content/hub.md".to_owned(),
                format!(
                    "+++\ntitle = {{ ja = \"部品\", en = \"Components\" }}\nweight = 60\nlayout = \"hub\"\n\n[view]\n{}{findings}+++\n\n::: ja\n部品の一覧。\n:::\n::: en\nThe components.\n:::\n",
                    view_columns(columns)
                ),
            );
        }
        if self.open {
            files.insert(
                "content/open.md".to_owned(),
                "+++\ntitle = { ja = \"未確定\", en = \"Open\" }\nweight = 70\nlayout = \"open-questions\"\n+++\n\n::: ja\n未確定の主張。\n:::\n::: en\nThe open claims.\n:::\n".to_owned(),
            );
        }
        for (k, log) in &self.logs {
            files.insert(format!("evidence/log{k}.txt"), log_text(*k, log));
        }
        if let Some(lock) = &self.lock {
            files.insert(crate::review::LOCK_FILE.to_owned(), lock.clone());
        }
        if self.theme == 1 {
            let legend = include_str!("../../templates/partials/legend.html");
            files.insert(
                "templates/partials/legend.html".to_owned(),
                format!("{legend}<span hidden>edited</span>\n"),
            );
        }
        files
    }

    fn book_toml(&self) -> String {
        let (words, scoped) = self.vocab;
        let scope = if scoped { "scope = \"e0\"\n" } else { "" };
        let answers = |keys: &[&str]| -> String {
            let list: Vec<String> = keys.iter().map(|k| answer_decl(k, words)).collect();
            format!("answers = [\n  {},\n]\n", list.join(",\n  "))
        };
        format!(
            "[book]\ntitle = {{ ja = \"記録\", en = \"Record {}\" }}\nlanguages = [\"ja\", \"en\"]\n\n[output]\nmarkdown = {}\nllms = {}\n\n[output.html]\nsite-url = \"https://example.org/\"\n\n[search]\nenabled = false\n\n[kinds]\ngeneration = {{ ja = \"世代\", en = \"Generation\" }}\ncomponent = {{ ja = \"部品\", en = \"Component\" }}\n\n[aspects.a0]\nquestion = {{ ja = \"問い0\", en = \"Question 0\" }}\n{scope}{}\n[aspects.a1]\nquestion = {{ ja = \"問い1\", en = \"Question 1\" }}\n{}",
            self.book,
            self.outputs & 1 == 0,
            self.outputs & 2 == 0,
            answers(&ANSWERS),
            answers(&ANSWERS[..2]),
        )
    }
}

/// One declared answer of an aspect; its key is also its kind (yes, no,
/// partial).
fn answer_decl(key: &str, words: u8) -> String {
    format!("{{ key = \"{key}\", kind = \"{key}\", label = {{ ja = \"{key}の答え{words}\", en = \"Answer {key} {words}\" }} }}")
}

/// What a claim of `class` carries besides its text and evidence: what
/// would settle it, for an unresolved or limited one.
fn claim_extra(class: &str) -> String {
    match class {
        "unresolved" | "limited" => {
            "settle = { ja = \"次の観測。\", en = \"The next observation.\" }\n".to_owned()
        }
        _ => String::new(),
    }
}

/// `columns = [...]` of a view: the aspects whose bits are set.
fn view_columns(bits: u8) -> String {
    let columns: Vec<String> = ASPECTS
        .iter()
        .enumerate()
        .filter(|(i, _)| bits & (1 << i) != 0)
        .map(|(_, a)| {
            format!("{{ aspect = \"{a}\", label = {{ ja = \"列{a}\", en = \"Column {a}\" }} }}")
        })
        .collect();
    if columns.is_empty() {
        String::new()
    } else {
        format!("columns = [{}]\n", columns.join(", "))
    }
}

fn page(seed: u8) -> Page {
    Page {
        claims: vec![Claim {
            id: seed,
            class: seed % 4,
            text: 0,
            ja: 0,
            log: 0,
            lines: 1,
            cell: None,
        }],
        cites: Vec::new(),
        from: Vec::new(),
        links: Vec::new(),
        prose: 0,
        prose_ja: 0,
        headings: Vec::new(),
        dot: None,
        entity: None,
        draft: false,
        shift: 0,
        broken: false,
    }
}

const CLASSES: [&str; 4] = ["confirmed", "inferred", "unresolved", "limited"];

fn page_text(k: u8, p: &Page) -> String {
    let mut s = String::from("+++\n");
    for i in 0..p.shift {
        s.push_str(&format!("# note {i}\n"));
    }
    s.push_str(&format!(
        "title = {{ ja = \"頁{k}\", en = \"Page {k}\" }}\nweight = {k}\n"
    ));
    if p.draft {
        s.push_str("draft = true\n");
    }
    if p.broken {
        s.push_str("weight = = 1\n");
    }
    if let Some(e) = &p.entity {
        s.push_str(&format!(
            "\n[entity]\nkind = \"{}\"\nkey = \"e{}\"\nname = {{ ja = \"実体{}\", en = \"Entity {} ({})\" }}\nrole = {{ ja = \"役{}\", en = \"Role {}\" }}\n",
            KINDS[usize::from(e.kind)], e.key, e.key, e.key, e.name, e.name, e.name
        ));
        if let Some(status) = e.status {
            s.push_str(&format!("status = \"c{status}\"\n"));
        }
    }
    for (i, c) in p.claims.iter().enumerate() {
        let class = CLASSES[usize::from(c.class % 4)];
        s.push_str(&format!(
            "\n[[claims]]\nid = \"c{}\"\nclass = \"{class}\"\nja = \"主張{}の{}。\"\nen = \"Claim {}.\"\nevidence = [{{ path = \"log{}.txt\", lines = \"1-{}\" }}]\n{}",
            c.id,
            c.text,
            c.ja,
            c.text,
            c.log,
            c.lines,
            claim_extra(class),
        ));
        match c
            .cell
            .map(|(about, aspect, answer)| (about, ASPECTS.get(usize::from(aspect)), answer))
        {
            Some((about, Some(aspect), answer)) => {
                s.push_str(&format!("about = \"e{about}\"\naspect = \"{aspect}\"\n"));
                if let Some(a) = answer {
                    s.push_str(&format!("answer = \"{}\"\n", ANSWERS[usize::from(a)]));
                }
            }
            Some((about, None, _)) => s.push_str(&format!("about = \"e{about}\"\n")),
            None => {}
        }
        if i == 0 && !p.from.is_empty() {
            let from: Vec<String> = p.from.iter().map(|f| format!("\"c{f}\"")).collect();
            s.push_str(&format!("from = [{}]\n", from.join(", ")));
        }
    }
    s.push_str("+++\n\n");
    let cites: String = p.cites.iter().map(|c| format!(" [[claim:c{c}]]")).collect();
    let in_pair = |lang: usize| -> String {
        p.headings
            .iter()
            .skip(1)
            .step_by(2)
            .map(|&h| {
                let (ja, en) = HEADINGS[usize::from(h)];
                format!("\n## {}\n", if lang == 0 { ja } else { en })
            })
            .collect()
    };
    let en_links: String = p
        .links
        .iter()
        .filter(|l| l.2)
        .map(|(page, anchor, _)| format!("\n[see](p{page}.md#{anchor})\n"))
        .collect();
    s.push_str(&format!(
        "## H {{#h{}}}\n\n::: ja\n本文 {}、{}。{cites}\n{}:::\n::: en\nBody {}.{cites}\n{}{en_links}:::\n",
        p.prose,
        p.prose,
        p.prose_ja,
        in_pair(0),
        p.prose,
        in_pair(1),
    ));
    for &h in p.headings.iter().step_by(2) {
        s.push_str(&format!("\n## {}\n", HEADINGS[usize::from(h)].1));
    }
    if let Some(edges) = p.dot {
        let edges: String = (0..edges)
            .map(|e| format!(" n{e} -> n{};", e + 1))
            .collect();
        s.push_str(&format!("\n```dot\ndigraph {{ n0;{edges} }}\n```\n"));
    }
    for (page, anchor, _) in p.links.iter().filter(|l| !l.2) {
        s.push_str(&format!("\n[see](p{page}.md#{anchor})\n"));
    }
    s
}

fn log_text(k: u8, log: &Log) -> String {
    let top: String = (0..log.top).map(|i| format!("log {k} top {i}\n")).collect();
    let body: String = (1..=log.lines)
        .map(|i| format!("log {k} line {i} rev {}\n", log.rev))
        .collect();
    let body = top + &body;
    let header = match log.capture {
        None => "kind = \"raw\"\n".to_owned(),
        Some(note) => {
            use sha2::Digest;
            let sha: String = sha2::Sha256::digest(body.as_bytes())
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect();
            format!(
                "kind = \"capture\"\ncommand = [\"cat\", \"log{k}\"]\ncwd = \".\"\nstarted = \"2026-11-25T16:34:35Z\"\nended = \"2026-11-25T16:34:36Z\"\nexit = \"0\"\nstream = \"stdout\"\nnote = \"Note {note}.\"\nbody-sha256 = \"{sha}\"\n"
            )
        }
    };
    format!("+++\n{header}+++\n{body}")
}
