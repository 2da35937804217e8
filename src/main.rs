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
    Build,
    /// Run every content rule without writing anything.
    Check,
    /// Write a small working bilingual site into DIR.
    Init {
        /// A new or empty directory.
        dir: PathBuf,
    },
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
        Command::Build => match kansoku::site::build(&cli.root) {
            Ok(report) => {
                print_diags(&report.warnings);
                println!("{}", report.summary());
                ExitCode::SUCCESS
            }
            Err(e) => fail(e),
        },
        Command::Check => match kansoku::site::load(&cli.root, kansoku::validate::Mode::Check) {
            Ok((_, warnings)) => {
                print_diags(&warnings);
                eprintln!(
                    "check: no errors, {} warning{}",
                    warnings.len(),
                    if warnings.len() == 1 { "" } else { "s" }
                );
                ExitCode::SUCCESS
            }
            Err(e) => fail(e),
        },
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
