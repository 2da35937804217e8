//! The commands of the `kansoku` binary, one module each, and what they
//! share: finding the site and printing a failure. Commands return their
//! exit code; only `main` exits.

pub(crate) mod build;
pub(crate) mod check;
pub(crate) mod claims;
pub(crate) mod clean;
pub(crate) mod completions;
pub(crate) mod diff;
pub(crate) mod init;
pub(crate) mod new;
pub(crate) mod review;
pub(crate) mod serve;

use kansoku::check::Report;
use kansoku::config::CONFIG_FILE;
use kansoku::Error;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The site to work on: `--root` when given, else the nearest directory
/// from the current one upwards that holds a `book.toml` (as mdBook and
/// Zola do), else the current directory (whose missing `book.toml` is then
/// the error reported).
pub(crate) fn site_root(explicit: Option<PathBuf>) -> PathBuf {
    if let Some(root) = explicit {
        return root;
    }
    let here = PathBuf::from(".");
    let Ok(cwd) = std::env::current_dir() else {
        return here;
    };
    match find_root(&cwd) {
        // Shown paths stay short when the site is the current directory.
        Some(found) if found == cwd => here,
        Some(found) => found,
        None => here,
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
            let accept = kansoku::config::Config::load(root)
                .map(|c| c.accept)
                .unwrap_or_default();
            let report = Report::triaged(&accept, diags);
            let text = kansoku::check::format(&report, kansoku::check::Format::Human);
            // The summary line of `check` is replaced by the build's own.
            let body = text.trim_end().rsplit_once('\n').map_or("", |(b, _)| b);
            let mut body = body.trim_end().replace("\n\n", "\n");
            if !body.is_empty() {
                body.push('\n');
            }
            eprint!("{body}");
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
