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
use serde::de::{Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// The version of `claims.json` (see `schemas/claims.schema.json`): raised
/// when a field changes meaning or goes away, not when one is added.
pub(crate) const CLAIMS_VERSION: u32 = 3;

/// Versions [`ClaimsFile::read`] accepts: version 1 is version 2 without
/// `answer` (issue 26 raised it so that readers of version 1 learn that
/// a claim may now state its answer apart from its text); version 2 is
/// version 3 without an answer's `kind` and a claim's `settle` (issue 40
/// raised it because an answer of kind `not-known` is no answer: a reader
/// of version 2 would take "Not observed" for one).
const READABLE: [u32; 3] = [1, 2, 3];

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
    /// The answer it states from its aspect's vocabulary.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub answer: Option<AnswerRecord<'a>>,
    /// For an unresolved or limited claim: the observation that would
    /// settle it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub settle: Option<Cow<'a, Bi<String>>>,
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

/// The answer of a [`ClaimRecord`]: its key, kind and words.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct AnswerRecord<'a> {
    /// Its key in the aspect's vocabulary (`yes`, `not-observed`).
    pub key: Cow<'a, str>,
    /// What kind of statement it is: `yes`, `no`, `partial`, or
    /// `not-known` (no answer: nothing decisive was seen, or nobody could
    /// look). Absent in files before version 3.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<Cow<'a, str>>,
    /// Its words in each language.
    pub label: Cow<'a, Bi<String>>,
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
    /// The evidence file's kind when it was captured or imported
    /// (`capture`, `import`), with its provenance.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<Cow<'a, str>>,
    /// How the file came to be: command, times, exit status, host facts,
    /// hash (`kansoku capture`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub provenance: Option<Cow<'a, crate::evidence::Provenance>>,
}

impl ClaimsFile<'_> {
    /// The claims of a `claims.json` of [`CLAIMS_VERSION`], or of the bare
    /// array written before the format had a version. The error says what
    /// is wrong, without naming the file.
    pub(crate) fn read(text: &str) -> Result<Vec<ClaimRecord<'static>>, String> {
        match serde_json::from_str::<AnyVersion>(text) {
            Ok(AnyVersion(read)) => read,
            Err(e) => Err(e.to_string()),
        }
    }
}

/// The claims of either shape [`ClaimsFile::read`] accepts, or why the
/// document is neither: a value, not a serde error, so that the message
/// is only that (serde_json would add a position to it).
struct AnyVersion(Result<Vec<ClaimRecord<'static>>, String>);

impl<'de> Deserialize<'de> for AnyVersion {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(AnyVersionVisitor)
    }
}

struct AnyVersionVisitor;

/// Any value but an object or an array.
fn neither<E>() -> Result<AnyVersion, E> {
    Ok(AnyVersion(Err("neither an object nor an array".to_owned())))
}

impl<'de> Visitor<'de> for AnyVersionVisitor {
    type Value = AnyVersion;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an object `{ version, claims }` or an array of claims")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<AnyVersion, A::Error> {
        let mut claims = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(c) = seq.next_element()? {
            claims.push(c);
        }
        Ok(AnyVersion(Ok(claims)))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<AnyVersion, A::Error> {
        let readable =
            |v: Option<u64>| v.is_some_and(|v| READABLE.iter().any(|&r| u64::from(r) == v));
        let mut version = None;
        let mut claims = None;
        // Claims before the version (kansoku writes the version first;
        // a file with sorted keys has it last): kept as JSON until the
        // version says whether they should have this shape.
        let mut unread = None;
        while let Some(key) = map.next_key::<Cow<'_, str>>()? {
            match &*key {
                "version" => version = map.next_value::<serde_json::Value>()?.as_u64(),
                "claims" if readable(version) => claims = Some(map.next_value()?),
                "claims" if version.is_none() => {
                    unread = Some(map.next_value::<serde_json::Value>()?);
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        if !readable(version) {
            return Ok(AnyVersion(Err(format!("unknown version {version:?}"))));
        }
        Ok(AnyVersion(match (claims, unread) {
            (Some(claims), _) => Ok(claims),
            (None, Some(v)) => serde_json::from_value(v).map_err(|e| e.to_string()),
            (None, None) => Err("no `claims` array".to_owned()),
        }))
    }

    fn visit_unit<E>(self) -> Result<AnyVersion, E> {
        neither()
    }

    fn visit_bool<E>(self, _: bool) -> Result<AnyVersion, E> {
        neither()
    }

    fn visit_i64<E>(self, _: i64) -> Result<AnyVersion, E> {
        neither()
    }

    fn visit_u64<E>(self, _: u64) -> Result<AnyVersion, E> {
        neither()
    }

    fn visit_f64<E>(self, _: f64) -> Result<AnyVersion, E> {
        neither()
    }

    fn visit_str<E>(self, _: &str) -> Result<AnyVersion, E> {
        neither()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_both_shapes_and_says_what_is_wrong() {
        let one = r#"{"id": "a", "class": "confirmed", "text": {"ja": "前", "en": "before"}}"#;
        let versioned = ClaimsFile::read(&format!(r#"{{"version": 1, "claims": [{one}]}}"#));
        // In any order (`serde_json::Value` sorts keys).
        let sorted = ClaimsFile::read(&format!(r#"{{"claims": [{one}], "version": 1}}"#));
        assert_eq!(versioned, sorted);
        assert_eq!(
            ClaimsFile::read(r#"{"claims": [{"id": 7}], "version": 4}"#),
            Err("unknown version Some(4)".to_owned())
        );
        let bare = ClaimsFile::read(&format!("[{one}]"));
        assert_eq!(versioned, bare);
        let claims = bare.expect("a bare array reads");
        assert_eq!(claims[0].id, "a");
        assert_eq!(claims[0].text.en, "before");
        // Missing fields read as empty.
        assert_eq!(claims[0].state, "");
        assert!(claims[0].evidence.is_empty());
        let err = |text: &str| ClaimsFile::read(text).expect_err(text);
        assert_eq!(
            err(r#"{"version": 4, "claims": 7}"#),
            "unknown version Some(4)"
        );
        assert_eq!(err(r#"{"claims": []}"#), "unknown version None");
        assert_eq!(err(r#"{"version": 1}"#), "no `claims` array");
        for scalar in ["\"x\"", "null", "true", "-1", "1", "1.5"] {
            assert_eq!(err(scalar), "neither an object nor an array");
        }
        assert_eq!(
            err(r#"{"version": 1, "claims": [{"id": 7}]}"#),
            "invalid type: integer `7`, expected a string at line 1 column 34"
        );
    }

    /// Issue 40: a version 2 file (answers without a kind, no `settle`)
    /// still reads, as `claims` and `diff` read older files.
    #[test]
    fn version_2_still_reads() {
        let two = r#"{"version": 2, "claims": [{"id": "a", "class": "limited", "answer": {"key": "not-observed", "label": {"ja": "観測なし", "en": "Not observed"}}}]}"#;
        let claims = ClaimsFile::read(two).expect("version 2 reads");
        let answer = claims[0].answer.as_ref().expect("its answer");
        assert_eq!(
            (answer.key.as_ref(), answer.kind.as_deref()),
            ("not-observed", None)
        );
        assert_eq!(claims[0].settle, None);
    }

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
                kind: Some("capture".into()),
                provenance: Some(Cow::Owned(crate::evidence::Provenance {
                    command: vec!["uname".to_owned(), "-r".to_owned()],
                    exit: Some("0".to_owned()),
                    ..crate::evidence::Provenance::default()
                })),
            }],
            from: vec!["b".into()],
            about: Some("x".into()),
            aspect: Some("runs".into()),
            answer: Some(AnswerRecord {
                key: "yes".into(),
                kind: Some("yes".into()),
                label: Cow::Owned(Bi {
                    ja: "はい".to_owned(),
                    en: "Yes".to_owned(),
                }),
            }),
            settle: Some(Cow::Borrowed(&text)),
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
