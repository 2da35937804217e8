//! A whole build with search indexing off: `site::build_with` with
//! `search: false`, the same code as `kansoku build --no-search`, timed
//! in-process for the SPEC §9 "search off" target. Not a Criterion bench: run it once
//! per measurement under `/usr/bin/time` (see benches/README.md).
//!
//! ```text
//! cargo bench --bench pipeline -- --root /tmp/c10k
//! ```
//!
//! Without `--root` it does nothing, so a plain `cargo bench` stays short.

use kansoku::site::BuildOptions;
use std::path::PathBuf;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(root) = args
        .iter()
        .position(|a| a == "--root")
        .and_then(|i| args.get(i + 1))
        .map(PathBuf::from)
    else {
        eprintln!("pipeline: skipped (pass `-- --root DIR` to build DIR without search)");
        return;
    };
    // The same call as `kansoku build`, with search off; stage timings on.
    std::env::set_var("KANSOKU_TIMINGS", "1");
    let start = Instant::now();
    match kansoku::site::build_with(
        &root,
        BuildOptions {
            search: false,
            ..BuildOptions::default()
        },
    ) {
        Ok(report) => eprintln!(
            "built {} pages without search: {} files, {} ms",
            report.pages,
            report.files_written,
            start.elapsed().as_millis()
        ),
        Err(e) => {
            eprintln!("pipeline: {e}");
            std::process::exit(1)
        }
    }
}
