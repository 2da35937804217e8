//! Issue 28, for machine and offline readers: the RO-Crate a build writes
//! (`ro-crate-metadata.json`, with `claims.schema.json`) and the one-file
//! archive of `kansoku build --archive FILE`.
//!
//! A JSON-LD processor expands the crate in `tests/browser/rocrate.test.js`
//! and Chromium opens the archive in `tests/browser/archive.test.js`; here
//! are what a build writes, byte for byte, and what it refuses.

use crate::common::build_with;
use crate::common::{self, copy_dir, repo_built, repo_root, SiteTest, Tree};
use kansoku::site::archive::Archive;
use kansoku::site::BuildOptions;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

// ---------------------------------------------------------------- crate

/// The crate's graph by `@id`.
fn graph(t: &SiteTest) -> BTreeMap<String, Value> {
    let doc: Value =
        serde_json::from_str(&t.read("ro-crate-metadata.json")).expect("the crate is JSON");
    assert_eq!(doc["@context"], "https://w3id.org/ro/crate/1.3/context");
    doc["@graph"]
        .as_array()
        .expect("a @graph")
        .iter()
        .map(|n| (n["@id"].as_str().expect("an @id").to_owned(), n.clone()))
        .collect()
}

/// Every file under the build's `evidence/`, as a path from the build
/// directory, from the directory itself.
fn published_evidence(t: &SiteTest) -> Vec<String> {
    Tree::of(&t.out())
        .paths()
        .into_iter()
        .filter(|p| p.starts_with("evidence/"))
        .map(str::to_owned)
        .collect()
}

fn sha256(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The crate of a built site: a Dataset root whose parts are each
/// published evidence file (from the build directory's listing), with
/// its size and hash, and claims.json, its schema and claims.jsonld.
fn assert_crate_names_every_evidence_file(t: &SiteTest) -> BTreeMap<String, Value> {
    let g = graph(t);
    let descriptor = &g["ro-crate-metadata.json"];
    assert_eq!(descriptor["@type"], "CreativeWork");
    assert_eq!(descriptor["about"]["@id"], "./");
    assert_eq!(
        descriptor["conformsTo"]["@id"],
        "https://w3id.org/ro/crate/1.3"
    );
    let root = &g["./"];
    assert_eq!(root["@type"], "Dataset");
    let parts: BTreeSet<&str> = root["hasPart"]
        .as_array()
        .expect("hasPart")
        .iter()
        .map(|p| p["@id"].as_str().expect("an @id"))
        .collect();
    let evidence = published_evidence(t);
    assert!(!evidence.is_empty());
    for path in &evidence {
        let file = g
            .get(path.as_str())
            .unwrap_or_else(|| panic!("{path} has no entity in the crate"));
        assert!(parts.contains(path.as_str()), "{path} is not a part");
        assert_eq!(file["@type"], "File", "{path}");
        let bytes = std::fs::read(t.out_path(path)).expect("published");
        assert_eq!(file["contentSize"], bytes.len().to_string(), "{path}");
        assert_eq!(file["sha256"], sha256(&bytes), "{path}");
    }
    for f in ["claims.json", "claims.jsonld", "claims.schema.json"] {
        assert!(parts.contains(f), "{f} is not a part");
        let bytes = std::fs::read(t.out_path(f)).unwrap_or_else(|_| panic!("{f} is published"));
        // Issue 42: RO-Crate recommends a size on every File.
        assert_eq!(g[f]["contentSize"], bytes.len().to_string(), "{f}");
        assert_eq!(g[f]["sha256"], sha256(&bytes), "{f}");
    }
    // Issue 42: what claims.json conforms to is an entity of the crate,
    // a CreativeWork, as RO-Crate asks.
    let schema = g["claims.json"]["conformsTo"]["@id"]
        .as_str()
        .expect("claims.json names its schema");
    assert_eq!(
        g[schema]["@type"],
        serde_json::json!(["File", "CreativeWork"])
    );
    for (id, node) in &g {
        if node["@type"] == "File" || node["@type"][0] == "File" {
            assert!(node["contentSize"].is_string(), "{id} has no contentSize");
        }
    }
    // Every entity a property names is in the graph, except the RO-Crate
    // specification the descriptor conforms to.
    for node in g.values() {
        for value in node.as_object().expect("an object").values() {
            let refs: Vec<&Value> = match value {
                Value::Array(a) => a.iter().collect(),
                v => vec![v],
            };
            for r in refs {
                if let Some(id) = r.get("@id").and_then(Value::as_str) {
                    assert!(
                        g.contains_key(id) || id == "https://w3id.org/ro/crate/1.3",
                        "{} names {id}, which the graph does not describe",
                        node["@id"]
                    );
                }
            }
        }
    }
    assert_eq!(
        parts.len(),
        evidence.len() + 3,
        "nothing else is a part: {parts:?}"
    );
    g
}

#[test]
fn issue_28_the_crate_of_this_site_names_every_evidence_file() {
    let t = repo_built();
    let g = assert_crate_names_every_evidence_file(t);
    let root = &g["./"];
    assert_eq!(
        root["name"],
        serde_json::json!([
            { "@language": "ja", "@value": "ROCm-pages" },
            { "@language": "en", "@value": "ROCm-pages" },
        ])
    );
    assert_eq!(root["inLanguage"], serde_json::json!(["ja", "en"]));
    // Issue 42: book.toml says no license is stated (NOASSERTION), and the
    // crate says so in words rather than name one.
    assert_eq!(root["license"]["@id"], "#license");
    assert_eq!(g["#license"]["identifier"], "NOASSERTION");
    assert_eq!(
        g["#license"]["name"],
        serde_json::json!([
            { "@language": "ja", "@value": "ライセンスの記載なし" },
            { "@language": "en", "@value": "No license stated" },
        ])
    );
    assert_eq!(
        g[root["publisher"]["@id"].as_str().expect("a publisher")],
        serde_json::json!({ "@id": "#publisher", "@type": "Organization", "name": "ROCm-pages maintainers" })
    );
    // No page states an `updated` date: the day of the build.
    let date = root["datePublished"].as_str().expect("a datePublished");
    assert!(
        date.len() == 10 && date.as_bytes()[4] == b'-' && date.as_bytes()[7] == b'-',
        "{date}"
    );
    // Transcripts and notes: no run made them.
    assert!(!g.values().any(|n| n["@type"] == "CreateAction"));
    assert_eq!(
        t.read("claims.schema.json"),
        std::fs::read_to_string(repo_root().join("schemas/claims.schema.json")).expect("schema"),
    );
}

#[test]
fn issue_28_a_capture_is_the_result_of_a_create_action_with_its_command_and_times() {
    let mut t = SiteTest::from_dir(&repo_root().join("examples/shared-libs"));
    t.build();
    let g = assert_crate_names_every_evidence_file(&t);
    assert_eq!(
        g["evidence/captures/readelf-dynamic.txt"]["prov:wasGeneratedBy"]["@id"],
        "#run-captures/readelf-dynamic.txt"
    );
    assert_eq!(
        g["#run-captures/readelf-dynamic.txt"],
        serde_json::json!({
            "@id": "#run-captures/readelf-dynamic.txt",
            "@type": "CreateAction",
            "actionStatus": { "@id": "http://schema.org/CompletedActionStatus" },
            "description": "readelf -d /bin/cat",
            "endTime": "2026-11-25T16:34:35Z",
            "instrument": { "@id": "#program-readelf" },
            "name": "Run of readelf",
            "result": { "@id": "evidence/captures/readelf-dynamic.txt" },
            "startTime": "2026-11-25T16:34:35Z",
        })
    );
    // Issue 42: a capture records no version or origin of its program,
    // which RO-Crate requires of a SoftwareApplication: a Thing, saying so.
    assert_eq!(
        g["#program-readelf"],
        serde_json::json!({
            "@id": "#program-readelf",
            "@type": "Thing",
            "description": "The program `readelf` as the captured command line named it; its version and origin were not recorded.",
            "name": "readelf",
        })
    );
    assert_eq!(
        g["http://schema.org/CompletedActionStatus"],
        serde_json::json!({
            "@id": "http://schema.org/CompletedActionStatus",
            "@type": "ActionStatusType",
            "description": "The command ran to its end and exited with status 0.",
            "name": "Completed",
        })
    );
    // kansoku's own example, under kansoku's license: both of its
    // licenses, each an SPDX entity saying which expression it is from.
    let root = &g["./"];
    assert_eq!(
        root["license"],
        serde_json::json!([
            { "@id": "https://spdx.org/licenses/MIT" },
            { "@id": "https://spdx.org/licenses/Apache-2.0" },
        ])
    );
    assert_eq!(
        g["https://spdx.org/licenses/Apache-2.0"],
        serde_json::json!({
            "@id": "https://spdx.org/licenses/Apache-2.0",
            "@type": "CreativeWork",
            "description": "Apache-2.0, one of the licenses of the SPDX expression `MIT OR Apache-2.0` the record is published under; its text is at https://spdx.org/licenses/Apache-2.0.html.",
            "identifier": "Apache-2.0",
            "name": "Apache License 2.0",
            "url": "https://spdx.org/licenses/Apache-2.0.html",
        })
    );
    let actions = g.values().filter(|n| n["@type"] == "CreateAction").count();
    assert_eq!(actions, published_evidence(&t).len(), "one run per capture");
}

#[test]
fn issue_28_a_capture_and_its_stderr_are_one_run_and_a_failed_run_says_so() {
    let mut t = SiteTest::from_fixture("basic");
    let header = |stream: &str, other: &str, body: &str| {
        format!(
            "+++\nkind = \"capture\"\ncommand = [\"ls\", \"/nowhere\"]\ncwd = \".\"\nstarted = \"2026-11-25T10:00:00Z\"\nended = \"2026-11-25T10:00:01Z\"\nexit = \"2\"\nstream = \"{stream}\"\nother-stream = \"{other}\"\nbody-sha256 = \"{}\"\n+++\n{body}",
            sha256(body.as_bytes())
        )
    };
    t.write(
        "evidence/runs/ls.txt",
        &header("stdout", "runs/ls.stderr.txt", "\n"),
    )
    .write(
        "evidence/runs/ls.stderr.txt",
        &header(
            "stderr",
            "runs/ls.txt",
            "ls: cannot access '/nowhere': No such file or directory\n",
        ),
    )
    .build();
    let g = graph(&t);
    let run = &g["#run-runs/ls.txt"];
    assert_eq!(
        run["actionStatus"]["@id"],
        "http://schema.org/FailedActionStatus"
    );
    assert_eq!(run["error"], "exit 2");
    assert_eq!(
        g["http://schema.org/FailedActionStatus"]["@type"],
        "ActionStatusType"
    );
    assert_eq!(
        run["result"],
        serde_json::json!([
            { "@id": "evidence/runs/ls.stderr.txt" },
            { "@id": "evidence/runs/ls.txt" },
        ])
    );
    for f in ["evidence/runs/ls.txt", "evidence/runs/ls.stderr.txt"] {
        assert_eq!(g[f]["prov:wasGeneratedBy"]["@id"], "#run-runs/ls.txt");
    }
}

#[test]
fn issue_28_paths_are_percent_encoded_and_the_date_is_the_newest_updated() {
    let mut t = SiteTest::from_fixture("basic");
    t.write("evidence/logs/a b観測.log", "one line\n").build();
    let g = graph(&t);
    let file = &g["evidence/logs/a%20b%E8%A6%B3%E6%B8%AC.log"];
    assert_eq!(file["name"], "logs/a b観測.log");
    assert_eq!(file["encodingFormat"], "text/plain");
    // notes/page.md says `updated = 2026-01-15`; the site's url is absolute.
    assert_eq!(g["./"]["datePublished"], "2026-01-15");
    assert_eq!(g["./"]["url"], "https://example.org/");
}

#[test]
fn issue_42_license_and_publisher_come_from_book_toml() {
    let mut t = SiteTest::from_fixture("basic");
    t.edit(
        "book.toml",
        "languages = [\"ja\", \"en\"]",
        "languages = [\"ja\", \"en\"]\nlicense = \"CC-BY-4.0\"\npublisher = { name = \"Example Lab\", url = \"https://example.org/lab/\", email = \"lab@example.org\" }",
    )
    .build();
    let g = assert_crate_names_every_evidence_file(&t);
    let root = &g["./"];
    assert_eq!(
        root["license"],
        serde_json::json!({ "@id": "https://spdx.org/licenses/CC-BY-4.0" })
    );
    assert_eq!(
        g["https://spdx.org/licenses/CC-BY-4.0"],
        serde_json::json!({
            "@id": "https://spdx.org/licenses/CC-BY-4.0",
            "@type": "CreativeWork",
            "description": "The SPDX license CC-BY-4.0; its text is at https://spdx.org/licenses/CC-BY-4.0.html.",
            "identifier": "CC-BY-4.0",
            "name": "Creative Commons Attribution 4.0 International",
            "url": "https://spdx.org/licenses/CC-BY-4.0.html",
        })
    );
    assert_eq!(
        root["publisher"],
        serde_json::json!({ "@id": "https://example.org/lab/" })
    );
    assert_eq!(
        g["https://example.org/lab/"],
        serde_json::json!({
            "@id": "https://example.org/lab/",
            "@type": "Organization",
            "contactPoint": { "@id": "mailto:lab@example.org" },
            "name": "Example Lab",
            "url": "https://example.org/lab/",
        })
    );
    assert_eq!(
        g["mailto:lab@example.org"],
        serde_json::json!({
            "@id": "mailto:lab@example.org",
            "@type": "ContactPoint",
            "email": "lab@example.org",
            "name": "Example Lab",
            "url": "https://example.org/lab/",
        })
    );
}

#[test]
fn issue_28_the_crate_is_the_same_bytes_from_any_checkout() {
    let mut a = SiteTest::from_dir(&repo_root().join("examples/shared-libs"));
    let mut b = SiteTest::from_dir(&repo_root().join("examples/shared-libs"));
    a.build();
    b.build();
    assert_eq!(
        a.read("ro-crate-metadata.json"),
        b.read("ro-crate-metadata.json")
    );
}

#[test]
fn issue_28_ro_crate_false_writes_no_crate_and_changes_nothing_else() {
    let mut t = SiteTest::from_fixture("basic");
    t.build();
    let with = t.tree();
    t.edit(
        "book.toml",
        "[output.html]",
        "[output]\nro-crate = false\n\n[output.html]",
    )
    .build();
    let without = t.tree();
    let mut expected = with.clone();
    assert!(expected.0.remove("ro-crate-metadata.json").is_some());
    assert!(expected.0.remove("claims.schema.json").is_some());
    expected.assert_same(&without, "ro-crate = false");
}

// -------------------------------------------------------------- archive

/// Builds `t` with an archive; the error if the build fails.
fn build_archive(t: &SiteTest, archive: Archive) -> Result<(), kansoku::Error> {
    build_with(
        t.root(),
        BuildOptions {
            archive: Some(archive),
            ..BuildOptions::default()
        },
    )
    .map(drop)
}

/// Beside the site root, where an archive may go.
fn beside(t: &SiteTest, name: &str) -> PathBuf {
    t.root().parent().expect("a temp dir").join(name)
}

/// Every `id="…"` of a document, and every `href="#…"`.
fn ids_and_fragments(html: &str) -> (Vec<&str>, Vec<&str>) {
    let fragments = html
        .match_indices(" href=\"#")
        .map(|(i, m)| {
            let rest = &html[i + m.len()..];
            &rest[..rest.find('"').expect("closed")]
        })
        .collect();
    (common::ids(html), fragments)
}

#[test]
fn issue_28_the_archive_holds_every_page_and_every_link_lands_in_it() {
    let mut t = SiteTest::from_fixture("basic");
    let file = beside(&t, "record.html");
    build_archive(&t, Archive::new(file.clone())).expect("builds");
    let html = std::fs::read_to_string(&file).expect("written");
    let mut lines = html.lines();
    assert_eq!(lines.next(), Some("<!DOCTYPE html>"));
    assert!(lines
        .next()
        .is_some_and(|l| l.starts_with("<!-- kansoku archive:")));
    assert!(html.contains(
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src data:;"
    ));
    t.build();
    // A section for every page of each tree: content, listings, views,
    // the evidence index and every evidence page.
    let pages: Vec<String> = t
        .tree()
        .paths()
        .into_iter()
        .filter(|p| {
            p.ends_with("/index.html")
                && ["ja/", "en/", "ja-en/"].iter().any(|t| p.starts_with(t))
                && !p.contains("/pagefind/")
        })
        .map(|p| p.trim_end_matches("index.html").to_owned())
        .collect();
    assert!(pages.len() >= 10, "{pages:?}");
    for p in &pages {
        assert!(
            html.contains(&format!("\" id=\"{p}\" lang=\"")),
            "no section for {p}"
        );
    }
    let (ids, fragments) = ids_and_fragments(&html);
    assert_eq!(common::duplicate_ids(&html), Vec::<String>::new());
    let ids: BTreeSet<&str> = ids.into_iter().collect();
    let missing: BTreeSet<&&str> = fragments.iter().filter(|f| !ids.contains(**f)).collect();
    assert!(missing.is_empty(), "links that land nowhere: {missing:?}");
    // Claims and evidence lines, in other sections.
    assert!(fragments
        .iter()
        .any(|f| f.starts_with("en/notes/page/claim-")));
    assert!(fragments
        .iter()
        .any(|f| f.starts_with("ja/evidence/logs/run.log/L")));
    // Nothing is loaded: no script from a file, no stylesheet link, no
    // image but data: URLs, and no link leads out of the file to a path.
    for bad in [
        "<script src",
        "<link rel=\"stylesheet\"",
        " src=\"/",
        " href=\"/",
        "pagefind",
    ] {
        assert!(!html.contains(bad), "{bad} in the archive");
    }
}

#[test]
fn issue_28_an_archive_is_the_same_bytes_cold_cached_and_from_another_checkout() {
    let t = SiteTest::from_fixture("basic");
    let first = beside(&t, "a.html");
    build_archive(&t, Archive::new(first.clone())).expect("builds");
    // Cached: the units are taken from the first build's tree.
    let second = beside(&t, "b.html");
    build_archive(&t, Archive::new(second.clone())).expect("builds");
    let other = SiteTest::from_fixture("basic");
    let third = beside(&other, "c.html");
    build_with(
        other.root(),
        BuildOptions {
            archive: Some(Archive::new(third.clone())),
            cache: false,
            ..BuildOptions::default()
        },
    )
    .expect("builds");
    let read = |p: &Path| std::fs::read(p).expect("written");
    assert!(read(&first) == read(&second), "cached build, other bytes");
    assert!(read(&first) == read(&third), "other checkout, other bytes");
}

#[test]
fn issue_28_one_language_archive_holds_that_language_only() {
    let t = SiteTest::from_fixture("basic");
    let file = beside(&t, "en.html");
    build_archive(
        &t,
        Archive {
            lang: Some(kansoku::lang::Lang::En),
            ..Archive::new(file.clone())
        },
    )
    .expect("builds");
    let html = std::fs::read_to_string(&file).expect("written");
    assert!(html.contains("<html lang=\"en\">"));
    assert!(html.contains(" id=\"en/notes/page/\" "));
    for gone in [" id=\"ja/", " id=\"ja-en/", "href=\"#ja", "hreflang=\"ja\""] {
        assert!(!html.contains(gone), "{gone} in an English archive");
    }
    let (ids, fragments) = ids_and_fragments(&html);
    let ids: BTreeSet<&str> = ids.into_iter().collect();
    assert!(fragments.iter().all(|f| ids.contains(f)));
}

#[test]
fn issue_28_an_archive_past_its_limit_is_refused_and_nothing_is_written() {
    let t = SiteTest::from_fixture("basic");
    let file = beside(&t, "record.html");
    let e = build_archive(
        &t,
        Archive {
            limit: 10 << 10,
            ..Archive::new(file.clone())
        },
    )
    .expect_err("past the limit");
    let msg = e.to_string();
    let prefix = format!("--archive {}: the archive would be ", file.display());
    assert!(msg.starts_with(&prefix), "{msg}");
    assert!(
        msg.ends_with(" KiB, over its limit of 10.0 KiB; kansoku changed nothing. Hint: put one language in it with --archive-lang ja or --archive-lang en (each about a third of the size)"),
        "{msg}"
    );
    assert!(!file.exists(), "an archive was written");
    assert!(!t.out().exists(), "the site was written");
    assert_eq!(common::leftovers_in(t.root()), Vec::<String>::new());
    let left: Vec<_> = std::fs::read_dir(t.root().parent().expect("temp dir"))
        .expect("reads")
        .map(|e| e.expect("entry").file_name())
        .collect();
    assert_eq!(
        left,
        [std::ffi::OsString::from("site")],
        "temporary files left"
    );
}

#[test]
fn issue_28_an_archive_never_lands_where_it_would_lose_a_file() {
    let mut t = SiteTest::from_fixture("basic");
    t.build();
    let before = t.tree();
    let refused = |t: &SiteTest, path: &Path| -> String {
        build_archive(t, Archive::new(path.to_path_buf()))
            .expect_err("refused")
            .to_string()
    };
    let inside = t.out().join("record.html");
    assert_eq!(
        refused(&t, &inside),
        format!("--archive {}: it would lie inside the build directory public, which builds replace; kansoku changed nothing. Hint: write the archive beside the build directory, such as record.html", inside.display())
    );
    let source = t.root().join("evidence/record.html");
    assert_eq!(
        refused(&t, &source),
        format!("--archive {}: it would lie inside the site's evidence/; kansoku changed nothing. Hint: write the archive outside the site's sources, such as record.html at the site root", source.display())
    );
    let mine = beside(&t, "mine.html");
    std::fs::write(&mine, "<!DOCTYPE html>\n<p>my notes</p>\n").expect("write");
    assert_eq!(
        refused(&t, &mine),
        format!("--archive {}: a file kansoku did not write is there, and kansoku replaces only an archive it wrote; kansoku changed nothing. Hint: move the file away, or name another file", mine.display())
    );
    assert_eq!(
        std::fs::read_to_string(&mine).expect("kept"),
        "<!DOCTYPE html>\n<p>my notes</p>\n"
    );
    let nowhere = beside(&t, "no-such-dir/record.html");
    assert_eq!(
        refused(&t, &nowhere),
        format!("--archive {}: its directory {} does not exist; kansoku changed nothing. Hint: create the directory first, or name a file in one that exists", nowhere.display(), beside(&t, "no-such-dir").display())
    );
    let dir = beside(&t, "a-dir");
    std::fs::create_dir(&dir).expect("mkdir");
    assert_eq!(
        refused(&t, &dir),
        format!("--archive {}: it is a directory; kansoku changed nothing. Hint: name a file, such as record.html", dir.display())
    );
    #[cfg(unix)]
    {
        let link = beside(&t, "link.html");
        std::os::unix::fs::symlink(&mine, &link).expect("symlink");
        assert_eq!(
            refused(&t, &link),
            format!("--archive {}: it is a symbolic link, which kansoku does not replace; kansoku changed nothing. Hint: name the file it points to, or remove the link", link.display())
        );
    }
    before.assert_same(&t.tree(), "refused archives");
    assert_eq!(common::leftovers_in(t.root()), Vec::<String>::new());
}

#[test]
fn issue_28_a_later_build_replaces_its_archive_and_a_failed_one_keeps_it() {
    let mut t = SiteTest::from_fixture("basic");
    let file = t.root().join("record.html");
    build_archive(&t, Archive::new(file.clone())).expect("builds");
    let first = std::fs::read_to_string(&file).expect("written");
    t.write(
        "content/notes/second.md",
        "+++\ntitle = \"Second\"\n+++\nA second page.\n",
    );
    build_archive(&t, Archive::new(file.clone())).expect("builds again");
    let second = std::fs::read_to_string(&file).expect("replaced");
    assert!(!first.contains("ja/notes/second/") && second.contains(" id=\"ja/notes/second/\" "));
    // A build that fails leaves the archive as it was.
    t.write("content/notes/broken.md", "+++\ntitle = \n+++\n");
    build_archive(&t, Archive::new(file.clone())).expect_err("a content error");
    assert_eq!(std::fs::read_to_string(&file).expect("kept"), second);
    let stray: Vec<String> = std::fs::read_dir(t.root())
        .expect("reads")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("kansoku-tmp"))
        .collect();
    assert_eq!(stray, Vec::<String>::new());
}

#[test]
fn issue_28_build_archive_on_the_command_line() {
    let tmp = crate::scratch::tempdir();
    let root = tmp.path().join("site");
    copy_dir(&common::fixture("basic"), &root);
    let file = tmp.path().join("record.html");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kansoku"))
        .arg("build")
        .arg("--root")
        .arg(&root)
        .arg("--archive")
        .arg(&file)
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let size = std::fs::metadata(&file).expect("written").len();
    assert_eq!(
        stdout.lines().nth(1),
        Some(
            format!(
                "archive: {} (limit 64.0 MiB) → {}",
                kansoku::site::archive::size(size),
                file.display()
            )
            .as_str()
        )
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kansoku"))
        .args(["build", "--archive-lang", "en", "--root"])
        .arg(&root)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("the following required arguments were not provided:\n  --archive <FILE>"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
