//! A whole build with search indexing off, through the public API: the
//! same stages as `kansoku build` (load → theme → render → atomic write)
//! minus `search::index`, so the SPEC §9 "search off" target can be timed
//! while the CLI has no switch for it. Not a Criterion bench: run it once
//! per measurement under `/usr/bin/time` (see benches/README.md).
//!
//! ```text
//! cargo bench --bench pipeline -- --root /tmp/c10k
//! ```
//!
//! Without `--root` it does nothing, so a plain `cargo bench` stays short.

use kansoku::render::Renderer;
use kansoku::site::output::write_atomic;
use kansoku::validate::Mode;
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
    let start = Instant::now();
    let lap = |what: &str, since: Instant| {
        eprintln!("timing: {what:<10} {:>6} ms", since.elapsed().as_millis());
    };
    let t = Instant::now();
    let (site, _warnings) = kansoku::site::load(&root, Mode::Build).unwrap_or_else(|e| {
        eprintln!("pipeline: {e}");
        std::process::exit(1)
    });
    lap("load", t);
    let t = Instant::now();
    let renderer = match Renderer::new(&root) {
        Ok(Ok(r)) => r,
        Ok(Err(d)) => panic!("theme: {d:?}"),
        Err(e) => panic!("theme: {e}"),
    };
    lap("theme", t);
    let t = Instant::now();
    let files = renderer
        .render(&site)
        .unwrap_or_else(|d| panic!("render: {d:?}"));
    lap("render", t);
    let t = Instant::now();
    let bytes: usize = files.iter().map(|f| f.bytes.len()).sum();
    write_atomic(&files, &root.join(&site.config.build_dir)).expect("output is writable");
    lap("write", t);
    eprintln!(
        "built {} pages without search: {} files, {} MiB, {} ms",
        site.content.pages.len(),
        files.len(),
        bytes >> 20,
        start.elapsed().as_millis()
    );
}
