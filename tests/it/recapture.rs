//! `kansoku recapture` and the approvals it runs by (issue 39, H1, M1,
//! L9, L21, M9): nothing a header, `book.toml` or a hand-edited lock
//! names runs unless a person approved exactly that command, working
//! directory, environment names and the site files it names; `--dry-run`
//! runs nothing; `--compare` runs approved commands in a scratch copy.
//!
//! Driven through the binary, as a maintainer and CI run it. Every hostile
//! command here would create a marker file outside the site; the tests
//! assert it never appears.

use crate::common::SiteTest;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// `kansoku --root ROOT ARGS…`, run from the site's root, with `env` set.
pub(crate) fn kansoku_env(root: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_kansoku"));
    cmd.arg("--root").arg(root).args(args).current_dir(root);
    for (k, v) in env {
        cmd.env(k, v);
    }
    bounded(cmd, 60)
}

/// `kansoku --root ROOT ARGS…`, run from the site's root.
pub(crate) fn kansoku(root: &Path, args: &[&str]) -> Output {
    kansoku_env(root, args, &[])
}

/// Runs `cmd` in a process group of its own and stops the whole group if
/// it is still running after `secs`: a command kansoku failed to bound
/// fails the test instead of hanging it, and leaves nothing running.
pub(crate) fn bounded(mut cmd: Command, secs: u64) -> Output {
    use std::os::unix::process::CommandExt;
    use std::process::Stdio;
    cmd.stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .stdin(Stdio::null())
        .process_group(0);
    let child = cmd.spawn().expect("the command runs");
    let pid = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    match rx.recv_timeout(std::time::Duration::from_secs(secs)) {
        Ok(out) => out.expect("the command's output"),
        Err(_) => {
            let _ = Command::new("kill")
                .args(["-KILL", "--", &format!("-{pid}")])
                .status();
            panic!("{cmd:?} still running after {secs} s");
        }
    }
}

pub(crate) fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A site whose capture `evidence/runs/out.txt` is `cat OUTSIDE/data.txt`
/// (a file beside the site, not in it) run in the site's root, with a
/// reviewed claim `captured` citing its line 2 and quoting `quote`; the
/// capture approved by `kansoku capture` itself. Returns the site and the
/// directory beside it (holding `data.txt` and where markers go).
pub(crate) fn captured(lines: &str, quote: &str) -> (SiteTest, PathBuf) {
    captured_with(&[], lines, quote)
}

/// [`captured`], with extra arguments to `capture` before `--`.
pub(crate) fn captured_with(flags: &[&str], lines: &str, quote: &str) -> (SiteTest, PathBuf) {
    let mut t = SiteTest::from_fixture("check/clean");
    let outside = t.root().parent().expect("a parent").join("outside");
    std::fs::create_dir_all(&outside).expect("outside");
    std::fs::write(outside.join("data.txt"), lines).expect("data");
    let data = outside.join("data.txt").display().to_string();
    let mut args = vec!["capture", "--as", "runs/out.txt"];
    args.extend_from_slice(flags);
    args.extend_from_slice(&["--", "cat", &data]);
    let out = kansoku(t.root(), &args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    crate::common::cite_quoted(&mut t, "captured", "runs/out.txt", "2", quote);
    let out = kansoku(t.root(), &["review", "--all"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    (t, outside)
}

/// Captures the shell command line `line` again over the capture of
/// [`captured`] (`capture --replace --shell`), as a person typing it
/// would, which approves it; the capture must succeed.
pub(crate) fn capture_shell(t: &SiteTest, line: &str) {
    let out = kansoku(
        t.root(),
        &[
            "capture",
            "--replace",
            "--shell",
            "--as",
            "runs/out.txt",
            "--",
            line,
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
}

fn read(t: &SiteTest, rel: &str) -> String {
    std::fs::read_to_string(t.root().join(rel)).expect("readable")
}

/// Replaces `from` by `to` in the site's file `rel`; `from` must be there.
fn forge(t: &SiteTest, rel: &str, from: &str, to: &str) {
    let text = read(t, rel);
    assert!(text.contains(from), "{rel} lacks {from:?}:\n{text}");
    std::fs::write(t.root().join(rel), text.replacen(from, to, 1)).expect("forged");
}

/// The header line `command = […]` of the capture as written.
fn command_line(t: &SiteTest) -> String {
    read(t, "evidence/runs/out.txt")
        .lines()
        .find(|l| l.starts_with("command = "))
        .expect("a command line")
        .to_owned()
}

/// A command a forged header or book.toml runs: creates `marker`.
fn hostile(marker: &Path, data: &Path) -> String {
    format!(
        "command = [\"sh\", \"-c\", \"touch {}; cat {}\"]",
        marker.display(),
        data.display()
    )
}

#[test]
fn a_forged_command_runs_on_no_recapture_h1() {
    let (t, outside) = captured("x\ny\n", "y");
    let marker = outside.join("PWNED");
    let forged = hostile(&marker, &outside.join("data.txt"));
    forge(&t, "evidence/runs/out.txt", &command_line(&t), &forged);
    // The body and its hash are untouched: `check` has nothing to say.
    assert_eq!(t.check().errors(), 0);
    let dry = kansoku(t.root(), &["recapture", "--all", "--dry-run"]);
    assert!(!marker.exists(), "a dry run ran the forged command");
    assert_eq!(dry.status.code(), Some(2), "{}", text(&dry.stderr));
    let shown = format!(
        "evidence/runs/out.txt: would be refused: its command changed since it was approved\n  command: sh -c 'touch {}; cat {}'\n  cwd: .\n",
        marker.display(),
        outside.join("data.txt").display()
    );
    assert!(text(&dry.stdout).contains(&shown), "{}", text(&dry.stdout));
    for mode in [
        &["recapture", "--all"][..],
        &["recapture", "--all", "--compare"],
    ] {
        let out = kansoku(t.root(), mode);
        assert!(!marker.exists(), "{mode:?} ran the forged command");
        assert_eq!(out.status.code(), Some(2), "{mode:?}");
        let err = text(&out.stderr);
        assert!(
            err.contains("error: nothing was run: evidence/runs/out.txt is not approved; read its command above, then approve it with `kansoku review --capture evidence/runs/out.txt`"),
            "{mode:?}: {err}"
        );
        assert!(text(&out.stdout).contains("refused: its command changed since it was approved"));
    }
    // Neither does anything else.
    for args in [&["check"][..], &["build", "--quiet"]] {
        kansoku(t.root(), args);
        assert!(!marker.exists(), "{args:?}");
    }
}

#[test]
fn a_dry_run_runs_nothing_and_says_what_would_run_l21() {
    let (t, outside) = captured("x\ny\n", "y");
    let dry = kansoku(t.root(), &["recapture", "--all", "--dry-run"]);
    assert_eq!(dry.status.code(), Some(0), "{}", text(&dry.stderr));
    assert_eq!(
        text(&dry.stdout),
        format!(
            "evidence/runs/out.txt: would run\n  command: cat {}\n  cwd: .\ndry run: nothing was run, nothing was written\n",
            outside.join("data.txt").display()
        )
    );
    assert!(!text(&dry.stdout).contains("recaptured"));
    assert_eq!(
        text(&dry.stderr),
        "",
        "nothing ran, so nothing says it runs"
    );
}

#[test]
fn an_approved_command_runs_in_a_scratch_copy_and_compare_writes_nothing() {
    let mut t = SiteTest::from_fixture("check/clean");
    let outside = t.root().parent().expect("parent").join("outside");
    std::fs::create_dir_all(&outside).expect("outside");
    std::fs::write(outside.join("data.txt"), "x\ny\n").expect("data");
    let line = format!(
        "echo ran >> side-effect.txt; rm -f content/_index.md; cat {}",
        outside.join("data.txt").display()
    );
    let out = kansoku(
        t.root(),
        &["capture", "--shell", "--as", "runs/out.txt", "--", &line],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    // The maintainer's own command ran where they typed it; put the site
    // back as it was.
    std::fs::remove_file(t.root().join("side-effect.txt")).expect("it ran here");
    std::fs::copy(
        crate::common::fixture("check/clean/content/_index.md"),
        t.root().join("content/_index.md"),
    )
    .expect("restored");
    crate::common::cite_quoted(&mut t, "captured", "runs/out.txt", "2", "y");
    kansoku(t.root(), &["review", "--all"]);
    let before = read(&t, "evidence/runs/out.txt");
    let out = kansoku(t.root(), &["recapture", "--all", "--compare"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "evidence/runs/out.txt: compared (exit 0)\n  captured: unchanged\n"
    );
    assert_eq!(
        text(&out.stderr),
        format!("running evidence/runs/out.txt: sh -c '{line}' (cwd .)\n"),
        "every command is printed before it runs"
    );
    assert!(!t.root().join("side-effect.txt").exists(), "ran in a copy");
    assert!(t.root().join("content/_index.md").exists(), "ran in a copy");
    assert_eq!(read(&t, "evidence/runs/out.txt"), before, "nothing written");
    // A real run writes the new capture (its times a second later), and
    // still runs in the copy.
    std::thread::sleep(std::time::Duration::from_millis(1100));
    let out = kansoku(t.root(), &["recapture", "--all"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "evidence/runs/out.txt: written (exit 0)\n  captured: unchanged\n"
    );
    assert!(!t.root().join("side-effect.txt").exists());
    assert!(t.root().join("content/_index.md").exists());
    assert_ne!(read(&t, "evidence/runs/out.txt"), before, "new times");
}

#[test]
fn a_hand_edited_lock_entry_approves_nothing() {
    let (t, outside) = captured("x\ny\n", "y");
    let marker = outside.join("PWNED");
    let forged = hostile(&marker, &outside.join("data.txt"));
    forge(&t, "evidence/runs/out.txt", &command_line(&t), &forged);
    // The lock's entry is edited the same way, its hash left as it was.
    let data = outside.join("data.txt").display().to_string();
    forge(
        &t,
        "kansoku.lock",
        &format!("    \"cat\",\n    \"{data}\",\n"),
        &format!(
            "    \"sh\",\n    \"-c\",\n    \"touch {}; cat {data}\",\n",
            marker.display()
        ),
    );
    let out = kansoku(t.root(), &["recapture", "--all"]);
    assert!(!marker.exists());
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stdout).contains("evidence/runs/out.txt: refused: its entry in kansoku.lock does not match its own hash: it was edited by hand"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn a_stranger_who_approves_their_own_command_is_refused_by_approvals_from_a_trusted_revision() {
    let (t, outside) = captured("x\ny\n", "y");
    let git = |args: &[&str]| {
        let out = Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@example.invalid"])
            .args(["-c", "commit.gpgsign=false"])
            .args(args)
            .current_dir(t.root())
            .output()
            .expect("git runs");
        assert!(out.status.success(), "git {args:?}: {}", text(&out.stderr));
        text(&out.stdout)
    };
    git(&["init", "-q"]);
    git(&["add", "-A"]);
    git(&["commit", "-qm", "trusted"]);
    // The pull request: a new command, approved by its own author.
    let marker = outside.join("PWNED");
    let forged = hostile(&marker, &outside.join("data.txt"));
    forge(&t, "evidence/runs/out.txt", &command_line(&t), &forged);
    let out = kansoku(t.root(), &["review", "--capture", "evidence/runs/out.txt"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // The approval is in the lock's diff, command and all, for a reviewer.
    let diff = git(&["diff", "kansoku.lock"]);
    assert!(
        diff.contains(&format!("+    \"touch {}; cat ", marker.display())),
        "{diff}"
    );
    // CI on a pull request trusts only the approvals of the base branch.
    for mode in [&["--dry-run"][..], &["--compare"], &[]] {
        let mut args = vec!["recapture", "--all", "--approvals-from", "HEAD"];
        args.extend_from_slice(mode);
        let out = kansoku(t.root(), &args);
        assert!(!marker.exists(), "{args:?}");
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert!(
            text(&out.stdout).contains("its command changed since it was approved"),
            "{}",
            text(&out.stdout)
        );
    }
    // A revision that is an option is never given to git as one.
    let out = kansoku(
        t.root(),
        &[
            "recapture",
            "--all",
            "--dry-run",
            "--approvals-from=--output=x",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("`--output=x` is not a git revision"));
    assert!(!t.root().join("x").exists());
}

#[test]
fn a_site_file_an_approved_command_names_is_part_of_the_approval() {
    let mut t = SiteTest::from_fixture("check/clean");
    let outside = t.root().parent().expect("parent").join("outside");
    std::fs::create_dir_all(&outside).expect("outside");
    let marker = outside.join("PWNED");
    t.write("evidence/tools/helper.sh.txt", "echo x\necho y\n");
    let out = kansoku(
        t.root(),
        &[
            "capture",
            "--as",
            "runs/out.txt",
            "--",
            "sh",
            "evidence/tools/helper.sh.txt",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    crate::common::cite_quoted(&mut t, "captured", "runs/out.txt", "2", "y");
    kansoku(t.root(), &["review", "--all"]);
    assert!(
        read(&t, "kansoku.lock").contains("evidence/tools/helper.sh.txt"),
        "the lock names the script it runs"
    );
    // A pull request edits the script the approved command runs.
    t.write(
        "evidence/tools/helper.sh.txt",
        &format!("touch {}\necho x\necho y\n", marker.display()),
    );
    let out = kansoku(t.root(), &["recapture", "--all"]);
    assert!(!marker.exists(), "the edited script ran");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stdout).contains("evidence/runs/out.txt: refused: the site file evidence/tools/helper.sh.txt it names changed since it was approved"),
        "{}",
        text(&out.stdout)
    );
}

#[cfg(unix)]
#[test]
fn a_working_directory_out_of_the_site_is_refused_absolute_dotdot_or_through_a_link() {
    let (t, outside) = captured("x\ny\n", "y");
    let marker = outside.join("PWNED");
    let forged = hostile(&marker, &outside.join("data.txt"));
    forge(&t, "evidence/runs/out.txt", &command_line(&t), &forged);
    std::os::unix::fs::symlink(&outside, t.root().join("content/out")).expect("link out");
    for (cwd, why) in [
        ("/", "its working directory / is outside the site: recapture runs commands only inside a copy of the site"),
        ("content/../..", "its working directory content/../.. climbs out of the site with `..`"),
        ("content/out", "its working directory content/out leads out of the site through a symbolic link"),
    ] {
        let header = read(&t, "evidence/runs/out.txt");
        let line = header
            .lines()
            .find(|l| l.starts_with("cwd = "))
            .expect("cwd")
            .to_owned();
        forge(&t, "evidence/runs/out.txt", &line, &format!("cwd = \"{cwd}\""));
        // Not even its author can approve it.
        let out = kansoku(t.root(), &["review", "--capture", "evidence/runs/out.txt"]);
        assert_eq!(out.status.code(), Some(2), "{cwd}");
        assert!(
            text(&out.stderr).contains(&format!("evidence/runs/out.txt cannot be approved: {why}")),
            "{cwd}: {}",
            text(&out.stderr)
        );
        let out = kansoku(t.root(), &["recapture", "--all"]);
        assert_eq!(out.status.code(), Some(2), "{cwd}");
        assert!(!marker.exists(), "ran in {cwd}");
    }
}

#[cfg(unix)]
#[test]
fn an_approved_working_directory_made_a_link_out_later_is_refused() {
    let mut t = SiteTest::from_fixture("check/clean");
    let outside = t.root().parent().expect("parent").join("outside");
    std::fs::create_dir_all(outside.join("sub")).expect("outside");
    std::fs::create_dir_all(t.root().join("content/sub")).expect("sub");
    let out = Command::new(env!("CARGO_BIN_EXE_kansoku"))
        .args([
            "capture",
            "--as",
            "runs/out.txt",
            "--",
            "printf",
            "x\\ny\\n",
        ])
        .current_dir(t.root().join("content/sub"))
        .output()
        .expect("runs");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(read(&t, "evidence/runs/out.txt").contains("\ncwd = \"content/sub\"\n"));
    crate::common::cite_quoted(&mut t, "captured", "runs/out.txt", "2", "y");
    kansoku(t.root(), &["review", "--all"]);
    std::fs::remove_dir(t.root().join("content/sub")).expect("rm");
    std::os::unix::fs::symlink(outside.join("sub"), t.root().join("content/sub")).expect("link");
    let out = kansoku(t.root(), &["recapture", "--all", "--compare"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stdout));
    assert!(
        text(&out.stdout).contains("evidence/runs/out.txt: refused: its working directory content/sub leads out of the site through a symbolic link"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn host_facts_run_only_once_approved() {
    let (mut t, outside) = captured("x\ny\n", "y");
    let marker = outside.join("FACT-RAN");
    let book = read(&t, "book.toml");
    t.write(
        "book.toml",
        &format!(
            "{book}\n[capture]\nfacts = {{ stamp = \"touch {}\" }}\n",
            marker.display()
        ),
    );
    let out = kansoku(
        t.root(),
        &["capture", "--as", "runs/y.txt", "--", "echo", "hello"],
    );
    assert!(
        !marker.exists(),
        "an unapproved fact ran on a plain capture"
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        format!("error: the [capture] facts of book.toml are not approved, so none was run and nothing was captured: stamp = `touch {}`; read them, then approve them with `kansoku review --facts` (or capture without host facts: --no-facts)\n", marker.display())
    );
    assert!(!t.root().join("evidence/runs/y.txt").exists());
    for args in [
        &["recapture", "--all", "--dry-run"][..],
        &["recapture", "--all"],
    ] {
        let out = kansoku(t.root(), args);
        assert!(!marker.exists(), "{args:?}");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
    let out = kansoku(
        t.root(),
        &[
            "capture",
            "--no-facts",
            "--as",
            "runs/y.txt",
            "--",
            "echo",
            "hello",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(!marker.exists());
    let out = kansoku(t.root(), &["review", "--facts"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        format!("approve the [capture] facts of book.toml:\n  stamp: touch {}\napproved the [capture] facts; wrote kansoku.lock\n", marker.display())
    );
    let out = kansoku(
        t.root(),
        &["capture", "--as", "runs/z.txt", "--", "echo", "hello"],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(marker.exists(), "an approved fact runs");
}

#[test]
fn review_lists_each_command_before_it_approves_it() {
    let (t, outside) = captured_with(&["--env", "LANG"], "x\ny\n", "y");
    let data = outside.join("data.txt").display().to_string();
    forge(
        &t,
        "evidence/runs/out.txt",
        &command_line(&t),
        &format!("command = [\"cat\", \"-A\", \"{data}\"]"),
    );
    let out = kansoku(t.root(), &["review", "--captures"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        format!("approve evidence/runs/out.txt:\n  command: cat -A {data}\n  cwd: .\n  env: LANG\napproved 1 capture; wrote kansoku.lock\n")
    );
    let lock = read(&t, "kansoku.lock");
    assert!(
        lock.contains(&format!("[captures.\"evidence/runs/out.txt\"]\ncommand = [\n    \"cat\",\n    \"-A\",\n    \"{data}\",\n]\ncwd = \".\"\nenv = [\"LANG\"]\nhash = \"sha256:")),
        "{lock}"
    );
    // `review --all` reviews claims and leaves approvals as they are.
    let out = kansoku(t.root(), &["review", "--all"]);
    assert!(out.status.success());
    assert!(read(&t, "kansoku.lock").contains("[captures.\"evidence/runs/out.txt\"]"));
}

#[test]
fn a_note_at_the_stderr_name_is_never_overwritten_l9() {
    let (mut t, outside) = captured("x\ny\n", "y");
    let data = outside.join("data.txt").display().to_string();
    let err = outside.join("err.txt");
    std::fs::write(&err, "").expect("err");
    // A capture that prints to stderr only when err.txt holds something.
    let line = format!("cat {data}; cat {} >&2", err.display());
    capture_shell(&t, &line);
    assert!(!t.root().join("evidence/runs/out.stderr.txt").exists());
    let note = "+++\nkind = \"note\"\n+++\nA person's note.\n";
    t.write("evidence/runs/out.stderr.txt", note);
    std::fs::write(&err, "boom\n").expect("err");
    let out = kansoku(t.root(), &["recapture", "--all"]);
    assert_eq!(read(&t, "evidence/runs/out.stderr.txt"), note);
    assert!(
        text(&out.stdout).contains("evidence/runs/out.txt: skipped (would overwrite evidence/runs/out.stderr.txt, which is not this capture's other stream: move that file away, or capture again with --as)"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn a_quoted_claim_whose_line_changed_around_its_quote_still_holds_m9() {
    // ldd prints load addresses that move on every run (ASLR).
    let (t, outside) = captured(
        "linux-vdso.so.1 (0x00007ffd5a1f0000)\nlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f3a2c000000)\n",
        "libc.so.6",
    );
    std::fs::write(
        outside.join("data.txt"),
        "linux-vdso.so.1 (0x00007ffc11220000)\nlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007fe1b8a00000)\n",
    )
    .expect("data");
    let out = kansoku(t.root(), &["recapture", "--all", "--compare"]);
    assert_eq!(
        text(&out.stdout),
        "evidence/runs/out.txt: compared (exit 0)\n  captured: quote-holds — the lines `evidence/runs/out.txt#L2` cites changed, but its quote \"libc.so.6\" is still in them\n"
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // A quote that is gone is a change.
    std::fs::write(outside.join("data.txt"), "linux-vdso.so.1\nlibm.so.6\n").expect("data");
    let out = kansoku(t.root(), &["recapture", "--all", "--compare"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stdout).contains("  captured: changed — "),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn a_header_never_widens_what_is_recorded_m1() {
    let (t, _) = captured_with(&["--env", "BUILD_LABEL"], "x\ny\n", "y");
    // A forged header asks for more variables: not approved, not run.
    forge(
        &t,
        "evidence/runs/out.txt",
        "env = { BUILD_LABEL = ",
        "env = { SSH_CLIENT = \"\", KANSOKU_TEST_PRIVATE = \"\", BUILD_LABEL = ",
    );
    let forged = read(&t, "evidence/runs/out.txt");
    let out = kansoku_env(
        t.root(),
        &["recapture", "--all"],
        &[
            ("BUILD_LABEL", "nightly"),
            ("KANSOKU_TEST_PRIVATE", "from-the-maintainer"),
        ],
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stdout));
    assert!(
        text(&out.stdout).contains(
            "refused: the environment variables it records changed since it was approved"
        ),
        "{}",
        text(&out.stdout)
    );
    assert_eq!(
        read(&t, "evidence/runs/out.txt"),
        forged,
        "nothing recorded"
    );
}

#[test]
fn a_secret_in_an_approved_variable_is_recorded_redacted_on_a_rerun() {
    let (t, _) = captured_with(&["--env", "DATABASE_URL"], "x\ny\n", "y");
    let secret = "postgres://app:S3cretPw!@db.internal:5432/prod";
    let out = kansoku_env(
        t.root(),
        &["recapture", "--all"],
        &[("DATABASE_URL", secret)],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    let capture = read(&t, "evidence/runs/out.txt");
    assert!(!capture.contains("S3cretPw"), "{capture}");
    assert!(
        capture.contains("env = { DATABASE_URL = \"<redacted>\" }"),
        "{capture}"
    );
}

#[test]
fn a_forged_capture_the_examples_ci_line_would_run_is_refused() {
    // `.ci/run`'s line, on a copy of examples/shared-libs with one forged
    // header: it must refuse, and run nothing.
    let t = SiteTest::from_dir(&crate::common::repo_root().join("examples/shared-libs"));
    let outside = t.root().parent().expect("parent").join("outside");
    std::fs::create_dir_all(&outside).expect("outside");
    let marker = outside.join("PWNED-R1");
    forge(
        &t,
        "evidence/captures/readelf-dynamic.txt",
        "command = [\"readelf\", \"-d\", \"/bin/cat\"]",
        &format!(
            "command = [\"sh\", \"-c\", \"touch {}; readelf -d /bin/cat\"]",
            marker.display()
        ),
    );
    for mode in ["--dry-run", "--compare"] {
        let out = kansoku(t.root(), &["recapture", "--all", mode]);
        assert!(!marker.exists(), "{mode}");
        assert_eq!(out.status.code(), Some(2), "{mode}");
    }
}

#[test]
fn the_examples_captures_are_all_approved_and_a_dry_run_lists_them() {
    let t = SiteTest::from_dir(&crate::common::repo_root().join("examples/shared-libs"));
    let out = kansoku(t.root(), &["recapture", "--all", "--dry-run"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let listed = text(&out.stdout);
    assert_eq!(listed.matches(": would run\n").count(), 3, "{listed}");
    assert!(listed.contains("evidence/captures/readelf-dynamic.txt: would run\n  command: readelf -d /bin/cat\n  cwd: .\n"));
    // Without their approvals, the hint names each, as `review` takes them.
    let lock = read(&t, "kansoku.lock");
    let cut = lock.find("\n[captures.").expect("approvals");
    std::fs::write(t.root().join("kansoku.lock"), &lock[..=cut]).expect("lock");
    let out = kansoku(t.root(), &["recapture", "--all", "--compare"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "error: nothing was run: 3 captures are not approved (evidence/captures/cat-maps.txt, evidence/captures/readelf-dynamic.txt, evidence/captures/readelf-interp.txt); read their commands above, then approve them with `kansoku review --capture evidence/captures/cat-maps.txt --capture evidence/captures/readelf-dynamic.txt --capture evidence/captures/readelf-interp.txt`\n"
    );
}

#[test]
fn a_lock_of_approvals_alone_leaves_claim_reviews_off_and_review_captures_drops_the_gone() {
    let t = SiteTest::from_fixture("check/clean");
    assert!(!t.root().join("kansoku.lock").exists());
    for dest in ["runs/a.txt", "runs/b.txt"] {
        let out = kansoku(t.root(), &["capture", "--as", dest, "--", "echo", "hi"]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert!(
            text(&out.stderr).contains(&format!("note: approved its command for `kansoku recapture` in kansoku.lock ([captures.\"evidence/{dest}\"]); commit it with the capture")),
            "{}",
            text(&out.stderr)
        );
    }
    // The lock the captures made holds approvals only: the site has not
    // started reviewing claims, so none is "not reviewed".
    let codes: Vec<&str> = t.check().diagnostics.iter().map(|d| d.code).collect();
    assert!(!codes.contains(&"W080"), "{codes:?}");
    std::fs::remove_file(t.root().join("evidence/runs/a.txt")).expect("rm");
    let out = kansoku(t.root(), &["review", "--captures"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let lock = read(&t, "kansoku.lock");
    assert!(!lock.contains("evidence/runs/a.txt"), "{lock}");
    assert!(
        lock.contains("[captures.\"evidence/runs/b.txt\"]"),
        "{lock}"
    );
}

/// L12 (2026-11-28), and what a pull request can add to get round it: a
/// log over 1 MiB that no command names stays out of the scratch copy,
/// and so does a symbolic link to it from `content/`, `static/` or
/// `templates/` (where kansoku skips links, W060); many links in the
/// evidence to one file take the room of one copy, not of one each.
#[cfg(unix)]
#[test]
fn the_scratch_copy_holds_no_large_log_nobody_named_through_any_link_l12() {
    use std::os::unix::fs::symlink;
    let mut t = SiteTest::from_fixture("check/clean");
    let big = "x".repeat(99) + "\n";
    t.write("evidence/logs/big.log", &big.repeat(21_000)); // 2.1 MB
    t.write("evidence/logs/mid.log", &big.repeat(5_000)); // 0.5 MB
    for dir in ["content", "static", "templates"] {
        std::fs::create_dir_all(t.root().join(dir)).expect("dir");
        symlink(
            "../evidence/logs/big.log",
            t.root().join(dir).join("big.txt"),
        )
        .expect("link");
    }
    std::fs::create_dir_all(t.root().join("evidence/links")).expect("dir");
    for i in 0..20 {
        symlink(
            "../logs/mid.log",
            t.root().join(format!("evidence/links/{i}.log")),
        )
        .expect("link");
    }
    // What the copy holds, as the approved command sees it where it runs.
    let line = "find . -type f -size +1024k | sort; echo total $(du -sk . | cut -f1)";
    let out = kansoku(
        t.root(),
        &["capture", "--shell", "--as", "runs/copy.txt", "--", line],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = kansoku(t.root(), &["recapture", "evidence/runs/copy.txt"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let written = read(&t, "evidence/runs/copy.txt");
    let body = written.rsplit_once("\n+++\n").expect("a header").1;
    let (large, total) = body
        .trim_end()
        .rsplit_once('\n')
        .unwrap_or(("", body.trim_end()));
    assert_eq!(large, "", "files over 1 MiB in the copy");
    let kib: u64 = total
        .strip_prefix("total ")
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("a total: {body}"));
    assert!(kib < 1536, "the copy takes {kib} KiB:\n{body}");
}
