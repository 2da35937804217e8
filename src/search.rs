//! Search stage: the rendered pages to one Pagefind bundle per language, in
//! memory.
//!
//! Runs between `render` and `write` and, like them, is a function over
//! values: it reads the rendered HTML of the `ja/` and `en/` trees and the
//! validated claims, and returns the files of `ja/pagefind/` and
//! `en/pagefind/`. It never touches the disk and knows nothing about serving.
//!
//! - Each language tree is indexed on its own thread into its own bundle
//!   (`<base><lang>/pagefind/`), so a reader searches the language of the page
//!   they are on, and the two indexes are built in parallel. Japanese is
//!   segmented by the `extended` feature (icu_segmenter).
//! - Content and evidence pages go in (Pagefind keeps those with
//!   `data-pagefind-body`); the parallel view, the chooser and 404 do not:
//!   they mix languages and would only duplicate results.
//! - Pagefind gets each page reduced to what it reads (`searchable_part`,
//!   then `compact`): its cost grows with the elements it parses and the
//!   anchors it keeps, and a page's markup (badges, tooltips, one anchor per
//!   log line) is several times its text.
//! - Claims are found through their page: each claim's list item carries its
//!   anchor (`claim-<id>`), its text and its id, so Pagefind's anchors and
//!   match positions tell the search box which claims matched. The box shows
//!   their class badges from `kansoku-claims.json` (id → class), written
//!   beside each bundle. One record per claim would cost as much again as
//!   the pages themselves (measured: +50 % on a 1,000-page site).

use crate::error::{Error, Result};
use crate::render::OutputFile;
use crate::validate::Site;
use pagefind::api::PagefindIndex;
use pagefind::options::PagefindServiceConfig;
use std::collections::BTreeMap;

/// The bundle's directory inside each language tree.
pub const BUNDLE_DIR: &str = "pagefind";

/// The claim classes file written beside each bundle.
pub const CLAIMS_FILE: &str = "kansoku-claims.json";

/// The list of further shards written beside each bundle, for the search
/// box to merge (`pagefind.mergeIndex`): `["shard-1/", …]`, relative to
/// the bundle.
pub const SHARDS_FILE: &str = "kansoku-shards.json";

/// Pages per Pagefind index. Pagefind holds every word position and
/// fragment of an index until it is written, and its cost per page grows
/// with the pages already added, so a large site is indexed in shards of
/// this many pages, one after the other, each written and dropped before
/// the next; the search box merges them and ranks their results together.
/// See benches/README.md for the figures behind the size.
pub const SHARD_PAGES: usize = 1000;

/// The languages indexed, each from its own tree.
const LANGS: [&str; 2] = ["ja", "en"];

/// Pagefind's own UI files: the site has its own search box, so these are
/// not published (they would only add weight and unchecked markup).
const UNUSED: &[&str] = &[
    "pagefind-ui.js",
    "pagefind-ui.css",
    "pagefind-modular-ui.js",
    "pagefind-modular-ui.css",
    "pagefind-component-ui.js",
    "pagefind-component-ui.css",
    "pagefind-highlight.js",
];

/// The rendered pages of one language tree that go into its index:
/// `(url, html)` for every `<lang>/…/index.html`, in path order.
pub fn indexable_pages<'a>(
    files: &'a [OutputFile],
    lang: &str,
    base: &str,
) -> Vec<(String, &'a [u8])> {
    let prefix = format!("{lang}/");
    let mut pages: Vec<(String, &[u8])> = files
        .iter()
        .filter(|f| f.path.starts_with(&prefix) && f.path.ends_with("/index.html"))
        .map(|f| {
            let dir = f.path.strip_suffix("index.html").unwrap_or(&f.path);
            (format!("{base}{dir}"), f.bytes.as_slice())
        })
        .collect();
    pages.sort_by(|a, b| a.0.cmp(&b.0));
    pages
}

/// What Pagefind needs of a page: its `<html>` tag (the language) and the
/// element with `data-pagefind-body` up to the end of `<main>`. The rest
/// (head, header, the navigation listing every page, legend, footer) is never
/// indexed when a body is marked, but Pagefind would still parse it, and the
/// navigation grows with the site. Pages
/// without a marked body, or a theme without `<main>`, go in whole.
pub fn searchable_part(html: &str) -> String {
    let Some(mark) = html.find("data-pagefind-body") else {
        return html.to_owned();
    };
    let (Some(open), Some(html_tag)) = (html[..mark].rfind('<'), html.find("<html")) else {
        return html.to_owned();
    };
    let Some(html_tag_end) = html[html_tag..].find('>').map(|e| html_tag + e + 1) else {
        return html.to_owned();
    };
    let end = html[mark..]
        .find("</main>")
        .map_or(html.len(), |e| mark + e);
    format!(
        "<!DOCTYPE html>{}<body>{}</body></html>",
        &html[html_tag..html_tag_end],
        &html[open..end]
    )
}

/// Elements Pagefind treats as inline (no space around them, their text part
/// of their parent's anchor): without an id or a `data-pagefind-*`
/// attribute they change nothing in the index, so they are unwrapped.
const INLINE: &[&str] = &[
    "a", "abbr", "acronym", "b", "bdo", "big", "cite", "code", "dfn", "em", "i", "kbd", "q",
    "samp", "small", "span", "strong", "sub", "sup", "time", "tt", "var",
];

/// Elements without an end tag.
const VOID: &[&str] = &[
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track",
    "wbr",
];

/// Elements whose text is not markup: copied through as they are.
const RAW_TEXT: &[&str] = &["script", "style", "textarea", "title"];

/// The searchable part reduced to what Pagefind reads from it, so that it
/// parses far fewer elements and keeps far fewer anchors:
///
/// - elements marked `data-pagefind-ignore` are dropped whole (Pagefind
///   would parse and then discard them);
/// - inline elements without an id or a `data-pagefind-*` attribute are
///   unwrapped, their text kept in place;
/// - other elements keep only `id`, `lang` and `data-pagefind-*`;
/// - comments are dropped.
///
/// Ids are anchors to Pagefind, and every anchor is a marker in the text and
/// a copy of the element's text in the page's fragment. The search box uses
/// them only for claims (`claim-<id>`, each running to the next anchor), so
/// a page with claims keeps every id, and a page without them (an evidence
/// log, where every line has one) keeps only its headings' ids (Pagefind's
/// sub-results). Blocks, headings, weights and the body mark are kept, so the
/// indexed text, its word positions and its weights stay as they were.
pub fn compact(html: &str) -> String {
    let all_ids = html.contains("id=\"claim-");
    let mut out = String::with_capacity(html.len() / 2);
    // (tag name, whether its tags were kept) for each open element.
    let mut open: Vec<(&str, bool)> = Vec::new();
    let mut rest = html;
    while let Some(lt) = rest.find('<') {
        out.push_str(&rest[..lt]);
        rest = &rest[lt..];
        if let Some(comment) = rest.strip_prefix("<!--") {
            rest = comment.find("-->").map_or("", |e| &comment[e + 3..]);
            continue;
        }
        let Some(tag) = Tag::parse(rest) else {
            // `<!DOCTYPE …>` or a stray `<`: as it is.
            let end = if rest.starts_with("<!") {
                rest.find('>').map_or(rest.len(), |e| e + 1)
            } else {
                1
            };
            out.push_str(&rest[..end]);
            rest = &rest[end..];
            continue;
        };
        let after = &rest[tag.len..];
        if tag.closing {
            match open
                .iter()
                .rposition(|(name, _)| name.eq_ignore_ascii_case(tag.name))
            {
                Some(at) => {
                    if open[at].1 {
                        out.push_str(&rest[..tag.len]);
                    }
                    open.truncate(at);
                }
                None => out.push_str(&rest[..tag.len]),
            }
            rest = after;
            continue;
        }
        let name = tag.name.to_ascii_lowercase();
        let void = tag.self_closing || VOID.contains(&name.as_str());
        if tag.attr("data-pagefind-ignore").is_some() {
            rest = if void {
                after
            } else {
                skip_element(after, tag.name)
            };
            continue;
        }
        if RAW_TEXT.contains(&name.as_str()) {
            let close = format!("</{name}");
            let end = find_ignore_case(after, &close)
                .and_then(|c| after[c..].find('>').map(|e| c + e + 1))
                .unwrap_or(after.len());
            out.push_str(&rest[..tag.len + end]);
            rest = &after[end..];
            continue;
        }
        let heading = matches!(name.as_str(), "h1" | "h2" | "h3" | "h4" | "h5" | "h6");
        let kept: Vec<&str> = tag
            .attrs
            .iter()
            .filter(|a| match a.name {
                "id" => all_ids || heading,
                "lang" => true,
                n => n.starts_with("data-pagefind-"),
            })
            .map(|a| a.text)
            .collect();
        let keep_tag = name == "img" || !kept.is_empty() || !INLINE.contains(&name.as_str());
        if keep_tag {
            if name == "img" {
                out.push_str(&rest[..tag.len]);
            } else {
                out.push('<');
                out.push_str(tag.name);
                for a in kept {
                    out.push(' ');
                    out.push_str(a);
                }
                out.push_str(if tag.self_closing { "/>" } else { ">" });
            }
        }
        if !void {
            open.push((tag.name, keep_tag));
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// The text after an element's start tag with the element skipped: up to
/// the end tag that closes it, counting nested elements of the same name.
fn skip_element<'a>(mut rest: &'a str, name: &str) -> &'a str {
    let mut depth = 1;
    while let Some(lt) = rest.find('<') {
        rest = &rest[lt..];
        let Some(tag) = Tag::parse(rest) else {
            rest = &rest[1..];
            continue;
        };
        rest = &rest[tag.len..];
        if tag.name.eq_ignore_ascii_case(name) && !tag.self_closing {
            if tag.closing {
                depth -= 1;
                if depth == 0 {
                    return rest;
                }
            } else {
                depth += 1;
            }
        }
    }
    rest
}

fn find_ignore_case(haystack: &str, needle: &str) -> Option<usize> {
    haystack
        .as_bytes()
        .windows(needle.len())
        .position(|w| w.eq_ignore_ascii_case(needle.as_bytes()))
}

/// One start or end tag, as written.
struct Tag<'a> {
    name: &'a str,
    closing: bool,
    self_closing: bool,
    attrs: Vec<Attr<'a>>,
    /// Its length in bytes, `<` to `>`.
    len: usize,
}

/// One attribute: its name and its whole text (`name="value"`).
struct Attr<'a> {
    name: &'a str,
    text: &'a str,
}

impl<'a> Tag<'a> {
    /// The tag at the start of `s` (which starts with `<`), if it is one.
    fn parse(s: &'a str) -> Option<Self> {
        let b = s.as_bytes();
        let closing = b.get(1) == Some(&b'/');
        let start = if closing { 2 } else { 1 };
        if !b.get(start).is_some_and(u8::is_ascii_alphabetic) {
            return None;
        }
        let name_end = start
            + b[start..]
                .iter()
                .position(|c| !(c.is_ascii_alphanumeric() || *c == b'-'))?;
        let name = &s[start..name_end];
        let mut attrs = Vec::new();
        let mut i = name_end;
        loop {
            while b.get(i).is_some_and(u8::is_ascii_whitespace) {
                i += 1;
            }
            match b.get(i)? {
                b'>' => {
                    let self_closing = b[i - 1] == b'/';
                    return Some(Tag {
                        name,
                        closing,
                        self_closing,
                        attrs,
                        len: i + 1,
                    });
                }
                b'/' => {
                    i += 1;
                    continue;
                }
                _ => {}
            }
            let from = i;
            while b
                .get(i)
                .is_some_and(|c| !c.is_ascii_whitespace() && !matches!(c, b'=' | b'>' | b'/'))
            {
                i += 1;
            }
            let attr_name = &s[from..i];
            if b.get(i) == Some(&b'=') {
                i += 1;
                match b.get(i)? {
                    q @ (b'"' | b'\'') => i += 2 + b[i + 1..].iter().position(|c| c == q)?,
                    _ => {
                        while b
                            .get(i)
                            .is_some_and(|c| !c.is_ascii_whitespace() && *c != b'>')
                        {
                            i += 1;
                        }
                    }
                }
            }
            attrs.push(Attr {
                name: attr_name,
                text: &s[from..i],
            });
        }
    }

    fn attr(&self, name: &str) -> Option<&Attr<'a>> {
        self.attrs
            .iter()
            .find(|a| a.name.eq_ignore_ascii_case(name))
    }
}

/// `{"<id>": "<class>", …}` for every claim of the site, sorted by id.
pub fn claim_classes(site: &Site) -> String {
    let map: BTreeMap<&str, &str> = site
        .content
        .pages
        .iter()
        .flat_map(|p| &p.claims)
        .map(|c| (c.id.as_str(), c.class.name()))
        .collect();
    serde_json::to_string(&map).expect("a map of strings serializes")
}

/// Whether the output at `path` is a page the index reads: a page of the
/// `ja/` or `en/` tree.
pub fn indexed(path: &str) -> bool {
    LANGS
        .iter()
        .any(|l| path.strip_prefix(l).is_some_and(|r| r.starts_with('/')))
        && path.ends_with("/index.html")
        && !path.contains(&format!("/{BUNDLE_DIR}/"))
}

/// What the index reads of a rendered file: for a page of the `ja/` or
/// `en/` tree, the page reduced by [`searchable_part`] and [`compact`];
/// `None` for anything not indexed. A build keeps only these while it
/// writes the pages themselves.
pub fn searchable(file: &OutputFile) -> Option<OutputFile> {
    let indexed = LANGS.iter().any(|l| {
        file.path
            .strip_prefix(l)
            .is_some_and(|r| r.starts_with('/'))
    }) && file.path.ends_with("/index.html");
    indexed.then(|| OutputFile {
        path: file.path.clone(),
        bytes: compact(&searchable_part(&String::from_utf8_lossy(&file.bytes))).into_bytes(),
    })
}

/// Builds the search bundles for a rendered site: the files to add to the
/// output (under `ja/pagefind/` and `en/pagefind/`), sorted by path.
pub fn index(site: &Site, files: &[OutputFile]) -> Result<Vec<OutputFile>> {
    use rayon::prelude::*;
    let pages: Vec<OutputFile> = files.par_iter().filter_map(searchable).collect();
    index_searchable(site, &pages)
}

/// [`index`] for pages already reduced by [`searchable`].
pub fn index_searchable(site: &Site, pages: &[OutputFile]) -> Result<Vec<OutputFile>> {
    index_parts(&site.config.base_path, &claim_classes(site), pages)
}

/// [`index_searchable`] from what it needs of the site: its base path and
/// [`claim_classes`]. For a caller (the dev server's indexing thread) that
/// no longer holds the site.
pub fn index_parts(base: &str, classes: &str, pages: &[OutputFile]) -> Result<Vec<OutputFile>> {
    let files = pages;
    release_freed_memory();
    let cpu_before = process_cpu_ms();
    let rss_before = proc_status_kb("VmRSS");
    // One thread per language: the indexes are independent, Pagefind indexes
    // one page at a time, and a thread of our own also keeps its runtime
    // clear of any the caller may be running (a server rebuilding).
    let built: Vec<anyhow::Result<Vec<OutputFile>>> = std::thread::scope(|s| {
        let jobs: Vec<_> = LANGS
            .iter()
            .map(|lang| {
                let pages = indexable_pages(files, lang, base);
                s.spawn(move || bundle(lang, &pages))
            })
            .collect();
        jobs.into_iter()
            .map(|j| {
                j.join()
                    .unwrap_or_else(|_| Err(anyhow::anyhow!("the indexing thread panicked")))
            })
            .collect()
    });
    let mut out = Vec::new();
    for (lang, result) in LANGS.iter().zip(built) {
        // Not a content problem and not a diagnostic code: Pagefind failing
        // is the build failing to produce these files.
        let files = result.map_err(|e| {
            Error::io(
                format!("{lang}/{BUNDLE_DIR}"),
                std::io::Error::other(format!("the search index could not be built: {e:#}")),
            )
        })?;
        out.extend(files);
        out.push(OutputFile {
            path: format!("{lang}/{BUNDLE_DIR}/{CLAIMS_FILE}"),
            bytes: classes.as_bytes().to_vec(),
        });
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    if let (Some(before), Some(after), Some(_)) = (
        cpu_before,
        process_cpu_ms(),
        std::env::var_os("KANSOKU_TIMINGS"),
    ) {
        eprintln!(
            "timing: search cpu {:>5} ms (user+sys, all threads)",
            after - before
        );
        // The stage keeps every page's words until the bundles are built, so
        // its peak is the process's high-water mark, if it is the highest.
        if let (Some(rss), Some(peak)) = (rss_before, proc_status_kb("VmHWM")) {
            eprintln!(
                "timing: search rss {} MB before, process peak {} MB",
                rss / 1024,
                peak / 1024
            );
        }
    }
    Ok(out)
}

/// A `kB` line of `/proc/self/status` (`VmRSS`, `VmHWM`), for
/// `KANSOKU_TIMINGS`; `None` where there is no `/proc`.
fn proc_status_kb(key: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(key))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// CPU time used by this process so far (user + system, every thread), for
/// `KANSOKU_TIMINGS`: on a shared machine the stage's wall time says little.
/// Linux only; `None` elsewhere. `/proc` counts in ticks of 10 ms (USER_HZ
/// is 100 on every Linux architecture kansoku builds for).
fn process_cpu_ms() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which may hold spaces), from field 3.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks = |i: usize| fields.get(i)?.parse::<u64>().ok();
    Some((ticks(11)? + ticks(12)?) * 10)
}

/// Hands the memory freed so far back to the system. Rendering frees most
/// of what it allocated, but glibc keeps the freed pages of each thread's
/// arena resident, and Pagefind then allocates its shards on other threads
/// (other arenas): without this the stage's peak is rendering's peak plus
/// the shards. Measured at N = 10,000 in benches/README.md. A no-op where
/// the allocator is not glibc's.
fn release_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `malloc_trim` takes no pointers and only walks glibc's own
    // arenas under their locks; it may be called from any thread at any
    // time.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// The directory of shard `k` inside the bundle: the bundle itself for
/// the first.
fn shard_dir(k: usize) -> String {
    if k == 0 {
        String::new()
    } else {
        format!("shard-{k}/")
    }
}

/// Whether a file of a Pagefind bundle is needed in a merged shard: the
/// primary bundle's scripts and WebAssembly search every shard.
fn shard_needs(name: &str) -> bool {
    !(name.ends_with(".js") || name.ends_with(".css") || name.starts_with("wasm."))
}

/// One language's bundle, in shards of [`SHARD_PAGES`] pages. Pagefind's
/// API is async but only needs `spawn_blocking`, so a current-thread
/// runtime on this thread is enough.
fn bundle(lang: &str, pages: &[(String, &[u8])]) -> anyhow::Result<Vec<OutputFile>> {
    let start = std::time::Instant::now();
    let rt = tokio::runtime::Builder::new_current_thread().build()?;
    let out = rt.block_on(async {
        let mut out = Vec::new();
        let mut shards = Vec::new();
        // An empty tree still gets a bundle, so the search box loads.
        let chunks: Vec<&[(String, &[u8])]> = if pages.is_empty() {
            vec![&[]]
        } else {
            pages.chunks(SHARD_PAGES).collect()
        };
        for (k, chunk) in chunks.into_iter().enumerate() {
            let config = PagefindServiceConfig::builder().build();
            let mut index = PagefindIndex::new(Some(config))?;
            for (url, html) in chunk {
                let html = String::from_utf8_lossy(html).into_owned();
                index.add_html_file(None, Some(url.clone()), html).await?;
            }
            let dir = shard_dir(k);
            out.extend(index.get_files().await?.into_iter().filter_map(|f| {
                let name = f.filename.to_string_lossy().replace('\\', "/");
                let keep = !UNUSED.contains(&name.as_str()) && (k == 0 || shard_needs(&name));
                keep.then(|| OutputFile {
                    path: format!("{lang}/{BUNDLE_DIR}/{dir}{name}"),
                    bytes: f.contents,
                })
            }));
            if k > 0 {
                shards.push(dir);
            }
            drop(index);
            release_freed_memory();
        }
        out.push(OutputFile {
            path: format!("{lang}/{BUNDLE_DIR}/{SHARDS_FILE}"),
            bytes: serde_json::to_vec(&shards).expect("a list of strings serializes"),
        });
        Ok(out)
    });
    if std::env::var_os("KANSOKU_TIMINGS").is_some() {
        eprintln!(
            "timing: search {lang} {:>6} ms ({} pages)",
            start.elapsed().as_millis(),
            pages.len()
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(path: &str) -> OutputFile {
        OutputFile {
            path: path.to_owned(),
            bytes: path.as_bytes().to_vec(),
        }
    }

    #[test]
    fn only_the_marked_body_is_handed_to_pagefind() {
        let page = r#"<!DOCTYPE html>
<html lang="ja"><head><title>t</title></head><body><header>h</header>
<main id="main"><article class="page" data-pagefind-body><h1>題</h1><p>本文</p></article>
</main><nav>nav</nav></body></html>"#;
        assert_eq!(
            searchable_part(page),
            "<!DOCTYPE html><html lang=\"ja\"><body><article class=\"page\" data-pagefind-body><h1>題</h1><p>本文</p></article>\n</body></html>"
        );
        let unmarked = "<html lang=\"en\"><body><p>x</p></body></html>";
        assert_eq!(searchable_part(unmarked), unmarked);
    }

    #[test]
    fn compact_keeps_what_pagefind_reads() {
        // A claim page: every id stays (claims run to the next anchor).
        let page = concat!(
            "<!DOCTYPE html><html lang=\"en\"><body>",
            "<article class=\"page\" data-pagefind-body><h1 class=\"t\">Title <code>x</code></h1>",
            "<!-- note --><p>Text <a href=\"/a/\" title='q > r'>link</a>",
            "<span class=\"tip\" data-pagefind-ignore>tip <span>nested</span> tip</span> end<br>",
            "<img src=\"i.png\" alt=\"pic\"></p>",
            "<ul><li class=\"claim\" id=\"claim-c1\"><em>claim</em> text</li></ul>",
            "<table><tr><td class=\"n\">1</td></tr></table>",
            "<ol data-pagefind-weight=\"0.5\"><li id=\"L1\"><span id=\"L1-L2\"></span>line</li></ol>",
            "<script>if (a < b) {}</script>",
            "<div data-pagefind-ignore=\"all\"><div>gone</div></div></article></body></html>",
        );
        assert_eq!(
            compact(page),
            concat!(
                "<!DOCTYPE html><html lang=\"en\"><body>",
                "<article data-pagefind-body><h1>Title x</h1>",
                "<p>Text link end<br><img src=\"i.png\" alt=\"pic\"></p>",
                "<ul><li id=\"claim-c1\">claim text</li></ul>",
                "<table><tr><td>1</td></tr></table>",
                "<ol data-pagefind-weight=\"0.5\"><li id=\"L1\"><span id=\"L1-L2\"></span>line</li></ol>",
                "<script>if (a < b) {}</script>",
                "</article></body></html>",
            )
        );
        // A page without claims (an evidence log): only headings keep ids.
        let log = concat!(
            "<html lang=\"ja\"><body><article data-pagefind-body>",
            "<h2 id=\"cited\">引用</h2><ol><li class=\"ev-line\" id=\"L1\">",
            "<span class=\"ev-range\" id=\"L1-L2\"></span><code>a b</code></li></ol></article></body></html>",
        );
        assert_eq!(
            compact(log),
            concat!(
                "<html lang=\"ja\"><body><article data-pagefind-body>",
                "<h2 id=\"cited\">引用</h2><ol><li>a b</li></ol></article></body></html>",
            )
        );
    }

    #[test]
    fn each_language_indexes_its_own_tree_only() {
        let files = [
            file("index.html"),
            file("404.html"),
            file("ja-en/index.html"),
            file("ja-en/notes/index.html"),
            file("en/notes/index.html"),
            file("ja/index.html"),
            file("ja/evidence/logs/run.log/index.html"),
            file("evidence/logs/run.log"),
            file("static/kansoku.css"),
            file("claims.json"),
        ];
        let urls = |lang| -> Vec<String> {
            indexable_pages(&files, lang, "/base/")
                .into_iter()
                .map(|(u, _)| u)
                .collect()
        };
        assert_eq!(urls("ja"), ["/base/ja/", "/base/ja/evidence/logs/run.log/"]);
        assert_eq!(urls("en"), ["/base/en/notes/"]);
    }
}
