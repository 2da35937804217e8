//! The links and references in a page's body: claim references, named
//! views, diagrams, raw HTML and URLs, links to pages and their anchors.

use super::{Checker, Mode};
use crate::config::RawHtmlPolicy;
use crate::content::body::{heading_ids, IdSet, Langs, Reference};
use crate::content::claims::nearest;
use crate::content::Segment;
use crate::error::Diagnostic;
use crate::lang::Lang;
use std::ops::Range;

impl Checker<'_> {
    fn heading_ids(&self, pi: usize, lang: Lang) -> &IdSet {
        let slot = match lang {
            Lang::Ja => 0,
            Lang::En => 1,
        };
        self.anchors[pi][slot].get_or_init(|| {
            let page = &self.content.pages[pi];
            let langs = page
                .segments
                .iter()
                .flat_map(Segment::chunks)
                .map(|(_, l)| l);
            let reserved = crate::content::body::reserved_ids(
                self.theme,
                page.claims.iter().map(|c| c.id.as_str()),
            );
            heading_ids(self.scans(pi).iter().zip(langs), lang, &reserved)
        })
    }

    pub(super) fn body(&self, pi: usize, diags: &mut Vec<Diagnostic>) {
        let page = &self.content.pages[pi];
        let src = &page.src;
        let mut scans = self.scans(pi).iter();
        for seg in &page.segments {
            if let Segment::Untranslated { lang, opener, .. } = seg {
                let end = src.text[*opener..]
                    .find('\n')
                    .map_or(src.text.len(), |i| opener + i);
                let msg = format!(
                    "untranslated segment: this `::: {lang}` block has no `::: {}` partner",
                    lang.other()
                );
                let hint = format!("add a `::: {}` block right after this one", lang.other());
                diags.push(
                    match self.mode {
                        Mode::Check => src.error("E032", *opener..end, msg),
                        Mode::Build => src.warning("E032", *opener..end, msg),
                    }
                    .with_hint(hint),
                );
            }
            for ((_, langs), scan) in seg.chunks().zip(scans.by_ref()) {
                for (r, span) in &scan.refs {
                    self.reference(pi, r, span, langs, diags);
                }
            }
        }
    }

    fn reference(
        &self,
        pi: usize,
        r: &Reference,
        span: &Range<usize>,
        langs: Langs,
        diags: &mut Vec<Diagnostic>,
    ) {
        let src = &self.content.pages[pi].src;
        match r {
            Reference::Claim(id) => {
                if !self.known(id) {
                    diags.extend(self.unknown(pi, "`[[claim:…]]`", id, span.clone()));
                }
            }
            Reference::View(name) => {
                let page = &self.content.pages[pi];
                if !page.views.iter().any(|v| v.name == *name) {
                    let hint = match nearest(name, page.views.iter().map(|v| v.name.as_str())) {
                        Some(n) => format!("did you mean `{n}`?"),
                        None => format!(
                            "declare it in the front matter: `[views.{name}]` with a `kind`"
                        ),
                    };
                    diags.push(
                        src.error("E091", span.clone(), format!("unknown view `{name}`"))
                            .with_hint(hint),
                    );
                }
            }
            Reference::BadDot(msg) => {
                let first = msg.lines().last().unwrap_or("").trim();
                diags.push(
                    src.error(
                        "E050",
                        span.clone(),
                        format!("`dot` diagram does not parse (the dot parser says: {first})"),
                    )
                    .with_hint(
                        "check the brackets and edges; a minimal graph is `digraph { a -> b }`",
                    ),
                );
            }
            Reference::RawHtml => match self.config.raw_html {
                RawHtmlPolicy::Allow => {}
                RawHtmlPolicy::Warn => diags.push(
                    src.warning("W061", span.clone(), "raw HTML in the body is passed through as written")
                        .with_hint("write it in Markdown, or set `[markdown] raw-html = \"allow\"` in book.toml to accept raw HTML silently"),
                ),
                RawHtmlPolicy::Deny => diags.push(
                    src.error("E061", span.clone(), "raw HTML in the body is not allowed (`[markdown] raw-html = \"deny\"`)")
                        .with_hint("write it in Markdown, or set `[markdown] raw-html = \"allow\"` in book.toml"),
                ),
            },
            Reference::ActiveUrl(url) => diags.push(
                src.error(
                    "E062",
                    span.clone(),
                    format!("URL `{}` would run a script or open an HTML document in the reader's browser", short(url)),
                )
                .with_hint("link to a page, a file or an `https:` URL; `javascript:`, `vbscript:` and `data:` documents are refused"),
            ),
            Reference::Page(path, anchor) => {
                let Some(&target) = self.lookups.pages.get(path.as_ref()) else {
                    if self.content.failed.iter().any(|f| f.rel == *path) {
                        return;
                    }
                    // Suggested as a link from this page, as links are
                    // resolved: a content-root path written in a page of
                    // a section would miss again.
                    let from = self.content.pages[pi].rel.as_str();
                    let draft = self.content.drafts.iter().any(|d| d.rel == *path);
                    let hint = match nearest(path, self.lookups.pages.keys().map(String::as_str)) {
                        _ if draft => "that page is a draft this build leaves out: publish it (remove `draft = true`), build with `--drafts`, or link to it once it is published".to_owned(),
                        Some(n) => format!("did you mean `{}`?", link_between(from, n)),
                        None => "link to a file under content/, e.g. `/notes/first.md`".to_owned(),
                    };
                    diags.push(
                        src.error(
                            "E030",
                            span.clone(),
                            format!("link to missing page `content/{path}`"),
                        )
                        .with_hint(hint),
                    );
                    return;
                };
                let Some(anchor) = anchor.as_deref() else {
                    return;
                };
                let tp = &self.content.pages[target];
                let claim_anchor = anchor
                    .strip_prefix("claim-")
                    .is_some_and(|id| tp.claims.iter().any(|c| c.id == id));
                if claim_anchor {
                    return;
                }
                for lang in langs.iter() {
                    let ids = self.heading_ids(target, lang);
                    if !ids.contains(anchor) {
                        let mut known_ids: Vec<&String> = ids.iter().collect();
                        known_ids.sort();
                        let other = match lang {
                            Lang::Ja => Lang::En,
                            Lang::En => Lang::Ja,
                        };
                        let hint = match nearest(anchor, known_ids.iter().map(|s| s.as_str())) {
                            Some(n) => format!("did you mean `#{n}`?"),
                            None if self.heading_ids(target, other).contains(anchor) => format!(
                                "`#{anchor}` is a heading id of the {other} text; the {lang} text's ids are {}",
                                listed(&known_ids)
                            ),
                            None if known_ids.is_empty() => "that page has no heading ids in this language: give a heading one with `{#id}`".to_owned(),
                            None => format!(
                                "link to one of its heading ids: {}, or give the heading one with `{{#id}}`",
                                listed(&known_ids)
                            ),
                        };
                        diags.push(
                            src.error("E030", span.clone(), format!("anchor `#{anchor}` not found in the {lang} page of `content/{path}`"))
                                .with_hint(hint),
                        );
                        break;
                    }
                }
            }
        }
    }
}

/// Heading ids as a hint lists them: the first few, in order.
fn listed(ids: &[&String]) -> String {
    const MAX: usize = 8;
    let mut shown: Vec<String> = ids.iter().take(MAX).map(|i| format!("`#{i}`")).collect();
    if ids.len() > MAX {
        shown.push(format!("and {} more", ids.len() - MAX));
    }
    shown.join(", ")
}

/// The link from page `from` to page `to` (both relative to `content/`)
/// written relative to `from`'s directory, as a page link is resolved.
fn link_between(from: &str, to: &str) -> String {
    let from_dirs: Vec<&str> = from.split('/').collect();
    let from_dirs = &from_dirs[..from_dirs.len() - 1];
    let to_parts: Vec<&str> = to.split('/').collect();
    let common = from_dirs
        .iter()
        .zip(&to_parts)
        .take_while(|(a, b)| a == b)
        .count()
        .min(to_parts.len() - 1);
    let mut parts: Vec<&str> = vec![".."; from_dirs.len() - common];
    parts.extend(&to_parts[common..]);
    parts.join("/")
}

/// A URL cut to a readable length for a message.
fn short(url: &str) -> String {
    const MAX: usize = 60;
    if url.chars().count() <= MAX {
        url.to_owned()
    } else {
        format!("{}…", url.chars().take(MAX).collect::<String>())
    }
}

#[cfg(test)]
mod tests {
    use super::link_between;

    #[test]
    fn a_suggested_link_is_written_from_the_linking_page() {
        assert_eq!(
            link_between("gpus/gfx1201.md", "gpus/gfx1100.md"),
            "gfx1100.md"
        );
        assert_eq!(
            link_between("gpus/gfx1201.md", "components/hip.md"),
            "../components/hip.md"
        );
        assert_eq!(link_between("index.md", "gpus/a.md"), "gpus/a.md");
        assert_eq!(link_between("a/b/c.md", "a/d.md"), "../d.md");
        assert_eq!(link_between("a/b/c.md", "x.md"), "../../x.md");
    }
}
