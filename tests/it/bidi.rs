//! Issue 39 (attacks L8): bidirectional controls (U+202A–U+202E,
//! U+2066–U+2069) in titles, leads, claim texts, entity names, answer
//! labels and glyphs are reported where they are written (W062), and every
//! output shows such a text isolated (wrapped in U+2068 … U+2069, its
//! controls balanced), so that it reorders nothing around it: not the
//! navigation, the listings, the twins' headings or `llms.txt`'s lines.

use crate::common::{SiteTest, Tree};

/// The fixture with a control in each kind of text; `\u{…}` escapes are
/// TOML's, so the files hold the characters themselves.
fn site() -> SiteTest {
    let mut t = SiteTest::from_fixture("basic");
    t.edit(
        "content/notes/page.md",
        "en = \"Observation Page\"",
        "en = \"fake \\u202Egnp.exe\"",
    )
    .edit(
        "content/notes/page.md",
        "en = \"All four evidence classes at once.\"",
        "en = \"All four \\u2067classes\"",
    )
    .edit(
        "content/notes/page.md",
        "en = \"Toy Runner\"",
        "en = \"Toy \\u202BRunner\\u202C\"",
    )
    .edit(
        "content/notes/page.md",
        "en = \"The runner started with one thread.\"",
        "en = \"The runner started with \\u202Done thread.\"\nabout = \"toy-runner\"\naspect = \"ran\"\nanswer = \"yes\"",
    )
    .edit(
        "book.toml",
        "[kinds]",
        "[aspects.ran]\nquestion = { ja = \"走ったか\", en = \"Ran?\" }\nanswers = [\n  { key = \"yes\", glyph = \"\\u2066✓\", label = { ja = \"はい\", en = \"Y\\u202Ees\" }, kind = \"yes\" },\n]\n\n[kinds]",
    );
    t
}

const HINT: &str = "delete it (most editors do not show it); kansoku shows this text isolated, so it reorders nothing around it, but within the text it still does";

#[test]
fn a_bidi_control_in_a_text_is_reported_where_it_is_written_issue_39() {
    let t = site();
    let report = t.check();
    let found: Vec<(String, String, String)> = report
        .diagnostics
        .iter()
        .filter(|d| d.code == "W062")
        .map(|d| {
            (
                d.location.to_string(),
                d.message.clone(),
                d.hint.clone().unwrap_or_default(),
            )
        })
        .collect();
    let w = |at: &str, msg: &str| (at.to_owned(), msg.to_owned(), HINT.to_owned());
    assert_eq!(
        found,
        [
            w("book.toml:19:3", "the `glyph` of `aspects.ran.answers[0]` holds U+2066 LEFT-TO-RIGHT ISOLATE, a bidirectional control that makes text read in another order"),
            w("book.toml:19:45", "the `en` text of `aspects.ran.answers[0].label` holds U+202E RIGHT-TO-LEFT OVERRIDE, a bidirectional control that makes text read in another order"),
            w("content/notes/page.md:2:9", "the `en` text of `title` holds U+202E RIGHT-TO-LEFT OVERRIDE, a bidirectional control that makes text read in another order"),
            w("content/notes/page.md:3:8", "the `en` text of `lead` holds U+2067 RIGHT-TO-LEFT ISOLATE, a bidirectional control that makes text read in another order"),
            w("content/notes/page.md:10:8", "the `en` text of `entity.name` holds U+202B RIGHT-TO-LEFT EMBEDDING, a bidirectional control that makes text read in another order"),
            w("content/notes/page.md:17:6", "the `en` text of claim `runner-started` holds U+202D LEFT-TO-RIGHT OVERRIDE, a bidirectional control that makes text read in another order"),
        ]
    );
}

#[test]
fn a_text_with_bidi_controls_is_isolated_in_every_output_issue_39() {
    let mut t = site();
    t.build();
    let title = "\u{2068}fake \u{202e}gnp.exe\u{202c}\u{2069}";
    // Where the title is composed into other text.
    for (file, wanted) in [
        ("en/notes/index.html", title),
        ("en/notes/page/index.html", title),
        ("en/notes/page/index.md", &format!("# {title}")),
        ("en/llms.txt", &format!("[{title}]")),
        (
            "claims.json",
            "\u{2068}The runner started with \u{202d}one thread.\u{202c}\u{2069}",
        ),
        (
            "en/notes/page/index.html",
            "\u{2068}Y\u{202e}es\u{202c}\u{2069}",
        ),
        (
            "en/notes/page/index.html",
            "\u{2068}\u{2066}✓\u{2069}\u{2069}",
        ),
    ] {
        let text = t.read(file);
        assert!(text.contains(wanted), "{file} lacks {wanted:?}");
    }
    // Nowhere is a control outside an isolate: each output line's
    // isolates are balanced and every control is inside one.
    for (path, bytes) in Tree::of(&t.out()).0 {
        let Ok(text) = String::from_utf8(bytes) else {
            continue;
        };
        for line in text.lines() {
            let mut depth = 0i32;
            for c in line.chars() {
                match c {
                    '\u{2066}'..='\u{2068}' => depth += 1,
                    '\u{2069}' => depth -= 1,
                    '\u{202a}'..='\u{202e}' => {
                        assert!(depth > 0, "{path}: a control outside an isolate: {line:?}")
                    }
                    _ => {}
                }
                assert!(depth >= 0, "{path}: an isolate closed twice: {line:?}");
            }
            assert_eq!(depth, 0, "{path}: an isolate left open: {line:?}");
        }
    }
}
