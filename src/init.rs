//! `kansoku init DIR` and `kansoku new SECTION/SLUG`: write the starter
//! site compiled into the binary, and page skeletons.
//!
//! It never overwrites: a non-empty target directory is refused, so no
//! one's work is lost to a mistyped path.

use crate::error::{Error, Result};
use std::path::Path;

macro_rules! embed {
    ($($path:literal),* $(,)?) => {
        &[$(($path, include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/src/init_site/", $path)))),*]
    };
}

/// The starter site: (path inside the new site, text).
pub(crate) const FILES: &[(&str, &str)] = embed!(
    "book.toml",
    "content/_index.md",
    "content/notes/_index.md",
    "content/notes/first-observation.md",
    "evidence/logs/run-1.log",
    "evidence/notes/reading.md",
);

/// Writes the starter site into `dir`, which must be missing or empty.
pub fn init(dir: &Path) -> Result<usize> {
    if dir.exists() {
        let mut entries = std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))?;
        if entries.next().is_some() {
            return Err(Error::Usage(format!(
                "{} is not empty; kansoku init only writes into a new or empty directory",
                dir.display()
            )));
        }
    }
    for (rel, text) in FILES {
        let path = dir.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
        }
        std::fs::write(&path, text).map_err(|e| Error::io(&path, e))?;
    }
    let ignore = dir.join(".gitignore");
    std::fs::write(&ignore, GITIGNORE).map_err(|e| Error::io(&ignore, e))?;
    Ok(FILES.len() + 1)
}

/// What `init` puts in `.gitignore`: the build directory and kansoku's
/// bookkeeping, which are made from the sources and never committed.
pub const GITIGNORE: &str =
    "# Made by `kansoku build`; not sources. / ビルドで作られるもの。\n/public/\n/.kansoku/\n";

/// Writes a bilingual page skeleton at `content/<spec>.md` for a
/// `SECTION/SLUG` (or `SLUG`) spec, and the section's `_index.md` if the
/// section has none. Never overwrites. Returns the site-relative paths
/// written. The page is a draft (`draft = true`) carrying one claim stub
/// without evidence, which `check` reports (E011, a warning in a draft)
/// until it is filled in.
pub fn new_page(root: &Path, spec: &str) -> Result<Vec<String>> {
    crate::config::Config::load(root)?;
    let spec = spec.trim_matches('/');
    let spec = spec.strip_suffix(".md").unwrap_or(spec);
    let segments: Vec<&str> = spec.split('/').collect();
    if let Some(why) = segments.iter().find_map(|s| segment_problem(s)) {
        let mut shown = String::new();
        for c in spec.chars() {
            match invisible(c) {
                true => shown.extend(c.escape_unicode()),
                false => shown.push(c),
            }
        }
        return Err(Error::Usage(format!(
            "`{shown}` is not a SECTION/SLUG path: {why}; any other Unicode is fine, e.g. `notes/second-observation` or `メモ/観測-2`"
        )));
    }
    let (sections, slug) = segments.split_at(segments.len() - 1);
    let slug = slug[0];
    let rel = format!("content/{spec}.md");
    let page = root.join(&rel);
    if page.exists() {
        return Err(Error::Usage(format!(
            "{rel} already exists; kansoku new never overwrites a page"
        )));
    }
    let mut written = Vec::new();
    let mut dir = root.join("content");
    for (i, section) in sections.iter().enumerate() {
        dir.push(section);
        let index = dir.join("_index.md");
        if !index.exists() {
            std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
            let title = words(section);
            std::fs::write(&index, section_skeleton(&title)).map_err(|e| Error::io(&index, e))?;
            written.push(format!("content/{}/_index.md", sections[..=i].join("/")));
        }
    }
    let id = format!("{}-first", claim_id(spec));
    std::fs::write(&page, page_skeleton(&words(slug), &id)).map_err(|e| Error::io(&page, e))?;
    written.push(rel);
    Ok(written)
}

/// Why one segment of `new`'s SECTION/SLUG cannot be a directory or page
/// name, if it cannot. Any Unicode is a fine name (a page's file name is
/// its URL, and URLs carry Unicode); refused are what would write outside
/// `content/` or name no page, what the loader refuses (`E060`,
/// [`crate::content::unsafe_name`]), and what no one can see in a name.
fn segment_problem(seg: &str) -> Option<String> {
    let has = |what: &str| Some(format!("it has {what}"));
    if seg.is_empty() {
        has("an empty segment")
    } else if seg == ".." {
        has("`..`")
    } else if seg.chars().all(|c| c == '.') {
        has("a name made of dots only")
    } else if seg.starts_with('.') {
        has("a leading `.`, which hides a file from the site")
    } else if seg == "_index" {
        has("`_index`, a section's own page")
    } else if seg.starts_with(char::is_whitespace) || seg.ends_with(char::is_whitespace) {
        has("a leading or trailing space")
    } else if let Some(c) = seg.chars().find(|&c| invisible(c)) {
        has(&format!(
            "the invisible or control character U+{:04X}",
            c as u32
        ))
    } else {
        crate::content::unsafe_name(seg)
    }
}

/// Control characters, and the format characters that change how a name
/// reads without being seen: bidirectional overrides and isolates (which
/// can make `evil.md` look like another name, CVE-2021-42574), zero-width
/// spaces and joiners, the soft hyphen and the byte-order mark.
fn invisible(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{ad}'
                | '\u{61c}'
                | '\u{180e}'
                | '\u{200b}'..='\u{200f}'
                | '\u{202a}'..='\u{202e}'
                | '\u{2060}'..='\u{2064}'
                | '\u{2066}'..='\u{206f}'
                | '\u{feff}'
                | '\u{fff9}'..='\u{fffb}'
                | '\u{e0001}'
                | '\u{e0020}'..='\u{e007f}'
        )
}

/// A claim id for a page at `spec`: ids are ASCII (they are URL fragments
/// and `[[claim:ID]]` keys), so each other character is written as its
/// code point, keeping ids of different pages different:
/// `メモ/観測-2` → `u30e1u30e2-u89b3u6e2c-2`.
fn claim_id(spec: &str) -> String {
    spec.chars()
        .map(|c| match c {
            c if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') => c.to_string(),
            '/' | ' ' => "-".to_owned(),
            c => format!("u{:x}", c as u32),
        })
        .collect()
}

/// `second-observation` → `Second observation`.
fn words(slug: &str) -> String {
    let spaced = slug.replace(['-', '_'], " ");
    let mut chars = spaced.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
fn section_skeleton(title: &str) -> String {
    format!(
        r#"+++
title = {{ ja = "{title}", en = "{title}" }}
lead = {{ ja = "このセクションの説明を一文で。", en = "What this section holds, in one sentence." }}
+++

::: ja
このセクションのページは、ここに一覧として並びます。
:::
::: en
The pages of this section are listed here.
:::
"#
    )
}

fn page_skeleton(title: &str, id: &str) -> String {
    format!(
        r#"+++
title = {{ ja = "{title}", en = "{title}" }}
lead = {{ ja = "何を観測したかを一文で。", en = "What was observed, in one sentence." }}
# A draft: `kansoku serve` shows it, `kansoku build` leaves it out. Remove
# this line to publish it. / 下書き。公開するときはこの行を消します。
draft = true

# One [[claims]] table per claim. `kansoku check` reports this one until it
# cites its evidence. / クレームごとに [[claims]] を一つ。証拠を書くまで
# `kansoku check` が指摘します。
[[claims]]
id = "{id}"
class = "unresolved"   # confirmed, inferred, unresolved or limited
ja = "観測したことを一文で書く。"
en = "Write what was observed, in one sentence."
evidence = []          # e.g. ["logs/run-1.log#L4-L5"], a file under evidence/
# What would settle it (an unresolved or limited claim says; a confirmed
# one has nothing to settle). / 何を観測すれば確定するか。
settle = {{ ja = "何を観測すれば確定するかを一文で書く。", en = "Write what observation would settle it, in one sentence." }}
+++

::: ja
## 観測

[[claim:{id}]]
:::
::: en
## Observation

[[claim:{id}]]
:::
"#
    )
}
