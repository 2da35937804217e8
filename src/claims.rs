//! `kansoku claims`: querying the claims of a site.
//!
//! The claims are the objects of `claims.json`, made by the renderer that
//! writes that file (so the two can never disagree), then filtered. This
//! module writes nothing.

use crate::error::{Error, Result};
use crate::render::{Renderer, SitePart, Unit};
use crate::validate::Mode;
use serde_json::Value;
use std::path::Path;

/// Which claims to list; `None` matches every claim.
#[derive(Debug, Clone, Copy, Default)]
pub struct Query<'a> {
    /// Evidence class name.
    pub class: Option<&'a str>,
    /// The defining page: path under `content/` (or a glob over it).
    pub page: Option<&'a str>,
    /// The claim's `about` entity key.
    pub about: Option<&'a str>,
}

impl Query<'_> {
    fn matches(&self, claim: &Value) -> bool {
        let field = |k: &str| claim.get(k).and_then(Value::as_str);
        let page = field("page").unwrap_or("");
        let page = page.strip_prefix("content/").unwrap_or(page);
        self.class.is_none_or(|c| field("class") == Some(c))
            && self.about.is_none_or(|a| field("about") == Some(a))
            && self.page.is_none_or(|p| {
                let p = p.strip_prefix("content/").unwrap_or(p);
                crate::glob::PathGlob::new(p).is_match(page)
                    || page.strip_suffix(".md") == Some(p.trim_end_matches('/'))
            })
    }
}

/// The claims of the site at `root` that `query` matches, as the objects
/// of `claims.json`, in its order. Fails like `build` on a site with errors.
pub fn query(root: &Path, query: &Query<'_>) -> Result<Vec<Value>> {
    let (site, _) = crate::site::load(root, Mode::Build)?;
    let renderer = Renderer::new(root)?.map_err(Error::Content)?;
    let prepared = renderer.prepare(&site).map_err(Error::Content)?;
    let file = std::sync::Mutex::new(None);
    renderer
        .render_each(&site, &prepared, &[Unit::Site(SitePart::Claims)], &|f| {
            // The part also writes claims.jsonld.
            if f.path == "claims.json" {
                *file
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(f);
            }
            Ok(())
        })
        .map_err(Error::Content)?;
    let file = file
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .expect("the claims part renders claims.json");
    let mut doc: Value =
        serde_json::from_slice(&file.bytes).expect("claims.json is the renderer's own JSON");
    let all = match doc.get_mut("claims").map(Value::take) {
        Some(Value::Array(all)) => all,
        _ => Vec::new(),
    };
    Ok(all.into_iter().filter(|c| query.matches(c)).collect())
}

/// As a JSON array, pretty-printed like `claims.json`.
pub fn json(claims: &[Value]) -> String {
    let mut s = serde_json::to_string_pretty(claims).expect("JSON values serialise");
    s.push('\n');
    s
}

fn text<'a>(c: &'a Value, path: &[&str]) -> &'a str {
    let mut v = c;
    for k in path {
        v = match v.get(k) {
            Some(x) => x,
            None => return "",
        };
    }
    v.as_str().unwrap_or("")
}

const COLUMNS: [(&str, &[&str]); 7] = [
    ("id", &["id"]),
    ("class", &["class"]),
    ("page", &["page"]),
    ("about", &["about"]),
    ("aspect", &["aspect"]),
    ("ja", &["text", "ja"]),
    ("en", &["text", "en"]),
];

/// As CSV (RFC 4180): a header, then one row per claim. Control and
/// format characters are shown escaped (`\u{1b}`), but for the tab and
/// newline a field may hold: CSV is read on terminals too.
pub fn csv(claims: &[Value]) -> String {
    let quote = |s: &str| {
        let s = crate::terminal::escape(s, &['\n', '\t']);
        if s.contains([',', '"', '\n', '\r']) {
            format!("\"{}\"", s.replace('"', "\"\""))
        } else {
            s.into_owned()
        }
    };
    let mut out = COLUMNS.map(|(name, _)| name).join(",");
    out.push_str("\r\n");
    for c in claims {
        let row: Vec<String> = COLUMNS.iter().map(|(_, p)| quote(text(c, p))).collect();
        out.push_str(&row.join(","));
        out.push_str("\r\n");
    }
    out
}

/// As an aligned table for a terminal: id, class, page and the English
/// text, cut to one line; then a count. Control and format characters are
/// shown escaped (`\u{202e}`), newlines and tabs too: a row is one line.
pub fn table(claims: &[Value]) -> String {
    use unicode_width::UnicodeWidthStr;
    let cols: [(&str, &[&str]); 4] = [
        ("ID", &["id"]),
        ("CLASS", &["class"]),
        ("PAGE", &["page"]),
        ("TEXT", &["text", "en"]),
    ];
    let cell = |c: &Value, p: &[&str]| -> String {
        let t = text(c, p);
        // Cut before escaping, so that no escape is cut in half.
        let cut = if t.chars().count() > 80 {
            format!("{}…", t.chars().take(79).collect::<String>())
        } else {
            t.to_owned()
        };
        crate::terminal::escape(&cut, &[]).into_owned()
    };
    let rows: Vec<Vec<String>> = claims
        .iter()
        .map(|c| cols.iter().map(|(_, p)| cell(c, p)).collect())
        .collect();
    let widths: Vec<usize> = (0..cols.len() - 1)
        .map(|i| {
            rows.iter()
                .map(|r| r[i].width())
                .chain([cols[i].0.len()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    let mut line = |cells: Vec<&str>| {
        let mut l = String::new();
        for (i, c) in cells.iter().enumerate() {
            l.push_str(c);
            if let Some(w) = widths.get(i) {
                l.push_str(&" ".repeat(w - c.width() + 2));
            }
        }
        out.push_str(l.trim_end());
        out.push('\n');
    };
    line(cols.iter().map(|(h, _)| *h).collect());
    for r in &rows {
        line(r.iter().map(String::as_str).collect());
    }
    out.push_str(&format!(
        "{} claim{}\n",
        claims.len(),
        if claims.len() == 1 { "" } else { "s" }
    ));
    out
}
