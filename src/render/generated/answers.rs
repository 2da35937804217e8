//! What a page answers first: the summary of findings (`[view]
//! findings`, see `sof`), the scope of its view's columns, and on an
//! entity's page its aspects' answers and what was observed on it
//! (issues 26, 40).
//!
//! Rows are gathered here as values ([`Answers`]); `views/answers.html`
//! draws them for the HTML and `render::twin` for the Markdown twin.

use super::{PageLink, ScopeNote, OBSERVER_ASPECTS};
use crate::content::{Layout, Page};
use crate::error::Diagnostic;
use crate::lang::Lang;
use crate::render::context::Ctx;
use crate::render::views::ClaimView;
use serde::Serialize;

/// One aspect an entity page answers at its top.
#[derive(Serialize)]
pub(in crate::render) struct AspectAnswer {
    pub(in crate::render) question: String,
    pub(in crate::render) claim: ClaimView,
    pub(in crate::render) scope: Option<PageLink>,
}

/// An entity that is the scope of some aspects, or could be: which
/// questions were observed on it (with the view answering them), which
/// only on another.
#[derive(Serialize)]
pub(in crate::render) struct Observed {
    pub(in crate::render) here: Vec<PageLink>,
    pub(in crate::render) elsewhere: Vec<(String, PageLink)>,
}

impl Ctx<'_> {
    /// The page of the entity `key`, linked by the entity's name.
    fn entity_link(&self, tree: &str, lang: Lang, key: &str) -> Option<(PageLink, &str)> {
        self.order.iter().map(|&i| self.outline(i)).find_map(|p| {
            let e = p.entity.as_ref().filter(|e| e.key == key)?;
            Some((
                PageLink {
                    label: e.name.get(lang).clone(),
                    href: self.page_href(tree, p),
                },
                e.kind.as_str(),
            ))
        })
    }

    /// Whether the claim about entity `key` on `aspect`'s `elsewhere`
    /// aspect answers `aspect`'s question there (a not-known answer does
    /// not): then the question was not unobserved on it.
    fn answered_elsewhere(&self, lang: Lang, aspect: &crate::config::Aspect, key: &str) -> bool {
        let Some((other, _)) = &aspect.elsewhere else {
            return false;
        };
        self.cell(lang, key, other).is_some_and(|c| {
            c.answer
                .as_ref()
                .is_none_or(|a| super::sof::is_answer(a.kind))
        })
    }

    pub(super) fn scope_note(
        &self,
        tree: &str,
        lang: Lang,
        aspect: &crate::config::Aspect,
        what: Vec<String>,
    ) -> ScopeNote {
        let on = aspect
            .scope
            .as_ref()
            .and_then(|(key, _)| self.entity_link(tree, lang, key));
        let not_on = match &on {
            Some((link, kind)) => self
                .entities(kind)
                .filter(|p| self.page_href(tree, p) != link.href)
                .filter(|p| {
                    p.entity
                        .as_ref()
                        .is_none_or(|e| !self.answered_elsewhere(lang, aspect, &e.key))
                })
                .map(|p| PageLink {
                    label: p
                        .entity
                        .as_ref()
                        .map_or_else(String::new, |e| e.name.get(lang).clone()),
                    href: self.page_href(tree, p),
                })
                .collect(),
            None => Vec::new(),
        };
        ScopeNote {
            what,
            on: on.map(|(l, _)| l),
            setup: aspect.setup.as_ref().map(|s| s.get(lang).clone()),
            not_on,
        }
    }

    /// The first page whose generated view shows `aspect`: a column of a
    /// hub or matrix, or an observer card's state.
    pub(super) fn view_of(&self, tree: &str, aspect: &str) -> Option<String> {
        self.order
            .iter()
            .map(|&i| self.outline(i))
            .find(|p| {
                p.columns.iter().any(|c| c.aspect == aspect)
                    || (p.layout == Layout::Observers
                        && (aspect == "state" || OBSERVER_ASPECTS.contains(&aspect)))
            })
            .map(|p| self.page_href(tree, p))
    }
}

/// What a page answers first (see [`answers`]), before a format draws it.
pub(in crate::render) struct Answers {
    pub(in crate::render) sof: Option<super::sof::Sof>,
    pub(in crate::render) scopes: Vec<ScopeNote>,
    pub(in crate::render) answers: Vec<AspectAnswer>,
    pub(in crate::render) observed: Observed,
}

/// The questions a page answers first, as HTML (see [`answers`]).
pub(in crate::render) fn answers_html(
    cx: &Ctx<'_>,
    page: &Page,
    lang: Lang,
    tree: &str,
) -> Result<String, Diagnostic> {
    let Some(a) = answers(cx, page, lang, tree) else {
        return Ok(String::new());
    };
    let mut t = tera::Context::new();
    t.insert("lang", lang.code());
    t.insert("base", cx.base);
    t.insert("sof", &a.sof);
    t.insert("scopes", &a.scopes);
    t.insert("answers", &a.answers);
    t.insert("observed", &a.observed);
    t.insert(
        "entity",
        &page.entity.as_ref().map(|e| e.name.get(lang).clone()),
    );
    cx.render("views/answers.html", &t)
}

/// The questions a page answers first: the summary of findings
/// (`[view] findings`), the scope of its view's columns, and on an
/// entity's page its aspects' answers and what was observed on it;
/// `None` when it answers none.
pub(in crate::render) fn answers(
    cx: &Ctx<'_>,
    page: &Page,
    lang: Lang,
    tree: &str,
) -> Option<Answers> {
    let config = &cx.config();
    let question = |name: &str, a: &crate::config::Aspect| a.asks(name, lang);
    let sof = super::sof::sof(cx, page, lang, tree);
    // The scope of the page's own view: its columns' aspects (and an
    // observer card's state), grouped by where they were observed.
    // Keyed by (scope entity, setup): columns observed on the same entity
    // the same way share a note.
    type Where<'s> = (Option<&'s str>, Option<&'s str>);
    let mut scopes: Vec<(Where<'_>, ScopeNote)> = Vec::new();
    // Named by their question where the aspect asks one, as the view's
    // headers and the summary of findings name them.
    let mut shown: Vec<(String, String)> = page
        .columns
        .iter()
        .map(|c| {
            let label = config
                .aspect(&c.aspect)
                .and_then(|a| a.question.as_ref())
                .unwrap_or(&c.label);
            (c.aspect.clone(), label.get(lang).clone())
        })
        .collect();
    if page.layout == Layout::Observers {
        if let Some(a) = config.aspect("state") {
            shown.push(("state".to_owned(), question("state", a)));
        }
    }
    for (name, label) in shown {
        let Some(aspect) = config.aspect(&name) else {
            continue;
        };
        if aspect.scope.is_none() && aspect.setup.is_none() {
            continue;
        }
        let key = (
            aspect.scope.as_ref().map(|s| s.0.as_str()),
            aspect.setup.as_ref().map(|s| s.get(lang).as_str()),
        );
        match scopes.iter_mut().find(|(k, _)| *k == key) {
            Some((_, note)) => note.what.push(label),
            None => scopes.push((key, cx.scope_note(tree, lang, aspect, vec![label]))),
        }
    }
    let scopes: Vec<ScopeNote> = scopes.into_iter().map(|(_, n)| n).collect();
    // An entity's page: its aspects' answers, and what was observed on it.
    let mut answers = Vec::new();
    let mut observed = Observed {
        here: Vec::new(),
        elsewhere: Vec::new(),
    };
    if let Some(e) = &page.entity {
        for (name, aspect) in &config.aspects {
            if aspect.answers.is_empty() {
                continue;
            }
            if let Some(claim) = cx.cell(lang, &e.key, name) {
                answers.push(AspectAnswer {
                    question: question(name, aspect),
                    claim,
                    scope: aspect
                        .scope
                        .as_ref()
                        .and_then(|(key, _)| cx.entity_link(tree, lang, key))
                        .map(|(l, _)| l),
                });
            }
            let Some((key, _)) = &aspect.scope else {
                continue;
            };
            if *key != e.key && !cx.answered_elsewhere(lang, aspect, &e.key) {
                if let Some((link, kind)) = cx.entity_link(tree, lang, key) {
                    if kind == e.kind {
                        observed.elsewhere.push((question(name, aspect), link));
                    }
                }
            }
        }
        observed.here = cx.observed_on(tree, lang, &e.key);
    }
    if sof.is_none()
        && scopes.is_empty()
        && answers.is_empty()
        && observed.here.is_empty()
        && observed.elsewhere.is_empty()
    {
        return None;
    }
    Some(Answers {
        sof,
        scopes,
        answers,
        observed,
    })
}
