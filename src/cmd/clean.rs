//! `kansoku clean`: removes what builds leave behind.

use std::path::Path;
use std::process::ExitCode;

pub(crate) fn run(root: &Path) -> ExitCode {
    match kansoku::clean::clean(root) {
        Ok(removed) if removed.is_empty() => {
            println!("nothing to clean");
            ExitCode::SUCCESS
        }
        Ok(removed) => {
            let names: Vec<String> = removed.iter().map(|p| p.display().to_string()).collect();
            println!("removed {}", names.join(" and "));
            ExitCode::SUCCESS
        }
        Err(e) => super::fail(root, e),
    }
}
