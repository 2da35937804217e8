//! `kansoku capture -- CMD ARGS…` and `kansoku capture --file LOG`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Options of `kansoku capture`.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// Where to write it, under the evidence directory (default:
    /// captures/PROGRAM-TIME.txt, or imports/NAME for --file).
    #[arg(long = "as", value_name = "PATH")]
    dest: Option<String>,
    /// A note kept in the header.
    #[arg(long, value_name = "TEXT")]
    note: Option<String>,
    /// Record this environment variable's value (repeatable); a name or
    /// value that looks like a secret is refused.
    #[arg(long = "env", value_name = "NAME")]
    env: Vec<String>,
    /// Run the command as one shell command line (`sh -c`).
    #[arg(long)]
    shell: bool,
    /// Overwrite an existing capture.
    #[arg(long)]
    replace: bool,
    /// Import an existing log instead of running a command.
    #[arg(long, value_name = "LOG", conflicts_with_all = ["command", "shell", "env"], requires = "source")]
    file: Option<PathBuf>,
    /// Where the imported log came from, in words (with --file).
    #[arg(long, value_name = "TEXT", requires = "file")]
    source: Option<String>,
    /// The command and its arguments, after `--`.
    #[arg(last = true, value_name = "COMMAND")]
    command: Vec<String>,
}

pub(crate) fn run(root: &Path, args: Args) -> ExitCode {
    let done = match args.file {
        Some(file) => kansoku::capture::import(
            root,
            &kansoku::capture::Import {
                file,
                source: args.source.unwrap_or_default(),
                dest: args.dest,
                note: args.note,
                replace: args.replace,
            },
        ),
        None => kansoku::capture::capture(
            root,
            &kansoku::capture::Request {
                command: args.command,
                shell: args.shell,
                dest: args.dest,
                note: args.note,
                env: args.env,
                replace: args.replace,
                cwd: None,
                record_cwd: None,
            },
        ),
    };
    match done {
        Ok(w) => {
            let ended = if w.exit.is_empty() {
                String::new()
            } else {
                format!(" (the command exited with {})", w.exit)
            };
            println!("wrote {}{ended}; cite its lines from a claim, and `kansoku check` verifies its hash", w.paths.join(" and "));
            ExitCode::SUCCESS
        }
        Err(e) => super::fail(root, e),
    }
}

/// Options of `kansoku recapture`.
#[derive(clap::Args)]
pub(crate) struct RecaptureArgs {
    /// The captures to re-run, as paths under the evidence directory.
    #[arg(
        value_name = "FILE",
        required_unless_present = "all",
        conflicts_with = "all"
    )]
    files: Vec<String>,
    /// Re-run every capture of the site.
    #[arg(long)]
    all: bool,
    /// Report what the new observation would do, and write nothing.
    #[arg(long)]
    dry_run: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum Format {
    Human,
    Json,
    Github,
}

pub(crate) fn recapture(root: &Path, args: RecaptureArgs) -> ExitCode {
    let files = if args.all { Vec::new() } else { args.files };
    let done = match kansoku::capture::recapture(root, &files, args.dry_run) {
        Ok(d) => d,
        Err(e) => return super::fail(root, e),
    };
    let format = match args.format {
        Format::Human => "human",
        Format::Json => "json",
        Format::Github => "github",
    };
    print!("{}", kansoku::capture::report(&done, format));
    let troubled = done
        .iter()
        .flat_map(|r| &r.claims)
        .any(|c| matches!(c.outcome, "changed" | "moved"));
    if troubled {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
