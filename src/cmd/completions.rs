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
    // Into memory first: clap_complete panics when a write fails, and a
    // reader that went away (`| head`) is no failure; `print!`'s is
    // handled once for every command (`main`).
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "kansoku", &mut script);
    print!("{}", String::from_utf8_lossy(&script));
    ExitCode::SUCCESS
}
