//! The UI strings twins and `llms.txt` use, formatted once per language
//! when the render state is made (`RenderState::words`): Fluent formatting a
//! dozen strings for each of 20,000 twins showed in the profile.

use crate::error::Diagnostic;
use crate::lang::Lang;

/// UI strings by key, formatted once per language.
pub(in crate::render) type Words = crate::hash::Map<&'static str, String>;

/// The plain UI strings twins and `llms.txt` use (see [`words`]).
const WORDS: &[&str] = &[
    "class-confirmed",
    "class-inferred",
    "class-unresolved",
    "class-limited",
    "class-confirmed-meaning",
    "class-inferred-meaning",
    "class-unresolved-meaning",
    "class-limited-meaning",
    "basis-transcript",
    "basis-note",
    "framing-label",
    "lead-label",
    "updated",
    "entity-label",
    "entity-role",
    "draft-notice",
    "draft-notice-published",
    "claims-title",
    "claims-evidence",
    "claims-rests-on",
    "scope-title",
    "scope-can",
    "scope-cannot",
    "notice-retracted",
    "notice-superseded",
    "notice-superseded-by",
    "notice-suspect-evidence",
    "notice-suspect-premise",
    "notice-machine",
    "listing-prev",
    "listing-next",
    "view-not-observed",
    "view-hub-component",
    "view-hub-role",
    "view-hub-status",
    "view-matrix-generation",
    "view-observer-target",
    "view-observer-attempt",
    "view-observer-result",
    "view-observer-tells",
    "view-observer-next",
    "view-status-chain",
    "view-home-generation",
    "view-home-world",
    "view-home-status",
    "view-open-questions",
    "view-open-questions-empty",
    "sof-title",
    "answer-not-known",
    "settle-label",
    "sof-notes-title",
    "sof-note-from",
    "sof-note-none",
    "sof-question",
    "sof-answer",
    "sof-certainty",
    "sof-for",
    "sof-scope",
    "sof-scope-each",
    "sof-in-words",
    "sof-note",
    "scope-label",
    "scope-on",
    "scope-not-on",
    "observed-here",
    "observed-elsewhere",
    "evidence-kicker",
    "evidence-index-title",
    "evidence-index-intro",
    "evidence-index-empty",
    "evidence-kind",
    "evidence-source",
    "evidence-captured",
    "evidence-host",
    "evidence-phase",
    "evidence-header-title",
    "evidence-kind-raw",
    "evidence-kind-transcript",
    "evidence-kind-note",
    "evidence-kind-capture",
    "evidence-kind-import",
    "evidence-kind-raw-meaning",
    "evidence-kind-transcript-meaning",
    "evidence-kind-note-meaning",
    "evidence-kind-capture-meaning",
    "evidence-kind-import-meaning",
    "raw-file",
    "cited-by",
    "cited-by-none",
    "md-html",
    "md-aspect",
    "md-claim",
    "md-depends-on",
    "md-cited-lines",
    "llms-summary",
    "llms-answers",
    "llms-twins",
    "llms-lines",
    "llms-pages",
    "llms-evidence",
    "llms-full-link",
    "llms-other-link",
    "llms-claims-link",
    "llms-root",
    "llms-root-link",
    "llms-full-intro",
    "lang-name-ja",
    "lang-name-en",
];

/// [`WORDS`] in each language, and `md-other-language` for the other one.
pub(in crate::render) fn words(i18n: &crate::render::i18n::I18n) -> Result<[Words; 2], Diagnostic> {
    let fail =
        |m: String| Diagnostic::error("E040", crate::error::Location::file("templates/i18n"), m);
    let mut out: [Words; 2] = Default::default();
    for (i, lang) in Lang::ALL.into_iter().enumerate() {
        for &key in WORDS {
            out[i].insert(key, i18n.message(lang, key, None).map_err(fail)?);
        }
        let mut args = fluent_bundle::FluentArgs::new();
        args.set("lang", lang.other().code());
        out[i].insert(
            "md-other-language",
            i18n.message(lang, "md-other-language", Some(&args))
                .map_err(fail)?,
        );
    }
    Ok(out)
}
