//! `kansoku init [DIR]`: a small working site to start from.

use std::path::PathBuf;
use std::process::ExitCode;

/// Options of `kansoku init`.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// A new or empty directory [default: --root, else the current directory].
    dir: Option<PathBuf>,
    /// Leave out the GitHub Actions workflow (.github/workflows/kansoku.yml).
    #[arg(long)]
    no_ci: bool,
}

pub(crate) fn run(root: Option<PathBuf>, args: Args) -> ExitCode {
    let dir = match (args.dir, root) {
        (Some(_), Some(_)) => {
            eprintln!("error: give the new site's directory once: as DIR or as --root, not both");
            return ExitCode::from(2);
        }
        (Some(d), None) | (None, Some(d)) => d,
        (None, None) => PathBuf::from("."),
    };
    match kansoku::init::init(&dir, !args.no_ci) {
        Ok(n) => {
            println!(
                "wrote {n} files to {}; build it with `kansoku build --root {}`",
                dir.display(),
                dir.display()
            );
            println!(
                "book.toml: license = \"{}\" (Creative Commons Attribution 4.0), the terms the record's RO-Crate states; change it if yours differ (an SPDX id, a URL, or \"NOASSERTION\")",
                kansoku::init::STARTER_LICENSE
            );
            if !args.no_ci {
                println!(
                    ".github/workflows/kansoku.yml: checks pull requests and publishes the default branch to GitHub Pages (Settings → Pages → Source: GitHub Actions); `kansoku init --no-ci` leaves it out"
                );
            }
            ExitCode::SUCCESS
        }
        Err(e) => super::fail(&dir, e),
    }
}
