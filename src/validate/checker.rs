//! Checking one page against lookups built once for the whole site.
//!
//! `Checker::new` builds what pages are checked against; `Checker::page`
//! checks one page and reads nothing else, so the caller may check pages in
//! any order, in parallel, or only some of them. Nothing here reads files.

mod answers;
mod body;
mod names;

use super::{ClaimAt, Index, Map, Mode};
use crate::config::Config;
use crate::content::body::{scan, ChunkScan, IdSet};
use crate::content::claims::nearest;
use crate::content::{Class, Content, Segment};
use crate::error::{Diagnostic, Location};
use crate::evidence::{EvidenceFile, EvidenceIndex, EvidenceKind};
use std::collections::hash_map::Entry;
use std::ops::Range;
use std::sync::{Arc, OnceLock};

mod missing;

/// Everything one page is checked against, built once for the whole site.
///
/// Checking a page reads only this and the page, so pages can be checked
/// in any order, in parallel, or a few at a time. The maps are hashed and
/// borrow their keys: ordered maps of owned strings made lookups (several
/// hundred thousand on a large site) the most expensive part of checking.
pub(crate) struct Checker<'a> {
    config: &'a Config,
    content: &'a Content,
    evidence: &'a EvidenceIndex,
    mode: Mode,
    /// What is read of every page's path and front matter.
    lookups: Arc<Lookups>,
    /// Evidence files by path.
    files: Map<&'a str, &'a EvidenceFile>,
    /// Each page's chunks scanned for references and heading ids, on
    /// first use: a check of a few pages (`serve`) scans only those and the
    /// pages they link to.
    scans: Vec<OnceLock<Vec<ChunkScan<'a>>>>,
    /// The ids the theme writes literally, which headings never take.
    theme: &'a [String],
    /// Heading ids per page and language, built the first time a link
    /// needs them: only the targets of anchor links do.
    anchors: Vec<[OnceLock<IdSet>; 2]>,
    /// Claim ids defined on pages that failed to load: the page, and
    /// whether its front matter parsed (then the id surely exists).
    failed_claims: Map<&'a str, (&'a str, bool)>,
}

/// The lookups built from every page's path and front matter (where
/// claims and entities are declared). Owned, so that a run whose edits
/// changed neither takes them from the last run (`validate::Whole`).
#[derive(Default)]
pub(crate) struct Lookups {
    /// Where each claim id is first defined, in page order.
    claims: Map<String, ClaimAt>,
    /// Claims whose id was defined before them, in page order.
    duplicates: Vec<ClaimAt>,
    /// Content-relative page path → page index.
    pages: Map<String, usize>,
    /// Evidence path → the claims citing it, in page then claim order.
    cited_by: Map<String, Vec<ClaimAt>>,
    /// The first claim in each matrix cell (about × aspect), in page order.
    cells: Map<(String, String), ClaimAt>,
    /// The first page with each entity (kind, key), in page order, and
    /// the offset of its key there.
    entities: Map<(String, String), (usize, usize)>,
    /// Every aspect a view's columns show (`[view]`, `[views.NAME]`).
    columns: Map<String, ()>,
    /// Every aspect a claim gives.
    claim_aspects: Map<String, ()>,
}

impl Lookups {
    fn new(content: &Content) -> Lookups {
        let mut l = Lookups::default();
        for (pi, page) in content.pages.iter().enumerate() {
            l.pages.insert(page.rel.clone(), pi);
            for (ci, claim) in page.claims.iter().enumerate() {
                let at = ClaimAt {
                    page: pi,
                    claim: ci,
                };
                match l.claims.entry(claim.id.clone()) {
                    Entry::Occupied(_) => l.duplicates.push(at),
                    Entry::Vacant(v) => {
                        v.insert(at);
                    }
                }
                for link in &claim.evidence {
                    match l.cited_by.get_mut(link.path.as_str()) {
                        Some(at_list) => at_list.push(at),
                        None => {
                            l.cited_by.insert(link.path.clone(), vec![at]);
                        }
                    }
                }
                // Retracted and superseded claims leave the matrix, so
                // their successor may take the same cell.
                let current = claim.life.state == crate::content::State::Current;
                if let (Some(about), Some(aspect), true) = (&claim.about, &claim.aspect, current) {
                    l.cells.entry((about.clone(), aspect.clone())).or_insert(at);
                }
                if let Some(aspect) = &claim.aspect {
                    l.claim_aspects.entry(aspect.clone()).or_default();
                }
            }
            let views = page.views.iter().flat_map(|v| &v.columns);
            for c in page.columns.iter().chain(views) {
                l.columns.entry(c.aspect.clone()).or_default();
            }
            for e in page.entity.iter().chain(&page.members) {
                l.entities
                    .entry((e.kind.clone(), e.key.clone()))
                    .or_insert((pi, e.key_span.0.start));
            }
        }
        l
    }
}

impl<'a> Checker<'a> {
    /// Checks pages against `lookups` (made from `content` by an earlier
    /// run), or against lookups built now.
    pub(crate) fn new(
        config: &'a Config,
        content: &'a Content,
        evidence: &'a EvidenceIndex,
        theme: &'a [String],
        mode: Mode,
        lookups: Option<Arc<Lookups>>,
    ) -> Self {
        Checker {
            config,
            content,
            evidence,
            mode,
            lookups: lookups.unwrap_or_else(|| Arc::new(Lookups::new(content))),
            files: evidence
                .files
                .iter()
                .map(|(k, v)| (k.as_str(), v))
                .collect(),
            scans: content.pages.iter().map(|_| OnceLock::new()).collect(),
            theme,
            anchors: content.pages.iter().map(|_| Default::default()).collect(),
            failed_claims: content
                .failed
                .iter()
                .flat_map(|f| {
                    f.claims
                        .iter()
                        .map(|id| (id.as_str(), (f.rel.as_str(), f.parsed)))
                })
                .collect(),
        }
    }

    /// The lookups, for a later run to take.
    pub(crate) fn lookups(&self) -> Arc<Lookups> {
        self.lookups.clone()
    }

    /// Page `pi`'s chunks, scanned.
    fn scans(&self, pi: usize) -> &[ChunkScan<'a>] {
        self.scans[pi].get_or_init(|| {
            let page = &self.content.pages[pi];
            page.segments
                .iter()
                .flat_map(Segment::chunks)
                .map(|(chunk, _)| scan(chunk, &page.rel))
                .collect()
        })
    }

    /// The ordered lookups rendering shares.
    pub(crate) fn index(&self) -> Index {
        let mut claims: Vec<(&str, ClaimAt)> = self
            .lookups
            .claims
            .iter()
            .map(|(k, &v)| (k.as_str(), v))
            .collect();
        claims.sort_unstable_by_key(|&(id, _)| id);
        Index {
            // Sorted first: the map is then built from sorted input, and
            // its keys are allocated in the order they are compared.
            claims: claims
                .into_iter()
                .map(|(id, at)| (id.to_owned(), at))
                .collect(),
            cited_by: self
                .lookups
                .cited_by
                .iter()
                .map(|(path, at)| (path.clone(), at.clone()))
                .collect(),
            pages: self
                .lookups
                .pages
                .iter()
                .map(|(path, &pi)| (path.clone(), pi))
                .collect(),
        }
    }

    /// `E016` for every claim whose id an earlier claim already has.
    pub(crate) fn duplicate_ids(&self) -> Vec<Diagnostic> {
        let pages = &self.content.pages;
        self.lookups
            .duplicates
            .iter()
            .map(|at| {
                let page = &pages[at.page];
                let claim = &page.claims[at.claim];
                let first = self.lookups.claims[claim.id.as_str()];
                let fp = &pages[first.page];
                let floc = fp.src.location(fp.claims[first.claim].id_span.start);
                page.src
                    .error(
                        "E016",
                        claim.id_span.clone(),
                        format!(
                            "duplicate claim id `{}` (first defined at {floc})",
                            claim.id
                        ),
                    )
                    .with_hint("claim ids are unique on the whole site; rename one of them")
                    .with_claim(&claim.id)
            })
            .collect()
    }

    /// `W001` for every evidence file no claim cites, in path order.
    pub(crate) fn uncited_evidence(&self) -> Vec<Diagnostic> {
        let dir = &self.evidence.dir_name;
        // Pages with errors and drafts left out cite files too.
        let written: std::collections::HashSet<&str> = self
            .content
            .failed
            .iter()
            .chain(&self.content.drafts)
            .flat_map(|f| f.cites.iter().map(String::as_str))
            .collect();
        // A file a missing citation was likely meant to be (a renamed
        // log) is named in that E012's hint, not reported on its own.
        let meant: std::collections::HashSet<&str> = self
            .lookups
            .cited_by
            .keys()
            .filter(|p| self.missing(p))
            .filter_map(|p| self.meant_file(p))
            .map(|(n, _)| n)
            .collect();
        self.evidence
            .files
            .keys()
            .filter(|path| {
                !self.lookups.cited_by.contains_key(path.as_str())
                    && !written.contains(path.as_str())
                    && !meant.contains(path.as_str())
            })
            .map(|path| {
                Diagnostic::warning(
                    "W001",
                    Location::file(format!("{dir}/{path}")),
                    format!("evidence file `{dir}/{path}` is cited by no claim"),
                )
                .with_hint("cite it from a claim's `evidence`, or remove it")
            })
            .chain(self.uncited_escaping())
            .collect()
    }

    /// `W060` for every symlink out of the evidence directory that no claim
    /// cites (a cited one is `E015`): skipped, but not in silence.
    fn uncited_escaping(&self) -> Vec<Diagnostic> {
        if self.evidence.escaping.is_empty() {
            return Vec::new();
        }
        let dir = &self.evidence.dir_name;
        let through = |e: &str, path: &str| {
            path == e || path.strip_prefix(e).is_some_and(|r| r.starts_with('/'))
        };
        self.evidence
            .escaping
            .iter()
            .filter(|e| {
                !self.content.pages.iter().any(|p| {
                    p.claims
                        .iter()
                        .any(|c| c.evidence.iter().any(|l| through(e, &l.path)))
                })
            })
            .map(|e| crate::content::symlink_warning(format!("{dir}/{e}")))
            .collect()
    }

    /// E086 for every cycle in `from` (see `derive::cycles`).
    pub(crate) fn cycles(&self) -> Vec<Diagnostic> {
        super::derive::cycles(self.content, &self.lookups.claims)
    }

    fn known(&self, id: &str) -> bool {
        self.lookups.claims.contains_key(id)
    }

    /// `E020` for an unknown claim id; the suggestion is searched for only
    /// here, when there is something to report. (`nearest` breaks ties by
    /// name, so the hash map's order does not matter.)
    ///
    /// No cascades: an id defined on a page that failed to load is not
    /// unknown. If that page's front matter parsed, the claim exists and
    /// its page's own error is the one finding; if it did not, the
    /// reference cannot be checked and says so (W071, kept once per page
    /// by `validate`).
    fn unknown(&self, pi: usize, what: &str, id: &str, span: Range<usize>) -> Option<Diagnostic> {
        if let Some(&(rel, parsed)) = self.failed_claims.get(id) {
            if parsed {
                return None;
            }
            return Some(
                self.content.pages[pi]
                    .src
                    .warning(
                        "W071",
                        span,
                        format!(
                            "claim `{id}` in {what} is in `{}`, which failed to load",
                            crate::content::shown_path(rel)
                        ),
                    )
                    .with_hint("fix that page's error first; references to its claims are checked once it loads")
                    .with_about(crate::content::shown_path(rel)),
            );
        }
        let draft = self
            .content
            .drafts
            .iter()
            .find(|d| d.claims.iter().any(|c| c == id));
        let hint = match (draft, nearest(id, self.lookups.claims.keys().map(String::as_str))) {
            (Some(d), _) => format!(
                "it is on `content/{}`, a draft this build leaves out: publish that page (remove `draft = true`), build with `--drafts`, or refer to it once it is published",
                d.rel
            ),
            (None, Some(n)) => format!("did you mean `{n}`?"),
            (None, None) => "define the claim in some page's `[[claims]]`".to_owned(),
        };
        self.content.pages[pi]
            .src
            .error("E020", span, format!("unknown claim `{id}` in {what}"))
            .with_hint(hint)
            .into()
    }

    /// Every finding about page `pi`, in rule order, but those naming
    /// another page's location ([`Checker::located`]): a function of the
    /// page and of the site facts [`super::site_facts`] hashes, so that it
    /// may be remembered under those two.
    pub(crate) fn page(&self, pi: usize) -> Vec<Diagnostic> {
        let mut diags = Vec::new();
        let page = &self.content.pages[pi];
        for ci in 0..page.claims.len() {
            self.claim(
                ClaimAt {
                    page: pi,
                    claim: ci,
                },
                &mut diags,
            );
        }
        self.entity_and_scope(pi, &mut diags);
        self.view_names(pi, &mut diags);
        self.body(pi, &mut diags);
        diags
    }

    /// The findings about page `pi` that name another page's location
    /// (E023, E022, and E012 for a file other pages cite too), in rule
    /// order: they are not remembered with the page's other findings,
    /// since a line added above a claim or key elsewhere moves what they
    /// say; `validate` remembers them with the site-wide findings, under
    /// every page's front matter.
    pub(crate) fn located(&self, pi: usize) -> Vec<Diagnostic> {
        let mut diags = Vec::new();
        self.missing_evidence(pi, &mut diags);
        let content = self.content;
        let page = &content.pages[pi];
        let src = &page.src;
        for (ci, claim) in page.claims.iter().enumerate() {
            let at = ClaimAt {
                page: pi,
                claim: ci,
            };
            let current = claim.life.state == crate::content::State::Current;
            if let (Some(about), Some(aspect), true) = (&claim.about, &claim.aspect, current) {
                let first = self.lookups.cells.get(&(about.clone(), aspect.clone()));
                // A copy that kept its id is that one mistake (E016).
                let copy =
                    |first: ClaimAt| content.pages[first.page].claims[first.claim].id == claim.id;
                if let Some(&first) = first.filter(|&&first| first != at && !copy(first)) {
                    let other = &content.pages[first.page];
                    let oloc = other.src.location(other.claims[first.claim].id_span.start);
                    diags.push(
                        src.error(
                            "E023",
                            claim.id_span.clone(),
                            format!(
                                "claims `{}` and `{}` both fill the cell {about} × {aspect}",
                                other.claims[first.claim].id, claim.id
                            ),
                        )
                        .with_hint(format!(
                            "one claim per cell: if this observation replaces the one at {oloc}, mark that one `state = \"superseded\"` with `superseded-by = \"{}\"` and a `reason`; otherwise change `about` or `aspect` here or there",
                            claim.id
                        ))
                        .with_claim(&claim.id),
                    );
                }
            }
        }
        for entity in page.entity.iter().chain(&page.members) {
            let key = (entity.kind.clone(), entity.key.clone());
            if let Some(&(first, at)) = self
                .lookups
                .entities
                .get(&key)
                .filter(|&&(first, at)| (first, at) != (pi, entity.key_span.0.start))
            {
                let oloc = self.content.pages[first].src.location(at);
                diags.push(
                    src.error(
                        "E022",
                        entity.key_span.0.clone(),
                        format!(
                            "duplicate {} key `{}` (also at {oloc})",
                            entity.kind, entity.key
                        ),
                    )
                    .with_hint("entity keys are unique within their kind"),
                );
            }
        }
        diags
    }

    /// The rules of one claim; each finding names it ([`Diagnostic::claim`]),
    /// what a `[[check.accept]] claim = "…"` covers.
    fn claim(&self, at: ClaimAt, diags: &mut Vec<Diagnostic>) {
        let before = diags.len();
        self.claim_rules(at, diags);
        let id = &self.content.pages[at.page].claims[at.claim].id;
        for d in &mut diags[before..] {
            d.set_claim(id);
        }
    }

    fn claim_rules(&self, at: ClaimAt, diags: &mut Vec<Diagnostic>) {
        let (content, evidence) = (self.content, self.evidence);
        let src = &content.pages[at.page].src;
        let claim = &content.pages[at.page].claims[at.claim];
        self.placement(at.page, at.claim, diags);
        if let Some((answer, span)) = &claim.answer {
            diags.extend(self.answer(src, claim, answer, span.clone()));
        }
        let mut kinds = Vec::new();
        for link in &claim.evidence {
            if evidence.broken.contains(&link.path) {
                continue;
            }
            // A symlink anywhere on the path (file or directory) that
            // points out of the evidence directory.
            let escapes = evidence.escaping.iter().any(|e| {
                link.path == *e
                    || link
                        .path
                        .strip_prefix(e.as_str())
                        .is_some_and(|rest| rest.starts_with('/'))
            });
            if escapes {
                diags.push(
                    src.error(
                        "E015",
                        link.span.clone(),
                        format!(
                            "evidence path `{}` is a symlink that leaves the evidence directory",
                            link.path
                        ),
                    )
                    .with_hint(
                        "copy the file into the evidence directory instead of linking to it",
                    ),
                );
                continue;
            }
            // A missing file is one finding for all the claims citing it
            // (`missing_evidence`, with the site-wide findings).
            let Some(&file) = self.files.get(link.path.as_str()) else {
                continue;
            };
            kinds.push(file.kind());
            let (a, b) = link.lines.unwrap_or((1, file.line_count().max(1)));
            if link.lines.is_some() && b > file.line_count() {
                diags.push(
                    src.error(
                        "E013",
                        part(&src.text, &link.span, "lines"),
                        format!(
                            "line range {} is outside `{}/{}`, which has {} lines after its header",
                            link.fragment().trim_start_matches('#'),
                            evidence.dir_name,
                            link.path,
                            file.line_count()
                        ),
                    )
                    .with_hint(format!(
                        "lines count from 1 after the header; the last is L{}",
                        file.line_count()
                    )),
                );
                continue;
            }
            if let Some(quote) = &link.quote {
                let read = |e: std::io::Error| {
                    src.error(
                        "E043",
                        part(&src.text, &link.span, "path"),
                        format!(
                            "cannot read evidence file `{}/{}`: {e}",
                            evidence.dir_name, link.path
                        ),
                    )
                    .with_hint("the file changed or went away while it was read: run again")
                };
                let here = match file.contains(a, b, quote.as_str()) {
                    Ok(here) => here,
                    Err(e) => {
                        diags.push(read(e));
                        continue;
                    }
                };
                if !here {
                    let where_ = match link.lines {
                        Some(_) if a == b => format!("line {a} of "),
                        Some(_) => format!("lines {a}-{b} of "),
                        None => String::new(),
                    };
                    // Where the quote is now, if anywhere in the file: the
                    // commonest cause is lines inserted above the range.
                    let height = quote.lines().count().max(1);
                    let found = match file.find(quote.as_str()) {
                        Ok(found) => found,
                        Err(e) => {
                            diags.push(read(e));
                            continue;
                        }
                    };
                    // A one-line quote cited by its one line: the line it
                    // is on now is the fix, written as the link writes it.
                    let relined = match (found, link.lines) {
                        (Some(l), Some(_)) if height == 1 && a == b => {
                            relined(&src.text, &link.span, l)
                        }
                        _ => None,
                    };
                    let hint = match (found, link.lines) {
                        (Some(l), Some(_)) if height == 1 && a == b => match &relined {
                            Some((_, _, to)) => {
                                format!("the quote is on line {l} of this file now: write `{to}`")
                            }
                            None => format!(
                                "the quote is on line {l} of this file now: cite line {l}"
                            ),
                        },
                        (Some(l), _) => format!(
                            "the quote is on line {l} of this file now: move the range to cover it (or fix the quote)"
                        ),
                        (None, _) => "the evidence changed under the claim, or the range is wrong: fix one of them".to_owned(),
                    };
                    let d = src
                        .error(
                            "E014",
                            part(&src.text, &link.span, "quote"),
                            format!(
                                "quote \"{quote}\" not found in {where_}`{}/{}`",
                                evidence.dir_name, link.path
                            ),
                        )
                        .with_hint(hint);
                    diags.push(match relined {
                        Some((span, from, to)) => d.with_fix(span, &from, to),
                        None => d,
                    });
                }
            }
        }
        // A broken claim's class may be a stand-in: the rules that read it
        // would report what the writer never wrote.
        if !claim.broken
            && claim.class == Class::Confirmed
            && !kinds.is_empty()
            && kinds
                .iter()
                .all(|k| matches!(k, Some(EvidenceKind::Transcript | EvidenceKind::Note)))
        {
            diags.push(
                src.warning(
                    "W002",
                    claim.id_span.clone(),
                    format!(
                        "confirmed claim `{}` rests only on transcript or note evidence",
                        claim.id
                    ),
                )
                .with_hint(
                    "link a raw capture, or say in the evidence why a transcript is all there is",
                ),
            );
        }
        for (id, span) in &claim.from {
            if !self.known(id) {
                diags.extend(self.unknown(at.page, "`from`", id, span.clone()));
            }
        }
        if !claim.broken {
            let answered = self
                .answer_kind(claim)
                .is_some_and(|k| k != crate::config::AnswerKind::NotKnown);
            super::derive::premises(content, &self.lookups.claims, at, answered, diags);
            self.certainty(at, diags);
        }
        if let Some((id, span)) = &claim.life.superseded_by {
            if !self.known(id) {
                diags.extend(self.unknown(at.page, "`superseded-by`", id, span.clone()));
            }
        }
    }

    fn entity_and_scope(&self, pi: usize, diags: &mut Vec<Diagnostic>) {
        let page = &self.content.pages[pi];
        for entity in page.entity.iter().chain(&page.members) {
            self.entity(pi, entity, diags);
        }
        for view in &page.views {
            if !self.config.kinds.contains_key(&view.kind) && !self.config.unread.kind(&view.kind) {
                diags.push(self.unknown_kind(pi, &view.kind, view.kind_span.0.clone()));
            }
        }
        if let Some(scope) = &page.scope {
            for (id, span) in scope.can.iter().chain(&scope.cannot) {
                if !self.known(id) {
                    diags.extend(self.unknown(pi, "`scope`", id, span.0.clone()));
                }
            }
        }
    }

    fn unknown_kind(&self, pi: usize, kind: &str, span: std::ops::Range<usize>) -> Diagnostic {
        let kinds = &self.config.kinds;
        let hint = match nearest(kind, kinds.keys().map(String::as_str)) {
            Some(n) => format!("did you mean `{n}`?"),
            None => "declare the kind under `[kinds]` in book.toml".to_owned(),
        };
        self.content.pages[pi]
            .src
            .error("E021", span, format!("unknown entity kind `{kind}`"))
            .with_hint(hint)
    }

    /// An entity's kind, status and `depends-on` relation (its key's
    /// uniqueness is in [`Checker::located`]).
    fn entity(&self, pi: usize, entity: &crate::content::Entity, diags: &mut Vec<Diagnostic>) {
        let src = &self.content.pages[pi].src;
        if !self.config.kinds.contains_key(&entity.kind) && !self.config.unread.kind(&entity.kind) {
            diags.push(self.unknown_kind(pi, &entity.kind, entity.kind_span.0.clone()));
        }
        if let Some((id, span)) = &entity.status {
            if !self.known(id) {
                diags.extend(self.unknown(pi, "entity `status`", id, span.0.clone()));
            }
        }
        for (dep, span) in &entity.depends_on {
            if self
                .lookups
                .entities
                .contains_key(&(entity.kind.clone(), dep.clone()))
            {
                continue;
            }
            let same_kind = self
                .lookups
                .entities
                .keys()
                .filter(|(k, _)| *k == entity.kind)
                .map(|(_, key)| key.as_str());
            let hint = match nearest(dep, same_kind) {
                Some(n) => format!("did you mean `{n}`?"),
                None => format!(
                    "`depends-on` names entities of the same kind ({}) by key",
                    entity.kind
                ),
            };
            diags.push(
                src.error(
                    "E090",
                    span.0.clone(),
                    format!("unknown {} `{dep}` in `depends-on`", entity.kind),
                )
                .with_hint(hint),
            );
        }
    }
}

/// Where a finding about one key of an evidence link points: in the
/// inline-table form (`{ path = "…", lines = "3-4", quote = "…" }`), that
/// key's value, so the caret marks what to change; otherwise the link.
fn part(text: &str, span: &Range<usize>, key: &str) -> Range<usize> {
    let Some(link) = text.get(span.clone()) else {
        return span.clone();
    };
    if !link.trim_start().starts_with('{') {
        return span.clone();
    }
    let mut from = 0;
    while let Some(i) = link[from..].find(key) {
        let at = from + i;
        from = at + key.len();
        let before = link[..at].trim_end();
        if !(before.ends_with('{') || before.ends_with(',')) {
            continue;
        }
        let rest = &link[from..];
        let Some(eq) = rest.trim_start().strip_prefix('=') else {
            continue;
        };
        let value = eq.trim_start();
        let start = span.start + link.len() - value.len();
        let len = if let Some(q) = value.strip_prefix('"') {
            q.find('"').map_or(value.len(), |e| e + 2)
        } else {
            value.find([',', '}', ' ']).unwrap_or(value.len())
        };
        return start..start + len;
    }
    span.clone()
}

/// The `lines = …` of the inline-table link at `span` of `text`, and the
/// same citing line `l` instead, its value written as before (a string
/// stays a string): `None` when the link has no such key.
fn relined(text: &str, span: &Range<usize>, l: usize) -> Option<(Range<usize>, String, String)> {
    let value = part(text, span, "lines");
    if value == *span {
        return None;
    }
    let key = span.start + text[span.start..value.start].rfind("lines")?;
    let old = &text[value.clone()];
    let new = match old.chars().next()? {
        q @ ('"' | '\'') => format!("{q}{l}{q}"),
        _ => l.to_string(),
    };
    let from = &text[key..value.end];
    Some((
        key..value.end,
        from.to_owned(),
        format!("{}{new}", &text[key..value.start]),
    ))
}

#[cfg(test)]
mod tests {

    #[test]
    fn findings_on_an_inline_table_link_point_at_their_key() {
        let text = r#"evidence = [{ path = "logs/a.log", lines = "3-4", quote = "out put" }]"#;
        let span = 12..text.len() - 1;
        let at = |key| &text[super::part(text, &span, key)];
        assert_eq!(at("path"), r#""logs/a.log""#);
        assert_eq!(at("lines"), r#""3-4""#);
        assert_eq!(at("quote"), r#""out put""#);
        let short = r#"evidence = ["logs/a.log#L3"]"#;
        assert_eq!(
            &short[super::part(short, &(12..27), "lines")],
            r#""logs/a.log#L3""#
        );
        let bare = "{ path = \"a\", lines = 7 }";
        assert_eq!(&bare[super::part(bare, &(0..bare.len()), "lines")], "7");
    }
}
