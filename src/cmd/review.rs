//! `kansoku review`: re-approve claims after a person has looked at them,
//! and approve the commands `recapture` and `capture` may run.

use kansoku::review::captures::{self, CaptureSelection};
use std::path::Path;
use std::process::ExitCode;

/// Options of `kansoku review`.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// Claim ids to re-approve.
    claims: Vec<String>,
    /// Every claim and page (and drop entries of claims no longer on the
    /// site). Approves no capture command: those are approved by name.
    #[arg(long)]
    all: bool,
    /// Every claim and language pair of a page (path under content/).
    #[arg(long = "page", value_name = "PAGE")]
    pages: Vec<String>,
    /// Approve this capture's command, working directory and environment
    /// names for `recapture` (a path under the evidence directory;
    /// repeatable). Each is listed before it is recorded.
    #[arg(long = "capture", value_name = "PATH")]
    captures: Vec<String>,
    /// Approve the command of every capture of the site (and drop the
    /// approvals of captures no longer on it), each listed.
    #[arg(long = "captures")]
    all_captures: bool,
    /// Approve book.toml's [capture] facts, the commands every capture
    /// runs to record the host, as listed.
    #[arg(long)]
    facts: bool,
}

pub(crate) fn run(root: &Path, args: Args) -> ExitCode {
    let approving = CaptureSelection {
        paths: args.captures,
        all: args.all_captures,
        facts: args.facts,
    };
    let sel = kansoku::review::Selection {
        claims: args.claims,
        pages: args.pages,
        all: args.all,
    };
    let reviewing = sel.all || !sel.claims.is_empty() || !sel.pages.is_empty();
    if !approving.is_empty() {
        if let Err(e) = approve(root, &approving) {
            return super::fail(root, e);
        }
        if !reviewing {
            return ExitCode::SUCCESS;
        }
    }
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

/// Lists each command to approve, then records the approval.
fn approve(root: &Path, sel: &CaptureSelection) -> Result<(), kansoku::Error> {
    let plan = captures::plan(root, sel)?;
    print!("{}", plan.listing());
    for (path, why) in &plan.refused {
        eprintln!("note: not approved: {}: {why}", captures::shown(path));
    }
    if sel.facts && plan.facts.is_none() {
        eprintln!("note: book.toml has no [capture] facts to approve");
    }
    plan.record(root)?;
    let n = plan.captures.len();
    let mut what = Vec::new();
    if n > 0 || sel.all || !sel.paths.is_empty() {
        what.push(format!("{n} capture{}", if n == 1 { "" } else { "s" }));
    }
    if plan.facts.is_some() {
        what.push("the [capture] facts".to_owned());
    }
    if what.is_empty() {
        println!("approved nothing; {} unchanged", kansoku::review::LOCK_FILE);
    } else {
        println!(
            "approved {}; wrote {}",
            what.join(" and "),
            kansoku::review::LOCK_FILE
        );
    }
    Ok(())
}
