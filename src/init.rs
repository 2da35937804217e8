//! `kansoku init DIR` and `kansoku new SECTION/SLUG`: write the starter
//! site compiled into the binary, and page skeletons.
//!
//! It never overwrites: a non-empty target directory is refused, so no
//! one's work is lost to a mistyped path. Besides the site, `init` writes
//! a GitHub Actions workflow (`.github/workflows/kansoku.yml`: check pull
//! requests, build and deploy the default branch to Pages) unless told not
//! to.

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

/// The GitHub Actions workflow of a new site and the script it installs
/// kansoku with (`kansoku init` writes them unless `--no-ci`): the
/// version and repository placeholders are filled in by [`ci_files`].
const CI_FILES: &[(&str, &str)] = embed!(
    ".github/workflows/kansoku.yml",
    ".github/kansoku-install.sh",
);

/// The license the starter's `book.toml` gives, which `init` names so the
/// writer can change it: CC BY 4.0, the usual terms for research data
/// and records (Zenodo's default).
pub const STARTER_LICENSE: &str = "CC-BY-4.0";

/// The workflow files with this kansoku's version, and the GitHub
/// repository its releases are published in (from `Cargo.toml`'s
/// `repository`; empty when it names none, and the workflow then builds
/// kansoku with cargo).
fn ci_files() -> Vec<(&'static str, String)> {
    let repo = github_repo(option_env!("CARGO_PKG_REPOSITORY").unwrap_or(""));
    CI_FILES
        .iter()
        .map(|(path, text)| {
            let text = text
                .replace("@KANSOKU_VERSION@", env!("CARGO_PKG_VERSION"))
                .replace("@KANSOKU_REPO@", &repo);
            (*path, text)
        })
        .collect()
}

/// `owner/name` of a `https://github.com/owner/name` URL, else empty.
fn github_repo(url: &str) -> String {
    let Some(path) = url.strip_prefix("https://github.com/") else {
        return String::new();
    };
    let path = path.trim_end_matches('/');
    let path = path.strip_suffix(".git").unwrap_or(path);
    let parts: Vec<&str> = path.split('/').collect();
    let safe = |p: &str| {
        !p.is_empty()
            && p.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    };
    match parts.as_slice() {
        [owner, name] if safe(owner) && safe(name) => format!("{owner}/{name}"),
        _ => String::new(),
    }
}

/// Writes the starter site into `dir`, which must be missing or empty,
/// with the GitHub workflow when `ci`. Returns how many files it wrote.
pub fn init(dir: &Path, ci: bool) -> Result<usize> {
    if dir.exists() {
        let mut entries = std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))?;
        if entries.next().is_some() {
            return Err(Error::Usage(format!(
                "{} is not empty; kansoku init only writes into a new or empty directory",
                dir.display()
            )));
        }
    }
    let ci_files = if ci { ci_files() } else { Vec::new() };
    let files = FILES
        .iter()
        .map(|(rel, text)| (*rel, (*text).to_owned()))
        .chain(ci_files)
        .chain(std::iter::once((".gitignore", GITIGNORE.to_owned())));
    let mut written = 0;
    for (rel, text) in files {
        let path = dir.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
        }
        std::fs::write(&path, text).map_err(|e| Error::io(&path, e))?;
        written += 1;
    }
    Ok(written)
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
    let id = claim_id(root, &segments);
    let title = page_title(slug);
    std::fs::write(&page, page_skeleton(&title, &id)).map_err(|e| Error::io(&page, e))?;
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

/// A claim id for the page at `segments` (`notes/second-run` →
/// `notes-second-run-first`), readable whatever script the path is in:
/// ids are ASCII (they are URL fragments and `[[claim:ID]]` keys), so a
/// segment's ASCII letters and digits are kept and the rest dropped, a
/// slug with no letters left is a `page` (`notes/第二の観測` →
/// `notes-page-first`), and a number goes in when the site has the id
/// already (`notes-page-2-first`).
fn claim_id(root: &Path, segments: &[&str]) -> String {
    let ascii = |seg: &str| -> String {
        seg.split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join("-")
    };
    let mut words: Vec<String> = segments.iter().map(|s| ascii(s)).collect();
    if let Some(slug) = words.last_mut() {
        if !slug.chars().any(|c| c.is_ascii_alphabetic()) {
            *slug = if slug.is_empty() {
                "page".to_owned()
            } else {
                format!("page-{slug}")
            };
        }
    }
    words.retain(|w| !w.is_empty());
    let base = words.join("-");
    // The ids the site has, as far as its pages load.
    let taken: std::collections::HashSet<String> = crate::content::load_content(root)
        .map(|(content, _)| {
            let defined = content
                .pages
                .iter()
                .flat_map(|p| p.claims.iter().map(|c| c.id.clone()));
            let broken = content.failed.iter().flat_map(|f| f.claims.iter().cloned());
            defined.chain(broken).collect()
        })
        .unwrap_or_default();
    std::iter::once(format!("{base}-first"))
        .chain((2..).map(|n| format!("{base}-{n}-first")))
        .find(|id| !taken.contains(id))
        .expect("some number is free")
}

/// The title of a page at `slug`, in each language: the slug's words in
/// the language it is written in (Japanese if it has Japanese script,
/// else English), the placeholder `check` reports (E005) in the other.
fn page_title(slug: &str) -> crate::lang::Bi<String> {
    let japanese = slug.chars().any(|c| {
        matches!(c as u32, 0x3040..=0x30ff | 0x3400..=0x4dbf | 0x4e00..=0x9fff | 0xf900..=0xfaff | 0xff66..=0xff9f)
    });
    let placeholder = crate::content::placeholder::TITLE;
    if japanese {
        crate::lang::Bi {
            ja: words(slug),
            en: placeholder.en.to_owned(),
        }
    } else {
        crate::lang::Bi {
            ja: placeholder.ja.to_owned(),
            en: words(slug),
        }
    }
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

fn page_skeleton(title: &crate::lang::Bi<String>, id: &str) -> String {
    let (ja, en) = (&title.ja, &title.en);
    format!(
        r#"+++
title = {{ ja = "{ja}", en = "{en}" }}
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_plain_github_url_names_the_release_repository() {
        assert_eq!(github_repo("https://github.com/o/kansoku"), "o/kansoku");
        assert_eq!(
            github_repo("https://github.com/o/kansoku.git/"),
            "o/kansoku"
        );
        assert_eq!(github_repo(""), "");
        assert_eq!(github_repo("https://gitlab.com/o/kansoku"), "");
        // Nothing that could end the YAML string or run in the shell.
        assert_eq!(github_repo("https://github.com/o/k\"; rm -rf ~"), "");
        assert_eq!(github_repo("https://github.com/o/k/tree/main"), "");
    }

    #[test]
    fn init_names_the_license_the_starter_gives() {
        let (_, book) = FILES
            .iter()
            .find(|(p, _)| *p == "book.toml")
            .expect("book.toml");
        assert!(book.contains(&format!("\nlicense = \"{STARTER_LICENSE}\"\n")));
    }

    #[test]
    fn the_workflow_has_its_placeholders_filled() {
        for (path, text) in ci_files() {
            assert!(!text.contains("@KANSOKU_"), "{path}");
        }
    }
}
