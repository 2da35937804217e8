//! The CommonMark spec's examples through kansoku's page pipeline (issue 40).
//!
//! Each of the 652 examples of `tests/fixtures/commonmark/spec.jsonl` (the
//! CommonMark spec 0.31.2, as pulldown-cmark 0.13.6 carries it; see that
//! directory's README for the source and licence) becomes one page whose
//! body holds it twice, in a `::: ja` and a `::: en` block, as a writer would
//! put it. `check` runs on the whole site; the examples it accepts are then
//! built, and each language's rendering is compared with the spec's HTML,
//! normalised as pulldown-cmark's own spec tests normalise it, after
//! undoing what kansoku writes differently on purpose ([`undo_theme`]).

use crate::common::SiteTest;
use std::collections::{BTreeMap, BTreeSet};

/// One example of the spec.
#[derive(serde::Deserialize)]
struct Example {
    example: usize,
    markdown: String,
    html: String,
}

fn examples() -> Vec<Example> {
    let path = crate::common::fixture("commonmark/spec.jsonl");
    let text = std::fs::read_to_string(&path).expect("the spec fixture is readable");
    text.lines()
        .map(|l| serde_json::from_str(l).expect("each line is one example"))
        .collect()
}

/// The examples whose rendering kansoku changes on purpose, each with why.
/// A difference from the spec anywhere else fails the test. None: what
/// kansoku writes differently by design (heading ids, focusable tables and
/// code blocks) is undone before comparing ([`undo_theme`]).
const DELIBERATE: &[(usize, &str)] = &[];

/// The examples `check` refuses, with the finding's code and why. A refusal
/// anywhere else fails the test.
const REFUSED: &[(usize, &str, &str)] = &[
    // A code fence or raw-text HTML block left open runs on to the end of
    // the document (CommonMark 4.5, 4.6), so it takes in the `:::` line
    // that would close the language block: E033 names it and its line.
    (126, "E033", "```, never closed"),
    (127, "E033", "`````, closed only by the next block's fence"),
    (
        137,
        "E033",
        "```, whose closing fence is indented four spaces",
    ),
    (139, "E033", "~~~~~~, whose closing line has an info string"),
    (
        173,
        "E033",
        "<style, with no </style>: it would hide the rest of the page",
    ),
    (237, "E033", "``` after a block quote, never closed"),
    // Links a page checks as any other.
    (
        484,
        "E030",
        "a link to `./target.md`, a page the site does not have",
    ),
    (
        501,
        "E030",
        "an anchor `#fragment` no heading on the page has",
    ),
];

fn page(e: &Example) -> String {
    format!(
        "+++\ntitle = {{ ja = \"例 {n}\", en = \"Example {n}\" }}\n+++\n\n::: ja\n{md}:::\n\n::: en\n{md}:::\n",
        n = e.example,
        md = e.markdown,
    )
}

fn rel(n: usize) -> String {
    format!("content/spec/e{n:03}.md")
}

/// pulldown-cmark's `html_standardize` (its `tests/lib.rs`), which its
/// spec tests compare through, and one step of the spec's own
/// `normalize.py`: a character reference in text is the character, so
/// `&quot;` (kansoku's highlighter escapes quotes in code) is `"`.
fn standardize(s: &str) -> String {
    let mut text = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find('<') {
        text.push_str(&rest[..i].replace("&quot;", "\""));
        let end = rest[i..].find('>').map_or(rest.len(), |j| i + j + 1);
        text.push_str(&rest[i..end]);
        rest = &rest[end..];
    }
    text.push_str(&rest.replace("&quot;", "\""));
    text.replace("<br>", "<br />")
        .replace("<br/>", "<br />")
        .replace("<hr>", "<hr />")
        .replace("<hr/>", "<hr />")
        .replace(">\n<", "><")
}

/// Undoes what kansoku's page writes differently from plain CommonMark
/// HTML by design: the id every heading gets, the focusable wrapper of
/// tables, and code blocks (a `pre` of class `code` that is focusable and
/// names its language in `data-lang`, highlighted in `span`s).
fn undo_theme(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(i) = rest.find('<') {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        let end = rest.find('>').map_or(rest.len(), |j| j + 1);
        let tag = &rest[..end];
        let heading = tag.len() > 3
            && tag.as_bytes()[1] == b'h'
            && tag.as_bytes()[2].is_ascii_digit()
            && tag[3..].starts_with(" id=\"");
        if heading {
            let close = tag[8..].find('"').expect("an id attribute is closed") + 8;
            out.push_str(&tag[..3]);
            out.push_str(&tag[close + 1..]);
            rest = &rest[end..];
        } else if tag == "<table tabindex=\"0\">" {
            out.push_str("<table>");
            rest = &rest[end..];
        } else if tag.starts_with("<pre class=\"code") {
            let lang = tag
                .split_once("data-lang=\"")
                .and_then(|(_, l)| l.split_once('"'))
                .map(|(l, _)| l.to_owned());
            let body_end = rest.find("</pre>").expect("a code block is closed");
            let code = &rest[end..body_end];
            let code = code
                .strip_prefix("<code>")
                .and_then(|c| c.strip_suffix("</code>"))
                .expect("a code block holds one code element");
            out.push_str("<pre><code");
            if let Some(l) = lang {
                out.push_str(&format!(" class=\"language-{l}\""));
            }
            out.push('>');
            out.push_str(&without_spans(code));
            out.push_str("</code></pre>");
            rest = &rest[body_end + "</pre>".len()..];
        } else {
            out.push_str(tag);
            rest = &rest[end..];
        }
    }
    out.push_str(rest);
    out
}

fn without_spans(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(i) = rest.find("<span").or_else(|| rest.find("</span>")) {
        let j = rest.find("</span>").map_or(i, |j| j.min(i));
        out.push_str(&rest[..j]);
        let end = rest[j..].find('>').expect("a span tag is closed") + j + 1;
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// The body of a page as built: what the page's `prose` element holds.
fn prose(html: &str) -> &str {
    let open = "<div class=\"prose\">";
    let start = html.find(open).expect("a page has a prose element") + open.len();
    let article = html.rfind("</article>").expect("a page has an article");
    let end = html[..article]
        .rfind("</div>")
        .expect("the prose element is closed");
    &html[start..end]
}

#[test]
fn commonmark_spec_examples_render_as_the_spec_says_issue_40() {
    let examples = examples();
    assert_eq!(examples.len(), 652, "the spec fixture holds 652 examples");
    let mut site = SiteTest::from_dir(&crate::common::fixture("commonmark/site"));
    for e in &examples {
        site.write(&rel(e.example), &page(e));
    }
    // Which examples check refuses, and why.
    let report = site.check();
    let mut refused: BTreeMap<usize, BTreeSet<&str>> = BTreeMap::new();
    for d in report.diagnostics.iter().filter(|d| d.is_error()) {
        let n = d
            .location
            .path
            .strip_prefix("content/spec/e")
            .and_then(|p| p.strip_suffix(".md"))
            .and_then(|p| p.parse::<usize>().ok())
            .unwrap_or_else(|| panic!("a finding outside the examples: {d:?}"));
        refused.entry(n).or_default().insert(d.code);
    }
    let expected: BTreeMap<usize, BTreeSet<&str>> = REFUSED
        .iter()
        .map(|&(n, code, _)| (n, BTreeSet::from([code])))
        .collect();
    let detail = |ns: &BTreeMap<usize, BTreeSet<&str>>| {
        let mut s = String::new();
        for d in report.diagnostics.iter().filter(|d| d.is_error()) {
            s.push_str(&format!("{d}\n"));
        }
        format!("{ns:?}\n{s}")
    };
    assert_eq!(refused, expected, "check refuses: {}", detail(&refused));
    for n in refused.keys() {
        std::fs::remove_file(site.root().join(rel(*n))).expect("a refused example is removed");
    }
    // The accepted ones, built.
    let options = kansoku::site::BuildOptions {
        search: false,
        ..Default::default()
    };
    let (files, _) = kansoku::site::build_in_memory(site.root(), &options)
        .unwrap_or_else(|e| panic!("the accepted examples build: {e}"));
    let files: BTreeMap<&str, &[u8]> = files
        .iter()
        .map(|f| (f.path.as_str(), f.bytes.as_slice()))
        .collect();
    let mut differ = BTreeMap::new();
    let mut same = 0;
    for e in examples
        .iter()
        .filter(|e| !refused.contains_key(&e.example))
    {
        let want = standardize(&e.html);
        for lang in ["ja", "en"] {
            let path = format!("{lang}/spec/e{:03}/index.html", e.example);
            let html = std::str::from_utf8(files[path.as_str()]).expect("pages are UTF-8");
            let got = standardize(&undo_theme(prose(html)));
            if got.trim() != want.trim() {
                differ.insert(e.example, (want.clone(), got));
            } else if lang == "en" {
                same += 1;
            }
        }
    }
    let deliberate: BTreeSet<usize> = DELIBERATE.iter().map(|&(n, _)| n).collect();
    let found: BTreeSet<usize> = differ.keys().copied().collect();
    let mut report = String::new();
    for (n, (want, got)) in &differ {
        report.push_str(&format!(
            "example {n}:\n  markdown: {:?}\n  spec:     {want:?}\n  kansoku:  {got:?}\n",
            examples[n - 1].markdown
        ));
    }
    assert_eq!(found, deliberate, "differ from the spec:\n{report}");
    assert_eq!(
        (examples.len() - refused.len(), same),
        (652 - REFUSED.len(), 652 - REFUSED.len() - DELIBERATE.len()),
        "accepted and rendered as the spec says"
    );
}

/// kansoku has no wikilinks: `[[…]]` other than its own references reads
/// as CommonMark reads it, and what it holds is checked like any text.
#[test]
fn brackets_other_than_kansoku_s_are_commonmark_and_checked_issue_40() {
    let mut site = SiteTest::from_dir(&crate::common::fixture("commonmark/site"));
    let body = "![[foo]] and [[bar|baz]]\n\nWow![[claim:here]]\n\n[[see [a page](missing.md)]]\n\n![[claim:nope]]\n";
    site.write(
        "content/p.md",
        &format!(
            "+++\ntitle = {{ ja = \"例\", en = \"Example\" }}\n\n[[claims]]\nid = \"here\"\nclass = \"confirmed\"\nja = \"ある。\"\nen = \"It is there.\"\nevidence = [\"e.txt#L1\"]\n+++\n\n::: ja\n{body}:::\n\n::: en\n{body}:::\n"
        ),
    );
    site.write("evidence/e.txt", "one line\n");
    let report = site.check();
    let found: Vec<(String, &str, String)> = report
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| (d.location.to_string(), d.code, d.message.clone()))
        .collect();
    assert_eq!(
        found,
        [
            (
                "content/p.md:17:7".to_owned(),
                "E030",
                "link to missing page `content/missing.md`".to_owned()
            ),
            (
                "content/p.md:19:2".to_owned(),
                "E020",
                "unknown claim `nope` in `[[claim:…]]`".to_owned()
            ),
            (
                "content/p.md:27:7".to_owned(),
                "E030",
                "link to missing page `content/missing.md`".to_owned()
            ),
            (
                "content/p.md:29:2".to_owned(),
                "E020",
                "unknown claim `nope` in `[[claim:…]]`".to_owned()
            ),
        ],
        "{report:?}"
    );
    site.edit("content/p.md", "\n\n![[claim:nope]]\n", "\n")
        .edit("content/p.md", "\n\n![[claim:nope]]\n", "\n")
        .edit("content/p.md", "(missing.md)", "(_index.md)")
        .edit("content/p.md", "(missing.md)", "(_index.md)");
    site.build();
    let html = site.main_of("en/p/index.html");
    assert!(html.contains("<p>![[foo]] and [[bar|baz]]</p>"), "{html}");
    assert!(!html.contains("<img"), "{html}");
    assert!(html.contains("<p>Wow!<span class=\"claim"), "{html}");
    assert!(
        html.contains("<p>[[see <a href=\"/en/\">a page</a>]]</p>"),
        "{html}"
    );
}

/// `spec.jsonl` is what pulldown-cmark's generated spec tests hold, for
/// the version in Cargo.lock. Ignored by default: it reads Cargo's
/// registry, found through `cargo metadata`.
#[test]
#[ignore = "reads pulldown-cmark's sources in Cargo's registry"]
fn the_spec_fixture_is_pulldown_cmark_s_issue_40() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let rustc = std::process::Command::new("rustc")
        .arg("-vV")
        .output()
        .expect("rustc runs");
    let host = String::from_utf8_lossy(&rustc.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: ").map(str::to_owned))
        .expect("rustc names its host");
    // Only this platform's packages: the others need not be downloaded.
    let out = std::process::Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--offline"])
        .args(["--filter-platform", &host])
        .current_dir(crate::common::repo_root())
        .output()
        .expect("cargo metadata runs");
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).expect("metadata is JSON");
    let manifest = meta["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .find(|p| p["name"] == "pulldown-cmark")
        .and_then(|p| p["manifest_path"].as_str())
        .expect("pulldown-cmark is a dependency");
    let suite = std::path::Path::new(manifest)
        .with_file_name("tests")
        .join("suite/spec.rs");
    let text = std::fs::read_to_string(&suite).expect("the crate carries its spec tests");
    let mut from_crate = Vec::new();
    for part in text.split("fn spec_test_").skip(1) {
        let n: usize = part[..part.find('(').expect("a test's name")]
            .parse()
            .expect("numbered");
        let raw = |after: &str| {
            let start = part.find(after).expect("the raw string") + after.len();
            let end = part[start..].find("\"##;").expect("closed") + start;
            part[start..end].to_owned()
        };
        from_crate.push((n, raw("let original = r##\""), raw("let expected = r##\"")));
    }
    let ours: Vec<(usize, String, String)> = examples()
        .into_iter()
        .map(|e| (e.example, e.markdown, e.html))
        .collect();
    assert_eq!(from_crate, ours);
}
