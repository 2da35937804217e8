//! Site-wide outputs: evidence pages and index, raw evidence, the language
//! chooser, `404.html`, `claims.json` and `sitemap.xml`.
//!
//! Raw evidence bytes are the only thing read from disk here, and they were
//! already validated; everything else comes from the site in memory.

use super::highlight::escape;
use super::pages::{li, Ctx, NavTree};
use super::views::*;
use super::OutputFile;
use crate::error::Diagnostic;
use crate::lang::Lang;
use serde::Serialize;
use std::collections::BTreeSet;

/// The outputs that list or summarise the whole site: the evidence index,
/// the chooser, `404.html`, `claims.json` and `sitemap.xml`.
pub(super) fn site_files(cx: &Ctx<'_>) -> Result<Vec<OutputFile>, Diagnostic> {
    let mut out = Vec::new();
    evidence_index(cx, &mut out)?;
    chooser_and_404(cx, &mut out)?;
    out.push(OutputFile {
        path: "claims.json".to_owned(),
        bytes: claims_json(cx),
    });
    out.push(OutputFile {
        path: "sitemap.xml".to_owned(),
        bytes: sitemap(cx).into_bytes(),
    });
    Ok(out)
}

/// Where [`site_files`] writes, in the same order.
pub(super) const SITE_FILES: [&str; 6] = [
    "ja/evidence/index.html",
    "en/evidence/index.html",
    "index.html",
    "404.html",
    "claims.json",
    "sitemap.xml",
];

fn lang_switch(cx: &Ctx<'_>, suffix: &str, current: Option<Lang>) -> (Vec<Switch>, Vec<Alternate>) {
    let sw = Lang::ALL
        .iter()
        .map(|&l| Switch {
            code: l.code(),
            href: format!("{}{l}/{suffix}", cx.base),
            current: Some(l) == current,
        })
        .collect();
    let mut alt: Vec<Alternate> = Lang::ALL
        .iter()
        .map(|&l| Alternate {
            hreflang: l.code(),
            href: cx.absolute(&format!("{}{l}/{suffix}", cx.base)),
        })
        .collect();
    let d = cx.site.config.default_lang();
    alt.push(Alternate {
        hreflang: "x-default",
        href: cx.absolute(&format!("{}{d}/{suffix}", cx.base)),
    });
    (sw, alt)
}

/// One evidence file: its raw copy and its page in each language.
pub(super) fn evidence_page(
    cx: &Ctx<'_>,
    file: &crate::evidence::EvidenceFile,
) -> Result<Vec<OutputFile>, Diagnostic> {
    let site = cx.site;
    let mut out = Vec::with_capacity(3);
    {
        let bytes = std::fs::read(&file.disk_path).map_err(|e| {
            Diagnostic::error(
                "E043",
                crate::error::Location::file(format!("{}/{}", site.evidence.dir_name, file.path)),
                format!("cannot read evidence file: {e}"),
            )
        })?;
        out.push(OutputFile {
            path: format!("evidence/{}", file.path),
            bytes,
        });
        let citing = site
            .index
            .cited_by
            .get(&file.path)
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        let mut ranges = BTreeSet::new();
        for &at in citing {
            for l in site
                .claim(at)
                .evidence
                .iter()
                .filter(|l| l.path == file.path)
            {
                if let Some((a, b)) = l.lines {
                    if a != b && b <= file.line_count() {
                        ranges.insert((a, b));
                    }
                }
            }
        }
        let lines: Vec<LineView> = (1..=file.line_count())
            .map(|n| LineView {
                n,
                html: escape(file.line(n)),
                ranges: ranges
                    .range((n, 0)..(n + 1, 0))
                    .map(|(a, b)| format!("L{a}-L{b}"))
                    .collect(),
            })
            .collect();
        for lang in Lang::ALL {
            let mut seen = BTreeSet::new();
            let cited_by = citing
                .iter()
                .filter(|&&at| seen.insert(at))
                .map(|&at| {
                    let claim = site.claim(at);
                    let view = &cx.claims[li(lang)][&claim.id];
                    CitedBy {
                        id: claim.id.clone(),
                        class: claim.class.name(),
                        text: claim.text.get(lang).clone(),
                        href: view.href.clone(),
                        page_title: site.content.pages[at.page].title.get(lang).clone(),
                        inline: view.inline.clone(),
                    }
                })
                .collect();
            let view = EvidenceView {
                path: &file.path,
                raw_href: format!("{}evidence/{}", cx.base, file.path),
                header: file.header.as_ref(),
                lines: lines.clone(),
                ranges: ranges
                    .iter()
                    .map(|&(a, b)| RangeView {
                        id: format!("L{a}-L{b}"),
                        start: a,
                        end: b,
                    })
                    .collect(),
                cited_by,
            };
            let suffix = format!("evidence/{}/", file.path);
            let href = format!("{}{lang}/{suffix}", cx.base);
            let mut t = cx.common(lang, "evidence", &href, NavTree::Lang(lang), None);
            let (sw, alt) = lang_switch(cx, &suffix, Some(lang));
            t.insert("switcher", &sw);
            t.insert("alternates", &alt);
            t.insert("evidence", &view);
            out.push(OutputFile {
                path: format!("{lang}/{suffix}index.html"),
                bytes: cx.render("evidence.html", &t)?.into_bytes(),
            });
        }
    }
    Ok(out)
}

/// The list of evidence files, in each language.
fn evidence_index(cx: &Ctx<'_>, out: &mut Vec<OutputFile>) -> Result<(), Diagnostic> {
    let site = cx.site;
    for lang in Lang::ALL {
        let files: Vec<EvidenceEntry<'_>> = site
            .evidence
            .files
            .values()
            .map(|f| EvidenceEntry {
                path: &f.path,
                href: format!("{}{lang}/evidence/{}/", cx.base, f.path),
                kind: f.kind().map(|k| k.name()),
                cited: site.index.cited_by.get(&f.path).map_or(0, Vec::len),
            })
            .collect();
        let href = format!("{}{lang}/evidence/", cx.base);
        let mut t = cx.common(lang, "evidence-index", &href, NavTree::Lang(lang), None);
        let (sw, alt) = lang_switch(cx, "evidence/", Some(lang));
        t.insert("switcher", &sw);
        t.insert("alternates", &alt);
        t.insert("files", &files);
        out.push(OutputFile {
            path: format!("{lang}/evidence/index.html"),
            bytes: cx.render("evidence_index.html", &t)?.into_bytes(),
        });
    }
    Ok(())
}

fn chooser_and_404(cx: &Ctx<'_>, out: &mut Vec<OutputFile>) -> Result<(), Diagnostic> {
    let d = cx.site.config.default_lang();
    let (mut sw, alt) = lang_switch(cx, "", None);
    sw.push(Switch {
        code: "ja-en",
        href: format!("{}ja-en/", cx.base),
        current: false,
    });
    let mut t = cx.common(d, "chooser", cx.base, NavTree::Lang(d), None);
    t.insert("switcher", &sw);
    t.insert("alternates", &alt);
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
    out.push(OutputFile {
        path: "404.html".to_owned(),
        bytes: cx.render("404.html", &t)?.into_bytes(),
    });
    Ok(())
}

#[derive(Serialize)]
struct JsonLink<'a> {
    path: &'a str,
    lines: Option<[usize; 2]>,
    quote: Option<&'a str>,
    url: crate::lang::Bi<String>,
}

#[derive(Serialize)]
struct JsonClaim<'a> {
    id: &'a str,
    class: &'static str,
    page: &'a str,
    url: crate::lang::Bi<String>,
    text: &'a crate::lang::Bi<String>,
    evidence: Vec<JsonLink<'a>>,
    from: Vec<&'a str>,
    about: Option<&'a str>,
    aspect: Option<&'a str>,
    tags: &'a [String],
}

fn claims_json(cx: &Ctx<'_>) -> Vec<u8> {
    let mut all = Vec::new();
    for page in &cx.site.content.pages {
        for c in &page.claims {
            let url = |l: Lang| format!("{}#claim-{}", cx.page_href(l.code(), page), c.id);
            all.push(JsonClaim {
                id: &c.id,
                class: c.class.name(),
                page: page.source_path(),
                url: crate::lang::Bi {
                    ja: url(Lang::Ja),
                    en: url(Lang::En),
                },
                text: &c.text,
                evidence: c
                    .evidence
                    .iter()
                    .map(|l| JsonLink {
                        path: &l.path,
                        lines: l.lines.map(|(a, b)| [a, b]),
                        quote: l.quote.as_deref(),
                        url: crate::lang::Bi {
                            ja: format!("{}{}", cx.evidence_href(Lang::Ja, &l.path), l.fragment()),
                            en: format!("{}{}", cx.evidence_href(Lang::En, &l.path), l.fragment()),
                        },
                    })
                    .collect(),
                from: c.from.iter().map(|(f, _)| f.as_str()).collect(),
                about: c.about.as_deref(),
                aspect: c.aspect.as_deref(),
                tags: &c.tags,
            });
        }
    }
    let mut bytes =
        serde_json::to_vec_pretty(&all).expect("claims serialise: strings and numbers only");
    bytes.push(b'\n');
    bytes
}

fn sitemap(cx: &Ctx<'_>) -> String {
    let mut s = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n");
    for page in &cx.site.content.pages {
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
