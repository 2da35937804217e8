//! The `kansoku` command: parses arguments, runs a command, prints the
//! outcome. The only place that exits the process.

use clap::{Parser, Subcommand};
use kansoku::{Diagnostic, Error};
use std::path::PathBuf;
use std::process::ExitCode;

/// A static site generator for bilingual observation records.
#[derive(Parser)]
#[command(name = "kansoku", version, about)]
struct Cli {
    /// The site's root directory (the one holding book.toml).
    #[arg(long, global = true, default_value = ".")]
    root: PathBuf,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Validate and render the site into its build directory (public/).
    Build {
        /// Write no search index (as `[search] enabled = false` in book.toml).
        #[arg(long)]
        no_search: bool,
    },
    /// Run every content rule without writing anything (exit 0 clean, 1 errors, 2 usage/IO).
    Check {
        /// Output format.
        #[arg(long, value_enum, default_value_t = FormatArg::Human)]
        format: FormatArg,
    },
    /// Preview the site on a local server that rebuilds and reloads on save.
    Serve {
        /// Port to listen on [default: `[serve] port` in book.toml, else 3000].
        #[arg(long)]
        port: Option<u16>,
        /// Address to listen on; anything but loopback shares the preview with your network.
        #[arg(long, default_value = "127.0.0.1")]
        bind: std::net::IpAddr,
        /// Open the site in the default browser.
        #[arg(long)]
        open: bool,
    },
    /// Write a small working bilingual site into DIR.
    Init {
        /// A new or empty directory.
        dir: PathBuf,
    },
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum FormatArg {
    Human,
    Json,
    Github,
}

fn print_diags(diags: &[Diagnostic]) {
    for d in diags {
        eprintln!("{d}");
    }
}

fn fail(e: Error) -> ExitCode {
    match e {
        Error::Content(diags) => {
            print_diags(&diags);
            let n = diags.iter().filter(|d| d.is_error()).count();
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

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Build { no_search } => match kansoku::site::build_with(
            &cli.root,
            kansoku::site::BuildOptions { search: !no_search },
        ) {
            Ok(report) => {
                eprint!("{}", kansoku::check::brief(&report.warnings, 3));
                println!("{}", report.summary());
                ExitCode::SUCCESS
            }
            Err(e) => fail(e),
        },
        Command::Check { format } => match kansoku::check::check(&cli.root) {
            Ok(report) => {
                let format = match format {
                    FormatArg::Human => kansoku::check::Format::Human,
                    FormatArg::Json => kansoku::check::Format::Json,
                    FormatArg::Github => kansoku::check::Format::Github,
                };
                // Human output is for a terminal; machine formats go to
                // stdout so they can be piped without the noise of stderr.
                let text = kansoku::check::format(&report, format);
                if format == kansoku::check::Format::Human {
                    eprint!("{text}");
                } else {
                    print!("{text}");
                }
                ExitCode::from(report.exit_code())
            }
            Err(e) => fail(e),
        },
        Command::Serve { port, bind, open } => {
            let opts = kansoku::serve::Options {
                port,
                bind,
                open,
                ..kansoku::serve::Options::new(cli.root)
            };
            match kansoku::serve::serve(opts) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::from(2)
                }
            }
        }
        Command::Init { dir } => match kansoku::init::init(&dir) {
            Ok(n) => {
                println!(
                    "wrote {n} files to {}; build it with `kansoku build --root {}`",
                    dir.display(),
                    dir.display()
                );
                ExitCode::SUCCESS
            }
            Err(e) => fail(e),
        },
    }
}
