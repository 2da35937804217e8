//! The error overlay `serve` shows over the page while a rebuild fails.
//!
//! Errors first, then unaccepted warnings, with a count line; each finding
//! links its `path:line:col` for an editor. Self-contained markup (its own
//! `<style>`, scoped to `#kansoku-overlay`, with explicit colours on every
//! element, so no page style can make it unreadable) in light and dark, in
//! the page's language, chosen by the page's `lang`: the chrome, the count
//! line, what each finding's code means, the hint's label and the reasons
//! of accepted warnings (`book.toml` gives them in both languages). A
//! finding's own message and hint are kansoku's English, as `kansoku
//! check` prints them (they name paths, keys and ids): on a Japanese page
//! they follow the code's meaning in Japanese, marked as English. It only
//! formats; the server decides when it is shown.

use crate::check::{self, Report};
use crate::config::Acceptance;
use crate::error::{Diagnostic, Error};
use crate::lang::Lang;
use crate::render::highlight::escape;
use crate::render::i18n::I18n;
use fluent_bundle::FluentArgs;
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
#kansoku-overlay .ko-sev{font-weight:bold;color:#8a5300;white-space:nowrap}
#kansoku-overlay .ko-msg,#kansoku-overlay .ko-hint{margin:.25rem 0 0}
#kansoku-overlay .ko-label{font-weight:bold}
#kansoku-overlay .ko-error .ko-sev{color:#b3261e}
#kansoku-overlay a{color:#0b57d0;text-decoration:underline}
#kansoku-overlay pre{white-space:pre-wrap;margin:.25rem 0 0;background:transparent;color:inherit}
#kansoku-overlay pre.ko-src{white-space:pre;overflow-x:auto;max-width:100%}
#kansoku-overlay button{margin-left:1rem;padding:0 .5rem;border:1px solid currentColor;border-radius:3px;background:#ffffff;color:#1d1d1f;cursor:pointer}
#kansoku-overlay .ko-w[lang=ja]{display:none}
html:lang(ja) #kansoku-overlay .ko-w[lang=ja]{display:inline}
html:lang(ja) #kansoku-overlay .ko-w[lang=en]{display:none}
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

    /// The word for `key` in `lang`, `None` when the theme has none.
    fn word(&self, lang: Lang, key: &str, args: Option<&FluentArgs<'_>>) -> Option<String> {
        self.0.as_ref()?.message(lang, key, args).ok()
    }

    fn bi(&self, key: &str) -> String {
        self.bi_with(key, None)
    }

    /// `key` in both languages, the page's shown (see the stylesheet).
    fn bi_with(&self, key: &str, args: Option<&FluentArgs<'_>>) -> String {
        let word = |lang: Lang| self.word(lang, key, args).unwrap_or_else(|| key.to_owned());
        both(&word(Lang::Ja), &word(Lang::En))
    }
}

/// A piece of chrome in both languages: the stylesheet shows the page's.
fn both(ja: &str, en: &str) -> String {
    format!(
        "<span class=\"ko-w\" lang=\"ja\">{}</span><span class=\"ko-w\" lang=\"en\">{}</span>",
        escape(ja),
        escape(en)
    )
}

/// What a failed build shows: the terminal text (as `kansoku check`
/// prints it) and the overlay markup.
pub(crate) fn failure(root: &Path, e: Error, accept: &[Acceptance]) -> (String, String) {
    match e {
        Error::Content(diagnostics) => {
            let report = Report::triaged(accept, diagnostics);
            let text = check::format(&report, check::Format::Human);
            (text, overlay(root, &Chrome::load(root), &report, accept))
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
        let mut args = FluentArgs::new();
        args.set("errors", report.errors());
        args.set("warnings", report.warnings());
        args.set("accepted", report.accepted_count());
        let ja = chrome.word(Lang::Ja, "serve-overlay-count", Some(&args));
        // The terminal's line when the theme cannot say it.
        let en = check::summary(report);
        out.push_str(&format!(
            "<p class=\"ko-count\">{}</p>\n",
            both(ja.as_deref().unwrap_or(&en), &en)
        ));
    }
    out
}

fn overlay(root: &Path, chrome: &Chrome, report: &Report, accept: &[Acceptance]) -> String {
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
        // What the code means, on a Japanese page (an English one has the
        // message itself, which says it).
        let meaning = chrome
            .word(Lang::Ja, &format!("finding-{}", d.code), None)
            .map(|m| {
                format!(
                    " <span class=\"ko-w ko-meaning\" lang=\"ja\">{}</span>",
                    escape(&m)
                )
            })
            .unwrap_or_default();
        out.push_str(&format!(
            "<li class=\"{class}\"><a href=\"{}\">{}</a> <span class=\"ko-sev\">{sev}[{}]</span>{meaning}\n<p class=\"ko-msg\" lang=\"en\">{}</p>",
            escape(&href),
            escape(&d.location.to_string()),
            escape(d.code),
            escape(&crate::error::visible(&d.message)),
        ));
        // The source line and its caret, as the terminal shows them: the
        // finding's text between its first line and its hint.
        let full = d.to_string();
        let snippet: Vec<&str> = full
            .lines()
            .skip(1)
            .filter(|l| !l.starts_with("  = hint: "))
            .collect();
        if !snippet.is_empty() {
            out.push_str(&format!(
                "<pre class=\"ko-src\">{}</pre>",
                escape(&snippet.join("\n"))
            ));
        }
        if let Some(hint) = &d.hint {
            out.push_str(&format!(
                "<p class=\"ko-hint\"><span class=\"ko-label\">{}:</span> <span lang=\"en\">{}</span></p>",
                chrome.bi("serve-overlay-hint"),
                escape(&crate::error::visible(hint))
            ));
        }
        out.push_str("</li>\n");
    }
    out.push_str("</ol>\n");
    for a in &report.accepted {
        // The reason in both languages, as `book.toml` gives it.
        let reason = accept
            .iter()
            .find(|x| x.code == a.code && x.reason.en == a.reason)
            .map(|x| x.reason.clone());
        let line = |lang: Lang, reason: &str| {
            let mut args = FluentArgs::new();
            args.set("count", a.diagnostics.len());
            args.set("code", a.code.clone());
            args.set("reason", reason.to_owned());
            chrome.word(lang, "serve-overlay-accepted", Some(&args))
        };
        let en = check::accepted_line(a);
        let ja = reason.and_then(|r| line(Lang::Ja, &r.ja));
        out.push_str(&format!(
            "<p class=\"ko-accepted\">{}</p>\n",
            both(ja.as_deref().unwrap_or(&en), &en)
        ));
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
        assert!(html.contains("<p class=\"ko-count\"><span class=\"ko-w\" lang=\"ja\">check: エラー 1 件、警告 1 件</span><span class=\"ko-w\" lang=\"en\">check: 1 error, 1 warning</span></p>"), "{html}");
        assert!(html.contains("href=\"vscode://file//site/content/b.md:3:1\">content/b.md:3:1</a>"));
        assert!(html.contains("<span class=\"ko-w\" lang=\"ja\">閉じる</span><span class=\"ko-w\" lang=\"en\">Hide</span>"));
    }

    /// On a Japanese page: what each code means, the hint's label, the
    /// count line and an accepted warning's reason in Japanese; the
    /// finding's own words in English, marked so (trial L19).
    #[test]
    fn the_overlay_speaks_the_page_s_language_trial_l19() {
        let loc = |line| Location {
            path: "content/a.md".into(),
            line,
            col: 1,
        };
        let accept = [Acceptance {
            code: "W002".into(),
            reason: crate::lang::Bi {
                ja: "生ログは手元にない。".into(),
                en: "The raw logs are not in hand.".into(),
            },
            scope: crate::config::AcceptScope::Site,
            location: loc(1),
        }];
        let (_, html) = failure(
            Path::new("/site"),
            Error::Content(vec![
                Diagnostic::error("E012", loc(9), "evidence file `evidence/a.log` not found")
                    .with_hint("did you mean `b.log`?"),
                Diagnostic::warning(
                    "W002",
                    loc(4),
                    "confirmed claim `x` rests only on transcript or note evidence",
                ),
            ]),
            &accept,
        );
        assert!(
            html.contains("<span class=\"ko-sev\"><span class=\"ko-w\" lang=\"ja\">エラー</span><span class=\"ko-w\" lang=\"en\">error</span>[E012]</span> <span class=\"ko-w ko-meaning\" lang=\"ja\">証拠ファイルがない</span>\n<p class=\"ko-msg\" lang=\"en\">evidence file `evidence/a.log` not found</p>"),
            "{html}"
        );
        assert!(
            html.contains("<p class=\"ko-hint\"><span class=\"ko-label\"><span class=\"ko-w\" lang=\"ja\">ヒント</span><span class=\"ko-w\" lang=\"en\">hint</span>:</span> <span lang=\"en\">did you mean `b.log`?</span></p>"),
            "{html}"
        );
        assert!(
            html.contains("<span class=\"ko-w\" lang=\"ja\">check: エラー 1 件、警告 0 件(受け入れ済み 1 件)</span><span class=\"ko-w\" lang=\"en\">check: 1 error, 0 warnings (1 accepted)</span>"),
            "{html}"
        );
        assert!(
            html.contains("<p class=\"ko-accepted\"><span class=\"ko-w\" lang=\"ja\">W002 1 件を受け入れ済み:生ログは手元にない。</span><span class=\"ko-w\" lang=\"en\">1 W002 accepted: The raw logs are not in hand.</span></p>"),
            "{html}"
        );
    }
}
