//! Markdown twins: every page of the `ja/` and `en/` trees as Markdown,
//! an `index.md` beside its `index.html` (issue 28), for programs and for
//! people who read Markdown.
//!
//! A twin is made in the render unit that makes its HTML page, from the
//! values the HTML is made from: the page's own Markdown with kansoku's
//! markup resolved ([`body`]), the claim views every page shares, and the
//! rows of the generated views ([`views`]). So the memo, which keys a unit
//! on its source and the claims it looked up, keys the twin rightly, and a
//! twin costs no second parse of anything but the page's own chunks.
//! Nothing here reads a file or renders a template.
//!
//! Links: a link to a whole page goes to that page's twin, so a reader
//! who began in Markdown stays in it; a link to a place in a page (a
//! claim, a heading, cited lines) goes to the HTML page, where the anchor
//! is. Both are absolute when `site-url` is an absolute URL, and
//! root-relative (as in the HTML) when it is a path.

mod body;
mod evidence;
mod views;

pub(in crate::render) use evidence::{
    entry as evidence_entry, index as evidence_index, pages as evidence_pages,
    text_of as evidence_text,
};

use super::pages::Ctx;
use super::views::ClaimView;
use super::OutputFile;
use crate::content::{Page, Segment};
use crate::error::Diagnostic;
use crate::lang::Lang;
use std::collections::HashMap;

/// UI strings by key, formatted once per language.
pub(in crate::render) type Words = HashMap<&'static str, String>;

/// The plain UI strings twins and `llms.txt` use (see [`words`]).
const WORDS: &[&str] = &[
    "class-confirmed",
    "class-inferred",
    "class-unresolved",
    "class-limited",
    "class-confirmed-meaning",
    "class-inferred-meaning",
    "class-unresolved-meaning",
    "class-limited-meaning",
    "basis-transcript",
    "basis-note",
    "framing-label",
    "lead-label",
    "updated",
    "entity-label",
    "entity-role",
    "draft-notice",
    "claims-title",
    "claims-evidence",
    "claims-rests-on",
    "scope-title",
    "scope-can",
    "scope-cannot",
    "notice-retracted",
    "notice-superseded",
    "notice-superseded-by",
    "notice-suspect-evidence",
    "notice-suspect-premise",
    "notice-machine",
    "listing-prev",
    "listing-next",
    "view-not-observed",
    "view-hub-component",
    "view-hub-role",
    "view-hub-status",
    "view-matrix-generation",
    "view-observer-target",
    "view-observer-attempt",
    "view-observer-result",
    "view-observer-tells",
    "view-observer-next",
    "view-status-chain",
    "view-home-generation",
    "view-home-world",
    "view-home-status",
    "view-open-questions-empty",
    "sof-title",
    "sof-question",
    "sof-answer",
    "sof-certainty",
    "sof-for",
    "sof-scope",
    "sof-scope-each",
    "sof-in-words",
    "sof-note",
    "scope-label",
    "scope-on",
    "scope-not-on",
    "observed-here",
    "observed-elsewhere",
    "evidence-kicker",
    "evidence-index-title",
    "evidence-index-intro",
    "evidence-index-empty",
    "evidence-kind",
    "evidence-source",
    "evidence-captured",
    "evidence-host",
    "evidence-phase",
    "evidence-header-title",
    "evidence-kind-raw",
    "evidence-kind-transcript",
    "evidence-kind-note",
    "evidence-kind-capture",
    "evidence-kind-import",
    "evidence-kind-raw-meaning",
    "evidence-kind-transcript-meaning",
    "evidence-kind-note-meaning",
    "evidence-kind-capture-meaning",
    "evidence-kind-import-meaning",
    "raw-file",
    "cited-by",
    "cited-by-none",
    "md-html",
    "md-aspect",
    "md-claim",
    "md-depends-on",
    "md-cited-lines",
    "llms-summary",
    "llms-answers",
    "llms-twins",
    "llms-lines",
    "llms-pages",
    "llms-evidence",
    "llms-full-link",
    "llms-other-link",
    "llms-claims-link",
    "llms-root",
    "llms-root-link",
    "llms-full-intro",
    "lang-name-ja",
    "lang-name-en",
];

/// [`WORDS`] in each language, and `md-other-language` for the other one.
pub(in crate::render) fn words(i18n: &super::i18n::I18n) -> Result<[Words; 2], Diagnostic> {
    let fail =
        |m: String| Diagnostic::error("E040", crate::error::Location::file("templates/i18n"), m);
    let mut out: [Words; 2] = Default::default();
    for (i, lang) in Lang::ALL.into_iter().enumerate() {
        for &key in WORDS {
            out[i].insert(key, i18n.message(lang, key, None).map_err(fail)?);
        }
        let mut args = fluent_bundle::FluentArgs::new();
        args.set("lang", lang.other().code());
        out[i].insert(
            "md-other-language",
            i18n.message(lang, "md-other-language", Some(&args))
                .map_err(fail)?,
        );
    }
    Ok(out)
}

/// The `<link rel="alternate" type="text/markdown">` entries of an HTML
/// page whose view is `view` and address `canonical`: its own twin, both
/// languages' on the parallel view, none on pages without one (the
/// chooser, `404.html`) or when the site writes no twins.
pub(in crate::render) fn links(cx: &Ctx<'_>, view: &str, canonical: &str) -> Vec<TwinLink> {
    if !cx.site.config.outputs.markdown {
        return Vec::new();
    }
    match view {
        "page" | "listing" | "evidence" | "evidence-index" if canonical.starts_with(cx.base) => {
            vec![TwinLink {
                hreflang: None,
                href: format!("{canonical}index.md"),
            }]
        }
        "parallel" => {
            let rest = canonical
                .strip_prefix(cx.base)
                .and_then(|r| r.strip_prefix("ja-en/"))
                .unwrap_or_default();
            Lang::ALL
                .iter()
                .map(|l| TwinLink {
                    hreflang: Some(l.code()),
                    href: format!("{}{l}/{rest}index.md", cx.base),
                })
                .collect()
        }
        _ => Vec::new(),
    }
}

/// A Markdown twin linked from an HTML page's head.
#[derive(serde::Serialize)]
pub(in crate::render) struct TwinLink {
    hreflang: Option<&'static str>,
    href: String,
}

/// What a twin is written with: the render context, its language and
/// that language's words.
pub(in crate::render) struct Md<'c, 'a> {
    pub(in crate::render) cx: &'c Ctx<'a>,
    pub(in crate::render) lang: Lang,
}

impl<'a> Md<'_, 'a> {
    /// A plain UI string (one of [`WORDS`]).
    pub(in crate::render) fn w(&self, key: &str) -> &'a str {
        let p: &'a super::Prepared = self.cx.p;
        p.words[super::pages::li(self.lang)]
            .get(key)
            .map_or("", String::as_str)
    }

    /// A UI string with arguments.
    pub(in crate::render) fn msg(
        &self,
        key: &str,
        args: &[(&str, fluent_bundle::FluentValue<'_>)],
    ) -> Result<String, Diagnostic> {
        let mut fargs = fluent_bundle::FluentArgs::new();
        for (k, v) in args {
            fargs.set(*k, v.clone());
        }
        self.cx
            .r
            .i18n()
            .message(self.lang, key, Some(&fargs))
            .map_err(|m| {
                Diagnostic::error("E040", crate::error::Location::file("templates/i18n"), m)
            })
    }

    /// Where a link the HTML makes to `href` (base-relative) goes from
    /// Markdown: a whole page's twin, or the HTML page when it names a
    /// place in it; absolute when the site has an origin.
    pub(in crate::render) fn to(&self, href: &str) -> String {
        let cx = self.cx;
        if cx.site.config.outputs.markdown && href.ends_with('/') && href.starts_with(cx.base) {
            url(&cx.absolute(&format!("{href}index.md")))
        } else {
            url(&cx.absolute(href))
        }
    }

    /// `[label](target)`, the label as text.
    pub(in crate::render) fn link(&self, label: &str, href: &str) -> String {
        format!("[{}]({})", text(label), self.to(href))
    }

    /// How well a claim is known, in words: its class (and the kind of
    /// record a confirmed claim rests on), or "per record" for the
    /// record's own framing, which is no observation.
    pub(in crate::render) fn certainty(&self, c: &ClaimView) -> String {
        if c.framing {
            return self.w("framing-label").to_owned();
        }
        let class = self.w(&format!("class-{}", c.class));
        match c.basis {
            Some(b) => format!("{class} ({})", self.w(&format!("basis-{b}"))),
            None => class.to_owned(),
        }
    }

    /// The answer a claim states: its glyph and words.
    pub(in crate::render) fn answer(&self, c: &ClaimView) -> Option<String> {
        c.answer
            .as_ref()
            .map(|a| text(&format!("{} {}", a.glyph, a.label)))
    }

    /// A claim's evidence links, each to its cited lines on the HTML
    /// evidence page (a whole file's too: the page numbers its lines, the
    /// twin quotes only the cited ones).
    pub(in crate::render) fn evidence(&self, c: &ClaimView) -> String {
        c.evidence
            .iter()
            .map(|l| format!("[{}]({})", text(&l.label), self.html(&l.href)))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The HTML page at `href` (base-relative), absolute where the site
    /// has an origin.
    pub(in crate::render) fn html(&self, href: &str) -> String {
        url(&self.cx.absolute(href))
    }

    /// A claim where a page's text shows it: its answer, its certainty
    /// linked to its first evidence, its text (the HTML's badge).
    pub(in crate::render) fn inline(&self, c: &ClaimView) -> String {
        let certainty = self.certainty(c);
        let badge = match c.evidence.first() {
            Some(l) => format!("[{}]({})", text(&certainty), self.html(&l.href)),
            None => format!("**{}**", text(&certainty)),
        };
        match self.answer(c) {
            Some(a) => format!("{a} · {badge} {}", text(&c.text)),
            None => format!("{badge} {}", text(&c.text)),
        }
    }

    /// A claim as one line: its id, its answer, how well it is known, its
    /// text, its evidence, what it rests on and what readers are told
    /// about it (retracted, suspect, machine-translated).
    pub(in crate::render) fn line(&self, c: &ClaimView) -> String {
        let mut s = format!("`{}`", c.id);
        if let Some(a) = self.answer(c) {
            s.push_str(&format!(" · {}: {a}", self.w("sof-answer")));
        }
        s.push_str(&format!(
            " · **{}** · {}",
            text(&self.certainty(c)),
            text(&c.text)
        ));
        if !c.evidence.is_empty() {
            s.push_str(&format!(
                " · {}: {}",
                self.w("claims-evidence"),
                self.evidence(c)
            ));
        }
        if !c.from.is_empty() {
            let from: Vec<String> = c.from.iter().map(|f| format!("`{}`", f.id)).collect();
            s.push_str(&format!(
                " · {}: {}",
                self.w("claims-rests-on"),
                from.join(", ")
            ));
        }
        let n = &c.notes;
        if n.state != "current" {
            s.push_str(&format!(
                " · **{}**",
                self.w(&format!("notice-{}", n.state))
            ));
            if let Some(r) = &n.reason {
                s.push_str(&format!(": {}", text(r)));
            }
            if let Some(succ) = &n.successor {
                s.push_str(&format!(
                    " ({} `{}`)",
                    self.w("notice-superseded-by"),
                    succ.label
                ));
            }
        }
        if let Some(why) = n.suspect {
            s.push_str(&format!(
                " · ⚠ {}",
                self.w(&format!("notice-suspect-{why}"))
            ));
        }
        if n.machine {
            s.push_str(&format!(" · {}", self.w("notice-machine")));
        }
        s
    }

    /// The last lines of every twin: the page as HTML and in the other
    /// language.
    pub(in crate::render) fn footer(&self, out: &mut String, html: &str, other: &str) {
        while out.ends_with("\n\n") {
            out.pop();
        }
        out.push_str(&format!(
            "\n---\n\n[{}]({html}) · [{}]({})\n",
            self.w("md-html"),
            self.w("md-other-language"),
            self.to(other)
        ));
    }
}

/// `page`'s twin in `lang` (`{lang}/…/index.md`), with its Markdown.
pub(in crate::render) fn page(
    cx: &Ctx<'_>,
    page: &Page,
    lang: Lang,
) -> Result<OutputFile, Diagnostic> {
    Ok(OutputFile {
        path: format!("{lang}/{}index.md", page.url_path),
        bytes: page_text(&Md { cx, lang }, page)?.into_bytes(),
    })
}

/// The Markdown of `page` in the twin's language.
pub(in crate::render) fn page_text(md: &Md<'_, '_>, page: &Page) -> Result<String, Diagnostic> {
    let (cx, lang) = (md.cx, md.lang);
    let mut out = format!("# {}\n\n", text(page.title.get(lang)));
    if page.draft {
        out.push_str(&format!("> {}\n\n", text(md.w("draft-notice"))));
    }
    if let Some(u) = &page.updated {
        out.push_str(&format!("{}: {u}\n\n", md.w("updated")));
    }
    if let Some(lead) = &page.lead {
        out.push_str(&format!(
            "> **{}**: {}\n\n",
            md.w("lead-label"),
            text(lead.get(lang))
        ));
    }
    if let Some(e) = &page.entity {
        let kind = cx
            .site
            .config
            .kinds
            .get(&e.kind)
            .map_or_else(|| e.kind.clone(), |k| k.get(lang).clone());
        out.push_str(&format!(
            "**{}**: {} ({})",
            md.w("entity-label"),
            text(e.name.get(lang)),
            text(&kind)
        ));
        if let Some(role) = &e.role {
            out.push_str(&format!(
                " · **{}**: {}",
                md.w("entity-role"),
                text(role.get(lang))
            ));
        }
        out.push_str("\n\n");
    }
    if let Some(answers) = views::answers(md, page)? {
        push_block(&mut out, &answers);
    }
    let view = views::view(md, page);
    let mut placed = false;
    for seg in &page.segments {
        let (chunk, written) = match seg {
            Segment::Shared(c) => (c, None),
            Segment::Pair { ja, en } => (if lang == Lang::Ja { ja } else { en }, None),
            Segment::Untranslated { lang: l, chunk, .. } => {
                (chunk, Some(*l).filter(|&l| l != lang))
            }
        };
        if let Some(l) = written {
            let notice = md.msg("md-untranslated", &[("written", l.code().into())])?;
            out.push_str(&format!("*⚑ {}*\n\n", text(&notice)));
        }
        let (text, has_view) = body::chunk(md, page, chunk, view.as_deref());
        placed |= has_view;
        push_block(&mut out, &text);
    }
    if let Some(v) = view.filter(|_| !placed) {
        push_block(&mut out, &v);
    }
    if let Some(l) = cx.listing(lang.code(), lang, page, 1) {
        push_block(&mut out, &listing_text(md, &l)?);
    }
    if !page.claims.is_empty() {
        out.push_str(&format!("## {}\n\n", md.w("claims-title")));
        for c in &page.claims {
            if let Some(v) = cx.claim(lang, &c.id) {
                out.push_str(&format!("- {}\n", md.line(v)));
            }
        }
        out.push('\n');
    }
    if let Some(scope) = &page.scope {
        out.push_str(&format!("## {}\n\n", md.w("scope-title")));
        for (key, ids) in [("scope-can", &scope.can), ("scope-cannot", &scope.cannot)] {
            if ids.is_empty() {
                continue;
            }
            out.push_str(&format!("**{}**\n\n", md.w(key)));
            for (id, _) in ids {
                if let Some(v) = cx.claim(lang, id) {
                    out.push_str(&format!("- `{id}` · {}\n", md.inline(v)));
                }
            }
            out.push('\n');
        }
    }
    let other = cx.page_href(lang.other().code(), page);
    md.footer(&mut out, &md.html(&cx.page_href(lang.code(), page)), &other);
    Ok(out)
}

/// A section's listing (one of its pages) as a list, with the pager.
fn listing_text(md: &Md<'_, '_>, l: &super::views::Listing) -> Result<String, Diagnostic> {
    let mut out = format!(
        "## {}\n\n",
        md.msg("listing-title", &[("count", l.total.into())])?
    );
    for item in &l.items {
        out.push_str(&format!("- {}\n", md.link(&item.title, &item.href)));
    }
    if l.pages > 1 {
        out.push_str(&format!(
            "\n{}",
            md.msg(
                "listing-page",
                &[("number", l.number.into()), ("pages", l.pages.into())]
            )?
        ));
        for (key, href) in [("listing-prev", &l.prev), ("listing-next", &l.next)] {
            if let Some(h) = href {
                out.push_str(&format!(" · {}", md.link(md.w(key), h)));
            }
        }
        out.push('\n');
    }
    Ok(out)
}

/// Listing page `n` (from 2) of a section in `lang`.
pub(in crate::render) fn listing_page(
    cx: &Ctx<'_>,
    page: &Page,
    lang: Lang,
    n: usize,
) -> Result<OutputFile, Diagnostic> {
    let md = Md { cx, lang };
    let mut out = format!("# {}\n\n", text(page.title.get(lang)));
    if let Some(l) = cx.listing(lang.code(), lang, page, n) {
        out.push_str(&listing_text(&md, &l)?);
    }
    let href = super::pages::listing_href(cx, lang.code(), page, n);
    let other = super::pages::listing_href(cx, lang.other().code(), page, n);
    md.footer(&mut out, &url(&cx.absolute(&href)), &other);
    Ok(OutputFile {
        path: format!("{lang}/{}page/{n}/index.md", page.url_path),
        bytes: out.into_bytes(),
    })
}

/// Appends a block of Markdown, separated from what follows by a blank
/// line.
fn push_block(out: &mut String, block: &str) {
    let block = block.trim_start_matches('\n').trim_end_matches('\n');
    if block.trim().is_empty() {
        return;
    }
    out.push_str(block);
    out.push_str("\n\n");
}

/// Plain text as Markdown inline text: what would start markup is
/// escaped (a `|` too, so the text can stand in a table cell), and a line
/// break becomes a space.
pub(in crate::render) fn text(s: &str) -> String {
    let special = |c: char| {
        matches!(
            c,
            '\\' | '`' | '*' | '[' | ']' | '<' | '|' | '_' | '\n' | '\r'
        )
    };
    let starts_markup = s.starts_with(['#', '-', '+']);
    // Most claim texts and titles hold nothing to escape.
    if !starts_markup && !s.contains(special) {
        return s.to_owned();
    }
    let mut out = String::with_capacity(s.len() + 8);
    let mut prev: Option<char> = None;
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' | '`' | '*' | '[' | ']' | '<' | '|' => {
                out.push('\\');
                out.push(c);
            }
            // Inside a word `_` starts no emphasis, and `rocm_smi` reads
            // better unescaped.
            '_' => {
                let word = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
                if !(word(prev) && word(chars.peek().copied())) {
                    out.push('\\');
                }
                out.push(c);
            }
            // A `#` or a list marker only starts markup at a line's start.
            '#' | '-' | '+' if prev.is_none() => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' => out.push(' '),
            _ => out.push(c),
        }
        prev = Some(c);
    }
    out
}

/// A link target as Markdown writes it: what would end it or break a
/// table is percent-encoded.
pub(in crate::render) fn url(u: &str) -> String {
    if !u.contains([' ', '(', ')', '<', '>', '|', '\\']) {
        return u.to_owned();
    }
    let mut out = String::with_capacity(u.len());
    for c in u.chars() {
        match c {
            ' ' => out.push_str("%20"),
            '(' => out.push_str("%28"),
            ')' => out.push_str("%29"),
            '<' => out.push_str("%3C"),
            '>' => out.push_str("%3E"),
            '|' => out.push_str("%7C"),
            '\\' => out.push_str("%5C"),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{text, url};

    #[test]
    fn text_escapes_what_would_start_markup() {
        assert_eq!(text("plain words"), "plain words");
        assert_eq!(
            text("a|b *c* [d] <e> `f` \\g"),
            "a\\|b \\*c\\* \\[d\\] \\<e> \\`f\\` \\\\g"
        );
        assert_eq!(text("rocm_smi _x_"), "rocm_smi \\_x\\_");
        assert_eq!(
            text("# not a heading - nor a list"),
            "\\# not a heading - nor a list"
        );
        assert_eq!(text("two\nlines"), "two lines");
        assert_eq!(url("/ja/a b/(c)|"), "/ja/a%20b/%28c%29%7C");
        assert_eq!(url("/ja/観測/"), "/ja/観測/");
    }
}
