//! The summary of findings (`[view] findings`): per question, its scope
//! (where, how, when) and one row per answer and certainty, with the
//! entities it holds for; a numbered note under the table for every row
//! below confirmed, saying what would settle it (GRADE's explanations);
//! the open questions counted; the views that show the same questions
//! one row per entity.
//!
//! Rows are gathered here as values; `views/answers.html` draws them for
//! the HTML and `render::twin` for the Markdown twin.

use super::{PageLink, ScopeNote};
use crate::config::AnswerKind;
use crate::content::{Class, Layout, Page, State};
use crate::lang::Lang;
use crate::render::context::Ctx;
use crate::render::views::{AnswerView, ClaimView};
use serde::Serialize;

/// One row of the summary of findings: the entities whose claims on an
/// aspect state one answer with one certainty.
#[derive(Serialize)]
pub(in crate::render) struct FindingRow {
    pub(in crate::render) answer: Option<AnswerView>,
    pub(in crate::render) class: &'static str,
    /// As on every badge: a confirmed claim resting on transcripts or
    /// notes only says so ("Confirmed · per record").
    pub(in crate::render) basis: Option<&'static str>,
    /// Each entity, linked to its page: its answers there, each one click
    /// from its evidence.
    pub(in crate::render) entities: Vec<PageLink>,
    /// The number of its note under the table (a row below confirmed).
    pub(in crate::render) note: Option<usize>,
}

/// One question of the summary of findings.
#[derive(Serialize)]
pub(in crate::render) struct Finding {
    /// The aspect it asks about.
    pub(in crate::render) aspect: String,
    pub(in crate::render) question: String,
    /// The view that shows the question's answers cell by cell.
    pub(in crate::render) href: Option<String>,
    pub(in crate::render) rows: Vec<FindingRow>,
    /// Its own scope: the entity observed on, how and when (its aspect's
    /// `setup`), and where it was not observed.
    pub(in crate::render) scope: ScopeNote,
}

/// A note under the table: why a row is below confirmed, and what would
/// settle it, entity by entity where they differ.
#[derive(Serialize)]
pub(in crate::render) struct Note {
    pub(in crate::render) n: usize,
    pub(in crate::render) class: &'static str,
    pub(in crate::render) items: Vec<NoteItem>,
}

/// What a note says of some of its row's entities.
#[derive(Serialize)]
pub(in crate::render) struct NoteItem {
    pub(in crate::render) entities: Vec<PageLink>,
    /// `settle` (the observation that would settle it), `from` (the
    /// claims an inference rests on) or `none` (not said yet).
    pub(in crate::render) what: &'static str,
    pub(in crate::render) text: String,
}

/// A view showing some of the summary's questions side by side, one row
/// per entity: the per-entity route from the summary.
#[derive(Serialize)]
pub(in crate::render) struct Pivot {
    /// The entity kind of its rows, in words.
    pub(in crate::render) kind: String,
    pub(in crate::render) page: PageLink,
}

/// The open questions of the site: how many, and the page listing them.
#[derive(Serialize)]
pub(in crate::render) struct Open {
    pub(in crate::render) count: usize,
    pub(in crate::render) href: Option<String>,
}

/// The summary of findings of a page, before a format draws it.
#[derive(Serialize)]
pub(in crate::render) struct Sof {
    pub(in crate::render) findings: Vec<Finding>,
    pub(in crate::render) notes: Vec<Note>,
    pub(in crate::render) pivots: Vec<Pivot>,
    pub(in crate::render) open: Open,
}

/// The open questions of the site: its current unresolved and limited
/// claims (the open-questions page lists the same).
fn open_claims<'a, 'c>(cx: &'c Ctx<'a>) -> impl Iterator<Item = &'a crate::content::Claim> + 'c {
    (0..cx.page_count())
        .flat_map(|i| cx.shown_claims_of(i))
        .filter(|c| {
            matches!(c.class, Class::Unresolved | Class::Limited) && c.life.state == State::Current
        })
}

/// The summary of findings of `page` in `lang`, linking into `tree`;
/// `None` when it declares no findings.
pub(in crate::render) fn sof(cx: &Ctx<'_>, page: &Page, lang: Lang, tree: &str) -> Option<Sof> {
    if page.findings.is_empty() {
        return None;
    }
    let config = &cx.config();
    let mut findings = Vec::new();
    let mut notes: Vec<Note> = Vec::new();
    for (name, _) in &page.findings {
        let Some(aspect) = config.aspect(name) else {
            continue;
        };
        // Per entity, its claim on the aspect, ranked by the vocabulary's
        // order, then from best known down; entities keep page order.
        let mut cells: Vec<(Option<usize>, usize, PageLink, ClaimView)> = Vec::new();
        for p in cx.order.iter().map(|&i| cx.outline(i)) {
            let Some(e) = &p.entity else { continue };
            let Some(c) = cx.cell(lang, &e.key, name) else {
                continue;
            };
            let rank = c
                .answer
                .as_ref()
                .and_then(|a| aspect.answers.iter().position(|x| x.key == a.key));
            let certainty = Class::BY_CERTAINTY
                .iter()
                .position(|k| k.name() == c.class)
                .unwrap_or(0);
            let link = PageLink {
                label: e.name.get(lang).clone(),
                href: cx.page_href(tree, p),
            };
            cells.push((rank, certainty, link, c));
        }
        cells.sort_by_key(|(rank, certainty, _, _)| (rank.is_none(), *rank, *certainty));
        let mut rows: Vec<(FindingRow, Vec<(PageLink, ClaimView)>)> = Vec::new();
        for (_, _, link, c) in cells {
            match rows.last_mut() {
                Some((r, claims))
                    if r.answer == c.answer && r.class == c.class && r.basis == c.basis =>
                {
                    r.entities.push(link.clone());
                    claims.push((link, c));
                }
                _ => rows.push((
                    FindingRow {
                        answer: c.answer.clone(),
                        class: c.class,
                        basis: c.basis,
                        entities: vec![link.clone()],
                        note: None,
                    },
                    vec![(link, c)],
                )),
            }
        }
        let mut out = Vec::new();
        for (mut row, claims) in rows {
            if row.class != Class::Confirmed.name() {
                let n = notes.len() + 1;
                row.note = Some(n);
                notes.push(Note {
                    n,
                    class: row.class,
                    items: note_items(claims),
                });
            }
            out.push(row);
        }
        let question = aspect.asks(name, lang);
        findings.push(Finding {
            aspect: name.clone(),
            question: question.clone(),
            href: cx.view_of(tree, name),
            rows: out,
            scope: cx.scope_note(tree, lang, aspect, vec![question]),
        });
    }
    Some(Sof {
        findings,
        notes,
        pivots: pivots(cx, page, lang, tree),
        open: Open {
            count: open_claims(cx).count(),
            href: cx
                .order
                .iter()
                .map(|&i| cx.outline(i))
                .find(|p| p.layout == Layout::OpenQuestions)
                .map(|p| cx.page_href(tree, p)),
        },
    })
}

/// What a row's note says of each of its claims: what would settle it, or
/// for an inference without that, what it rests on; entities saying the
/// same share an item.
fn note_items(claims: Vec<(PageLink, ClaimView)>) -> Vec<NoteItem> {
    let mut items: Vec<NoteItem> = Vec::new();
    for (link, c) in claims {
        let (what, text) = match (&c.settle, c.from.is_empty()) {
            (Some(s), _) => ("settle", s.clone()),
            (None, false) => (
                "from",
                c.from
                    .iter()
                    .map(|f| f.text.as_str())
                    .collect::<Vec<_>>()
                    .join(" / "),
            ),
            (None, true) => ("none", String::new()),
        };
        match items.iter_mut().find(|i| i.what == what && i.text == text) {
            Some(i) => i.entities.push(link),
            None => items.push(NoteItem {
                entities: vec![link],
                what,
                text,
            }),
        }
    }
    items
}

/// The hubs and matrices that show two or more of the page's findings as
/// columns: each the summary's questions side by side, one row per entity.
fn pivots(cx: &Ctx<'_>, page: &Page, lang: Lang, tree: &str) -> Vec<Pivot> {
    let asked: Vec<&str> = page.findings.iter().map(|(n, _)| n.as_str()).collect();
    cx.order
        .iter()
        .map(|&i| cx.outline(i))
        .filter(|p| matches!(p.layout, Layout::Hub | Layout::Matrix))
        .filter(|p| {
            p.columns
                .iter()
                .filter(|c| asked.contains(&c.aspect.as_str()))
                .count()
                >= 2
        })
        .map(|p| {
            let kind = if p.layout == Layout::Hub {
                "component"
            } else {
                "generation"
            };
            let label = cx
                .config()
                .kinds
                .get(kind)
                .map_or_else(|| kind.to_owned(), |k| k.get(lang).clone());
            Pivot {
                // Mid-sentence in English: "one row per component".
                kind: if lang == Lang::En {
                    label.to_lowercase()
                } else {
                    label
                },
                page: PageLink {
                    label: p.title.get(lang).clone(),
                    href: cx.page_href(tree, p),
                },
            }
        })
        .collect()
}

/// Whether `kind` is an answer: a not-known answer is the absence of one.
pub(in crate::render) fn is_answer(kind: Option<&str>) -> bool {
    kind != Some(AnswerKind::NotKnown.name())
}
