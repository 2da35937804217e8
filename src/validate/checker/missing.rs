//! E012, a cited evidence file that is not there: one finding for all the
//! claims citing it (issue 40, trial L18). Part of [`super::Checker`]'s
//! site-wide findings (`located`), since it reads which other claims cite
//! the file.

use super::{nearest, part, Checker, ClaimAt, Diagnostic};

impl<'a> Checker<'a> {
    /// Whether a link to `path` finds no file (and is not one the rules
    /// about broken or escaping files report).
    pub(super) fn missing(&self, path: &str) -> bool {
        let evidence = self.evidence;
        !self.files.contains_key(path)
            && !evidence.broken.iter().any(|b| b == path)
            && !evidence.escaping.iter().any(|e| {
                path == e
                    || path
                        .strip_prefix(e.as_str())
                        .is_some_and(|r| r.starts_with('/'))
            })
    }

    /// The evidence file a missing one was likely meant to be (renamed),
    /// and whether a claim cites that file.
    pub(super) fn meant_file(&self, path: &str) -> Option<(&'a str, bool)> {
        let n = nearest(path, self.evidence.files.keys().map(String::as_str))?;
        let (n, _) = self.evidence.files.get_key_value(n)?;
        Some((n.as_str(), self.lookups.cited_by.contains_key(n.as_str())))
    }

    /// E012 for each evidence file page `pi` cites that is not there: one
    /// finding for every claim citing it, on the first (on a published
    /// page, if any), naming them all. A renamed log is one mistake, not
    /// one per citation; its new name, which no claim cites, is the hint
    /// (and not a W001 of its own, see [`Checker::uncited_evidence`]).
    pub(super) fn missing_evidence(&self, pi: usize, diags: &mut Vec<Diagnostic>) {
        let content = self.content;
        let dir = &self.evidence.dir_name;
        let page = &content.pages[pi];
        let first_link = |at: ClaimAt, path: &str| {
            content.pages[at.page].claims[at.claim]
                .evidence
                .iter()
                .find(|l| l.path == path)
        };
        let mut done: Vec<&str> = Vec::new();
        for (ci, claim) in page.claims.iter().enumerate() {
            for link in &claim.evidence {
                let path = link.path.as_str();
                if done.contains(&path) || !self.missing(path) {
                    continue;
                }
                let mut citing: Vec<ClaimAt> =
                    self.lookups.cited_by.get(path).cloned().unwrap_or_default();
                citing.dedup();
                let reporter = citing
                    .iter()
                    .find(|at| !content.pages[at.page].draft)
                    .or(citing.first())
                    .copied();
                if reporter
                    != Some(ClaimAt {
                        page: pi,
                        claim: ci,
                    })
                {
                    continue;
                }
                done.push(path);
                let src = &page.src;
                let mut message = format!("evidence file `{dir}/{path}` not found");
                if citing.len() > 1 {
                    let named: Vec<String> = citing
                        .iter()
                        .map(|&at| {
                            let p = &content.pages[at.page];
                            let line = first_link(at, path)
                                .map_or(p.claims[at.claim].id_span.start, |l| l.span.start);
                            format!(
                                "`{}` ({}:{})",
                                p.claims[at.claim].id,
                                p.src.rel,
                                p.src.location(line).line
                            )
                        })
                        .collect();
                    message.push_str(&format!(
                        "; {} claims cite it: {}",
                        citing.len(),
                        named.join(", ")
                    ));
                }
                let hint = match self.meant_file(path) {
                    Some((n, false)) if citing.len() > 1 => format!("did you mean `{n}`, which no claim cites? If the file was renamed, write its new name in each of these links"),
                    Some((n, false)) => format!("did you mean `{n}`, which no claim cites? If the file was renamed, write its new name here"),
                    Some((n, true)) => format!("did you mean `{n}`?"),
                    None => format!("add the file under `{dir}/`"),
                };
                // A draft may be written before its evidence is in.
                let published = citing.iter().any(|at| !content.pages[at.page].draft);
                let span = part(&src.text, &link.span, "path");
                let d = if published {
                    src.error("E012", span, message)
                } else {
                    src.warning("E012", span, message)
                };
                diags.push(d.with_hint(hint));
            }
        }
    }
}
