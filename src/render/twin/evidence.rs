//! The twins of the evidence pages and of the evidence index.
//!
//! An evidence page's twin holds what a reader of a claim needs from the
//! log: where it came from, the lines the claims cite (ranges that
//! overlap or touch quoted once, as one window of at most [`WINDOW`]
//! lines, so a twin stays small whatever the log's size), and the claims
//! citing it. The whole log is its raw copy, linked.

use super::{text, url, Md};
use crate::evidence::EvidenceFile;
use crate::lang::Lang;
use crate::render::context::{Ctx, Whole};
use crate::render::paths;
use crate::render::OutputFile;
use std::collections::BTreeSet;
use std::fmt::Write as _;

/// The most lines of one window of cited lines a twin quotes; the rest
/// are in the raw file, and the twin says how many.
const WINDOW: usize = 40;

/// The twin of `file`'s page in each language.
pub(in crate::render) fn pages(cx: &Ctx<'_>, file: &EvidenceFile) -> Vec<OutputFile> {
    let (citing, ranges) = cited(cx, file);
    Lang::ALL
        .into_iter()
        .map(|lang| OutputFile {
            path: paths::evidence_twin_path(lang, &file.path),
            bytes: page_text(&Md { cx, lang }, file, &citing, &ranges).into_bytes(),
        })
        .collect()
}

/// The Markdown of `file`'s page in the language of `md`.
pub(in crate::render) fn text_of(md: &Md<'_, '_>, file: &EvidenceFile) -> String {
    let (citing, ranges) = cited(md.cx, file);
    page_text(md, file, &citing, &ranges)
}

/// The claims citing `file`, each once, and the line ranges they cite.
fn cited<'a>(cx: &Ctx<'a>, file: &EvidenceFile) -> (Vec<Citing<'a>>, BTreeSet<(usize, usize)>) {
    let mut seen = BTreeSet::new();
    let citing: Vec<Citing<'a>> = cx
        .citing(&file.path)
        .filter(|(at, _)| seen.insert(*at))
        .collect();
    let mut ranges = BTreeSet::new();
    for &(_, claim) in &citing {
        for l in claim.evidence.iter().filter(|l| l.path == file.path) {
            if let Some((a, b)) = l.lines {
                if a >= 1 && a <= b && b <= file.line_count() {
                    ranges.insert((a, b));
                }
            }
        }
    }
    (citing, ranges)
}

/// A claim citing an evidence file, and where it is.
type Citing<'a> = (crate::validate::ClaimAt, &'a crate::content::Claim);

fn page_text(
    md: &Md<'_, '_>,
    file: &EvidenceFile,
    citing: &[Citing<'_>],
    ranges: &BTreeSet<(usize, usize)>,
) -> String {
    let (cx, lang) = (md.cx, md.lang);
    let href = cx.evidence_href(lang, &file.path);
    let mut out = format!(
        "# {}: `{}`\n\n",
        md.w("evidence-kicker"),
        file.path.replace('`', "'")
    );
    header(md, file, &mut out);
    let raw = format!("{}{}", cx.base, paths::raw_evidence_path(&file.path));
    out.push_str(&format!(
        "[{}]({})\n\n",
        md.w("raw-file"),
        url(&cx.absolute(&raw))
    ));
    if !ranges.is_empty() {
        out.push_str(&format!("## {}\n\n", md.w("md-cited-lines")));
        // Ranges that overlap or touch are quoted once, as one window,
        // headed by every range cited in it.
        let links = ranges.iter().map(|&(a, b)| {
            let id = if a == b {
                format!("L{a}")
            } else {
                format!("L{a}-L{b}")
            };
            let link = format!("[{id}]({})", url(&cx.absolute(&format!("{href}#{id}"))));
            (a, b, link)
        });
        for (a, b, ids) in crate::render::lines::merged(links) {
            out.push_str(&format!("### {}\n\n", ids.join(" · ")));
            window(md, file, a, b, &mut out);
        }
    }
    out.push_str(&format!("## {}\n\n", md.w("cited-by")));
    if citing.is_empty() {
        out.push_str(&format!("{}\n\n", md.w("cited-by-none")));
    }
    // Each claim by the lines it cites here, as the HTML's list says it:
    // its other evidence is on its own page. Written in place: an
    // evidence page lists dozens of claims.
    for &(at, claim) in citing {
        let Some(v) = cx.claim(lang, &claim.id) else {
            continue;
        };
        let _ = write!(out, "- `{}` · ", claim.id);
        md.push_inline(&mut out, v);
        out.push_str(" · ");
        for (k, l) in claim
            .evidence
            .iter()
            .filter(|l| l.path == file.path)
            .enumerate()
        {
            if k > 0 {
                out.push_str(", ");
            }
            let frag = l.fragment();
            let id = match frag.trim_start_matches('#') {
                "" => l.path.as_str(),
                id => id,
            };
            let _ = write!(
                out,
                "[{id}]({})",
                url(&cx.absolute(&format!("{href}{frag}")))
            );
        }
        let page = cx.outline(at.page);
        let _ = write!(out, " · {}", md.link(page.title.get(lang), &v.href));
        if v.suspect_because_of(&file.path) {
            let _ = write!(out, " · ⚠ {}", md.w("notice-suspect-evidence"));
        }
        out.push('\n');
    }
    out.push('\n');
    let other = cx.evidence_href(lang.other(), &file.path);
    md.footer(&mut out, &url(&cx.absolute(&href)), &other);
    out
}

/// The file's kind and provenance, as its header gives them.
fn header(md: &Md<'_, '_>, file: &EvidenceFile, out: &mut String) {
    let Some(h) = &file.header else {
        return;
    };
    let mut lines = Vec::new();
    if let Some(k) = h.kind {
        let k = k.name();
        lines.push(format!(
            "**{}**: {} ({})",
            md.w("evidence-kind"),
            md.w(&format!("evidence-kind-{k}")),
            text(md.w(&format!("evidence-kind-{k}-meaning")))
        ));
    }
    for (key, value) in [
        ("evidence-source", &h.source),
        ("evidence-captured", &h.captured),
        ("evidence-host", &h.host),
        ("evidence-phase", &h.phase),
    ] {
        if let Some(v) = value {
            lines.push(format!("**{}**: {}", md.w(key), text(v)));
        }
    }
    for l in &lines {
        out.push_str(&format!("- {l}\n"));
    }
    if !lines.is_empty() {
        out.push('\n');
    }
    // A capture's provenance, as its header holds it: the fields are the
    // header's own, so nothing is lost in a translation.
    if h.provenance != crate::evidence::Provenance::default() {
        if let Ok(toml) = toml::to_string(&h.provenance) {
            out.push_str(&format!("**{}**\n\n", md.w("evidence-header-title")));
            fenced(&toml, "toml", out);
        }
    }
}

/// Lines `a..=b` of `file`, numbered, at most [`WINDOW`] of them.
fn window(md: &Md<'_, '_>, file: &EvidenceFile, a: usize, b: usize, out: &mut String) {
    let last = b.min(a + WINDOW - 1);
    let width = last.to_string().len();
    // Read in pieces: the log may be too large to hold (a cut-short read
    // of a file changed during the build shows what was read).
    let mut lines = Vec::new();
    let _ = file.for_each_line(a, last, |n, line| lines.push((n, line.to_owned())));
    let fence = fence_for(
        &lines
            .iter()
            .map(|(_, l)| l.as_str())
            .collect::<Vec<_>>()
            .join("\n"),
    );
    let _ = writeln!(out, "{fence}text");
    for (n, line) in &lines {
        let _ = writeln!(out, "{n:>width$}  {line}");
    }
    let _ = writeln!(out, "{fence}\n");
    if last < b {
        if let Ok(more) = md.msg("md-lines-more", &[("count", (b - last).into())]) {
            out.push_str(&format!("{}\n\n", text(&more)));
        }
    }
}

/// A code fence no run of backticks in `body` closes.
fn fence_for(body: &str) -> String {
    let mut longest = 0;
    let mut run = 0;
    for b in body.bytes() {
        run = if b == b'`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    "`".repeat((longest + 1).max(3))
}

/// `body` as a fenced code block whose fence no run of backticks in it
/// closes.
fn fenced(body: &str, info: &str, out: &mut String) {
    let fence = fence_for(body);
    out.push_str(&format!("{fence}{info}\n{}", body));
    if !body.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(&format!("{fence}\n\n"));
}

/// The evidence index's twin in each language.
pub(in crate::render) fn index(cx: &Ctx<'_>, whole: Whole<'_>) -> Vec<OutputFile> {
    Lang::ALL
        .into_iter()
        .map(|lang| {
            let md = Md { cx, lang };
            let mut out = format!(
                "# {}\n\n{}\n\n",
                md.w("evidence-index-title"),
                text(md.w("evidence-index-intro"))
            );
            if !cx.has_evidence() {
                out.push_str(&format!("{}\n", md.w("evidence-index-empty")));
            }
            for f in whole.evidence_files() {
                out.push_str(&format!("- {}\n", entry(&md, whole, f)));
            }
            let href = paths::evidence_index_href(cx.base, lang);
            let other = paths::evidence_index_href(cx.base, lang.other());
            md.footer(&mut out, &url(&cx.absolute(&href)), &other);
            OutputFile {
                path: paths::evidence_index_twin_path(lang),
                bytes: out.into_bytes(),
            }
        })
        .collect()
}

/// An evidence file as a list entry: its page, its kind, how many
/// claims cite it.
pub(in crate::render) fn entry(md: &Md<'_, '_>, whole: Whole<'_>, f: &EvidenceFile) -> String {
    let cited = whole.cited(&f.path);
    let mut s = md.link(&f.path, &md.cx.evidence_href(md.lang, &f.path));
    s.push_str(": ");
    if let Some(k) = f.kind() {
        s.push_str(&format!(
            "{} · ",
            md.w(&format!("evidence-kind-{}", k.name()))
        ));
    }
    s.push_str(&format!("{}: {cited}", md.w("cited-by")));
    s
}
