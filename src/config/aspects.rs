//! `book.toml` `[aspects]`: the questions view columns ask and the answers
//! their claims may state, each with the kind of statement it is.
//!
//! Reads the raw tables of one file; what claims say is `validate`'s.

use super::missing_lang;
use crate::error::Diagnostic;
use crate::lang::{Bi, Lang, RawBi};
use crate::source::Source;
use serde::Deserialize;
use std::collections::BTreeMap;
use toml::Spanned;

/// `[aspects.NAME]`: what a view column's claims answer.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(super) struct RawAspect {
    pub(super) question: Option<Spanned<RawBi>>,
    scope: Option<Spanned<String>>,
    pub(super) setup: Option<Spanned<RawBi>>,
    elsewhere: Option<Spanned<String>>,
    #[serde(default)]
    framing: bool,
    #[serde(default)]
    pub(super) answers: Vec<Spanned<RawAnswer>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(super) struct RawAnswer {
    key: Spanned<String>,
    kind: Option<Spanned<AnswerKind>>,
    pub(super) glyph: Option<Spanned<String>>,
    pub(super) label: Spanned<RawBi>,
}

/// What kind of statement an answer is: the one meaning its words carry,
/// whatever they say ("Loaded", "Found", "Works" are all a yes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum AnswerKind {
    /// The thing asked about holds.
    Yes,
    /// It does not hold.
    No,
    /// It holds in part.
    Partial,
    /// Nothing decisive was seen, or nobody could look: not an answer,
    /// and shown as the absence of one.
    NotKnown,
}

impl AnswerKind {
    /// The name `book.toml` and `claims.json` use.
    pub(crate) fn name(self) -> &'static str {
        match self {
            AnswerKind::Yes => "yes",
            AnswerKind::No => "no",
            AnswerKind::Partial => "partial",
            AnswerKind::NotKnown => "not-known",
        }
    }

    /// The glyph of an answer of this kind that declares none, chosen
    /// apart from the classes' marks (⊕ and ○). A not-known answer has
    /// none: it is no answer.
    fn default_glyph(self) -> &'static str {
        match self {
            AnswerKind::Yes => "✓",
            AnswerKind::No => "✗",
            AnswerKind::Partial => "◑",
            AnswerKind::NotKnown => "",
        }
    }
}

/// What the claims of one aspect (a view column) answer, declared in
/// `book.toml` `[aspects.NAME]`.
#[derive(Debug, Clone, Default)]
pub(crate) struct Aspect {
    /// The question its claims answer ("Loaded into the runner?").
    pub(crate) question: Option<Bi<String>>,
    /// The entity (a GPU, a setup) its observations were made on, with
    /// where `book.toml` names it: checked against the content's entities.
    pub(crate) scope: Option<(String, crate::error::Location)>,
    /// How they were made ("Phase C, the runner's /proc/maps").
    pub(crate) setup: Option<Bi<String>>,
    /// The aspect whose claims answer the same question on the other
    /// entities of the scope's kind (`elsewhere = "direct-observation"`:
    /// whether an observer works on gfx900 is its generation's
    /// direct-observation claim), with where `book.toml` names it. An
    /// entity with such a claim is not listed as "not observed".
    pub(crate) elsewhere: Option<(String, crate::error::Location)>,
    /// The record's own framing (its questions, targets, statuses), not an
    /// observation: shown without a class badge.
    pub(crate) framing: bool,
    /// The answers its claims may state, in display order.
    pub(crate) answers: Vec<Answer>,
}

/// One answer of an aspect's vocabulary.
#[derive(Debug, Clone)]
pub(crate) struct Answer {
    /// What a claim's `answer` names (`yes`, `no`, `partial`).
    pub(crate) key: String,
    /// What kind of statement it is; `None` when `book.toml` does not say
    /// (a finding of its own, so no rule reads a guess).
    pub(crate) kind: Option<AnswerKind>,
    /// Its glyph, drawn beside the label: never a class's mark; empty for
    /// a not-known answer.
    pub(crate) glyph: String,
    /// Its words.
    pub(crate) label: Bi<String>,
}

impl Aspect {
    /// Its question in `lang`, or, when it declares none, its name.
    pub(crate) fn asks(&self, name: &str, lang: Lang) -> String {
        self.question
            .as_ref()
            .map_or_else(|| name.to_owned(), |q| q.get(lang).clone())
    }

    /// The answer named `key`.
    pub(crate) fn answer(&self, key: &str) -> Option<&Answer> {
        self.answers.iter().find(|a| a.key == key)
    }
}

/// The aspects in the order `book.toml` declares them.
pub(super) fn aspects(
    src: &Source,
    raw: &BTreeMap<String, Spanned<RawAspect>>,
    diags: &mut Vec<Diagnostic>,
    unread: &mut super::recover::Unread,
) -> Vec<(String, Aspect)> {
    let bi = |v: &Option<Spanned<RawBi>>, key: &str, diags: &mut Vec<Diagnostic>| {
        let v = v.as_ref()?;
        let b = v.get_ref().complete();
        if b.is_none() {
            diags.push(missing_lang(src, v.span(), key, &v.get_ref().missing()));
        }
        b
    };
    let mut out = Vec::new();
    let mut raw: Vec<_> = raw.iter().collect();
    raw.sort_by_key(|(_, a)| a.span().start);
    for &(name, a) in &raw {
        let a = a.get_ref();
        let question = bi(&a.question, &format!("aspects.{name}.question"), diags);
        let setup = bi(&a.setup, &format!("aspects.{name}.setup"), diags);
        let mut answers: Vec<Answer> = Vec::new();
        for (i, r) in a.answers.iter().enumerate() {
            let r = r.get_ref();
            let key = r.key.get_ref();
            let label = bi(
                &Some(r.label.clone()),
                &format!("aspects.{name}.answers[{i}].label"),
                diags,
            );
            let valid = !key.is_empty()
                && key
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
            if !valid {
                diags.push(
                    src.error(
                        "E024",
                        r.key.span(),
                        format!("answer key `{key}` is not a valid key"),
                    )
                    .with_hint("use letters, digits, `-`, `_` or `.`, e.g. `not-observed`"),
                );
                continue;
            }
            if answers.iter().any(|a| &a.key == key) {
                diags.push(
                    src.error(
                        "E024",
                        r.key.span(),
                        format!("answer `{key}` is declared twice for aspect `{name}`"),
                    )
                    .with_hint("each answer of an aspect has its own key: remove or rename one"),
                );
                continue;
            }
            let kind = r.kind.as_ref().map(|k| *k.get_ref());
            let written = unread
                .kinds_written
                .iter()
                .any(|(a, k)| a == name && k == key);
            if kind.is_none() && !written {
                diags.push(
                    src.error(
                        "E027",
                        r.key.span(),
                        format!("answer `{key}` of aspect `{name}` does not say what kind of answer it is"),
                    )
                    .with_hint("add `kind = \"yes\"`, `\"no\"`, `\"partial\"` or `\"not-known\"` (nothing decisive was seen, or nobody could look)"),
                );
            }
            let glyph = match (&r.glyph, kind) {
                (Some(g), Some(AnswerKind::NotKnown)) => {
                    diags.push(
                        src.error(
                            "E027",
                            g.span(),
                            format!("answer `{key}` of aspect `{name}` is not known, and a not-known answer has no glyph"),
                        )
                        .with_hint("remove `glyph`: a not-known answer is shown as the absence of an answer, never as a glyph beside a certainty badge"),
                    );
                    String::new()
                }
                (Some(g), _) => g.get_ref().clone(),
                (None, Some(k)) => k.default_glyph().to_owned(),
                (None, None) => String::new(),
            };
            match label {
                Some(label) => answers.push(Answer {
                    key: key.clone(),
                    kind,
                    glyph,
                    label,
                }),
                // Its finding is its label's: a claim giving it is not
                // also told it is unknown.
                None => unread.answers.push((name.clone(), key.clone())),
            }
        }
        let scope = a
            .scope
            .as_ref()
            .map(|s| (s.get_ref().clone(), src.location(s.span().start)));
        let elsewhere = a
            .elsewhere
            .as_ref()
            .map(|s| (s.get_ref().clone(), src.location(s.span().start)));
        out.push((
            name.clone(),
            Aspect {
                question,
                scope,
                setup,
                elsewhere,
                framing: a.framing,
                answers,
            },
        ));
    }
    diags.extend(vocabulary(src, &raw));
    out
}

/// W025 for answer words that stand for two words of the other language
/// across the site's vocabularies ("Blocked" for both 使えない and
/// ブロックされている), reported at the later answer, naming the first:
/// one word, one meaning.
fn vocabulary(src: &Source, raw: &[(&String, &Spanned<RawAspect>)]) -> Vec<Diagnostic> {
    let answers: Vec<(&str, &str, Bi<String>, std::ops::Range<usize>)> = raw
        .iter()
        .flat_map(|(name, a)| {
            a.get_ref().answers.iter().filter_map(move |r| {
                let r = r.get_ref();
                let label = r.label.get_ref().complete()?;
                Some((
                    name.as_str(),
                    r.key.get_ref().as_str(),
                    label,
                    r.label.span(),
                ))
            })
        })
        .collect();
    let mut diags = Vec::new();
    for lang in [Lang::En, Lang::Ja] {
        let other = lang.other();
        for (i, (name, key, label, span)) in answers.iter().enumerate() {
            let first = answers[..i].iter().find(|(_, _, l, _)| {
                l.get(lang) == label.get(lang) && l.get(other) != label.get(other)
            });
            let Some((first_name, first_key, first_label, _)) = first else {
                continue;
            };
            diags.push(
                src.warning(
                    "W025",
                    span.clone(),
                    format!(
                        "the answer words `{}` stand for two {other} words: `{}` (`{first_name}.{first_key}`) and `{}` (`{name}.{key}`)",
                        label.get(lang),
                        first_label.get(other),
                        label.get(other),
                    ),
                )
                .with_hint(format!(
                    "one word, one meaning: give these answers the same {other} words, or one of them other {lang} words"
                )),
            );
        }
    }
    diags
}

/// `[aspects]` read as far as it can be (see `lenient::config`): each
/// aspect on its own, and in it each answer on its own, so that one
/// mistake costs only the answer or key it is in.
pub(super) fn lenient(
    src: &Source,
    value: Spanned<toml::de::DeValue<'_>>,
    diags: &mut Vec<Diagnostic>,
    unread: &mut super::recover::Unread,
) -> BTreeMap<String, Spanned<RawAspect>> {
    use super::recover::{recover, report};
    use toml::de::DeValue;
    let mut out = BTreeMap::new();
    if !matches!(value.get_ref(), DeValue::Table(_)) {
        report::<BTreeMap<String, RawAspect>>(src, value, diags);
        unread.tables.push("aspects".to_owned());
        return out;
    }
    let DeValue::Table(table) = value.into_inner() else {
        return out;
    };
    for (name, aspect) in table {
        let name = name.into_inner().into_owned();
        let aspect_span = aspect.span();
        if !matches!(aspect.get_ref(), DeValue::Table(_)) {
            report::<RawAspect>(src, aspect, diags);
            unread.aspects.push(name);
            continue;
        }
        let DeValue::Table(mut t) = aspect.into_inner() else {
            continue;
        };
        let mut answers = Vec::new();
        if let Some(list) = t.remove("answers") {
            let list_span = list.span();
            match list.into_inner() {
                DeValue::Array(items) => {
                    for item in items {
                        let item_span = item.span();
                        if !matches!(item.get_ref(), DeValue::Table(_)) {
                            report::<RawAnswer>(src, item, diags);
                            continue;
                        }
                        let DeValue::Table(mut a) = item.into_inner() else {
                            continue;
                        };
                        let key = a.get("key").and_then(|k| match k.get_ref() {
                            DeValue::String(s) => Some(s.to_string()),
                            _ => None,
                        });
                        let mut meant = Vec::new();
                        match recover::<Spanned<RawAnswer>>(
                            src, &mut a, item_span, diags, &mut meant,
                        ) {
                            Some(r) => {
                                if meant.iter().any(|m| m == "kind") {
                                    let key = r.get_ref().key.get_ref().clone();
                                    unread.kinds_written.push((name.clone(), key));
                                }
                                answers.push(r);
                            }
                            None => {
                                if let Some(key) = key {
                                    unread.answers.push((name.clone(), key));
                                }
                            }
                        }
                    }
                }
                other => {
                    report::<Vec<RawAnswer>>(src, Spanned::new(list_span, other), diags);
                    unread.aspects.push(name.clone());
                }
            }
        }
        match recover::<RawAspect>(src, &mut t, aspect_span.clone(), diags, &mut Vec::new()) {
            Some(a) => {
                out.insert(name, Spanned::new(aspect_span, RawAspect { answers, ..a }));
            }
            None => unread.aspects.push(name),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> std::result::Result<super::super::Config, Vec<Diagnostic>> {
        super::super::Config::parse(Source::new("book.toml".into(), text.into()))
    }

    #[test]
    fn an_answer_says_what_kind_of_statement_it_is() {
        let c = parse(concat!(
            "[aspects.loaded]\n",
            "answers = [\n",
            "  { key = \"yes\", kind = \"yes\", label = { ja = \"ロードされた\", en = \"Loaded\" } },\n",
            "  { key = \"files\", kind = \"partial\", glyph = \"◇\", label = { ja = \"ファイルのみ\", en = \"Files only\" } },\n",
            "  { key = \"unseen\", kind = \"not-known\", label = { ja = \"誰も見られなかった\", en = \"Nobody could look\" } },\n",
            "]\n",
        ))
        .expect("valid");
        let a = c.aspect("loaded").expect("declared");
        let kinds: Vec<_> = a
            .answers
            .iter()
            .map(|a| (a.key.as_str(), a.kind, a.glyph.as_str()))
            .collect();
        assert_eq!(
            kinds,
            [
                ("yes", Some(AnswerKind::Yes), "✓"),
                ("files", Some(AnswerKind::Partial), "◇"),
                ("unseen", Some(AnswerKind::NotKnown), ""),
            ]
        );
        let e = parse(
            "[aspects.loaded]\nanswers = [{ key = \"yes\", kind = \"yess\", label = { ja = \"は\", en = \"Y\" } }]\n",
        )
        .expect_err("unknown kind");
        assert_eq!(e.len(), 1, "one mistake, one finding: {e:?}");
        assert_eq!(e[0].code, "E003");
        assert_eq!(e[0].location.to_string(), "book.toml:2:34");
        assert_eq!(e[0].hint.as_deref(), Some("did you mean `yes`?"));
    }
}
