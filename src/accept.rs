//! Acceptance of expected findings (`[[check.accept]]` in `book.toml`).
//!
//! Runs after validation, over its findings: a warning that a declared
//! acceptance covers is set aside and counted with the acceptance's reason
//! instead of being listed. Errors are never accepted. This module only
//! sorts findings; it reads and writes no files.

use crate::config::{AcceptScope, Acceptance};
use crate::error::Diagnostic;

/// The findings an acceptance set aside.
#[derive(Debug, Clone)]
pub struct Accepted {
    /// The warning code.
    pub(crate) code: String,
    /// The reason, in English (the terminal's language).
    pub(crate) reason: String,
    /// The findings, in the order they came.
    pub(crate) diagnostics: Vec<Diagnostic>,
}

/// Findings split into the ones to show and the ones accepted.
#[derive(Debug, Clone, Default)]
pub(crate) struct Triage {
    /// Errors, then unaccepted warnings (each group in source order).
    pub(crate) shown: Vec<Diagnostic>,
    /// One entry per acceptance that matched something, in declaration order.
    pub(crate) accepted: Vec<Accepted>,
}

impl Acceptance {
    /// True if this acceptance covers `d`.
    pub(crate) fn covers(&self, d: &Diagnostic) -> bool {
        if d.is_error() || d.code != self.code {
            return false;
        }
        match &self.scope {
            AcceptScope::Site => true,
            AcceptScope::Path(glob) => glob.is_match(&d.location.path),
            AcceptScope::Claim(id) => d.claim() == Some(id.as_str()),
        }
    }

    /// True if the acceptance's scope reaches the evidence file at
    /// `evidence_path` (site-relative) or one of the claims citing it,
    /// given as (site-relative page path, claim id): where readers are told.
    pub(crate) fn reaches<'a>(
        &self,
        evidence_path: &str,
        mut citing: impl Iterator<Item = (&'a str, &'a str)>,
    ) -> bool {
        // About the build directory or the published address: nothing a
        // reader of the evidence needs to know.
        if BUILD_ONLY.contains(&self.code.as_str()) {
            return false;
        }
        match &self.scope {
            AcceptScope::Site => true,
            AcceptScope::Path(glob) => {
                glob.is_match(evidence_path) || citing.any(|(page, _)| glob.is_match(page))
            }
            AcceptScope::Claim(claim) => citing.any(|(_, id)| id == claim),
        }
    }
}

/// Warnings only a build can find (about the build directory and the
/// published address), never `check`.
const BUILD_ONLY: [&str; 2] = ["W040", "W041"];

/// Sets aside the warnings `accept` covers. An acceptance that covers
/// nothing is itself reported (W070), but only when there are no errors:
/// a site that failed to load may not have been checked far enough to
/// produce the findings it expects.
pub(crate) fn triage(accept: &[Acceptance], diags: Vec<Diagnostic>) -> Triage {
    let mut taken: Vec<Vec<Diagnostic>> = vec![Vec::new(); accept.len()];
    let mut shown = Vec::new();
    for d in diags {
        match accept.iter().position(|a| a.covers(&d)) {
            Some(i) => taken[i].push(d),
            None => shown.push(d),
        }
    }
    let clean = !shown.iter().any(Diagnostic::is_error);
    let mut accepted = Vec::new();
    for (a, diagnostics) in accept.iter().zip(taken) {
        if diagnostics.is_empty() {
            // `check` writes nothing, so it never meets what only a build
            // finds: an acceptance of that is not judged by what it saw.
            if clean && !BUILD_ONLY.contains(&a.code.as_str()) {
                shown.push(
                    Diagnostic::warning(
                        "W070",
                        a.location.clone(),
                        format!("this acceptance of `{}` matches no finding", a.code),
                    )
                    .with_hint("remove it, or correct its `code`, `path` or `claim`"),
                );
            }
            continue;
        }
        accepted.push(Accepted {
            code: a.code.clone(),
            reason: a.reason.en.clone(),
            diagnostics,
        });
    }
    errors_first(&mut shown);
    Triage { shown, accepted }
}

/// Orders errors before warnings, keeping each group's order (stable).
pub(crate) fn errors_first(diags: &mut [Diagnostic]) {
    diags.sort_by_key(|d| d.severity);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Location;
    use crate::lang::Bi;

    fn accept(code: &str, scope: AcceptScope) -> Acceptance {
        Acceptance {
            code: code.into(),
            reason: Bi {
                ja: "理由".into(),
                en: "reason".into(),
            },
            scope,
            location: Location::file("book.toml"),
        }
    }

    fn w(code: &'static str, path: &str, msg: &str) -> Diagnostic {
        Diagnostic::warning(code, Location::file(path), msg)
    }

    /// [`w`] about claim `id`.
    fn wc(code: &'static str, path: &str, id: &str) -> Diagnostic {
        w(code, path, &format!("confirmed claim `{id}` rests …")).with_claim(id)
    }

    #[test]
    fn an_acceptance_of_what_only_a_build_finds_is_not_unmatched_in_check() {
        let rules = [accept("W041", AcceptScope::Site)];
        // What `check` sees: no W041, and no W070 about its acceptance.
        assert!(triage(&rules, Vec::new()).shown.is_empty());
        // What `build` sees: the W041 set aside.
        let t = triage(&rules, vec![w("W041", "book.toml", "m")]);
        assert!(t.shown.is_empty());
        assert_eq!(t.accepted[0].diagnostics.len(), 1);
        // Readers of the evidence pages are not told about it.
        assert!(!rules[0].reaches("evidence/a.txt", std::iter::empty()));
    }

    #[test]
    fn scopes_and_the_unmatched_warning() {
        let rules = [
            accept("W002", AcceptScope::Claim("c1".into())),
            accept("W002", AcceptScope::Path("content/a/**".into())),
            accept("W001", AcceptScope::Site),
        ];
        let t = triage(
            &rules,
            vec![
                wc("W002", "content/b.md", "c1"),
                wc("W002", "content/a/x.md", "c2"),
                wc("W002", "content/b.md", "c3"),
                Diagnostic::error("E011", Location::file("content/z.md"), "m"),
            ],
        );
        let shown: Vec<&str> = t.shown.iter().map(|d| d.code).collect();
        // Errors first; W070 is not reported while there are errors.
        assert_eq!(shown, ["E011", "W002"]);
        assert_eq!(t.accepted.len(), 2);
        let t = triage(&rules, vec![wc("W002", "content/a/x.md", "c2")]);
        let shown: Vec<String> = t.shown.iter().map(ToString::to_string).collect();
        assert_eq!(
            shown,
            [
                "book.toml:1:1: warning[W070]: this acceptance of `W002` matches no finding\n  = hint: remove it, or correct its `code`, `path` or `claim`",
                "book.toml:1:1: warning[W070]: this acceptance of `W001` matches no finding\n  = hint: remove it, or correct its `code`, `path` or `claim`",
            ]
        );
    }
}
