//! Where a link on a built page leads in the archive, and how the
//! archive spells ids and fragments.
//!
//! A link to a page the archive holds becomes a link to that page's
//! section (`/ja/a/#claim-x` is `#ja/a/claim-x`); one to a file it does not
//! hold loses its `href` and keeps its text; a raw evidence copy's is left
//! out (its page shows every line); another site's stays as it is (a
//! reader's click, not a request). Ids are percent-encoded ([`anchor`]) so
//! that each is one token a fragment names exactly, whatever a path holds.

use crate::error::Result;
use crate::render::paths;
use std::collections::HashSet;

/// What links resolve against: the site's address and what the archive
/// holds.
pub(super) struct Links<'a> {
    /// The site's base path (`/`, `/docs/`).
    pub(super) base: &'a str,
    /// Its scheme and host when `site-url` is absolute.
    pub(super) origin: Option<&'a str>,
    /// The paths of the pages the archive holds (`ja/a/`), raw.
    pub(super) pages: &'a HashSet<String>,
    /// Every file of the build, for images to inline.
    pub(super) files: &'a HashSet<&'a str>,
    /// Reads a file of the build.
    pub(super) read: &'a (dyn Fn(&str) -> Result<Vec<u8>> + Sync),
    /// The words of the link to the archive's index, by page language.
    pub(super) to_index: &'a (dyn Fn(&str) -> String + Sync),
}

/// What becomes of a link.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Link {
    /// Left as it is (another site's address).
    Keep,
    /// To this in-file anchor (`#…`).
    To(String),
    /// Its `href` dropped, its text kept.
    Unwrap,
    /// Left out with its text.
    Remove,
}

/// Where a URL on the page at `page` points, by its path (query and
/// fragment cut off).
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Place {
    /// Into the site: this path under its base, raw (`ja/a/`, ``).
    Site(String),
    /// Another site.
    Elsewhere,
    /// Another part of the host the site is on.
    Host,
}

pub(super) fn place(page: &str, path: &str, links: &Links<'_>) -> Place {
    let rel = if path.is_empty() {
        page.to_owned()
    } else if let Some(own) = links
        .origin
        .and_then(|o| path.strip_prefix(o))
        .filter(|p| p.starts_with('/'))
    {
        match paths::under_base(links.base, own) {
            Some(rel) => rel.to_owned(),
            None => return Place::Elsewhere,
        }
    } else if has_scheme(path) || path.starts_with("//") {
        return Place::Elsewhere;
    } else if path.starts_with('/') {
        match paths::under_base(links.base, path) {
            Some(rel) => rel.to_owned(),
            None => return Place::Host,
        }
    } else {
        join(page, path)
    };
    Place::Site(percent_decode(&rel))
}

/// What the link `href` (entities decoded) on the page at `page` becomes.
/// `switch` marks a language switch, which is left out rather than kept
/// as text when its language is not in the archive.
pub(super) fn link(
    page: &str,
    href: &str,
    switch: bool,
    id: &dyn Fn(&str) -> String,
    links: &Links<'_>,
) -> Link {
    let (path, frag) = match href.split_once('#') {
        Some((p, f)) => (p, Some(f)),
        None => (href, None),
    };
    let path = path.split_once('?').map_or(path, |(p, _)| p);
    let mut target = match place(page, path, links) {
        Place::Site(t) => t,
        Place::Elsewhere => return Link::Keep,
        Place::Host => return Link::Unwrap,
    };
    if let Some(dir) = paths::page_of(&target) {
        target = dir.to_owned();
    }
    if target.is_empty() {
        // The language chooser; its `#choose` names it too.
        return Link::To("#start".to_owned());
    }
    if !links.pages.contains(&target) && links.pages.contains(&format!("{target}/")) {
        target.push('/');
    }
    if links.pages.contains(&target) {
        let frag = frag.map(percent_decode).unwrap_or_default();
        return Link::To(match frag.as_str() {
            "" => format!("#{}", anchor(&target)),
            // On this page its ids are known (an SVG element's differ).
            f if target == page => format!("#{}", id(f)),
            f => format!("#{}{}", anchor(&target), anchor(f)),
        });
    }
    // The raw copies of the evidence (`evidence/…`): each one's page shows
    // every line of it.
    if paths::is_raw_evidence(&target) || switch {
        return Link::Remove;
    }
    Link::Unwrap
}

/// `rel` resolved against the directory of the page at `page`.
pub(super) fn join(page: &str, rel: &str) -> String {
    let mut parts: Vec<&str> = page.split('/').filter(|s| !s.is_empty()).collect();
    let trailing = rel.ends_with('/') || rel.ends_with("/.") || rel.ends_with("/..");
    for seg in rel.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            s => parts.push(s),
        }
    }
    let mut out = parts.join("/");
    if trailing && !out.is_empty() {
        out.push('/');
    }
    out
}

fn has_scheme(s: &str) -> bool {
    let Some((scheme, _)) = s.split_once(':') else {
        return false;
    };
    let mut chars = scheme.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
}

/// `raw` as an XML name, one to one: `/` is `:`, ASCII letters, digits,
/// `.` and `-` stay, any other byte is `_` and two hex digits.
pub(super) fn xml_name(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len() + 8);
    for b in raw.bytes() {
        match b {
            b'/' => out.push(':'),
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'.' | b'-' => out.push(b as char),
            _ => out.push_str(&format!("_{b:02x}")),
        }
    }
    out
}

/// An id or path as the archive's ids and links spell it: percent-encoded
/// where a fragment could not hold it as it is (space, `%`, `#`, quotes,
/// angle brackets, non-ASCII), so the link's fragment is the id itself.
pub(super) fn anchor(raw: &str) -> String {
    use percent_encoding::{utf8_percent_encode, AsciiSet, CONTROLS};
    const SET: &AsciiSet = &CONTROLS
        .add(b' ')
        .add(b'"')
        .add(b'#')
        .add(b'%')
        .add(b'\'')
        .add(b'<')
        .add(b'>')
        .add(b'\\')
        .add(b'`')
        .add(b'{')
        .add(b'|')
        .add(b'}')
        .add(b'^')
        .add(b'[')
        .add(b']');
    utf8_percent_encode(raw, SET).to_string()
}

fn percent_decode(s: &str) -> String {
    percent_encoding::percent_decode_str(s)
        .decode_utf8_lossy()
        .into_owned()
}

/// The character references kansoku's templates write (`&amp;`, `&#39;`),
/// and numeric ones, decoded; others are left as they are.
pub(super) fn decode(s: &str) -> String {
    if !s.contains('&') {
        return s.to_owned();
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let Some(end) = rest.find(';').filter(|&e| e <= 10) else {
            out.push('&');
            rest = &rest[1..];
            continue;
        };
        let name = &rest[1..end];
        let c = match name {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            n => n
                .strip_prefix("#x")
                .or_else(|| n.strip_prefix("#X"))
                .and_then(|h| u32::from_str_radix(h, 16).ok())
                .or_else(|| n.strip_prefix('#').and_then(|d| d.parse().ok()))
                .and_then(char::from_u32),
        };
        match c {
            Some(c) => {
                out.push(c);
                rest = &rest[end + 1..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    pub(in crate::site::archive) fn with_links<T>(f: impl FnOnce(&Links<'_>) -> T) -> T {
        let pages: HashSet<String> = ["ja/", "ja/a/", "en/a/", "ja/evidence/run.log/", "ja/メモ/"]
            .map(String::from)
            .into();
        let files: HashSet<&str> = ["static/pic.png"].into();
        let read = |_: &str| Ok(vec![1u8, 2, 3]);
        let to_index = |lang: &str| format!("index-{lang}");
        f(&Links {
            base: "/docs/",
            origin: Some("https://example.org"),
            pages: &pages,
            files: &files,
            read: &read,
            to_index: &to_index,
        })
    }

    #[test]
    fn links_become_anchors_in_the_file() {
        with_links(|l| {
            let id = |raw: &str| format!("ja/a/{raw}");
            let to = |href: &str| link("ja/a/", href, false, &id, l);
            assert_eq!(to("/docs/ja/a/#claim-x"), Link::To("#ja/a/claim-x".into()));
            assert_eq!(to("#L7"), Link::To("#ja/a/L7".into()));
            assert_eq!(to(""), Link::To("#ja/a/".into()));
            assert_eq!(to("/docs/en/a/"), Link::To("#en/a/".into()));
            assert_eq!(to("/docs/en/a"), Link::To("#en/a/".into()));
            assert_eq!(to("/docs/en/a/index.html"), Link::To("#en/a/".into()));
            assert_eq!(to("../../en/a/"), Link::To("#en/a/".into()));
            assert_eq!(
                to("https://example.org/docs/ja/evidence/run.log/#L3-L4"),
                Link::To("#ja/evidence/run.log/L3-L4".into())
            );
            assert_eq!(
                to("/docs/ja/%E3%83%A1%E3%83%A2/"),
                Link::To("#ja/%E3%83%A1%E3%83%A2/".into())
            );
            assert_eq!(to("/docs/"), Link::To("#start".into()));
            assert_eq!(to("/docs/#choose"), Link::To("#start".into()));
            // The base without its slash is the site, written either way.
            assert_eq!(to("/docs"), Link::To("#start".into()));
            assert_eq!(to("https://example.org/docs"), Link::To("#start".into()));
            assert_eq!(to("/docs/evidence/run.log"), Link::Remove);
            assert_eq!(to("/docs/claims.json"), Link::Unwrap);
            assert_eq!(to("/elsewhere/"), Link::Unwrap);
            assert_eq!(to("https://example.org/other/"), Link::Keep);
            assert_eq!(to("https://github.com/x/y"), Link::Keep);
            assert_eq!(to("mailto:a@example.org"), Link::Keep);
            assert_eq!(link("ja/a/", "/docs/ja-en/a/", true, &id, l), Link::Remove);
        });
    }

    #[test]
    fn anchors_are_one_token() {
        assert_eq!(anchor("ja/evidence/a b.txt/"), "ja/evidence/a%20b.txt/");
        assert_eq!(anchor("ja/メモ/"), "ja/%E3%83%A1%E3%83%A2/");
        assert_eq!(anchor("100%#x"), "100%25%23x");
    }

    #[test]
    fn references_are_decoded() {
        assert_eq!(
            decode("a &amp; b &#39;c&#x27; &lt;d&gt; &copy;"),
            "a & b 'c' <d> &copy;"
        );
        assert_eq!(decode("&"), "&");
    }
}
