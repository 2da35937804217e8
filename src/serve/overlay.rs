//! The error overlay `serve` shows over the page while a rebuild fails.
//!
//! Errors first, then unaccepted warnings, with a count line; each finding
//! links its `path:line:col` for an editor. Self-contained markup (its own
//! `<style>`, scoped to `#kansoku-overlay`, with explicit colours on every
//! element, so no page style can make it unreadable) in light and dark, and
//! its chrome in the page's language, chosen by the page's `lang`. It only
//! formats; the server decides when it is shown.

use crate::check::{self, Report};
use crate::config::Acceptance;
use crate::error::{Diagnostic, Error};
use crate::lang::Lang;
use crate::render::highlight::escape;
use crate::render::i18n::I18n;
use std::path::Path;

/// Editor link for a finding: `{path}` (absolute), `{line}` and `{col}`
/// are replaced. `KANSOKU_EDITOR_URL` sets another (e.g. for JetBrains IDEs
/// `idea://open?file={path}&line={line}`).
const EDITOR_URL: &str = "vscode://file/{path}:{line}:{col}";

/// Colours: every text/background pair has a contrast of at least 4.5:1
/// (asserted in the browser suite, tests/browser/serve.test.js).
const STYLE: &str = "<style>
#kansoku-overlay{all:initial;display:block;position:fixed;left:0;right:0;bottom:0;max-height:60vh;overflow:auto;z-index:2147483647;box-sizing:border-box;padding:1rem 1.25rem;background:#ffffff;color:#1d1d1f;border-top:6px solid #b3261e;font:14px/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;text-align:left;box-shadow:0 -4px 16px rgba(0,0,0,.25)}
#kansoku-overlay *{box-sizing:border-box;background:transparent;color:inherit;font:inherit;margin:0;padding:0;border:0;text-decoration:none;letter-spacing:normal}
#kansoku-overlay .ko-head{font-weight:bold;margin:0 0 .25rem}
#kansoku-overlay .ko-count{margin:0 0 .75rem}
#kansoku-overlay ol{list-style:none}
#kansoku-overlay li{margin:0 0 .75rem;padding:.25rem 0 .25rem .75rem;border-left:4px solid #8a5300}
#kansoku-overlay li.ko-error{border-left-color:#b3261e;background:#fdecea}
#kansoku-overlay .ko-sev{font-weight:bold;color:#8a5300}
#kansoku-overlay .ko-error .ko-sev{color:#b3261e}
#kansoku-overlay a{color:#0b57d0;text-decoration:underline}
#kansoku-overlay pre{white-space:pre-wrap;margin:.25rem 0 0;background:transparent;color:inherit}
#kansoku-overlay button{margin-left:1rem;padding:0 .5rem;border:1px solid currentColor;border-radius:3px;background:#ffffff;color:#1d1d1f;cursor:pointer}
#kansoku-overlay [lang=ja]{display:none}
html:lang(ja) #kansoku-overlay [lang=ja]{display:inline}
html:lang(ja) #kansoku-overlay [lang=en]{display:none}
@media (prefers-color-scheme:dark){
#kansoku-overlay{background:#1d1d1f;color:#f5f5f7;border-top-color:#ff8a80}
#kansoku-overlay li{border-left-color:#ffcc66}
#kansoku-overlay li.ko-error{border-left-color:#ff8a80;background:#3b1f1d}
#kansoku-overlay .ko-sev{color:#ffcc66}
#kansoku-overlay .ko-error .ko-sev{color:#ff8a80}
#kansoku-overlay a{color:#8ab4f8}
#kansoku-overlay button{background:#1d1d1f;color:#f5f5f7}
}
</style>
";

/// The overlay's words in both languages, from the theme's Fluent files
/// (`serve-overlay-*` in templates/i18n/); the stylesheet shows the page's.
struct Chrome(Option<I18n>);

impl Chrome {
    fn load(root: &Path) -> Self {
        // A site whose own .ftl override is broken still gets an overlay
        // (saying so): in the built-in words.
        let Ok(mut sources) = crate::render::theme::merged_i18n(root) else {
            return Chrome(None);
        };
        if let Ok(i18n) = I18n::new(&sources) {
            return Chrome(Some(i18n));
        }
        sources.retain(|(_, origin, _)| origin.starts_with("(embedded)"));
        Chrome(I18n::new(&sources).ok())
    }

    fn bi(&self, key: &str) -> String {
        let word = |lang: Lang| match &self.0 {
            Some(i18n) => i18n
                .message(lang, key, None)
                .unwrap_or_else(|_| key.to_owned()),
            None => key.to_owned(),
        };
        format!(
            "<span lang=\"ja\">{}</span><span lang=\"en\">{}</span>",
            escape(&word(Lang::Ja)),
            escape(&word(Lang::En))
        )
    }
}

/// What a failed build shows: the terminal text (as `kansoku check`
/// prints it) and the overlay markup.
pub(crate) fn failure(root: &Path, e: Error, accept: &[Acceptance]) -> (String, String) {
    match e {
        Error::Content(diagnostics) => {
            let report = Report::triaged(accept, diagnostics);
            let text = check::format(&report, check::Format::Human);
            (text, overlay(root, &Chrome::load(root), &report))
        }
        other => {
            let text = format!("error: {other}\n");
            let report = Report::default();
            let mut html = frame(&Chrome::load(root), &report);
            html.push_str(&format!("<pre>{}</pre>\n</div>\n", escape(&text)));
            (text, html)
        }
    }
}

/// The opening of the overlay, its heading and count line.
fn frame(chrome: &Chrome, report: &Report) -> String {
    let mut out = String::from(
        "<div id=\"kansoku-overlay\" role=\"alert\" aria-labelledby=\"kansoku-overlay-head\">\n",
    );
    out.push_str(STYLE);
    out.push_str(&format!(
        "<p class=\"ko-head\" id=\"kansoku-overlay-head\">{}<button type=\"button\" data-kansoku-dismiss>{}</button></p>\n",
        chrome.bi("serve-overlay-title"),
        chrome.bi("serve-overlay-hide"),
    ));
    if report.errors() + report.warnings() + report.accepted_count() > 0 {
        out.push_str(&format!(
            "<p class=\"ko-count\">{}</p>\n",
            escape(&check::summary(report))
        ));
    }
    out
}

fn overlay(root: &Path, chrome: &Chrome, report: &Report) -> String {
    let mut out = frame(chrome, report);
    let mut shown: Vec<&Diagnostic> = report.diagnostics.iter().collect();
    shown.sort_by_key(|d| d.severity);
    out.push_str("<ol>\n");
    let template = std::env::var("KANSOKU_EDITOR_URL").unwrap_or_else(|_| EDITOR_URL.to_owned());
    let base = std::path::absolute(root).unwrap_or_else(|_| root.to_path_buf());
    for d in shown {
        let (class, sev) = if d.is_error() {
            ("ko-error", chrome.bi("serve-overlay-error"))
        } else {
            ("ko-warning", chrome.bi("serve-overlay-warning"))
        };
        let path = base.join(&d.location.path);
        let href = template
            .replace("{path}", &path.to_string_lossy())
            .replace("{line}", &d.location.line.to_string())
            .replace("{col}", &d.location.col.to_string());
        // The finding as the terminal shows it, minus its first line,
        // which is laid out above: source line, caret, hint.
        let full = d.to_string();
        let rest = full.split_once('\n').map_or("", |(_, r)| r);
        out.push_str(&format!(
            "<li class=\"{class}\"><a href=\"{}\">{}</a> <span class=\"ko-sev\">{sev}[{}]</span> {}",
            escape(&href),
            escape(&d.location.to_string()),
            escape(d.code),
            escape(&d.message),
        ));
        if !rest.is_empty() {
            out.push_str(&format!("<pre>{}</pre>", escape(rest)));
        }
        out.push_str("</li>\n");
    }
    out.push_str("</ol>\n");
    for a in &report.accepted {
        out.push_str(&format!("<p>{}</p>\n", escape(&check::accepted_line(a))));
    }
    out.push_str("</div>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Location;

    fn diag(error: bool, path: &str, msg: &str) -> Diagnostic {
        let loc = Location {
            path: path.into(),
            line: 3,
            col: 1,
        };
        if error {
            Diagnostic::error("E001", loc, msg)
        } else {
            Diagnostic::warning("W002", loc, msg)
        }
    }

    #[test]
    fn errors_first_escaped_with_a_count_and_links() {
        let (text, html) = failure(
            Path::new("/site"),
            Error::Content(vec![
                diag(false, "content/a.md", "a warning"),
                diag(true, "content/b.md", "<script>alert(1)</script> & \"q\""),
            ]),
            &[],
        );
        assert!(text.starts_with("content/b.md:3:1: error[E001]"), "{text}");
        assert!(!html.contains("<script>alert"), "{html}");
        assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;q&quot;"));
        let error = html.find("ko-error\"><a").expect("the error is listed");
        let warning = html.find("ko-warning\"><a").expect("the warning is listed");
        assert!(error < warning, "errors first");
        assert!(html.contains("<p class=\"ko-count\">check: 1 error, 1 warning</p>"));
        assert!(html.contains("href=\"vscode://file//site/content/b.md:3:1\">content/b.md:3:1</a>"));
        assert!(html.contains("<span lang=\"ja\">閉じる</span><span lang=\"en\">Hide</span>"));
    }
}
