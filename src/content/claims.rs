//! Claims, evidence classes and evidence links as declared on a page.
//!
//! This module turns the raw front matter into checked values: a known class,
//! both languages, at least one well-formed link. Whether the linked file and
//! lines exist is the evidence stage's business, not this one's.

use super::front_matter::{RawClaim, RawLink};
use super::links::colon_lines;
pub(crate) use super::links::{normalise_path, parse_link, EvidenceLink};
use crate::error::Diagnostic;
use crate::lang::{Bi, Lang};
use crate::source::Source;
use serde::Serialize;
use std::ops::Range;

/// How well a claim is known.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Class {
    /// Seen directly: live command, log, disassembly.
    Confirmed,
    /// Follows from confirmed facts; not seen directly.
    Inferred,
    /// Cannot be settled yet.
    Unresolved,
    /// Partly seen; a tool limit keeps it incomplete.
    Limited,
}

impl Class {
    /// All classes in legend order.
    pub(crate) const ALL: [Class; 4] = [
        Class::Confirmed,
        Class::Inferred,
        Class::Unresolved,
        Class::Limited,
    ];

    /// All classes from the best known down, the order of their marks
    /// (⊕⊕⊕ to ○○○): the legend's order.
    pub(crate) const BY_CERTAINTY: [Class; 4] = [
        Class::Confirmed,
        Class::Inferred,
        Class::Limited,
        Class::Unresolved,
    ];

    /// The name used in TOML, CSS classes and Fluent keys.
    pub fn name(self) -> &'static str {
        match self {
            Class::Confirmed => "confirmed",
            Class::Inferred => "inferred",
            Class::Unresolved => "unresolved",
            Class::Limited => "limited",
        }
    }

    /// Parses a class name.
    pub(crate) fn from_name(s: &str) -> Option<Class> {
        Class::ALL.into_iter().find(|c| c.name() == s)
    }

    /// The class a reader's label names (the default theme's: `推論`,
    /// `Confirmed`), for a did-you-mean when a writer types the label
    /// the site shows instead of the name the front matter takes.
    fn from_label(s: &str) -> Option<Class> {
        let s = s.trim();
        Class::ALL.into_iter().find(|c| {
            let ja = match c {
                Class::Confirmed => "確認済み",
                Class::Inferred => "推論",
                Class::Unresolved => "未確定",
                Class::Limited => "制約あり",
            };
            s == ja || s.eq_ignore_ascii_case(c.name())
        })
    }
}

/// Where a claim stands in its life: current, or kept only so that its
/// address still leads somewhere.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Default)]
#[serde(rename_all = "lowercase")]
pub(crate) enum State {
    /// Stands as written.
    #[default]
    Current,
    /// Withdrawn: it was wrong or cannot be upheld.
    Retracted,
    /// Replaced by another claim (`superseded-by`).
    Superseded,
}

impl State {
    /// The name used in TOML, CSS classes and `claims.json`.
    pub(crate) fn name(self) -> &'static str {
        match self {
            State::Current => "current",
            State::Retracted => "retracted",
            State::Superseded => "superseded",
        }
    }
}

/// A claim's lifecycle beyond its class: state, reason, successor and who
/// translated it.
#[derive(Debug, Clone, Default, Hash)]
pub(crate) struct Lifecycle {
    /// Current, retracted or superseded.
    pub(crate) state: State,
    /// Why it was retracted or superseded, in both languages.
    pub(crate) reason: Option<Bi<String>>,
    /// The claim that replaces it, with its span.
    pub(crate) superseded_by: Option<(String, Range<usize>)>,
    /// True when `translated-by = "machine"`: readers are told.
    pub(crate) machine_translated: bool,
}

/// A claim with its class, texts and evidence.
#[derive(Debug, Clone, Hash)]
pub struct Claim {
    /// Site-unique id.
    pub(crate) id: String,
    /// Evidence class.
    pub(crate) class: Class,
    /// Text in each language.
    pub(crate) text: Bi<String>,
    /// Evidence links, at least one.
    pub(crate) evidence: Vec<EvidenceLink>,
    /// Claims an inference rests on, with their spans.
    pub(crate) from: Vec<(String, Range<usize>)>,
    /// Entity key placing the claim in a view's row.
    pub(crate) about: Option<String>,
    /// Aspect placing the claim in a view's column.
    pub(crate) aspect: Option<String>,
    /// Where `about` and `aspect` are written (empty when absent), for
    /// the findings about the names they give.
    pub(crate) place_spans: [Range<usize>; 2],
    /// Its answer from the aspect's vocabulary (`book.toml` `[aspects]`),
    /// with its span: checked against the vocabulary by `validate`.
    pub(crate) answer: Option<(String, Range<usize>)>,
    /// The observation that would settle it (`settle = { ja, en }`), with
    /// the span of the value: what certainty lacks, said in words.
    pub(crate) settle: Option<(Bi<String>, Range<usize>)>,
    /// Free tags.
    pub(crate) tags: Vec<String>,
    /// Span of the id, for diagnostics.
    pub(crate) id_span: Range<usize>,
    /// State, reason, successor, translation marker.
    pub(crate) life: Lifecycle,
    /// Kept only to be checked: the claim has errors of its own (its class
    /// or a text may be a stand-in), so its page is never rendered and no
    /// rule reads its class.
    pub(crate) broken: bool,
}

/// True for ids usable as URL fragments and in `[[claim:ID]]`.
pub(crate) fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// Checks one raw claim and pushes its findings. The claim comes back
/// whatever they are, marked [`Claim::broken`] if any is an error, so
/// that its links and id are still checked. `meant` names keys a misspelt
/// key was meant to be (already reported): their absence is not reported
/// again.
pub(crate) fn claim(
    src: &Source,
    raw: RawClaim,
    meant: &[String],
    draft: bool,
    diags: &mut Vec<Diagnostic>,
) -> Claim {
    let before = diags.len();
    let meant = |k: &str| meant.iter().any(|m| m == k);
    // A draft may be written before its evidence is in: said, not refused.
    let missing = |src: &Source, code, span, msg: String| {
        if draft {
            src.warning(code, span, msg)
        } else {
            src.error(code, span, msg)
        }
    };
    // Values are moved out of the raw claim, not cloned: a large site has
    // hundreds of thousands of these strings.
    let id_span = raw.id.span();
    let id = raw.id.into_inner();
    if !valid_id(&id) {
        diags.push(
            src.error(
                "E017",
                id_span.clone(),
                format!("claim id `{id}` is not a valid id"),
            )
            .with_hint(format!(
                "use letters, digits, `-`, `_` or `.`, e.g. `{}`",
                suggest_id(&id)
            )),
        );
    }
    let class = match Class::from_name(raw.class.get_ref()) {
        Some(c) => Some(c),
        None => {
            let given = raw.class.get_ref();
            let hint = match Class::from_label(given)
                .map(Class::name)
                .or_else(|| nearest(given, Class::ALL.iter().map(|c| c.name())))
            {
                Some(n) => format!("did you mean `{n}`?"),
                None => "use confirmed, inferred, unresolved or limited".to_owned(),
            };
            diags.push(
                src.error(
                    "E010",
                    raw.class.span(),
                    format!("unknown evidence class `{given}`"),
                )
                .with_hint(hint),
            );
            None
        }
    };
    let ja_span = raw.ja.as_ref().map(toml::Spanned::span);
    let en_span = raw.en.as_ref().map(toml::Spanned::span);
    let mut text = |v: Option<toml::Spanned<String>>, lang: Lang| -> Option<String> {
        match v {
            Some(s) if !s.get_ref().trim().is_empty() => Some(s.into_inner()),
            Some(s) => {
                diags.push(
                    src.error(
                        "E031",
                        s.span(),
                        format!("claim `{id}` has an empty `{lang}` text"),
                    )
                    .with_hint(format!("write the claim in {}", lang_name(lang))),
                );
                None
            }
            None if meant(lang.code()) => None,
            None => {
                diags.push(
                    src.error(
                        "E031",
                        id_span.clone(),
                        format!("claim `{id}` lacks `{lang}`"),
                    )
                    .with_hint(format!(
                        "add `{lang} = \"…\"` with the claim in {}",
                        lang_name(lang)
                    )),
                );
                None
            }
        }
    };
    let ja = text(raw.ja, Lang::Ja);
    let en = text(raw.en, Lang::En);
    // Shown isolated wherever it is shown, and said where it is written.
    let mut isolated = |t: Option<String>, lang: Lang, span: &Option<Range<usize>>| {
        let span = span.clone().unwrap_or_else(|| id_span.clone());
        let what = || format!("the `{lang}` text of claim `{id}`");
        t.map(|t| crate::bidi::checked(src, span, what, t, diags))
    };
    let ja = isolated(ja, Lang::Ja, &ja_span);
    let en = isolated(en, Lang::En, &en_span);
    let mut evidence = Vec::new();
    match &raw.evidence {
        Some(list) if !list.get_ref().is_empty() => {
            for link in list.get_ref() {
                match parse_link(link.get_ref()) {
                    Ok(l) => evidence.push(EvidenceLink {
                        span: link.span(),
                        ..l
                    }),
                    Err((code, msg, hint)) => {
                        let d = src.error(code, link.span(), msg).with_hint(hint);
                        // `logs/run.txt:5`: the hint's `#L5` is the fix.
                        let fix = match link.get_ref() {
                            RawLink::Short(raw) => colon_lines(raw).and_then(|(file, frag)| {
                                let from = src.text.get(link.span())?;
                                from.contains(raw.as_str()).then(|| {
                                    (
                                        from.to_owned(),
                                        from.replacen(raw.as_str(), &format!("{file}{frag}"), 1),
                                    )
                                })
                            }),
                            RawLink::Full { .. } => None,
                        };
                        diags.push(match fix {
                            Some((from, to)) if code == "E018" => {
                                d.with_fix(link.span(), &from, to)
                            }
                            _ => d,
                        })
                    }
                }
            }
        }
        Some(list) => diags.push(
            missing(
                src,
                "E011",
                list.span(),
                format!("claim `{id}` has no evidence link"),
            )
            .with_hint("add a link such as `evidence = [\"logs/run.txt#L3-L9\"]`"),
        ),
        None if meant("evidence") => {}
        None => diags.push(
            missing(
                src,
                "E011",
                id_span.clone(),
                format!("claim `{id}` has no evidence link"),
            )
            .with_hint("add `evidence = [\"path/under/evidence.txt#L1-L5\"]`"),
        ),
    }
    for (lang, t, span) in [
        (Lang::Ja, &ja, ja_span.clone()),
        (Lang::En, &en, en_span.clone()),
    ] {
        let span = span.unwrap_or_else(|| id_span.clone());
        if let Some(other) = t.as_deref().and_then(|t| other_language(lang, t)) {
            diags.push(
                src.warning(
                    "W004",
                    span.clone(),
                    format!("claim `{id}`: its `{lang}` text reads as {other}"),
                )
                .with_hint(format!(
                    "write the claim in {} under `{lang} =`; if the two texts were swapped, swap them back",
                    lang_name(lang)
                )),
            );
        }
        if t.as_deref().is_some_and(has_raw_html) {
            diags.push(
                src.warning("W003", span, format!("claim `{id}` has raw HTML in its `{lang}` text; it is shown escaped, as text"))
                    .with_hint("claim text is plain text: write the words, not markup"),
            );
        }
    }
    // What would settle it, in both languages, as any text a reader sees.
    let settle = raw.settle.and_then(|s| match s.get_ref().complete() {
        Some(bi) => Some((bi, s.span())),
        None => {
            let missing: Vec<&str> = s.get_ref().missing().into_iter().map(Lang::code).collect();
            diags.push(
                src.error(
                    "E031",
                    s.span(),
                    format!("the `settle` of claim `{id}` lacks {}", missing.join(" and ")),
                )
                .with_hint(
                    "say what would settle it in both languages: `settle = { ja = \"…\", en = \"…\" }`",
                ),
            );
            None
        }
    });
    let life = lifecycle(
        src,
        &id,
        &id_span,
        RawLife {
            state: raw.state,
            reason: raw.reason,
            superseded_by: raw.superseded_by,
            translated_by: raw.translated_by,
        },
        diags,
    );
    let broken = diags[before..].iter().any(Diagnostic::is_error);
    // All about this claim: what a `[[check.accept]] claim = "…"` covers.
    for d in &mut diags[before..] {
        d.set_claim(&id);
    }
    Claim {
        id,
        // Stand-ins for a broken claim, which no rule reads.
        class: class.unwrap_or(Class::Unresolved),
        text: Bi {
            ja: ja.unwrap_or_default(),
            en: en.unwrap_or_default(),
        },
        evidence,
        from: raw
            .from
            .into_iter()
            .map(|f| (f.span(), f.into_inner()))
            .map(|(span, id)| (id, span))
            .collect(),
        place_spans: [
            raw.about.as_ref().map_or(0..0, toml::Spanned::span),
            raw.aspect.as_ref().map_or(0..0, toml::Spanned::span),
        ],
        about: raw.about.map(|a| a.into_inner()),
        aspect: raw.aspect.map(|a| a.into_inner()),
        answer: raw
            .answer
            .map(|a| (a.span(), a.into_inner()))
            .map(|(s, a)| (a, s)),
        settle,
        tags: raw.tags,
        id_span,
        life,
        broken,
    }
}

/// `state`, `reason`, `superseded-by` and `translated-by`, checked
/// together: a retracted or superseded claim must say why in both
/// languages, and only a superseded one names a successor (E087).
struct RawLife {
    state: Option<toml::Spanned<String>>,
    reason: Option<toml::Spanned<crate::lang::RawBi>>,
    superseded_by: Option<toml::Spanned<String>>,
    translated_by: Option<toml::Spanned<String>>,
}

fn lifecycle(
    src: &Source,
    id: &str,
    id_span: &Range<usize>,
    raw: RawLife,
    diags: &mut Vec<Diagnostic>,
) -> Lifecycle {
    let mut life = Lifecycle::default();
    let state_span = raw
        .state
        .as_ref()
        .map_or(id_span.clone(), toml::Spanned::span);
    if let Some(s) = &raw.state {
        life.state = match s.get_ref().as_str() {
            "current" => State::Current,
            "retracted" => State::Retracted,
            "superseded" => State::Superseded,
            other => {
                diags.push(
                    src.error("E087", s.span(), format!("unknown claim state `{other}`"))
                        .with_hint("use `retracted` or `superseded` (or leave `state` out)"),
                );
                State::Current
            }
        };
    }
    match &raw.reason {
        Some(r) => match r.get_ref().complete() {
            Some(bi) => life.reason = Some(bi),
            None => diags.push(
                src.error(
                    "E087",
                    r.span(),
                    format!("claim `{id}` gives its `reason` in one language only"),
                )
                .with_hint("write `reason = { ja = \"…\", en = \"…\" }`"),
            ),
        },
        None if life.state != State::Current => diags.push(
            src.error(
                "E087",
                state_span.clone(),
                format!("{} claim `{id}` gives no `reason`", life.state.name()),
            )
            .with_hint("say why, for readers: `reason = { ja = \"…\", en = \"…\" }`"),
        ),
        None => {}
    }
    match (&raw.superseded_by, life.state) {
        (Some(s), State::Superseded) => life.superseded_by = Some((s.get_ref().clone(), s.span())),
        (Some(s), _) => diags.push(
            src.error(
                "E087",
                s.span(),
                format!("claim `{id}` names `superseded-by` but is not superseded"),
            )
            .with_hint("add `state = \"superseded\"`, or remove `superseded-by`"),
        ),
        (None, State::Superseded) => diags.push(
            src.error(
                "E087",
                state_span,
                format!("superseded claim `{id}` does not name its successor"),
            )
            .with_hint("add `superseded-by = \"new-claim-id\"`"),
        ),
        (None, _) => {}
    }
    if let Some(t) = &raw.translated_by {
        match t.get_ref().as_str() {
            "machine" => life.machine_translated = true,
            "human" => {}
            other => diags.push(
                src.error(
                    "E087",
                    t.span(),
                    format!("unknown `translated-by` value `{other}`"),
                )
                .with_hint("use `translated-by = \"machine\"` (or `\"human\"`)"),
            ),
        }
    }
    life
}

/// `<b>`, `</span>`, `<script …`, `<!--`: markup a writer may expect to
/// take effect. Placeholders such as `/proc/<pid>/maps` or C++ template
/// arguments such as `f<Q4_K,1>` are not element names and do not count.
fn has_raw_html(text: &str) -> bool {
    const TAGS: &[&str] = &[
        "a", "abbr", "b", "br", "code", "del", "details", "div", "em", "embed", "font", "form",
        "i", "iframe", "img", "input", "ins", "kbd", "li", "link", "mark", "meta", "object", "ol",
        "p", "pre", "q", "s", "script", "small", "span", "strong", "style", "sub", "summary",
        "sup", "svg", "table", "td", "th", "tr", "u", "ul",
    ];
    text.match_indices('<').any(|(i, _)| {
        let rest = &text[i + 1..];
        if rest.starts_with("!--") {
            return true;
        }
        let rest = rest.strip_prefix('/').unwrap_or(rest);
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        let after = rest[name.len()..].chars().next();
        TAGS.contains(&name.to_ascii_lowercase().as_str())
            && matches!(after, Some('>' | ' ' | '/' | '\n' | '\t'))
    })
}

/// The other language a claim's text in `lang` is written in, if it
/// plainly is: a `ja` text with no kana or kanji but words in Latin
/// letters, an `en` text with kana. Names and numbers alone say nothing.
fn other_language(lang: Lang, text: &str) -> Option<&'static str> {
    let kana = |c: char| matches!(c, '\u{3040}'..='\u{30ff}' | '\u{ff66}'..='\u{ff9f}');
    let japanese =
        |c: char| kana(c) || matches!(c, '\u{4e00}'..='\u{9fff}' | '\u{3400}'..='\u{4dbf}');
    match lang {
        Lang::Ja if !text.chars().any(japanese) => {
            let words = text
                .split(|c: char| !c.is_ascii_alphabetic())
                .filter(|w| w.len() >= 2 && w.chars().all(|c| c.is_ascii_lowercase()))
                .count();
            (words >= 2).then_some("English")
        }
        Lang::En if text.chars().any(kana) => Some("Japanese"),
        _ => None,
    }
}

fn lang_name(lang: Lang) -> &'static str {
    match lang {
        Lang::Ja => "Japanese",
        Lang::En => "English",
    }
}

fn suggest_id(id: &str) -> String {
    let s: String = id
        .trim()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' || c == '_' {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    if s.trim_matches('-').is_empty() {
        "my-claim".to_owned()
    } else {
        s
    }
}

pub(crate) use crate::suggest::nearest;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_html_means_element_names() {
        assert!(has_raw_html("x <script>alert(1)</script>"));
        assert!(has_raw_html("<b>bold</b>"));
        assert!(has_raw_html("a <!-- c -->"));
        assert!(!has_raw_html("/proc/<runner>/maps"));
        assert!(!has_raw_html("mul_mat_vec_q<Q4_K,1,false>"));
        assert!(!has_raw_html("ne11 < 8 and a<b"));
    }

    #[test]
    fn a_text_in_the_other_language_is_told() {
        assert_eq!(
            other_language(Lang::Ja, "The runner loads it."),
            Some("English")
        );
        assert_eq!(other_language(Lang::Ja, "runner は読み込む。"), None);
        assert_eq!(other_language(Lang::Ja, "rocBLAS / gfx1201"), None);
        assert_eq!(
            other_language(Lang::En, "ランナーが読み込む。"),
            Some("Japanese")
        );
        assert_eq!(other_language(Lang::En, "The runner loads it."), None);
    }

    #[test]
    fn a_class_label_suggests_its_name() {
        assert_eq!(Class::from_label("推論"), Some(Class::Inferred));
        assert_eq!(Class::from_label("Confirmed"), Some(Class::Confirmed));
        assert_eq!(Class::from_label("制約あり"), Some(Class::Limited));
        assert_eq!(Class::from_label("maybe"), None);
    }

    #[test]
    fn nearest_class() {
        assert_eq!(
            nearest("confimed", Class::ALL.iter().map(|c| c.name())),
            Some("confirmed")
        );
        assert_eq!(nearest("zzz", Class::ALL.iter().map(|c| c.name())), None);
    }
}
