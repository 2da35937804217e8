//! `kansoku completions SHELL`: a completion script on stdout.

use std::process::ExitCode;

/// Options of `kansoku completions`.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// The shell to complete for.
    shell: clap_complete::Shell,
}

pub(crate) fn run<C: clap::CommandFactory>(args: Args) -> ExitCode {
    let mut cmd = C::command();
    clap_complete::generate(args.shell, &mut cmd, "kansoku", &mut std::io::stdout());
    ExitCode::SUCCESS
}
