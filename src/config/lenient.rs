//! `book.toml` read leniently: every mistake found and reported, and the
//! rest of the file read, using the TOML recovery of [`super::recover`].

use super::recover::{recover, report, value, without_broken_tables, Unread};
use super::toml_error;
use crate::error::Diagnostic;
use crate::source::Source;
use serde::Deserialize;

/// `book.toml` read as far as it can be, with a finding for each mistake
/// rather than for the first: a syntax error costs its table, an unknown
/// or mistyped key only that key, a bad answer, kind or acceptance only
/// itself; everything else is read (see [`Unread`]).
pub(super) fn config(src: &Source) -> (super::RawConfig, Vec<Diagnostic>, Unread) {
    use toml::de::{DeTable, DeValue};
    let mut diags = Vec::new();
    let mut unread = Unread::default();
    let mut gone = Vec::new();
    let kept = without_broken_tables(src, &src.text, &mut diags, &mut Vec::new(), &mut gone);
    for header in &gone {
        unread.table(header);
    }
    let (table, errors) = DeTable::parse_recoverable(kept.as_deref().unwrap_or(&src.text));
    if diags.is_empty() {
        diags.extend(errors.iter().take(1).map(|e| toml_error(src, 0, e)));
    }
    let span = table.span();
    let mut table = table.into_inner();
    let mut raw = super::RawConfig::default();
    let mut take = |key: &str| table.remove(key);
    if let Some(v) = take("book") {
        raw.book = value(src, v, &mut diags);
    }
    if let Some(v) = take("build") {
        raw.build = value(src, v, &mut diags);
    }
    if let Some(v) = take("output") {
        // `[output.html]` on its own: a mistake there costs its key.
        let span = v.span();
        let (v, html) = match v.into_inner() {
            DeValue::Table(mut t) => {
                let html = t.remove("html");
                (DeValue::Table(t), html)
            }
            other => (other, None),
        };
        raw.output = value(src, toml::Spanned::new(span, v), &mut diags);
        if let Some(html) = html {
            raw.output.html = value(src, html, &mut diags);
        }
    }
    if let Some(v) = take("evidence") {
        raw.evidence = value(src, v, &mut diags);
    }
    if let Some(v) = take("serve") {
        raw.serve = value(src, v, &mut diags);
    }
    if let Some(v) = take("markdown") {
        raw.markdown = value(src, v, &mut diags);
    }
    if let Some(v) = take("search") {
        raw.search = value(src, v, &mut diags);
    }
    if let Some(v) = take("capture") {
        raw.capture = value(src, v, &mut diags);
    }
    if let Some(v) = take("kinds") {
        // Each kind on its own.
        let span = v.span();
        match v.into_inner() {
            DeValue::Table(t) => {
                for (name, label) in t {
                    let name = name.into_inner().into_owned();
                    match toml::Spanned::<crate::lang::RawBi>::deserialize(
                        toml::de::ValueDeserializer::from(label),
                    ) {
                        Ok(l) => {
                            raw.kinds.insert(name, l);
                        }
                        Err(e) => {
                            diags.push(toml_error(src, 0, &e));
                            unread.kinds.push(name);
                        }
                    }
                }
            }
            other => {
                report::<std::collections::BTreeMap<String, crate::lang::RawBi>>(
                    src,
                    toml::Spanned::new(span, other),
                    &mut diags,
                );
                unread.tables.push("kinds".to_owned());
            }
        }
    }
    if let Some(v) = take("check") {
        // Each acceptance on its own.
        let span = v.span();
        match v.into_inner() {
            DeValue::Table(mut t) => {
                let accept = t.remove("accept");
                raw.check = value(src, toml::Spanned::new(span, DeValue::Table(t)), &mut diags);
                match accept {
                    Some(list) if matches!(list.get_ref(), DeValue::Array(_)) => {
                        let DeValue::Array(items) = list.into_inner() else {
                            unreachable!("matched as an array")
                        };
                        for item in items {
                            let item_span = item.span();
                            if !matches!(item.get_ref(), DeValue::Table(_)) {
                                report::<super::RawAccept>(src, item, &mut diags);
                                continue;
                            }
                            if let DeValue::Table(mut t) = item.into_inner() {
                                if let Some(a) = recover::<toml::Spanned<super::RawAccept>>(
                                    src,
                                    &mut t,
                                    item_span,
                                    &mut diags,
                                    &mut Vec::new(),
                                ) {
                                    raw.check.accept.push(a);
                                }
                            }
                        }
                    }
                    Some(other) => report::<Vec<super::RawAccept>>(src, other, &mut diags),
                    None => {}
                }
            }
            other => {
                raw.check = value(src, toml::Spanned::new(span, other), &mut diags);
            }
        }
    }
    if let Some(v) = take("aspects") {
        raw.aspects = super::aspects::lenient(src, v, &mut diags, &mut unread);
    }
    // What is left is unknown: each key reported with the nearest name.
    if !table.is_empty() {
        let _ = recover::<super::RawConfig>(src, &mut table, span, &mut diags, &mut Vec::new());
    }
    diags.sort_by(|a, b| a.location.cmp(&b.location));
    (raw, diags, unread)
}

#[cfg(test)]
mod tests {
    use super::super::Config;
    use crate::source::Source;

    #[test]
    fn every_mistake_of_book_toml_once_and_the_rest_read() {
        let text = concat!(
            "[book]\ntitle = \"T\"\n",
            "[output.html]\nsite-ul = \"/\"\n",
            "[kinds]\ncomponent = { ja = \"部品\" }\ngpu = { ja = \"GPU\", en = \"GPU\" }\n",
            "[aspects.runs]\nqestion = { ja = \"動いたか\", en = \"Ran?\" }\n",
            "answers = [\n",
            "  { key = \"yes\", kind = \"yes\", label = 3 },\n",
            "  \"oops\",\n",
            "  { key = \"no\", knd = \"no\", label = { ja = \"動いてない\", en = \"No\" } },\n",
            "]\n",
            "[aspects.other\nquestion = 1\n",
            "[[check.accept]]\ncode = \"W002\"\nreasn = \"x\"\n",
            "[[check.accept]]\ncode = \"W001\"\nreason = { ja = \"理由\", en = \"why\" }\n",
            "[serve]\nport = 4000\n",
        );
        let (config, diags) = Config::read(Source::new("book.toml".into(), text.into()));
        let found: Vec<String> = diags
            .iter()
            .map(|d| format!("{} {} {}", d.code, d.location, d.message))
            .collect();
        assert_eq!(
            found,
            [
                "E002 book.toml:4:1 unknown field `site-ul`, expected one of `site-url`, `git-repository-url`, `edit-url-template`, `paginate-by`",
                "E031 book.toml:6:13 `kinds.component` lacks en",
                "E002 book.toml:9:1 unknown field `qestion`, expected one of `question`, `scope`, `setup`, `elsewhere`, `framing`, `answers`",
                "E003 book.toml:11:40 invalid type: integer `3`, expected a string or a table `{ ja = \"…\", en = \"…\" }`",
                "E003 book.toml:12:3 invalid type: string \"oops\", expected a table",
                "E002 book.toml:13:17 unknown field `knd`, expected one of `key`, `kind`, `glyph`, `label`",
                "E001 book.toml:15:15 unclosed table, expected `]`",
                "E002 book.toml:19:1 unknown field `reasn`, expected one of `code`, `reason`, `path`, `claim`",
            ]
        );
        // What is right is read.
        assert_eq!(config.title.en, "T");
        assert_eq!(config.port, 4000);
        assert!(config.kinds.contains_key("gpu"));
        assert_eq!(config.accept.len(), 1);
        let runs = config.aspect("runs").expect("runs is read");
        assert_eq!(
            runs.answers.len(),
            1,
            "`no` is read (without its kind), `yes` is not"
        );
        assert_eq!(runs.answers[0].kind, None);
        // What is not is known to be missing, not absent.
        assert!(config.unread.kind("component"));
        assert!(config.unread.answer("runs", "yes"));
        assert!(config.unread.aspect("other"));
        assert!(!config.unread.aspect("runs"));
    }
}
