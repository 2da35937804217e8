//! `kansoku init [DIR]`: a small working site to start from.

use std::path::PathBuf;
use std::process::ExitCode;

/// Options of `kansoku init`.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// A new or empty directory [default: --root, else the current directory].
    dir: Option<PathBuf>,
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
    match kansoku::init::init(&dir) {
        Ok(n) => {
            println!(
                "wrote {n} files to {}; build it with `kansoku build --root {}`",
                dir.display(),
                dir.display()
            );
            ExitCode::SUCCESS
        }
        Err(e) => super::fail(&dir, e),
    }
}
