//! `kansoku claims`: querying the claims of a site.
//!
//! The claims are the records of `claims.json` ([`ClaimRecord`]), read
//! from the file the renderer writes, rendered with the plan `build`
//! runs (drafts left out unless asked for), so the two can never
//! disagree; then filtered. This module writes nothing.

use crate::error::Result;
use crate::record::{ClaimRecord, ClaimsFile};
use crate::render::SitePart;
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
    /// Drafts' claims too, as `build --drafts` publishes them; off, the
    /// claims of the `claims.json` a plain `build` writes.
    pub drafts: bool,
}

impl Query<'_> {
    fn matches(&self, claim: &ClaimRecord<'_>) -> bool {
        let page = claim.page.strip_prefix("content/").unwrap_or(&claim.page);
        self.class.is_none_or(|c| claim.class == c)
            && self.about.is_none_or(|a| claim.about.as_deref() == Some(a))
            && self.page.is_none_or(|p| {
                let p = p.strip_prefix("content/").unwrap_or(p);
                crate::glob::PathGlob::new(p).is_match(page)
                    || page.strip_suffix(".md") == Some(p.trim_end_matches('/'))
            })
    }
}

/// The claims of the site at `root` that `query` matches, as the records
/// of `claims.json`, in its order. Fails like `build` on a site with errors.
pub fn query(root: &Path, query: &Query<'_>) -> Result<Vec<ClaimRecord<'static>>> {
    let all = records(root, query.drafts, true)?;
    Ok(all.into_iter().filter(|c| query.matches(c)).collect())
}

/// Every record of the `claims.json` that `build` (`build --drafts` with
/// `drafts`) would write for the site at `root`, rendered in memory with
/// the build's plan; `lock`: compared with the review lock, as a build
/// does (a lock that does not read is then an error).
pub(crate) fn records(root: &Path, drafts: bool, lock: bool) -> Result<Vec<ClaimRecord<'static>>> {
    use crate::site::plan::{Memory, Plan};
    use crate::site::run::run;
    let plan = Plan {
        only: Some(SitePart::Claims),
        drafts,
        lock,
        ..Plan::build()
    };
    let caches = &mut crate::site::Caches::unrendered();
    let (_, out) = run(root, &plan, caches, |_, _| Ok(Memory::default()))?;
    // The part also writes claims.jsonld.
    let file = out
        .into_iter()
        .flat_map(Memory::into_files)
        .find(|f| f.path == "claims.json")
        .expect("the claims part renders claims.json");
    Ok(serde_json::from_slice::<ClaimsFile<'_>>(&file.bytes)
        .expect("claims.json is the renderer's own JSON")
        .claims)
}

/// As a JSON array, pretty-printed like `claims.json` but with each
/// object's keys in alphabetical order, as this command has always printed
/// them (through `serde_json::Value`, whose maps are sorted).
pub fn json(claims: &[ClaimRecord<'_>]) -> String {
    let sorted = serde_json::to_value(claims).expect("claims serialise: strings and numbers only");
    let mut s = serde_json::to_string_pretty(&sorted).expect("JSON values serialise");
    s.push('\n');
    s
}

/// A column of the CSV or the table: a field of the claim, empty if absent.
type Column = (&'static str, Field);
type Field = for<'a> fn(&'a ClaimRecord<'a>) -> &'a str;

const COLUMNS: [Column; 8] = [
    ("id", |c| &c.id),
    ("class", |c| &c.class),
    ("page", |c| &c.page),
    ("about", |c| c.about.as_deref().unwrap_or("")),
    ("aspect", |c| c.aspect.as_deref().unwrap_or("")),
    ("answer", |c| c.answer.as_ref().map_or("", |a| &a.key)),
    ("ja", |c| &c.text.ja),
    ("en", |c| &c.text.en),
];

/// As CSV (RFC 4180): a header, then one row per claim. Control and
/// format characters are shown escaped (`\u{1b}`), but for the tab and
/// newline a field may hold: CSV is read on terminals too.
pub fn csv(claims: &[ClaimRecord<'_>]) -> String {
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
        let row: Vec<String> = COLUMNS.iter().map(|(_, field)| quote(field(c))).collect();
        out.push_str(&row.join(","));
        out.push_str("\r\n");
    }
    out
}

/// As an aligned table for a terminal: id, class, the answer's key (if
/// the claim states one), page and the English text, cut to one line;
/// then a count. Control and format characters are
/// shown escaped (`\u{202e}`), newlines and tabs too: a row is one line.
pub fn table(claims: &[ClaimRecord<'_>]) -> String {
    use unicode_width::UnicodeWidthStr;
    let cols: [Column; 5] = [
        ("ID", |c| &c.id),
        ("CLASS", |c| &c.class),
        ("ANSWER", |c| c.answer.as_ref().map_or("", |a| &a.key)),
        ("PAGE", |c| &c.page),
        ("TEXT", |c| &c.text.en),
    ];
    let cell = |c: &ClaimRecord<'_>, field: Field| -> String {
        let t = field(c);
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
        .map(|c| cols.iter().map(|&(_, field)| cell(c, field)).collect())
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
