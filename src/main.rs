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
    /// Run every content rule without writing anything (exit 0 clean, 1 errors, 2 usage/IO).
    Check {
        /// Output format.
        #[arg(long, value_enum, default_value_t = FormatArg::Human)]
        format: FormatArg,
        /// Rewrite evidence links whose cited text only moved (E082), then check.
        #[arg(long)]
        fix: bool,
    },
    /// Re-approve claims after looking at them: rewrites their entries in kansoku.lock.
    Review {
        /// Claim ids to re-approve.
        claims: Vec<String>,
        /// Every claim and page (and drop entries of claims no longer on the site).
        #[arg(long)]
        all: bool,
        /// Every claim and language pair of a page (path under content/).
        #[arg(long = "page", value_name = "PAGE")]
        pages: Vec<String>,
    },
    /// List claims added, removed, re-classed, reworded, re-evidenced or re-stated.
    Diff {
        /// Old and new claims.json (omit with --since).
        #[arg(num_args = 0..=2)]
        files: Vec<PathBuf>,
        /// Compare the site at this git revision with the working tree.
        #[arg(long, value_name = "GIT_REF", conflicts_with = "files")]
        since: Option<String>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = DiffFormatArg::Human)]
        format: DiffFormatArg,
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

#[derive(Clone, Copy, clap::ValueEnum)]
enum DiffFormatArg {
    Human,
    Markdown,
    Json,
    Github,
}

/// `kansoku diff`: two claims.json files, or `--since REF` against the tree.
fn diff(
    root: &std::path::Path,
    files: &[PathBuf],
    since: Option<&str>,
    format: DiffFormatArg,
) -> ExitCode {
    use kansoku::diff;
    let pair = match (files, since) {
        ([old, new], None) => diff::read_json(old).and_then(|o| Ok((o, diff::read_json(new)?))),
        ([], Some(rev)) => diff::from_git(root, rev).and_then(|o| Ok((o, diff::from_site(root)?))),
        _ => Err(Error::Usage(
            "give OLD and NEW claims.json files, or --since GIT_REF".to_owned(),
        )),
    };
    let (old, new) = match pair {
        Ok(p) => p,
        Err(e) => return fail(e),
    };
    let format = match format {
        DiffFormatArg::Human => diff::Format::Human,
        DiffFormatArg::Markdown => diff::Format::Markdown,
        DiffFormatArg::Json => diff::Format::Json,
        DiffFormatArg::Github => diff::Format::Github,
    };
    print!("{}", diff::format(&diff::diff(&old, &new), format));
    ExitCode::SUCCESS
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

/// An interrupted build removes its staging tree before it exits.
fn interruptible() -> kansoku::Result<()> {
    kansoku::site::output::exit_cleanly_on_signals()
        .map_err(|e| Error::Usage(format!("cannot handle interruptions: {e}")))
}

/// `check --fix`: rewrites links whose cited text moved, saying which.
fn fix_moved(root: &std::path::Path, fix: bool) -> Result<(), Error> {
    if fix {
        for done in kansoku::review::fix(root)? {
            eprintln!("fixed {done}");
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Build => match interruptible().and_then(|()| kansoku::site::build(&cli.root)) {
            Ok(report) => {
                eprint!("{}", kansoku::check::brief(&report.warnings, 3));
                println!("{}", report.summary());
                ExitCode::SUCCESS
            }
            Err(e) => fail(e),
        },
        Command::Check { format, fix } => {
            match fix_moved(&cli.root, fix).and_then(|()| kansoku::check::check(&cli.root)) {
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
            }
        }
        Command::Review { claims, all, pages } => {
            let sel = kansoku::review::Selection { claims, pages, all };
            match kansoku::review::review(&cli.root, &sel) {
                Ok(r) => {
                    println!(
                        "reviewed {} claim{} ({} new or changed) and {} page{}; {} dropped; wrote {}",
                        r.claims,
                        if r.claims == 1 { "" } else { "s" },
                        r.changed,
                        r.pages,
                        if r.pages == 1 { "" } else { "s" },
                        r.dropped,
                        kansoku::review::LOCK_FILE
                    );
                    ExitCode::SUCCESS
                }
                Err(e) => fail(e),
            }
        }
        Command::Diff {
            files,
            since,
            format,
        } => diff(&cli.root, &files, since.as_deref(), format),
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
