//! Code and log highlighting with syntect, emitting short CSS classes.
//!
//! The syntax sets and themes are loaded at most once per [`Highlighter`]
//! (and only if a page has a code block); colours live in the generated
//! stylesheet, with a light and a dark theme, so the HTML carries no inline
//! styles. Each run of text gets the classes of its resolved colour and
//! font style in each theme (`l3 d5`, see `Palette`), not syntect's
//! scope names: a three-line shell block took 2.1 KB as `hl-meta
//! hl-function-call hl-shell` spans and is rendered on every page of a
//! site that shows it.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};
use syntect::highlighting::{Color, FontStyle, Style, Theme, ThemeSet};
use syntect::parsing::{
    ParseState, Scope, ScopeStack, SyntaxDefinition, SyntaxReference, SyntaxSet, SyntaxSetBuilder,
};
use syntect::util::LinesWithEndings;

const LIGHT_THEME: &str = "InspiredGitHub";
const DARK_THEME: &str = "base16-ocean.dark";
/// syntect ships no grammar for logs; this one marks levels, numbers,
/// addresses, paths and quoted strings, which is what readers scan for.
const LOG_SYNTAX: &str = include_str!("log.sublime-syntax");

/// Highlights fenced code (each block is a focusable `<pre>`: wide code
/// scrolls sideways, and keyboard users must be able to scroll it too);
/// cheap to create, loads syntaxes and themes once per process, on first use.
#[derive(Default)]
pub struct Highlighter {
    /// Every block renders in the ja, en and parallel trees: highlight it
    /// once. Keyed by (language token, code).
    cache: Mutex<HashMap<(String, String), String>>,
}

impl std::fmt::Debug for Highlighter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Highlighter").finish_non_exhaustive()
    }
}

impl Highlighter {
    // The grammars and themes are the same for every build: loaded once
    // per process, not once per renderer (serve and the test suite make
    // a renderer for every full build).
    fn defaults(&self) -> &'static SyntaxSet {
        static DEFAULTS: OnceLock<SyntaxSet> = OnceLock::new();
        DEFAULTS.get_or_init(SyntaxSet::load_defaults_newlines)
    }

    fn log(&self) -> &'static SyntaxSet {
        static LOG: OnceLock<SyntaxSet> = OnceLock::new();
        LOG.get_or_init(|| {
            let mut b = SyntaxSetBuilder::new();
            // The grammar is compiled into the binary and covered by a test,
            // so failing to load it is a build defect, not a user error.
            let def = SyntaxDefinition::load_from_str(LOG_SYNTAX, true, None)
                .expect("embedded log grammar is valid (tested)");
            b.add(def);
            b.build()
        })
    }

    /// Highlights `code` written in `token` (`rust`, `sh`, `log`, …) into a
    /// `<pre>` block. Unknown languages are escaped without colour.
    pub fn highlight(&self, token: &str, code: &str) -> String {
        let key = (token.to_owned(), code.to_owned());
        if let Some(hit) = crate::sync::lock(&self.cache).get(&key) {
            return hit.clone();
        }
        let html = self.highlight_uncached(token, code);
        crate::sync::lock(&self.cache).insert(key, html.clone());
        html
    }

    fn highlight_uncached(&self, token: &str, code: &str) -> String {
        let token = token.split([' ', ',', '{']).next().unwrap_or("").trim();
        let (set, syntax) = if matches!(token, "log" | "logs" | "console-log") {
            let set = self.log();
            (set, set.syntaxes().first())
        } else if token.is_empty() || token == "text" || token == "txt" {
            (self.defaults(), None)
        } else {
            let set = self.defaults();
            (set, set.find_syntax_by_token(token))
        };
        let lang_attr = if token.is_empty() {
            String::new()
        } else {
            format!(" data-lang=\"{}\"", escape(token))
        };
        let Some(syntax) = syntax else {
            return format!(
                "<pre class=\"code\" tabindex=\"0\"{lang_attr}><code>{}</code></pre>\n",
                escape(code)
            );
        };
        match self.classed(syntax, set, code) {
            Some(html) => format!(
                "<pre class=\"code hl-code\" tabindex=\"0\"{lang_attr}><code>{html}</code></pre>\n"
            ),
            None => format!(
                "<pre class=\"code\" tabindex=\"0\"{lang_attr}><code>{}</code></pre>\n",
                escape(code)
            ),
        }
    }

    /// `code` as HTML: each run of text whose resolved style differs from
    /// the themes' defaults in a `<span>` with that style's classes, runs
    /// of the same classes merged. `None` if the grammar fails on it.
    fn classed(&self, syntax: &SyntaxReference, set: &SyntaxSet, code: &str) -> Option<String> {
        let palettes = themes();
        let hls = palettes
            .each_ref()
            .map(|p| syntect::highlighting::Highlighter::new(&p.theme));
        // Style lookups are costly (syntect says to cache them); a block
        // repeats few distinct scope stacks.
        let mut memo: HashMap<Vec<Scope>, String> = HashMap::new();
        let mut classes_of = |stack: &[Scope]| -> String {
            memo.entry(stack.to_vec())
                .or_insert_with(|| {
                    let mut c = String::new();
                    for (i, (p, hl)) in palettes.iter().zip(&hls).enumerate() {
                        p.classes(i, hl.style_for_stack(stack), &mut c);
                    }
                    c
                })
                .clone()
        };
        let mut out = String::with_capacity(code.len() * 2);
        let mut open = String::new();
        let mut push = |text: &str, classes: String, out: &mut String| {
            if text.is_empty() {
                return;
            }
            if classes != open {
                if !open.is_empty() {
                    out.push_str("</span>");
                }
                if !classes.is_empty() {
                    out.push_str("<span class=\"");
                    out.push_str(&classes);
                    out.push_str("\">");
                }
                open = classes;
            }
            out.push_str(&escape(text));
        };
        let mut state = ParseState::new(syntax);
        let mut stack = ScopeStack::new();
        for line in LinesWithEndings::from(code) {
            let ops = state.parse_line(line, set).ok()?;
            let mut last = 0;
            for (at, op) in ops {
                push(&line[last..at], classes_of(stack.as_slice()), &mut out);
                last = at;
                stack.apply(&op).ok()?;
            }
            push(&line[last..], classes_of(stack.as_slice()), &mut out);
        }
        if !open.is_empty() {
            out.push_str("</span>");
        }
        Some(out)
    }
}

/// One theme's colours, numbered: a run's class names its resolved
/// colour by number (`l3`: the light theme's fourth colour) and its font
/// style by letter (`lb`, `li`, `lu`). Numbered in the theme's own order,
/// so classes and stylesheet agree in every build.
struct Palette {
    theme: Theme,
    colours: Vec<Color>,
    default: Style,
}

impl Palette {
    fn new(theme: Theme) -> Palette {
        let default = syntect::highlighting::Highlighter::new(&theme).get_default();
        let mut colours = Vec::new();
        let items = theme
            .scopes
            .iter()
            .flat_map(|i| [i.style.foreground, i.style.background]);
        for c in [theme.settings.foreground, theme.settings.background]
            .into_iter()
            .chain(items)
            .flatten()
        {
            if !colours.contains(&c) {
                colours.push(c);
            }
        }
        Palette {
            theme,
            colours,
            default,
        }
    }

    /// Appends the classes of `style` in theme `i` (0 light, 1 dark) that
    /// differ from the default style.
    fn classes(&self, i: usize, style: Style, out: &mut String) {
        let p = PREFIX[i];
        let mut class = |name: std::fmt::Arguments<'_>| {
            if !out.is_empty() {
                out.push(' ');
            }
            std::fmt::Write::write_fmt(out, name).expect("writing to a String cannot fail");
        };
        if style.foreground != self.default.foreground {
            if let Some(n) = self.colours.iter().position(|&c| c == style.foreground) {
                class(format_args!("{p}{n}"));
            }
        }
        if style.background != self.default.background {
            if let Some(n) = self.colours.iter().position(|&c| c == style.background) {
                class(format_args!("{p}g{n}"));
            }
        }
        for (flag, letter) in FONT {
            if style.font_style.contains(flag) {
                class(format_args!("{p}{letter}"));
            }
        }
    }

    /// The rules for this theme's classes under `.hl-code`.
    fn css(&self, i: usize, out: &mut String) {
        let p = PREFIX[i];
        out.push_str(&format!(
            ".hl-code {{ color: {}; background-color: {}; }}\n",
            hex(self.default.foreground),
            hex(self.default.background)
        ));
        for (n, &c) in self.colours.iter().enumerate() {
            out.push_str(&format!(".hl-code .{p}{n} {{ color: {}; }}\n", hex(c)));
            out.push_str(&format!(
                ".hl-code .{p}g{n} {{ background-color: {}; }}\n",
                hex(c)
            ));
        }
        out.push_str(&format!(
            ".hl-code .{p}b {{ font-weight: bold; }}\n.hl-code .{p}i {{ font-style: italic; }}\n.hl-code .{p}u {{ text-decoration: underline; }}\n"
        ));
    }
}

const PREFIX: [&str; 2] = ["l", "d"];
const FONT: [(FontStyle, char); 3] = [
    (FontStyle::BOLD, 'b'),
    (FontStyle::ITALIC, 'i'),
    (FontStyle::UNDERLINE, 'u'),
];

fn hex(c: Color) -> String {
    if c.a == 0xff {
        format!("#{:02x}{:02x}{:02x}", c.r, c.g, c.b)
    } else {
        format!("#{:02x}{:02x}{:02x}{:02x}", c.r, c.g, c.b, c.a)
    }
}

/// The light and dark palettes. Both themes ship with syntect.
fn themes() -> &'static [Palette; 2] {
    static THEMES: OnceLock<[Palette; 2]> = OnceLock::new();
    THEMES.get_or_init(|| {
        let mut set = ThemeSet::load_defaults();
        [LIGHT_THEME, DARK_THEME].map(|name| {
            Palette::new(
                set.themes
                    .remove(name)
                    .expect("syntect's default theme set holds both themes"),
            )
        })
    })
}

/// The stylesheet for highlighted code: light theme, then dark under
/// `prefers-color-scheme: dark`, where the light theme's classes are
/// first undone (a run may have a light class and no dark one).
pub(crate) fn stylesheet() -> &'static str {
    static CSS: OnceLock<String> = OnceLock::new();
    CSS.get_or_init(make_stylesheet)
}

fn make_stylesheet() -> String {
    let palettes = themes();
    let mut css = String::from("/* generated by kansoku from syntect themes */\n");
    palettes[0].css(0, &mut css);
    css.push_str("@media (prefers-color-scheme: dark) {\n");
    css.push_str(".hl-code [class] { color: inherit; background-color: transparent; font-weight: inherit; font-style: inherit; text-decoration: inherit; }\n");
    palettes[1].css(1, &mut css);
    css.push_str("}\n");
    css
}

/// Escapes text for HTML element content and attribute values.
pub(crate) fn escape(s: &str) -> String {
    // Every value a template prints comes through here, and most of it
    // has nothing to escape: memchr finds the special bytes (`&<>` and
    // `"'`, two searches each remembering its next hit) and the runs
    // between them are copied whole, where a loop over every byte was
    // a twentieth of a render's time in a test build.
    let bytes = s.as_bytes();
    let three = |from: usize| {
        memchr::memchr3(b'&', b'<', b'>', &bytes[from..]).map_or(bytes.len(), |i| from + i)
    };
    let two = |from: usize| {
        memchr::memchr2(b'"', b'\'', &bytes[from..]).map_or(bytes.len(), |i| from + i)
    };
    let mut out = String::with_capacity(s.len() + s.len() / 8);
    let (mut next3, mut next2) = (three(0), two(0));
    let mut last = 0;
    while next3.min(next2) < bytes.len() {
        let i = next3.min(next2);
        let rep = match bytes[i] {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'"' => "&quot;",
            _ => "&#39;",
        };
        out.push_str(&s[last..i]);
        out.push_str(rep);
        last = i + 1;
        if i == next3 {
            next3 = three(last);
        } else {
            next2 = two(last);
        }
    }
    out.push_str(&s[last..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_replaces_the_five_special_bytes_and_keeps_the_rest() {
        assert_eq!(escape(""), "");
        assert_eq!(escape("plain 観測 text"), "plain 観測 text");
        assert_eq!(
            escape("<a href=\"x?a=1&b='2'\">観</a>"),
            "&lt;a href=&quot;x?a=1&amp;b=&#39;2&#39;&quot;&gt;観&lt;/a&gt;"
        );
        assert_eq!(
            escape("''\"\"&&<<>>"),
            "&#39;&#39;&quot;&quot;&amp;&amp;&lt;&lt;&gt;&gt;"
        );
        assert_eq!(escape("'<"), "&#39;&lt;");
        assert_eq!(escape("<'"), "&lt;&#39;");
    }

    proptest::proptest! {
        /// The memchr search gives what replacing char by char gives.
        #[test]
        fn escape_equals_replacing_char_by_char(s in "[<>&\"'a観\\n ]{0,40}|\\PC{0,40}") {
            let want: String = s.chars().map(|c| match c {
                '&' => "&amp;".to_owned(),
                '<' => "&lt;".to_owned(),
                '>' => "&gt;".to_owned(),
                '"' => "&quot;".to_owned(),
                '\'' => "&#39;".to_owned(),
                c => c.to_string(),
            }).collect();
            proptest::prop_assert_eq!(escape(&s), want);
        }
    }

    #[test]
    fn log_grammar_loads_and_marks_levels() {
        let h = Highlighter::default();
        let html = h.highlight("log", "ERROR failed at 0x7f00\n");
        assert!(html.contains("<span class=\"l"), "{html}");
        assert!(html.contains("ERROR"));
    }

    #[test]
    fn unknown_language_is_escaped() {
        let h = Highlighter::default();
        assert_eq!(
            h.highlight("nosuch", "<b>\n"),
            "<pre class=\"code\" tabindex=\"0\" data-lang=\"nosuch\"><code>&lt;b&gt;\n</code></pre>\n"
        );
    }

    #[test]
    fn stylesheet_has_both_themes() {
        let css = stylesheet();
        assert!(css.contains(".hl-code"));
        assert!(css.contains("prefers-color-scheme: dark"));
    }
}
