//! One built page as a section of the archive (lol_html, streaming).
//!
//! The page's `<body>` content is kept and rewritten: each `id` gets the
//! page's path in front (`claim-x` on `ja/a/` is `ja/a/claim-x`; an SVG
//! element's is an XML name instead, [`xml_name`]), and so does each
//! reference to one (`for`, `aria-*`, `url(#…)`, its `<style>` rules);
//! each link goes where [`link`] says. Anything that would load or
//! navigate by itself is removed or inlined: scripts, the search box
//! (replaced by a link to the archive's index), `<link>`, `<meta>`,
//! `<base>`, frames and objects, event handlers, and images (inlined from
//! the build when it holds them). [`sanitize`] removes the same from the
//! sections joined.

use super::css;
use super::links::{anchor, decode, link, place, xml_name, Link, Links, Place};
use crate::error::{Error, Result};
use lol_html::html_content::{ContentType, Element};
use lol_html::{doctype, element, text, RewriteStrSettings};
use std::cell::RefCell;
use std::collections::HashSet;

/// A page rewritten as a section of the archive.
#[derive(Debug)]
pub(super) struct Section {
    /// Its id: [`anchor`] of the page's path (`ja/components/rocblas/`).
    pub(super) id: String,
    /// Its `<html lang>`.
    pub(super) lang: String,
    /// Its `<body class>` (`view-page`): the theme's rules read it.
    pub(super) class: String,
    /// Its `<title>`, as text.
    pub(super) title: String,
    /// The rewritten content of its `<body>`.
    pub(super) body: String,
    /// The rewritten rules of its `<head>`'s `<style>`s (an evidence page's
    /// cited ranges).
    pub(super) style: String,
}

/// The elements no section keeps, wherever they are: what loads,
/// navigates or embeds a document of its own, which a Content-Security-
/// Policy does not always stop (`<meta http-equiv="refresh">` navigates
/// whatever the policy says, `<base>` changes every link, and a `<meta>`
/// is not allowed in a body anyway), and the raw-text elements a browser
/// and a rewriter could read differently across sections (`<noscript>`,
/// `<noembed>`, `<noframes>`).
const DROPPED: &str = "script, link, base, meta, iframe, frame, frameset, object, embed, applet, portal, fencedframe, noscript, noembed, noframes";

/// SMIL's elements, which change an attribute after the page is read
/// (an `href` to elsewhere): dropped when the attribute they animate
/// is one that loads or leads somewhere.
const ANIMATIONS: [&str; 4] = ["animate", "set", "animatemotion", "animatetransform"];

/// The sections of an archive (or anything to sit in its body) without
/// an element of `DROPPED`: the last pass over the document as a browser
/// reads it, sections joined, where an element one section left open
/// (`<textarea>`, a comment) ends in another and a tag the page's own
/// pass read as text becomes one.
pub(super) fn sanitize(html: &str) -> Result<String> {
    let settings = RewriteStrSettings::new()
        .append_element_content_handler(element!(DROPPED, |el| {
            el.remove();
            Ok(())
        }))
        .append_element_content_handler(element!("*", |el| {
            drop_active(el);
            Ok(())
        }));
    let read = lol_html::rewrite_str(html, settings)
        .map_err(|e| Error::Usage(format!("cannot make the archive safe to open: {e}")))?;
    Ok(dropped_as_text(&read).into_owned())
}

/// `html` with each start tag of an element of `DROPPED` left in it
/// written as text (`&lt;meta`), whatever context it is in: the last
/// word, which holds where a browser and lol_html read a context apart.
/// They do for MathML and SVG nested in each other (`<mglyph>` in
/// `<mtext>`, `<math>` in `<svg>`, `<svg>` in `<math>`): lol_html reads
/// the `<style>` in them as raw text and sees no element there, Chromium
/// reads a foreign element, out of which a `<meta>` breaks and navigates
/// (2026-11-28 M3). Where the tag was text already (an attribute, a
/// `<textarea>`), `&lt;` reads as the same `<`; in raw text it is text
/// that never was a rule or a tag.
fn dropped_as_text(html: &str) -> std::borrow::Cow<'_, str> {
    let b = html.as_bytes();
    // A tag's name ends at a blank, `/` or `>` (or the end of the input).
    let tag_at = |i: usize| {
        DROPPED.split(", ").any(|name| {
            let end = i + 1 + name.len();
            b.len() >= end
                && b[i + 1..end].eq_ignore_ascii_case(name.as_bytes())
                && b.get(end)
                    .is_none_or(|c| matches!(c, b' ' | b'\t' | b'\n' | b'\r' | 0x0c | b'/' | b'>'))
        })
    };
    let starts: Vec<usize> = (0..b.len())
        .filter(|&i| b[i] == b'<' && tag_at(i))
        .collect();
    if starts.is_empty() {
        return std::borrow::Cow::Borrowed(html);
    }
    let mut out = String::with_capacity(html.len() + 3 * starts.len());
    let mut last = 0;
    for i in starts {
        out.push_str(&html[last..i]);
        out.push_str("&lt;");
        last = i + 1;
    }
    out.push_str(&html[last..]);
    std::borrow::Cow::Owned(out)
}

/// Removes from `el` what makes a request or runs on its own: event
/// handlers (the archive's policy blocks them too), `ping`, and an
/// animation of an attribute that loads or navigates.
fn drop_active(el: &mut Element<'_, '_>) {
    if el.removed() {
        return;
    }
    let names: Vec<String> = el.attributes().iter().map(|a| a.name()).collect();
    for name in names {
        if name.starts_with("on") || name == "ping" || name == "srcdoc" {
            el.remove_attribute(&name);
        }
    }
    if ANIMATIONS.contains(&el.tag_name().as_str()) {
        let target = el
            .get_attribute("attributename")
            .unwrap_or_default()
            .to_ascii_lowercase();
        let loads = target.ends_with("href")
            || matches!(
                target.as_str(),
                "src" | "srcset" | "action" | "formaction" | "data" | "poster" | "background"
            );
        if loads {
            el.remove();
        }
    }
}

/// The attributes holding one id or a list of them.
const ID_REFS: [&str; 14] = [
    "for",
    "headers",
    "list",
    "form",
    "aria-activedescendant",
    "aria-controls",
    "aria-describedby",
    "aria-details",
    "aria-errormessage",
    "aria-flowto",
    "aria-labelledby",
    "aria-owns",
    "popovertarget",
    "itemref",
];

/// The page at `path` (`ja/a/index.html`, raw) with `html` its bytes.
pub(super) fn rewrite(path: &str, html: &str, links: &Links<'_>) -> Result<Section> {
    let page = crate::render::paths::page_of(path).unwrap_or(path);
    let prefix = anchor(page);
    let lang = RefCell::new(String::new());
    let class = RefCell::new(String::new());
    let title = RefCell::new(String::new());
    let head_css = RefCell::new(String::new());
    let body_css = RefCell::new(String::new());
    let failure: RefCell<Option<Error>> = RefCell::new(None);
    let svg = svg_ids(html);
    // An SVG element's id is an XML name, which a `/` cannot be part of.
    let id = |raw: &str| {
        let raw = decode(raw);
        if svg.contains(raw.as_str()) {
            xml_name(&format!("{page}{raw}"))
        } else {
            format!("{prefix}{}", anchor(&raw))
        }
    };
    let settings = RewriteStrSettings::new()
        .append_document_content_handler(doctype!(|d| {
            d.remove();
            Ok(())
        }))
        .append_element_content_handler(element!("html", |el| {
            *lang.borrow_mut() = el.get_attribute("lang").unwrap_or_default();
            el.remove_and_keep_content();
            Ok(())
        }))
        .append_element_content_handler(element!("head", |el| {
            el.remove_and_keep_content();
            Ok(())
        }))
        .append_element_content_handler(element!("head > *", |el| {
            el.remove();
            Ok(())
        }))
        .append_element_content_handler(text!("head > title", |t| {
            title.borrow_mut().push_str(t.as_str());
            Ok(())
        }))
        .append_element_content_handler(text!("head > style", |t| {
            head_css.borrow_mut().push_str(t.as_str());
            Ok(())
        }))
        .append_element_content_handler(element!("body", |el| {
            *class.borrow_mut() = el.get_attribute("class").unwrap_or_default();
            el.remove_and_keep_content();
            Ok(())
        }))
        // Scripts would not run (the archive's policy allows one), and
        // what they do here needs the site's own addresses; the rest of
        // `DROPPED` would load or navigate. Anywhere: raw HTML can close
        // the body early.
        .append_element_content_handler(element!(DROPPED, |el| {
            el.remove();
            Ok(())
        }))
        // One `<main>` a section: a document may have only one that is not
        // `hidden`, and CSS hides all but one here. The landmark stays.
        .append_element_content_handler(element!("body main", |el| {
            el.set_tag_name("div").expect("div is a tag name");
            el.set_attribute("role", "main").expect("role is a name");
            Ok(())
        }))
        .append_element_content_handler(element!("#site-search", |el| {
            el.remove();
            Ok(())
        }))
        .append_element_content_handler(element!("a.site-title", |el| {
            let words = (links.to_index)(&lang.borrow());
            el.after(
                &format!(
                    "<a class=\"kx-to-index\" href=\"#start\">{}</a>",
                    escape(&words)
                ),
                ContentType::Html,
            );
            Ok(())
        }))
        .append_element_content_handler(text!("body style", |t| {
            let mut buf = body_css.borrow_mut();
            buf.push_str(t.as_str());
            if t.last_in_text_node() {
                let rules = css::inline(&css::rewrite(&buf, &id)).into_owned();
                buf.clear();
                t.replace(&rules, ContentType::Html);
            } else {
                t.remove();
            }
            Ok(())
        }))
        .append_element_content_handler(element!("*", |el| {
            if let Err(e) = attributes(el, page, &id, links) {
                failure.borrow_mut().get_or_insert(e);
            }
            Ok(())
        }));
    let body = lol_html::rewrite_str(html, settings).map_err(|e| {
        Error::Usage(format!(
            "cannot read the built page {path} for the archive: {e}"
        ))
    })?;
    if let Some(e) = failure.into_inner() {
        return Err(e);
    }
    let style = css::rewrite(&head_css.into_inner(), &id);
    Ok(Section {
        id: prefix.clone(),
        lang: lang.into_inner(),
        class: class.into_inner(),
        title: decode(title.into_inner().trim()),
        body,
        style,
    })
}

/// Rewrites the attributes of one element of the page at `page`.
fn attributes(
    el: &mut Element<'_, '_>,
    page: &str,
    id: &dyn Fn(&str) -> String,
    links: &Links<'_>,
) -> Result<()> {
    drop_active(el);
    if el.removed() {
        return Ok(());
    }
    let tag = el.tag_name();
    let attrs: Vec<(String, String)> = el
        .attributes()
        .iter()
        .map(|a| (a.name(), a.value()))
        .collect();
    for (name, value) in attrs {
        match name.as_str() {
            "id" => set(el, &name, &id(&value)),
            n if ID_REFS.contains(&n) => {
                let ids: Vec<String> = value.split_ascii_whitespace().map(id).collect();
                set(el, &name, &ids.join(" "));
            }
            "href" if tag == "a" || tag == "area" => {
                match link(
                    page,
                    &decode(&value),
                    el.has_attribute("data-view"),
                    id,
                    links,
                ) {
                    Link::Keep => {}
                    Link::To(to) => set(el, &name, &to),
                    Link::Unwrap => {
                        el.remove_attribute(&name);
                        // A link without an address is no longer a link:
                        // nothing to name it by.
                        el.remove_attribute("hreflang");
                        el.remove_attribute("aria-current");
                    }
                    Link::Remove => el.remove(),
                }
            }
            // SVG's references (`<use href="#m">`), and anything else an
            // element would load.
            "href" | "xlink:href" | "src" | "srcset" | "poster" | "data" | "action"
            | "formaction" | "background" => {
                let v = decode(&value);
                match v.strip_prefix('#') {
                    Some(frag) if name.ends_with("href") => {
                        set(el, &name, &format!("#{}", id(frag)))
                    }
                    _ if name == "src" => match inline(page, &v, links)? {
                        Some(data) => set(el, &name, &data),
                        None => el.remove_attribute(&name),
                    },
                    _ => el.remove_attribute(&name),
                }
            }
            // Search's marks: there is no index here to read them.
            n if n.starts_with("data-pagefind") => el.remove_attribute(n),
            _ if value.contains("url(") => set(el, &name, &css::rewrite_urls(&value, id)),
            _ => {}
        }
    }
    Ok(())
}

/// Sets an attribute to a value given as text.
fn set(el: &mut Element<'_, '_>, name: &str, value: &str) {
    el.set_attribute(name, &escape(value))
        .expect("the name came from the element");
}

/// A `data:` URL of the image at `src` (on the page at `page`), when the
/// build holds it; `None` for one elsewhere, which is not loaded.
fn inline(page: &str, src: &str, links: &Links<'_>) -> Result<Option<String>> {
    let path = src.split(['#', '?']).next().unwrap_or_default();
    let Place::Site(rel) = place(page, path, links) else {
        return Ok(None);
    };
    if !links.files.contains(rel.as_str()) {
        return Ok(None);
    }
    let bytes = (links.read)(&rel)?;
    use base64::Engine;
    Ok(Some(format!(
        "data:{};base64,{}",
        media_type(&rel),
        base64::engine::general_purpose::STANDARD.encode(bytes)
    )))
}

/// The media type of an image by its name.
pub(super) fn media_type(path: &str) -> &'static str {
    let ext = path.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
    match ext.as_deref() {
        Some("png") => "image/png",
        Some("jpg" | "jpeg") => "image/jpeg",
        Some("gif") => "image/gif",
        Some("svg") => "image/svg+xml",
        Some("webp") => "image/webp",
        Some("avif") => "image/avif",
        Some("ico") => "image/x-icon",
        _ => "application/octet-stream",
    }
}

/// The ids of the SVG elements of a page (inline `<svg>`), raw.
fn svg_ids(html: &str) -> HashSet<String> {
    let mut ids = HashSet::new();
    let mut rest = html;
    while let Some(at) = rest.find("<svg") {
        let inner = &rest[at..];
        let end = inner.find("</svg>").unwrap_or(inner.len());
        let mut part = &inner[..end];
        while let Some(i) = part.find(" id=") {
            let value = &part[i + 4..];
            let (q, value) = match value.as_bytes().first() {
                Some(&q @ (b'"' | b'\'')) => (q as char, &value[1..]),
                _ => (' ', value),
            };
            let stop = value
                .find(|c: char| c == q || (q == ' ' && (c == '>' || c.is_whitespace())))
                .unwrap_or(value.len());
            ids.insert(decode(&value[..stop]));
            part = &value[stop..];
        }
        rest = &inner[end..];
    }
    ids
}

/// HTML's escaping of text in an attribute or an element.
pub(super) fn escape(s: &str) -> String {
    crate::render::highlight::escape(s)
}

#[cfg(test)]
mod tests {
    use super::super::links::tests::with_links;
    use super::*;

    #[test]
    fn ids_and_their_references_carry_the_page() {
        with_links(|l| {
            let html = r##"<!DOCTYPE html>
<html lang="ja"><head><title>A &amp; B</title><style>.x:has(#L1-L2:target){color:red}</style>
<script src="/docs/static/kansoku.js"></script></head>
<body class="view-page"><a class="site-title" href="/docs/ja/">T</a><div id="site-search"><input></div>
<main id="main"><h2 id="h">H</h2><label for="q">Q</label><input id="q"><a href="#h" aria-describedby="ja-confirmed x">go</a>
<svg><marker id="m"/><path marker-end="url(#m)"/><style>.c{fill:#000}</style></svg>
<img src="/docs/static/pic.png" alt="p"><img src="https://example.org/x.png" alt="x">
<a href="/docs/evidence/run.log">raw</a> <a href="/docs/claims.json" hreflang="en">claims</a>
</main><script>alert(1)</script></body></html>"##;
            let s = rewrite("ja/a/index.html", html, l).expect("rewrites");
            assert_eq!((s.id.as_str(), s.lang.as_str()), ("ja/a/", "ja"));
            assert_eq!((s.class.as_str(), s.title.as_str()), ("view-page", "A & B"));
            assert_eq!(s.style, r".x:has(#ja\/a\/L1-L2:target){color:red}");
            let body = s.body.trim();
            for want in [
                r##"<a class="site-title" href="#ja/">T</a><a class="kx-to-index" href="#start">index-ja</a>"##,
                r#"<div id="ja/a/main" role="main"><h2 id="ja/a/h">H</h2><label for="ja/a/q">Q</label><input id="ja/a/q">"#,
                r##"<a href="#ja/a/h" aria-describedby="ja/a/ja-confirmed ja/a/x">go</a>"##,
                r##"<marker id="ja:a:m" /><path marker-end="url(#ja:a:m)" /><style>.c{fill:#000}</style>"##,
                r#"<img src="data:image/png;base64,AQID" alt="p"><img alt="x">"#,
                "\n <a>claims</a>",
            ] {
                assert!(body.contains(want), "{want}\nnot in\n{body}");
            }
            for gone in [
                "<script",
                "site-search",
                "raw</a>",
                "<title",
                "<head",
                "<body",
                "<html",
            ] {
                assert!(!body.contains(gone), "{gone} left in\n{body}");
            }
        });
    }

    #[test]
    fn sanitize_drops_what_loads_or_navigates_wherever_it_is() {
        let html = "<div><meta http-equiv=refresh content='0;url=x'><svg><meta http-equiv=refresh></svg>\
            <textarea><p title=\"</textarea><base href=x><iframe src=x></iframe>\"></p>\
            <a href=\"#a\" ping=\"x\" onclick=\"y\">a</a><svg><set attributeName=\"href\" to=\"x\"/>\
            <animate attributeName=\"fill\" to=\"red\"/></svg></div>";
        assert_eq!(
            sanitize(html).expect("reads"),
            "<div><svg></svg><textarea><p title=\"</textarea>\"></p>\
            <a href=\"#a\">a</a><svg>\
            <animate attributeName=\"fill\" to=\"red\"/></svg></div>"
        );
    }

    #[test]
    fn svg_ids_are_xml_names() {
        let html = r#"<p id="p"></p><svg id="s"><marker id='m'/><path id=q /></svg><b id="b">"#;
        let mut got: Vec<String> = svg_ids(html).into_iter().collect();
        got.sort();
        assert_eq!(got, ["m", "q", "s"]);
        assert_eq!(xml_name("ja/a_b/x:y/メ"), "ja:a_5fb:x_3ay:_e3_83_a1");
    }
}
