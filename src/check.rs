//! `check`: every rule, nothing written, findings in three formats.
//!
//! The rules themselves live in loading and `validate`; this module runs
//! them in `check` mode and formats the findings for people (human), other
//! tools (json, one object per line) and GitHub Actions (annotations).

use crate::accept::{triage, Accepted};
use crate::error::{Diagnostic, Error, Severity};
use crate::validate::{Mode, Site};
use rayon::prelude::*;
use serde::Serialize;
use std::path::Path;

/// How findings are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `path:line:col: error[CODE]: …` with the source line and a hint.
    Human,
    /// One JSON object per line.
    Json,
    /// `::error file=…,line=…,col=…::…` workflow commands.
    Github,
}

/// The outcome of a check.
#[derive(Debug, Default)]
pub struct Report {
    /// Every finding not accepted: errors first, each group sorted by
    /// file, line and column.
    pub diagnostics: Vec<Diagnostic>,
    /// Findings set aside by `[[check.accept]]`, counted, not listed.
    pub accepted: Vec<Accepted>,
    /// Drafts a build without `--drafts` leaves out (check reads them).
    pub drafts: usize,
    /// Evidence files a build without `--drafts` leaves out because only
    /// drafts cite them: not W001 (they are cited), but said in the
    /// summary, so that nobody expects them published.
    pub drafts_evidence: usize,
}

impl Report {
    /// Number of errors.
    pub fn errors(&self) -> usize {
        self.diagnostics.iter().filter(|d| d.is_error()).count()
    }

    /// Number of warnings.
    pub fn warnings(&self) -> usize {
        self.diagnostics.len() - self.errors()
    }

    /// Process exit code: 0 clean (warnings allowed), 1 content errors.
    pub fn exit_code(&self) -> u8 {
        u8::from(self.errors() > 0)
    }
}

/// Runs every rule on the site at `root`. `Err` only for usage or I/O
/// failures (exit code 2); content problems are in the report.
pub fn check(root: &Path) -> Result<Report, Error> {
    check_with(root, free, &mut crate::site::Caches::unrendered())
}

/// [`check`] with the parsed theme kept in `theme` between calls, for a
/// caller that checks many sites in one process (the integration tests;
/// see [`crate::site::KeptTheme`]). Its caches are a build's, which also
/// hash what they read for render keys; the findings are [`check`]'s.
pub fn check_keeping_theme(
    root: &Path,
    theme: &mut crate::site::KeptTheme,
) -> Result<Report, Error> {
    let mut caches = crate::site::Caches::once();
    caches.swap_theme(theme.cache());
    let report = check_with(root, free, &mut caches);
    caches.swap_theme(theme.cache());
    report
}

/// [`check`] for a process that exits right after it (`kansoku check`):
/// the loaded site is left to the exit to reclaim instead of being freed
/// allocation by allocation, which took about a tenth of its time on a
/// 10,000-page site. Any other caller would leak it: use [`check`].
pub fn check_then_exit(root: &Path) -> Result<Report, Error> {
    check_with(
        root,
        std::mem::forget,
        &mut crate::site::Caches::unrendered(),
    )
}

fn check_with(
    root: &Path,
    free: fn(Option<Site>),
    caches: &mut crate::site::Caches,
) -> Result<Report, Error> {
    use crate::site::plan::{Errors, Nothing, Plan, Until};
    use crate::site::run::run;
    // Every rule of a build but rendering: the theme is part of the site
    // (a broken template override or Fluent file must fail check, not only
    // build), and output paths are known without rendering, so two sources
    // claiming one (E042) are found here too.
    let plan = Plan {
        until: Until::Checked,
        errors: Errors::Report,
        ..Plan::load(Mode::Check)
    };
    let (site, diagnostics) = match run(root, &plan, caches, |_, _| Ok(Nothing)) {
        Ok((ran, _)) => (Some(ran.site), ran.diagnostics),
        Err(Error::Content(diagnostics)) => (None, diagnostics),
        Err(e) => return Err(e),
    };
    let (drafts, drafts_evidence) = site.as_ref().map_or((0, 0), left_out);
    // Without a site, `book.toml` could not be read at all (a mistake in
    // it is a finding beside the site): nothing to accept by.
    let accept = site
        .as_ref()
        .map(|site| site.config.accept.clone())
        .unwrap_or_default();
    // Freeing a large site takes a while: on both threads.
    free(site);
    let t = triage(&accept, diagnostics);
    Ok(Report {
        diagnostics: t.shown,
        accepted: t.accepted,
        drafts,
        drafts_evidence,
    })
}

/// The drafts of `site` (loaded with them) and the evidence files only
/// they cite: what a build without `--drafts` leaves out.
fn left_out(site: &Site) -> (usize, usize) {
    let (drafts, published): (Vec<_>, Vec<_>) = site.content.pages.iter().partition(|p| p.draft);
    let cites = |pages: Vec<&std::sync::Arc<crate::content::Page>>| -> Vec<String> {
        pages
            .into_iter()
            .flat_map(|p| &p.claims)
            .flat_map(|c| c.evidence.iter().map(|l| l.path.clone()))
            .collect()
    };
    let (by_drafts, by_published) = (cites(drafts.clone()), cites(published));
    let evidence = crate::site::drafts_only_evidence(
        by_published
            .iter()
            .chain(site.content.failed.iter().flat_map(|f| &f.cites)),
        by_drafts.iter(),
        &site.evidence,
    );
    (drafts.len(), evidence.len())
}

impl Report {
    /// A report of `diagnostics` with the acceptances of `accept` applied.
    pub fn triaged(accept: &[crate::config::Acceptance], diagnostics: Vec<Diagnostic>) -> Self {
        let t = triage(accept, diagnostics);
        Report {
            diagnostics: t.shown,
            accepted: t.accepted,
            ..Report::default()
        }
    }

    /// Number of accepted findings.
    pub fn accepted_count(&self) -> usize {
        self.accepted.iter().map(|a| a.diagnostics.len()).sum()
    }
}

/// Frees a loaded site on every thread: freed on one, the allocations of
/// a 10,000-page site took about a tenth of `check`.
fn free(site: Option<Site>) {
    if let Some(site) = site {
        let Site {
            content, evidence, ..
        } = site;
        rayon::join(
            || content.pages.into_par_iter().for_each(drop),
            || evidence.files.into_par_iter().for_each(drop),
        );
    }
}

#[derive(Serialize)]
struct JsonFinding<'a> {
    code: &'a str,
    severity: Severity,
    path: &'a str,
    line: usize,
    col: usize,
    message: &'a str,
    hint: Option<&'a str>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    accepted: bool,
}

/// Formats findings, errors first, plus a closing count line (human and
/// GitHub; JSON stays one finding per line). Accepted findings are counted
/// with their reason, not listed.
pub fn format(report: &Report, format: Format) -> String {
    format_with(report, format, false)
}

/// [`format`], listing accepted findings too when `all` (`check --all`).
pub fn format_with(report: &Report, format: Format, all: bool) -> String {
    if format == Format::Github {
        return github(report, all, None);
    }
    let mut out = String::new();
    let mut shown: Vec<&Diagnostic> = report.diagnostics.iter().collect();
    // Errors first whatever order the caller's list is in (stable).
    shown.sort_by_key(|d| d.severity);
    for d in shown {
        finding(&mut out, d, format, false);
    }
    for a in &report.accepted {
        if format == Format::Human {
            out.push_str(&accepted_line(a));
            out.push('\n');
            if all {
                out.push('\n');
            }
        }
        if all {
            for d in &a.diagnostics {
                finding(&mut out, d, format, true);
            }
        }
    }
    match format {
        Format::Human => {
            if !report.accepted.is_empty() && !all {
                out.push_str("(`kansoku check --all` lists the accepted findings)\n");
            }
            out.push_str(&summary(report));
            out.push('\n');
        }
        Format::Github | Format::Json => {}
    }
    out
}

/// How many annotations of each level (error, warning, notice) GitHub
/// shows for one step; it drops the rest, and shows at most 50 a job.
pub const GITHUB_ANNOTATIONS_PER_STEP: usize = 10;

/// `check --format github`: a workflow command per finding, as many of
/// each level as GitHub shows for a step, the rest as plain lines of the
/// log (a command GitHub drops is a finding no one sees), then a notice
/// with the counts that says how many more there are and where: in the
/// job summary when `summary` names it (see [`github_summary`]), else in
/// the log.
pub fn format_github(report: &Report, all: bool, summary: Option<&str>) -> String {
    github(report, all, summary)
}

fn github(report: &Report, all: bool, summary_at: Option<&str>) -> String {
    let mut findings: Vec<(&'static str, &Diagnostic)> = Vec::new();
    let mut shown: Vec<&Diagnostic> = report.diagnostics.iter().collect();
    shown.sort_by_key(|d| d.severity);
    for d in shown {
        findings.push((if d.is_error() { "error" } else { "warning" }, d));
    }
    if all {
        // An accepted finding is known: a notice, not a warning.
        for a in &report.accepted {
            findings.extend(a.diagnostics.iter().map(|d| ("notice", d)));
        }
    }
    let mut out = String::new();
    let mut used = [
        ("error", 0usize, 0usize),
        ("warning", 0, 0),
        ("notice", 0, 0),
    ];
    // The closing notice is one of the step's notices.
    let room = |level: &str| match level {
        "notice" => GITHUB_ANNOTATIONS_PER_STEP - 1,
        _ => GITHUB_ANNOTATIONS_PER_STEP,
    };
    for (level, d) in findings {
        let slot = used.iter_mut().find(|u| u.0 == level).expect("a level");
        if slot.1 < room(level) {
            slot.1 += 1;
            finding(&mut out, d, Format::Github, level == "notice");
        } else {
            slot.2 += 1;
            out.push_str(&plain_line(d));
        }
    }
    let mut notice = summary(report);
    let more: Vec<String> = used
        .iter()
        .filter(|u| u.2 > 0)
        .map(|u| format!("{} more {}{}", u.2, u.0, if u.2 == 1 { "" } else { "s" }))
        .collect();
    if !more.is_empty() {
        let place = match summary_at {
            Some(_) => "the job summary lists every finding",
            None => "the log lists every finding",
        };
        notice.push_str(&format!(
            ". GitHub shows {GITHUB_ANNOTATIONS_PER_STEP} annotations of each kind per step: {} not shown here; {place}",
            more.join(", ")
        ));
    }
    out.push_str(&format!(
        "::notice title=kansoku check::{}\n",
        gh_data(&notice)
    ));
    out
}

/// One finding on one line of a log, shown as a terminal shows it.
fn plain_line(d: &Diagnostic) -> String {
    let level = if d.is_error() { "error" } else { "warning" };
    let mut line = format!(
        "{}: {level}[{}]: {}",
        crate::error::visible(&d.location.to_string()),
        d.code,
        crate::error::visible(&d.message)
    );
    if let Some(h) = &d.hint {
        line.push_str(&format!(" (hint: {})", crate::error::visible(h)));
    }
    line.push('\n');
    line
}

/// The most a step's summary may hold on GitHub is 1 MiB; past this many
/// bytes the table stops and says how many findings it leaves out.
const SUMMARY_BUDGET: usize = 900 * 1024;

/// Every finding as a Markdown table, for `$GITHUB_STEP_SUMMARY`: where,
/// code, message and hint, each cell escaped so that no text from a
/// site's files can end a cell (`|`), a row (a line break) or the table,
/// or become HTML, a link or emphasis. Accepted findings are counted; with
/// `all` (`check --all`) they are listed too.
pub fn github_summary(report: &Report, all: bool) -> String {
    let mut out = String::from("### kansoku check\n\n");
    out.push_str(&md_cell(&summary(report)));
    out.push_str("\n\n");
    let mut shown: Vec<(&Diagnostic, bool)> =
        report.diagnostics.iter().map(|d| (d, false)).collect();
    shown.sort_by_key(|(d, _)| d.severity);
    if all {
        for a in &report.accepted {
            shown.extend(a.diagnostics.iter().map(|d| (d, true)));
        }
    }
    if !shown.is_empty() {
        out.push_str("| where | code | message | hint |\n|---|---|---|---|\n");
    }
    let total = shown.len();
    for (i, (d, accepted)) in shown.into_iter().enumerate() {
        let level = match (d.is_error(), accepted) {
            (true, _) => "error",
            (false, true) => "accepted",
            (false, false) => "warning",
        };
        let row = format!(
            "| {} | {} {} | {} | {} |\n",
            md_cell(&d.location.to_string()),
            md_cell(d.code),
            level,
            md_cell(&d.message),
            md_cell(d.hint.as_deref().unwrap_or(""))
        );
        if out.len() + row.len() > SUMMARY_BUDGET {
            out.push_str(&format!(
                "\n… and {} more findings, past the size GitHub allows a summary: `kansoku check` lists them all.\n",
                total - i
            ));
            return out;
        }
        out.push_str(&row);
    }
    for a in &report.accepted {
        out.push_str(&format!("\n{}\n", md_cell(&accepted_line(a))));
    }
    out
}

/// Text as one Markdown table cell that reads as the terminal shows it:
/// control and format characters written out (`\u{1b}`, line breaks
/// included), HTML's `&`, `<` and `>` as entities, and `|` and the
/// characters that make links, emphasis and code escaped with `\`.
pub(crate) fn md_cell(s: &str) -> String {
    let s = crate::error::visible(s);
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            // An entity, not `\@`: GitHub links a mention in text either way.
            '@' => out.push_str("&#64;"),
            '|' | '\\' | '`' | '*' | '_' | '[' | ']' | '(' | ')' | '!' | '~' | '#' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

/// `90 W002 accepted: <reason>`.
pub fn accepted_line(a: &Accepted) -> String {
    format!("{} {} accepted: {}", a.diagnostics.len(), a.code, a.reason)
}

fn finding(out: &mut String, d: &Diagnostic, format: Format, accepted: bool) {
    {
        match format {
            Format::Human => {
                out.push_str(&d.to_string());
                out.push_str("\n\n");
            }
            Format::Json => {
                let f = JsonFinding {
                    code: d.code,
                    severity: d.severity,
                    path: &d.location.path,
                    line: d.location.line,
                    col: d.location.col,
                    message: &d.message,
                    hint: d.hint.as_deref(),
                    accepted,
                };
                out.push_str(
                    &serde_json::to_string(&f)
                        .expect("findings serialise: strings and numbers only"),
                );
                out.push('\n');
            }
            Format::Github => {
                // An accepted finding is known: a notice, not a warning.
                let level = match (d.is_error(), accepted) {
                    (true, _) => "error",
                    (false, true) => "notice",
                    (false, false) => "warning",
                };
                let mut msg = d.message.clone();
                if let Some(h) = &d.hint {
                    msg.push_str(&format!(" (hint: {h})"));
                }
                out.push_str(&format!(
                    "::{level} file={},line={},col={},title={}::{}\n",
                    gh_property(&d.location.path),
                    d.location.line,
                    d.location.col,
                    gh_property(d.code),
                    gh_data(&msg)
                ));
            }
        }
    }
}

/// Findings for a build's terminal: at most `per_code` shown in full for
/// each code, then one line saying how many more there are, so a site with
/// a known, accepted warning on every page still has a readable build log.
pub fn brief(diags: &[Diagnostic], per_code: usize) -> String {
    let mut out = String::new();
    let mut shown: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    let mut hidden: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    for d in diags {
        let n = shown.entry(d.code).or_default();
        if *n < per_code {
            *n += 1;
            out.push_str(&d.to_string());
            out.push('\n');
        } else {
            *hidden.entry(d.code).or_default() += 1;
        }
    }
    for (code, n) in hidden {
        out.push_str(&format!(
            "… and {n} more {code} finding{} (`kansoku check` lists them all)\n",
            if n == 1 { "" } else { "s" }
        ));
    }
    out
}

/// `check: 2 errors, 1 warning` or `check: no errors, …`.
pub fn summary(report: &Report) -> String {
    let plural = |n: usize, w: &str| format!("{n} {w}{}", if n == 1 { "" } else { "s" });
    let errors = if report.errors() == 0 {
        "no errors".to_owned()
    } else {
        plural(report.errors(), "error")
    };
    let accepted = match report.accepted_count() {
        0 => String::new(),
        n => format!(" ({n} accepted)"),
    };
    let drafts = match crate::site::left_out(report.drafts, report.drafts_evidence) {
        Some(what) => format!(" · `kansoku build` leaves out {what} (`--drafts` publishes them)"),
        None => String::new(),
    };
    format!(
        "check: {errors}, {}{accepted}{drafts}",
        plural(report.warnings(), "warning")
    )
}

/// Escaping for a workflow command's message (GitHub's toolkit rules).
/// Other control characters are shown escaped (`\u{1b}`), never sent to
/// the log viewer or terminal (issue 11).
pub(crate) fn gh_data(s: &str) -> String {
    let s = s
        .replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A");
    crate::error::visible(&s).into_owned()
}

/// Escaping for a workflow command's property value.
pub(crate) fn gh_property(s: &str) -> String {
    gh_data(s).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Location;

    fn report() -> Report {
        Report {
            diagnostics: vec![Diagnostic::error(
                "E011",
                Location {
                    path: "content/a,b.md".into(),
                    line: 3,
                    col: 6,
                },
                "claim `x` has no evidence link",
            )
            .with_hint("add `evidence = [\"…\"]`")],
            accepted: Vec::new(),
            ..Report::default()
        }
    }

    #[test]
    fn brief_caps_each_code() {
        let w = |line| {
            Diagnostic::warning(
                "W002",
                Location {
                    path: "a.md".into(),
                    line,
                    col: 1,
                },
                "m",
            )
        };
        let out = brief(&[w(1), w(2), w(3), w(4)], 2);
        assert_eq!(out, "a.md:1:1: warning[W002]: m\na.md:2:1: warning[W002]: m\n… and 2 more W002 findings (`kansoku check` lists them all)\n");
    }

    #[test]
    fn github_annotation_escapes_properties() {
        assert_eq!(
            format(&report(), Format::Github),
            "::error file=content/a%2Cb.md,line=3,col=6,title=E011::claim `x` has no evidence link (hint: add `evidence = [\"…\"]`)\n::notice title=kansoku check::check: 1 error, 0 warnings\n"
        );
    }

    fn errors(n: usize) -> Report {
        Report {
            diagnostics: (1..=n)
                .map(|line| {
                    Diagnostic::error(
                        "E012",
                        Location {
                            path: "content/p.md".into(),
                            line,
                            col: 1,
                        },
                        format!("evidence file `evidence/{line}.log` not found"),
                    )
                })
                .collect(),
            accepted: Vec::new(),
            ..Report::default()
        }
    }

    #[test]
    fn github_annotates_as_many_as_github_shows_and_says_where_the_rest_are() {
        let out = format_github(&errors(15), false, Some("summary.md"));
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 16);
        assert!(lines[..10]
            .iter()
            .all(|l| l.starts_with("::error file=content/p.md,line=")));
        assert_eq!(
            lines[10],
            "content/p.md:11:1: error[E012]: evidence file `evidence/11.log` not found"
        );
        assert_eq!(
            lines[15],
            "::notice title=kansoku check::check: 15 errors, 0 warnings. GitHub shows 10 annotations of each kind per step: 5 more errors not shown here; the job summary lists every finding"
        );
        // Ten fit: no word of more.
        let out = format_github(&errors(10), false, None);
        assert!(
            out.ends_with("::notice title=kansoku check::check: 10 errors, 0 warnings\n"),
            "{out}"
        );
    }

    #[test]
    fn the_summary_table_holds_every_finding_and_no_text_can_break_it() {
        let table = github_summary(&errors(15), false);
        for line in 1..=15 {
            assert!(table.contains(&format!("| content/p.md:{line}:1 | E012 error | evidence file \\`evidence/{line}.log\\` not found |  |\n")), "{line}: {table}");
        }
        assert_eq!(
            md_cell("a | b\n<script>&x</script> [l](u) @team `c`"),
            // The line break as the terminal shows it, its `\` escaped.
            "a \\| b\\\\u{a}&lt;script&gt;&amp;x&lt;/script&gt; \\[l\\]\\(u\\) &#64;team \\`c\\`"
        );
    }

    #[test]
    fn json_is_one_object_per_line() {
        assert_eq!(
            format(&report(), Format::Json),
            "{\"code\":\"E011\",\"severity\":\"error\",\"path\":\"content/a,b.md\",\"line\":3,\"col\":6,\"message\":\"claim `x` has no evidence link\",\"hint\":\"add `evidence = [\\\"…\\\"]`\"}\n"
        );
        assert_eq!(report().exit_code(), 1);
    }
}
