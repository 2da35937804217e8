//! `kansoku clean`: removes what builds leave behind.

use std::path::Path;
use std::process::ExitCode;

pub(crate) fn run(root: &Path) -> ExitCode {
    match kansoku::clean::clean(root) {
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
            ExitCode::SUCCESS
        }
        Err(e) => super::fail(root, e),
    }
}
