//! Issue 42: a release archive made by the release workflow's own
//! script, then installed by the script the workflow runs, run for real.
//!
//! A module of its own, not part of `workflow.rs`: libtest starts tests
//! in name order, and this one, when it packaged the test build's binary
//! (gzip -9 of it, twice), was the last and longest of the suite, run
//! while the harness's other thread had nothing left to do.

use crate::common::repo_root;
use std::path::Path;
use std::process::{Command, Stdio};

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("output is UTF-8")
}

/// A local HTTP server for `dir`, stopped on drop.
struct Served(std::process::Child, u16);

impl Served {
    fn new(dir: &Path) -> Served {
        use std::io::BufRead;
        let mut child = Command::new("python3")
            .args(["-u", "-m", "http.server", "--bind", "127.0.0.1", "0"])
            .current_dir(dir)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("python3 serves files");
        let stdout = child.stdout.take().expect("stdout");
        let mut line = String::new();
        std::io::BufReader::new(stdout)
            .read_line(&mut line)
            .expect("the server says its port");
        // "Serving HTTP on 127.0.0.1 port 41234 (http://127.0.0.1:41234/) ..."
        let port = line
            .split(" port ")
            .nth(1)
            .and_then(|r| r.split_whitespace().next())
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no port in {line:?}"));
        Served(child, port)
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn issue_42_the_release_script_packages_and_the_install_script_verifies_it() {
    let tmp = crate::scratch::tempdir();
    let target = "x86_64-unknown-linux-gnu";
    // Where `cargo build --release --target` would put the binary: a
    // two-line launcher of this test run's binary. What the two scripts
    // do does not depend on the binary's bytes, and gzip -9 of the test
    // build's binary (about 40 MB stripped), twice, was an eighth of the
    // integration tests' CPU time; `--version` below still runs kansoku.
    let built = tmp.path().join("target");
    let release = built.join(target).join("release");
    std::fs::create_dir_all(&release).expect("target dir");
    let launcher = release.join("kansoku");
    std::fs::write(
        &launcher,
        format!(
            "#!/bin/sh\nexec '{}' \"$@\"\n",
            env!("CARGO_BIN_EXE_kansoku")
        ),
    )
    .expect("launcher");
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&launcher, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }
    let releases = tmp.path().join("releases");
    let version = env!("CARGO_PKG_VERSION");
    let dist = releases.join(format!("v{version}"));
    let package = |dist: &Path| {
        Command::new("bash")
            .arg(repo_root().join(".github/release/package.sh"))
            .arg(target)
            .env("CARGO_TARGET_DIR", &built)
            .env("KANSOKU_DIST", dist)
            .env("SOURCE_DATE_EPOCH", "1764288000")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("bash runs")
    };
    // Both packagings at once, into two directories.
    let first = package(&dist);
    let again = tmp.path().join("again");
    let second = package(&again);
    let out = first.wait_with_output().expect("bash runs");
    let out_again = second.wait_with_output().expect("bash runs");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let name = format!("kansoku-{version}-{target}.tar.gz");
    assert!(text(&out.stdout).starts_with(&format!("{}\n", dist.join(&name).display())));
    let check = Command::new("sha256sum")
        .args(["--check", "--strict", &format!("{name}.sha256")])
        .current_dir(&dist)
        .output()
        .expect("sha256sum runs");
    assert_eq!(text(&check.stdout), format!("{name}: OK\n"));
    // One binary, one archive.
    assert!(out_again.status.success(), "{}", text(&out_again.stderr));
    assert_eq!(
        std::fs::read(dist.join(&name)).expect("archive"),
        std::fs::read(again.join(&name)).expect("archive")
    );

    let served = Served::new(&releases);
    let install = |runner: &Path| {
        Command::new("bash")
            .arg(repo_root().join("src/init_site/.github/kansoku-install.sh"))
            .env("KANSOKU_VERSION", version)
            .env("KANSOKU_REPO", "example/kansoku")
            .env(
                "KANSOKU_RELEASES_URL",
                format!("http://127.0.0.1:{}", served.1),
            )
            .env("RUNNER_TEMP", runner)
            .env_remove("GH_TOKEN")
            .env_remove("GITHUB_PATH")
            .output()
            .expect("bash runs")
    };
    let runner = tmp.path().join("runner");
    let out = install(&runner);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let said = text(&out.stdout);
    assert!(said.contains(&format!("{name}: OK")), "{said}");
    assert!(said.ends_with(&format!("kansoku {version}\n")), "{said}");
    assert!(runner.join("kansoku-install/bin/kansoku").is_file());

    // A changed byte: refused before anything is installed.
    let mut bytes = std::fs::read(dist.join(&name)).expect("archive");
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(dist.join(&name), bytes).expect("tamper");
    let runner = tmp.path().join("runner2");
    let out = install(&runner);
    assert!(!out.status.success());
    assert!(
        text(&out.stdout).contains(&format!("{name}: FAILED")),
        "{}",
        text(&out.stdout)
    );
    assert!(!runner.join("kansoku-install/bin/kansoku").exists());
}
