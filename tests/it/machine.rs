//! The record for machine readers (issue 28): each page's Markdown twin
//! (`index.md` beside its `index.html`), `llms.txt` and `llms-full.txt`,
//! their `book.toml` switches, and `serve` giving the same bytes as a
//! build. Claims are taken from `claims.json`, pages from the output
//! tree: nothing here names the record's own wording.

use crate::common;

use common::{ftl, repo_built, SiteTest};
use std::collections::BTreeSet;
use std::time::Duration;

/// Every HTML page of a language tree, as its output directory
/// (`en/components/rocblas/`), the search bundle left out.
fn html_pages(t: &SiteTest, lang: &str) -> Vec<String> {
    t.tree()
        .paths()
        .into_iter()
        .filter(|p| p.starts_with(&format!("{lang}/")) && p.ends_with("/index.html"))
        .filter(|p| !p.contains("/pagefind/"))
        .map(|p| p.trim_end_matches("index.html").to_owned())
        .collect()
}

/// The Markdown links of a text: `[label](target)`, targets only.
fn md_links(text: &str) -> Vec<&str> {
    text.match_indices("](")
        .filter_map(|(i, m)| {
            let rest = &text[i + m.len()..];
            Some(&rest[..rest.find(')')?])
        })
        .collect()
}

/// Where a site-absolute address lands in the output: the file, and the
/// fragment if any (percent-decoded as a browser decodes it).
fn target(href: &str) -> (String, Option<String>) {
    let (path, frag) = match href.split_once('#') {
        Some((p, f)) => (p, Some(f)),
        None => (href, None),
    };
    let path = path.trim_start_matches('/');
    let file = if path.is_empty() || path.ends_with('/') {
        format!("{path}index.html")
    } else {
        path.to_owned()
    };
    let frag = frag.map(|f| {
        let bytes = f.as_bytes();
        let hex = |b: u8| char::from(b).to_digit(16);
        let mut out = Vec::new();
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i] == b'%' && i + 2 < bytes.len() {
                if let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                    out.push(u8::try_from(h * 16 + l).expect("two hex digits make a byte"));
                    i += 3;
                    continue;
                }
            }
            out.push(bytes[i]);
            i += 1;
        }
        String::from_utf8(out).expect("fragments are UTF-8")
    });
    (file, frag)
}

/// The aspects `book.toml` declares as the record's framing: their
/// claims say "per record" instead of a class.
fn framing_aspects(t: &SiteTest) -> BTreeSet<String> {
    let book: toml::Table =
        toml::from_str(&std::fs::read_to_string(t.root().join("book.toml")).expect("book.toml"))
            .expect("book.toml parses");
    book.get("aspects")
        .and_then(toml::Value::as_table)
        .map(|aspects| {
            aspects
                .iter()
                .filter(|(_, a)| a.get("framing").and_then(toml::Value::as_bool) == Some(true))
                .map(|(name, _)| name.clone())
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn every_page_of_this_site_has_its_twin_with_every_claim_of_the_page() {
    let t = repo_built();
    for lang in ["ja", "en"] {
        let pages = html_pages(t, lang);
        assert!(pages.len() > 20, "{lang}: {pages:?}");
        for dir in &pages {
            let twin = format!("{dir}index.md");
            assert!(t.exists(&twin), "{dir}index.html has no twin");
            let html = t.read(&format!("{dir}index.html"));
            let link = format!("<link rel=\"alternate\" type=\"text/markdown\" href=\"/{twin}\">");
            assert!(html.contains(&link), "{dir}index.html does not link {twin}");
            assert!(t.read(&twin).starts_with("# "), "{twin} has no title");
        }
    }
    // The parallel view links both twins.
    let parallel = t.read("ja-en/index.html");
    for lang in ["ja", "en"] {
        assert!(parallel.contains(&format!(
            "<link rel=\"alternate\" type=\"text/markdown\" hreflang=\"{lang}\" href=\"/{lang}/index.md\">"
        )));
    }
    assert!(
        !t.read("index.html").contains("text/markdown"),
        "the chooser has no twin"
    );

    let claims: serde_json::Value =
        serde_json::from_str(&t.read("claims.json")).expect("claims.json parses");
    let claims = claims["claims"].as_array().expect("a list of claims");
    assert!(claims.len() > 100);
    let framing = framing_aspects(t);
    for c in claims {
        let id = c["id"].as_str().expect("id");
        let class = c["class"].as_str().expect("class");
        for lang in ["ja", "en"] {
            let url = c["url"][lang].as_str().expect("url");
            let (page, _) = url.split_once('#').expect("a claim's url has its anchor");
            let twin = t.read(&format!("{}index.md", page.trim_start_matches('/')));
            let prefix = format!("- `{id}` · ");
            let line = twin
                .lines()
                .find(|l| l.starts_with(&prefix))
                .unwrap_or_else(|| panic!("{page}index.md has no line for {id}:\n{twin}"));
            let certainty = if c["aspect"].as_str().is_some_and(|a| framing.contains(a)) {
                ftl(lang, "framing-label", None)
            } else {
                ftl(lang, &format!("class-{class}"), None)
            };
            assert!(
                line.contains(&format!("**{certainty}")),
                "{lang} {id}: no class {certainty:?} in {line}"
            );
            if let Some(label) = c["answer"]["label"][lang].as_str() {
                assert!(
                    line.contains(label),
                    "{lang} {id}: no answer {label:?} in {line}"
                );
            }
            for e in c["evidence"].as_array().expect("evidence") {
                let href = e["url"][lang].as_str().expect("evidence url");
                // `site-url` is `/`: addresses are root-relative.
                assert!(
                    line.contains(&format!("]({href})")),
                    "{lang} {id}: no link to {href} in {line}"
                );
            }
        }
    }
}

#[test]
fn every_link_in_a_twin_or_llms_file_lands() {
    let t = repo_built();
    let tree = t.tree();
    let mut checked = 0;
    for (path, bytes) in &tree.0 {
        if !(path.ends_with("index.md")
            || path.ends_with("llms.txt")
            || path.ends_with("llms-full.txt"))
        {
            continue;
        }
        let text = String::from_utf8(bytes.clone()).expect("UTF-8");
        for href in md_links(&text) {
            if !href.starts_with('/') {
                continue;
            }
            let (file, frag) = target(href);
            assert!(t.exists(&file), "{path}: {href} -> missing {file}");
            if let Some(frag) = frag {
                assert!(
                    file.ends_with(".html"),
                    "{path}: {href}: an anchor in Markdown, where nothing has ids"
                );
                assert!(
                    t.read(&file).contains(&format!(" id=\"{frag}\"")),
                    "{path}: {href}: no id {frag} in {file}"
                );
            }
            checked += 1;
        }
    }
    assert!(checked > 1000, "{checked} links");
}

/// The link targets of an `llms.txt`'s list entries, in the file's
/// order, under every H2 section but `Optional`.
fn llms_entries(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut section = "";
    for line in text.lines() {
        if let Some(h) = line.strip_prefix("## ") {
            section = h;
        } else if let Some(entry) = line.strip_prefix("- [").filter(|_| section != "Optional") {
            let target = md_links(entry)
                .first()
                .unwrap_or_else(|| panic!("an entry without a link: {line}"))
                .to_string();
            out.push(target);
        }
    }
    out
}

#[test]
fn llms_txt_lists_every_page_exactly_once() {
    let t = repo_built();
    let root = t.read("llms.txt");
    assert!(root.starts_with("# "), "{root}");
    assert!(root.contains("\n> "), "a summary blockquote: {root}");
    for lang in ["ja", "en"] {
        assert!(root.contains(&format!("](/{lang}/llms.txt): ")), "{root}");
        assert!(
            root.contains(&format!("](/{lang}/llms-full.txt): ")),
            "{root}"
        );
        let text = t.read(&format!("{lang}/llms.txt"));
        let mut lines = text.lines();
        assert!(lines.next().is_some_and(|l| l.starts_with("# ")), "{text}");
        assert_eq!(lines.next(), Some(""));
        assert!(lines.next().is_some_and(|l| l.starts_with("> ")), "{text}");
        for class in ["confirmed", "inferred", "unresolved", "limited"] {
            let word = ftl(lang, &format!("class-{class}"), None);
            assert!(text.contains(&format!("- **{word}**: ")), "{lang}: {word}");
        }
        let listed = llms_entries(&text);
        let mut want: Vec<String> = html_pages(t, lang)
            .into_iter()
            // A section's further listing pages and the evidence index
            // are lists of pages, not pages.
            .filter(|d| !d.contains("/page/") && d != &format!("{lang}/evidence/"))
            .map(|d| format!("/{d}index.md"))
            .collect();
        want.sort();
        let mut got = listed.clone();
        got.sort();
        assert_eq!(got, want, "{lang}/llms.txt lists each page once");
        let unique: BTreeSet<&String> = listed.iter().collect();
        assert_eq!(unique.len(), listed.len(), "no page twice");
        // This record is small: llms-full.txt holds every twin, whole, in
        // the order llms.txt lists them.
        let full = t.read(&format!("{lang}/llms-full.txt"));
        assert!(full.len() < 1_000_000);
        let mut at = 0;
        for twin in &listed {
            let body = t.read(twin.trim_start_matches('/'));
            let found = full[at..]
                .find(&body)
                .unwrap_or_else(|| panic!("{lang}/llms-full.txt lacks {twin}, or not in order"));
            at += found + body.len();
        }
    }
}

#[test]
fn basic_twin_and_llms_snapshots() {
    let mut t = SiteTest::from_fixture("basic");
    t.build();
    insta::assert_snapshot!("basic_twin_en", t.read("en/notes/page/index.md"));
    insta::assert_snapshot!("basic_twin_ja", t.read("ja/notes/page/index.md"));
    insta::assert_snapshot!("basic_llms_root", t.read("llms.txt"));
    insta::assert_snapshot!("basic_llms_en", t.read("en/llms.txt"));
    insta::assert_snapshot!(
        "basic_evidence_twin_en",
        t.read("en/evidence/logs/run.log/index.md")
    );
}

/// `book.toml` of the basic fixture with `[output]` switches.
fn basic_with(output: &str) -> SiteTest {
    let mut t = SiteTest::from_fixture("basic");
    let book = std::fs::read_to_string(t.root().join("book.toml")).expect("book.toml");
    t.write("book.toml", &format!("{book}\n[output]\n{output}\n"));
    t.build();
    t
}

#[test]
fn switched_off_outputs_are_not_written() {
    let on = basic_with("");
    let on_paths = on
        .tree()
        .paths()
        .into_iter()
        .map(str::to_owned)
        .collect::<Vec<_>>();
    assert!(on_paths.iter().any(|p| p.ends_with("index.md")));

    let t = basic_with("markdown = false");
    let tree = t.tree();
    assert!(
        !tree.paths().iter().any(|p| p.ends_with(".md")),
        "{:?}",
        tree.paths()
    );
    for (path, bytes) in &tree.0 {
        if path.ends_with(".html") {
            let html = String::from_utf8_lossy(bytes);
            assert!(!html.contains("text/markdown"), "{path} links a twin");
        }
    }
    // llms.txt stays, linking the HTML pages.
    let list = t.read("en/llms.txt");
    assert!(
        list.contains("](https://example.org/en/notes/page/): "),
        "{list}"
    );
    assert!(!list.contains("index.md"), "{list}");

    let t = basic_with("llms = false");
    for p in [
        "llms.txt",
        "ja/llms.txt",
        "en/llms.txt",
        "ja/llms-full.txt",
        "en/llms-full.txt",
    ] {
        assert!(!t.exists(p), "{p} written with llms = false");
    }
    assert!(t.exists("en/notes/page/index.md"));

    let t = basic_with("markdown = false\nllms = false");
    let off: Vec<String> = t.tree().paths().into_iter().map(str::to_owned).collect();
    let expected: Vec<String> = on_paths
        .into_iter()
        .filter(|p| {
            !p.ends_with(".md") && !p.ends_with("llms.txt") && !p.ends_with("llms-full.txt")
        })
        .collect();
    assert_eq!(off, expected);
}

#[test]
fn an_llms_full_txt_past_its_limit_says_where_it_stops() {
    // 600 pages of about 4 KB of Markdown each in one language: past
    // 1,000,000 bytes.
    let mut t = SiteTest::from_fixture("basic");
    let para = "A sentence of prose that fills the page to a known size. ".repeat(70);
    for i in 0..600 {
        t.write(
            &format!("content/notes/n{i:03}.md"),
            &format!(
                "+++\ntitle = {{ ja = \"頁{i}\", en = \"Page {i}\" }}\nweight = {}\n+++\n\n{para}\n",
                100 + i
            ),
        );
    }
    // Search off (`SiteTest::build`'s default): its index of 600 pages was
    // most of this test's time, and the llms files are the same either way.
    t.build();
    for lang in ["ja", "en"] {
        let full = t.read(&format!("{lang}/llms-full.txt"));
        assert!(full.len() <= 1_000_000, "{}", full.len());
        assert!(full.len() > 900_000, "{}", full.len());
        let last = full
            .trim_end()
            .rsplit("\n---\n\n")
            .next()
            .expect("a last part");
        let list = format!("[llms.txt](https://example.org/{lang}/llms.txt)");
        assert!(last.contains(&list), "{last}");
        assert!(last.contains("1,000,000"), "{last}");
        // Every page it holds is whole, and the first left out is named.
        let held = full.matches("\n---\n\n# ").count();
        let listed = llms_entries(&t.read(&format!("{lang}/llms.txt"))).len();
        let left = listed - held;
        assert!(
            last.contains(&format!(" {left} ")),
            "{left} left out: {last}"
        );
    }
    // The same bytes every time.
    let first = t.read("en/llms-full.txt");
    t.build();
    assert_eq!(t.read("en/llms-full.txt"), first);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_gives_a_twin_and_llms_txt_as_built_with_their_types() {
    const WAIT: Duration = Duration::from_secs(20);
    let mut t = SiteTest::from_fixture("basic");
    t.build();
    let built: Vec<(&str, Vec<u8>)> = [
        "en/notes/page/index.md",
        "ja/index.md",
        "en/evidence/logs/run.log/index.md",
        "llms.txt",
        "ja/llms-full.txt",
    ]
    .into_iter()
    .map(|p| (p, std::fs::read(t.out_path(p)).expect("built")))
    .collect();
    let handle = tokio::time::timeout(
        WAIT,
        kansoku::serve::start(kansoku::serve::Options {
            port: Some(0),
            quiet: true,
            work_dir: Some(t.root().parent().expect("a temp dir").to_path_buf()),
            ..kansoku::serve::Options::new(t.root())
        }),
    )
    .await
    .expect("the server starts in time")
    .expect("the server starts");
    for (path, bytes) in built {
        let url = format!("http://{}/{path}", handle.addr());
        let res = tokio::time::timeout(WAIT, reqwest::get(&url))
            .await
            .expect("response in time")
            .unwrap_or_else(|e| panic!("GET {url}: {e}"));
        assert_eq!(res.status().as_u16(), 200, "{path}");
        let ctype = res.headers()["content-type"]
            .to_str()
            .expect("ascii")
            .to_owned();
        let want = if path.ends_with(".md") {
            "text/markdown; charset=utf-8"
        } else {
            "text/plain; charset=utf-8"
        };
        assert_eq!(ctype, want, "{path}");
        // Served as if published at the preview's own address (issue 40,
        // trial L20): the same file but for the address it links to.
        let body = res.text().await.expect("a text body").replace(
            &format!("http://{}/", handle.addr()),
            "https://example.org/",
        );
        assert_eq!(
            body,
            String::from_utf8(bytes).expect("UTF-8"),
            "{path}: serve and build differ"
        );
    }
    tokio::time::timeout(WAIT, handle.shutdown())
        .await
        .expect("stops in time")
        .expect("stops cleanly");
}
