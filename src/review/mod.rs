//! Reviews: what a person last approved (`kansoku.lock`) against the site
//! as it is now.
//!
//! `examine` compares and returns findings plus what readers are told
//! (a suspect claim, a stale translation); [`review`] re-approves and
//! rewrites lock entries; [`fix`] rewrites links whose cited text only
//! moved. Runs after validation, on a site whose links resolve; it reads
//! the lock and nothing else, and writes only in `review` and `fix`.

mod approve;
pub mod captures;
pub(crate) mod lock;

pub use approve::{fix, review, Reviewed, Selection};

use crate::content::Segment;
use crate::error::{Diagnostic, Result};
use crate::evidence::EvidenceFile;
use crate::lang::{Bi, Lang};
use crate::validate::{ClaimNote, Mode, Move, ReviewStatus, Site};
pub use lock::{
    Lock, LockedCapture, LockedClaim, LockedFacts, LockedLink, LockedPage, LockedPair, LOCK_FILE,
};
use std::collections::BTreeSet;
use std::path::Path;

/// The hash of cited lines: each line without its trailing whitespace,
/// joined by `\n`, so re-saving a log with other line ends or trailing
/// blanks does not make every claim on it suspect.
#[cfg(test)]
pub(crate) fn hash_lines<'a>(lines: impl Iterator<Item = &'a str>) -> String {
    written(lines_fnv(lines))
}

/// FNV-1a of `lines` as [`hash_lines`] joins them, fed line by line.
fn lines_fnv<'a>(lines: impl Iterator<Item = &'a str>) -> u64 {
    let mut h = crate::hash::Fnv1a::default();
    for (i, l) in lines.enumerate() {
        if i > 0 {
            h.update(b"\n");
        }
        h.update(l.trim_end().as_bytes());
    }
    h.0
}

/// A lines hash as the lock writes it.
fn written(hash: u64) -> String {
    format!("fnv1a64:{hash:016x}")
}

/// A link's cited range in `file`, resolved (whole file without lines).
pub(crate) fn range_of(link: &crate::content::EvidenceLink, file: &EvidenceFile) -> (usize, usize) {
    link.lines.unwrap_or((1, file.line_count()))
}

/// [`hash_lines`] of lines `a..=b` of `file`, read in pieces from a large
/// log. A log that can no longer be read (removed during the run) gives
/// a value no lock holds, so its claims are reported as changed.
pub(crate) fn hash_range(file: &EvidenceFile, (a, b): (usize, usize)) -> String {
    match file.lines_hash(a, b) {
        Ok(h) => written(h),
        Err(e) => format!("unreadable: {e}"),
    }
}

/// Where the reviewed text now is: the window of `len` lines with `hash`
/// nearest to the old start (the first of equals), if any.
fn find_moved(file: &EvidenceFile, len: usize, hash: &str, old_start: usize) -> Option<usize> {
    let want = u64::from_str_radix(hash.strip_prefix("fnv1a64:")?, 16).ok()?;
    let mut best: Option<usize> = None;
    file.windows(len, |s, lines| {
        if lines_fnv(lines) == want
            && best.is_none_or(|b| s.abs_diff(old_start) < b.abs_diff(old_start))
        {
            best = Some(s);
        }
    })
    .ok()?;
    best
}

pub(crate) fn pair_text(chunk: &crate::content::Chunk) -> String {
    chunk.text.trim().to_owned()
}

/// Compares the site with the lock at its root. No lock: nothing to say
/// (the site does not use reviews). Severity follows `mode`: what is an
/// error in `check` is a warning in `build` and `serve`, where the page
/// shows the notice instead.
pub(crate) fn examine(
    root: &Path,
    site: &Site,
    mode: Mode,
) -> Result<(ReviewStatus, Vec<Diagnostic>)> {
    Ok(examine_lock(site, lock::read(root)?.as_ref(), mode))
}

/// [`examine`] with the lock already read (`None`: there is none).
pub(crate) fn examine_lock(
    site: &Site,
    lock: Option<&Lock>,
    mode: Mode,
) -> (ReviewStatus, Vec<Diagnostic>) {
    // A lock holding only capture approvals (`review --capture`) does not
    // switch claim reviews on: the site has not started reviewing claims.
    match lock.filter(|l| !l.claims.is_empty() || !l.pages.is_empty()) {
        Some(lock) => compare(site, lock, mode),
        None => (ReviewStatus::default(), Vec::new()),
    }
}

/// [`examine`] against a given lock.
pub(crate) fn compare(site: &Site, lock: &Lock, mode: Mode) -> (ReviewStatus, Vec<Diagnostic>) {
    let mut status = ReviewStatus::default();
    let mut diags = Vec::new();
    let error = |src: &crate::source::Source, code, span, msg: String| match mode {
        Mode::Check => src.error(code, span, msg),
        Mode::Build => src.warning(code, span, msg),
    };
    let mut seen = BTreeSet::new();
    for page in &site.content.pages {
        let src = &page.src;
        for c in &page.claims {
            seen.insert(c.id.as_str());
            let Some(locked) = lock.claims.get(&c.id) else {
                diags.push(
                    src.warning(
                        "W080",
                        c.id_span.clone(),
                        format!("claim `{}` has not been reviewed", c.id),
                    )
                    .with_hint(format!(
                        "look at it and its evidence, then run `kansoku review {}`",
                        c.id
                    ))
                    .with_claim(&c.id),
                );
                continue;
            };
            let mut note = ClaimNote::default();
            let mut unreviewed = Vec::new();
            for l in &c.evidence {
                let Some(file) = site.evidence.files.get(&l.path) else {
                    continue;
                };
                let (a, b) = range_of(l, file);
                let now = hash_range(file, (a, b));
                let label = l.label();
                let same_path = |k: &&LockedLink| k.link.split('#').next() == Some(l.path.as_str());
                if lock_has(&locked.evidence, &label, &now, &l.path) {
                    continue;
                }
                let Some(old) = locked.evidence.iter().find(|k| k.link == label) else {
                    if locked.evidence.iter().any(|k| same_path(&k)) && l.lines.is_some() {
                        // The link was rewritten by hand and cites other
                        // text than was reviewed under this path.
                        unreviewed.push(format!("evidence `{label}`"));
                    } else {
                        unreviewed.push(format!("new evidence `{label}`"));
                    }
                    continue;
                };
                let dir = &site.evidence.dir_name;
                match find_moved(file, old.lines, &old.hash, a).filter(|_| l.lines.is_some()) {
                    Some(s) => {
                        let to = (s, s + old.lines - 1);
                        let new = crate::content::EvidenceLink {
                            lines: Some(to),
                            ..l.clone()
                        };
                        diags.push(
                            error(
                                src,
                                "E082",
                                l.span.clone(),
                                format!(
                                    "the text cited by claim `{}` moved: `{dir}/{label}` is now `{dir}/{}`",
                                    c.id,
                                    new.label()
                                ),
                            )
                            .with_hint("run `kansoku check --fix` to rewrite the link")
                            .with_claim(&c.id),
                        );
                        status.moves.push(Move {
                            page: page.source_path().to_owned(),
                            span: l.span.clone(),
                            lines: to,
                        });
                    }
                    None => {
                        diags.push(
                            error(
                                src,
                                "E081",
                                l.span.clone(),
                                format!(
                                    "claim `{}` is suspect: `{dir}/{label}` changed after the claim was reviewed",
                                    c.id
                                ),
                            )
                            .with_hint(format!(
                                "check that the claim still holds, then run `kansoku review {}`",
                                c.id
                            ))
                            .with_claim(&c.id),
                        );
                        note.evidence_changed.get_or_insert_with(|| l.path.clone());
                    }
                }
            }
            // A broken claim's class and texts may be stand-ins: compared
            // with the lock, they would report changes nobody made. Its
            // links were compared above: a moved range is still found.
            if c.broken {
                continue;
            }
            let ja = c.text.ja != locked.ja;
            let en = c.text.en != locked.en;
            if ja != en {
                let (changed, previous) = if ja {
                    (Lang::Ja, &locked.ja)
                } else {
                    (Lang::En, &locked.en)
                };
                diags.push(
                    error(
                        src,
                        "E084",
                        c.id_span.clone(),
                        format!(
                            "stale translation: the `{changed}` text of claim `{}` changed since its review, the `{}` text did not",
                            c.id,
                            changed.other()
                        ),
                    )
                    .with_hint(format!(
                        "update `{}` to match, then run `kansoku review {}`",
                        changed.other(),
                        c.id
                    ))
                    .with_claim(&c.id),
                );
                note.stale = Some((changed, previous.clone()));
            } else if ja {
                unreviewed.push("both texts".to_owned());
            }
            if c.class.name() != locked.class {
                unreviewed.push(format!("class ({} → {})", locked.class, c.class.name()));
            }
            let answer = c.answer.as_ref().map(|(a, _)| a.as_str());
            if answer != locked.answer.as_deref() {
                let said = |a: Option<&str>| a.unwrap_or("none").to_owned();
                unreviewed.push(format!(
                    "answer ({} → {})",
                    said(locked.answer.as_deref()),
                    said(answer)
                ));
            }
            if c.life.state.name() != locked.state {
                unreviewed.push(format!(
                    "state ({} → {})",
                    locked.state,
                    c.life.state.name()
                ));
            }
            if !unreviewed.is_empty() {
                diags.push(
                    src.warning(
                        "W081",
                        c.id_span.clone(),
                        format!(
                            "claim `{}` changed since its review: {}",
                            c.id,
                            unreviewed.join(", ")
                        ),
                    )
                    .with_hint(format!("run `kansoku review {}` once it is right", c.id))
                    .with_claim(&c.id),
                );
            }
            if note != ClaimNote::default() {
                status.claims.insert(c.id.clone(), note);
            }
        }
    }
    propagate(site, lock, mode, &mut status, &mut diags);
    pairs(site, lock, mode, &mut status, &mut diags);
    // A draft this build leaves out is still on the site: its review
    // stays for the day it is published.
    seen.extend(
        site.content
            .drafts
            .iter()
            .flat_map(|d| d.claims.iter().map(String::as_str)),
    );
    for id in lock.claims.keys().filter(|id| !seen.contains(id.as_str())) {
        diags.push(
            Diagnostic::warning(
                "W084",
                crate::error::Location::file(LOCK_FILE),
                format!("`{LOCK_FILE}` reviews claim `{id}`, which is no longer on the site"),
            )
            .with_hint(format!(
                "if it was removed on purpose, run `kansoku review {id}` to drop its entry; if it was renamed, review the new id too"
            ))
            .with_claim(id),
        );
    }
    crate::validate::sort(&mut diags);
    (status, diags)
}

/// True when the lock holds this exact cited text for the link: same
/// label and hash, or (after `--fix` or a hand edit) the same path and the
/// same text at the new lines.
fn lock_has(locked: &[LockedLink], label: &str, hash: &str, path: &str) -> bool {
    locked
        .iter()
        .any(|k| k.hash == hash && (k.link == label || k.link.split('#').next() == Some(path)))
}

/// E083: claims resting on a suspect premise, or on one whose class
/// changed since they were reviewed, become suspect too, transitively.
fn propagate(
    site: &Site,
    lock: &Lock,
    mode: Mode,
    status: &mut ReviewStatus,
    diags: &mut Vec<Diagnostic>,
) {
    loop {
        let mut added = Vec::new();
        for page in &site.content.pages {
            for c in &page.claims {
                if status
                    .claims
                    .get(&c.id)
                    .is_some_and(|n| n.premise_changed.is_some())
                {
                    continue;
                }
                let Some(locked) = lock.claims.get(&c.id) else {
                    continue;
                };
                for (p, span) in &c.from {
                    let Some(&at) = site.index.claims.get(p) else {
                        continue;
                    };
                    // A broken premise's class is a stand-in.
                    if site.claim(at).broken {
                        continue;
                    }
                    let class = site.claim(at).class.name();
                    let reclassed = locked.premises.get(p).is_some_and(|k| k != class);
                    let suspect = status.claims.get(p).is_some_and(ClaimNote::suspect);
                    if reclassed || suspect {
                        let why = if suspect {
                            "is suspect".to_owned()
                        } else {
                            format!("was re-classed ({} → {class})", locked.premises[p])
                        };
                        added.push((page, c, p.clone(), span.clone(), why));
                        break;
                    }
                }
            }
        }
        if added.is_empty() {
            return;
        }
        for (page, c, p, span, why) in added {
            let msg = format!(
                "claim `{}` is suspect: it rests on `{p}`, which {why}",
                c.id
            );
            let d = match mode {
                Mode::Check => page.src.error("E083", span, msg),
                Mode::Build => page.src.warning("E083", span, msg),
            };
            diags.push(
                d.with_hint(format!(
                    "check that `{}` still follows, then run `kansoku review {}`",
                    c.id, c.id
                ))
                .with_claim(&c.id),
            );
            status
                .claims
                .entry(c.id.clone())
                .or_default()
                .premise_changed = Some(p);
        }
    }
}

/// E085: a `::: ja` / `::: en` pair one side of which changed since the
/// page was reviewed. Pairs are matched by text, not position, so adding a
/// pair does not make the ones after it stale.
fn pairs(
    site: &Site,
    lock: &Lock,
    mode: Mode,
    status: &mut ReviewStatus,
    diags: &mut Vec<Diagnostic>,
) {
    for (pi, page) in site.content.pages.iter().enumerate() {
        let Some(locked) = lock.pages.get(page.source_path()) else {
            continue;
        };
        for (si, seg) in page.segments.iter().enumerate() {
            let Segment::Pair { ja, en } = seg else {
                continue;
            };
            let now = Bi {
                ja: pair_text(ja),
                en: pair_text(en),
            };
            if locked
                .pairs
                .iter()
                .any(|p| p.ja == now.ja && p.en == now.en)
            {
                continue;
            }
            let stale = if let Some(p) = locked.pairs.iter().find(|p| p.ja == now.ja) {
                Some((Lang::En, p.en.clone(), en))
            } else {
                locked
                    .pairs
                    .iter()
                    .find(|p| p.en == now.en)
                    .map(|p| (Lang::Ja, p.ja.clone(), ja))
            };
            let Some((changed, previous, chunk)) = stale else {
                continue;
            };
            let start = page.src.text[..chunk.offset]
                .rfind(":::")
                .unwrap_or(chunk.offset);
            let end = page.src.text[start..]
                .find('\n')
                .map_or(start, |i| start + i);
            let msg = format!(
                "stale translation: this `::: {changed}` block changed since the page was reviewed, its `::: {}` partner did not",
                changed.other()
            );
            let d = match mode {
                Mode::Check => page.src.error("E085", start..end, msg),
                Mode::Build => page.src.warning("E085", start..end, msg),
            };
            diags.push(d.with_hint(format!(
                "update the `::: {}` block to match, then run `kansoku review --page {}`",
                changed.other(),
                page.source_path()
            )));
            status.pairs.insert((pi, si), (changed, previous));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_ignores_trailing_blanks() {
        assert_eq!(
            hash_lines(["a  ", "b"].into_iter()),
            hash_lines(["a", "b\t"].into_iter())
        );
        assert_ne!(
            hash_lines(["a", "b"].into_iter()),
            hash_lines(["a", "c"].into_iter())
        );
    }
}
