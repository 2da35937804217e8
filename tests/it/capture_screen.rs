//! What `kansoku capture` records (issue 39, M1, L2–L5, L11, M10):
//! credentials in variables and on the command line are recorded as
//! `<redacted>`, header strings never break the header, `--shell` takes
//! one command line, `--as` paths and a missing evidence directory get a
//! clear answer, and a header `check` cannot trust is an error there, not
//! in `build`.

use crate::common::SiteTest;
use crate::recapture::{kansoku, kansoku_env, text};

fn site() -> SiteTest {
    SiteTest::from_fixture("check/clean")
}

/// The header of a written evidence file, parsed, and its body.
fn read(t: &SiteTest, rel: &str) -> (toml::Table, String) {
    let text = std::fs::read_to_string(t.root().join(rel)).expect("written");
    let rest = text.strip_prefix("+++\n").expect("a header");
    let (head, body) = rest.split_once("\n+++\n").expect("a closed header");
    (head.parse().expect("the header is TOML"), body.to_owned())
}

/// Every shape of credential the 2026-11-28 audit found published, and
/// more: each is recorded as `<redacted>`, with a note saying why.
#[test]
fn a_variable_that_looks_like_a_credential_is_recorded_redacted_m1() {
    let t = site();
    let shapes = [
        ("DATABASE_URL", "postgres://app:S3cretPw!@db.internal:5432/prod"),
        ("REDIS_URL", "redis://:p4ssw0rd@cache:6379"),
        ("MYSQL_PWD", "hunter2hunter2"),
        ("DOCKER_PASS", "Tr0ub4dor&3"),
        ("AWS_ACCESS_KEY_ID", "ASIAQWERTYUIOPASDFGH"),
        ("BUILD_ID_A", "AKIAABCDEFGHIJKLMNOP"),
        (
            "SLACK_WEBHOOK_URL",
            "https://hooks.slack.com/services/T0000/B0000/XXXXXXXXXXXXXXXXXXXXXXXX",
        ),
        ("SENTRY_DSN", "https://abcdef0123456789@o0.ingest.sentry.io/0"),
        ("GITHUB_TOKEN", "x"),
        ("BUILD_LABEL_B", "ghp_0123456789abcdefghijABCDEFGHIJ012345"),
        ("BUILD_LABEL_C", "github_pat_11ABCDEFG0123456789_abcdefghijklmnop"),
        ("BUILD_LABEL_D", "sk-live-0123456789abcdefABCDEF"),
        ("BUILD_LABEL_E", "xoxb-123456789012-abcdefghijkl"),
        (
            "BUILD_LABEL_F",
            "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
        ),
        ("BUILD_LABEL_G", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
        ("BUILD_LABEL_H", "Bearer abcdef0123456789"),
        ("API_KEY_ID", "plain"),
        ("SESSION_COOKIE", "plain"),
        ("MY_CREDENTIALS", "plain"),
    ];
    for (i, (name, value)) in shapes.iter().enumerate() {
        let dest = format!("runs/env-{i}.txt");
        let out = kansoku_env(
            t.root(),
            &["capture", "--as", &dest, "--env", name, "--", "true"],
            &[(name, value)],
        );
        assert!(out.status.success(), "{name}: {}", text(&out.stderr));
        let file = std::fs::read_to_string(t.root().join("evidence").join(&dest)).expect("written");
        assert!(!file.contains(value) || value.len() < 6, "{name}: {file}");
        let (head, _) = read(&t, &format!("evidence/{dest}"));
        assert_eq!(head["env"][*name].as_str(), Some("<redacted>"), "{name}");
        assert!(
            text(&out.stderr).contains(&format!("note: --env {name} recorded as <redacted>")),
            "{name}: {}",
            text(&out.stderr)
        );
    }
}

#[test]
fn a_variable_that_says_how_the_command_ran_is_recorded() {
    let t = site();
    for (i, (name, value)) in [
        ("LANG", "C.UTF-8"),
        ("HSA_OVERRIDE_GFX_VERSION", "11.0.0"),
        (
            "LD_LIBRARY_PATH",
            "/usr/local/lib/ollama/rocm:/opt/rocm/lib",
        ),
        ("ROCR_VISIBLE_DEVICES", "0,1"),
        ("GIT_COMMIT", "3f2a9c0d5e8b7a6f4e3d2c1b0a9f8e7d6c5b4a39"),
        ("PWD", "/home/user/site"),
    ]
    .iter()
    .enumerate()
    {
        let dest = format!("runs/ok-{i}.txt");
        let out = kansoku_env(
            t.root(),
            &["capture", "--as", &dest, "--env", name, "--", "true"],
            &[(name, value)],
        );
        assert!(out.status.success(), "{name}: {}", text(&out.stderr));
        let (head, _) = read(&t, &format!("evidence/{dest}"));
        assert_eq!(head["env"][*name].as_str(), Some(*value), "{name}");
        assert!(!text(&out.stderr).contains("redacted"), "{name}");
    }
}

#[test]
fn credentials_on_the_command_line_are_recorded_redacted_l5() {
    let t = site();
    let out = kansoku(
        t.root(),
        &[
            "capture",
            "--as",
            "runs/cmd.txt",
            "--",
            "true",
            "--token=ghp_0123456789abcdefghijABCDEFGHIJ012345",
            "Authorization: Bearer sk-live-0123456789abcdef",
            "AKIAABCDEFGHIJKLMNOP",
            "https://admin:Sup3rS3cret@example.org/x",
            "-u",
            "admin:Sup3rS3cret",
            "--password",
            "hunter2",
            "--verbose",
            "/opt/rocm/lib",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let (head, _) = read(&t, "evidence/runs/cmd.txt");
    let command: Vec<&str> = head["command"]
        .as_array()
        .expect("an array")
        .iter()
        .filter_map(|v| v.as_str())
        .collect();
    assert_eq!(
        command,
        [
            "true",
            "--token=<redacted>",
            "Authorization: <redacted>",
            "<redacted>",
            "https://<redacted>@example.org/x",
            "-u",
            "<redacted>",
            "--password",
            "<redacted>",
            "--verbose",
            "/opt/rocm/lib",
        ]
    );
    // Said once, with the fix (it was said twice, and "cannot be run
    // again" twice in one line).
    let said = text(&out.stderr);
    assert!(
        said.contains("note: the command line was recorded with 6 credentials as <redacted> (")
            && said.contains("): evidence is published; recapture cannot run it again, so capture it again without the credential on the command line (pass it through a variable the command reads)\n"),
        "{said}"
    );
    assert_eq!(said.matches("cannot run it again").count(), 1, "{said}");
    // A shell command line gets the same screen.
    let out = kansoku(
        t.root(),
        &[
            "capture",
            "--shell",
            "--as",
            "runs/sh.txt",
            "--",
            "true -u admin:Sup3rS3cret https://example.org/a",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let (head, _) = read(&t, "evidence/runs/sh.txt");
    assert_eq!(
        head["command"][2].as_str(),
        Some("true -u <redacted> https://example.org/a")
    );
}

#[test]
fn header_strings_never_break_the_header_l3() {
    let t = site();
    let note = "line1\n+++\nkind = \"transcript\"\n+++";
    let arg = "a\n+++\nb";
    let out = kansoku(
        t.root(),
        &[
            "capture",
            "--as",
            "t/inj.txt",
            "--note",
            note,
            "--",
            "echo",
            arg,
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report = t.check();
    let human = kansoku::check::format(&report, kansoku::check::Format::Human);
    assert_eq!(report.errors(), 0, "{human}");
    let (head, body) = read(&t, "evidence/t/inj.txt");
    assert_eq!(head["note"].as_str(), Some(note));
    assert_eq!(head["command"][1].as_str(), Some(arg));
    assert_eq!(head["kind"].as_str(), Some("capture"));
    assert_eq!(body, format!("{arg}\n"));
    // An import's source likewise.
    let log = t.root().join("x.log");
    std::fs::write(&log, "one\n").expect("log");
    let out = kansoku(
        t.root(),
        &[
            "capture",
            "--file",
            log.to_str().expect("utf-8"),
            "--source",
            "src\n+++\n",
            "--as",
            "t/imp.txt",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(t.check().errors(), 0);
    assert_eq!(
        read(&t, "evidence/t/imp.txt").0["source"].as_str(),
        Some("src\n+++\n")
    );
}

#[test]
fn shell_with_more_than_one_argument_is_refused_l4() {
    let t = site();
    let outside = t.root().parent().expect("parent").join("PWNED-join");
    let out = kansoku(
        t.root(),
        &[
            "capture",
            "--shell",
            "--as",
            "t/join.txt",
            "--",
            "cat",
            &format!("my notes; touch {}", outside.display()),
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(!outside.exists());
    assert_eq!(
        text(&out.stderr),
        "error: --shell runs one shell command line, and 2 arguments were given: pass the whole line as one argument, quoted (`kansoku capture --shell -- 'grep rocm /proc/1/maps | head'`), or drop --shell to run the command without a shell\n"
    );
}

#[test]
fn an_as_path_under_evidence_is_read_under_evidence_m10() {
    let t = site();
    let out = kansoku(
        t.root(),
        &[
            "capture",
            "--as",
            "evidence/host/uname.txt",
            "--",
            "echo",
            "hi",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(t.root().join("evidence/host/uname.txt").is_file());
    assert!(!t.root().join("evidence/evidence").exists());
    assert!(
        text(&out.stderr).starts_with(
            "note: --as paths are under evidence/: read `evidence/host/uname.txt` as `host/uname.txt`\n"
        ),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn a_missing_evidence_directory_is_named_not_blamed_on_a_link_l11() {
    let t = site();
    std::fs::rename(t.root().join("evidence"), t.root().join("ev.bak")).expect("mv");
    let out = kansoku(t.root(), &["capture", "--as", "a.txt", "--", "echo", "hi"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "error: evidence/ does not exist: create it (`mkdir evidence`), or set `[evidence] dir` in book.toml to the directory that holds the evidence\n"
    );
    std::fs::rename(t.root().join("ev.bak"), t.root().join("evidence")).expect("mv");
    for dest in [".", "./", "runs/"] {
        let out = kansoku(
            t.root(),
            &["capture", "--replace", "--as", dest, "--", "echo", "hi"],
        );
        assert_eq!(out.status.code(), Some(2), "{dest}");
        assert_eq!(
            text(&out.stderr),
            format!("error: --as {dest}: give a file path inside the evidence directory, such as `captures/ldd-ls.txt` (no `..`, not absolute, not a directory)\n"),
            "{dest}"
        );
    }
}

#[test]
fn a_capture_header_check_cannot_read_is_an_error_there_l2() {
    let mut t = site();
    let out = kansoku(
        t.root(),
        &["capture", "--as", "runs/out.txt", "--", "echo", "hi"],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    crate::common::cite_quoted(&mut t, "captured", "runs/out.txt", "1", "hi");
    assert_eq!(t.check().errors(), 0);
    let path = t.root().join("evidence/runs/out.txt");
    let good = std::fs::read_to_string(&path).expect("capture");
    let line_of = |text: &str, key: &str| {
        text.lines()
            .position(|l| l.starts_with(&format!("{key} = ")))
            .expect("the key")
            + 1
    };
    for (key, bad, message) in [
        ("stream", "\"stdin\"", "`stream` is \"stdin\": a capture's stream is \"stdout\" or \"stderr\""),
        ("exit", "\"boom\"", "`exit` is \"boom\": an exit status is a number (`0`), `signal N` or `unknown`"),
        ("started", "\"yesterday\"", "`started` is \"yesterday\": a time is written as RFC 3339 in UTC, such as `2026-11-25T16:30:00Z`"),
        ("ended", "\"2026-11-25\"", "`ended` is \"2026-11-25\": a time is written as RFC 3339 in UTC, such as `2026-11-25T16:30:00Z`"),
    ] {
        let old = good
            .lines()
            .find(|l| l.starts_with(&format!("{key} = ")))
            .expect("the key");
        let forged = good.replacen(old, &format!("{key} = {bad}"), 1);
        std::fs::write(&path, &forged).expect("forge");
        let human = kansoku::check::format(&t.check(), kansoku::check::Format::Human);
        let at = format!(
            "evidence/runs/out.txt:{}:{}: error[E003]: {message}",
            line_of(&forged, key),
            key.len() + 4
        );
        assert!(human.contains(&at), "{key}: {human}");
        // build stops on the same finding, never on a template.
        let out = kansoku(t.root(), &["build", "--quiet"]);
        assert_eq!(out.status.code(), Some(1), "{key}");
        assert!(text(&out.stderr).contains(&at), "{key}: {}", text(&out.stderr));
        assert!(!text(&out.stderr).contains("E040"));
    }
}
