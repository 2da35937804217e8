//! Claim views: each claim rendered once per language, with its inline
//! HTML and notes, reused by every page that shows it.

use super::*;
use crate::content::Class;
use crate::error::Diagnostic;
use crate::lang::Lang;
use crate::render::views::*;
use crate::validate::{ClaimAt, Site};
use std::collections::BTreeMap;

pub(in crate::render) fn claim_view(cx: &Ctx<'_>, at: ClaimAt, lang: Lang) -> ClaimView {
    let page = &cx.site.content.pages[at.page];
    let claim = &page.claims[at.claim];
    let href = |a: ClaimAt| {
        format!(
            "{}#claim-{}",
            cx.page_href(lang.code(), cx.site.content.outline(a.page)),
            cx.site.claim(a).id
        )
    };
    ClaimView {
        id: claim.id.clone(),
        class: claim.class.name(),
        text: claim.text.get(lang).clone(),
        anchor: format!("claim-{}", claim.id),
        href: href(at),
        evidence: claim
            .evidence
            .iter()
            .map(|l| Link {
                label: l.label(),
                href: format!("{}{}", cx.evidence_href(lang, &l.path), l.fragment()),
            })
            .collect(),
        from: claim
            .from
            .iter()
            .filter_map(|(id, _)| {
                cx.site.index.claims.get(id).map(|&a| ClaimLink {
                    id: id.clone(),
                    href: href(a),
                    class: cx.site.claim(a).class.name(),
                    text: cx.site.claim(a).text.get(lang).clone(),
                })
            })
            .collect(),
        notes: notes_view(cx, at, lang),
        basis: basis(cx.site, claim),
        answer: answer_view(cx, claim, lang),
        settle: claim.settle.as_ref().map(|(s, _)| s.get(lang).clone()),
        framing: claim
            .aspect
            .as_ref()
            .and_then(|a| cx.site.config.aspect(a))
            .is_some_and(|a| a.framing),
        inline: String::new(),
        md: String::new(),
    }
}

/// The answer `claim` states, in `lang`, when its aspect declares it.
pub(in crate::render) fn answer_view(
    cx: &Ctx<'_>,
    claim: &crate::content::Claim,
    lang: Lang,
) -> Option<AnswerView> {
    let (key, _) = claim.answer.as_ref()?;
    let a = cx
        .site
        .config
        .aspect(claim.aspect.as_deref()?)?
        .answer(key)?;
    Some(AnswerView {
        key: a.key.clone(),
        kind: a.kind.map(crate::config::AnswerKind::name),
        glyph: a.glyph.clone(),
        label: a.label.get(lang).clone(),
    })
}

/// What readers are told about a claim beyond its class: review notices
/// (suspect, stale translation), its lifecycle and a machine translation.
pub(in crate::render) fn notes_view(
    cx: &Ctx<'_>,
    at: ClaimAt,
    lang: Lang,
) -> crate::render::views::ClaimNotes {
    let claim = cx.site.claim(at);
    let note = cx.site.review.claims.get(&claim.id);
    let successor = claim.life.superseded_by.as_ref().and_then(|(id, _)| {
        let a = *cx.site.index.claims.get(id)?;
        Some(crate::render::views::Link {
            label: id.clone(),
            href: format!(
                "{}#claim-{id}",
                cx.page_href(lang.code(), cx.site.content.outline(a.page))
            ),
        })
    });
    crate::render::views::ClaimNotes {
        state: claim.life.state.name(),
        reason: claim.life.reason.as_ref().map(|r| r.get(lang).clone()),
        successor,
        suspect: note.and_then(|n| {
            if n.evidence_changed.is_some() {
                Some("evidence")
            } else if n.premise_changed.is_some() {
                Some("premise")
            } else {
                None
            }
        }),
        suspect_file: note.and_then(|n| n.evidence_changed.clone()),
        stale: note
            .and_then(|n| n.stale.as_ref())
            .map(|(l, prev)| crate::render::views::Stale {
                changed: l.code(),
                previous: prev.clone(),
            }),
        machine: claim.life.machine_translated,
    }
}

/// See [`ClaimView::basis`]; the same rule as check's W002.
pub(in crate::render) fn basis(site: &Site, claim: &crate::content::Claim) -> Option<&'static str> {
    use crate::evidence::EvidenceKind;
    if claim.class != Class::Confirmed || claim.evidence.is_empty() {
        return None;
    }
    let mut weakest = None;
    for l in &claim.evidence {
        match site.evidence.files.get(&l.path).and_then(|f| f.kind()) {
            Some(EvidenceKind::Note) => weakest = Some(EvidenceKind::Note),
            Some(EvidenceKind::Transcript) => {
                weakest.get_or_insert(EvidenceKind::Transcript);
            }
            _ => return None,
        }
    }
    weakest.map(EvidenceKind::name)
}

/// (about, aspect) → the claim filling that matrix cell.
pub(in crate::render) fn cells(site: &Site) -> BTreeMap<(String, String), ClaimAt> {
    site.index
        .claims
        .values()
        .filter_map(|&at| {
            let c = site.claim(at);
            // A retracted or superseded claim leaves the generated views:
            // its successor takes the cell (see `crate::content::State`).
            if c.life.state != crate::content::State::Current {
                return None;
            }
            Some(((c.about.clone()?, c.aspect.clone()?), at))
        })
        .collect()
}

/// The view of the claim at `at` in `lang`, with its inline HTML
/// rendered.
pub(in crate::render) fn rendered_claim_view(
    cx: &Ctx<'_>,
    at: ClaimAt,
    lang: Lang,
) -> Result<ClaimView, Diagnostic> {
    let mut v = claim_view(cx, at, lang);
    let mut t = tera::Context::new();
    t.insert("claim", &v);
    t.insert("lang", lang.code());
    t.insert("base", cx.base);
    v.inline = cx.render("partials/claim.html", &t)?.trim().to_owned();
    let outputs = cx.site.config.outputs;
    if outputs.markdown || outputs.llms {
        v.md = (cx.inline_md)(cx, lang, &v);
    }
    Ok(v)
}
