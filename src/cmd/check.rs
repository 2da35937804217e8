//! `kansoku check`: every rule, nothing written.

use std::path::Path;
use std::process::ExitCode;

/// Options of `kansoku check`.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// Output format: human (stderr), json (one finding per line, stdout)
    /// or github (workflow annotations, stdout; every finding is also
    /// appended to $GITHUB_STEP_SUMMARY as a table when it is set).
    #[arg(long, value_enum, default_value_t = FormatArg::Human)]
    format: FormatArg,
    /// Also list the findings that `[[check.accept]]` in book.toml accepts.
    #[arg(long)]
    all: bool,
    /// Make the exact fixes findings name, then check: a link whose cited
    /// text only moved (E082), a quote now on another line (E014),
    /// `path:5` for `path#L5` (E018).
    #[arg(long)]
    fix: bool,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum FormatArg {
    Human,
    Json,
    Github,
}

pub(crate) fn run(root: &Path, args: Args) -> ExitCode {
    match fix_moved(root, args.fix).and_then(|()| kansoku::check::check_then_exit(root)) {
        Ok(report) => {
            let format = match args.format {
                FormatArg::Human => kansoku::check::Format::Human,
                FormatArg::Json => kansoku::check::Format::Json,
                FormatArg::Github => kansoku::check::Format::Github,
            };
            // Human output is for a terminal; machine formats go to
            // stdout so they can be piped without the noise of stderr.
            let text = match format {
                kansoku::check::Format::Github => {
                    let summary = github_summary(&report, args.all);
                    kansoku::check::format_github(&report, args.all, summary.as_deref())
                }
                _ => kansoku::check::format_with(&report, format, args.all),
            };
            if format == kansoku::check::Format::Human {
                eprint!("{text}");
            } else {
                print!("{text}");
            }
            ExitCode::from(report.exit_code())
        }
        Err(e) => super::fail(root, e),
    }
}

/// On GitHub Actions (`$GITHUB_STEP_SUMMARY` names a file), appends
/// every finding to the job summary as a table, since GitHub shows only
/// some of the annotations; the file's path when it was written. A
/// summary that cannot be written is said on stderr and does not change
/// the check's outcome: the log still holds every finding.
fn github_summary(report: &kansoku::check::Report, all: bool) -> Option<String> {
    use std::io::Write;
    let path = std::env::var_os("GITHUB_STEP_SUMMARY").filter(|p| !p.is_empty())?;
    let text = kansoku::check::github_summary(report, all);
    let written = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(&path)
        .and_then(|mut f| f.write_all(text.as_bytes()));
    match written {
        Ok(()) => Some(path.to_string_lossy().into_owned()),
        Err(e) => {
            eprintln!(
                "warning: cannot append the findings to the job summary ($GITHUB_STEP_SUMMARY, {}): {e}",
                std::path::Path::new(&path).display()
            );
            None
        }
    }
}

/// `check --fix`: makes the fixes the findings name, saying which, or
/// that there was nothing to fix.
fn fix_moved(root: &Path, fix: bool) -> kansoku::Result<()> {
    if fix {
        let (site, found) = kansoku::site::load_unchecked(root, kansoku::validate::Mode::Build)?;
        let done = kansoku::review::fix(root, &site, &found)?;
        if done.is_empty() {
            eprintln!("check --fix: nothing to fix");
        }
        for line in done {
            eprintln!("{line}");
        }
    }
    Ok(())
}
