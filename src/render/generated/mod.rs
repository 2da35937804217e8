//! Generated views: hub, matrix, observers, home worlds, open questions.
//!
//! Every row comes from entities and every cell from a claim (`about` +
//! `aspect`, or an entity's `status`): nothing here is a hand-written
//! table. The HTML comes from `templates/views/*.html`; this module only
//! gathers the rows. See `docs/views.md`.

mod answers;
mod sof;

pub(in crate::render) use answers::{answers, answers_html};
pub(in crate::render) use sof::is_answer;

use super::context::Ctx;
use super::views::ClaimView;
use crate::content::{Class, Layout, Outline, Page};
use crate::error::Diagnostic;
use crate::lang::Lang;
use serde::Serialize;

/// Aspects of an observer card, in display order.
pub(super) const OBSERVER_ASPECTS: [&str; 5] = ["target", "attempt", "result", "tells", "next"];

/// Where an aspect's observations were made, as a view or page says it:
/// on which entity, how, and on which others of its kind nothing was
/// observed.
#[derive(Serialize)]
pub(in crate::render) struct ScopeNote {
    /// The questions (or column labels) it covers.
    pub(in crate::render) what: Vec<String>,
    /// The entity observed on.
    pub(in crate::render) on: Option<PageLink>,
    /// How.
    pub(in crate::render) setup: Option<String>,
    /// The other entities of the scope's kind: not observed.
    pub(in crate::render) not_on: Vec<PageLink>,
}

/// A link to a page, by its title or entity name.
#[derive(Serialize, Clone)]
pub(in crate::render) struct PageLink {
    pub(in crate::render) label: String,
    pub(in crate::render) href: String,
}

/// A row of a generated view: an entity with a page of its own.
#[derive(Serialize)]
pub(in crate::render) struct EntityRow {
    key: String,
    pub(in crate::render) name: String,
    pub(in crate::render) href: String,
    pub(in crate::render) role: Option<String>,
    pub(in crate::render) status: Option<ClaimView>,
    /// Matrix cells, home `world`, or observer fields, depending on the view.
    pub(in crate::render) cells: Vec<Option<ClaimView>>,
    /// The questions observed on this entity (it is their aspects'
    /// `scope`), each linked to the view answering them.
    pub(in crate::render) observed: Vec<PageLink>,
}

/// A column of a view: the aspect its cells answer.
#[derive(Serialize)]
pub(in crate::render) struct Column {
    aspect: String,
    pub(in crate::render) label: String,
    /// The aspect's question, when book.toml declares one: a hub's or
    /// matrix's header asks what the summary of findings asks.
    pub(in crate::render) question: Option<String>,
    /// The column's own label under its question, when it says more than
    /// the question ("Phase C status (loaded)").
    pub(in crate::render) note: Option<String>,
}

/// The open questions of one page.
#[derive(Serialize)]
pub(in crate::render) struct Group {
    pub(in crate::render) title: String,
    pub(in crate::render) href: String,
    pub(in crate::render) claims: Vec<Placed>,
}

/// A claim listed away from its page, with the row and column it fills
/// ("gfx942 · fatbin targets"): a matrix cell's text alone says little.
#[derive(Serialize)]
pub(in crate::render) struct Placed {
    pub(in crate::render) claim: ClaimView,
    pub(in crate::render) context: Option<String>,
}

/// A page's generated view as rows, before a format (the page's HTML, its
/// Markdown twin) draws them.
pub(in crate::render) enum View {
    /// The component hub: pivoted on `columns` when the page names some,
    /// otherwise each row's role and status.
    Hub(Vec<Column>, Vec<EntityRow>),
    /// The generation matrix.
    Matrix(Vec<Column>, Vec<EntityRow>),
    /// One card per observer; cells follow [`OBSERVER_ASPECTS`].
    Observers(Vec<EntityRow>),
    /// The observation worlds: each row's one cell is its `world` claim.
    Home(Vec<EntityRow>),
    /// Every unresolved or limited claim, by page.
    OpenQuestions(Vec<Group>),
}

impl Ctx<'_> {
    fn claim_view(&self, lang: Lang, id: &str) -> Option<ClaimView> {
        self.claim(lang, id).cloned()
    }

    fn cell(&self, lang: Lang, about: &str, aspect: &str) -> Option<ClaimView> {
        let at = self.cells.get(&(about.to_owned(), aspect.to_owned()))?;
        self.claim_view(lang, &self.shown_at(*at)?.id)
    }

    fn entities<'s>(&'s self, kind: &'s str) -> impl Iterator<Item = &'s Outline> + 's {
        self.order
            .iter()
            .map(|&i| self.outline(i))
            .filter(move |p| p.entity.as_ref().is_some_and(|e| e.kind == kind))
    }

    fn row(
        &self,
        lang: Lang,
        tree: &str,
        page: &Outline,
        cells: Vec<Option<ClaimView>>,
    ) -> EntityRow {
        let e = page
            .entity
            .as_ref()
            .expect("entities() yields pages with an entity");
        EntityRow {
            key: e.key.clone(),
            name: e.name.get(lang).clone(),
            href: self.page_href(tree, page),
            role: e.role.as_ref().map(|r| r.get(lang).clone()),
            status: e
                .status
                .as_ref()
                .and_then(|(id, _)| self.claim_view(lang, id)),
            cells,
            observed: self.observed_on(tree, lang, &e.key),
        }
    }

    /// The questions of aspects scoped to the entity `key`, each linked
    /// to the view that answers it.
    fn observed_on(&self, tree: &str, lang: Lang, key: &str) -> Vec<PageLink> {
        self.config()
            .aspects
            .iter()
            .filter(|(_, a)| a.scope.as_ref().is_some_and(|(k, _)| k == key))
            .filter_map(|(name, a)| {
                Some(PageLink {
                    label: a.asks(name, lang),
                    href: self.view_of(tree, name)?,
                })
            })
            .collect()
    }
}

/// The status chain of the observers page as a dot graph: one node per
/// observer in order, labelled with its name and its status class.
fn status_chain(cx: &Ctx<'_>, lang: Lang, tree: &str) -> Result<String, Diagnostic> {
    let mut dot = String::from("digraph {\n  node [shape=box, style=filled];\n");
    let mut prev: Option<usize> = None;
    for (i, page) in cx.entities("observer").enumerate() {
        let e = page.entity.as_ref().expect("observer pages have an entity");
        let status = e
            .status
            .as_ref()
            .and_then(|(id, _)| cx.shown(id))
            .map(|(_, c)| c);
        // The node says the observer's state (its answer) and how well
        // that is known in words; its fill is neutral: a class colour read
        // as "works" is what readers met (issue 26).
        // The whole status text, wrapped: a cut label hides the outcome.
        // The state is wrapped at the same width: one long state ("◑
        // Indirect and approximate only · Confirmed") widened every node
        // and shrank the chain's labels to 7 px on a 360 px phone.
        let width = if lang == Lang::Ja { 18 } else { 30 };
        let label = match status {
            Some(c) => format!(
                "{}\\n{}\\n{}",
                e.name.get(lang),
                wrap(&format!("[{}]", node_state(cx, lang, c)?), width).join("\\n"),
                wrap(c.text.get(lang), width).join("\\n")
            ),
            None => e.name.get(lang).clone(),
        };
        let fill = NODE_FILL;
        dot.push_str(&format!(
            "  n{i} [label=\"{}\", fillcolor=\"{fill}\", href=\"{}\"];\n",
            label.replace('"', "'"),
            cx.page_href(tree, page)
        ));
        if let Some(p) = prev {
            dot.push_str(&format!("  n{p} -> n{i};\n"));
        }
        prev = Some(i);
    }
    dot.push_str("}\n");
    if prev.is_none() {
        return Ok(String::new());
    }
    cx.renderer
        .diagrams
        .svg(
            &dot,
            &format!("status-chain-{lang}-{}", tree.replace('-', "")),
        )
        .map(|svg| {
            format!("<figure class=\"diagram diagram--chain\" tabindex=\"0\">{svg}</figure>")
        })
        .map_err(|m| {
            Diagnostic::error(
                "E050",
                crate::error::Location::file(page_source(cx)),
                format!("status chain could not be drawn: {m}"),
            )
        })
}

/// A node's fill: one neutral tone. Its label says the answer and the
/// class in words; a class colour here was read as the answer.
const NODE_FILL: &str = "#EEEEEE";

/// "✗ Blocked · Limited": a status claim's answer (when it states one)
/// and its class, in words, for a node's label.
fn node_state(cx: &Ctx<'_>, lang: Lang, c: &crate::content::Claim) -> Result<String, Diagnostic> {
    let class = cx
        .renderer
        .i18n()
        .message(lang, &format!("class-{}", c.class.name()), None)
        .map_err(|m| {
            Diagnostic::error("E040", crate::error::Location::file("templates/i18n"), m)
        })?;
    Ok(match super::context::answer_view(cx, c, lang) {
        Some(a) if !is_answer(a.kind) => {
            let none = cx
                .renderer
                .i18n()
                .message(lang, "answer-not-known", None)
                .map_err(|m| {
                    Diagnostic::error("E040", crate::error::Location::file("templates/i18n"), m)
                })?;
            format!("{none}: {} · {class}", a.label)
        }
        Some(a) => format!("{} {} · {class}", a.glyph, a.label),
        None => class,
    })
}

/// `s` in lines of about `n` characters: broken at spaces where there are
/// any, otherwise (Japanese) after `n` characters, never inside a word of
/// Latin letters or digits.
fn wrap(s: &str, n: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    let mut count = 0;
    for word in s.split_inclusive(' ') {
        let len = word.chars().count();
        if count + len > n && count > 0 {
            lines.push(line.trim_end().to_owned());
            line.clear();
            count = 0;
        }
        if len > n && !word.is_ascii() {
            // A run without spaces: cut by characters, but not between two
            // ASCII letters or digits.
            for ch in word.chars() {
                let prev = line.chars().last();
                let joined =
                    prev.is_some_and(|p| p.is_ascii_alphanumeric() && ch.is_ascii_alphanumeric());
                if count >= n && !joined {
                    lines.push(line.trim_end().to_owned());
                    line.clear();
                    count = 0;
                }
                line.push(ch);
                count += 1;
            }
        } else {
            line.push_str(word);
            count += len;
        }
    }
    if !line.trim().is_empty() {
        lines.push(line.trim_end().to_owned());
    }
    lines
}

fn page_source(cx: &Ctx<'_>) -> String {
    cx.entities("observer").next().map_or_else(
        || "content".to_owned(),
        |p| crate::content::shown_path(&p.rel),
    )
}

/// A generated view in both languages, Japanese then English, each marked
/// with its language (the parallel view's shared rows).
pub(super) fn both_views(ja: Option<&str>, en: Option<&str>) -> Option<String> {
    match (ja, en) {
        (Some(ja), Some(en)) => Some(format!(
            "<div class=\"view-both\"><div class=\"view-lang\" lang=\"ja\">{ja}</div><div class=\"view-lang\" lang=\"en\">{en}</div></div>"
        )),
        (one, other) => one.or(other).map(str::to_owned),
    }
}

/// The HTML of the page's generated view in `lang`, linking into `tree`;
/// `None` for layouts without one.
pub(super) fn view_html(
    cx: &Ctx<'_>,
    page: &Page,
    lang: Lang,
    tree: &str,
) -> Result<Option<String>, Diagnostic> {
    let Some(view) = view(cx, page, lang, tree) else {
        return Ok(None);
    };
    let mut t = tera::Context::new();
    t.insert("lang", lang.code());
    t.insert("base", cx.base);
    let name = match view {
        View::Hub(columns, rows) => {
            t.insert("columns", &columns);
            t.insert("rows", &rows);
            "views/hub.html"
        }
        View::Matrix(columns, rows) => {
            t.insert("columns", &columns);
            t.insert("rows", &rows);
            "views/matrix.html"
        }
        View::Observers(rows) => {
            t.insert("aspects", &OBSERVER_ASPECTS);
            t.insert("rows", &rows);
            t.insert("chain", &status_chain(cx, lang, tree)?);
            "views/observers.html"
        }
        View::Home(rows) => {
            t.insert("rows", &rows);
            "views/home.html"
        }
        View::OpenQuestions(groups) => {
            let counts = class_counts(&groups);
            t.insert("total", &counts.iter().map(|c| c.1).sum::<usize>());
            t.insert("counts", &counts);
            t.insert("groups", &groups);
            "views/open_questions.html"
        }
    };
    cx.render(name, &t).map(Some)
}

/// The rows of the page's generated view in `lang`, linking into `tree`;
/// `None` for layouts without one.
pub(in crate::render) fn view(cx: &Ctx<'_>, page: &Page, lang: Lang, tree: &str) -> Option<View> {
    Some(match page.layout {
        Layout::Page => return None,
        // With `[view] columns` the hub pivots each component on those
        // aspects (loaded, dispatched, …), as the matrix does.
        Layout::Hub => View::Hub(
            columns(cx, page, lang),
            pivot_rows(cx, page, lang, tree, "component"),
        ),
        Layout::Matrix => View::Matrix(
            columns(cx, page, lang),
            pivot_rows(cx, page, lang, tree, "generation"),
        ),
        Layout::Observers => View::Observers(
            cx.entities("observer")
                .map(|p| {
                    let key = &p
                        .entity
                        .as_ref()
                        .expect("observer pages have an entity")
                        .key;
                    let cells = OBSERVER_ASPECTS
                        .iter()
                        .map(|a| cx.cell(lang, key, a))
                        .collect();
                    cx.row(lang, tree, p, cells)
                })
                .collect(),
        ),
        Layout::Home => View::Home(
            cx.entities("generation")
                .filter_map(|p| {
                    let key = &p
                        .entity
                        .as_ref()
                        .expect("generation pages have an entity")
                        .key;
                    let world = cx.cell(lang, key, "world")?;
                    Some(cx.row(lang, tree, p, vec![Some(world)]))
                })
                .collect(),
        ),
        Layout::OpenQuestions => View::OpenQuestions(open_questions(cx, lang, tree)),
    })
}

/// How many of the open questions are of each class, from the least
/// known up (unresolved, then limited); classes with none left out.
pub(in crate::render) fn class_counts(groups: &[Group]) -> Vec<(&'static str, usize)> {
    [Class::Unresolved, Class::Limited]
        .into_iter()
        .map(|class| {
            let n = groups
                .iter()
                .flat_map(|g| &g.claims)
                .filter(|p| p.claim.class == class.name())
                .count();
            (class.name(), n)
        })
        .filter(|(_, n)| *n > 0)
        .collect()
}

/// Every unresolved or limited claim, grouped by page in navigation order.
fn open_questions(cx: &Ctx<'_>, lang: Lang, tree: &str) -> Vec<Group> {
    let names: std::collections::HashMap<&str, &str> = cx
        .outlines()
        .filter_map(|p| p.entity.as_ref())
        .map(|e| (e.key.as_str(), e.name.get(lang).as_str()))
        .collect();
    let mut labels: std::collections::HashMap<&str, String> = cx
        .outlines()
        .flat_map(|p| &p.columns)
        .map(|c| (c.aspect.as_str(), c.label.get(lang).clone()))
        .collect();
    for a in OBSERVER_ASPECTS {
        if let Ok(m) = cx
            .renderer
            .i18n()
            .message(lang, &format!("view-observer-{a}"), None)
        {
            labels.entry(a).or_insert(m);
        }
    }
    // An aspect no column shows is named by its question, never by its
    // key (`state`: "Does the observer work?").
    for (name, aspect) in &cx.config().aspects {
        if aspect.question.is_some() {
            labels
                .entry(name.as_str())
                .or_insert_with(|| aspect.asks(name, lang));
        }
    }
    let context = |c: &crate::content::Claim| -> Option<String> {
        let row = c
            .about
            .as_deref()
            .map(|k| names.get(k).copied().unwrap_or(k));
        let col = c
            .aspect
            .as_deref()
            .map(|a| labels.get(a).cloned().unwrap_or_else(|| a.to_owned()));
        match (row, col) {
            (Some(r), Some(c)) => Some(format!("{r} · {c}")),
            (Some(r), None) => Some(r.to_owned()),
            (None, Some(c)) => Some(c),
            (None, None) => None,
        }
    };
    cx.order
        .iter()
        .map(|&i| (cx.outline(i), i))
        .filter_map(|(p, i)| {
            let claims: Vec<Placed> = cx
                .shown_claims_of(i)
                // Limited answers are open too: partly seen is not
                // settled.
                .filter(|c| {
                    matches!(c.class, Class::Unresolved | Class::Limited)
                        && c.life.state == crate::content::State::Current
                })
                .filter_map(|c| {
                    cx.claim_view(lang, &c.id).map(|claim| Placed {
                        claim,
                        context: context(c),
                    })
                })
                .collect();
            (!claims.is_empty()).then(|| Group {
                title: p.title.get(lang).clone(),
                href: cx.page_href(tree, p),
                claims,
            })
        })
        .collect()
}

fn columns(cx: &Ctx<'_>, page: &Page, lang: Lang) -> Vec<Column> {
    view_columns(&page.columns, lang)
        .into_iter()
        .map(|mut c| {
            c.question = cx
                .config()
                .aspect(&c.aspect)
                .and_then(|a| a.question.as_ref())
                .map(|q| q.get(lang).clone());
            // "Dispatched during inference" says nothing the question
            // "Dispatched during inference?" does not.
            let bare = |s: &str| s.trim_end_matches(['?', '？', 'か']).trim().to_lowercase();
            c.note = c
                .question
                .as_ref()
                .filter(|q| bare(q) != bare(&c.label))
                .map(|_| c.label.clone());
            c
        })
        .collect()
}

fn view_columns(cols: &[crate::content::Column], lang: Lang) -> Vec<Column> {
    cols.iter()
        .map(|c| Column {
            aspect: c.aspect.clone(),
            label: c.label.get(lang).clone(),
            question: None,
            note: None,
        })
        .collect()
}

/// A row of a named view: an entity declared anywhere on the site.
#[derive(Serialize)]
pub(in crate::render) struct MemberRow {
    key: String,
    pub(in crate::render) name: String,
    /// Its own page, when it has one.
    pub(in crate::render) href: Option<String>,
    pub(in crate::render) status: Option<ClaimView>,
    pub(in crate::render) cells: Vec<Option<ClaimView>>,
}

/// A named view as rows, before a format draws it.
pub(in crate::render) enum Named {
    /// `[[table:NAME]]`: the label of the rows' kind, the columns, a row
    /// per entity.
    Table(String, Vec<Column>, Vec<MemberRow>),
    /// `[[graph:NAME]]`: a node per entity.
    Graph(Vec<Node>),
}

/// A node of a dependency graph: the entity's name, its state in words
/// ("✗ Blocked · Limited") when it has a status claim, and the names of
/// the entities it depends on.
pub(in crate::render) struct Node {
    pub(in crate::render) name: String,
    pub(in crate::render) state: Option<String>,
    pub(in crate::render) depends_on: Vec<String>,
}

/// The entities of `kind` in page order, each with the page declaring
/// it (its own `[entity]` first, then its `[[entities]]`).
fn members<'s>(
    cx: &'s Ctx<'s>,
    kind: &'s str,
) -> impl Iterator<Item = (&'s Outline, &'s crate::content::Entity, bool)> + 's {
    cx.order.iter().flat_map(move |&i| {
        let p: &Outline = cx.outline(i);
        p.entity
            .iter()
            .map(move |e| (p, e, true))
            .chain(p.members.iter().map(move |e| (p, e, false)))
            .filter(move |(_, e, _)| e.kind == kind)
    })
}

/// The HTML of a named view marker (`table:NAME` or `graph:NAME`) on
/// `page`; `None` if the page declares no such view.
pub(super) fn named_view_html(
    cx: &Ctx<'_>,
    page: &Page,
    marker: &str,
    lang: Lang,
    tree: &str,
) -> Result<Option<String>, Diagnostic> {
    let Some((view, named)) = named_view(cx, page, marker, lang, tree)? else {
        return Ok(None);
    };
    let (kind_label, columns, rows) = match named {
        Named::Graph(nodes) => return dependency_graph(cx, page, view, lang, &nodes).map(Some),
        Named::Table(kind_label, columns, rows) => (kind_label, columns, rows),
    };
    let mut t = tera::Context::new();
    t.insert("lang", lang.code());
    t.insert("base", cx.base);
    t.insert("name", &view.name);
    // Row ids are anchors for the one-language trees; the parallel view may
    // show a table in both columns of a pair, where they would repeat.
    t.insert("row_ids", &(tree != "ja-en"));
    t.insert("kind_label", &kind_label);
    t.insert("columns", &columns);
    t.insert("rows", &rows);
    cx.render("views/table.html", &t).map(Some)
}

/// The rows of a named view marker (`table:NAME` or `graph:NAME`) on
/// `page`, with the view's declaration; `None` if the page declares no
/// such view.
pub(in crate::render) fn named_view<'p>(
    cx: &Ctx<'_>,
    page: &'p Page,
    marker: &str,
    lang: Lang,
    tree: &str,
) -> Result<Option<(&'p crate::content::NamedView, Named)>, Diagnostic> {
    let (what, name) = marker.split_once(':').unwrap_or((marker, ""));
    let Some(view) = page.views.iter().find(|v| v.name == name.trim()) else {
        return Ok(None);
    };
    if what == "graph" {
        return Ok(Some((view, Named::Graph(graph_nodes(cx, view, lang)?))));
    }
    let rows: Vec<MemberRow> = members(cx, &view.kind)
        .map(|(p, e, own)| MemberRow {
            key: e.key.clone(),
            name: e.name.get(lang).clone(),
            href: own.then(|| cx.page_href(tree, p)),
            status: e
                .status
                .as_ref()
                .and_then(|(id, _)| cx.claim_view(lang, id)),
            cells: view
                .columns
                .iter()
                .map(|c| cx.cell(lang, &e.key, &c.aspect))
                .collect(),
        })
        .collect();
    let kind_label = cx
        .config()
        .kinds
        .get(&view.kind)
        .map_or_else(|| view.kind.clone(), |k| k.get(lang).clone());
    Ok(Some((
        view,
        Named::Table(kind_label, view_columns(&view.columns, lang), rows),
    )))
}

/// The nodes of the `depends-on` graph between the entities of a view's
/// kind, in page order, each labelled with its status claim's answer and
/// class in words.
fn graph_nodes(
    cx: &Ctx<'_>,
    view: &crate::content::NamedView,
    lang: Lang,
) -> Result<Vec<Node>, Diagnostic> {
    let entities: Vec<&crate::content::Entity> =
        members(cx, &view.kind).map(|(_, e, _)| e).collect();
    let names: std::collections::HashMap<&str, &str> = entities
        .iter()
        .map(|e| (e.key.as_str(), e.name.get(lang).as_str()))
        .collect();
    entities
        .iter()
        .map(|e| {
            let status = e
                .status
                .as_ref()
                .and_then(|(id, _)| cx.shown(id))
                .map(|(_, c)| c);
            Ok(Node {
                name: e.name.get(lang).clone(),
                state: status.map(|c| node_state(cx, lang, c)).transpose()?,
                // Validation reported an unknown key (E090); what is known
                // is drawn.
                depends_on: e
                    .depends_on
                    .iter()
                    .filter_map(|(dep, _)| names.get(dep.as_str()).map(|n| (*n).to_owned()))
                    .collect(),
            })
        })
        .collect()
}

/// The `depends-on` relation between the entities of a view's kind as a
/// dot graph: one node per entity, labelled by its status claim's answer
/// and class, one edge per dependency.
fn dependency_graph(
    cx: &Ctx<'_>,
    page: &Page,
    view: &crate::content::NamedView,
    lang: Lang,
    nodes: &[Node],
) -> Result<String, Diagnostic> {
    // Nodes are named by the entity's name, so the diagram's accessible
    // name (its edges) reads as names, not as generated ids.
    let node_id = |name: &str| format!("\"{}\"", name.replace(['"', '\\'], "'"));
    let mut dot = String::from("digraph {\n  node [shape=box, style=filled];\n");
    for n in nodes {
        let label = match &n.state {
            Some(state) => format!("{}\\n[{state}]", n.name),
            None => n.name.clone(),
        };
        dot.push_str(&format!(
            "  {} [label=\"{}\", fillcolor=\"{NODE_FILL}\"];\n",
            node_id(&n.name),
            label.replace('"', "'")
        ));
    }
    for n in nodes {
        for dep in &n.depends_on {
            dot.push_str(&format!("  {} -> {};\n", node_id(&n.name), node_id(dep)));
        }
    }
    dot.push_str("}\n");
    let id = format!("graph-{}-{lang}", view.name);
    cx.renderer.diagrams
        .svg(&dot, &id)
        .map(|svg| {
            format!("<figure class=\"diagram diagram--graph\" id=\"{id}\" tabindex=\"0\">{svg}</figure>")
        })
        .map_err(|m| {
            Diagnostic::error(
                "E050",
                crate::error::Location::file(page.source_path()),
                format!("graph `{}` could not be drawn: {m}", view.name),
            )
        })
}

/// One row per entity of `kind`, each cell the claim about that entity for
/// one of the page's `[view] columns`: the hub and the matrix alike.
fn pivot_rows(cx: &Ctx<'_>, page: &Page, lang: Lang, tree: &str, kind: &str) -> Vec<EntityRow> {
    cx.entities(kind)
        .map(|p| {
            let key = &p
                .entity
                .as_ref()
                .expect("pages listed by kind have an entity")
                .key;
            let cells = page
                .columns
                .iter()
                .map(|c| cx.cell(lang, key, &c.aspect))
                .collect();
            cx.row(lang, tree, p, cells)
        })
        .collect()
}
