//! Bounds on what `capture` and `recapture` run (issue 39, M5, L6, L7): a
//! time limit and an output limit that stop the command's whole process
//! group and write nothing, a signal to kansoku that stops the command
//! too, temporary files that the next run removes, and `--file` refusing
//! what is not a regular file.

use crate::common::SiteTest;
use crate::recapture::{bounded, kansoku, text};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

fn site() -> SiteTest {
    SiteTest::from_fixture("check/clean")
}

/// The names under `dir` that a capture's temporary files have.
fn temporaries(dir: &Path) -> Vec<String> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".kansoku-capture-"))
        .collect()
}

/// Whether process `pid` still exists (and is not a zombie).
fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| {
        !s.rsplit(')')
            .next()
            .unwrap_or("")
            .trim_start()
            .starts_with('Z')
    })
}

#[test]
fn a_command_that_runs_too_long_is_stopped_and_nothing_is_written() {
    let t = site();
    let started = Instant::now();
    let out = kansoku(
        t.root(),
        &[
            "capture",
            "--timeout",
            "1s",
            "--as",
            "runs/slow.txt",
            "--",
            "sh",
            "-c",
            "echo started; sleep 30",
        ],
    );
    assert!(started.elapsed() < Duration::from_secs(20));
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "error: `sh -c 'echo started; sleep 30'` ran longer than 1s and was stopped, with every process it started; nothing was written: give it more time with --timeout (e.g. --timeout 30m)\n"
    );
    assert!(!t.root().join("evidence/runs").exists());
}

#[test]
fn a_command_that_prints_too_much_is_stopped_and_nothing_is_written() {
    let t = site();
    let out = kansoku(
        t.root(),
        &[
            "capture",
            "--max-output",
            "64KiB",
            "--as",
            "runs/yes.txt",
            "--",
            "sh",
            "-c",
            "yes aaaaaaaa",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "error: `sh -c 'yes aaaaaaaa'` printed more than 64 KiB on stdout and was stopped, with every process it started; nothing was written: raise the limit with --max-output (e.g. --max-output 4GiB), or capture less\n"
    );
    assert!(!t.root().join("evidence/runs").exists());
    // Within the limit, the capture is whole.
    let out = kansoku(
        t.root(),
        &[
            "capture",
            "--max-output",
            "64KiB",
            "--as",
            "runs/ok.txt",
            "--",
            "sh",
            "-c",
            "yes a | head -c 65536",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
}

#[test]
fn the_limits_have_defaults_and_take_units() {
    let t = site();
    let out = kansoku(t.root(), &["capture", "--help"]);
    let help = text(&out.stdout);
    assert!(help.contains("[default: 10m]"), "{help}");
    assert!(help.contains("[default: 1GiB]"), "{help}");
    let out = kansoku(t.root(), &["capture", "--timeout", "soon", "--", "true"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("`soon` is not a duration: write it as 90s, 10m or 2h"),
        "{}",
        text(&out.stderr)
    );
    let out = kansoku(t.root(), &["capture", "--max-output", "lots", "--", "true"]);
    assert!(
        text(&out.stderr).contains("`lots` is not a size: write it as 512KiB, 64MiB or 4GiB"),
        "{}",
        text(&out.stderr)
    );
}

#[cfg(unix)]
#[test]
fn a_signal_to_kansoku_stops_the_command_and_removes_its_files() {
    use std::os::unix::process::CommandExt;
    for (signal, code) in [("TERM", 143), ("INT", 130), ("HUP", 129)] {
        let t = site();
        let pidfile = t.root().parent().expect("parent").join("child.pid");
        let script = format!(
            "echo $$ > {}; while :; do echo aaaaaaaaaaaaaaaa; done",
            pidfile.display()
        );
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_kansoku"));
        cmd.args(["--root"])
            .arg(t.root())
            .args(["capture", "--as", "runs/t.txt", "--", "sh", "-c", &script])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .process_group(0);
        let child = cmd.spawn().expect("kansoku runs");
        let kansoku_pid = child.id();
        let deadline = Instant::now() + Duration::from_secs(20);
        while std::fs::read_to_string(&pidfile).map_or(true, |s| s.trim().is_empty()) {
            assert!(Instant::now() < deadline, "the command never started");
            std::thread::sleep(Duration::from_millis(20));
        }
        let pid: u32 = std::fs::read_to_string(&pidfile)
            .expect("pid")
            .trim()
            .parse()
            .expect("a pid");
        std::thread::sleep(Duration::from_millis(200));
        Command::new("kill")
            .args([&format!("-{signal}"), &kansoku_pid.to_string()])
            .status()
            .expect("kill");
        let out = child.wait_with_output().expect("kansoku ends");
        let gone = Instant::now() + Duration::from_secs(5);
        while alive(pid) && Instant::now() < gone {
            std::thread::sleep(Duration::from_millis(20));
        }
        let still = alive(pid);
        if still {
            let _ = Command::new("kill")
                .args(["-KILL", &pid.to_string()])
                .status();
        }
        assert!(!still, "SIG{signal}: the command outlived kansoku");
        assert_eq!(out.status.code(), Some(code), "SIG{signal}");
        assert!(
            text(&out.stderr).contains("kansoku: interrupted: stopped `sh -c"),
            "SIG{signal}: {}",
            text(&out.stderr)
        );
        assert_eq!(temporaries(t.root()), Vec::<String>::new(), "SIG{signal}");
        assert!(!t.root().join("evidence/runs/t.txt").exists());
    }
}

#[test]
fn a_temporary_file_a_stopped_capture_left_is_removed_by_the_next() {
    let mut t = site();
    // A process that has ended: its pid names no running capture.
    let mut done = Command::new("true").spawn().expect("true runs");
    let dead = done.id();
    done.wait().expect("reaped");
    let stale = format!("evidence/runs/.kansoku-capture-{dead}-AbC123");
    t.write(&stale, "half a capture");
    // One of a capture still running (this test's own pid) is left alone.
    let live = format!(
        "evidence/runs/.kansoku-capture-{}-XyZ789",
        std::process::id()
    );
    t.write(&live, "being written");
    let out = kansoku(
        t.root(),
        &["capture", "--as", "runs/out.txt", "--", "echo", "hi"],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(!t.root().join(&stale).exists(), "the stale file is removed");
    assert!(t.root().join(&live).exists(), "a live one is kept");
    assert!(
        text(&out.stderr).contains(&format!(
            "note: removed {stale}, left by a capture that was stopped"
        )),
        "{}",
        text(&out.stderr)
    );
}

#[cfg(unix)]
#[test]
fn file_refuses_a_fifo_or_a_device_l7() {
    let t = site();
    let fifo = t.root().join("pipe");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(made.success());
    for path in [fifo.to_str().expect("utf-8"), "/dev/zero", "/dev/null"] {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_kansoku"));
        cmd.arg("--root").arg(t.root()).args([
            "capture",
            "--file",
            path,
            "--source",
            "s",
            "--as",
            "logs/x.log",
        ]);
        let out = bounded(cmd, 20);
        assert_eq!(out.status.code(), Some(2), "{path}");
        assert_eq!(
            text(&out.stderr),
            format!("error: capture --file {path}: not a regular file; give the path of a log file (save what a pipe or a device gives to a file first, or capture the command that prints it)\n"),
            "{path}"
        );
    }
    assert!(!t.root().join("evidence/logs/x.log").exists());
}

#[test]
fn recapture_stops_a_command_past_its_time_and_says_so() {
    let (t, outside) = crate::recapture::captured("x\ny\n", "y");
    let delay = outside.join("delay");
    std::fs::write(&delay, "0").expect("delay");
    let line = format!(
        "cat {}; sleep \"$(cat {})\"",
        outside.join("data.txt").display(),
        delay.display()
    );
    crate::recapture::capture_shell(&t, &line);
    std::fs::write(&delay, "30").expect("delay");
    let before = std::fs::read_to_string(t.root().join("evidence/runs/out.txt")).expect("c");
    let started = Instant::now();
    let out = kansoku(t.root(), &["recapture", "--all", "--timeout", "1s"]);
    assert!(started.elapsed() < Duration::from_secs(20));
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains(&format!(
            "evidence/runs/out.txt: stopped (`sh -c '{line}'` ran longer than 1s and was stopped, with every process it started; nothing was written: give it more time with --timeout (e.g. --timeout 30m))"
        )),
        "{}",
        text(&out.stdout)
    );
    assert_eq!(
        std::fs::read_to_string(t.root().join("evidence/runs/out.txt")).expect("c"),
        before
    );
}

#[cfg(unix)]
#[test]
fn a_signal_to_recapture_stops_the_command_and_removes_its_scratch_copy() {
    use std::os::unix::process::CommandExt;
    let (t, outside) = crate::recapture::captured("x\ny\n", "y");
    let pidfile = outside.join("child.pid");
    let line = format!(
        "cat {}; if [ -e {} ]; then echo $$ > {}; sleep 60; fi",
        outside.join("data.txt").display(),
        outside.join("go").display(),
        pidfile.display()
    );
    crate::recapture::capture_shell(&t, &line);
    std::fs::write(outside.join("go"), "").expect("go");
    let tmpdir = outside.join("tmp");
    std::fs::create_dir_all(&tmpdir).expect("tmp");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_kansoku"));
    cmd.arg("--root")
        .arg(t.root())
        .args(["recapture", "--all", "--compare"])
        .env("TMPDIR", &tmpdir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .process_group(0);
    let child = cmd.spawn().expect("kansoku runs");
    let deadline = Instant::now() + Duration::from_secs(30);
    while std::fs::read_to_string(&pidfile).map_or(true, |s| s.trim().is_empty()) {
        assert!(Instant::now() < deadline, "the command never started");
        std::thread::sleep(Duration::from_millis(20));
    }
    let pid: u32 = std::fs::read_to_string(&pidfile)
        .expect("pid")
        .trim()
        .parse()
        .expect("a pid");
    assert!(
        std::fs::read_dir(&tmpdir).expect("tmp").count() > 0,
        "a scratch copy is in use"
    );
    Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill");
    let out = child.wait_with_output().expect("kansoku ends");
    let gone = Instant::now() + Duration::from_secs(5);
    while alive(pid) && Instant::now() < gone {
        std::thread::sleep(Duration::from_millis(20));
    }
    let still = alive(pid);
    if still {
        let _ = Command::new("kill")
            .args(["-KILL", &pid.to_string()])
            .status();
    }
    assert!(!still, "the command outlived kansoku");
    assert_eq!(out.status.code(), Some(143), "{}", text(&out.stderr));
    let left: Vec<_> = std::fs::read_dir(&tmpdir)
        .expect("tmp")
        .map(|e| e.expect("entry").file_name())
        .collect();
    assert!(left.is_empty(), "left in TMPDIR: {left:?}");
}
