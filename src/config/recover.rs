//! Reading TOML that has mistakes in it, for `book.toml` and a page's
//! front matter alike: what parses is kept, and each mistake costs only
//! the table (a syntax error) or the key (unknown, or of the wrong type)
//! it is in, with one finding each.

use super::toml_error;
use crate::error::Diagnostic;
use crate::source::Source;
use serde::Deserialize;

/// `text` (a page's front matter at its offsets in the file, or
/// `book.toml`) with what does not parse blanked out, or `None` when all
/// of it parses. The parser's own
/// recovery lets one unclosed bracket run on into a finding for every line
/// after it; instead, each table (`[[claims]]` …) is parsed alone, so that a
/// page of many claims is read in linear time, and one that does not parse
/// is one finding and is left out whole. At the top level, which holds the
/// title, only the lines in error go, each noted in `page_meant` so that a
/// key it held is not reported missing. The header of each table left out
/// goes to `tables_gone` (`[aspects.loaded]`).
pub(crate) fn without_broken_tables(
    src: &Source,
    text: &str,
    diags: &mut Vec<Diagnostic>,
    page_meant: &mut Vec<String>,
    tables_gone: &mut Vec<String>,
) -> Option<String> {
    let first = first_error(text)?;
    let mut gone: Vec<std::ops::Range<usize>> = Vec::new();
    for (i, chunk) in chunks(text).into_iter().enumerate() {
        if i > 0 {
            if let Some(e) = first_error(&text[chunk.clone()]) {
                diags.push(toml_error(src, chunk.start, &e));
                let header = text[chunk.clone()].lines().next().unwrap_or("");
                tables_gone.push(header.trim().to_owned());
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
pub(crate) fn recover<T: for<'de> Deserialize<'de>>(
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
        } else {
            // A known key of the wrong type: it was written, and is
            // reported here, not again as missing.
            meant.push(key.clone());
        }
        diags.push(d);
        table.remove(key.as_str());
        removed.push(key);
    }
    None
}

/// What `book.toml` declares but could not be read (a table that does not
/// parse, an answer or kind with a mistake): a name a page gives that may
/// be one of these is not reported again as naming nothing.
#[derive(Debug, Clone, Default)]
pub(crate) struct Unread {
    /// Aspects whose `[aspects.NAME]` table was left out.
    pub(crate) aspects: Vec<String>,
    /// Answers (aspect, key) left out of their vocabulary.
    pub(crate) answers: Vec<(String, String)>,
    /// Kinds left out of `[kinds]`.
    pub(crate) kinds: Vec<String>,
    /// Answers (aspect, key) whose `kind` was written but could not be
    /// read: reported there, not again as missing.
    pub(crate) kinds_written: Vec<(String, String)>,
    /// Whole top-level tables left out (`kinds`, `aspects`).
    pub(crate) tables: Vec<String>,
}

impl Unread {
    /// Whether the aspect `name` may be declared in what was not read.
    pub(crate) fn aspect(&self, name: &str) -> bool {
        self.tables.iter().any(|t| t == "aspects") || self.aspects.iter().any(|a| a == name)
    }

    /// Whether `key` may be an answer of `aspect` that was not read.
    pub(crate) fn answer(&self, aspect: &str, key: &str) -> bool {
        self.aspect(aspect) || self.answers.iter().any(|(a, k)| a == aspect && k == key)
    }

    /// Whether the kind `name` may be declared in what was not read.
    pub(crate) fn kind(&self, name: &str) -> bool {
        self.tables.iter().any(|t| t == "kinds") || self.kinds.iter().any(|k| k == name)
    }

    /// Notes a table left out by its header (`[aspects.loaded]`,
    /// `[kinds]`, `[[check.accept]]`).
    pub(super) fn table(&mut self, header: &str) {
        let name = header.trim_matches(|c| c == '[' || c == ']' || c == ' ');
        let mut parts = name.split('.').map(|p| p.trim().trim_matches('"'));
        match (parts.next(), parts.next()) {
            (Some("aspects"), Some(aspect)) => self.aspects.push(aspect.to_owned()),
            (Some(top), None) => self.tables.push(top.to_owned()),
            _ => {}
        }
    }
}

/// The finding for a value that cannot be a `T` (a string where a table
/// belongs), if it cannot.
pub(super) fn report<T: for<'de> Deserialize<'de>>(
    src: &Source,
    value: toml::Spanned<toml::de::DeValue<'_>>,
    diags: &mut Vec<Diagnostic>,
) {
    if let Err(e) = T::deserialize(toml::de::ValueDeserializer::from(value)) {
        diags.push(toml_error(src, 0, &e));
    }
}

/// `T` from a value that may not be a table (`book = 3`): read as `T`, or
/// reported, with `T`'s default in its place.
pub(super) fn value<T: for<'de> Deserialize<'de> + Default>(
    src: &Source,
    value: toml::Spanned<toml::de::DeValue<'_>>,
    diags: &mut Vec<Diagnostic>,
) -> T {
    use toml::de::DeValue;
    let span = value.span();
    match value.into_inner() {
        DeValue::Table(mut t) => {
            recover::<T>(src, &mut t, span, diags, &mut Vec::new()).unwrap_or_default()
        }
        other => {
            let other = toml::Spanned::new(span, other);
            T::deserialize(toml::de::ValueDeserializer::from(other)).unwrap_or_else(|e| {
                diags.push(toml_error(src, 0, &e));
                T::default()
            })
        }
    }
}
