//! `kansoku check`: every rule, nothing written.

use std::path::Path;
use std::process::ExitCode;

/// Options of `kansoku check`.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// Output format: human (stderr), json (one finding per line, stdout)
    /// or github (workflow annotations, stdout).
    #[arg(long, value_enum, default_value_t = FormatArg::Human)]
    format: FormatArg,
    /// Also list the findings that `[[check.accept]]` in book.toml accepts.
    #[arg(long)]
    all: bool,
    /// Rewrite evidence links whose cited text only moved (E082), then check.
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
            let text = kansoku::check::format_with(&report, format, args.all);
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

/// `check --fix`: rewrites links whose cited text moved, saying which.
fn fix_moved(root: &Path, fix: bool) -> kansoku::Result<()> {
    if fix {
        let (site, _) = kansoku::site::load_unchecked(root, kansoku::validate::Mode::Build)?;
        for done in kansoku::review::fix(root, &site)? {
            eprintln!("{done}");
        }
    }
    Ok(())
}
