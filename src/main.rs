//! The `kansoku` command: parses arguments, runs a command, prints the
//! outcome. The only place that exits the process; each command lives in
//! its own module under `cmd/` and returns its exit code.

mod cmd;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

/// A static site generator for bilingual observation records.
#[derive(Parser)]
#[command(name = "kansoku", version, about)]
pub(crate) struct Cli {
    /// The site's root directory (the one holding book.toml) [default: the
    /// nearest directory upwards from here that holds a book.toml].
    #[arg(long, global = true)]
    root: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Validate and render the site into its build directory (public/).
    Build(cmd::build::Args),
    /// Run every content rule without writing anything (exit 0 clean, 1 errors, 2 usage/IO).
    Check(cmd::check::Args),
    /// Re-approve claims after looking at them: rewrites their entries in kansoku.lock.
    Review(cmd::review::Args),
    /// List claims added, removed, re-classed, reworded, re-evidenced or re-stated.
    Diff(cmd::diff::Args),
    /// Preview the site on a local server that rebuilds and reloads on save.
    Serve(cmd::serve::Args),
    /// Write a small working bilingual site into DIR.
    Init(cmd::init::Args),
    /// Write a bilingual page skeleton at content/SECTION/SLUG.md.
    New(cmd::new::Args),
    /// List the site's claims, filtered, as a table, JSON or CSV.
    Claims(cmd::claims::Args),
    /// Remove the build directory and kansoku's bookkeeping (.kansoku/).
    Clean,
    /// Print a shell completion script (e.g. `kansoku completions bash > /etc/bash_completion.d/kansoku`).
    Completions(cmd::completions::Args),
}

// mimalloc rather than glibc's malloc: allocation and freeing were a fifth
// of a build's CPU in perf (Tera's strings, Pagefind's word lists), and
// mimalloc took 18-22 % of user time off whole builds at N = 1,000 and
// 10,000 with the same peak (benches/README.md).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let explicit = cli.root.clone();
    let root = || cmd::site_root(explicit.clone());
    match cli.command {
        Command::Build(args) => cmd::build::run(&root(), args),
        Command::Check(args) => cmd::check::run(&root(), args),
        Command::Review(args) => cmd::review::run(&root(), args),
        Command::Diff(args) => cmd::diff::run(&root(), args),
        Command::Serve(args) => cmd::serve::run(root(), args),
        Command::Init(args) => cmd::init::run(cli.root, args),
        Command::New(args) => cmd::new::run(&root(), args),
        Command::Claims(args) => cmd::claims::run(&root(), args),
        Command::Clean => cmd::clean::run(&root()),
        Command::Completions(args) => cmd::completions::run::<Cli>(args),
    }
}
