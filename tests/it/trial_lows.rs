//! The lows of the 2026-11-28 trial (issue 40, `trial.md`): the
//! maintainer's and contributor's (L12–L20) through the commands they run,
//! and the reader's that the built output shows (L8). The browser suite
//! has the rest of the reader's (tests/browser/trial_lows.test.js).

use crate::common::SiteTest;
use std::process::Command;

fn kansoku(t: &SiteTest, args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_kansoku"))
        .args(args)
        .arg("--root")
        .arg(t.root())
        .output()
        .expect("kansoku runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A one-claim page citing `link`, beside a six-line log.
fn one_claim(link: &str) -> SiteTest {
    let mut t = SiteTest::from_fixture("check/clean");
    t.write(
        "evidence/host/lscpu.txt",
        &format!(
            "+++\nkind = \"raw\"\nsource = \"lscpu\"\n+++\nArchitecture: x86_64\nCPU op-mode(s): 32-bit, 64-bit\nByte Order: Little Endian\nAddress sizes: 48 bits physical\nModel name: AMD Ryzen\n{}",
            (6..=20).map(|n| format!("Flag {n}: on\n")).collect::<String>()
        ),
    );
    t.write(
        "content/cpu.md",
        &format!(
            "+++\ntitle = {{ ja = \"CPU\", en = \"CPU\" }}\n\n[[claims]]\nid = \"cpu-model\"\nclass = \"confirmed\"\nja = \"CPU は Ryzen。\"\nen = \"The CPU is a Ryzen.\"\nevidence = [{link}]\n+++\n\n::: ja\n[[claim:cpu-model]]\n:::\n::: en\n[[claim:cpu-model]]\n:::\n"
        ),
    );
    t
}

#[test]
fn check_fix_makes_the_fixes_its_hints_give_trial_l13() {
    // The quote is on line 5, the link cites line 18 (a `grep -n` number).
    let quoted = "{ path = \"host/lscpu.txt\", lines = \"18\", quote = \"Model name: AMD Ryzen\" }";
    let t = one_claim(quoted);
    let (code, _, err) = kansoku(&t, &["check"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("= hint: the quote is on line 5 of this file now: write `lines = \"5\"`"),
        "{err}"
    );
    let (code, _, err) = kansoku(&t, &["check", "--fix"]);
    assert_eq!(
        err,
        "fixed content/cpu.md: lines = \"18\" → lines = \"5\"\ncheck: no errors, 0 warnings\n"
    );
    assert_eq!(code, Some(0));
    let page = std::fs::read_to_string(t.root().join("content/cpu.md")).expect("page");
    assert!(
        page.contains("evidence = [{ path = \"host/lscpu.txt\", lines = \"5\", quote = \"Model name: AMD Ryzen\" }]"),
        "{page}"
    );
    // Nothing left: said so.
    let (code, _, err) = kansoku(&t, &["check", "--fix"]);
    assert_eq!(
        (code, err.as_str()),
        (
            Some(0),
            "check --fix: nothing to fix\ncheck: no errors, 0 warnings\n"
        )
    );

    // An integer stays an integer.
    let t = one_claim(&quoted.replace("\"18\"", "18"));
    let (_, _, err) = kansoku(&t, &["check", "--fix"]);
    assert!(
        err.starts_with("fixed content/cpu.md: lines = 18 → lines = 5\n"),
        "{err}"
    );

    // `path:line`, the habit of compilers, is `path#Lline`.
    let t = one_claim("\"host/lscpu.txt:5\"");
    let (code, _, err) = kansoku(&t, &["check", "--fix"]);
    assert_eq!(
        (code, err.as_str()),
        (
            Some(0),
            "fixed content/cpu.md: \"host/lscpu.txt:5\" → \"host/lscpu.txt#L5\"\ncheck: no errors, 0 warnings\n"
        )
    );
}

/// `(location, code, message, hint)` of every finding of `check`.
fn findings(t: &SiteTest) -> Vec<(String, &'static str, String, String)> {
    t.check()
        .diagnostics
        .iter()
        .map(|d| {
            (
                d.location.to_string(),
                d.code,
                d.message.clone(),
                d.hint.clone().unwrap_or_default(),
            )
        })
        .collect()
}

#[test]
fn a_claim_copied_on_its_page_is_one_finding_on_the_copy_trial_l14() {
    let mut t = SiteTest::from_fixture("check/e023-two-claims-one-cell");
    // The second claim becomes a copy of the first that kept its id.
    t.edit(
        "content/page.md",
        "id = \"page-claim-again\"",
        "id = \"page-claim\"",
    )
    .edit("content/page.md", "from = [\"page-claim\"]\n", "");
    assert_eq!(
        findings(&t),
        [(
            "content/page.md:14:6".to_owned(),
            "E016",
            "duplicate claim id `page-claim` (first defined at content/page.md:5:6)".to_owned(),
            "claim ids are unique on the whole site; rename one of them".to_owned()
        )]
    );
}

#[test]
fn a_second_observation_of_a_cell_is_told_about_superseded_by_trial_l16() {
    let mut t = SiteTest::from_fixture("check/e023-two-claims-one-cell");
    let found = findings(&t);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(
        (found[0].1, found[0].3.as_str()),
        (
            "E023",
            "one claim per cell: if this observation replaces the one at content/page.md:5:6, mark that one `state = \"superseded\"` with `superseded-by = \"page-claim-again\"` and a `reason`; otherwise change `about` or `aspect` here or there"
        )
    );
    // Following the hint's first way: the first claim is superseded.
    t.edit(
        "content/page.md",
        "aspect = \"output\"\nja = \"二行目に出力がある。\"",
        "aspect = \"output\"\nstate = \"superseded\"\nsuperseded-by = \"page-claim-again\"\nreason = { ja = \"二度目の観測が置き換えた。\", en = \"The second observation replaces it.\" }\nja = \"二行目に出力がある。\"",
    );
    assert_eq!(findings(&t), []);
}

#[test]
fn a_japanese_slug_gives_a_readable_id_and_an_english_placeholder_trial_l15() {
    let tmp = crate::scratch::tempdir();
    let site = tmp.path().join("site");
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_kansoku"))
            .args(args)
            .current_dir(&site)
            .output()
            .expect("kansoku runs")
    };
    std::fs::create_dir_all(&site).expect("dir");
    assert!(run(&["init", "."]).status.success());
    assert!(run(&["new", "notes/第二の観測"]).status.success());
    let page = std::fs::read_to_string(site.join("content/notes/第二の観測.md")).expect("page");
    assert!(page.contains("id = \"notes-page-first\""), "{page}");
    assert!(page.contains("[[claim:notes-page-first]]"), "{page}");
    assert!(
        page.contains("title = { ja = \"第二の観測\", en = \"Title in English\" }"),
        "{page}"
    );
    // Another Japanese slug in the same section: the next free id.
    assert!(run(&["new", "notes/第三の観測"]).status.success());
    let page = std::fs::read_to_string(site.join("content/notes/第三の観測.md")).expect("page");
    assert!(page.contains("id = \"notes-page-2-first\""), "{page}");

    let out = run(&["check"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(0),
        "a draft's placeholder is a warning: {err}"
    );
    assert!(
        err.contains(&format!("content/notes/第二の観測.md:2:31: warning[E005]: `title.en` is still the placeholder `kansoku new` wrote\n  |\n2 | title = {{ ja = \"第二の観測\", en = \"Title in English\" }}\n  |{}{}\n  = hint: write the page's title in English\n", " ".repeat(36), "^".repeat(16))),
        "{err}"
    );
    // Published with the placeholder: an error.
    let path = site.join("content/notes/第二の観測.md");
    let text = std::fs::read_to_string(&path).expect("page");
    let published: String = text
        .lines()
        .filter(|l| !l.starts_with("draft = true"))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&path, published).expect("write");
    let out = run(&["check"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("error[E005]: `title.en` is still the placeholder"),
        "{err}"
    );
}

#[test]
fn the_claims_table_has_the_answer_column_trial_l17() {
    let mut t = SiteTest::from_fixture("check/e024-unknown-answer");
    t.edit("content/page.md", "answer = \"yess\"", "answer = \"yes\"");
    let (code, out, err) = kansoku(&t, &["claims"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        out,
        "ID                CLASS      ANSWER  PAGE               TEXT\n\
         base-ok           confirmed          content/_index.md  The log has five lines.\n\
         page-claim        confirmed          content/page.md    The second line holds output.\n\
         page-claim-again  inferred   yes     content/page.md    There is only one line of output.\n\
         3 claims\n"
    );
}

#[test]
fn a_renamed_log_is_one_finding_that_names_its_claims_trial_l18() {
    let mut t = SiteTest::from_fixture("check/clean");
    let claim = |id: &str, line: usize| {
        format!(
            "[[claims]]\nid = \"{id}\"\nclass = \"confirmed\"\nja = \"行 {line}。\"\nen = \"Line {line}.\"\nevidence = [\"logs/a.log#L{line}\"]\n\n"
        )
    };
    t.write(
        "content/more.md",
        &format!(
            "+++\ntitle = {{ ja = \"追加\", en = \"More\" }}\n\n{}{}+++\n\n::: ja\n本文。\n:::\n::: en\nBody.\n:::\n",
            claim("more-one", 1),
            claim("more-three", 3)
        ),
    );
    assert_eq!(findings(&t), []);
    // The log is renamed; no page follows.
    std::fs::rename(
        t.root().join("evidence/logs/a.log"),
        t.root().join("evidence/logs/run-a.log"),
    )
    .expect("rename");
    assert_eq!(
        findings(&t),
        [(
            "content/_index.md:9:13".to_owned(),
            "E012",
            "evidence file `evidence/logs/a.log` not found; 4 claims cite it: `base-ok` (content/_index.md:9), `more-one` (content/more.md:9), `more-three` (content/more.md:16), `page-claim` (content/page.md:9)".to_owned(),
            "did you mean `logs/run-a.log`, which no claim cites? If the file was renamed, write its new name in each of these links".to_owned()
        )]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn under_serve_llms_txt_and_twins_lead_to_the_preview_trial_l20() {
    let t = SiteTest::from_fixture("serve");
    let options = kansoku::serve::Options {
        port: Some(0),
        quiet: true,
        work_dir: Some(t.root().parent().expect("in a temp dir").to_path_buf()),
        ..kansoku::serve::Options::new(t.root())
    };
    let wait = std::time::Duration::from_secs(20);
    let handle = tokio::time::timeout(wait, kansoku::serve::start(options))
        .await
        .expect("starts in time")
        .expect("starts");
    let origin = format!("http://{}", handle.addr());
    let get = |path: &str| {
        let url = format!("{origin}{path}");
        async move {
            let res = reqwest::get(&url).await.expect("GET");
            assert_eq!(res.status().as_u16(), 200, "{url}");
            res.text().await.expect("text")
        }
    };
    for path in ["/en/llms.txt", "/ja/llms.txt", "/en/notes/page/index.md"] {
        let text = get(path).await;
        assert!(!text.contains("https://example.org"), "{path}:\n{text}");
        assert!(text.contains(&format!("{origin}/")), "{path}:\n{text}");
    }
    handle.shutdown().await.expect("stops");
}

#[test]
fn a_draft_s_notice_is_at_its_top_and_speaks_to_its_reader_trial_l8() {
    let mut t = SiteTest::from_fixture("check/clean");
    t.edit(
        "content/page.md",
        "title = { ja = \"ページ\", en = \"Page\" }",
        "title = { ja = \"ページ\", en = \"Page\" }\ndraft = true",
    );
    let options = kansoku::site::BuildOptions {
        search: false,
        drafts: true,
        ..Default::default()
    };
    let (files, _) = kansoku::site::build_in_memory(t.root(), &options).expect("builds");
    let read = |path: &str| {
        let f = files
            .iter()
            .find(|f| f.path == path)
            .unwrap_or_else(|| panic!("{path}"));
        String::from_utf8(f.bytes.clone()).expect("UTF-8")
    };
    let html = read("en/page/index.html");
    assert!(
        html.contains("</header>\n<p class=\"draft-notice\" role=\"note\">Draft: this page is not final; what it says may still change.</p>"),
        "{html}"
    );
    assert!(!html.contains("kansoku serve"), "{html}");
    let ja = read("ja/page/index.html");
    assert!(ja.contains("<p class=\"draft-notice\" role=\"note\">下書き:このページはまだ確定していません。内容は変わることがあります。</p>"), "{ja}");
    let twin = read("en/page/index.md");
    assert!(
        twin.contains("> Draft: this page is not final; what it says may still change."),
        "{twin}"
    );
    assert!(!twin.contains("kansoku"), "{twin}");
}

/// Issue 40, trial L11: a transcript restates the record's words and is
/// never translated; a page in the other language marks it and says so,
/// its chrome and labels in the page's language.
#[test]
fn evidence_in_the_other_language_is_marked_and_said_trial_l11() {
    let mut t = SiteTest::from_fixture("check/clean");
    t.write(
        "evidence/logs/a.log",
        "+++\nkind = \"transcript\"\nsource = \"the record's summary page\"\n+++\nline one of the summary\nline two: output\nstatus: 未検出 / Not found\nline four\nline five\n",
    );
    t.write(
        "evidence/logs/ja.log",
        "+++\nkind = \"transcript\"\nsource = \"記録の要約ページ\"\n+++\n要約の一行目。\n",
    );
    t.edit(
        "content/page.md",
        "evidence = [\"logs/a.log#L2\"]",
        "evidence = [\"logs/a.log#L2\", \"logs/ja.log#L1\"]",
    );
    t.build();
    let ja = t.read("ja/evidence/logs/a.log/index.html");
    assert!(
        ja.contains("<p class=\"evidence__lang\" role=\"note\" data-pagefind-ignore>この証拠の本文は英語です。記録の内容を英語で書き写したもので、証拠は書き換えないため訳していません。引用している主張は日本語で読めます。</p>"),
        "{ja}"
    );
    assert!(ja.contains("<th scope=\"row\">取得元</th><td><code lang=\"en\">the record&#39;s summary page</code></td>"), "{ja}");
    assert!(
        ja.contains("<code class=\"ev-code\" lang=\"en\">line one of the summary</code>"),
        "{ja}"
    );
    // A line quoting the record's Japanese status word is no one language.
    assert!(
        ja.contains("<code class=\"ev-code\">status: 未検出 / Not found</code>"),
        "{ja}"
    );
    let en = t.read("en/evidence/logs/a.log/index.html");
    assert!(!en.contains("evidence__lang"), "{en}");
    assert!(!en.contains("lang=\"en\">line one"), "{en}");
    let en = t.read("en/evidence/logs/ja.log/index.html");
    assert!(en.contains("<p class=\"evidence__lang\" role=\"note\" data-pagefind-ignore>This evidence is in Japanese: the record&#39;s words, kept as written. Evidence is never rewritten, so it is not translated; the claims citing it are in English.</p>"), "{en}");
    assert!(
        en.contains("<code class=\"ev-code\" lang=\"ja\">要約の一行目。</code>"),
        "{en}"
    );
}
