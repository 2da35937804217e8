//! Writes a kansoku site of N bilingual pages shaped like ROCm-pages, for
//! benchmarks:
//! `cargo run --release --example gen_corpus -- N DIR [SEED] [--shape sectioned|flat] [--peer hugo|zola PEER_DIR]…`.
//!
//! `--shape sectioned` (the default) spreads the pages over √N sections;
//! `--shape flat` puts them all in one section (a blog, a log archive).
//! `--peer hugo PEER_DIR` also writes the same pages as a bilingual Hugo
//! site, `--peer zola PEER_DIR` as a bilingual Zola site (both may be
//! given), so `benches/peers.py` can build one corpus with each. What a
//! page holds is described in `corpus.rs`, which the tests include too.

mod corpus;

use corpus::{Corpus, Shape};
use std::path::{Path, PathBuf};

const USAGE: &str =
    "usage: gen_corpus N DIR [SEED] [--shape sectioned|flat] [--peer hugo|zola PEER_DIR]...";

fn usage() -> ! {
    eprintln!("{USAGE}");
    std::process::exit(2);
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut shape = Shape::Sectioned;
    let mut hugo: Option<PathBuf> = None;
    let mut zola: Option<PathBuf> = None;
    while let Some(i) = args.iter().position(|a| a.starts_with("--")) {
        let flag = args.remove(i);
        match (flag.as_str(), args.get(i).map(String::as_str)) {
            ("--shape", Some("flat")) => shape = Shape::Flat,
            ("--shape", Some("sectioned")) => shape = Shape::Sectioned,
            ("--peer", Some(kind @ ("hugo" | "zola"))) if args.len() > i + 1 => {
                let slot = if kind == "hugo" { &mut hugo } else { &mut zola };
                args.remove(i);
                *slot = Some(args.remove(i).into());
                continue;
            }
            _ => usage(),
        }
        args.remove(i);
    }
    let (Some(n), Some(dir)) = (
        args.first().and_then(|n| n.parse::<usize>().ok()),
        args.get(1),
    ) else {
        usage()
    };
    let seed = match args.get(2) {
        None => corpus::DEFAULT_SEED,
        Some(s) => s.parse().unwrap_or_else(|_| usage()),
    };
    let dir = Path::new(dir);
    let written = corpus::generate(&Corpus {
        pages: n,
        dir,
        seed,
        shape,
        hugo: hugo.as_deref(),
        zola: zola.as_deref(),
    });
    eprintln!(
        "wrote {n} pages, {} evidence logs, {} sections to {}",
        written.logs,
        written.sections,
        dir.display()
    );
}
