//! Issue 12: a page's cost does not depend on the size of its section.
//! Navigation shows a window of a long section; the section's own page
//! lists its pages, paginated past `paginate-by`; search can be turned off.

use std::fmt::Write as _;
use std::path::Path;

/// A site with section `a/` of 50 pages and section `b/` of `large`, each
/// page small, so navigation is most of its size.
fn two_sections(root: &Path, large: usize, extra_config: &str) {
    let mut files = vec![(
        "book.toml".to_owned(),
        format!("[book]\ntitle = \"Scale\"\n{extra_config}"),
    )];
    for (dir, n) in [("a", 50), ("b", large)] {
        files.push((
            format!("content/{dir}/_index.md"),
            format!("+++\ntitle = {{ ja = \"節 {dir}\", en = \"Section {dir}\" }}\n+++\n::: ja\n概要。\n:::\n::: en\nOverview.\n:::\n"),
        ));
        for i in 0..n {
            files.push((
                format!("content/{dir}/p{i:05}.md"),
                format!("+++\ntitle = {{ ja = \"ページ {i:05}\", en = \"Page {i:05}\" }}\nweight = {i}\n+++\n::: ja\n本文。\n:::\n::: en\nText.\n:::\n"),
            ));
        }
    }
    files.push((
        "content/_index.md".to_owned(),
        "+++\ntitle = { ja = \"ホーム\", en = \"Home\" }\nlayout = \"home\"\n+++\n::: ja\nはじめに。\n:::\n::: en\nWelcome.\n:::\n".to_owned(),
    ));
    for (rel, text) in files {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().expect("has a parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    }
}

fn read(root: &Path, rel: &str) -> String {
    std::fs::read_to_string(root.join("public").join(rel))
        .unwrap_or_else(|e| panic!("public/{rel}: {e}"))
}

fn build_without_search(root: &Path) {
    crate::common::build_with(
        root,
        kansoku::site::BuildOptions {
            search: false,
            ..Default::default()
        },
    )
    .unwrap_or_else(|e| panic!("build: {e}"));
}

#[test]
fn issue_12_page_size_does_not_grow_with_its_section() {
    let tmp = crate::scratch::tempdir();
    two_sections(tmp.path(), 2000, "");
    build_without_search(tmp.path());
    for tree in ["ja", "en", "ja-en"] {
        let small = read(tmp.path(), &format!("{tree}/a/p00025/index.html"));
        let large = read(tmp.path(), &format!("{tree}/b/p01000/index.html"));
        let diff = small.len().abs_diff(large.len());
        assert!(
            diff < 2048,
            "{tree}: a page in a 50-page section is {} bytes, in a 2,000-page section {} bytes",
            small.len(),
            large.len()
        );
    }
    let page = read(tmp.path(), "en/b/p01000/index.html");
    // A window around the page, gaps either side, and the section's listing.
    for near in ["p00995", "p00999", "p01001", "p01005"] {
        assert!(
            page.contains(&format!("href=\"/en/b/{near}/\"")),
            "{near} shown"
        );
    }
    for far in ["p00000", "p00994", "p01006", "p01999"] {
        assert!(
            !page.contains(&format!("href=\"/en/b/{far}/\"")),
            "{far} not shown"
        );
    }
    assert_eq!(page.matches("site-nav__gap").count(), 2);
    assert!(page.contains(
        "<li class=\"site-nav__d1 site-nav__all\"><a href=\"/en/b/\">All 2000 pages of this section</a></li>"
    ));
    assert!(page.contains("<a href=\"/en/b/p01000/\" aria-current=\"page\">Page 01000</a>"));
    // Previous and next in navigation order.
    assert!(page.contains("<a class=\"pager__prev\" rel=\"prev\" href=\"/en/b/p00999/\"><span class=\"pager__dir\">Previous:</span> Page 00999</a>"));
    assert!(page.contains("<a class=\"pager__next\" rel=\"next\" href=\"/en/b/p01001/\"><span class=\"pager__dir\">Next:</span> Page 01001</a>"));
    let small = read(tmp.path(), "en/a/p00025/index.html");
    assert!(small.contains("href=\"/en/a/p00030/\""));
    assert!(!small.contains("href=\"/en/a/p00031/\""));
    assert!(
        !small.contains("href=\"/en/b/p00001/\""),
        "other sections stay closed"
    );
    // A section of up to 15 pages is shown whole: the home page's top
    // level here, without gaps.
    let home = read(tmp.path(), "en/index.html");
    assert!(home.contains("href=\"/en/a/\"") && home.contains("href=\"/en/b/\""));
    assert!(!home.contains("site-nav__gap"));
}

#[test]
fn issue_12_section_pages_list_their_pages_paginated() {
    let tmp = crate::scratch::tempdir();
    two_sections(tmp.path(), 250, "[output.html]\npaginate-by = 100\n");
    build_without_search(tmp.path());
    let first = read(tmp.path(), "en/b/index.html");
    assert!(first.contains("<h2 class=\"listing__title\">250 pages in this section</h2>"));
    assert!(
        first.contains("<li class=\"listing__item\"><a href=\"/en/b/p00099/\">Page 00099</a></li>")
    );
    assert!(!first.contains("href=\"/en/b/p00100/\""));
    assert!(first.contains("<link rel=\"next\" href=\"/en/b/page/2/\">"));
    assert!(first.contains("<span class=\"listing__number\">Page 1 of 3</span>"));
    assert!(!first.contains("rel=\"prev\" href=\"/en/b/page"));
    let second = read(tmp.path(), "en/b/page/2/index.html");
    assert!(second.contains("<link rel=\"prev\" href=\"/en/b/\">"));
    assert!(second.contains("<link rel=\"next\" href=\"/en/b/page/3/\">"));
    assert!(second.contains("<link rel=\"canonical\" href=\"/en/b/page/2/\">"));
    assert!(second.contains("href=\"/en/b/p00100/\">Page 00100</a></li>"));
    assert!(
        !second.contains("data-pagefind-body"),
        "only the first listing page is indexed"
    );
    let last = read(tmp.path(), "ja/b/page/3/index.html");
    assert!(last.contains("<span class=\"listing__number\">3 ページ中 3 ページ目</span>"));
    assert!(last.contains("href=\"/ja/b/p00249/\">ページ 00249</a></li>"));
    assert!(!last.contains("rel=\"next\""));
    assert!(tmp
        .path()
        .join("public/ja-en/b/page/3/index.html")
        .is_file());
    assert!(!tmp.path().join("public/en/b/page/4").exists());
    // 50 pages fit on one listing page.
    assert!(!tmp.path().join("public/en/a/page").exists());
    let a = read(tmp.path(), "en/a/index.html");
    assert_eq!(a.matches("class=\"listing__item\"").count(), 50);
    assert!(!a.contains("listing__number"));
}

#[test]
fn issue_12_search_can_be_turned_off() {
    let tmp = crate::scratch::tempdir();
    let root = tmp.path();
    let mut book = String::from("[book]\ntitle = \"Off\"\n");
    std::fs::create_dir_all(root.join("content")).expect("mkdir");
    std::fs::write(
        root.join("content/_index.md"),
        "+++\ntitle = { ja = \"ホーム\", en = \"Home\" }\n+++\n::: ja\n本文。\n:::\n::: en\nText.\n:::\n",
    )
    .expect("write");
    std::fs::write(root.join("book.toml"), &book).expect("write");
    let run = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_kansoku"))
            .args(args)
            .arg("--root")
            .arg(root)
            .output()
            .expect("kansoku runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    run(&["build"]);
    assert!(root.join("public/en/pagefind/pagefind.js").is_file());
    assert!(read(root, "en/index.html").contains("id=\"site-search\""));
    run(&["build", "--no-search"]);
    assert!(!root.join("public/en/pagefind").exists());
    assert!(!read(root, "en/index.html").contains("id=\"site-search\""));
    let _ = writeln!(book, "[search]\nenabled = false");
    std::fs::write(root.join("book.toml"), &book).expect("write");
    run(&["build"]);
    assert!(!root.join("public/ja/pagefind").exists());
    assert!(!read(root, "ja/index.html").contains("id=\"site-search\""));
}

/// The `index.html` files of `public/<lang>/` outside the search bundle:
/// how many there are, and how many mark a body for Pagefind.
fn indexed_pages(root: &Path, lang: &str) -> (usize, usize) {
    let (mut all, mut bodies) = (0, 0);
    for entry in walkdir::WalkDir::new(root.join("public").join(lang)) {
        let entry = entry.expect("walk public/");
        let path = entry.path();
        if path.file_name().is_some_and(|n| n == "index.html")
            && !path.components().any(|c| c.as_os_str() == "pagefind")
        {
            all += 1;
            let html = std::fs::read_to_string(path).expect("read a page");
            bodies += usize::from(html.contains("data-pagefind-body"));
        }
    }
    (all, bodies)
}

#[test]
#[ignore = "about 40 s: .ci/run runs it (cargo test -- --include-ignored)"]
fn issue_12_a_large_site_is_indexed_in_shards_holding_every_page_once() {
    let tmp = crate::scratch::tempdir();
    let root = tmp.path();
    two_sections(root, 1200, "");
    crate::common::build_with(root, kansoku::site::BuildOptions::default())
        .unwrap_or_else(|e| panic!("build: {e}"));
    let per = kansoku::search::SHARD_PAGES;
    for lang in ["ja", "en"] {
        let (all, bodies) = indexed_pages(root, lang);
        let shards = all.div_ceil(per);
        assert!(shards >= 3, "{lang}: {all} pages make {shards} shards");
        // The search box merges the further shards listed beside the bundle.
        let listed: Vec<String> =
            serde_json::from_str(&read(root, &format!("{lang}/pagefind/kansoku-shards.json")))
                .expect("the shard list is JSON");
        let expected: Vec<String> = (1..shards).map(|k| format!("shard-{k}/")).collect();
        assert_eq!(listed, expected, "{lang}");
        // Each page with a body is in exactly one shard: the shards' page
        // counts add up to the pages, none over the shard size.
        let mut counted = 0;
        for dir in std::iter::once(String::new()).chain(listed) {
            let entry: serde_json::Value = serde_json::from_str(&read(
                root,
                &format!("{lang}/pagefind/{dir}pagefind-entry.json"),
            ))
            .expect("entry is JSON");
            let count = entry["languages"][lang]["page_count"]
                .as_u64()
                .unwrap_or_else(|| panic!("{lang}/{dir}: page_count in {entry}"));
            assert!(count as usize <= per, "{lang}/{dir}: {count} pages");
            counted += count as usize;
            if !dir.is_empty() {
                // A shard's pages are searched by the primary bundle's
                // scripts: it carries only its index.
                assert!(
                    !root
                        .join(format!("public/{lang}/pagefind/{dir}pagefind.js"))
                        .exists(),
                    "{lang}/{dir}"
                );
            }
        }
        assert_eq!(counted, bodies, "{lang}: pages indexed across the shards");
    }
}
