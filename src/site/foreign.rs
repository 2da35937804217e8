//! What a build says of files in its build directory that kansoku did not
//! write: left in place (W040), or in the way of a path it writes (E044).

use super::output;
use crate::error::Diagnostic;
use std::path::Path;

/// A warning for each file in the build directory that kansoku did not
/// write and `[build] keep` does not name: it is left in place, and the
/// published site will carry it.
pub(super) fn foreign_files(out: &Path, committed: &output::Committed) -> Vec<Diagnostic> {
    let dir = out.to_string_lossy().replace('\\', "/");
    committed
        .foreign
        .iter()
        .map(|p| {
            Diagnostic::warning(
                "W040",
                crate::error::Location::file(format!("{dir}/{p}")),
                "not written by kansoku; left in place",
            )
            .with_hint(
                "kansoku never deletes files it did not write: delete it (also if it is an earlier build's output whose record in .kansoku/ was lost), or name it in `[build] keep` in book.toml to keep it without this warning",
            )
        })
        .collect()
}

/// The most files [`conflicting_files`] names one by one; past it, one
/// error names the first of them and counts the rest (after records are
/// lost, every page whose navigation changed would be one).
const CONFLICTS_NAMED: usize = 5;

/// An error for each file at a path the build writes that kansoku did not
/// write (or that changed since it wrote it), with other bytes than it
/// would write: nothing was changed. Many such files are one error.
pub(super) fn conflicting_files(out: &Path, found: &output::Conflicts) -> Vec<Diagnostic> {
    let dir = out.to_string_lossy().replace('\\', "/");
    let paths = &found.paths;
    if paths.len() > CONFLICTS_NAMED {
        return vec![Diagnostic::error(
            "E044",
            crate::error::Location {
                path: format!("{dir}/"),
                line: 0,
                col: 0,
            },
            format!(
                "{} files at paths this build writes are not known to be kansoku's (no record names the bytes they hold) and differ from what it writes there: {} and {} more; nothing was changed",
                paths.len(),
                paths[..CONFLICTS_NAMED].join(", "),
                paths.len() - CONFLICTS_NAMED
            ),
        )
        .with_hint(format!(
            "if {dir}/ holds only kansoku's output (its records in .kansoku/ lost or damaged), remove {dir}/ and build again; otherwise move your own files out of it first"
        ))];
    }
    paths
        .iter()
        .map(|p| {
            let at = crate::error::Location::file(format!("{dir}/{p}"));
            if found.changed.contains(p) {
                Diagnostic::error(
                    "E044",
                    at,
                    "changed since kansoku wrote it (the record of what it wrote there names other bytes), and this build writes this path; nothing was changed",
                )
                .with_hint(format!(
                    "move the file out of {dir}/ to keep it, or delete it to have the build write it again"
                ))
            } else {
                Diagnostic::error(
                    "E044",
                    at,
                    "not written by kansoku (no record names it), and this build writes this path; nothing was changed",
                )
                .with_hint(format!(
                    "move the file out of {dir}/ to keep it; if {dir}/ holds only an earlier build's output whose record in .kansoku/ was lost, remove {dir}/ and build again"
                ))
            }
        })
        .collect()
}
