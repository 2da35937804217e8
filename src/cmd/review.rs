//! `kansoku review`: re-approve claims after a person has looked at them.

use std::path::Path;
use std::process::ExitCode;

/// Options of `kansoku review`.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// Claim ids to re-approve.
    claims: Vec<String>,
    /// Every claim and page (and drop entries of claims no longer on the site).
    #[arg(long)]
    all: bool,
    /// Every claim and language pair of a page (path under content/).
    #[arg(long = "page", value_name = "PAGE")]
    pages: Vec<String>,
}

pub(crate) fn run(root: &Path, args: Args) -> ExitCode {
    let sel = kansoku::review::Selection {
        claims: args.claims,
        pages: args.pages,
        all: args.all,
    };
    let reviewed = sel.check().and_then(|()| {
        let (site, _) = kansoku::site::load_unreviewed(root, kansoku::validate::Mode::Build)?;
        kansoku::review::review(root, &site, &sel)
    });
    match reviewed {
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
        Err(e) => super::fail(root, e),
    }
}
