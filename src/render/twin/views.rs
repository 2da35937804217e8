//! Generated views as Markdown tables, from the rows the HTML views are
//! drawn from (`render::generated`).
//!
//! A view's cell holds a claim; a Markdown table row holds one cell of
//! the view: the entity, the column (aspect), then the answer, how well
//! it is known, the claim and its evidence, each in a column of its own.
//! The answer and the certainty stay two fields, as in the HTML, and a
//! program reads every cell without knowing the view's shape.

use super::{text, Md};
use crate::content::Page;
use crate::error::Diagnostic;
use crate::render::generated::{self, EntityRow, Named, View};
use crate::render::views::ClaimView;

/// A Markdown table: the header, then one line per row.
fn table(head: &[&str], rows: &[Vec<String>]) -> String {
    let line = |cells: &mut dyn Iterator<Item = &str>| {
        let cells: Vec<String> = cells.map(|c| c.replace('\n', " ")).collect();
        format!("| {} |\n", cells.join(" | "))
    };
    let mut out = line(&mut head.iter().copied());
    out.push_str(&format!("|{}\n", "---|".repeat(head.len())));
    for r in rows {
        out.push_str(&line(&mut r.iter().map(String::as_str)));
    }
    out
}

impl Md<'_, '_> {
    /// The header of the cells a claim fills: answer, certainty, claim,
    /// evidence.
    fn claim_head(&self) -> [&str; 4] {
        [
            self.w("sof-answer"),
            self.w("sof-certainty"),
            self.w("md-claim"),
            self.w("claims-evidence"),
        ]
    }

    /// The four cells of a claim, or of an empty view cell ("not
    /// observed").
    fn claim_cells(&self, c: Option<&ClaimView>) -> [String; 4] {
        match c {
            Some(c) => [
                self.answer(c).unwrap_or_default(),
                text(&self.certainty(c)),
                format!("`{}` {}", c.id, text(&c.text)),
                self.evidence(c),
            ],
            None => [
                format!("– {}", self.w("view-not-observed")),
                String::new(),
                String::new(),
                String::new(),
            ],
        }
    }

    /// A view in long form: `lead` names its first columns, and each row
    /// gives their cells and the claim it shows.
    fn long(&self, lead: &[&str], rows: Vec<(Vec<String>, Option<&ClaimView>)>) -> String {
        let mut head: Vec<&str> = lead.to_vec();
        head.extend(self.claim_head());
        let rows: Vec<Vec<String>> = rows
            .into_iter()
            .map(|(mut cells, c)| {
                cells.extend(self.claim_cells(c));
                cells
            })
            .collect();
        table(&head, &rows)
    }

    /// One row per entity and column of a pivoted view (hub, matrix).
    fn pivot(&self, first: &str, columns: &[generated::Column], rows: &[EntityRow]) -> String {
        let mut out = Vec::new();
        for r in rows {
            for (col, cell) in columns.iter().zip(&r.cells) {
                out.push((
                    vec![self.link(&r.name, &r.href), text(&col.label)],
                    cell.as_ref(),
                ));
            }
        }
        let mut s = self.long(&[first, self.w("md-aspect")], out);
        // What a matrix row's entity was the scope of (the HTML's
        // "observed on this one" under the row's name).
        let observed: Vec<String> = rows
            .iter()
            .filter(|r| !r.observed.is_empty())
            .map(|r| {
                let links: Vec<String> = r
                    .observed
                    .iter()
                    .map(|o| self.link(&o.label, &o.href))
                    .collect();
                format!(
                    "- **{}** · {} {}\n",
                    text(&r.name),
                    self.w("observed-here"),
                    links.join(", ")
                )
            })
            .collect();
        if !observed.is_empty() {
            s.push('\n');
            s.push_str(&observed.concat());
        }
        s
    }
}

/// The page's generated view as Markdown; `None` for layouts without one.
pub(super) fn view(md: &Md<'_, '_>, page: &Page) -> Option<String> {
    let view = generated::view(md.cx, page, md.lang, md.lang.code())?;
    Some(match view {
        View::Hub(columns, rows) if !columns.is_empty() => {
            md.pivot(md.w("view-hub-component"), &columns, &rows)
        }
        View::Hub(_, rows) => md.long(
            &[md.w("view-hub-component"), md.w("view-hub-role")],
            rows.iter()
                .map(|r| {
                    (
                        vec![
                            md.link(&r.name, &r.href),
                            r.role.as_deref().map(text).unwrap_or_default(),
                        ],
                        r.status.as_ref(),
                    )
                })
                .collect(),
        ),
        View::Matrix(columns, rows) => md.pivot(md.w("view-matrix-generation"), &columns, &rows),
        View::Observers(rows) => observers(md, &rows),
        View::Home(rows) => {
            let (world, status) = (md.w("view-home-world"), md.w("view-home-status"));
            let mut out = Vec::new();
            for r in &rows {
                out.push((
                    vec![md.link(&r.name, &r.href), world.to_owned()],
                    r.cells.first().and_then(Option::as_ref),
                ));
                out.push((
                    vec![md.link(&r.name, &r.href), status.to_owned()],
                    r.status.as_ref(),
                ));
            }
            md.long(&[md.w("view-home-generation"), md.w("md-aspect")], out)
        }
        View::OpenQuestions(groups) if groups.is_empty() => {
            format!("{}\n", md.w("view-open-questions-empty"))
        }
        View::OpenQuestions(groups) => {
            let mut out = String::new();
            let counts = generated::class_counts(&groups);
            let total: usize = counts.iter().map(|c| c.1).sum();
            let each: Vec<String> = counts
                .iter()
                .map(|(class, n)| format!("{} {n}", md.w(&format!("class-{class}"))))
                .collect();
            out.push_str(&format!(
                "**{}**{}{total} — {}\n\n",
                md.w("view-open-questions"),
                if md.lang == crate::lang::Lang::Ja {
                    "："
                } else {
                    ": "
                },
                each.join(" · ")
            ));
            for g in &groups {
                out.push_str(&format!("## {}\n\n", md.link(&g.title, &g.href)));
                for p in &g.claims {
                    match &p.context {
                        Some(c) => {
                            out.push_str(&format!("- **{}** · {}\n", text(c), md.line(&p.claim)))
                        }
                        None => out.push_str(&format!("- {}\n", md.line(&p.claim))),
                    }
                }
                out.push('\n');
            }
            out
        }
    })
}

/// The observer cards: a row for each observer's status and each field
/// its card shows, then the status chain in words.
fn observers(md: &Md<'_, '_>, rows: &[EntityRow]) -> String {
    let kind = md
        .cx
        .config()
        .kinds
        .get("observer")
        .map_or_else(|| "observer".to_owned(), |k| k.get(md.lang).clone());
    let mut out = Vec::new();
    let mut chain = Vec::new();
    for r in rows {
        let name = md.link(&r.name, &r.href);
        if let Some(s) = &r.status {
            out.push((
                vec![name.clone(), md.w("view-hub-status").to_owned()],
                Some(s),
            ));
            let state = match md.answer(s) {
                Some(a) => format!("{a} · {}", text(&md.certainty(s))),
                None => text(&md.certainty(s)),
            };
            chain.push(format!("{} ({state})", text(&r.name)));
        } else {
            chain.push(text(&r.name));
        }
        for (aspect, cell) in generated::OBSERVER_ASPECTS.iter().zip(&r.cells) {
            if let Some(c) = cell {
                let field = md.w(&format!("view-observer-{aspect}"));
                out.push((vec![name.clone(), field.to_owned()], Some(c)));
            }
        }
    }
    let mut s = md.long(&[&kind, md.w("md-aspect")], out);
    if chain.len() > 1 {
        s.push_str(&format!(
            "\n**{}**: {}\n",
            md.w("view-status-chain"),
            chain.join(" → ")
        ));
    }
    s
}

/// A named view marker (`table:NAME`, `graph:NAME`) as Markdown; `None`
/// if the page declares no such view (the marker then stays as written).
pub(super) fn named(md: &Md<'_, '_>, page: &Page, marker: &str) -> Option<String> {
    let (_, named) = generated::named_view(md.cx, page, marker, md.lang, md.lang.code())
        .ok()
        .flatten()?;
    Some(match named {
        Named::Table(kind_label, columns, rows) => {
            let mut out = Vec::new();
            for r in &rows {
                let name = match &r.href {
                    Some(h) => md.link(&r.name, h),
                    None => format!("`{}`", r.name.replace('`', "'")),
                };
                for (col, cell) in columns.iter().zip(&r.cells) {
                    out.push((vec![name.clone(), text(&col.label)], cell.as_ref()));
                }
            }
            md.long(&[&kind_label, md.w("md-aspect")], out)
        }
        Named::Graph(nodes) => {
            let mut out = String::new();
            for n in &nodes {
                out.push_str(&format!("- **{}**", text(&n.name)));
                if let Some(state) = &n.state {
                    out.push_str(&format!(" ({})", text(state)));
                }
                if !n.depends_on.is_empty() {
                    let deps: Vec<String> = n.depends_on.iter().map(|d| text(d)).collect();
                    out.push_str(&format!(
                        " → {}: {}",
                        md.w("md-depends-on"),
                        deps.join(", ")
                    ));
                }
                out.push('\n');
            }
            out
        }
    })
}

/// What the page answers first, as Markdown: the summary of findings,
/// its view's scope, an entity's answers, what was observed on it.
pub(super) fn answers(md: &Md<'_, '_>, page: &Page) -> Result<Option<String>, Diagnostic> {
    let Some(a) = generated::answers(md.cx, page, md.lang, md.lang.code()) else {
        return Ok(None);
    };
    let ja = md.lang == crate::lang::Lang::Ja;
    let links = |ls: &[generated::PageLink], sep: &str| {
        ls.iter()
            .map(|l| md.link(&l.label, &l.href))
            .collect::<Vec<_>>()
            .join(sep)
    };
    let mut out = String::new();
    let (stop, sep) = if ja { ("。", "、") } else { (".", ", ") };
    if let Some(sof) = &a.sof {
        out.push_str(&format!("## {}\n\n", md.w("sof-title")));
        let mut rows = Vec::new();
        for f in &sof.findings {
            let question = match &f.href {
                Some(h) => md.link(&f.question, h),
                None => text(&f.question),
            };
            for r in &f.rows {
                let mut certainty = text(md.w(&format!("class-{}", r.class)));
                match r.basis {
                    Some("note") => certainty.push_str(&format!(" ({})", md.w("basis-note"))),
                    Some(_) => certainty.push_str(&format!(" ({})", md.w("basis-transcript"))),
                    None => {}
                }
                if let Some(n) = r.note {
                    certainty.push_str(&format!(" [{n}]"));
                }
                rows.push(vec![
                    question.clone(),
                    match &r.answer {
                        Some(a) => md.answer_words(a),
                        None => md.w("sof-in-words").to_owned(),
                    },
                    certainty,
                    links(&r.entities, sep),
                ]);
            }
        }
        out.push_str(&table(
            &[
                md.w("sof-question"),
                md.w("sof-answer"),
                md.w("sof-certainty"),
                md.w("sof-for"),
            ],
            &rows,
        ));
        out.push('\n');
        // Each question's own scope: where, how and when it was observed.
        for f in &sof.findings {
            let mut line = format!("**{}**", text(&f.question));
            line.push_str(if ja { "：" } else { ": " });
            if let Some(on) = &f.scope.on {
                line.push_str(&format!(
                    "{} {}",
                    md.w("scope-on"),
                    md.link(&on.label, &on.href)
                ));
                if f.scope.setup.is_some() {
                    line.push_str(" · ");
                }
            }
            if let Some(setup) = &f.scope.setup {
                line.push_str(&text(setup));
            }
            line.push_str(stop);
            if !f.scope.not_on.is_empty() {
                let label = md.w("scope-not-on");
                let space = if ja { "" } else { " " };
                line.push_str(&format!(
                    "{space}{label}{space}{}{stop}",
                    links(&f.scope.not_on, sep)
                ));
            }
            out.push_str(&format!("- {line}\n"));
        }
        out.push('\n');
        if !sof.notes.is_empty() {
            out.push_str(&format!("### {}\n\n", md.w("sof-notes-title")));
            for n in &sof.notes {
                let items: Vec<String> = n
                    .items
                    .iter()
                    .map(|i| {
                        let what = match i.what {
                            "settle" => format!("{} {}", md.w("settle-label"), text(&i.text)),
                            "from" => format!("{} {}", md.w("sof-note-from"), text(&i.text)),
                            _ => md.w("sof-note-none").to_owned(),
                        };
                        format!(
                            "{}{}{what}",
                            links(&i.entities, sep),
                            if ja { "：" } else { ": " }
                        )
                    })
                    .collect();
                out.push_str(&format!(
                    "{}. {} — {}\n",
                    n.n,
                    md.w(&format!("class-{}", n.class)),
                    items.join(" ")
                ));
            }
            out.push('\n');
        }
        if let Some(href) = &sof.open.href {
            out.push_str(&format!(
                "{}\n\n",
                md.link(
                    &md.msg("sof-open", &[("count", sof.open.count.into())])?,
                    href
                )
            ));
        }
        for p in &sof.pivots {
            out.push_str(&format!(
                "{} {}\n\n",
                text(&md.msg("sof-pivot", &[("kind", p.kind.clone().into())])?),
                md.link(&p.page.label, &p.page.href)
            ));
        }
        out.push_str(&format!("{}\n\n", text(md.w("sof-note"))));
    }
    for s in &a.scopes {
        if ja {
            let what: String = s.what.iter().map(|w| format!("「{}」", text(w))).collect();
            out.push_str(&format!("**{what}の範囲**："));
        } else {
            let what: Vec<String> = s.what.iter().map(|w| format!("“{}”", text(w))).collect();
            out.push_str(&format!(
                "**{}** {}: ",
                md.w("scope-label"),
                what.join(", ")
            ));
        }
        if let Some(on) = &s.on {
            out.push_str(&format!(
                "{} {}",
                md.w("scope-on"),
                md.link(&on.label, &on.href)
            ));
        }
        if let Some(setup) = &s.setup {
            if s.on.is_some() {
                out.push_str(" · ");
            }
            out.push_str(&text(setup));
        }
        out.push_str(stop);
        if !s.not_on.is_empty() {
            let space = if ja { "" } else { " " };
            out.push_str(&format!(
                "{space}{}{space}{}{stop}",
                md.w("scope-not-on"),
                links(&s.not_on, sep)
            ));
        }
        out.push_str("\n\n");
    }
    if !a.answers.is_empty() {
        let name = page
            .entity
            .as_ref()
            .map(|e| e.name.get(md.lang).clone())
            .unwrap_or_default();
        out.push_str(&format!(
            "## {}\n\n",
            text(&md.msg("answers-title", &[("name", name.into())])?)
        ));
        let rows = a
            .answers
            .iter()
            .map(|x| {
                let mut q = text(&x.question);
                if let Some(s) = &x.scope {
                    q.push_str(&format!(
                        " ({} {})",
                        md.w("scope-on"),
                        md.link(&s.label, &s.href)
                    ));
                }
                (vec![q], Some(&x.claim))
            })
            .collect();
        out.push_str(&md.long(&[md.w("sof-question")], rows));
        out.push('\n');
    }
    let o = &a.observed;
    if !o.here.is_empty() || !o.elsewhere.is_empty() {
        let mut parts = Vec::new();
        let space = if ja { "" } else { " " };
        if !o.here.is_empty() {
            parts.push(format!(
                "**{}**{space}{}{stop}",
                md.w("observed-here"),
                links(&o.here, sep)
            ));
        }
        if !o.elsewhere.is_empty() {
            let each: Vec<String> = o
                .elsewhere
                .iter()
                .map(|(q, l)| {
                    format!(
                        "{}{space}({}{} {})",
                        text(q),
                        md.w("scope-on"),
                        if ja { "：" } else { "" },
                        md.link(&l.label, &l.href)
                    )
                })
                .collect();
            parts.push(format!(
                "**{}**{space}{}{stop}",
                md.w("observed-elsewhere"),
                each.join(sep)
            ));
        }
        out.push_str(&parts.join(" "));
        out.push_str("\n\n");
    }
    Ok(Some(out))
}
