//! Reviews: what a person last approved (`kansoku.lock`) against the site
//! as it is now.
//!
//! [`examine`] compares and returns findings plus what readers are told
//! (a suspect claim, a stale translation); [`review`] re-approves and
//! rewrites lock entries; [`fix`] rewrites links whose cited text only
//! moved. Runs after validation, on a site whose links resolve; it reads
//! the lock and nothing else, and writes only in `review` and `fix`.

pub mod lock;

use crate::content::{Claim, Segment};
use crate::error::{Diagnostic, Error, Result};
use crate::evidence::EvidenceFile;
use crate::lang::{Bi, Lang};
use crate::validate::{Mode, Site};
pub use lock::{Lock, LockedClaim, LockedLink, LockedPage, LockedPair, LOCK_FILE};
use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use std::path::Path;

/// FNV-1a, 64 bits: stable across versions and platforms (a committed lock
/// must hash the same everywhere), no dependency, and plenty to tell an
/// edited range from the reviewed one.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The hash of cited lines: each line without its trailing whitespace,
/// joined by `\n`, so re-saving a log with other line ends or trailing
/// blanks does not make every claim on it suspect.
pub fn hash_lines<'a>(lines: impl Iterator<Item = &'a str>) -> String {
    let mut text = String::new();
    for (i, l) in lines.enumerate() {
        if i > 0 {
            text.push('\n');
        }
        text.push_str(l.trim_end());
    }
    format!("fnv1a64:{:016x}", fnv1a(text.as_bytes()))
}

/// A link's cited range in `file`, resolved (whole file without lines).
fn range_of(link: &crate::content::EvidenceLink, file: &EvidenceFile) -> (usize, usize) {
    link.lines.unwrap_or((1, file.line_count()))
}

fn hash_range(file: &EvidenceFile, (a, b): (usize, usize)) -> String {
    hash_lines((a..=b.min(file.line_count())).map(|n| file.line(n)))
}

/// Where the reviewed text now is: the window of `len` lines with `hash`
/// nearest to the old start, if any.
fn find_moved(file: &EvidenceFile, len: usize, hash: &str, old_start: usize) -> Option<usize> {
    if len == 0 || len > file.line_count() {
        return None;
    }
    (1..=file.line_count() + 1 - len)
        .filter(|&s| hash_range(file, (s, s + len - 1)) == hash)
        .min_by_key(|&s| s.abs_diff(old_start))
}

/// What a reader is told about a claim.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClaimNote {
    /// The claim is suspect: its evidence changed (`Some(path)` of the
    /// evidence file) after it was reviewed.
    pub evidence_changed: Option<String>,
    /// A premise it rests on is suspect or re-classed.
    pub premise_changed: Option<String>,
    /// One language changed since the review, the other did not: the
    /// changed language and its text at the review.
    pub stale: Option<(Lang, String)>,
}

impl ClaimNote {
    /// True when readers should doubt the claim.
    pub fn suspect(&self) -> bool {
        self.evidence_changed.is_some() || self.premise_changed.is_some()
    }
}

/// A rewrite `check --fix` can make: a link whose cited text moved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Move {
    /// The page's path relative to the site root.
    pub page: String,
    /// The link's span in the page.
    pub span: Range<usize>,
    /// The new range.
    pub lines: (usize, usize),
}

/// What the lock says about the site now.
#[derive(Debug, Clone, Default)]
pub struct Status {
    /// Claims with something to tell readers, by id.
    pub claims: BTreeMap<String, ClaimNote>,
    /// Stale pairs: (page index, segment index) → the changed language
    /// and its text at the review.
    pub pairs: BTreeMap<(usize, usize), (Lang, String)>,
    /// Links whose text moved.
    pub moves: Vec<Move>,
}

/// The lock entry for a claim as it is now.
fn locked_claim(site: &Site, page: &crate::content::Page, c: &Claim) -> LockedClaim {
    LockedClaim {
        page: page.source_path().to_owned(),
        class: c.class.name().to_owned(),
        state: c.life.state.name().to_owned(),
        ja: c.text.ja.clone(),
        en: c.text.en.clone(),
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

fn pair_text(chunk: &crate::content::Chunk) -> String {
    chunk.text.trim().to_owned()
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

/// Compares the site with the lock at its root. No lock: nothing to say
/// (the site does not use reviews). Severity follows `mode`: what is an
/// error in `check` is a warning in `build` and `serve`, where the page
/// shows the notice instead.
pub fn examine(root: &Path, site: &Site, mode: Mode) -> Result<(Status, Vec<Diagnostic>)> {
    let Some(lock) = lock::read(root)? else {
        return Ok((Status::default(), Vec::new()));
    };
    Ok(compare(site, &lock, mode))
}

/// [`examine`] against a given lock.
pub fn compare(site: &Site, lock: &Lock, mode: Mode) -> (Status, Vec<Diagnostic>) {
    let mut status = Status::default();
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
                    )),
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
                            .with_hint("run `kansoku check --fix` to rewrite the link"),
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
                            )),
                        );
                        note.evidence_changed.get_or_insert_with(|| l.path.clone());
                    }
                }
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
                    )),
                );
                note.stale = Some((changed, previous.clone()));
            } else if ja {
                unreviewed.push("both texts".to_owned());
            }
            if c.class.name() != locked.class {
                unreviewed.push(format!("class ({} → {})", locked.class, c.class.name()));
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
                    .with_hint(format!("run `kansoku review {}` once it is right", c.id)),
                );
            }
            if note != ClaimNote::default() {
                status.claims.insert(c.id.clone(), note);
            }
        }
    }
    propagate(site, lock, mode, &mut status, &mut diags);
    pairs(site, lock, mode, &mut status, &mut diags);
    for id in lock.claims.keys().filter(|id| !seen.contains(id.as_str())) {
        diags.push(
            Diagnostic::warning(
                "W084",
                crate::error::Location::file(LOCK_FILE),
                format!("`{LOCK_FILE}` reviews claim `{id}`, which is no longer on the site"),
            )
            .with_hint("run `kansoku review --all` to drop it"),
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
    status: &mut Status,
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
            diags.push(d.with_hint(format!(
                "check that `{}` still follows, then run `kansoku review {}`",
                c.id, c.id
            )));
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
fn pairs(site: &Site, lock: &Lock, mode: Mode, status: &mut Status, diags: &mut Vec<Diagnostic>) {
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

/// `kansoku review`: re-approves the selection as it is now and rewrites
/// its lock entries. The site must load without errors (a claim whose
/// link does not resolve cannot be reviewed); lock findings do not count.
pub fn review(root: &Path, sel: &Selection) -> Result<Reviewed> {
    if !sel.all && sel.claims.is_empty() && sel.pages.is_empty() {
        return Err(Error::Usage(
            "name the claims to review, or use `--page PAGE` or `--all`".to_owned(),
        ));
    }
    let (site, _) = crate::site::load_unreviewed(root, Mode::Build)?;
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
    for id in &sel.claims {
        if !site.index.claims.contains_key(id) {
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
    for (pi, page) in site.content.pages.iter().enumerate() {
        let whole = sel.all || pages.contains(&pi);
        for c in &page.claims {
            if whole || sel.claims.contains(&c.id) {
                let entry = locked_claim(&site, page, c);
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

/// `kansoku check --fix`: rewrites each link whose cited text only moved
/// to its new lines, in the page source. Returns the rewrites made, as
/// `path: old → new`. Each page is written atomically.
pub fn fix(root: &Path) -> Result<Vec<String>> {
    let (site, _) = crate::site::load_unreviewed(root, Mode::Build)?;
    let (status, _) = examine(root, &site, Mode::Build)?;
    let mut by_page: BTreeMap<&str, Vec<&Move>> = BTreeMap::new();
    for m in &status.moves {
        by_page.entry(&m.page).or_default().push(m);
    }
    let mut done = Vec::new();
    for (rel, mut moves) in by_page {
        let page = site
            .content
            .pages
            .iter()
            .find(|p| p.source_path() == rel)
            .expect("moves name loaded pages");
        let mut text = page.src.text.clone();
        // From the end, so earlier spans stay valid.
        moves.sort_by_key(|m| std::cmp::Reverse(m.span.start));
        for m in moves {
            let old = &text[m.span.clone()];
            let Some(new) = relink(old, m.lines) else {
                continue;
            };
            done.push(format!("{rel}: {} → {}", old.trim(), new.trim()));
            text.replace_range(m.span.clone(), &new);
        }
        let path = root.join(rel);
        let bytes = std::fs::read(&path).map_err(|e| Error::io(&path, e))?;
        // Keep the file's own line ends and BOM: only the link changes.
        let mut out = String::new();
        if bytes.starts_with(b"\xEF\xBB\xBF") {
            out.push('\u{feff}');
        }
        if bytes.windows(2).any(|w| w == b"\r\n") {
            out.push_str(&text.replace('\n', "\r\n"));
        } else {
            out.push_str(&text);
        }
        let dir = path.parent().unwrap_or(root);
        let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(|e| Error::io(dir, e))?;
        std::io::Write::write_all(&mut tmp, out.as_bytes())
            .map_err(|e| Error::io(tmp.path(), e))?;
        tmp.persist(&path).map_err(|e| Error::io(&path, e.error))?;
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
    let value = if a == b {
        format!(" {a}")
    } else {
        format!(" \"{a}-{b}\"")
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
    }

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
