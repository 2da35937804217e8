//! A claim's answer against its aspect's vocabulary (E024) and its kind
//! (E028), what would settle a claim (E034, E035), and the vocabulary's
//! scope against the site's entities.

use super::{Checker, ClaimAt, Mode};
use crate::config::AnswerKind;
use crate::content::claims::nearest;
use crate::content::{Claim, Class, State};
use crate::error::Diagnostic;
use std::ops::Range;

impl Checker<'_> {
    /// The kind of the answer `claim` states, when its vocabulary says.
    pub(super) fn answer_kind(&self, claim: &Claim) -> Option<AnswerKind> {
        let (key, _) = claim.answer.as_ref()?;
        self.config
            .aspect(claim.aspect.as_deref()?)?
            .answer(key)?
            .kind
    }

    /// E028 for a not-known answer stated as confirmed or inferred; E034
    /// for an unresolved or limited claim that does not say what would
    /// settle it, E035 for a confirmed one that does.
    pub(super) fn certainty(&self, at: ClaimAt, diags: &mut Vec<Diagnostic>) {
        let page = &self.content.pages[at.page];
        let src = &page.src;
        let claim = &page.claims[at.claim];
        if let (Some(AnswerKind::NotKnown), Some((key, span))) =
            (self.answer_kind(claim), &claim.answer)
        {
            if matches!(claim.class, Class::Confirmed | Class::Inferred) {
                diags.push(
                    src.error(
                        "E028",
                        span.clone(),
                        format!(
                            "claim `{}` is {}, but its answer `{key}` is not known",
                            claim.id,
                            claim.class.name()
                        ),
                    )
                    .with_hint("a not-known answer is unresolved or limited: class the claim by what was seen, or state what was seen as its answer"),
                );
            }
        }
        // A claim withdrawn or replaced is not an open question.
        if claim.life.state != State::Current {
            return;
        }
        match (claim.class, &claim.settle) {
            (Class::Unresolved | Class::Limited, None) => {
                let message = format!(
                    "{} claim `{}` does not say what would settle it",
                    claim.class.name(),
                    claim.id
                );
                // As an untranslated segment: a writer may preview an open
                // claim, or draft one, before saying what would settle it.
                let d = if self.mode == Mode::Check && !page.draft {
                    src.error("E034", claim.id_span.clone(), message)
                } else {
                    src.warning("E034", claim.id_span.clone(), message)
                };
                diags.push(d.with_hint(
                    "add `settle = { ja = \"…\", en = \"…\" }`: the observation that would settle it",
                ));
            }
            (Class::Confirmed, Some((_, span))) => diags.push(
                src.error(
                    "E035",
                    span.clone(),
                    format!(
                        "confirmed claim `{}` has nothing to settle, but gives `settle`",
                        claim.id
                    ),
                )
                .with_hint("remove `settle`, or class the claim by what was seen: `settle` says what would settle an unresolved or limited claim"),
            ),
            _ => {}
        }
    }

    /// E024 when a claim's `answer` is not one its aspect declares.
    pub(super) fn answer(
        &self,
        src: &crate::source::Source,
        claim: &crate::content::Claim,
        answer: &str,
        span: Range<usize>,
    ) -> Option<Diagnostic> {
        let Some(aspect) = &claim.aspect else {
            return Some(
                src.error(
                    "E024",
                    span,
                    format!("claim `{}` states an answer but no aspect", claim.id),
                )
                .with_hint(
                    "an answer is one of an aspect's declared answers: add `aspect = \"…\"`, or remove `answer`",
                ),
            );
        };
        // An aspect that names nothing is E026's, with its did-you-mean.
        if !self.aspect_known(aspect, true, false) {
            return None;
        }
        let declared = self.config.aspect(aspect).filter(|a| !a.answers.is_empty());
        let Some(declared) = declared else {
            if self.config.unread.aspect(aspect) {
                return None;
            }
            return Some(
                src.error("E024", span, format!("aspect `{aspect}` declares no answers"))
                    .with_hint(format!(
                        "declare them in book.toml, `[aspects.{aspect}] answers = [{{ key = \"{answer}\", label = {{ ja = \"…\", en = \"…\" }} }}]`, or remove `answer`"
                    )),
            );
        };
        // An answer book.toml could not read has its own finding there.
        if declared.answer(answer).is_some() || self.config.unread.answer(aspect, answer) {
            return None;
        }
        // A writer may type the words readers see ("Loaded") for the key.
        let by_label = declared
            .answers
            .iter()
            .find(|a| a.label.ja == answer || a.label.en.eq_ignore_ascii_case(answer));
        let keys = || declared.answers.iter().map(|a| a.key.as_str());
        let hint = match by_label
            .map(|a| a.key.as_str())
            .or_else(|| nearest(answer, keys()))
        {
            Some(k) => format!("did you mean `{k}`?"),
            None => format!(
                "use one of {}",
                keys()
                    .map(|k| format!("`{k}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        Some(
            src.error(
                "E024",
                span,
                format!("unknown answer `{answer}` for aspect `{aspect}`"),
            )
            .with_hint(hint),
        )
    }

    /// E024 for an `[aspects]` scope naming no entity of the site; E026
    /// for an `elsewhere` naming no aspect.
    pub(crate) fn aspect_scopes(&self) -> Vec<Diagnostic> {
        let mut diags = Vec::new();
        for (name, aspect) in &self.config.aspects {
            if let Some((other, at)) = &aspect.elsewhere {
                if !self.aspect_known(other, true, true) {
                    let names = self.config.aspects.iter().map(|(n, _)| n.as_str());
                    let hint = match nearest(other, names.chain(self.lookups.columns.keys().map(String::as_str))) {
                        Some(n) => format!("did you mean `{n}`?"),
                        None => "name the aspect whose claims answer this question on the other entities of the scope's kind".to_owned(),
                    };
                    diags.push(
                        Diagnostic::error(
                            "E026",
                            at.clone(),
                            format!(
                                "unknown aspect `{other}` in the `elsewhere` of aspect `{name}`"
                            ),
                        )
                        .with_hint(hint),
                    );
                }
            }
            let Some((key, at)) = &aspect.scope else {
                continue;
            };
            if self.lookups.entities.keys().any(|(_, k)| k == key) {
                continue;
            }
            let hint = match nearest(key, self.lookups.entities.keys().map(|(_, k)| k.as_str())) {
                Some(k) => format!("did you mean `{k}`?"),
                None => "name the key of an entity declared by a page's `[entity]`".to_owned(),
            };
            diags.push(
                Diagnostic::error(
                    "E024",
                    at.clone(),
                    format!("the scope of aspect `{name}` names no entity: `{key}`"),
                )
                .with_hint(hint),
            );
        }
        diags
    }
}
