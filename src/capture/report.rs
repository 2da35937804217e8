//! `recapture`'s outcome as `human`, `json` or `github` output. What came
//! from the site or a command is shown escaped: a log line or a header
//! must not recolour the terminal or start a fake annotation. A capture
//! that did not run (a dry run, a refusal) is listed with the command,
//! working directory and environment names it asks for, so that a person
//! reads what would run before approving it.

use super::recapture::{Mode, Recaptured, Run};
use crate::review::captures::command_line;

/// `done` as `human`, `json` or `github` output.
pub fn report(done: &Run, format: &str) -> String {
    let esc = |s: &str| crate::terminal::escape(s, &[]).into_owned();
    let mut out = String::new();
    match format {
        "json" => {
            out.push_str(&serde_json::to_string_pretty(done).unwrap_or_default());
            out.push('\n');
        }
        "github" => {
            for r in &done.captures {
                for c in r.claims.iter().filter(|c| c.outcome != "unchanged") {
                    let level = if c.outcome == "changed" {
                        "error"
                    } else {
                        "warning"
                    };
                    let finding = c
                        .finding
                        .as_deref()
                        .map(|f| format!(": {}", esc(f)))
                        .unwrap_or_default();
                    out.push_str(&format!(
                        "::{level} file={}::claim {} {} after recapture{finding}\n",
                        esc(&r.file),
                        esc(&c.id),
                        c.outcome
                    ));
                }
                let level = match r.status {
                    "refused" | "would be refused" | "stopped" => Some("error"),
                    "skipped" | "not run" | "would run" => Some("notice"),
                    _ => None,
                };
                if let Some(level) = level {
                    let why = if r.detail.is_empty() {
                        String::new()
                    } else {
                        format!(": {}", esc(&r.detail))
                    };
                    out.push_str(&format!(
                        "::{level} file={}::{}{why} (command: {})\n",
                        esc(&r.file),
                        r.status,
                        command_line(&r.command)
                    ));
                }
            }
            if let Some(f) = &done.facts {
                if let Some(why) = &f.refused {
                    out.push_str(&format!(
                        "::error::the [capture] facts of book.toml are not approved ({}): {}\n",
                        esc(why),
                        esc(&f.shown)
                    ));
                }
            }
        }
        _ => human(done, &mut out),
    }
    out
}

fn human(done: &Run, out: &mut String) {
    let esc = |s: &str| crate::terminal::escape(s, &[]).into_owned();
    for r in &done.captures {
        let ran = matches!(r.status, "compared" | "written" | "skipped" | "stopped");
        if ran {
            out.push_str(&format!(
                "{}: {} ({})\n",
                esc(&r.file),
                r.status,
                esc(&r.detail)
            ));
        } else {
            let why = if r.detail.is_empty() {
                String::new()
            } else {
                format!(": {}", esc(&r.detail))
            };
            out.push_str(&format!("{}: {}{why}\n", esc(&r.file), r.status));
            listed(r, out);
        }
        for c in &r.claims {
            match &c.finding {
                Some(f) => out.push_str(&format!("  {}: {} — {}\n", esc(&c.id), c.outcome, esc(f))),
                None => out.push_str(&format!("  {}: {}\n", esc(&c.id), c.outcome)),
            }
        }
    }
    if let Some(f) = &done.facts {
        let status = match (&f.refused, done.mode) {
            (Some(why), Mode::DryRun) => format!("would be refused: {}", esc(why)),
            (Some(why), _) => format!("refused: {}", esc(why)),
            (None, Mode::DryRun) => "would run".to_owned(),
            (None, _) => "approved".to_owned(),
        };
        // After a run, the facts were said on stderr as they ran.
        if done.mode == Mode::DryRun || f.refused.is_some() {
            out.push_str(&format!(
                "[capture] facts of book.toml: {status}\n  {}\n",
                f.shown
            ));
        }
    }
    if done.captures.is_empty() {
        out.push_str("no capture to re-run\n");
    }
    if done.mode == Mode::DryRun {
        out.push_str("dry run: nothing was run, nothing was written\n");
    }
}

/// The command, working directory and environment names of `r`.
fn listed(r: &Recaptured, out: &mut String) {
    out.push_str(&format!("  command: {}\n", command_line(&r.command)));
    out.push_str(&format!(
        "  cwd: {}\n",
        crate::terminal::escape(r.cwd.as_deref().unwrap_or("."), &[])
    ));
    if !r.env.is_empty() {
        let names: Vec<String> = r
            .env
            .iter()
            .map(|n| crate::terminal::escape(n, &[]).into_owned())
            .collect();
        out.push_str(&format!("  env: {}\n", names.join(", ")));
    }
}
