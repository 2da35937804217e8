//! `kansoku capture` (issue 27): evidence written with its provenance, a
//! hash `check` verifies, no transcript warning for what was captured,
//! secrets refused, nothing overwritten unasked.

use crate::common;
use common::SiteTest;
use kansoku::capture::{self, Import, Request};

fn site() -> SiteTest {
    SiteTest::from_fixture("check/clean")
}

fn request(command: &[&str]) -> Request {
    Request {
        command: command.iter().map(|s| (*s).to_owned()).collect(),
        dest: Some("runs/out.txt".to_owned()),
        ..Request::default()
    }
}

fn sha256(text: &str) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The header of a written evidence file, parsed, and its body.
fn read(t: &SiteTest, rel: &str) -> (toml::Table, String) {
    let text = std::fs::read_to_string(t.root().join(rel)).expect("written");
    let rest = text.strip_prefix("+++\n").expect("a header");
    let (head, body) = rest.split_once("+++\n").expect("a closed header");
    (head.parse().expect("the header is TOML"), body.to_owned())
}

/// A confirmed claim `captured` citing `path` lines `lines`, quoting `quote`.
fn cite(t: &mut SiteTest, path: &str, lines: &str, quote: &str) {
    crate::common::cite_quoted(t, "captured", path, lines, quote);
}

#[test]
fn a_capture_records_how_the_command_ran_and_the_hash_of_its_output() {
    let t = site();
    let written =
        capture::capture(t.root(), &request(&["printf", "one\\ntwo\\n"])).expect("captured");
    assert_eq!(written.paths, ["evidence/runs/out.txt"]);
    assert_eq!(written.exit, "0");
    let (head, body) = read(&t, "evidence/runs/out.txt");
    assert_eq!(body, "one\ntwo\n");
    assert_eq!(head["kind"].as_str(), Some("capture"));
    assert_eq!(
        head["command"]
            .as_array()
            .map(|a| a.iter().filter_map(|v| v.as_str()).collect::<Vec<_>>()),
        Some(vec!["printf", "one\\ntwo\\n"])
    );
    assert_eq!(head["exit"].as_str(), Some("0"));
    assert_eq!(head["stream"].as_str(), Some("stdout"));
    assert_eq!(
        head["body-sha256"].as_str(),
        Some(sha256("one\ntwo\n").as_str())
    );
    for key in ["cwd", "started", "ended"] {
        assert!(head.contains_key(key), "{key} recorded: {head}");
    }
    assert!(
        head["started"].as_str().is_some_and(|s| s.ends_with('Z')),
        "UTC"
    );
    // No stderr, no stderr file.
    assert!(!t.root().join("evidence/runs/out.stderr.txt").exists());
}

#[test]
fn stderr_is_kept_apart_and_a_failing_command_is_still_a_capture() {
    let t = site();
    let req = Request {
        shell: true,
        ..request(&["echo out; echo err >&2; exit 3"])
    };
    let written = capture::capture(t.root(), &req).expect("captured");
    assert_eq!(written.exit, "3");
    assert_eq!(
        written.paths,
        ["evidence/runs/out.txt", "evidence/runs/out.stderr.txt"]
    );
    let (head, body) = read(&t, "evidence/runs/out.stderr.txt");
    assert_eq!(body, "err\n");
    assert_eq!(head["stream"].as_str(), Some("stderr"));
    assert_eq!(head["other-stream"].as_str(), Some("runs/out.txt"));
    assert_eq!(head["exit"].as_str(), Some("3"));
    let (_, out) = read(&t, "evidence/runs/out.txt");
    assert_eq!(out, "out\n", "no marker mixed into the output");
}

#[test]
fn a_claim_citing_captured_lines_checks_clean_without_the_transcript_warning() {
    let mut t = site();
    capture::capture(t.root(), &request(&["printf", "alpha\\nbeta\\n"])).expect("captured");
    cite(&mut t, "runs/out.txt", "2", "beta");
    let report = t.check();
    let human = kansoku::check::format(&report, kansoku::check::Format::Human);
    assert_eq!(report.errors(), 0, "{human}");
    assert!(
        !report.diagnostics.iter().any(|d| d.code == "W002"),
        "captured evidence is not a transcript: {human}"
    );
}

#[test]
fn a_byte_changed_in_a_captured_body_is_an_error_naming_the_file() {
    let mut t = site();
    capture::capture(t.root(), &request(&["printf", "alpha\\nbeta\\n"])).expect("captured");
    cite(&mut t, "runs/out.txt", "2", "beta");
    t.edit("evidence/runs/out.txt", "alpha\n", "alphA\n");
    let report = t.check();
    let human = kansoku::check::format(&report, kansoku::check::Format::Human);
    let expected = format!(
        "evidence/runs/out.txt:1:1: error[E019]: evidence/runs/out.txt changed since it was captured: its body's SHA-256 is {}, its header says {}\n  = hint: a capture is not edited: capture it again (`kansoku capture --replace`), or restore it from version control",
        sha256("alphA\nbeta\n"),
        sha256("alpha\nbeta\n")
    );
    assert!(human.contains(&expected), "{human}");
    // Restoring the byte restores the capture.
    t.edit("evidence/runs/out.txt", "alphA\n", "alpha\n");
    assert_eq!(t.check().errors(), 0);
}

#[test]
fn a_capture_without_its_hash_cannot_be_verified() {
    let mut t = site();
    t.write(
        "evidence/runs/hand.txt",
        "+++\nkind = \"capture\"\ncommand = [\"true\"]\n+++\nline\n",
    );
    cite(&mut t, "runs/hand.txt", "1", "line");
    let human = kansoku::check::format(&t.check(), kansoku::check::Format::Human);
    assert!(
        human.contains("error[E019]: evidence/runs/hand.txt is a capture without its `body-sha256`: it cannot be verified"),
        "{human}"
    );
}

#[test]
fn an_existing_capture_is_never_overwritten_unasked() {
    let t = site();
    capture::capture(t.root(), &request(&["printf", "first\\n"])).expect("captured");
    let err = capture::capture(t.root(), &request(&["printf", "second\\n"]))
        .expect_err("refused")
        .to_string();
    assert!(
        err.contains(
            "evidence/runs/out.txt exists; a capture never overwrites one: pass --replace"
        ),
        "{err}"
    );
    assert_eq!(read(&t, "evidence/runs/out.txt").1, "first\n");
    let again = Request {
        replace: true,
        ..request(&["printf", "second\\n"])
    };
    capture::capture(t.root(), &again).expect("replaced");
    assert_eq!(read(&t, "evidence/runs/out.txt").1, "second\n");
    // No temporary file left beside it.
    let names: Vec<String> = std::fs::read_dir(t.root().join("evidence/runs"))
        .expect("dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["out.txt"]);
}

#[test]
fn an_import_records_where_the_log_came_from() {
    let mut t = site();
    let log = t.root().join("dmesg.log");
    std::fs::write(&log, "[0.0] booted\n[1.0] amdgpu: ready\n").expect("log");
    let written = capture::import(
        t.root(),
        &Import {
            file: log,
            source: "dmesg on the test host".to_owned(),
            dest: Some("logs/dmesg.log".to_owned()),
            ..Import::default()
        },
    )
    .expect("imported");
    assert_eq!(written.paths, ["evidence/logs/dmesg.log"]);
    let (head, body) = read(&t, "evidence/logs/dmesg.log");
    assert_eq!(body, "[0.0] booted\n[1.0] amdgpu: ready\n");
    assert_eq!(head["kind"].as_str(), Some("import"));
    assert_eq!(head["source"].as_str(), Some("dmesg on the test host"));
    assert_eq!(head["original"].as_str(), Some("dmesg.log"));
    assert!(head.contains_key("mtime"));
    assert_eq!(head["body-sha256"].as_str(), Some(sha256(&body).as_str()));
    cite(&mut t, "logs/dmesg.log", "2", "amdgpu");
    let report = t.check();
    assert_eq!(report.errors(), 0);
    assert!(!report.diagnostics.iter().any(|d| d.code == "W002"));
}

#[test]
fn the_evidence_page_shows_the_provenance_in_both_languages() {
    let mut t = site();
    capture::capture(t.root(), &request(&["printf", "alpha\\nbeta\\n"])).expect("captured");
    cite(&mut t, "runs/out.txt", "2", "beta");
    t.build();
    for (lang, words) in [
        ("en", ["Command", "Exit status", "SHA-256 of the body"]),
        ("ja", ["コマンド", "終了ステータス", "本文の SHA-256"]),
    ] {
        let page = t.read(&format!("{lang}/evidence/runs/out.txt/index.html"));
        for w in words {
            assert!(page.contains(w), "{lang}: {w}");
        }
        assert!(
            page.contains("<code>printf one\\ntwo\\n</code>")
                || page.contains("<code>printf alpha\\nbeta\\n</code>")
        );
    }
}

// ---------- recapture ----------

/// A site with a reviewed claim citing line 2 (`y`) of a capture of
/// `cat OUTSIDE/data.txt` (a file beside the site), run in the site's
/// root; the capture approved by `capture` itself. Returns the site and
/// the data file.
fn captured_data() -> (SiteTest, std::path::PathBuf) {
    let mut t = site();
    let data = t.root().parent().expect("parent").join("data.txt");
    std::fs::write(&data, "x\ny\n").expect("data");
    let req = Request {
        cwd: Some(t.root().to_owned()),
        ..request(&["cat", data.to_str().expect("utf-8")])
    };
    capture::capture(t.root(), &req).expect("captured");
    cite(&mut t, "runs/out.txt", "2", "y");
    crate::review::review_all(t.root());
    assert_eq!(t.check().errors(), 0);
    (t, data)
}

fn recapture(root: &std::path::Path, files: &[&str], mode: capture::Mode) -> capture::Run {
    capture::recapture(
        root,
        &capture::Options {
            files: files.iter().map(|f| (*f).to_owned()).collect(),
            mode,
            approvals_from: None,
            limits: capture::Limits::default(),
            on_run: &|_| {},
        },
    )
    .expect("recaptured")
}

fn outcomes(done: &capture::Run) -> Vec<(String, &'static str)> {
    done.captures
        .iter()
        .flat_map(|r| r.claims.iter().map(|c| (c.id.clone(), c.outcome)))
        .collect()
}

#[test]
fn recapture_of_the_same_output_leaves_every_claim_unchanged() {
    let (t, _) = captured_data();
    let before = std::fs::read(t.root().join("evidence/runs/out.txt")).expect("capture");
    let done = recapture(t.root(), &[], capture::Mode::Compare);
    assert_eq!(done.captures.len(), 1);
    assert_eq!(done.captures[0].status, "compared");
    assert_eq!(outcomes(&done), [("captured".to_owned(), "unchanged")]);
    assert_eq!(
        std::fs::read(t.root().join("evidence/runs/out.txt")).expect("capture"),
        before,
        "--compare writes nothing"
    );
}

#[test]
fn recapture_after_lines_were_inserted_above_says_moved() {
    let (t, data) = captured_data();
    std::fs::write(&data, "new\nx\ny\n").expect("data");
    let done = recapture(t.root(), &["runs/out.txt"], capture::Mode::Compare);
    assert_eq!(outcomes(&done), [("captured".to_owned(), "moved")]);
    assert_eq!(
        done.captures[0].claims[0].finding.as_deref(),
        Some("the text cited by claim `captured` moved: `evidence/runs/out.txt#L2` is now `evidence/runs/out.txt#L3`")
    );
    // Written, the site then says the same, and `check --fix` can fix it.
    let done = recapture(t.root(), &[], capture::Mode::Write);
    assert_eq!(done.captures[0].status, "written");
    let codes: Vec<String> = t
        .check()
        .diagnostics
        .iter()
        .map(|d| d.code.to_string())
        .collect();
    assert!(codes.contains(&"E082".to_owned()), "{codes:?}");
}

#[test]
fn recapture_after_the_output_changed_names_the_claim_suspect() {
    let (t, data) = captured_data();
    std::fs::write(&data, "x\nz\n").expect("data");
    let done = recapture(t.root(), &[], capture::Mode::Compare);
    assert_eq!(outcomes(&done), [("captured".to_owned(), "changed")]);
    // The quote `y` is gone from the cited line: that is what is said.
    assert_eq!(
        done.captures[0].claims[0].finding.as_deref(),
        Some("quote \"y\" not found in line 2 of `evidence/runs/out.txt`")
    );
    let human = capture::report(&done, "human");
    assert_eq!(
        human,
        "evidence/runs/out.txt: compared (exit 0)\n  captured: changed — quote \"y\" not found in line 2 of `evidence/runs/out.txt`\n"
    );
    assert_eq!(
        capture::report(&done, "github"),
        "::error file=evidence/runs/out.txt::claim captured changed after recapture: quote \"y\" not found in line 2 of `evidence/runs/out.txt`\n"
    );
}

#[test]
fn a_capture_that_cannot_be_rerun_here_says_so_and_changes_nothing() {
    let (t, data) = captured_data();
    let path = t.root().join("evidence/runs/out.txt");
    let before = std::fs::read_to_string(&path).expect("capture");
    // Run in the site's root, it recorded that relative to the root, so
    // that it re-runs in another checkout (and no machine path is kept).
    assert!(before.contains("cwd = \".\"\n"), "{before}");
    // Its command is missing here (approved as such: the lock is edited
    // by `review`, as a person would).
    let cmd = format!("command = [\"cat\", \"{}\"]", data.display());
    assert!(before.contains(&cmd), "{before}");
    let missing = before.replace(&cmd, "command = [\"kansoku-no-such-tool\"]");
    std::fs::write(&path, &missing).expect("edit the header");
    let done = recapture(t.root(), &[], capture::Mode::Write);
    assert_eq!(done.captures[0].status, "refused");
    assert_eq!(
        done.captures[0].detail,
        "its command changed since it was approved"
    );
    crate::recapture::kansoku(t.root(), &["review", "--captures"]);
    let done = recapture(t.root(), &[], capture::Mode::Write);
    assert_eq!(done.captures[0].status, "skipped");
    assert!(
        done.captures[0]
            .detail
            .starts_with("cannot be re-run here: could not run `kansoku-no-such-tool`"),
        "{}",
        done.captures[0].detail
    );
    assert_eq!(std::fs::read_to_string(&path).expect("capture"), missing);
    // Its working directory is not in the site.
    let gone = missing.replace("cwd = \".\"", "cwd = \"nowhere\"");
    std::fs::write(&path, &gone).expect("edit the header");
    crate::recapture::kansoku(t.root(), &["review", "--captures"]);
    let done = recapture(t.root(), &[], capture::Mode::Write);
    assert_eq!(done.captures[0].status, "skipped");
    assert_eq!(
        done.captures[0].detail,
        "cannot be re-run here: its working directory nowhere does not exist in the site (recapture runs commands in a copy of book.toml, kansoku.lock, content/, the evidence, templates/ and static/)"
    );
    assert_eq!(std::fs::read_to_string(&path).expect("capture"), gone);
}

#[test]
fn recapture_refuses_what_is_not_a_capture() {
    let (t, _) = captured_data();
    let err = capture::recapture(
        t.root(),
        &capture::Options {
            files: vec!["logs/a.log".to_owned()],
            mode: capture::Mode::DryRun,
            approvals_from: None,
            limits: capture::Limits::default(),
            on_run: &|_| {},
        },
    )
    .expect_err("refused")
    .to_string();
    assert!(
        err.contains("evidence/logs/a.log is not a capture"),
        "{err}"
    );
}

#[test]
fn the_examples_site_is_all_captures_and_checks_clean() {
    let root = common::repo_root().join("examples/shared-libs");
    let report = kansoku::check::check(&root).expect("checks");
    let human = kansoku::check::format(&report, kansoku::check::Format::Human);
    assert_eq!((report.errors(), report.warnings()), (0, 0), "{human}");
    let files = std::fs::read_dir(root.join("evidence/captures"))
        .expect("captures")
        .count();
    assert!(files >= 3);
    for entry in std::fs::read_dir(root.join("evidence/captures")).expect("captures") {
        let text = std::fs::read_to_string(entry.expect("entry").path()).expect("text");
        assert!(
            text.contains("\nkind = \"capture\"\n"),
            "every evidence file is a capture"
        );
        assert!(
            text.contains("\ncwd = \".\"\n"),
            "recorded relative to the site, so it re-runs anywhere"
        );
    }
}

#[test]
fn claims_json_and_json_ld_carry_a_captures_provenance() {
    let mut t = site();
    capture::capture(t.root(), &request(&["printf", "alpha\\nbeta\\n"])).expect("captured");
    cite(&mut t, "runs/out.txt", "2", "beta");
    t.build();
    let json: serde_json::Value =
        serde_json::from_str(&t.read("claims.json")).expect("claims.json");
    let link = json["claims"]
        .as_array()
        .expect("claims")
        .iter()
        .find(|c| c["id"] == "captured")
        .expect("the claim")["evidence"][0]
        .clone();
    assert_eq!(link["kind"], "capture");
    assert_eq!(
        link["provenance"]["command"],
        serde_json::json!(["printf", "alpha\\nbeta\\n"])
    );
    assert_eq!(link["provenance"]["exit"], "0");
    assert!(link["provenance"]["started"]
        .as_str()
        .is_some_and(|s| s.ends_with('Z')));
    // The transcript-backed claim's link carries no provenance.
    let plain = json["claims"]
        .as_array()
        .expect("claims")
        .iter()
        .find(|c| c["id"] == "page-claim")
        .expect("a transcript claim")["evidence"][0]
        .clone();
    assert!(
        plain.get("provenance").is_none() && plain.get("kind").is_none(),
        "{plain}"
    );
    assert_eq!(
        crate::review::schema_errors(&t.read("claims.json")),
        Vec::<(String, String, String)>::new(),
        "claims.json keeps to its schema"
    );
    let ld: serde_json::Value =
        serde_json::from_str(&t.read("claims.jsonld")).expect("claims.jsonld");
    let node = ld["@graph"]
        .as_array()
        .expect("graph")
        .iter()
        .find(|n| n["identifier"] == "captured")
        .expect("the node");
    let activity = &node["wasDerivedFrom"][0]["prov:wasGeneratedBy"];
    assert_eq!(activity["@type"], "prov:Activity");
    assert_eq!(activity["name"], "printf alpha\\nbeta\\n");
    assert_eq!(activity["description"], "exit 0");
    assert_eq!(
        activity["prov:startedAtTime"]["@type"],
        "http://www.w3.org/2001/XMLSchema#dateTime"
    );
}

#[test]
fn a_gzip_log_is_cited_by_its_lines_and_published_as_it_is() {
    use std::io::Write;
    let mut t = site();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(b"boot\namdgpu: ready\n").expect("gzip");
    let bytes = gz.finish().expect("gzip");
    t.write_bytes("evidence/logs/dmesg.log.gz", &bytes);
    cite(&mut t, "logs/dmesg.log.gz", "2", "amdgpu: ready");
    let report = t.check();
    assert_eq!(
        report.errors(),
        0,
        "{}",
        kansoku::check::format(&report, kansoku::check::Format::Human)
    );
    t.build();
    let page = t.read("en/evidence/logs/dmesg.log.gz/index.html");
    assert!(page.contains("amdgpu: ready"), "its lines are shown");
    assert_eq!(
        std::fs::read(t.out_path("evidence/logs/dmesg.log.gz")).expect("raw copy"),
        bytes,
        "published as it is"
    );
    // A quote the log does not hold is caught inside the compressed file too.
    t.edit(
        "content/page.md",
        "quote = \"amdgpu: ready\"",
        "quote = \"amdgpu: failed\"",
    );
    assert!(t.check().diagnostics.iter().any(|d| d.code == "E014"));
    // A file named .gz that is not gzip says so.
    t.write("evidence/logs/dmesg.log.gz", "plain text\n");
    let human = kansoku::check::format(&t.check(), kansoku::check::Format::Human);
    assert!(
        human.contains("error[E001]: not a readable gzip file"),
        "{human}"
    );
}

#[cfg(unix)]
#[test]
fn a_capture_never_writes_through_a_link_out_of_the_evidence_directory() {
    let t = site();
    let outside = crate::scratch::tempdir();
    std::os::unix::fs::symlink(outside.path(), t.root().join("evidence/runs")).expect("a link out");
    let err = capture::capture(t.root(), &request(&["printf", "x\\n"]))
        .expect_err("refused")
        .to_string();
    assert!(
        err.contains("a directory on the way leads out of the evidence directory"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_dir(outside.path()).expect("dir").count(),
        0,
        "nothing written outside"
    );
}

/// A progress bar redraws its line with a lone `\r`: the capture's hash is
/// the one `check` computes of what it reads, so such output is not
/// "changed since it was captured" (it was, before: the capture hashed
/// every `\r` as a line end, `check` only `\r\n`).
#[test]
fn a_capture_of_output_with_carriage_returns_checks_clean() {
    let mut t = site();
    capture::capture(
        t.root(),
        &request(&["printf", "10%%\\r100%%\\r\\ndone\\r\\n"]),
    )
    .expect("captured");
    let (_, body) = read(&t, "evidence/runs/out.txt");
    assert_eq!(body, "10%\r100%\r\ndone\r\n", "kept byte for byte");
    cite(&mut t, "runs/out.txt", "2", "done");
    let report = t.check();
    assert_eq!(
        report.errors(),
        0,
        "{}",
        kansoku::check::format(&report, kansoku::check::Format::Human)
    );
}

/// A capture is a file to publish and commit like any other the user
/// writes, not a private temporary file (mode 0600 before).
#[cfg(unix)]
#[test]
fn a_capture_is_readable_by_everyone_like_any_written_file() {
    use std::os::unix::fs::PermissionsExt;
    let t = site();
    capture::capture(t.root(), &request(&["printf", "x\\n"])).expect("captured");
    let mode = std::fs::metadata(t.root().join("evidence/runs/out.txt"))
        .expect("written")
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o644);
}
