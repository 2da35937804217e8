//! `kansoku capture -- CMD ARGS…`, `kansoku capture --file LOG` and
//! `kansoku recapture`.

use kansoku::capture::{Limits, Mode, DEFAULT_MAX_OUTPUT, DEFAULT_TIMEOUT};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The limits a command runs within, shared by `capture` and `recapture`.
#[derive(clap::Args)]
pub(crate) struct LimitArgs {
    /// Stop the command (and every process it started) after this long,
    /// writing nothing: 90s, 10m, 2h.
    #[arg(long, value_name = "DURATION", default_value = DEFAULT_TIMEOUT, value_parser = kansoku::capture::parse_duration)]
    timeout: std::time::Duration,
    /// Stop the command (and every process it started) once it prints
    /// more than this on stdout or on stderr, writing nothing: 512KiB,
    /// 64MiB, 4GiB.
    #[arg(long, value_name = "SIZE", default_value = DEFAULT_MAX_OUTPUT, value_parser = kansoku::capture::parse_size)]
    max_output: u64,
}

impl LimitArgs {
    fn limits(&self) -> Limits {
        Limits {
            timeout: self.timeout,
            max_output: self.max_output,
        }
    }
}

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
    /// value that looks like a credential is recorded as <redacted>.
    #[arg(long = "env", value_name = "NAME")]
    env: Vec<String>,
    /// Run the command as one shell command line (`sh -c`), given as one
    /// argument.
    #[arg(long)]
    shell: bool,
    /// Overwrite an existing capture.
    #[arg(long)]
    replace: bool,
    /// Record no host facts: book.toml's [capture] facts run only once
    /// approved (`kansoku review --facts`).
    #[arg(long, conflicts_with = "file")]
    no_facts: bool,
    #[command(flatten)]
    limits: LimitArgs,
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

/// Stops the commands a capture runs and removes its temporary files when
/// kansoku is interrupted (SIGINT, SIGTERM, SIGHUP).
fn on_signals() -> Result<(), kansoku::Error> {
    kansoku::site::output::exit_cleanly_on_signals()
        .map_err(|e| kansoku::Error::Usage(format!("cannot handle interruptions: {e}")))
}

/// After a failure caused by a signal, lets the signal thread end the
/// process with 128 + the signal's number, as `build` does.
fn wait_if_interrupted() {
    if kansoku::site::output::interrupted() {
        loop {
            std::thread::park();
        }
    }
}

pub(crate) fn run(root: &Path, args: Args) -> ExitCode {
    let limits = args.limits.limits();
    let done = on_signals().and_then(|()| match args.file {
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
                no_facts: args.no_facts,
                limits,
            },
        ),
    });
    match done {
        Ok(w) => {
            wait_if_interrupted();
            for note in &w.notes {
                eprintln!("note: {note}");
            }
            let ended = if w.exit.is_empty() {
                String::new()
            } else {
                format!(" (the command exited with {})", w.exit)
            };
            println!("wrote {}{ended}; cite its lines from a claim, and `kansoku check` verifies its hash", w.paths.join(" and "));
            ExitCode::SUCCESS
        }
        Err(e) => {
            wait_if_interrupted();
            super::fail(root, e)
        }
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
    /// Run nothing: list each capture's command, working directory and
    /// environment names, and whether it is approved.
    #[arg(long, conflicts_with = "compare")]
    dry_run: bool,
    /// Run the approved commands in a scratch copy of the site and report
    /// what the new output does to each claim; write nothing.
    #[arg(long)]
    compare: bool,
    /// Trust only the approvals in kansoku.lock at this git revision
    /// (e.g. origin/main), not those of the working tree: in CI on a pull
    /// request, whose own lock could approve its own commands.
    #[arg(long, value_name = "REV")]
    approvals_from: Option<String>,
    #[command(flatten)]
    limits: LimitArgs,
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
    let mode = if args.dry_run {
        Mode::DryRun
    } else if args.compare {
        Mode::Compare
    } else {
        Mode::Write
    };
    let on_run = |line: &str| eprintln!("{line}");
    let opts = kansoku::capture::Options {
        files: if args.all { Vec::new() } else { args.files },
        mode,
        approvals_from: args.approvals_from,
        limits: args.limits.limits(),
        on_run: &on_run,
    };
    let done = match on_signals().and_then(|()| kansoku::capture::recapture(root, &opts)) {
        Ok(d) => d,
        Err(e) => {
            wait_if_interrupted();
            return super::fail(root, e);
        }
    };
    wait_if_interrupted();
    let format = match args.format {
        Format::Human => "human",
        Format::Json => "json",
        Format::Github => "github",
    };
    print!("{}", kansoku::capture::report(&done, format));
    if let Some(why) = done.refusal() {
        eprintln!("error: {why}");
        return ExitCode::from(2);
    }
    if done.stopped() {
        return ExitCode::from(2);
    }
    if done.troubled() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
