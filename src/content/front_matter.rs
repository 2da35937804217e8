//! Front matter: splitting `+++` TOML from the body, the raw serde shapes,
//! and recovery from a broken one.
//!
//! Offsets are kept so every TOML error is located in the whole file, not in
//! the front matter alone (Zola #1133). A page whose front matter does not
//! parse is not given up on: [`parse_page`] blanks the tables that fail
//! (`[[claims]]` entries, `[entity]`, …) one by one, keeps what parses, and
//! reports each broken one, so one mistake does not hide the page's others.
//! Nothing here resolves references.

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

/// Finds the `+++` fences. `what` names the file kind in messages.
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
    let kept = without_broken_tables(src, &text, &mut diags, &mut page_meant);
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

/// `text` (the front matter, at its offsets in the file) with what does
/// not parse blanked out, or `None` when all of it parses. The parser's own
/// recovery lets one unclosed bracket run on into a finding for every line
/// after it; instead, each table (`[[claims]]` …) is parsed alone, so that a
/// page of many claims is read in linear time, and one that does not parse
/// is one finding and is left out whole. At the top level, which holds the
/// title, only the lines in error go, each noted in `page_meant` so that a
/// key it held is not reported missing.
fn without_broken_tables(
    src: &Source,
    text: &str,
    diags: &mut Vec<Diagnostic>,
    page_meant: &mut Vec<String>,
) -> Option<String> {
    let first = first_error(text)?;
    let mut gone: Vec<std::ops::Range<usize>> = Vec::new();
    for (i, chunk) in chunks(text).into_iter().enumerate() {
        if i > 0 {
            if let Some(e) = first_error(&text[chunk.clone()]) {
                diags.push(toml_error(src, chunk.start, &e));
                gone.push(chunk);
            }
            continue;
        }
        let mut alone = text[chunk].to_owned();
        let Some(e) = first_error(&alone) else {
            continue;
        };
        diags.push(toml_error(src, 0, &e));
        let mut at = e.span().map_or(0, |s| s.start);
        for _ in 0..16 {
            let line = line_at(&alone, at);
            if let Some((key, _)) = alone[line.clone()].split_once('=') {
                page_meant.push(key.trim().to_owned());
            }
            alone = blank_inside(&alone, std::slice::from_ref(&line));
            gone.push(line);
            match first_error(&alone) {
                None => break,
                Some(e) => at = e.span().map_or(0, |s| s.start),
            }
        }
    }
    if diags.is_empty() {
        // Only the tables together are wrong (a table defined twice).
        diags.push(toml_error(src, 0, &first));
    }
    Some(blank_inside(text, &gone))
}

/// The first mistake in `text` by place, if it does not parse. The parser
/// reports first what it noticed first, which is not always where the
/// mistake is: a string left open inside an inline table
/// (`{ en = "Notes }`) ends at its line, and the parser first complains of
/// a missing comma at the start of the next one.
fn first_error(text: &str) -> Option<toml::de::Error> {
    use toml::de::DeTable;
    let reported = DeTable::parse(text).err()?;
    let (_, all) = DeTable::parse_recoverable(text);
    let at = |e: &toml::de::Error| e.span().map_or(usize::MAX, |s| s.start);
    Some(
        all.into_iter()
            .min_by_key(at)
            .filter(|e| at(e) <= at(&reported))
            .unwrap_or(reported),
    )
}

/// The byte ranges of a TOML document's tables: the part before the first
/// header, then each `[…]` or `[[…]]` header line with the lines up to the
/// next one.
fn chunks(text: &str) -> Vec<std::ops::Range<usize>> {
    let mut starts = vec![0];
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        if at > 0 && line.trim_start().starts_with('[') {
            starts.push(at);
        }
        at += line.len();
    }
    starts.push(text.len());
    starts.windows(2).map(|w| w[0]..w[1]).collect()
}

/// The byte range of the line of `text` holding offset `at`, without its
/// newline.
fn line_at(text: &str, at: usize) -> std::ops::Range<usize> {
    let at = at.min(text.len());
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    start..end
}

/// `text` with every character inside one of `gone` made spaces
/// (newlines kept, each character as many spaces as its bytes), so that
/// offsets in the result are offsets in `text`.
fn blank_inside(text: &str, gone: &[std::ops::Range<usize>]) -> String {
    let mut gone = gone.to_vec();
    gone.sort_by_key(|g| g.start);
    let mut next = gone.iter().peekable();
    let mut out = String::with_capacity(text.len());
    for (i, c) in text.char_indices() {
        // One pass: the ranges in order, each left behind once passed.
        while next.peek().is_some_and(|g| g.end <= i) {
            next.next();
        }
        let inside = next.peek().is_some_and(|g| g.contains(&i));
        if inside && c != '\n' {
            out.extend(std::iter::repeat_n(' ', c.len_utf8()));
        } else {
            out.push(c);
        }
    }
    out
}

/// Deserializes `table` as `T`, taking out each key the errors point at
/// (an unknown key, a value of the wrong type) and trying again, one
/// finding per key taken out. `meant` gets the names misspelt keys were
/// probably meant to be. `None` when `T` cannot be made at all (a
/// required key missing).
fn recover<T: for<'de> Deserialize<'de>>(
    src: &Source,
    table: &mut toml::de::DeTable<'_>,
    span: std::ops::Range<usize>,
    diags: &mut Vec<Diagnostic>,
    meant: &mut Vec<String>,
) -> Option<T> {
    use toml::de::Deserializer;
    let mut removed: Vec<String> = Vec::new();
    // Each round takes a key out, so this ends; the bound only guards a
    // deserializer that would point at no key.
    for _ in 0..64 {
        let attempt = T::deserialize(Deserializer::from(toml::Spanned::new(
            span.clone(),
            table.clone(),
        )));
        let e = match attempt {
            Ok(v) => return Some(v),
            Err(e) => e,
        };
        let message = e.message().to_owned();
        if let Some(missing) = message
            .strip_prefix("missing field `")
            .and_then(|m| m.split('`').next())
        {
            // Missing because it was misspelt or had the wrong type: that
            // mistake is already reported.
            let already =
                removed.iter().any(|r| r == missing) || meant.iter().any(|m| m == missing);
            if !already {
                diags.push(toml_error(src, 0, &e));
            }
            return None;
        }
        let at = e.span();
        let key = table
            .iter()
            .find(|(k, v)| {
                at.as_ref().is_some_and(|at| {
                    (k.span().start <= at.start && at.end <= k.span().end)
                        || (v.span().start <= at.start && at.end <= v.span().end)
                })
            })
            .map(|(k, _)| k.get_ref().to_string());
        let Some(key) = key else {
            diags.push(toml_error(src, 0, &e));
            return None;
        };
        let d = toml_error(src, 0, &e);
        if d.code == "E002" {
            if let Some(n) = d
                .hint
                .as_deref()
                .and_then(|h| h.strip_prefix("did you mean `"))
            {
                meant.push(n.trim_end_matches("`?").to_owned());
            }
        }
        diags.push(d);
        table.remove(key.as_str());
        removed.push(key);
    }
    None
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
    pub(crate) aspect: String,
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
