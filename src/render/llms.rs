//! `llms.txt` and `llms-full.txt` (issue 28), after the llms.txt
//! convention (llmstxt.org): an H1 title, a blockquote summary, prose,
//! then H2 sections listing `- [name](url): description`.
//!
//! The site root's `llms.txt` is a chooser, as the root `index.html` is:
//! the record's title, both descriptions and a link to each language's
//! list. `ja/llms.txt` and `en/llms.txt` each list every page once, in
//! one language, grouped by top-level section, each linked to its
//! Markdown twin; `ja/llms-full.txt` and `en/llms-full.txt` hold the
//! twins' text itself, cut at [`FULL_LIMIT`] bytes (see [`full`]).
//!
//! Made from the site in memory, as every site-wide file is; the memo
//! keys this unit on the sources of the pages whose text it read as well
//! (`site::memo`): those in `llms-full.txt` up to its cut, and those
//! without a lead, whose first sentence describes them. An edit to
//! another page's prose leaves them alone, as it leaves every other page.

use super::context::{Bodies, Ctx, Whole};
use super::twin::{self, text, url, Md};
use super::OutputFile;
use crate::content::{Class, Segment};
use crate::error::Diagnostic;
use crate::lang::Lang;

/// Where the llms files are written.
pub(super) const PATHS: [&str; 5] = [
    "llms.txt",
    "ja/llms.txt",
    "en/llms.txt",
    "ja/llms-full.txt",
    "en/llms-full.txt",
];

/// The most bytes an `llms-full.txt` holds. Pages go in, in the order
/// `llms.txt` lists them, while the file stays within this with
/// [`NOTE_ROOM`] to spare; at the first page that does not fit, the file
/// ends with a note naming it and how many are left out (they are all in
/// `llms.txt`, linked). A million bytes is a quarter to a third of a
/// million tokens: whole for a record the size of ROCm-pages (about a
/// tenth of it), a sample for one of thousands of pages.
pub(crate) const FULL_LIMIT: usize = 1_000_000;

/// Room kept for the closing note, so that the file with it stays
/// within [`FULL_LIMIT`].
const NOTE_ROOM: usize = 4096;

/// Every llms file. The pages whose text they read are those `bodies`
/// handed out (`Bodies::read`): those `llms-full.txt` holds before its
/// cut in either language and the first past it, and those without a
/// lead, whose first sentence describes them in `llms.txt`. The memo keys
/// the next render on those pages' sources
/// (`render::input::SiteExtra::Read`).
pub(super) fn files(
    cx: &Ctx<'_>,
    whole: Whole<'_>,
    bodies: &Bodies<'_>,
) -> Result<Vec<OutputFile>, Diagnostic> {
    let mut out = vec![OutputFile {
        path: "llms.txt".to_owned(),
        bytes: root(cx).into_bytes(),
    }];
    let groups = groups(cx);
    for lang in Lang::ALL {
        let md = Md { cx, lang };
        out.push(OutputFile {
            path: format!("{lang}/llms.txt"),
            bytes: list(&md, whole, bodies, &groups).into_bytes(),
        });
        out.push(OutputFile {
            path: format!("{lang}/llms-full.txt"),
            bytes: full(&md, whole, bodies, &groups)?.into_bytes(),
        });
    }
    Ok(out)
}

/// The address of a file the build writes at `path` (from the build
/// directory), absolute where the site has an origin.
fn file_url(cx: &Ctx<'_>, path: &str) -> String {
    url(&cx.absolute(&format!("{}{path}", cx.base)))
}

/// The root `llms.txt`: the record in both languages, and where each
/// language's list is.
fn root(cx: &Ctx<'_>) -> String {
    let c = cx.config();
    let (ja, en) = (c.title.get(Lang::Ja), c.title.get(Lang::En));
    let title = if ja == en {
        text(ja)
    } else {
        format!("{} / {}", text(ja), text(en))
    };
    let mut out = format!("# {title}\n\n");
    let order = {
        let d = c.default_lang();
        [d, d.other()]
    };
    let descriptions: Vec<String> = order
        .iter()
        .map(|&l| c.description.get(l).trim().to_owned())
        .filter(|d| !d.is_empty())
        .map(|d| format!("> {}", text(&d)))
        .collect();
    if !descriptions.is_empty() {
        out.push_str(&descriptions.join("\n>\n"));
        out.push_str("\n\n");
    }
    for &l in &order {
        out.push_str(&format!("{}\n\n", Md { cx, lang: l }.w("llms-root")));
    }
    let languages: Vec<String> = order
        .iter()
        .map(|&l| {
            let md = Md { cx, lang: l };
            format!(
                "- [{}]({}): {}",
                md.w(&format!("lang-name-{l}")),
                file_url(cx, &format!("{l}/llms.txt")),
                md.w("llms-root-link")
            )
        })
        .collect();
    out.push_str(&format!("## Languages\n\n{}\n\n", languages.join("\n")));
    let optional: Vec<String> = order
        .iter()
        .map(|&l| {
            let md = Md { cx, lang: l };
            format!(
                "- [{l}/llms-full.txt]({}): {}",
                file_url(cx, &format!("{l}/llms-full.txt")),
                md.w("llms-full-link")
            )
        })
        .collect();
    out.push_str(&format!("## Optional\n\n{}\n", optional.join("\n")));
    out
}

/// The pages in `llms.txt`'s order: first the home page and the pages at
/// the top level that are not sections, then each top-level section with
/// every page under it, each in navigation order. A group is its section
/// page (`None`: the first group) and its pages' indices.
type Groups = Vec<(Option<usize>, Vec<usize>)>;

fn groups(cx: &Ctx<'_>) -> Groups {
    let mut groups: Groups = vec![(None, Vec::new())];
    for &i in &cx.order {
        let url = cx.outline(i).url_path.as_str();
        let top = url.split_once('/').map(|(t, _)| t);
        // The page of the top-level section holding this page, if any.
        let section = top.and_then(|t| cx.page_index(&format!("{t}/_index.md")));
        match section {
            Some(s) => match groups.iter_mut().find(|(g, _)| *g == Some(s)) {
                Some((_, members)) => members.push(i),
                None => groups.push((Some(s), vec![i])),
            },
            None => groups[0].1.push(i),
        }
    }
    groups.retain(|(_, m)| !m.is_empty());
    groups
}

/// The title, the site's description and how to read the record: the
/// head of a language's `llms.txt` and `llms-full.txt`.
fn head(md: &Md<'_, '_>) -> String {
    let c = md.cx.config();
    let mut out = format!("# {}\n\n", text(c.title.get(md.lang)));
    let description = c.description.get(md.lang).trim();
    if !description.is_empty() {
        out.push_str(&format!("> {}\n\n", text(description)));
    }
    out
}

/// A language's `llms.txt`: how to read the record, every page once
/// with a line saying what it is, the evidence logs, and the rest.
fn list(md: &Md<'_, '_>, whole: Whole<'_>, bodies: &Bodies<'_>, groups: &Groups) -> String {
    let (cx, lang) = (md.cx, md.lang);
    let mut out = head(md);
    out.push_str(&format!("{}\n\n", md.w("llms-summary")));
    for class in Class::BY_CERTAINTY {
        let name = class.name();
        out.push_str(&format!(
            "- **{}**: {}\n",
            md.w(&format!("class-{name}")),
            md.w(&format!("class-{name}-meaning"))
        ));
    }
    out.push_str(&format!("\n{}", md.w("llms-answers")));
    if cx.config().outputs.markdown {
        out.push_str(&format!(" {}", md.w("llms-twins")));
    }
    out.push_str(&format!(" {}\n\n", md.w("llms-lines")));
    for (section, members) in groups {
        let title = match section {
            Some(s) => text(cx.outline(*s).title.get(lang)),
            None => md.w("llms-pages").to_owned(),
        };
        out.push_str(&format!("## {title}\n\n"));
        for &i in members {
            out.push_str(&format!("- {}\n", entry(md, bodies, i)));
        }
        out.push('\n');
    }
    if cx.has_evidence() {
        out.push_str(&format!("## {}\n\n", md.w("llms-evidence")));
        for f in whole.evidence_files() {
            out.push_str(&format!("- {}\n", twin::evidence_entry(md, whole, f)));
        }
        out.push('\n');
    }
    out.push_str(&format!(
        "## Optional\n\n- [llms-full.txt]({}): {}\n- [{}]({}): {}\n- [claims.json]({}): {}\n",
        file_url(cx, &format!("{lang}/llms-full.txt")),
        md.w("llms-full-link"),
        md.w(&format!("lang-name-{}", lang.other())),
        file_url(cx, &format!("{}/llms.txt", lang.other())),
        md.w("llms-other-link"),
        file_url(cx, "claims.json"),
        md.w("llms-claims-link"),
    ));
    out
}

/// Page `i` as a list entry: its title linked, and what it is about.
fn entry(md: &Md<'_, '_>, bodies: &Bodies<'_>, i: usize) -> String {
    let page = md.cx.outline(i);
    let link = md.link(
        page.title.get(md.lang),
        &md.cx.page_href(md.lang.code(), page),
    );
    match description(bodies, i, page, md.lang) {
        Some(d) => format!("{link}: {}", text(&d)),
        None => link,
    }
}

/// What page `i` (whose outline is `page`) is about in one line: its
/// lead, or else the first sentence of its text in `lang`.
fn description(
    bodies: &Bodies<'_>,
    i: usize,
    page: &crate::content::Outline,
    lang: Lang,
) -> Option<String> {
    if let Some(lead) = &page.lead {
        return Some(lead.get(lang).trim().to_owned()).filter(|l| !l.is_empty());
    }
    bodies.page(i).segments.iter().find_map(|seg| {
        let chunk = match seg {
            Segment::Shared(c) => c,
            Segment::Pair { ja, en } => {
                if lang == Lang::Ja {
                    ja
                } else {
                    en
                }
            }
            Segment::Untranslated { chunk, .. } => chunk,
        };
        first_sentence(&chunk.text)
    })
}

/// The first sentence of the first paragraph of `markdown`, as plain
/// text, at most [`SENTENCE`] characters.
///
/// Blocks are told apart by their lines (blank lines and code fences) and
/// only a block that may hold the paragraph is parsed: a prose edit
/// renders `llms.txt` again, and parsing every page whole for one
/// sentence each was most of that at scale.
fn first_sentence(markdown: &str) -> Option<String> {
    let mut fence: Option<&str> = None;
    let mut block = String::new();
    for line in markdown.lines() {
        let t = line.trim_start();
        if let Some(f) = fence {
            if t.starts_with(f) {
                fence = None;
            }
            continue;
        }
        if t.starts_with("```") || t.starts_with("~~~") {
            fence = Some(&t[..3]);
        } else if !t.is_empty() {
            block.push_str(line);
            block.push('\n');
            continue;
        }
        if let Some(s) = paragraph_sentence(&block) {
            return Some(s);
        }
        block.clear();
    }
    paragraph_sentence(&block)
}

/// The first sentence of the first paragraph of one block of lines.
fn paragraph_sentence(block: &str) -> Option<String> {
    use pulldown_cmark::{Event, LinkType, Parser, Tag, TagEnd};
    if block.trim().is_empty() {
        return None;
    }
    let mut s = String::new();
    let mut in_paragraph = false;
    let mut wikilinks = 0usize;
    for ev in Parser::new_ext(block, crate::content::body::parser_options()) {
        match ev {
            Event::Start(Tag::Paragraph) => in_paragraph = true,
            Event::End(TagEnd::Paragraph) if !s.trim().is_empty() => break,
            Event::End(TagEnd::Paragraph) => in_paragraph = false,
            // A claim or a view stands for more than a sentence.
            Event::Start(Tag::Link {
                link_type: LinkType::WikiLink { .. },
                ..
            }) => wikilinks += 1,
            Event::End(TagEnd::Link) if wikilinks > 0 => wikilinks -= 1,
            Event::Text(t) | Event::Code(t) if in_paragraph && wikilinks == 0 => s.push_str(&t),
            Event::SoftBreak | Event::HardBreak if in_paragraph => s.push(' '),
            _ => {}
        }
    }
    let s = s.split_whitespace().collect::<Vec<_>>().join(" ");
    let end = s
        .char_indices()
        .find_map(|(i, c)| {
            let next = s[i + c.len_utf8()..].chars().next();
            match c {
                '。' | '！' | '？' => Some(i + c.len_utf8()),
                '.' | '!' | '?' if next.is_none_or(char::is_whitespace) => Some(i + 1),
                _ => None,
            }
        })
        .unwrap_or(s.len());
    let sentence = s[..end].trim();
    if sentence.is_empty() {
        return None;
    }
    Some(match sentence.char_indices().nth(SENTENCE) {
        Some((cut, _)) => format!("{}…", &sentence[..cut]),
        None => sentence.to_owned(),
    })
}

/// The most characters of a page's description in `llms.txt`.
const SENTENCE: usize = 200;

/// A language's `llms-full.txt`: every page's twin in `llms.txt`'s
/// order, then the evidence pages', while the file stays within
/// [`FULL_LIMIT`] (see there): it reads the text of the pages before the
/// cut, and of the first past it.
fn full(
    md: &Md<'_, '_>,
    whole: Whole<'_>,
    bodies: &Bodies<'_>,
    groups: &Groups,
) -> Result<String, Diagnostic> {
    let (cx, lang) = (md.cx, md.lang);
    let mut out = head(md);
    out.push_str(&format!("{}\n", md.w("llms-full-intro")));
    enum Item<'s> {
        Page(usize),
        Evidence(&'s crate::evidence::EvidenceFile),
    }
    let items: Vec<Item<'_>> = groups
        .iter()
        .flat_map(|(_, m)| m.iter().map(|&i| Item::Page(i)))
        .chain(whole.evidence_files().map(Item::Evidence))
        .collect();
    // The text of every item up to the first that does not fit is read:
    // that one's size decides the cut.
    for (n, item) in items.iter().enumerate() {
        let body = match item {
            Item::Page(i) => twin::page_text(md, bodies.page(*i), None)?,
            Item::Evidence(f) => twin::evidence_text(md, f),
        };
        if out.len() + body.len() + 6 > FULL_LIMIT - NOTE_ROOM {
            let (title, href) = match item {
                Item::Page(i) => {
                    let p = cx.outline(*i);
                    (p.title.get(lang).clone(), cx.page_href(lang.code(), p))
                }
                Item::Evidence(f) => (f.path.clone(), cx.evidence_href(lang, &f.path)),
            };
            let first: String = title.chars().take(SENTENCE).collect();
            let note = md.msg(
                "llms-full-cut",
                &[
                    ("limit", grouped(FULL_LIMIT).into()),
                    ("count", (items.len() - n).into()),
                    (
                        "list",
                        format!("[llms.txt]({})", file_url(cx, &format!("{lang}/llms.txt"))).into(),
                    ),
                    ("first", md.link(&first, &href).into()),
                ],
            )?;
            out.push_str(&format!("\n---\n\n{note}\n"));
            break;
        }
        out.push_str("\n---\n\n");
        out.push_str(&body);
    }
    Ok(out)
}

/// `n` with its thousands grouped by commas, as both languages write a
/// byte count.
fn grouped(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(d);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{first_sentence, grouped};

    #[test]
    fn a_byte_count_is_grouped_by_thousands() {
        assert_eq!(grouped(1_000_000), "1,000,000");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(4096), "4,096");
    }

    #[test]
    fn a_description_is_the_first_sentence_of_the_first_paragraph() {
        assert_eq!(
            first_sentence("## Head\n\n| a |\n|---|\n| b |\n\nOne `x` here. Two.\n"),
            Some("One x here.".to_owned())
        );
        assert_eq!(
            first_sentence("バンドルが先。次の文。\n"),
            Some("バンドルが先。".to_owned())
        );
        assert_eq!(
            first_sentence("Version 1.2 is out\nnow [[claim:x]] too.\n\nNext.\n"),
            Some("Version 1.2 is out now too.".to_owned())
        );
        assert_eq!(first_sentence("```sh\nls\n\nnot prose.\n```\n"), None);
        assert_eq!(
            first_sentence("~~~\nx\n~~~\n- a\n- b\n\n<div>\nhtml.\n</div>\n\nThe one. Not.\n"),
            Some("The one.".to_owned())
        );
        let long = "a ".repeat(300);
        assert!(first_sentence(&long).expect("text").ends_with('…'));
    }
}
