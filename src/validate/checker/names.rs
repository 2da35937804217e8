//! The names a page gives to place claims in views: a claim's `about` (an
//! entity key) and `aspect`, a view's `columns` and the summary's
//! `findings`. Each is held as strictly as a class: a name that names
//! nothing is an error with the nearest name there is (E025, E026), since
//! a misspelt one silently takes the claim out of every view.

use super::Checker;
use crate::content::claims::nearest;
use crate::error::Diagnostic;
use std::ops::Range;

/// Aspects the default views read by name, known without being declared:
/// an observer card's fields and state, and the home page's worlds.
const ENGINE_ASPECTS: [&str; 7] = [
    "target", "attempt", "result", "tells", "next", "state", "world",
];

/// The first few of `names`, ticked, as a hint lists them.
fn listed<'a>(names: impl Iterator<Item = &'a str>) -> String {
    const MAX: usize = 8;
    let mut names: Vec<&str> = names.collect();
    names.sort_unstable();
    names.dedup();
    let mut shown: Vec<String> = names.iter().take(MAX).map(|n| format!("`{n}`")).collect();
    if names.len() > MAX {
        shown.push(format!("and {} more", names.len() - MAX));
    }
    shown.join(", ")
}

impl Checker<'_> {
    /// A name a page that failed to load, or a draft left out, may
    /// declare: not reported as naming nothing (that page's own finding is
    /// the one; a draft's entity is still an entity).
    fn named_elsewhere(&self, name: &str) -> bool {
        self.content
            .failed
            .iter()
            .chain(&self.content.drafts)
            .any(|f| f.names.iter().any(|n| n == name))
    }

    /// An aspect the site knows: declared in `[aspects]`, read by the
    /// default views, or (`with_columns`) shown in some view's columns,
    /// or (`with_claims`) given by some claim.
    pub(super) fn aspect_known(&self, name: &str, with_columns: bool, with_claims: bool) -> bool {
        self.config.aspect(name).is_some()
            || self.config.unread.aspect(name)
            || ENGINE_ASPECTS.contains(&name)
            || (with_columns && self.lookups.columns.contains_key(name))
            || (with_claims && self.lookups.claim_aspects.contains_key(name))
            || self.named_elsewhere(name)
    }

    /// E025 and E026 for a claim's `about` and `aspect`.
    pub(super) fn placement(&self, pi: usize, ci: usize, diags: &mut Vec<Diagnostic>) {
        let page = &self.content.pages[pi];
        let claim = &page.claims[ci];
        let [about_span, aspect_span] = &claim.place_spans;
        if let Some(key) = &claim.about {
            let known = self.lookups.entities.keys().any(|(_, k)| k == key);
            if !known && !self.named_elsewhere(key) {
                diags.push(self.unknown_entity(pi, key, "`about`", about_span.clone()));
            }
        }
        if let Some(aspect) = &claim.aspect {
            if !self.aspect_known(aspect, true, false) {
                let candidates = self
                    .config
                    .aspects
                    .iter()
                    .map(|(n, _)| n.as_str())
                    .chain(self.lookups.columns.keys().map(String::as_str))
                    .chain(ENGINE_ASPECTS);
                diags.push(self.unknown_aspect(
                    pi,
                    aspect,
                    "`aspect`",
                    aspect_span.clone(),
                    candidates,
                    "declare it in book.toml as `[aspects.NAME]`, or show it in a view's `columns`",
                ));
            }
        }
    }

    /// E026 for a page's `[view] columns`, `[views.NAME] columns` and
    /// `[view] findings` naming no aspect.
    pub(super) fn view_names(&self, pi: usize, diags: &mut Vec<Diagnostic>) {
        let page = &self.content.pages[pi];
        let declared = || self.config.aspects.iter().map(|(n, _)| n.as_str());
        let columns = page
            .columns
            .iter()
            .map(|c| (c, "`[view] columns`".to_owned()))
            .chain(page.views.iter().flat_map(|v| {
                let what = format!("`[views.{}] columns`", v.name);
                v.columns.iter().map(move |c| (c, what.clone()))
            }));
        for (c, what) in columns {
            if self.aspect_known(&c.aspect, false, true) {
                continue;
            }
            let candidates = declared()
                .chain(self.lookups.claim_aspects.keys().map(String::as_str))
                .chain(ENGINE_ASPECTS);
            diags.push(self.unknown_aspect(
                pi,
                &c.aspect,
                &what,
                c.aspect_span.0.clone(),
                candidates,
                "name an aspect that claims give (`aspect = \"…\"`) or that book.toml declares as `[aspects.NAME]`",
            ));
        }
        // The summary of findings reads an aspect's question and answers:
        // only a declared aspect has them.
        for (name, span) in &page.findings {
            if self.config.aspect(name).is_some() || self.config.unread.aspect(name) {
                continue;
            }
            let hint = format!(
                "declare it in book.toml as `[aspects.{name}]`, with its `question` and `answers`"
            );
            diags.push(self.unknown_aspect(
                pi,
                name,
                "`[view] findings`",
                span.clone(),
                declared(),
                &hint,
            ));
        }
    }

    /// E025: `key` names no entity of the site.
    pub(super) fn unknown_entity(
        &self,
        pi: usize,
        key: &str,
        what: &str,
        span: Range<usize>,
    ) -> Diagnostic {
        let keys = || self.lookups.entities.keys().map(|(_, k)| k.as_str());
        let hint = match nearest(key, keys()) {
            Some(k) => format!("did you mean `{k}`?"),
            None if self.lookups.entities.is_empty() => {
                "name the key of an entity declared by a page's `[entity]` or `[[entities]]`"
                    .to_owned()
            }
            None => format!(
                "name the key of an entity declared by a page's `[entity]` or `[[entities]]`: {}",
                listed(keys())
            ),
        };
        self.content.pages[pi]
            .src
            .error("E025", span, format!("unknown entity `{key}` in {what}"))
            .with_hint(hint)
    }

    /// E026: `name` names no aspect; the nearest of `candidates`, or
    /// `otherwise`.
    fn unknown_aspect<'c>(
        &self,
        pi: usize,
        name: &str,
        what: &str,
        span: Range<usize>,
        candidates: impl Iterator<Item = &'c str>,
        otherwise: &str,
    ) -> Diagnostic {
        let hint = match nearest(name, candidates) {
            Some(n) => format!("did you mean `{n}`?"),
            None => otherwise.to_owned(),
        };
        self.content.pages[pi]
            .src
            .error("E026", span, format!("unknown aspect `{name}` in {what}"))
            .with_hint(hint)
    }
}
