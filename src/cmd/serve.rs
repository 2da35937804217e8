//! `kansoku serve`: the preview server.

use std::path::PathBuf;
use std::process::ExitCode;

/// Options of `kansoku serve`.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// Port to listen on [default: `[serve] port` in book.toml, else 3000].
    #[arg(long)]
    port: Option<u16>,
    /// Address to listen on; anything but loopback shares the preview with your network.
    #[arg(long, default_value = "127.0.0.1")]
    bind: std::net::IpAddr,
    /// Open the site in the default browser.
    #[arg(long)]
    open: bool,
}

pub(crate) fn run(root: PathBuf, args: Args) -> ExitCode {
    let opts = kansoku::serve::Options {
        port: args.port,
        bind: args.bind,
        open: args.open,
        ..kansoku::serve::Options::new(root)
    };
    match kansoku::serve::serve(opts) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
