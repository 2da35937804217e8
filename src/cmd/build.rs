//! `kansoku build`: validate, render, write; one summary line.

use kansoku::site::{BuildOptions, Progress};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

/// Options of `kansoku build`.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// Write the site into DIR instead of the build directory of book.toml
    /// (relative to the current directory).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Publish under this URL instead of book.toml's `site-url`
    /// (e.g. `https://example.org/docs/` or `/docs/`).
    #[arg(long, value_name = "URL")]
    base_url: Option<String>,
    /// Print nothing but errors.
    #[arg(long, short)]
    quiet: bool,
    /// Write no search index (as `[search] enabled = false` in book.toml).
    #[arg(long)]
    no_search: bool,
    /// Publish drafts too (pages with `draft = true`, left out otherwise).
    #[arg(long)]
    drafts: bool,
    /// Render everything again, ignoring what earlier builds remembered
    /// (kept in .kansoku/ beside the build directory).
    #[arg(long)]
    no_cache: bool,
    /// Also write the whole record as one HTML file for reading offline:
    /// every page, view and evidence log, at most 64 MiB (relative to the
    /// current directory; never inside the build directory, and never over
    /// a file that is not an archive kansoku wrote).
    #[arg(long, value_name = "FILE")]
    archive: Option<PathBuf>,
    /// Put only this language's pages in the archive [default: Japanese,
    /// English and the parallel view].
    #[arg(long, value_name = "LANG", requires = "archive", value_parser = ["ja", "en"])]
    archive_lang: Option<String>,
}

pub(crate) fn run(root: &Path, args: Args) -> ExitCode {
    // A bar only for a person watching: never in a pipe, a log or CI.
    let bar = (!args.quiet && std::io::stderr().is_terminal()).then(bar);
    let progress = bar.clone().map(|bar| {
        let hook: Arc<dyn Fn(Progress) + Send + Sync> = Arc::new(move |p| match p {
            Progress::Rendering(total) => {
                bar.set_length(total as u64);
                bar.set_message("rendering");
                bar.enable_steady_tick(std::time::Duration::from_millis(120));
            }
            Progress::Rendered(n) => bar.inc(n as u64),
            Progress::Indexing => bar.set_message("indexing search"),
            Progress::Writing => bar.set_message("writing"),
        });
        hook
    });
    let archive = args.archive.map(|path| kansoku::site::archive::Archive {
        lang: match args.archive_lang.as_deref() {
            Some("ja") => Some(kansoku::lang::Lang::Ja),
            Some(_) => Some(kansoku::lang::Lang::En),
            None => None,
        },
        ..kansoku::site::archive::Archive::new(path)
    });
    let shown = archive.as_ref().map(|a| a.path.clone());
    let options = BuildOptions {
        archive,
        out: args.out,
        base_url: args.base_url,
        progress,
        search: !args.no_search,
        cache: !args.no_cache,
        drafts: args.drafts,
    };
    // An interrupted build removes its staging tree before it exits.
    let result = kansoku::site::output::exit_cleanly_on_signals()
        .map_err(|e| kansoku::Error::Usage(format!("cannot handle interruptions: {e}")))
        .and_then(|()| kansoku::site::build_with(root, options));
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    if result.is_err() && kansoku::site::output::interrupted() {
        // The build stopped because a signal arrived: the signal thread is
        // removing the staging tree and exits with 128 + the signal's
        // number, the status a shell expects; this thread must not exit
        // first with a build error's.
        loop {
            std::thread::park();
        }
    }
    match result {
        Ok(report) => {
            if !args.quiet {
                // Accepted warnings are expected: a build says nothing of them.
                let triaged =
                    kansoku::check::Report::triaged(&report.accept, report.warnings.clone());
                eprint!("{}", kansoku::check::brief(&triaged.diagnostics, 3));
                println!("{}", report.summary());
                if let Some(path) = &shown {
                    let size = std::fs::metadata(path).map_or(0, |m| m.len());
                    println!(
                        "archive: {} (limit {}) → {}",
                        kansoku::site::archive::size(size),
                        kansoku::site::archive::size(kansoku::site::archive::LIMIT),
                        path.display()
                    );
                }
            }
            ExitCode::SUCCESS
        }
        Err(e) => super::fail(root, e),
    }
}

fn bar() -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(0);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{msg:>16} [{bar:30}] {pos}/{len}")
            .expect("the template is valid")
            .progress_chars("=> "),
    );
    bar
}
