//! An evidence file's `+++` header: read strictly, each value a reader
//! trusts checked where it is written, and a capture's body held to the
//! hash its header gives.

use super::{EvidenceKind, Header, Provenance};
use crate::error::Diagnostic;
use crate::source::Source;
use serde::Deserialize;
use std::collections::BTreeMap;

#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
enum DateOrText {
    Date(toml::value::Datetime),
    Text(String),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawHeader {
    kind: Option<EvidenceKind>,
    source: Option<String>,
    captured: Option<DateOrText>,
    host: Option<String>,
    phase: Option<String>,
    // A capture's provenance, field by field: serde's `flatten` would
    // switch off `deny_unknown_fields`.
    #[serde(default)]
    command: Vec<String>,
    cwd: Option<String>,
    // Spanned: a value `check` cannot trust is reported where it is written.
    started: Option<toml::Spanned<String>>,
    ended: Option<toml::Spanned<String>>,
    exit: Option<toml::Spanned<String>>,
    stream: Option<toml::Spanned<String>>,
    #[serde(rename = "other-stream")]
    other_stream: Option<String>,
    #[serde(default)]
    facts: BTreeMap<String, String>,
    #[serde(default)]
    env: BTreeMap<String, String>,
    original: Option<String>,
    mtime: Option<String>,
    note: Option<String>,
    #[serde(rename = "body-sha256")]
    body_sha256: Option<String>,
}

/// SHA-256 of `body`, in hex: a capture's `body-sha256`.
pub(super) fn body_sha256(body: &str) -> String {
    use sha2::Digest;
    let digest = sha2::Sha256::digest(body.as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// E019 for a captured or imported file whose body is not the one its
/// header's hash was made of, or that has no hash to verify: what a
/// reader trusts a capture for is that nobody edited it since. `got` is
/// the body's SHA-256, made only when there is one to compare.
pub(super) fn tampered(
    shown: &str,
    header: &Header,
    got: impl FnOnce() -> String,
) -> Option<Diagnostic> {
    let kind = header.kind?;
    let captured = matches!(kind, EvidenceKind::Capture | EvidenceKind::Import);
    let at = crate::error::Location::file(shown.to_owned());
    match &header.provenance.body_sha256 {
        None if captured => Some(
            Diagnostic::error(
                "E019",
                at,
                format!("{shown} is a {} without its `body-sha256`: it cannot be verified", kind.name()),
            )
            .with_hint("write captures with `kansoku capture`, which records the hash, or make it a `transcript`"),
        ),
        None => None,
        Some(want) => {
            let got = got();
            (got != want.to_ascii_lowercase()).then(|| {
                Diagnostic::error(
                    "E019",
                    at,
                    format!("{shown} changed since it was captured: its body's SHA-256 is {got}, its header says {want}"),
                )
                .with_hint(
                    "a capture is not edited: capture it again (`kansoku capture --replace`), or restore it from version control",
                )
            })
        }
    }
}

/// E003 for each provenance value the evidence page and the RO-Crate
/// cannot show as what it claims to be, where it is written: a `stream`
/// that is neither stream (the page would look up a label that does not
/// exist), an `exit` that is no exit status, a time that is not RFC 3339.
/// Said here, by `check`, rather than by a template error in `build`.
pub(super) fn header_findings(src: &Source, h: &RawHeader) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    let mut bad = |value: &toml::Spanned<String>, key: &str, why: &str, hint: &str| {
        found.push(
            src.error(
                "E003",
                value.span(),
                format!(
                    "`{key}` is \"{}\": {why}",
                    crate::terminal::escape(value.get_ref(), &[])
                ),
            )
            .with_hint(hint.to_owned()),
        );
    };
    let rewrite = "a capture's header is written by `kansoku capture`: capture it again (`--replace`), or restore the file from version control";
    if let Some(v) = &h.stream {
        if !matches!(v.get_ref().as_str(), "stdout" | "stderr") {
            bad(
                v,
                "stream",
                "a capture's stream is \"stdout\" or \"stderr\"",
                rewrite,
            );
        }
    }
    if let Some(v) = &h.exit {
        if !exit_status(v.get_ref()) {
            bad(
                v,
                "exit",
                "an exit status is a number (`0`), `signal N` or `unknown`",
                rewrite,
            );
        }
    }
    for (key, v) in [("started", &h.started), ("ended", &h.ended)] {
        if let Some(v) = v {
            if !rfc3339(v.get_ref()) {
                bad(
                    v,
                    key,
                    "a time is written as RFC 3339 in UTC, such as `2026-11-25T16:30:00Z`",
                    rewrite,
                );
            }
        }
    }
    found
}

/// `0`, `-1`, `signal 9` or `unknown`: what `kansoku capture` records.
fn exit_status(s: &str) -> bool {
    let number = |n: &str| {
        let n = n.strip_prefix('-').unwrap_or(n);
        !n.is_empty() && n.len() <= 10 && n.bytes().all(|b| b.is_ascii_digit())
    };
    s == "unknown" || number(s) || s.strip_prefix("signal ").is_some_and(number)
}

/// A date with a time and an offset (`2026-11-25T16:30:00Z`).
fn rfc3339(s: &str) -> bool {
    s.parse::<toml::value::Datetime>()
        .is_ok_and(|d| d.date.is_some() && d.time.is_some() && d.offset.is_some())
}

/// A header as read, into what the site keeps.
pub(super) fn header_of(h: RawHeader) -> Header {
    Header {
        kind: h.kind,
        source: h.source,
        captured: h.captured.map(|c| match c {
            DateOrText::Date(d) => d.to_string(),
            DateOrText::Text(t) => t,
        }),
        host: h.host,
        phase: h.phase,
        provenance: Provenance {
            command: h.command,
            cwd: h.cwd,
            started: h.started.map(toml::Spanned::into_inner),
            ended: h.ended.map(toml::Spanned::into_inner),
            exit: h.exit.map(toml::Spanned::into_inner),
            stream: h.stream.map(toml::Spanned::into_inner),
            other_stream: h.other_stream,
            facts: h.facts,
            env: h.env,
            original: h.original,
            mtime: h.mtime,
            note: h.note,
            body_sha256: h.body_sha256,
        },
    }
}
