//! `kansoku clean`: removes what builds leave behind.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Options of `kansoku clean`.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// Remove what `build --out DIR` wrote into DIR, and its records,
    /// instead of the build directory.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

pub(crate) fn run(root: &Path, args: Args) -> ExitCode {
    let done = match &args.out {
        Some(dir) => kansoku::clean::clean_out(root, dir),
        None => kansoku::clean::clean(root),
    };
    match done {
        Ok(done) => {
            if done.removed.is_empty() {
                println!("nothing to clean");
            } else {
                let names: Vec<String> = done
                    .removed
                    .iter()
                    .map(|p| p.display().to_string())
                    .collect();
                println!("removed {}", names.join(" and "));
            }
            // Never removed: named, so that nobody wonders why a tree is
            // still there.
            for p in &done.left {
                eprintln!(
                    "kansoku: left {} in place: kansoku did not write it",
                    p.display()
                );
            }
            for dir in &done.kept_out {
                eprintln!(
                    "kansoku: kept the records of {}, built with --out; `kansoku clean --out {}` removes what kansoku wrote there",
                    dir.display(),
                    dir.display()
                );
            }
            ExitCode::SUCCESS
        }
        Err(e) => super::fail(root, e),
    }
}
