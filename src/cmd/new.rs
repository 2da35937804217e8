//! `kansoku new SECTION/SLUG`: a bilingual page skeleton.

use std::path::Path;
use std::process::ExitCode;

/// Options of `kansoku new`.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// Where the page goes under content/, without `.md`: `notes/second-observation`.
    #[arg(value_name = "SECTION/SLUG")]
    path: String,
}

pub(crate) fn run(root: &Path, args: Args) -> ExitCode {
    match kansoku::init::new_page(root, &args.path) {
        Ok(written) => {
            println!(
                "wrote {}, a draft; fill in its claim and its evidence until `kansoku check` is clean, then remove `draft = true` to publish it",
                written.join(" and ")
            );
            ExitCode::SUCCESS
        }
        Err(e) => super::fail(root, e),
    }
}
