//! Front matter: splitting `+++` TOML from the body, the raw serde shapes,
//! and recovery from a broken one.
//!
//! Offsets are kept so every TOML error is located in the whole file, not in
//! the front matter alone (Zola #1133). A page whose front matter does not
//! parse is not given up on: [`parse_page`] blanks the tables that fail
//! (`[[claims]]` entries, `[entity]`, …) one by one, keeps what parses, and
//! reports each broken one, so one mistake does not hide the page's others.
//! Nothing here resolves references.

use crate::config::recover::{recover, without_broken_tables};
use crate::config::toml_error;
use crate::error::Diagnostic;
use crate::lang::RawBi;
use crate::source::Source;
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::Deserialize;
use std::fmt;
use toml::Spanned;

/// Where the front matter and the body lie in a file.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Split {
    pub(crate) fm_start: usize,
    pub(crate) fm_end: usize,
    pub(crate) body_start: usize,
}

/// Finds the `+++` fences. `required` (a page): a file without them is
/// E001; otherwise (an evidence file, whose header is optional) `None`.
pub(crate) fn split(src: &Source, required: bool) -> Result<Option<Split>, Diagnostic> {
    let text = &src.text;
    if text.trim().is_empty() {
        if !required {
            return Ok(None);
        }
        return Err(src
            .error("E001", 0..0, "empty file")
            .with_hint("a page starts with `+++`, TOML front matter with a `title`, and `+++`"));
    }
    let first_end = text.find('\n').unwrap_or(text.len());
    if text[..first_end].trim_end() != "+++" {
        if !required {
            return Ok(None);
        }
        return Err(src
            .error(
                "E001",
                0..first_end,
                "page does not start with `+++` front matter",
            )
            .with_hint("put `+++` on the first line, the TOML front matter, then `+++`"));
    }
    let fm_start = (first_end + 1).min(text.len());
    let mut pos = fm_start;
    while pos < text.len() {
        let end = text[pos..].find('\n').map_or(text.len(), |i| pos + i);
        if text[pos..end].trim_end() == "+++" {
            return Ok(Some(Split {
                fm_start,
                fm_end: pos,
                body_start: (end + 1).min(text.len()),
            }));
        }
        pos = end + 1;
    }
    Err(src
        .error("E001", 0..3, "front matter opened here is never closed")
        .with_hint("add a line `+++` after the front matter"))
}

/// Parses a TOML region of a source into `T`, locating errors in the file.
pub(crate) fn parse<T: for<'de> Deserialize<'de>>(
    src: &Source,
    split: Split,
) -> Result<T, Diagnostic> {
    // Blank out the opening fence instead of slicing it off, so every span
    // serde reports (errors and `Spanned` values alike) is a file offset.
    let mut text = " ".repeat(split.fm_start.saturating_sub(1));
    text.push('\n');
    text.push_str(&src.text[split.fm_start..split.fm_end]);
    toml::from_str(&text).map_err(|e| toml_error(src, 0, &e))
}

/// A page's front matter as far as it can be read, with a finding for each
/// mistake in it rather than for the first: TOML syntax errors are
/// recovered from (what parsed is kept), and a key that is unknown or of
/// the wrong type is reported and left out, at the page's top level and
/// in each claim, so the rest of the page is still checked.
pub(crate) struct Lenient {
    pub(crate) page: RawPage,
    pub(crate) diags: Vec<Diagnostic>,
    /// Per claim (by index in `page.claims`), the keys a misspelt key
    /// was meant to be (`evidense` → `evidence`): a finding that the key
    /// is missing would be the same mistake again.
    pub(crate) meant: Vec<Vec<String>>,
    /// The same at the page's top level.
    pub(crate) page_meant: Vec<String>,
}

/// Parses a page's front matter leniently (see [`Lenient`]).
pub(crate) fn parse_page(src: &Source, split: Split) -> Lenient {
    use toml::de::{DeTable, DeValue, Deserializer};
    let mut text = " ".repeat(split.fm_start.saturating_sub(1));
    text.push('\n');
    text.push_str(&src.text[split.fm_start..split.fm_end]);
    // Nearly every page is right: read it in one pass, as before; the
    // recovering reader below (tables copied, claims one by one) only for
    // a page that has a mistake.
    if let Ok(page) = toml::from_str::<RawPage>(&text) {
        let meant = vec![Vec::new(); page.claims.len()];
        return Lenient {
            page,
            diags: Vec::new(),
            meant,
            page_meant: Vec::new(),
        };
    }
    let mut diags = Vec::new();
    let mut page_meant = Vec::new();
    let kept = without_broken_tables(src, &text, &mut diags, &mut page_meant, &mut Vec::new());
    let (table, errors) = DeTable::parse_recoverable(kept.as_deref().unwrap_or(&text));
    if diags.is_empty() {
        // The first by place (see `first_error`).
        let first = errors
            .iter()
            .min_by_key(|e| e.span().map_or(usize::MAX, |s| s.start));
        diags.extend(first.map(|e| toml_error(src, 0, e)));
    }
    let span = table.span();
    let mut table = table.into_inner();
    let mut meant = Vec::new();
    // Each claim on its own: one bad claim never costs its siblings.
    let mut claims_ok = Vec::new();
    if let Some(claims) = table.get_mut("claims") {
        if let DeValue::Array(items) = claims.get_mut() {
            for item in items.iter_mut() {
                let item_span = item.span();
                let DeValue::Table(t) = item.get_mut() else {
                    continue;
                };
                let mut keys = Vec::new();
                // One without an id or class is reported and left out.
                if let Some(c) = recover::<RawClaim>(src, t, item_span, &mut diags, &mut keys) {
                    claims_ok.push(c);
                    meant.push(keys);
                }
            }
        }
    }
    table.remove("claims");
    let page = recover::<RawPage>(src, &mut table, span.clone(), &mut diags, &mut page_meant)
        .unwrap_or_else(|| {
            RawPage::deserialize(Deserializer::from(toml::Spanned::new(span, DeTable::new())))
                .expect("an empty table is a page")
        });
    let page = RawPage {
        claims: claims_ok,
        ..page
    };
    diags.sort_by(|a, b| a.location.cmp(&b.location));
    Lenient {
        page,
        diags,
        meant,
        page_meant,
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawPage {
    pub(crate) title: Option<Spanned<RawBi>>,
    pub(crate) lead: Option<Spanned<RawBi>>,
    #[serde(default)]
    pub(crate) weight: i64,
    pub(crate) updated: Option<toml::value::Datetime>,
    pub(crate) layout: Option<Spanned<String>>,
    pub(crate) entity: Option<RawEntity>,
    #[serde(default)]
    pub(crate) claims: Vec<RawClaim>,
    pub(crate) scope: Option<RawScope>,
    pub(crate) view: Option<RawView>,
    /// Entities without a page of their own (rows of a named view).
    #[serde(default)]
    pub(crate) entities: Vec<RawEntity>,
    /// Named views placed in the body with `[[table:NAME]]` / `[[graph:NAME]]`.
    #[serde(default)]
    pub(crate) views: std::collections::BTreeMap<String, Spanned<RawNamedView>>,
    /// `false`: claims shown in the text are not listed again at the end.
    #[serde(default = "yes", rename = "repeat-inline-claims")]
    pub(crate) repeat_inline_claims: bool,
    /// Work in progress: left out of `build` (but `build --drafts`), shown
    /// by `serve` marked as a draft; missing evidence is only a warning.
    #[serde(default)]
    pub(crate) draft: bool,
}

fn yes() -> bool {
    true
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawEntity {
    pub(crate) kind: Spanned<String>,
    pub(crate) key: Spanned<String>,
    pub(crate) name: Spanned<RawBi>,
    pub(crate) role: Option<Spanned<RawBi>>,
    pub(crate) status: Option<Spanned<String>>,
    #[serde(default, rename = "depends-on")]
    pub(crate) depends_on: Vec<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawNamedView {
    pub(crate) kind: Spanned<String>,
    #[serde(default)]
    pub(crate) columns: Vec<RawColumn>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawClaim {
    pub(crate) id: Spanned<String>,
    pub(crate) class: Spanned<String>,
    pub(crate) ja: Option<Spanned<String>>,
    pub(crate) en: Option<Spanned<String>>,
    pub(crate) evidence: Option<Spanned<Vec<Spanned<RawLink>>>>,
    #[serde(default)]
    pub(crate) from: Vec<Spanned<String>>,
    pub(crate) about: Option<Spanned<String>>,
    pub(crate) aspect: Option<Spanned<String>>,
    pub(crate) answer: Option<Spanned<String>>,
    /// The observation that would settle an unresolved or limited claim.
    pub(crate) settle: Option<Spanned<RawBi>>,
    #[serde(default)]
    pub(crate) tags: Vec<String>,
    pub(crate) state: Option<Spanned<String>>,
    pub(crate) reason: Option<Spanned<RawBi>>,
    #[serde(rename = "superseded-by")]
    pub(crate) superseded_by: Option<Spanned<String>>,
    #[serde(rename = "translated-by")]
    pub(crate) translated_by: Option<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawScope {
    #[serde(default)]
    pub(crate) can: Vec<Spanned<String>>,
    #[serde(default)]
    pub(crate) cannot: Vec<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawView {
    #[serde(default)]
    pub(crate) columns: Vec<RawColumn>,
    #[serde(default)]
    pub(crate) findings: Vec<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawColumn {
    pub(crate) aspect: Spanned<String>,
    pub(crate) label: Spanned<RawBi>,
}

/// An evidence link as written: `"path#L7-L12"` or `{ path, lines, quote }`.
#[derive(Debug, Clone)]
pub(crate) enum RawLink {
    Short(String),
    Full {
        path: String,
        lines: Option<RawLines>,
        quote: Option<String>,
    },
}

/// `lines = 7` or `lines = "7-12"`.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub(crate) enum RawLines {
    One(i64),
    Range(String),
}

impl<'de> Deserialize<'de> for RawLink {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = RawLink;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an evidence link: \"path#L7-L12\" or `{ path = \"…\", lines = \"7-12\", quote = \"…\" }`")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<RawLink, E> {
                Ok(RawLink::Short(v.to_owned()))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<RawLink, A::Error> {
                #[derive(Deserialize)]
                #[serde(deny_unknown_fields)]
                struct Full {
                    path: String,
                    lines: Option<RawLines>,
                    quote: Option<String>,
                }
                let f = Full::deserialize(de::value::MapAccessDeserializer::new(map))?;
                Ok(RawLink::Full {
                    path: f.path,
                    lines: f.lines,
                    quote: f.quote,
                })
            }
        }
        d.deserialize_any(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn findings(text: &str) -> Vec<(String, String)> {
        let src = Source::new("content/p.md".into(), text.into());
        let split = split(&src, true).expect("fenced").expect("a page");
        parse_page(&src, split)
            .diags
            .iter()
            .map(|d| (d.location.to_string(), d.message.clone()))
            .collect()
    }

    #[test]
    fn an_unclosed_string_in_an_inline_table_is_found_on_its_line_issue_40() {
        let page = "+++\ntitle = { ja = \"観測\", en = \"Observation Notes }\nlead = { ja = \"あ\", en = \"a\" }\n+++\n";
        assert_eq!(
            findings(page),
            [(
                "content/p.md:2:47".to_owned(),
                "invalid basic string, expected `\"`".to_owned()
            )]
        );
        // At the top level, as before.
        let page = "+++\ntitle = \"Observation Notes\nlead = \"a\"\n+++\n";
        assert_eq!(
            findings(page),
            [(
                "content/p.md:2:27".to_owned(),
                "invalid basic string, expected `\"`".to_owned()
            )]
        );
    }
}
