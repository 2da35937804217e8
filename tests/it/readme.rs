//! The README's Quick start, run as a newcomer runs it (issue 42): the
//! shell block after the `<!-- quick-start: … -->` marker, command by
//! command and verbatim, with the built `kansoku` first on `PATH`, in a
//! scratch directory. `kansoku serve` is the one command run differently:
//! on a free port (`--port 0`) and only until it serves the new page, then
//! stopped with Ctrl-C (SIGINT), because it runs until stopped; what it
//! printed up to its `serving http://…` line is its output.
//!
//! The example output the README shows beside the block is held to what
//! the commands print (the timings set aside), and so is the E013 it
//! shows for the page with `#L9` changed to `#L12`.

use crate::common::repo_root;
use std::io::BufRead as _;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

const MARKER: &str = "<!-- quick-start:";

fn readme() -> String {
    std::fs::read_to_string(repo_root().join("README.md")).expect("README.md")
}

/// The commands of the first ```sh block after the marker; a command with
/// a here-document (`<<'EOF'`) runs through its terminator line.
fn quick_start_commands(readme: &str) -> Vec<String> {
    let after = readme
        .split_once(MARKER)
        .expect("README marks its Quick start block")
        .1;
    let block = after
        .split_once("\n```sh\n")
        .expect("a ```sh block follows the marker")
        .1
        .split_once("\n```\n")
        .expect("the block is closed")
        .0;
    let mut commands = Vec::new();
    let mut lines = block.lines();
    while let Some(line) = lines.next() {
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let mut command = line.to_owned();
        if let Some((_, word)) = line.split_once("<<") {
            let word = word.trim().trim_matches(|c| c == '\'' || c == '"');
            for body in lines.by_ref() {
                command.push('\n');
                command.push_str(body);
                if body == word {
                    break;
                }
            }
        }
        commands.push(command);
    }
    commands
}

/// The README's example output: each `$ COMMAND` line of the ```text
/// block after the Quick start block, with the lines it printed.
fn example_output(readme: &str) -> Vec<(String, String)> {
    let after = readme.split_once(MARKER).expect("marker").1;
    let after = after.split_once("\n```sh\n").expect("block").1;
    let after = after.split_once("\n```\n").expect("block end").1;
    let text = after
        .split_once("```text\n")
        .expect("the example output follows the block")
        .1
        .split_once("\n```")
        .expect("example output closed")
        .0;
    let mut out: Vec<(String, String)> = Vec::new();
    for line in text.lines() {
        match (line.strip_prefix("$ "), out.last_mut()) {
            (Some(command), _) => out.push((command.to_owned(), String::new())),
            (None, Some((_, printed))) => {
                printed.push_str(line);
                printed.push('\n');
            }
            (None, None) => panic!("example output starts without a `$ ` line: {line:?}"),
        }
    }
    out
}

/// What varies from run to run: a duration (`277 ms`), the serve
/// directory and the port serve listens on.
fn steady(text: &str) -> String {
    let words: Vec<&str> = text.split(' ').collect();
    let mut out = Vec::with_capacity(words.len());
    for (i, word) in words.iter().enumerate() {
        let next = words.get(i + 1).map(|w| w.trim_end());
        if !word.is_empty() && word.bytes().all(|b| b.is_ascii_digit()) && next == Some("ms") {
            out.push("N".to_owned());
        } else if word.starts_with('/') && word.contains("kansoku-serve-") {
            let rest = &word[word.find("/site").unwrap_or(word.len())..];
            out.push(format!("SERVE-DIR{rest}"));
        } else if let Some(after) = word.strip_prefix("http://127.0.0.1:") {
            let rest = after.trim_start_matches(|c: char| c.is_ascii_digit());
            out.push(format!("http://127.0.0.1:PORT{rest}"));
        } else {
            out.push((*word).to_owned());
        }
    }
    out.join(" ")
}

struct Shell {
    cwd: PathBuf,
    path: std::ffi::OsString,
    tmp: PathBuf,
}

impl Shell {
    fn new(root: &Path) -> Shell {
        let bin = Path::new(env!("CARGO_BIN_EXE_kansoku"))
            .parent()
            .expect("the binary's directory")
            .to_owned();
        let mut dirs = vec![bin];
        dirs.extend(std::env::split_paths(
            &std::env::var_os("PATH").unwrap_or_default(),
        ));
        let tmp = root.join("tmp");
        std::fs::create_dir_all(&tmp).expect("temp dir");
        Shell {
            cwd: root.join("work"),
            path: std::env::join_paths(dirs).expect("PATH"),
            tmp,
        }
    }

    fn sh(&self, command: &str) -> Command {
        let mut c = Command::new("sh");
        c.arg("-c")
            .arg(command)
            .current_dir(&self.cwd)
            .env("PATH", &self.path)
            .env("TMPDIR", &self.tmp)
            .env_remove("GITHUB_STEP_SUMMARY")
            .env_remove("XDG_RUNTIME_DIR");
        c
    }

    /// Runs one command as `sh -c` runs it; `cd DIR` moves this shell.
    fn run(&mut self, command: &str) -> Output {
        if let Some(dir) = command.strip_prefix("cd ") {
            self.cwd = self.cwd.join(dir.trim());
            assert!(self.cwd.is_dir(), "`{command}`: no such directory");
            return self.sh("true").output().expect("sh runs");
        }
        let out = self.sh(command).output().expect("sh runs");
        assert!(
            out.status.success(),
            "`{command}` failed ({}):\n{}{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        out
    }

    /// `kansoku serve`, on a free port, until it serves `page`; then Ctrl-C.
    fn serve_briefly(&self, command: &str, page: &str) -> String {
        let mut child = self
            // Both streams in one pipe, in the order a terminal shows them.
            .sh(&format!("exec {command} --port 0 2>&1"))
            .stdout(Stdio::piped())
            .spawn()
            .expect("start kansoku serve");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                let _ = tx.send(line);
            }
        });
        let mut printed = String::new();
        let url = loop {
            let line = rx
                .recv_timeout(Duration::from_secs(60))
                .unwrap_or_else(|_| panic!("`{command}` never said it serves:\n{printed}"));
            printed.push_str(&line);
            printed.push('\n');
            if let Some(url) = line.split_whitespace().find(|w| w.starts_with("http://")) {
                break url.to_owned();
            }
        };
        let addr: SocketAddr = url
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .parse()
            .expect("an address");
        let (status, body) = crate::serve::raw_get(addr, page);
        let stopped = Command::new("kill")
            .args(["-INT", &child.id().to_string()])
            .status()
            .expect("run kill");
        assert!(stopped.success());
        let status_code = child.wait().expect("serve stops").code();
        assert_eq!(status, 200, "`{command}` did not serve {page}:\n{body}");
        assert_eq!(status_code, Some(0), "serve stopped by Ctrl-C exits 0");
        printed
    }
}

fn printed(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn the_quick_start_works_verbatim_on_a_fresh_init_site() {
    let readme = readme();
    let commands = quick_start_commands(&readme);
    let expected = example_output(&readme);
    let tmp = crate::scratch::tempdir();
    std::fs::create_dir_all(tmp.path().join("work")).expect("work dir");
    let mut shell = Shell::new(tmp.path());

    // The page the README has a newcomer write: `cat > content/….md`.
    let page = commands
        .iter()
        .find_map(|c| c.split_once("cat > content/")?.1.split_once(".md"))
        .map(|(rel, _)| rel.to_owned())
        .expect("the Quick start writes a page under content/");
    let mut ran = Vec::new();
    for command in &commands {
        let text = if command.trim() == "kansoku serve" {
            shell.serve_briefly(command.trim(), &format!("/en/{page}/"))
        } else {
            printed(&shell.run(command))
        };
        ran.push((command.clone(), text));
    }
    for want in [
        "kansoku init ",
        "kansoku check",
        "kansoku serve",
        "kansoku build",
    ] {
        assert!(
            commands.iter().any(|c| c.starts_with(want)),
            "the Quick start has no `{want}`: {commands:?}"
        );
    }

    // The page is on the built site, its claim with it.
    let html = std::fs::read_to_string(shell.cwd.join(format!("public/en/{page}/index.html")))
        .expect("the README's page is built");
    assert!(html.contains("id=\"claim-"), "no claim on the page");

    // The example output is what the commands printed.
    assert!(!expected.is_empty());
    for (command, shown) in &expected {
        let (_, got) = ran
            .iter()
            .find(|(c, _)| c.trim() == command)
            .unwrap_or_else(|| {
                panic!("the example output shows `{command}`, which the block does not run")
            });
        assert_eq!(
            steady(got),
            steady(shown),
            "README's example output of `{command}` is not what it prints"
        );
    }
    let check = &ran
        .iter()
        .find(|(c, _)| c == "kansoku check")
        .expect("check")
        .1;
    assert_eq!(check.trim(), "check: no errors, 0 warnings");

    // The mistake the README shows: `#L9` changed to `#L12`.
    let file = shell.cwd.join(format!("content/{page}.md"));
    let text = std::fs::read_to_string(&file).expect("the page");
    assert!(text.contains("#L9\""), "the README's page cites `#L9`");
    std::fs::write(&file, text.replace("#L9\"", "#L12\"")).expect("edit the page");
    let out = shell.sh("kansoku check").output().expect("check runs");
    assert_eq!(out.status.code(), Some(1));
    let first = printed(&out).lines().next().unwrap_or_default().to_owned();
    let shown = readme
        .lines()
        .find(|l| l.starts_with(&format!("content/{page}.md:")))
        .expect("the README shows the finding for `#L12`");
    assert_eq!(first, shown);
}
