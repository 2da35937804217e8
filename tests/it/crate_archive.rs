//! Issue 28, for machine readers: the RO-Crate a build writes
//! (`ro-crate-metadata.json`, with `claims.schema.json`).
//!
//! A JSON-LD processor expands the crate in `tests/browser/rocrate.test.js`;
//! here is what a build writes, byte for byte.

use crate::common::{repo_built, repo_root, SiteTest, Tree};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

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
        assert!(t.exists(f), "{f} is not published");
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
    // book.toml states no license and no page an `updated` date.
    assert!(root.get("license").is_none() && root.get("datePublished").is_none());
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
    assert_eq!(
        g["#program-readelf"],
        serde_json::json!({ "@id": "#program-readelf", "@type": "SoftwareApplication", "name": "readelf" })
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
