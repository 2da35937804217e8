//! `kansoku help [COMMAND]`: the same text as `kansoku [COMMAND] --help`.
//!
//! clap's generated `help` subcommand takes no flags, so `kansoku help
//! --help` was an error; this one is an ordinary command, `--help` and all.

use std::process::ExitCode;

/// Options of `kansoku help`.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// The command to describe [default: all of them].
    #[arg(value_name = "COMMAND")]
    command: Option<String>,
}

pub(crate) fn run<C: clap::CommandFactory>(args: Args) -> ExitCode {
    // Asked of clap as `kansoku COMMAND --help`, so the text, its styling
    // and an unknown command's error (with its suggestion) are clap's own.
    let argv = ["kansoku"]
        .into_iter()
        .chain(args.command.as_deref())
        .chain(["--help"]);
    match C::command().try_get_matches_from(argv) {
        Err(e) => {
            // A reader that went away (`| head`) is no failure; help and
            // errors have nowhere else to go.
            let _ = e.print();
            ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2))
        }
        // `--help` ends every parse, so only a changed clap gets here.
        Ok(_) => {
            eprintln!("error: clap printed no help; run `kansoku --help`");
            ExitCode::from(2)
        }
    }
}
