//! What `claims.json` holds: one [`ClaimRecord`] per claim, in a
//! `ClaimsFile`. `schemas/claims.schema.json` describes the same shape.
//!
//! The renderer writes these records (`claims.json`) and makes the JSON-LD
//! from them (`claims.jsonld`); `kansoku claims` and `kansoku diff` read
//! them back. This module only defines the shape and how a file is read:
//! it loads no site and writes nothing.
//!
//! Written, a record borrows the site's strings (no copy of a 100,000-claim
//! site's texts); read, it owns them (`ClaimRecord<'static>`: a `Cow`
//! without `#[serde(borrow)]` always deserialises owned). Reading is
//! lenient, as `diff` has always been: any field may be missing and reads
//! as empty (files from before a field existed, such as `state`, or written
//! by hand), and a field this version does not know is skipped (a newer
//! version may add one without raising `CLAIMS_VERSION`).

use crate::lang::Bi;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// The version of `claims.json` (see `schemas/claims.schema.json`): raised
/// when a field changes meaning or goes away, not when one is added.
pub(crate) const CLAIMS_VERSION: u32 = 1;

/// The whole of `claims.json`.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct ClaimsFile<'a> {
    /// [`CLAIMS_VERSION`].
    pub(crate) version: u32,
    /// Every claim of the site, in page order.
    pub(crate) claims: Vec<ClaimRecord<'a>>,
}

/// One claim as `claims.json` holds it. Keys are written in field order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ClaimRecord<'a> {
    /// Site-unique id.
    pub id: Cow<'a, str>,
    /// Evidence class name (`confirmed`, `inferred`, …).
    pub class: Cow<'a, str>,
    /// Source path of the defining page (`content/…`).
    pub page: Cow<'a, str>,
    /// The claim's address on its page, in each language tree.
    pub url: Bi<String>,
    /// Its text in each language.
    pub text: Cow<'a, Bi<String>>,
    /// Evidence links.
    pub evidence: Vec<LinkRecord<'a>>,
    /// Ids of the claims an inference rests on.
    pub from: Vec<Cow<'a, str>>,
    /// Entity key placing the claim in a view's row.
    pub about: Option<Cow<'a, str>>,
    /// Aspect placing the claim in a view's column.
    pub aspect: Option<Cow<'a, str>>,
    /// Free tags.
    pub tags: Cow<'a, [String]>,
    /// Lifecycle state name (`current`, `retracted`, `superseded`); empty
    /// when read from a file older than the lifecycle.
    pub state: Cow<'a, str>,
    /// Why the claim was retracted or superseded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<Cow<'a, Bi<String>>>,
    /// The id of the claim that replaces this one.
    #[serde(rename = "superseded-by", skip_serializing_if = "Option::is_none")]
    pub superseded_by: Option<Cow<'a, str>>,
    /// `machine` when a text was machine-translated.
    #[serde(rename = "translated-by", skip_serializing_if = "Option::is_none")]
    pub translated_by: Option<Cow<'a, str>>,
}

/// One evidence link of a [`ClaimRecord`].
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct LinkRecord<'a> {
    /// Path under the evidence directory.
    pub path: Cow<'a, str>,
    /// Inclusive 1-based line range, or none for the whole file.
    pub lines: Option<[usize; 2]>,
    /// The quoted text the lines must contain.
    pub quote: Option<Cow<'a, str>>,
    /// The cited lines' address, in each language tree.
    pub url: Bi<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_reads_back_as_written() {
        let text = Bi {
            ja: "前".to_owned(),
            en: "before".to_owned(),
        };
        let tags = ["t".to_owned()];
        let written = ClaimRecord {
            id: "a".into(),
            class: "inferred".into(),
            page: "content/p.md".into(),
            url: Bi {
                ja: "/ja/p/#claim-a".to_owned(),
                en: "/en/p/#claim-a".to_owned(),
            },
            text: Cow::Borrowed(&text),
            evidence: vec![LinkRecord {
                path: "log.txt".into(),
                lines: Some([2, 3]),
                quote: Some("\"q\"\n".into()),
                url: Bi::default(),
            }],
            from: vec!["b".into()],
            about: Some("x".into()),
            aspect: None,
            tags: Cow::Borrowed(&tags),
            state: "superseded".into(),
            reason: Some(Cow::Borrowed(&text)),
            superseded_by: Some("b".into()),
            translated_by: Some("machine".into()),
        };
        let file = ClaimsFile {
            version: CLAIMS_VERSION,
            claims: vec![written.clone()],
        };
        let json = serde_json::to_string(&file).expect("serialises");
        let read: ClaimsFile<'static> = serde_json::from_str(&json).expect("reads");
        assert_eq!(read.claims, [written], "{json}");
    }
}
