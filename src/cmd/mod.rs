//! The commands of the `kansoku` binary, one module each, and what they
//! share: finding the site and printing a failure. Commands return their
//! exit code; only `main` exits.

pub(crate) mod build;
pub(crate) mod capture;
pub(crate) mod check;
pub(crate) mod claims;
pub(crate) mod clean;
pub(crate) mod completions;
pub(crate) mod diff;
pub(crate) mod help;
pub(crate) mod init;
pub(crate) mod new;
pub(crate) mod review;
pub(crate) mod serve;

use kansoku::check::Report;
use kansoku::config::CONFIG_FILE;
use kansoku::Error;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Runs `run` on the site: `--root` when given, else the nearest
/// directory from the current one upwards that holds a `book.toml` (as
/// mdBook and Zola do). Finding none is the error reported, naming the
/// directory the search started from.
pub(crate) fn in_site(explicit: Option<PathBuf>, run: impl FnOnce(&Path) -> ExitCode) -> ExitCode {
    match site_root(explicit) {
        Ok(root) => run(&root),
        Err(e) => fail(Path::new("."), e),
    }
}

fn site_root(explicit: Option<PathBuf>) -> Result<PathBuf, Error> {
    if let Some(root) = explicit {
        return Ok(root);
    }
    let here = PathBuf::from(".");
    // Without a current directory there is nothing to search upwards
    // from: `.` is tried, and its own error reported.
    let Ok(cwd) = std::env::current_dir() else {
        return Ok(here);
    };
    match find_root(&cwd) {
        // Shown paths stay short when the site is the current directory.
        Some(found) if found == cwd => Ok(here),
        Some(found) => Ok(found),
        None => Err(Error::Usage(format!(
            "no {CONFIG_FILE} in {} or any directory above it; run `kansoku init DIR` to start a site, or pass --root",
            cwd.display()
        ))),
    }
}

/// The nearest of `start` and its ancestors that holds a `book.toml`.
pub(crate) fn find_root(start: &Path) -> Option<PathBuf> {
    start
        .ancestors()
        .find(|dir| dir.join(CONFIG_FILE).is_file())
        .map(Path::to_path_buf)
}

/// Prints why a command failed and returns its exit code: 1 for content
/// errors (listed errors first, then a count line), 2 for anything else.
pub(crate) fn fail(root: &Path, e: Error) -> ExitCode {
    match e {
        Error::Content(diags) => {
            // A command that failed gives back no site whose configuration
            // to take them from: the one place `book.toml` is read again.
            let accept = kansoku::config::Config::load(root)
                .map(|c| c.accept)
                .unwrap_or_default();
            let report = Report::triaged(&accept, diags);
            eprint!("{}", failure_listing(&report));
            let n = report.errors();
            eprintln!(
                "error: {n} error{} found; nothing was written",
                if n == 1 { "" } else { "s" }
            );
            ExitCode::from(1)
        }
        other => {
            eprintln!("error: {other}");
            ExitCode::from(2)
        }
    }
}

/// What `check` lists for `report` (errors first, then warnings, then the
/// accepted counts), one line after another without `check`'s blank
/// lines, and without its summary line: a failed command prints its own.
fn failure_listing(report: &Report) -> String {
    let mut shown: Vec<&kansoku::Diagnostic> = report.diagnostics.iter().collect();
    // Errors first, each group in its order (a stable sort).
    shown.sort_by_key(|d| !d.is_error());
    let mut lines: Vec<String> = shown.iter().map(ToString::to_string).collect();
    lines.extend(report.accepted.iter().map(kansoku::check::accepted_line));
    if !report.accepted.is_empty() {
        lines.push("(`kansoku check --all` lists the accepted findings)".to_owned());
    }
    // No trailing blanks on the last line, as before this was built from
    // the data rather than cut out of `check`'s text.
    let mut out = lines.join("\n").trim_end().to_owned();
    if !out.is_empty() {
        out.push('\n');
    }
    out
}
