//! Site-wide outputs: evidence pages and index, raw evidence, the language
//! chooser, `404.html`, `claims.json` and `sitemap.xml`.
//!
//! Raw evidence bytes are the only thing read from disk here, and they were
//! already validated; everything else comes from the site in memory.

use super::context::{Ctx, NavTree, Whole, LANGS, TREES};
use super::highlight::escape;
use super::paths::{self, raw_evidence_path};
use super::views::*;
use super::OutputFile;
use super::SitePart;
use crate::error::Diagnostic;
use crate::lang::{Bi, Lang};
use crate::record::{ClaimRecord, ClaimsFile, LinkRecord, CLAIMS_VERSION};
use std::borrow::Cow;
use std::collections::BTreeSet;

/// One of the outputs that list or summarise the whole site.
pub(super) fn site_part(
    cx: &Ctx<'_>,
    whole: Whole<'_>,
    part: SitePart,
) -> Result<Vec<OutputFile>, Diagnostic> {
    let mut out = Vec::new();
    match part {
        SitePart::EvidenceIndex => evidence_index(cx, whole, &mut out)?,
        SitePart::Chooser => chooser_and_404(cx, &mut out)?,
        SitePart::Claims => out.extend(claims_files(all_claim_records(cx, whole))),
        // Relative addresses make an invalid sitemap: without an absolute
        // `site-url` there is none (the build warns, W041).
        SitePart::Sitemap if cx.config().origin.is_none() => {}
        SitePart::Sitemap => out.push(OutputFile {
            path: "sitemap.xml".to_owned(),
            bytes: sitemap(cx).into_bytes(),
        }),
        SitePart::Crate if !cx.config().outputs.ro_crate => {}
        // The crate states the claims files' sizes and hashes: made here
        // again from the same records, not read from the other unit, so
        // each unit stays a function of the site alone.
        SitePart::Crate => {
            let claims = claims_files(all_claim_records(cx, whole));
            out.extend(super::rocrate::files(cx, whole, &claims)?);
        }
        // Rendered by the caller: the theme's static files, which it owns,
        // and the llms files (`super::llms`).
        SitePart::Static | SitePart::Llms => {}
    }
    Ok(out)
}

/// Where each [`SitePart`] writes.
pub(super) fn site_paths(part: SitePart) -> &'static [&'static str] {
    match part {
        SitePart::EvidenceIndex => &["ja/evidence/index.html", "en/evidence/index.html"],
        SitePart::Chooser => &["index.html", "404.html"],
        SitePart::Claims => &["claims.json", "claims.jsonld"],
        SitePart::Sitemap => &["sitemap.xml"],
        SitePart::Crate => &["ro-crate-metadata.json", "claims.schema.json"],
        SitePart::Static | SitePart::Llms => &[],
    }
}

/// One evidence file: its raw copy and its page in each language.
pub(super) fn evidence_page(
    cx: &Ctx<'_>,
    file: &crate::evidence::EvidenceFile,
) -> Result<Vec<OutputFile>, Diagnostic> {
    let mut out = Vec::with_capacity(3);
    {
        let unreadable = |e: std::io::Error| {
            Diagnostic::error(
                "E043",
                crate::error::Location::file(format!("{}/{}", cx.evidence_dir(), file.path)),
                format!("cannot read evidence file: {e}"),
            )
        };
        // A large log is copied by the build as it writes (never read
        // whole here): `site::memo`.
        if !file.is_streamed() {
            out.push(OutputFile {
                path: raw_evidence_path(&file.path),
                bytes: std::fs::read(&file.disk_path).map_err(unreadable)?,
            });
        }
        let citing: Vec<_> = cx.citing(&file.path).collect();
        let mut ranges = BTreeSet::new();
        // Every cited line or range, with the claim citing it.
        let mut cited: Vec<(usize, usize, &str)> = Vec::new();
        for &(_, claim) in &citing {
            for l in claim.evidence.iter().filter(|l| l.path == file.path) {
                if let Some((a, b)) = l.lines {
                    if b <= file.line_count() {
                        cited.push((a, b, claim.id.as_str()));
                        if a != b {
                            ranges.insert((a, b));
                        }
                    }
                }
            }
        }
        let shown_path = format!("{}/{}", cx.evidence_dir(), file.path);
        let accepted: Vec<&crate::config::Acceptance> = cx
            .config()
            .accept
            .iter()
            .filter(|a| {
                a.reaches(
                    &shown_path,
                    citing
                        .iter()
                        .map(|&(at, claim)| (cx.source_path(at.page), claim.id.as_str())),
                )
            })
            .collect();
        let long = file.is_streamed() || file.line_count() > LONG_LOG;
        let runs = if long {
            runs(file.line_count(), &cited)
        } else {
            vec![(1, file.line_count(), Vec::new())]
        };
        let mut lines: Vec<LineView> = Vec::new();
        // Each line's place among the list's children (a left-out run is
        // one child too): what the range highlighting counts.
        let mut place = std::collections::HashMap::new();
        let mut shown_to = 0;
        for (first, last, _) in &runs {
            let gap_before = (*first > shown_to + 1).then_some((shown_to + 1, *first - 1));
            let mut gap = gap_before;
            file.for_each_line(*first, *last, |n, text| {
                place.insert(n, lines.len() + 1 + usize::from(gap_before.is_some()));
                let html = if long && text.len() > SHOW_CAP {
                    let mut cut = SHOW_CAP;
                    while !text.is_char_boundary(cut) {
                        cut -= 1;
                    }
                    format!("{}…", shown(&text[..cut]))
                } else {
                    shown(text)
                };
                lines.push(LineView {
                    n,
                    lang: written_in(std::iter::once(html.as_str())),
                    html,
                    ranges: ranges
                        .range((n, 0)..(n + 1, 0))
                        .map(|(a, b)| format!("L{a}-L{b}"))
                        .collect(),
                    gap_before: gap.take(),
                });
            })
            .map_err(unreadable)?;
            shown_to = *last;
        }
        let window = long.then(|| WindowView {
            lines: file.line_count(),
            size: human_size(std::fs::metadata(&file.disk_path).map_or(0, |m| m.len())),
            context: CONTEXT,
            runs: runs
                .iter()
                .map(|(first, last, claims)| RunView {
                    first: *first,
                    last: *last,
                    claims: claims.clone(),
                })
                .collect(),
            gap_after: (shown_to < file.line_count()).then_some((shown_to + 1, file.line_count())),
        });
        let at = |n: usize| {
            if long {
                place.get(&n).copied().unwrap_or(n)
            } else {
                n
            }
        };
        // What the record's words are in: kept as they are, never
        // translated, and marked so (issue 40, trial L11).
        let text_lang = written_in(lines.iter().map(|l| l.html.as_str()));
        let source_lang = file
            .header
            .as_ref()
            .and_then(|h| h.source.as_deref())
            .and_then(|s| written_in(std::iter::once(s)));
        for lang in Lang::ALL {
            let mut seen = BTreeSet::new();
            let cited_by = citing
                .iter()
                .filter(|&&(at, _)| seen.insert(at))
                // A view that failed to render fails the render (see
                // `RenderState::deferred_error`).
                .filter_map(|&(at, claim)| Some((at, claim, cx.claim(lang, &claim.id)?)))
                .map(|(at, claim, view)| CitedBy {
                    id: claim.id.clone(),
                    class: claim.class.name(),
                    text: claim.text.get(lang).clone(),
                    href: view.href.clone(),
                    page_title: cx.outline(at.page).title.get(lang).clone(),
                    inline: view.inline.clone(),
                    suspect: view.suspect_because_of(&file.path),
                })
                .collect();
            let view = EvidenceView {
                path: &file.path,
                raw_href: format!("{}{}", cx.base, raw_evidence_path(&file.path)),
                header: file.header.as_ref(),
                lines: lines.clone(),
                ranges: ranges
                    .iter()
                    .map(|&(a, b)| RangeView {
                        id: format!("L{a}-L{b}"),
                        start: at(a),
                        end: at(b),
                    })
                    .collect(),
                window: window.clone(),
                cited_by,
                accepted: accepted
                    .iter()
                    .map(|a| AcceptedView {
                        code: &a.code,
                        reason: a.reason.get(lang),
                    })
                    .collect(),
                text_lang,
                source_lang,
            };
            let href = paths::evidence_href(cx.base, lang, &file.path);
            let mut t = cx.common(lang, "evidence", &href, NavTree::Lang(lang), None);
            let (sw, alt) = cx.switcher(
                &LANGS,
                Some(lang.code()),
                |c| paths::evidence_href(cx.base, c, &file.path),
                true,
            );
            t.insert("switcher", &sw);
            t.insert("alternates", &alt);
            t.insert("evidence", &view);
            out.push(OutputFile {
                path: paths::evidence_path(lang, &file.path),
                bytes: cx.render("evidence.html", &t)?.into_bytes(),
            });
        }
    }
    Ok(out)
}

/// Logs longer than this many lines show their cited lines with context,
/// not every line: a page of a million lines helps no reader and costs
/// every build.
const LONG_LOG: usize = 1_000;
/// Lines shown before and after each cited line of a long log.
const CONTEXT: usize = 3;
/// Lines shown at each end of a long cited range of a long log.
const RANGE_ENDS: usize = 100;
/// Lines shown from the start of a long log, for what kind of log it is.
const OPENING: usize = 10;
/// Bytes of one line shown on a long log's page; the raw file has it whole.
const SHOW_CAP: usize = 4_096;

/// The runs of lines a long log's page shows (first, last, claims citing
/// lines in it): its opening lines and each cited line or range with
/// [`CONTEXT`], a long range by its two ends; overlapping or touching runs
/// merged.
fn runs(count: usize, cited: &[(usize, usize, &str)]) -> Vec<(usize, usize, Vec<String>)> {
    if count == 0 {
        return Vec::new();
    }
    let around = |a: usize, b: usize| (a.saturating_sub(CONTEXT).max(1), (b + CONTEXT).min(count));
    let mut spans = vec![(1, OPENING.min(count))];
    for &(a, b, _) in cited {
        if b + 1 - a > 2 * RANGE_ENDS {
            spans.push(around(a, a + RANGE_ENDS - 1));
            spans.push(around(b + 1 - RANGE_ENDS, b));
        } else {
            spans.push(around(a, b));
        }
    }
    spans.sort_unstable();
    super::lines::merged(spans.into_iter().map(|(a, b)| (a, b, ())))
        .into_iter()
        .map(|(first, last, _)| {
            let mut claims: Vec<String> = cited
                .iter()
                .filter(|&&(a, b, _)| a <= last && b >= first)
                .map(|&(_, _, id)| id.to_owned())
                .collect();
            claims.sort_unstable();
            claims.dedup();
            (first, last, claims)
        })
        .collect()
}

/// A log line as HTML: escaped, with control characters (a NUL, an
/// escape sequence's ESC) shown as their Unicode pictures (␀, ␛), which
/// HTML can carry and a reader can see.
fn shown(text: &str) -> String {
    let html = escape(text);
    if !html.bytes().any(|b| (b < 0x20 && b != b'\t') || b == 0x7f) {
        return html;
    }
    html.chars()
        .map(|c| match c {
            '\t' => c,
            c if (c as u32) < 0x20 => char::from_u32(0x2400 + c as u32).unwrap_or(c),
            '\u{7f}' => '\u{2421}',
            c => c,
        })
        .collect()
}

/// A file size as a reader reads it.
/// The language `texts` plainly read in: `en` when they hold Latin
/// letters and hardly any Japanese script (a quoted status word such as
/// 未検出 among English lines), `ja` when Japanese script is a third or
/// more of their letters, `None` otherwise (numbers and symbols, or an
/// even mix).
fn written_in<'s>(texts: impl Iterator<Item = &'s str>) -> Option<&'static str> {
    let (mut latin, mut japanese) = (0usize, 0usize);
    for c in texts.flat_map(str::chars) {
        match c as u32 {
            0x3040..=0x30ff | 0x3400..=0x4dbf | 0x4e00..=0x9fff => japanese += 1,
            _ if c.is_ascii_alphabetic() => latin += 1,
            _ => {}
        }
    }
    if latin > 0 && latin >= 20 * japanese {
        Some("en")
    } else if japanese > 0 && japanese * 2 >= latin {
        Some("ja")
    } else {
        None
    }
}

fn human_size(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if bytes < 1024 {
        return format!("{bytes} B");
    }
    let mut value = bytes as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit < UNITS.len() - 1 {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.1} {}", UNITS[unit])
}

/// The list of evidence files, in each language.
fn evidence_index(
    cx: &Ctx<'_>,
    whole: Whole<'_>,
    out: &mut Vec<OutputFile>,
) -> Result<(), Diagnostic> {
    for lang in Lang::ALL {
        let files: Vec<EvidenceEntry<'_>> = whole
            .evidence_files()
            .map(|f| EvidenceEntry {
                path: &f.path,
                href: paths::evidence_href(cx.base, lang, &f.path),
                kind: f.kind().map(|k| k.name()),
                cited: whole.cited(&f.path),
            })
            .collect();
        let href = paths::evidence_index_href(cx.base, lang);
        let mut t = cx.common(lang, "evidence-index", &href, NavTree::Lang(lang), None);
        let (sw, alt) = cx.switcher(
            &LANGS,
            Some(lang.code()),
            |c| paths::evidence_index_href(cx.base, c),
            true,
        );
        t.insert("switcher", &sw);
        t.insert("alternates", &alt);
        t.insert("files", &files);
        out.push(OutputFile {
            path: paths::evidence_index_path(lang),
            bytes: cx.render("evidence_index.html", &t)?.into_bytes(),
        });
    }
    Ok(())
}

fn chooser_and_404(cx: &Ctx<'_>, out: &mut Vec<OutputFile>) -> Result<(), Diagnostic> {
    let d = cx.config().default_lang();
    // Nothing is current: the reader has not chosen yet.
    let (sw, alt) = cx.switcher(&TREES, None, |c| format!("{}{c}/", cx.base), true);
    let mut t = cx.common(d, "chooser", cx.base, NavTree::Lang(d), None);
    t.insert("switcher", &sw);
    t.insert("alternates", &alt);
    cx.insert_langs(&mut t);
    out.push(OutputFile {
        path: "index.html".to_owned(),
        bytes: cx.render("chooser.html", &t)?.into_bytes(),
    });
    let mut t = cx.common(
        d,
        "not-found",
        &format!("{}404.html", cx.base),
        NavTree::Lang(d),
        None,
    );
    t.insert("switcher", &sw);
    t.insert("alternates", &Vec::<Alternate>::new());
    cx.insert_langs(&mut t);
    out.push(OutputFile {
        path: "404.html".to_owned(),
        bytes: cx.render("404.html", &t)?.into_bytes(),
    });
    Ok(())
}

/// Page `i`'s claims as `claims.json` holds them, borrowing the site's
/// strings.
fn claim_records<'a>(cx: &Ctx<'a>, whole: Whole<'a>, i: usize) -> Vec<ClaimRecord<'a>> {
    let bi = |f: &dyn Fn(Lang) -> String| Bi {
        ja: f(Lang::Ja),
        en: f(Lang::En),
    };
    let page = cx.outline(i);
    whole
        .claims_of(i)
        .iter()
        .map(|c| ClaimRecord {
            id: Cow::Borrowed(&c.id),
            class: Cow::Borrowed(c.class.name()),
            page: Cow::Borrowed(cx.source_path(i)),
            url: bi(&|l| format!("{}#claim-{}", cx.page_href(l.code(), page), c.id)),
            text: Cow::Borrowed(&c.text),
            evidence: c
                .evidence
                .iter()
                .map(|l| {
                    // A capture's or an import's provenance travels with
                    // every link to it; a transcript's header says no more
                    // than its evidence page does.
                    let captured = whole
                        .evidence_file(&l.path)
                        .and_then(|f| f.header.as_ref())
                        .filter(|h| {
                            matches!(
                                h.kind,
                                Some(
                                    crate::evidence::EvidenceKind::Capture
                                        | crate::evidence::EvidenceKind::Import
                                )
                            )
                        });
                    LinkRecord {
                        path: Cow::Borrowed(&l.path),
                        lines: l.lines.map(|(a, b)| [a, b]),
                        quote: l.quote.as_deref().map(Cow::Borrowed),
                        url: bi(&|lang| {
                            format!("{}{}", cx.evidence_href(lang, &l.path), l.fragment())
                        }),
                        kind: captured
                            .and_then(|h| h.kind)
                            .map(|k| Cow::Borrowed(k.name())),
                        provenance: captured.map(|h| Cow::Owned(h.provenance.clone())),
                    }
                })
                .collect(),
            from: c
                .from
                .iter()
                .map(|(f, _)| Cow::Borrowed(f.as_str()))
                .collect(),
            about: c.about.as_deref().map(Cow::Borrowed),
            aspect: c.aspect.as_deref().map(Cow::Borrowed),
            answer: c.answer.as_ref().and_then(|(key, _)| {
                let a = cx.config().aspect(c.aspect.as_deref()?)?.answer(key)?;
                Some(crate::record::AnswerRecord {
                    key: Cow::Owned(a.key.clone()),
                    kind: a.kind.map(|k| Cow::Borrowed(k.name())),
                    label: Cow::Owned(a.label.clone()),
                })
            }),
            settle: c.settle.as_ref().map(|(s, _)| Cow::Borrowed(s)),
            tags: Cow::Borrowed(&c.tags),
            state: Cow::Borrowed(c.life.state.name()),
            reason: c.life.reason.as_ref().map(Cow::Borrowed),
            superseded_by: c
                .life
                .superseded_by
                .as_ref()
                .map(|(id, _)| Cow::Borrowed(id.as_str())),
            translated_by: c
                .life
                .machine_translated
                .then_some(Cow::Borrowed("machine")),
        })
        .collect()
}

/// Every claim of the site, page by page.
fn all_claim_records<'a>(cx: &Ctx<'a>, whole: Whole<'a>) -> Vec<ClaimRecord<'a>> {
    (0..cx.page_count())
        .flat_map(|i| claim_records(cx, whole, i))
        .collect()
}

/// `claims.json` (`serde_json`'s pretty printing of the [`ClaimsFile`],
/// ending in a newline), then `claims.jsonld`, made from the same records
/// (see `super::jsonld`).
fn claims_files(claims: Vec<ClaimRecord<'_>>) -> [OutputFile; 2] {
    let file = ClaimsFile {
        version: CLAIMS_VERSION,
        claims,
    };
    let mut bytes =
        serde_json::to_vec_pretty(&file).expect("claims serialise: strings and numbers only");
    bytes.push(b'\n');
    let jsonld = super::jsonld::document(&file, bytes.len());
    [
        OutputFile {
            path: "claims.json".to_owned(),
            bytes,
        },
        OutputFile {
            path: "claims.jsonld".to_owned(),
            bytes: jsonld,
        },
    ]
}

fn sitemap(cx: &Ctx<'_>) -> String {
    let mut s = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n");
    for page in cx.outlines() {
        for lang in Lang::ALL {
            s.push_str(&format!(
                "  <url>\n    <loc>{}</loc>\n",
                escape(&cx.absolute(&cx.page_href(lang.code(), page)))
            ));
            if let Some(u) = &page.updated {
                s.push_str(&format!("    <lastmod>{}</lastmod>\n", escape(u)));
            }
            for alt in Lang::ALL {
                s.push_str(&format!(
                    "    <xhtml:link rel=\"alternate\" hreflang=\"{alt}\" href=\"{}\"/>\n",
                    escape(&cx.absolute(&cx.page_href(alt.code(), page)))
                ));
            }
            s.push_str("  </url>\n");
        }
    }
    s.push_str("</urlset>\n");
    s
}
