//! Tera templates: the embedded theme with a site's overrides.
//!
//! Built once per build (or once per `serve` session) and shared by
//! reference. Errors name the template file that caused them, embedded or
//! overriding, so a broken override is easy to find.

use super::i18n::{I18n, Translate};
use super::theme::{self, ThemeFile};
use crate::error::{Diagnostic, Location, Result};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

/// The compiled templates and where each came from.
pub(crate) struct Templates {
    tera: tera::Tera,
    origins: BTreeMap<String, String>,
    reserved_ids: Vec<String>,
}

impl std::fmt::Debug for Templates {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Templates")
            .field("origins", &self.origins)
            .finish()
    }
}

/// The templates parsed by Tera, with the escaping kansoku uses and `t()`
/// over `i18n`, from `(name, text)` pairs. Parsing is Tera's slowest step
/// (about 40 ms for the built-in theme): a process that renders many
/// times keeps the whole `Renderer` instead (`site::memo::Caches` for
/// serve, `site::memo::ThemeCache` for the tests' cold runs).
fn parse_all(sources: &[(String, String)], i18n: &Arc<I18n>) -> tera::Result<tera::Tera> {
    let mut tera = tera::Tera::default();
    tera.autoescape_on(vec![".html"]);
    // Tera's default also escapes `/`, which makes every URL unreadable
    // (`&#x2F;ja&#x2F;`); quotes, `<`, `>` and `&` are what matter.
    tera.set_escape_fn(escape_html);
    tera.add_raw_templates(sources.to_vec())?;
    tera.register_function("t", Translate(i18n.clone(), Default::default()));
    Ok(tera)
}

/// What is wrong with templates Tera would not take together: each file
/// that fails to parse on its own, pinned to its line, or else the
/// failure of the whole (an `extends` or `include` of a missing name).
fn parse_errors(
    sources: &[(String, String)],
    origins: &BTreeMap<String, String>,
    e: &tera::Error,
) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    for (name, text) in sources {
        let mut probe = tera::Tera::default();
        if let Err(e) = probe.add_raw_template(name, text) {
            let msg = tera_message(&e);
            // Inheritance needs every template: judged below.
            if !msg.contains("Failed to parse") {
                continue;
            }
            let loc = parse_location(&origins[name], &msg);
            let detail = msg
                .lines()
                .rev()
                .find(|l| !l.trim().is_empty() && !l.contains('|'))
                .unwrap_or("")
                .trim()
                .trim_start_matches("= ")
                .to_owned();
            diags.push(
                Diagnostic::error("E040", loc, format!("template syntax error: {detail}"))
                    .with_hint("fix the template, or delete the override to use the built-in one"),
            );
        }
    }
    if diags.is_empty() {
        diags.push(
            Diagnostic::error(
                "E040",
                Location::file("templates"),
                format!("template error: {}", tera_message(e)),
            )
            .with_hint("a template extends or includes one that does not exist"),
        );
    }
    diags
}

fn escape_html(s: &str) -> String {
    super::highlight::escape(s)
}

/// Full error text of a Tera error, causes included.
pub(crate) fn tera_message(e: &tera::Error) -> String {
    let mut msg = e.to_string();
    let mut cur: Option<&dyn std::error::Error> = std::error::Error::source(e);
    while let Some(s) = cur {
        msg.push_str(": ");
        msg.push_str(&s.to_string());
        cur = s.source();
    }
    msg
}

/// `--> 3:5` in a Tera parse error, as a location inside `origin`.
fn parse_location(origin: &str, msg: &str) -> Location {
    let path = origin.trim_start_matches("(embedded) ").to_owned();
    let pos = msg.find("--> ").and_then(|i| {
        let rest = &msg[i + 4..];
        let end = rest
            .find(|c: char| !(c.is_ascii_digit() || c == ':'))
            .unwrap_or(rest.len());
        let (l, c) = rest[..end].split_once(':')?;
        Some((l.parse().ok()?, c.parse().ok()?))
    });
    let (line, col) = pos.unwrap_or((1, 1));
    Location { path, line, col }
}

impl Templates {
    /// Loads the embedded templates and the site's overrides, with `t()`
    /// over `i18n`.
    pub(crate) fn load(
        root: &Path,
        i18n: Arc<I18n>,
    ) -> Result<std::result::Result<Templates, Vec<Diagnostic>>> {
        let files: Vec<ThemeFile> =
            theme::merged(root, "templates", theme::TEMPLATES, Some(".html"))?;
        let mut origins = BTreeMap::new();
        let mut diags = Vec::new();
        let mut sources = Vec::new();
        for f in &files {
            origins.insert(f.name.clone(), f.origin.clone());
            match String::from_utf8(f.bytes.clone()) {
                Ok(text) => sources.push((f.name.clone(), text)),
                Err(e) => diags.push(Diagnostic::error(
                    "E040",
                    Location::file(f.origin.trim_start_matches("(embedded) ")),
                    format!(
                        "template is not UTF-8 (invalid byte at {})",
                        e.utf8_error().valid_up_to()
                    ),
                )),
            }
        }
        if !diags.is_empty() {
            return Ok(Err(diags));
        }
        // The common case parses each template once. Only when that fails
        // is each file parsed on its own, to pin a syntax error to its file.
        let tera = match parse_all(&sources, &i18n) {
            Ok(tera) => tera,
            Err(e) => return Ok(Err(parse_errors(&sources, &origins, &e))),
        };
        let reserved_ids =
            theme::fixed_ids(files.iter().map(|f| String::from_utf8_lossy(&f.bytes)));
        Ok(Ok(Templates {
            tera,
            origins,
            reserved_ids,
        }))
    }

    /// Ids the theme writes literally (`id="main"`): headings must not take them.
    pub(crate) fn reserved_ids(&self) -> &[String] {
        &self.reserved_ids
    }

    /// Renders `name` with `ctx`; errors name the template's file.
    pub(crate) fn render(
        &self,
        name: &str,
        ctx: &tera::Context,
    ) -> std::result::Result<String, Diagnostic> {
        self.tera.render(name, ctx).map_err(|e| {
            let origin = self.origins.get(name).map_or(name, String::as_str);
            let msg = tera_message(&e).replace('\n', " ");
            Diagnostic::error(
                "E040",
                parse_location(origin, ""),
                format!("template error while rendering `{name}`: {msg}"),
            )
            .with_hint("check the variables the template uses against docs/theme-contract.md")
        })
    }
}
