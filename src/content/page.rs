//! One page parsed: its front matter read leniently into a [`Page`], every
//! finding about it pushed, and its body split into language segments.

use super::{
    body, claims, front_matter, placeholder, url_path, Column, Entity, Layout, NamedView, Outline,
    Page, Scope, Span,
};
use crate::error::Diagnostic;
use crate::lang::{Bi, RawBi};
use crate::source::Source;
use toml::Spanned;

/// What parsing one page gave.
pub(crate) enum PageLoad {
    /// A page to render.
    Ok(Page),
    /// A page with errors, assembled as far as it could be so that every
    /// check its parsed part allows still runs; never rendered.
    Partial(Page),
    /// No front matter to read (no `+++` fences): the source, so the
    /// caller can still tell which claims the page defines.
    Failed(Source),
}

/// Parses one page; pushes every finding about it.
pub(crate) fn load_page(src: Source, rel: &str, diags: &mut Vec<Diagnostic>) -> PageLoad {
    let split = match front_matter::split(&src, true) {
        Ok(Some(s)) => s,
        Ok(None) => return PageLoad::Failed(src),
        Err(d) => {
            diags.push(d);
            return PageLoad::Failed(src);
        }
    };
    let before = diags.len();
    let lenient = front_matter::parse_page(&src, split);
    diags.extend(lenient.diags);
    let raw = lenient.page;
    let page_meant = lenient.page_meant;
    let title = match raw.title {
        // Misspelt: reported as such (E002), not again as missing.
        None if page_meant.iter().any(|m| m == "title") => None,
        None => {
            diags.push(
                src.error(
                    "E004",
                    split.fm_start.saturating_sub(4)..split.fm_start.saturating_sub(1),
                    "page has no `title`",
                )
                .with_hint("add `title = { ja = \"…\", en = \"…\" }` to the front matter"),
            );
            None
        }
        Some(t) => {
            let span = t.span();
            let title = bi(&src, t, "title", diags);
            if let Some(t) = &title {
                diags.extend(placeholder::left_in_title(&src, span, t, raw.draft));
            }
            title
        }
    };
    let lead = raw.lead.and_then(|l| bi(&src, l, "lead", diags));
    let layout = match &raw.layout {
        None => Layout::Page,
        Some(l) => match Layout::NAMES.iter().find(|(n, _)| n == l.get_ref()) {
            Some((_, layout)) => *layout,
            None => {
                diags.push(
                    src.error(
                        "E003",
                        l.span(),
                        format!("unknown layout `{}`", l.get_ref()),
                    )
                    .with_hint("use page, home, hub, matrix, observers or open-questions"),
                );
                Layout::Page
            }
        },
    };
    let entity = raw.entity.map(|e| load_entity(&src, e, "entity", diags));
    let members = raw
        .entities
        .into_iter()
        .map(|e| load_entity(&src, e, "entities", diags))
        .collect();
    let views = raw
        .views
        .into_iter()
        .map(|(name, v)| {
            let v = v.into_inner();
            NamedView {
                name,
                kind_span: Span(v.kind.span()),
                kind: v.kind.into_inner(),
                columns: columns(&src, v.columns, "views.columns.label", diags),
            }
        })
        .collect();
    let claims = raw
        .claims
        .into_iter()
        .zip(lenient.meant.iter().map(Vec::as_slice))
        .map(|(c, meant)| claims::claim(&src, c, meant, raw.draft, diags))
        .collect();
    let scope = raw.scope.map(|s| Scope {
        can: s.can.into_iter().map(spanned).collect(),
        cannot: s.cannot.into_iter().map(spanned).collect(),
    });
    let (raw_columns, findings) = raw
        .view
        .map(|v| (v.columns, v.findings))
        .unwrap_or_default();
    let findings = findings
        .into_iter()
        .map(|f| (f.span(), f.into_inner()))
        .map(|(s, f)| (f, s))
        .collect();
    let columns = columns(&src, raw_columns, "view.columns.label", diags);
    let segments = match body::split(&src, split.body_start) {
        Ok(s) => s,
        Err(d) => {
            diags.extend(d);
            Vec::new()
        }
    };
    let failed = diags[before..].iter().any(Diagnostic::is_error) || title.is_none();
    let page = Page {
        outline: Outline {
            rel: rel.to_owned(),
            url_path: url_path(rel),
            title: title.unwrap_or_else(empty_bi),
            lead,
            weight: raw.weight,
            updated: raw.updated.map(|d| d.to_string()),
            layout,
            entity,
            members,
            views,
            scope,
            columns,
            repeat_inline_claims: raw.repeat_inline_claims,
            draft: raw.draft,
        },
        claims,
        findings,
        segments,
        src,
    };
    if failed {
        PageLoad::Partial(page)
    } else {
        PageLoad::Ok(page)
    }
}

fn load_entity(
    src: &Source,
    e: front_matter::RawEntity,
    table: &str,
    diags: &mut Vec<Diagnostic>,
) -> Entity {
    Entity {
        kind_span: Span(e.kind.span()),
        key_span: Span(e.key.span()),
        kind: e.kind.into_inner(),
        key: e.key.into_inner(),
        name: bi(src, e.name, &format!("{table}.name"), diags).unwrap_or_else(empty_bi),
        role: e
            .role
            .and_then(|r| bi(src, r, &format!("{table}.role"), diags)),
        status: e.status.map(spanned),
        depends_on: e.depends_on.into_iter().map(spanned).collect(),
    }
}

fn columns(
    src: &Source,
    raw: Vec<front_matter::RawColumn>,
    key: &str,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Column> {
    raw.into_iter()
        .map(|c| Column {
            label: bi(src, c.label, key, diags).unwrap_or_else(empty_bi),
            aspect_span: Span(c.aspect.span()),
            aspect: c.aspect.into_inner(),
        })
        .collect()
}

fn empty_bi() -> Bi<String> {
    Bi {
        ja: String::new(),
        en: String::new(),
    }
}

/// A spanned string as a value and its span.
fn spanned(s: Spanned<String>) -> (String, Span) {
    let span = Span(s.span());
    (s.into_inner(), span)
}

fn bi(
    src: &Source,
    v: Spanned<RawBi>,
    key: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<Bi<String>> {
    let span = v.span();
    let raw = v.into_inner();
    let missing = raw.missing();
    match (raw.ja, raw.en) {
        (Some(ja), Some(en)) if missing.is_empty() => {
            let mut text = |lang: &str, t: String| {
                let what = || format!("the `{lang}` text of `{key}`");
                crate::bidi::checked(src, span.clone(), what, t, diags)
            };
            Some(Bi {
                ja: text("ja", ja),
                en: text("en", en),
            })
        }
        _ => {
            let langs: Vec<&str> = missing.iter().map(|l| l.code()).collect();
            diags.push(
                src.error(
                    "E031",
                    span,
                    format!("`{key}` lacks {}", langs.join(" and ")),
                )
                .with_hint(format!("write `{key} = {{ ja = \"…\", en = \"…\" }}`")),
            );
            None
        }
    }
}
