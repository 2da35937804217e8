//! Bidirectional controls in `book.toml`'s texts (issue 39): the site's
//! title and description, entity kinds, and each aspect's question, setup,
//! answer labels and glyphs. Each is reported where it is written (W062)
//! and shown isolated, as `crate::bidi` says.

use super::{Config, RawConfig};
use crate::error::Diagnostic;
use crate::lang::{Bi, RawBi};
use crate::source::Source;
use toml::Spanned;

/// W062 for every text of `raw` that holds a bidirectional control.
pub(super) fn warnings(src: &Source, raw: &RawConfig) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut at = |span: std::ops::Range<usize>, what: String, text: Option<&str>| {
        if let Some(c) = text.and_then(crate::bidi::control) {
            let d = src.warning("W062", span, crate::bidi::message(&what, c));
            out.push(crate::bidi::warning(d));
        }
    };
    let mut bi = |v: Option<&Spanned<RawBi>>, key: &str| {
        let Some(v) = v else { return };
        let b = v.get_ref();
        for (lang, text) in [("ja", &b.ja), ("en", &b.en)] {
            at(
                v.span(),
                format!("the `{lang}` text of `{key}`"),
                text.as_deref(),
            );
        }
    };
    bi(raw.book.title.as_ref(), "book.title");
    bi(raw.book.description.as_ref(), "book.description");
    for (name, label) in &raw.kinds {
        bi(Some(label), &format!("kinds.{name}"));
    }
    for (name, a) in &raw.aspects {
        let a = a.get_ref();
        bi(a.question.as_ref(), &format!("aspects.{name}.question"));
        bi(a.setup.as_ref(), &format!("aspects.{name}.setup"));
        for (i, r) in a.answers.iter().enumerate() {
            bi(
                Some(&r.get_ref().label),
                &format!("aspects.{name}.answers[{i}].label"),
            );
        }
    }
    for (name, a) in &raw.aspects {
        for (i, r) in a.get_ref().answers.iter().enumerate() {
            at(
                r.span(),
                format!("the `glyph` of `aspects.{name}.answers[{i}]`"),
                r.get_ref().glyph.as_ref().map(|g| g.get_ref().as_str()),
            );
        }
    }
    out
}

/// `config` with each of those texts isolated.
pub(super) fn isolate(config: &mut Config) {
    fn bi(b: &mut Bi<String>) {
        for t in [&mut b.ja, &mut b.en] {
            if crate::bidi::control(t).is_some() {
                *t = crate::bidi::isolate(std::mem::take(t));
            }
        }
    }
    bi(&mut config.title);
    bi(&mut config.description);
    config.kinds.values_mut().for_each(bi);
    for (_, a) in &mut config.aspects {
        a.question.iter_mut().chain(&mut a.setup).for_each(bi);
        for answer in &mut a.answers {
            bi(&mut answer.label);
            if crate::bidi::control(&answer.glyph).is_some() {
                answer.glyph = crate::bidi::isolate(std::mem::take(&mut answer.glyph));
            }
        }
    }
}
