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

pub(in crate::render) use body::Marks;
pub(in crate::render) use evidence::{
    entry as evidence_entry, index as evidence_index, pages as evidence_pages,
    text_of as evidence_text,
};

use super::context::Ctx;
use super::views::ClaimView;
use super::OutputFile;
use crate::content::{Page, Segment};
use crate::error::Diagnostic;
use crate::lang::Lang;
use std::fmt::Write as _;

/// What a twin is written with: the render context, its language and
/// that language's words.
pub(in crate::render) struct Md<'c, 'a> {
    pub(in crate::render) cx: &'c Ctx<'a>,
    pub(in crate::render) lang: Lang,
}

/// A claim as its twin shows it inline (see [`Md::make_inline`]): what
/// the render context calls to fill a claim view's `md`.
pub(in crate::render) fn inline_md(cx: &Ctx<'_>, lang: Lang, c: &ClaimView) -> String {
    Md { cx, lang }.make_inline(c)
}

impl<'a> Md<'_, 'a> {
    /// A plain UI string (one of `words::WORDS`).
    pub(in crate::render) fn w(&self, key: &str) -> &'a str {
        let p: &'a super::RenderState = self.cx.prepared;
        p.words[super::context::li(self.lang)]
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
            .renderer
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
        if cx.config().outputs.markdown && href.ends_with('/') && href.starts_with(cx.base) {
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
        let class = self.w(class_key(c.class));
        match c.basis {
            Some("note") => format!("{class} ({})", self.w("basis-note")),
            Some(_) => format!("{class} ({})", self.w("basis-transcript")),
            None => class.to_owned(),
        }
    }

    /// The answer a claim states: its glyph and words; a not-known one,
    /// being no answer, as "Not known: <why>", without a glyph.
    pub(in crate::render) fn answer(&self, c: &ClaimView) -> Option<String> {
        c.answer.as_ref().map(|a| self.answer_words(a))
    }

    /// An answer's glyph and words, or "Not known: <why>".
    pub(in crate::render) fn answer_words(&self, a: &crate::render::views::AnswerView) -> String {
        if crate::render::generated::is_answer(a.kind) {
            text(&format!("{} {}", a.glyph, a.label))
        } else {
            text(&format!("{}: {}", self.w("answer-not-known"), a.label))
        }
    }

    /// What would settle a claim, when it says: "What would settle it: …".
    pub(in crate::render) fn settle(&self, c: &ClaimView) -> Option<String> {
        let label = self.w("settle-label");
        // A Japanese label ends in a full-width colon, which needs no space.
        let sep = if label.ends_with('：') { "" } else { " " };
        c.settle
            .as_ref()
            .map(|s| format!("{label}{sep}{}", text(s)))
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
    /// linked to its first evidence, its text (the HTML's badge). Made
    /// once per claim and language with its view (`ClaimView::md`).
    pub(in crate::render) fn inline(&self, c: &ClaimView) -> String {
        if c.md.is_empty() {
            self.make_inline(c)
        } else {
            c.md.clone()
        }
    }

    /// Appends [`Md::inline`] to `out`, without a copy where it was made
    /// with the claim's view.
    pub(in crate::render) fn push_inline(&self, out: &mut String, c: &ClaimView) {
        if c.md.is_empty() {
            out.push_str(&self.make_inline(c));
        } else {
            out.push_str(&c.md);
        }
    }

    /// [`Md::inline`], made.
    pub(in crate::render) fn make_inline(&self, c: &ClaimView) -> String {
        let certainty = text(&self.certainty(c));
        let mut s = String::with_capacity(certainty.len() + c.text.len() + 96);
        if let Some(a) = self.answer(c) {
            s.push_str(&a);
            s.push_str(" · ");
        }
        match c.evidence.first() {
            Some(l) => {
                let _ = write!(s, "[{certainty}]({})", self.html(&l.href));
            }
            None => {
                let _ = write!(s, "**{certainty}**");
            }
        }
        s.push(' ');
        s.push_str(&text(&c.text));
        if let Some(settle) = self.settle(c) {
            s.push_str(" · ");
            s.push_str(&settle);
        }
        s
    }

    /// A claim as one line: its id, its answer, how well it is known, its
    /// text, its evidence, what it rests on and what readers are told
    /// about it (retracted, suspect, machine-translated).
    pub(in crate::render) fn line(&self, c: &ClaimView) -> String {
        let mut s = String::with_capacity(256);
        self.push_line(&mut s, c);
        s
    }

    /// Appends [`Md::line`] to `out`.
    pub(in crate::render) fn push_line(&self, s: &mut String, c: &ClaimView) {
        let _ = write!(s, "`{}`", c.id);
        if let Some(a) = self.answer(c) {
            let _ = write!(s, " · {}: {a}", self.w("sof-answer"));
        }
        let _ = write!(s, " · **{}** · {}", text(&self.certainty(c)), text(&c.text));
        if let Some(settle) = self.settle(c) {
            let _ = write!(s, " · {settle}");
        }
        if !c.evidence.is_empty() {
            let _ = write!(s, " · {}: ", self.w("claims-evidence"));
            for (i, l) in c.evidence.iter().enumerate() {
                if i > 0 {
                    s.push_str(", ");
                }
                let _ = write!(s, "[{}]({})", text(&l.label), self.html(&l.href));
            }
        }
        if !c.from.is_empty() {
            let _ = write!(s, " · {}: ", self.w("claims-rests-on"));
            for (i, f) in c.from.iter().enumerate() {
                if i > 0 {
                    s.push_str(", ");
                }
                let _ = write!(s, "`{}`", f.id);
            }
        }
        let n = &c.notes;
        if n.state != "current" {
            let _ = write!(s, " · **{}**", self.w(&format!("notice-{}", n.state)));
            if let Some(r) = &n.reason {
                let _ = write!(s, ": {}", text(r));
            }
            if let Some(succ) = &n.successor {
                let _ = write!(s, " ({} `{}`)", self.w("notice-superseded-by"), succ.label);
            }
        }
        if let Some(why) = n.suspect {
            let _ = write!(s, " · ⚠ {}", self.w(&format!("notice-suspect-{why}")));
        }
        if n.machine {
            let _ = write!(s, " · {}", self.w("notice-machine"));
        }
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

/// `page`'s twin in `lang` (`{lang}/…/index.md`), from what the HTML
/// render of each of its segments found (`marks`, in segment order).
pub(in crate::render) fn page(
    cx: &Ctx<'_>,
    page: &Page,
    lang: Lang,
    marks: &[Marks],
) -> Result<OutputFile, Diagnostic> {
    Ok(OutputFile {
        path: super::paths::page_twin_path(lang.code(), &page.url_path),
        bytes: page_text(&Md { cx, lang }, page, Some(marks))?.into_bytes(),
    })
}

/// The Markdown of `page` in the twin's language; without `marks`, each
/// chunk is parsed for what to rewrite.
pub(in crate::render) fn page_text(
    md: &Md<'_, '_>,
    page: &Page,
    marks: Option<&[Marks]>,
) -> Result<String, Diagnostic> {
    let (cx, lang) = (md.cx, md.lang);
    let mut out = format!("# {}\n\n", text(page.title.get(lang)));
    if page.draft {
        // How to publish it in the writer's preview; that it is a draft
        // for a reader (`build --drafts`).
        let notice = match cx.config().preview {
            true => "draft-notice",
            false => "draft-notice-published",
        };
        out.push_str(&format!("> {}\n\n", text(md.w(notice))));
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
            .config()
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
    for (i, seg) in page.segments.iter().enumerate() {
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
        let found = marks.and_then(|m| m.get(i));
        let (text, has_view) = body::chunk(md, page, chunk, view.as_deref(), found);
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
                out.push_str("- ");
                md.push_line(&mut out, v);
                out.push('\n');
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
    let href = super::paths::listing_href(cx.base, lang.code(), page, n);
    let other = super::paths::listing_href(cx.base, lang.other().code(), page, n);
    md.footer(&mut out, &url(&cx.absolute(&href)), &other);
    Ok(OutputFile {
        path: super::paths::listing_twin_path(lang.code(), &page.url_path, n),
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
    // Every character that may need escaping is ASCII: one pass over the
    // bytes tells most claim texts and titles from the rest.
    let special = s.bytes().any(|b| {
        matches!(
            b,
            b'\\' | b'`' | b'*' | b'[' | b']' | b'<' | b'|' | b'_' | b'\n' | b'\r'
        )
    });
    if !special && !s.starts_with(['#', '-', '+']) {
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

/// The UI string naming a class (`class-confirmed`, …).
fn class_key(class: &str) -> &'static str {
    match class {
        "confirmed" => "class-confirmed",
        "inferred" => "class-inferred",
        "unresolved" => "class-unresolved",
        _ => "class-limited",
    }
}

/// A link target as Markdown writes it: what would end it or break a
/// table is percent-encoded.
pub(in crate::render) fn url(u: &str) -> String {
    // memchr's searches: a char pattern ran char by char, unoptimised in
    // a test build, for every link of every twin.
    let b = u.as_bytes();
    if memchr::memchr3(b' ', b'(', b')', b).is_none()
        && memchr::memchr3(b'<', b'>', b'|', b).is_none()
        && memchr::memchr(b'\\', b).is_none()
    {
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
        // One of each search's bytes alone.
        assert_eq!(url("a<b"), "a%3Cb");
        assert_eq!(url("a>"), "a%3E");
        assert_eq!(url("\\b"), "%5Cb");
        assert_eq!(url(")"), "%29");
    }
}
