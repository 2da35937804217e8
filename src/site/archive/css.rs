//! The CSS of a page in the archive, with the page's ids made the
//! archive's: an id selector (`#L7:target`) and a fragment reference
//! (`url(#marker)`) name the id with the page's path in front.
//!
//! A small scanner, not a CSS parser: it tells selectors from declaration
//! blocks (a `#` in a declaration is a colour, not an id), skips strings
//! and comments, and leaves everything else byte for byte.

/// `css` as it may sit in a `<style>` element: an end tag in it
/// (`</style`, in any case, in a site's own stylesheet or in a comment)
/// would end the element and let what follows be read as HTML. Written
/// `<\/style`, which CSS reads as the same text in a string and as no
/// rule elsewhere.
pub(super) fn inline(css: &str) -> std::borrow::Cow<'_, str> {
    const END: &[u8] = b"</style";
    let b = css.as_bytes();
    let ends = |i: usize| b.len() >= i + END.len() && b[i..i + END.len()].eq_ignore_ascii_case(END);
    if !(0..b.len()).any(ends) {
        return std::borrow::Cow::Borrowed(css);
    }
    let mut out = String::with_capacity(css.len() + 8);
    let mut last = 0;
    for i in (0..b.len()).filter(|&i| ends(i)) {
        out.push_str(&css[last..=i]);
        out.push('\\');
        last = i + 1;
    }
    out.push_str(&css[last..]);
    std::borrow::Cow::Owned(out)
}

/// `css` with every id selector and `url(#…)` naming `id(name)`.
pub(super) fn rewrite(css: &str, id: &dyn Fn(&str) -> String) -> String {
    /// What a block holds.
    #[derive(Clone, Copy, PartialEq)]
    enum Block {
        /// Rules, each a prelude and a block (the sheet, `@media`).
        Rules,
        /// Declarations (and, with nesting, rules).
        Declarations,
    }
    let mut out = String::with_capacity(css.len() + css.len() / 4);
    let mut stack = vec![Block::Rules];
    let mut start = 0;
    let mut i = 0;
    let b = css.as_bytes();
    while i < b.len() {
        match b[i] {
            b'"' | b'\'' => i = skip_string(b, i),
            b'/' if b.get(i + 1) == Some(&b'*') => i = skip_comment(b, i),
            b'{' => {
                let prelude = &css[start..i];
                let inner = prelude.trim_start();
                let opens = if let Some(at) = inner.strip_prefix('@') {
                    out.push_str(prelude);
                    let name: String = at
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                        .collect::<String>()
                        .to_ascii_lowercase();
                    let grouping = [
                        "media",
                        "supports",
                        "layer",
                        "container",
                        "document",
                        "-moz-document",
                        "scope",
                        "starting-style",
                        "keyframes",
                        "-webkit-keyframes",
                    ];
                    if grouping.contains(&name.as_str()) {
                        Block::Rules
                    } else {
                        Block::Declarations
                    }
                } else {
                    out.push_str(&selectors(prelude, id));
                    Block::Declarations
                };
                out.push('{');
                stack.push(opens);
                i += 1;
                start = i;
            }
            b'}' | b';' => {
                let text = &css[start..i];
                match stack.last() {
                    Some(Block::Declarations) => out.push_str(&rewrite_urls(text, id)),
                    _ => out.push_str(text),
                }
                out.push(b[i] as char);
                if b[i] == b'}' && stack.len() > 1 {
                    stack.pop();
                }
                i += 1;
                start = i;
            }
            _ => i += 1,
        }
    }
    let rest = &css[start..];
    match stack.last() {
        Some(Block::Declarations) => out.push_str(&rewrite_urls(rest, id)),
        _ => out.push_str(rest),
    }
    out
}

/// A selector list with each `#name` naming `id(name)` instead.
fn selectors(sel: &str, id: &dyn Fn(&str) -> String) -> String {
    let b = sel.as_bytes();
    let mut out = String::with_capacity(sel.len() * 2);
    let mut last = 0;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' | b'\'' => i = skip_string(b, i),
            b'/' if b.get(i + 1) == Some(&b'*') => i = skip_comment(b, i),
            b'#' => {
                let (name, end) = ident(sel, i + 1);
                if name.is_empty() {
                    i += 1;
                    continue;
                }
                out.push_str(&sel[last..i]);
                out.push('#');
                out.push_str(&escape_ident(&id(&name)));
                i = end;
                last = end;
            }
            _ => i += 1,
        }
    }
    out.push_str(&sel[last..]);
    out
}

/// Text (declarations, an SVG attribute) with each `url(#name)` naming
/// `id(name)` instead; other URLs are left as they are.
pub(super) fn rewrite_urls(text: &str, id: &dyn Fn(&str) -> String) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len() + 32);
    let mut last = 0;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' | b'\'' => i = skip_string(b, i),
            b'/' if b.get(i + 1) == Some(&b'*') => i = skip_comment(b, i),
            b'u' | b'U' if text[i..].len() >= 4 && text[i..i + 4].eq_ignore_ascii_case("url(") => {
                let open = i + 4;
                let Some(close) = text[open..].find(')').map(|c| open + c) else {
                    break;
                };
                let arg = text[open..close].trim();
                let arg = arg
                    .strip_prefix('"')
                    .and_then(|a| a.strip_suffix('"'))
                    .or_else(|| arg.strip_prefix('\'').and_then(|a| a.strip_suffix('\'')))
                    .unwrap_or(arg);
                if let Some(name) = arg.strip_prefix('#') {
                    out.push_str(&text[last..i]);
                    let to = id(name);
                    // The ids are percent-encoded: nothing in them needs
                    // quoting but parentheses.
                    if to.contains(['(', ')']) {
                        out.push_str(&format!("url(\"#{to}\")"));
                    } else {
                        out.push_str(&format!("url(#{to})"));
                    }
                    last = close + 1;
                }
                i = close + 1;
            }
            _ => i += 1,
        }
    }
    out.push_str(&text[last..]);
    out
}

/// The identifier starting at byte `from`, unescaped, and where it ends.
fn ident(s: &str, from: usize) -> (String, usize) {
    let mut name = String::new();
    let mut chars = s[from..].char_indices().peekable();
    let mut end = from;
    while let Some(&(at, c)) = chars.peek() {
        if c.is_ascii_alphanumeric() || c == '-' || c == '_' || !c.is_ascii() {
            name.push(c);
            chars.next();
            end = from + at + c.len_utf8();
        } else if c == '\\' {
            chars.next();
            let mut hex = String::new();
            while let Some(&(_, h)) = chars.peek() {
                if h.is_ascii_hexdigit() && hex.len() < 6 {
                    hex.push(h);
                    chars.next();
                } else {
                    break;
                }
            }
            if hex.is_empty() {
                match chars.next() {
                    Some((a, e)) => {
                        name.push(e);
                        end = from + a + e.len_utf8();
                    }
                    None => break,
                }
            } else {
                name.extend(u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32));
                end = from + chars.peek().map_or(s.len() - from, |&(a, _)| a);
                // One white space ends a hex escape.
                if let Some(&(a, ' ' | '\t' | '\n')) = chars.peek() {
                    chars.next();
                    end = from + a + 1;
                }
            }
        } else {
            break;
        }
    }
    (name, end)
}

/// An identifier as CSS writes it: what is not a name character escaped,
/// a leading digit as a code point, so the selector keeps the specificity
/// of an id.
fn escape_ident(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 8);
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_digit() && i == 0 {
            out.push_str(&format!("\\{:x} ", c as u32));
        } else if c.is_ascii_alphanumeric() || c == '-' || c == '_' || !c.is_ascii() {
            out.push(c);
        } else if c.is_ascii_control() {
            out.push_str(&format!("\\{:x} ", c as u32));
        } else {
            out.push('\\');
            out.push(c);
        }
    }
    out
}

/// Past the string starting at `i` (its quote).
fn skip_string(b: &[u8], i: usize) -> usize {
    let quote = b[i];
    let mut j = i + 1;
    while j < b.len() {
        match b[j] {
            b'\\' => j += 2,
            c if c == quote => return j + 1,
            _ => j += 1,
        }
    }
    b.len()
}

/// Past the comment starting at `i`.
fn skip_comment(b: &[u8], i: usize) -> usize {
    match b[i + 2..].windows(2).position(|w| w == b"*/") {
        Some(p) => i + 2 + p + 2,
        None => b.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_end_tag_in_inlined_css_is_escaped_in_any_case() {
        assert_eq!(inline("a{b:c}"), "a{b:c}");
        assert_eq!(
            inline("/* </style><meta> */ p::after{content:\"</STYLE\"}"),
            "/* <\\/style><meta> */ p::after{content:\"<\\/STYLE\"}"
        );
        assert_eq!(inline("</style</sTyLe"), "<\\/style<\\/sTyLe");
        assert_eq!(inline("x</styl"), "x</styl");
    }

    fn id(name: &str) -> String {
        format!("ja/e/run.log/{name}")
    }

    #[test]
    fn id_selectors_and_fragment_urls_carry_the_page() {
        let css =
            ".ev-lines:has(#L1-L2:target) > .ev-line:nth-child(n+1){--line-bg:var(--hl-bg)}\n";
        assert_eq!(
            rewrite(css, &id),
            ".ev-lines:has(#ja\\/e\\/run\\.log\\/L1-L2:target) > .ev-line:nth-child(n+1){--line-bg:var(--hl-bg)}\n"
        );
        let css = "@media (min-width: 1px) { #a, .b #c { fill: #fff; marker-end: url(#m); background: url(x.png) } }";
        assert_eq!(
            rewrite(css, &id),
            "@media (min-width: 1px) { #ja\\/e\\/run\\.log\\/a, .b #ja\\/e\\/run\\.log\\/c { fill: #fff; marker-end: url(#ja/e/run.log/m); background: url(x.png) } }"
        );
    }

    #[test]
    fn strings_comments_and_escapes() {
        let css = "a[href=\"#x\"] /* #y */ { content: \"#z\" }";
        assert_eq!(rewrite(css, &id), css);
        assert_eq!(
            rewrite("#a\\.b, #\\31 x {}", &id),
            "#ja\\/e\\/run\\.log\\/a\\.b, #ja\\/e\\/run\\.log\\/1x {}"
        );
        assert_eq!(escape_ident("1a/b"), "\\31 a\\/b");
        assert_eq!(
            rewrite_urls("url('#m') url( #n )", &id),
            "url(#ja/e/run.log/m) url(#ja/e/run.log/n)"
        );
    }
}
