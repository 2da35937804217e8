//! `kansoku review` and `kansoku check --fix`: the two commands that
//! write. `review` re-approves claims and pages as they are now and
//! rewrites their lock entries; `fix` rewrites links whose cited text only
//! moved. Both are given the site as loaded without the lock by their
//! caller (`site::load_unreviewed`, which refuses a site with errors
//! before anything is written, and `site::load_unchecked`): loading is
//! `site`'s, which depends on this module, not the reverse.

use super::{
    examine, hash_range, lock, pair_text, range_of, Lock, LockedClaim, LockedLink, LockedPage,
    LockedPair,
};
use crate::content::{Claim, Segment};
use crate::error::{Edit, Error, Result};
use crate::validate::{Mode, Site};
use std::collections::BTreeMap;
use std::path::Path;

/// The lock entry for a claim as it is now.
fn locked_claim(site: &Site, page: &crate::content::Page, c: &Claim) -> LockedClaim {
    LockedClaim {
        page: page.source_path().to_owned(),
        class: c.class.name().to_owned(),
        state: c.life.state.name().to_owned(),
        ja: c.text.ja.clone(),
        en: c.text.en.clone(),
        answer: c.answer.as_ref().map(|(a, _)| a.clone()),
        premises: c
            .from
            .iter()
            .filter_map(|(id, _)| {
                let at = *site.index.claims.get(id)?;
                Some((id.clone(), site.claim(at).class.name().to_owned()))
            })
            .collect(),
        evidence: c
            .evidence
            .iter()
            .filter_map(|l| {
                let file = site.evidence.files.get(&l.path)?;
                let (a, b) = range_of(l, file);
                Some(LockedLink {
                    link: l.label(),
                    lines: b + 1 - a.min(b + 1),
                    hash: hash_range(file, (a, b)),
                })
            })
            .collect(),
    }
}

/// The lock entry for a page's pairs as they are now.
fn locked_page(page: &crate::content::Page) -> LockedPage {
    LockedPage {
        pairs: page
            .segments
            .iter()
            .filter_map(|s| match s {
                Segment::Pair { ja, en } => Some(LockedPair {
                    ja: pair_text(ja),
                    en: pair_text(en),
                }),
                _ => None,
            })
            .collect(),
    }
}

/// What to re-approve.
#[derive(Debug, Clone, Default)]
pub struct Selection {
    /// Claim ids.
    pub claims: Vec<String>,
    /// Pages (content-relative, or from the root: `content/…`).
    pub pages: Vec<String>,
    /// Everything, dropping entries of claims no longer on the site.
    pub all: bool,
}

impl Selection {
    /// Refuses a selection that names nothing: checked before the site is
    /// loaded, so that the mistake is said even on a site with errors.
    pub fn check(&self) -> Result<()> {
        if !self.all && self.claims.is_empty() && self.pages.is_empty() {
            return Err(Error::Usage(
                "name the claims to review, or use `--page PAGE` or `--all`".to_owned(),
            ));
        }
        Ok(())
    }
}

/// What a review did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reviewed {
    /// Claims whose entries were written.
    pub claims: usize,
    /// Of those, entries that differ from before (new or changed).
    pub changed: usize,
    /// Pages whose pairs were written.
    pub pages: usize,
    /// Entries dropped (claims no longer on the site).
    pub dropped: usize,
}

/// `kansoku review`: re-approves the selection as it is now on `site`
/// (the site at `root`, loaded without errors and without its lock: a
/// claim whose link does not resolve cannot be reviewed, and lock findings
/// do not count) and rewrites its lock entries.
pub fn review(root: &Path, site: &Site, sel: &Selection) -> Result<Reviewed> {
    sel.check()?;
    let old = match lock::read(root) {
        Ok(l) => l.unwrap_or_default(),
        // A lock that does not parse is replaced by a full review.
        Err(Error::Content(_)) if sel.all => Lock::default(),
        Err(e) => return Err(e),
    };
    let mut new = old.clone();
    new.version = lock::VERSION;
    let mut done = Reviewed::default();
    let pages: Vec<usize> = sel
        .pages
        .iter()
        .map(|p| {
            let rel = p.strip_prefix("content/").unwrap_or(p);
            site.index.pages.get(rel).copied().ok_or_else(|| {
                Error::Usage(format!(
                    "no page `content/{rel}` (give its path under content/)"
                ))
            })
        })
        .collect::<Result<_>>()?;
    // A claim no longer on the site that the lock still reviews (W084):
    // naming it drops its entry, and only its.
    let gone: Vec<&String> = sel
        .claims
        .iter()
        .filter(|id| !site.index.claims.contains_key(*id) && old.claims.contains_key(*id))
        .collect();
    for id in &sel.claims {
        if !site.index.claims.contains_key(id) && !gone.contains(&id) {
            let hint =
                crate::content::claims::nearest(id, site.index.claims.keys().map(String::as_str))
                    .map(|n| format!("; did you mean `{n}`?"))
                    .unwrap_or_default();
            return Err(Error::Usage(format!("no claim `{id}` on the site{hint}")));
        }
    }
    if sel.all {
        new.claims.clear();
        new.pages.clear();
    }
    for id in gone {
        new.claims.remove(id);
    }
    for (pi, page) in site.content.pages.iter().enumerate() {
        let whole = sel.all || pages.contains(&pi);
        for c in &page.claims {
            if whole || sel.claims.contains(&c.id) {
                let entry = locked_claim(site, page, c);
                if old.claims.get(&c.id) != Some(&entry) {
                    done.changed += 1;
                }
                new.claims.insert(c.id.clone(), entry);
                done.claims += 1;
            }
        }
        if whole {
            let lp = locked_page(page);
            if lp.pairs.is_empty() {
                new.pages.remove(page.source_path());
            } else {
                new.pages.insert(page.source_path().to_owned(), lp);
            }
            done.pages += 1;
        }
    }
    done.dropped = old
        .claims
        .keys()
        .filter(|id| !new.claims.contains_key(*id))
        .count();
    lock::write(root, &new)?;
    Ok(done)
}

/// `kansoku check --fix`: makes the exact fixes the findings name, in the
/// page sources, whatever else is wrong with the site (`site` is the site
/// at `root` as loaded, errors and all, without its lock, and
/// `diagnostics` what loading found): each link whose cited text only
/// moved (E082) goes to its new lines, and each finding that carries an
/// edit (a quote now on another line, E014; `path:5` for `path#L5`, E018)
/// gets it. Returns one line per edit, from the end of each file: `fixed
/// path: old → new`, or `could not fix path: …` with why; none when there
/// was nothing to fix. Each file is written atomically, keeping its
/// byte-order mark and line ends.
pub fn fix(root: &Path, site: &Site, diagnostics: &[crate::Diagnostic]) -> Result<Vec<String>> {
    let (status, _) = examine(root, site, Mode::Build)?;
    let mut by_file: BTreeMap<String, Vec<Edit>> = BTreeMap::new();
    let mut done = Vec::new();
    for m in &status.moves {
        let Some(page) = site
            .content
            .pages
            .iter()
            .find(|p| p.source_path() == m.page)
        else {
            continue;
        };
        let old = &page.src.text[m.span.clone()];
        match relink(old, m.lines) {
            Some(new) => by_file.entry(m.page.clone()).or_default().push(Edit {
                span: m.span.clone(),
                from: old.to_owned(),
                to: new,
            }),
            // Said, not skipped in silence: `check` still reports it.
            None => done.push(format!(
                "could not fix {}: {} (write its lines as `#L…` or `lines = \"…\"`)",
                m.page,
                old.trim()
            )),
        }
    }
    for d in diagnostics {
        if let Some(edit) = d.fix() {
            let edits = by_file.entry(d.location.path.clone()).or_default();
            // A moved range is the lock's to fix, to where its text went
            // (the quote inside it, E014, is that same change).
            let moved = edits
                .iter()
                .any(|m| m.span.start < edit.span.end && edit.span.start < m.span.end);
            if !moved {
                edits.push(edit.clone());
            }
        }
    }
    for (rel, mut edits) in by_file {
        let path = root.join(&rel);
        let bytes = std::fs::read(&path).map_err(|e| Error::io(&path, e))?;
        let Ok(mut text) = crate::source::decode(&rel, &bytes) else {
            done.push(format!("could not fix {rel}: it is not UTF-8 now"));
            continue;
        };
        // From the end, so earlier spans stay valid; an edit inside one
        // already made is the same mistake.
        edits.sort_by_key(|e| std::cmp::Reverse(e.span.start));
        let mut before = usize::MAX;
        let mut changed = false;
        for e in edits {
            if e.span.end > before {
                continue;
            }
            if text.get(e.span.clone()) != Some(e.from.as_str()) {
                done.push(format!(
                    "could not fix {rel}: {} changed since it was read",
                    e.from.trim()
                ));
                continue;
            }
            done.push(format!("fixed {rel}: {} → {}", e.from.trim(), e.to.trim()));
            text.replace_range(e.span.clone(), &e.to);
            before = e.span.start;
            changed = true;
        }
        if !changed {
            continue;
        }
        let mut out = String::new();
        if bytes.starts_with(b"\xEF\xBB\xBF") {
            out.push('\u{feff}');
        }
        if bytes.windows(2).any(|w| w == b"\r\n") {
            out.push_str(&text.replace('\n', "\r\n"));
        } else {
            out.push_str(&text);
        }
        crate::fsutil::write_atomic(&path, out.as_bytes()).map_err(|e| Error::io(&path, e))?;
    }
    Ok(done)
}

/// A link as written (`"a.log#L3-L5"` or `{ path = …, lines = … }`) with
/// its line range replaced.
fn relink(old: &str, (a, b): (usize, usize)) -> Option<String> {
    let frag = if a == b {
        format!("L{a}")
    } else {
        format!("L{a}-L{b}")
    };
    if let Some(hash) = old.find('#') {
        let end = old[hash..].find(['"', '\'']).map(|i| hash + i)?;
        return Some(format!("{}#{frag}{}", &old[..hash], &old[end..]));
    }
    let key = old.find("lines")?;
    let eq = key + old[key..].find('=')?;
    let start = eq + 1;
    let end = old[start..]
        .find([',', '}'])
        .map_or(old.len(), |i| start + i);
    // The value keeps its type: `lines = "8"` stays a string.
    let quote = old[start..end]
        .trim_start()
        .chars()
        .next()
        .filter(|c| matches!(c, '"' | '\''));
    let value = match (a == b, quote) {
        (true, None) => format!(" {a}"),
        (true, Some(q)) => format!(" {q}{a}{q}"),
        (false, q) => {
            let q = q.unwrap_or('"');
            format!(" {q}{a}-{b}{q}")
        }
    };
    let trail = if old[start..end].ends_with(' ') {
        " "
    } else {
        ""
    };
    Some(format!("{}{value}{trail}{}", &old[..start], &old[end..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relink_both_forms() {
        assert_eq!(
            relink("\"a.log#L3-L5\"", (5, 7)).as_deref(),
            Some("\"a.log#L5-L7\"")
        );
        assert_eq!(
            relink("\"a.log#L3\"", (4, 4)).as_deref(),
            Some("\"a.log#L4\"")
        );
        assert_eq!(
            relink(
                "{ path = \"a.log\", lines = \"3-9\", quote = \"x\" }",
                (5, 11)
            )
            .as_deref(),
            Some("{ path = \"a.log\", lines = \"5-11\", quote = \"x\" }")
        );
        assert_eq!(
            relink("{ path = \"a.log\", lines = 3 }", (4, 4)).as_deref(),
            Some("{ path = \"a.log\", lines = 4 }")
        );
        // A string stays a string (trial L13).
        assert_eq!(
            relink("{ path = \"a.log\", lines = \"8\" }", (9, 9)).as_deref(),
            Some("{ path = \"a.log\", lines = \"9\" }")
        );
    }
}
