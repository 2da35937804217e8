//! Validation: resolving claims against evidence and against each other.
//!
//! Every rule pushes findings and goes on (never fail-fast); the caller
//! decides what errors mean. This stage reads the loaded values only: no
//! files are read or written here.

use crate::config::Config;
use crate::content::body::{anchors, scan_refs, Chunk, IdSet, Reference};
use crate::content::claims::nearest;
use crate::content::{Class, Content, Segment};
use crate::error::Diagnostic;
use crate::evidence::{EvidenceIndex, EvidenceKind};
use crate::lang::Lang;
use std::collections::{BTreeMap, BTreeSet};

/// Which command is asking: decides the severity of untranslated segments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// `build` and `serve`: untranslated segments are warnings.
    Build,
    /// `check`: untranslated segments are errors.
    Check,
}

/// Where a claim is defined: page index and claim index in that page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct ClaimAt {
    /// Index into `Content::pages`.
    pub page: usize,
    /// Index into that page's claims.
    pub claim: usize,
}

/// Lookups built once and shared by rendering.
#[derive(Debug, Clone, Default)]
pub struct Index {
    /// Every claim id.
    pub claims: BTreeMap<String, ClaimAt>,
    /// Evidence path → the claims citing it, in page then claim order.
    pub cited_by: BTreeMap<String, Vec<ClaimAt>>,
    /// Content-relative page path → page index.
    pub pages: BTreeMap<String, usize>,
}

/// Checks the site and returns the lookups with every finding.
pub fn validate(
    config: &Config,
    content: &Content,
    evidence: &EvidenceIndex,
    mode: Mode,
) -> (Index, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let mut index = Index::default();
    for (pi, page) in content.pages.iter().enumerate() {
        index.pages.insert(page.rel.clone(), pi);
        for (ci, claim) in page.claims.iter().enumerate() {
            let at = ClaimAt {
                page: pi,
                claim: ci,
            };
            if let Some(first) = index.claims.get(&claim.id) {
                let fp = &content.pages[first.page];
                let floc = fp.src.location(fp.claims[first.claim].id_span.start);
                diags.push(
                    page.src
                        .error(
                            "E016",
                            claim.id_span.clone(),
                            format!(
                                "duplicate claim id `{}` (first defined at {floc})",
                                claim.id
                            ),
                        )
                        .with_hint("claim ids are unique on the whole site; rename one of them"),
                );
            } else {
                index.claims.insert(claim.id.clone(), at);
            }
        }
    }
    let known = |id: &str| index.claims.contains_key(id);
    let mut cited: BTreeSet<&str> = BTreeSet::new();
    let mut entity_keys: BTreeMap<(&str, &str), (usize, usize)> = BTreeMap::new();
    let mut cells: BTreeMap<(&str, &str), (usize, usize)> = BTreeMap::new();
    let mut anchor_cache: std::collections::HashMap<(usize, Lang), IdSet> =
        std::collections::HashMap::new();
    for (pi, page) in content.pages.iter().enumerate() {
        let src = &page.src;
        let unknown = |what: &str, id: &str, span: std::ops::Range<usize>| {
            let hint = match nearest(id, index.claims.keys().map(String::as_str)) {
                Some(n) => format!("did you mean `{n}`?"),
                None => "define the claim in some page's `[[claims]]`".to_owned(),
            };
            src.error("E020", span, format!("unknown claim `{id}` in {what}"))
                .with_hint(hint)
        };
        for (ci, claim) in page.claims.iter().enumerate() {
            let at = ClaimAt {
                page: pi,
                claim: ci,
            };
            let mut kinds = Vec::new();
            for link in &claim.evidence {
                index
                    .cited_by
                    .entry(link.path.clone())
                    .or_default()
                    .push(at);
                cited.insert(link.path.as_str());
                if evidence.broken.contains(&link.path) {
                    continue;
                }
                // A symlink anywhere on the path (file or directory) that
                // points out of the evidence directory.
                let escapes = evidence
                    .escaping
                    .iter()
                    .any(|e| link.path == *e || link.path.starts_with(&format!("{e}/")));
                if escapes {
                    diags.push(
                        src.error("E015", link.span.clone(), format!("evidence path `{}` is a symlink that leaves the evidence directory", link.path))
                            .with_hint("copy the file into the evidence directory instead of linking to it"),
                    );
                    continue;
                }
                let Some(file) = evidence.files.get(&link.path) else {
                    let hint = match nearest(&link.path, evidence.files.keys().map(String::as_str))
                    {
                        Some(n) => format!("did you mean `{n}`?"),
                        None => format!("add the file under `{}/`", evidence.dir_name),
                    };
                    diags.push(
                        src.error(
                            "E012",
                            link.span.clone(),
                            format!(
                                "evidence file `{}/{}` not found",
                                evidence.dir_name, link.path
                            ),
                        )
                        .with_hint(hint),
                    );
                    continue;
                };
                kinds.push(file.kind());
                let (a, b) = link.lines.unwrap_or((1, file.line_count().max(1)));
                if link.lines.is_some() && b > file.line_count() {
                    diags.push(
                        src.error(
                            "E013",
                            link.span.clone(),
                            format!("line range {} is outside `{}/{}`, which has {} lines after its header", link.fragment().trim_start_matches('#'), evidence.dir_name, link.path, file.line_count()),
                        )
                        .with_hint(format!("lines count from 1 after the header; the last is L{}", file.line_count())),
                    );
                    continue;
                }
                if let Some(quote) = &link.quote {
                    if !file.lines(a, b).contains(quote.as_str()) {
                        let where_ = match link.lines {
                            Some(_) if a == b => format!("line {a} of "),
                            Some(_) => format!("lines {a}-{b} of "),
                            None => String::new(),
                        };
                        diags.push(
                            src.error("E014", link.span.clone(), format!("quote \"{quote}\" not found in {where_}`{}/{}`", evidence.dir_name, link.path))
                                .with_hint("the evidence changed under the claim, or the range is wrong: fix one of them"),
                        );
                    }
                }
            }
            if claim.class == Class::Confirmed
                && !kinds.is_empty()
                && kinds
                    .iter()
                    .all(|k| matches!(k, Some(EvidenceKind::Transcript | EvidenceKind::Note)))
            {
                diags.push(
                    src.warning("W002", claim.id_span.clone(), format!("confirmed claim `{}` rests only on transcript or note evidence", claim.id))
                        .with_hint("link a raw capture, or say in the evidence why a transcript is all there is"),
                );
            }
            for (id, span) in &claim.from {
                if !known(id) {
                    diags.push(unknown("`from`", id, span.clone()));
                }
            }
            if let (Some(about), Some(aspect)) = (&claim.about, &claim.aspect) {
                if let Some(&(fp, fc)) = cells.get(&(about.as_str(), aspect.as_str())) {
                    let other = &content.pages[fp];
                    let oloc = other.src.location(other.claims[fc].id_span.start);
                    diags.push(
                        src.error(
                            "E023",
                            claim.id_span.clone(),
                            format!(
                                "claims `{}` and `{}` both fill the cell {about} × {aspect}",
                                other.claims[fc].id, claim.id
                            ),
                        )
                        .with_hint(format!(
                            "one claim per cell: change `about` or `aspect` here or at {oloc}"
                        )),
                    );
                } else {
                    cells.insert((about.as_str(), aspect.as_str()), (pi, ci));
                }
            }
        }
        if let Some(entity) = &page.entity {
            if !config.kinds.contains_key(&entity.kind) {
                let hint = match nearest(&entity.kind, config.kinds.keys().map(String::as_str)) {
                    Some(n) => format!("did you mean `{n}`?"),
                    None => "declare the kind under `[kinds]` in book.toml".to_owned(),
                };
                diags.push(
                    src.error(
                        "E021",
                        entity.kind_span.clone(),
                        format!("unknown entity kind `{}`", entity.kind),
                    )
                    .with_hint(hint),
                );
            }
            if let Some(&(fp, _)) = entity_keys.get(&(entity.kind.as_str(), entity.key.as_str())) {
                let other = &content.pages[fp];
                let oloc = other
                    .src
                    .location(other.entity.as_ref().map_or(0, |e| e.key_span.start));
                diags.push(
                    src.error(
                        "E022",
                        entity.key_span.clone(),
                        format!(
                            "duplicate {} key `{}` (also at {oloc})",
                            entity.kind, entity.key
                        ),
                    )
                    .with_hint("entity keys are unique within their kind"),
                );
            } else {
                entity_keys.insert((entity.kind.as_str(), entity.key.as_str()), (pi, 0));
            }
            if let Some((id, span)) = &entity.status {
                if !known(id) {
                    diags.push(unknown("entity `status`", id, span.clone()));
                }
            }
        }
        if let Some(scope) = &page.scope {
            for (id, span) in scope.can.iter().chain(&scope.cannot) {
                if !known(id) {
                    diags.push(unknown("`scope`", id, span.clone()));
                }
            }
        }
        for seg in &page.segments {
            let both = vec![Lang::Ja, Lang::En];
            let chunks: Vec<(&Chunk, Vec<Lang>)> = match seg {
                Segment::Shared(c) => vec![(c, both)],
                Segment::Pair { ja, en } => vec![(ja, vec![Lang::Ja]), (en, vec![Lang::En])],
                Segment::Untranslated {
                    lang,
                    chunk,
                    opener,
                } => {
                    let end = src.text[*opener..]
                        .find('\n')
                        .map_or(src.text.len(), |i| opener + i);
                    let msg = format!(
                        "untranslated segment: this `::: {lang}` block has no `::: {}` partner",
                        lang.other()
                    );
                    let hint = format!("add a `::: {}` block right after this one", lang.other());
                    diags.push(
                        match mode {
                            Mode::Check => src.error("E032", *opener..end, msg),
                            Mode::Build => src.warning("E032", *opener..end, msg),
                        }
                        .with_hint(hint),
                    );
                    vec![(chunk, both)]
                }
            };
            for (chunk, langs) in chunks {
                for (r, span) in scan_refs(chunk, &page.rel) {
                    match r {
                        Reference::Claim(id) if !known(&id) => {
                            diags.push(unknown("`[[claim:…]]`", &id, span))
                        }
                        Reference::Claim(_) => {}
                        Reference::BadDot(msg) => {
                            let first = msg.lines().last().unwrap_or("").trim().to_owned();
                            diags.push(
                                src.error(
                                    "E050",
                                    span,
                                    format!("`dot` diagram does not parse (the dot parser says: {first})"),
                                )
                                .with_hint("check the brackets and edges; a minimal graph is `digraph { a -> b }`"),
                            );
                        }
                        Reference::Page(path, anchor) => {
                            let Some(&target) = index.pages.get(&path) else {
                                if content.failed.contains(&path) {
                                    continue;
                                }
                                let hint =
                                    match nearest(&path, index.pages.keys().map(String::as_str)) {
                                        Some(n) => format!("did you mean `{n}`?"),
                                        None => {
                                            "link to a file under content/, e.g. `/notes/first.md`"
                                                .to_owned()
                                        }
                                    };
                                diags.push(
                                    src.error(
                                        "E030",
                                        span,
                                        format!("link to missing page `content/{path}`"),
                                    )
                                    .with_hint(hint),
                                );
                                continue;
                            };
                            let Some(anchor) = anchor else { continue };
                            let tp = &content.pages[target];
                            if tp
                                .claims
                                .iter()
                                .any(|c| format!("claim-{}", c.id) == anchor)
                            {
                                continue;
                            }
                            for &lang in &langs {
                                let ids = anchor_cache
                                    .entry((target, lang))
                                    .or_insert_with(|| anchors(&tp.segments, lang));
                                if !ids.contains(&anchor) {
                                    let mut known_ids: Vec<&String> = ids.iter().collect();
                                    known_ids.sort();
                                    let hint = match nearest(&anchor, known_ids.iter().map(|s| s.as_str())) {
                                        Some(n) => format!("did you mean `#{n}`?"),
                                        None => "link to a heading id of that page, or give the heading one with `{#id}`".to_owned(),
                                    };
                                    diags.push(
                                        src.error("E030", span.clone(), format!("anchor `#{anchor}` not found in the {lang} page of `content/{path}`"))
                                            .with_hint(hint),
                                    );
                                    break;
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    for path in evidence.files.keys() {
        if !cited.contains(path.as_str()) {
            diags.push(
                crate::error::Diagnostic::warning(
                    "W001",
                    crate::error::Location::file(format!("{}/{path}", evidence.dir_name)),
                    format!(
                        "evidence file `{}/{path}` is cited by no claim",
                        evidence.dir_name
                    ),
                )
                .with_hint("cite it from a claim's `evidence`, or remove it"),
            );
        }
    }
    sort(&mut diags);
    (index, diags)
}

/// Sorts findings by file, line and column, keeping rule order for ties.
pub fn sort(diags: &mut [Diagnostic]) {
    diags.sort_by(|a, b| a.location.cmp(&b.location));
}

/// A loaded and validated site: what rendering consumes.
#[derive(Debug, Clone)]
pub struct Site {
    /// Configuration.
    pub config: Config,
    /// Pages.
    pub content: Content,
    /// Evidence files.
    pub evidence: EvidenceIndex,
    /// Lookups.
    pub index: Index,
}

impl Site {
    /// The claim at a place.
    pub fn claim(&self, at: ClaimAt) -> &crate::content::Claim {
        &self.content.pages[at.page].claims[at.claim]
    }
}
