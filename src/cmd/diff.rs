//! `kansoku diff`: what changed between two claims.json files, or since a
//! git revision.

use kansoku::diff;
use kansoku::Error;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Options of `kansoku diff`.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// Old and new claims.json (omit with --since).
    #[arg(num_args = 0..=2)]
    files: Vec<PathBuf>,
    /// Compare the site at this git revision with the working tree.
    #[arg(long, value_name = "GIT_REF", conflicts_with = "files")]
    since: Option<String>,
    /// With --since: include the claims of drafts on both sides, as
    /// `build --drafts` publishes them (without it, the claims of the
    /// claims.json `kansoku build` writes, as OLD.json NEW.json compare).
    #[arg(long, requires = "since")]
    drafts: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = FormatArg::Human)]
    format: FormatArg,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum FormatArg {
    Human,
    Markdown,
    Json,
    Github,
}

pub(crate) fn run(root: &Path, args: Args) -> ExitCode {
    let pair = match (&args.files[..], args.since.as_deref()) {
        ([old, new], None) => diff::read_json(old).and_then(|o| Ok((o, diff::read_json(new)?))),
        ([], Some(rev)) => diff::from_git_with(root, rev, args.drafts)
            .and_then(|o| Ok((o, diff::from_site_with(root, args.drafts)?))),
        _ => Err(Error::Usage(
            "give OLD and NEW claims.json files, or --since GIT_REF".to_owned(),
        )),
    };
    let (old, new) = match pair {
        Ok(p) => p,
        Err(e) => return super::fail(root, e),
    };
    let format = match args.format {
        FormatArg::Human => diff::Format::Human,
        FormatArg::Markdown => diff::Format::Markdown,
        FormatArg::Json => diff::Format::Json,
        FormatArg::Github => diff::Format::Github,
    };
    print!("{}", diff::format(&diff::diff(&old, &new), format));
    ExitCode::SUCCESS
}
