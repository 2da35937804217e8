//! `kansoku claims`: the site's claims, filtered, as a table, JSON or CSV.

use std::path::Path;
use std::process::ExitCode;

/// Options of `kansoku claims`.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// Only claims of this evidence class.
    #[arg(long, value_enum)]
    class: Option<ClassArg>,
    /// Only claims defined on this page: its path under content/ or a glob
    /// (`components/rocblas.md`, `components/*`).
    #[arg(long, value_name = "PAGE")]
    page: Option<String>,
    /// Only claims about this entity key (their `about`).
    #[arg(long, value_name = "KEY")]
    about: Option<String>,
    /// Output format; `json` gives the objects of claims.json.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
    /// Include the claims of drafts (`draft = true`), as `build --drafts`
    /// publishes them; without it, exactly the claims of the claims.json
    /// `kansoku build` writes.
    #[arg(long)]
    drafts: bool,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum ClassArg {
    Confirmed,
    Inferred,
    Unresolved,
    Limited,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    Table,
    Json,
    Csv,
}

pub(crate) fn run(root: &Path, args: Args) -> ExitCode {
    let class = args.class.map(|c| match c {
        ClassArg::Confirmed => "confirmed",
        ClassArg::Inferred => "inferred",
        ClassArg::Unresolved => "unresolved",
        ClassArg::Limited => "limited",
    });
    let query = kansoku::claims::Query {
        class,
        page: args.page.as_deref(),
        about: args.about.as_deref(),
        drafts: args.drafts,
    };
    match kansoku::claims::query(root, &query) {
        Ok(claims) => {
            let text = match args.format {
                Format::Json => kansoku::claims::json(&claims),
                Format::Csv => kansoku::claims::csv(&claims),
                Format::Table => kansoku::claims::table(&claims),
            };
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => super::fail(root, e),
    }
}
