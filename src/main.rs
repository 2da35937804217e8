//! The `kansoku` command: parses arguments, runs a command, prints the
//! outcome. The only place that exits the process; each command lives in
//! its own module under `cmd/` and returns its exit code.

mod cmd;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

/// A static site generator for bilingual observation records.
#[derive(Parser)]
// clap's own `help` subcommand refuses `help --help`; ours is a command like
// the others, with a `--help` of its own.
#[command(name = "kansoku", version, about, disable_help_subcommand = true)]
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
    /// Re-approve claims after looking at them, or approve the commands recapture may run (--capture, --facts): rewrites their entries in kansoku.lock.
    Review(cmd::review::Args),
    /// List claims added, removed, re-classed, re-answered, reworded, re-evidenced or re-stated.
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
    Clean(cmd::clean::Args),
    /// Run a command and keep its output as evidence, with how it ran (or import a log with --file).
    Capture(cmd::capture::Args),
    /// Re-run stored captures whose commands were approved and report what the new output did to each claim citing them.
    Recapture(cmd::capture::RecaptureArgs),
    /// Print a shell completion script (e.g. `kansoku completions bash > /etc/bash_completion.d/kansoku`).
    Completions(cmd::completions::Args),
    /// Print this message or the help of the given command.
    Help(cmd::help::Args),
}

// mimalloc rather than glibc's malloc: allocation and freeing were a fifth
// of a build's CPU in perf (Tera's strings, Pagefind's word lists), and
// mimalloc took 18-22 % of user time off whole builds at N = 1,000 and
// 10,000 with the same peak (benches/README.md).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    quiet_on_broken_pipe();
    small_pages();
    let cli = Cli::parse();
    let root = cli.root;
    match cli.command {
        Command::Build(args) => cmd::in_site(root, |r| cmd::build::run(r, args)),
        Command::Check(args) => cmd::in_site(root, |r| cmd::check::run(r, args)),
        Command::Review(args) => cmd::in_site(root, |r| cmd::review::run(r, args)),
        Command::Diff(args) => cmd::in_site(root, |r| cmd::diff::run(r, args)),
        Command::Serve(args) => cmd::in_site(root, |r| cmd::serve::run(r.to_path_buf(), args)),
        Command::Init(args) => cmd::init::run(root, args),
        Command::New(args) => cmd::in_site(root, |r| cmd::new::run(r, args)),
        Command::Claims(args) => cmd::in_site(root, |r| cmd::claims::run(r, args)),
        Command::Clean(args) => cmd::in_site(root, |r| cmd::clean::run(r, args)),
        Command::Capture(args) => cmd::in_site(root, |r| cmd::capture::run(r, args)),
        Command::Recapture(args) => cmd::in_site(root, |r| cmd::capture::recapture(r, args)),
        Command::Completions(args) => cmd::completions::run::<Cli>(args),
        Command::Help(args) => cmd::help::run::<Cli>(args),
    }
}

/// Turns transparent huge pages off for this process. mimalloc asks the
/// kernel for them (`MADV_HUGEPAGE`), and the kernel then zeroes 2 MiB at
/// the first touch of each: a cold build touches freshly mapped memory
/// in every stage (rendering's strings, each search shard's index), and
/// `perf` found 7-14 % of a cold build's CPU in `clear_page_erms`, against
/// 1 % with 4 KiB pages, for a lower peak as well (benches/README.md,
/// "Cold path profile"). A failure (not Linux, an old kernel) changes
/// nothing but speed.
fn small_pages() {
    #[cfg(target_os = "linux")]
    let _ = rustix::thread::disable_transparent_huge_pages(true);
}

/// Ends the process quietly, with status 0, when printing to stdout finds
/// its reader gone (`kansoku claims | head -1`): the reader has all it
/// wanted. Rust ignores SIGPIPE, so such a write fails with EPIPE, and
/// `print!` panics on a failed write; this turns that one panic into the
/// quiet exit ripgrep makes of it, for every command at once. SIGPIPE is
/// not restored instead: it would also end the process without a word
/// when `diff`'s tar or a browser of `serve` goes away mid-write, where
/// the error is worth reporting (or ignoring).
fn quiet_on_broken_pipe() {
    #[cfg(unix)]
    {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let epipe = std::io::Error::from_raw_os_error(rustix::io::Errno::PIPE.raw_os_error());
            // std's own wording for a failed `print!` (library/std/src/io/stdio.rs).
            let message = format!("failed printing to stdout: {epipe}");
            let payload = info.payload();
            let text = payload
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| payload.downcast_ref::<&str>().copied());
            if text == Some(message.as_str()) {
                std::process::exit(0);
            }
            default(info)
        }));
    }
}
