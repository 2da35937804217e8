//! `claims.jsonld`: the claims as linked data, made from the records of
//! `claims.json` ([`ClaimRecord`]).
//!
//! Each claim is a schema.org `Claim` and a W3C PROV `Entity`: its texts
//! are language-tagged values, its evidence class and state are schema.org
//! properties (`additionalProperty`, `creativeWorkStatus`; the answer, its
//! kind and what would settle the claim are further `PropertyValue`s,
//! the last language-tagged), the evidence
//! lines and premises it rests on are `prov:wasDerivedFrom` (captured
//! lines `prov:wasGeneratedBy` the run of their command, a `prov:Activity`
//! with its start and end times), and a successor is `dcterms:isReplacedBy`. Only terms of those published
//! vocabularies are used, so a standard JSON-LD processor expands it
//! without a private context.
//!
//! The nodes borrow from the records and are made one at a time as the
//! graph is written, so the document never exists whole but as its bytes
//! (at 100,000 claims a graph held whole cost most of a gigabyte). Keys are
//! written in field order, which is alphabetical, as the file has always
//! had them.

use crate::lang::Bi;
use crate::record::{ClaimRecord, ClaimsFile};
use serde::{Serialize, Serializer};
use std::collections::HashMap;

/// The JSON-LD document for the claims of `file`, pretty-printed and
/// ending in a newline. `size_hint` is the length of `claims.json`.
pub(super) fn document(file: &ClaimsFile<'_>, size_hint: usize) -> Vec<u8> {
    // What premises and successors link to: a claim's Japanese URL.
    let urls = file
        .claims
        .iter()
        .map(|c| (&*c.id, c.url.ja.as_str()))
        .collect();
    let doc = Document {
        context: serde_json::json!({
            "@vocab": "https://schema.org/",
            "prov": "http://www.w3.org/ns/prov#",
            "dcterms": "http://purl.org/dc/terms/",
            "wasDerivedFrom": { "@id": "prov:wasDerivedFrom", "@type": "@id" },
            "isReplacedBy": { "@id": "dcterms:isReplacedBy", "@type": "@id" },
            "url": { "@id": "url", "@type": "@id" }
        }),
        graph: Graph {
            claims: &file.claims,
            urls,
        },
        version: file.version,
    };
    let mut bytes = Vec::with_capacity(size_hint + size_hint / 4);
    serde_json::to_writer_pretty(&mut bytes, &doc).expect("the JSON-LD serialises");
    bytes.push(b'\n');
    bytes
}

#[derive(Serialize)]
struct Document<'a> {
    /// A `serde_json::Value`, whose keys are sorted.
    #[serde(rename = "@context")]
    context: serde_json::Value,
    #[serde(rename = "@graph")]
    graph: Graph<'a>,
    version: u32,
}

/// The claims, each written as its [`Node`] when the graph is.
struct Graph<'a> {
    claims: &'a [ClaimRecord<'a>],
    /// Claim id to its node's `@id`.
    urls: HashMap<&'a str, &'a str>,
}

impl Serialize for Graph<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.claims.iter().map(|c| node(c, &self.urls)))
    }
}

#[derive(Serialize)]
struct Node<'a> {
    #[serde(rename = "@id")]
    id: &'a str,
    #[serde(rename = "@type")]
    types: [&'static str; 2],
    #[serde(rename = "additionalProperty")]
    class: Properties<'a>,
    #[serde(rename = "creativeWorkStatus")]
    state: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<[Tagged<'a>; 2]>,
    identifier: &'a str,
    #[serde(rename = "isReplacedBy", skip_serializing_if = "Option::is_none")]
    replaced_by: Option<&'a str>,
    text: [Tagged<'a>; 2],
    url: [&'a str; 2],
    #[serde(rename = "wasDerivedFrom")]
    derived_from: Vec<Source<'a>>,
}

#[derive(Serialize)]
struct PropertyValue<'a> {
    #[serde(rename = "@type")]
    kind: &'static str,
    name: &'static str,
    value: Value<'a>,
}

/// A property's value: a plain string, or one per language.
#[derive(Serialize)]
#[serde(untagged)]
enum Value<'a> {
    Plain(&'a str),
    Tagged([Tagged<'a>; 2]),
}

/// The evidence class alone (an object, as before answers), or with the
/// answer, its kind and what would settle the claim (an array).
#[derive(Serialize)]
#[serde(untagged)]
enum Properties<'a> {
    Class(PropertyValue<'a>),
    More(Vec<PropertyValue<'a>>),
}

/// A language-tagged string.
#[derive(Serialize)]
struct Tagged<'a> {
    #[serde(rename = "@language")]
    language: &'static str,
    #[serde(rename = "@value")]
    value: &'a str,
}

/// What a claim rests on: cited evidence lines, or another claim.
#[derive(Serialize)]
#[serde(untagged)]
enum Source<'a> {
    Evidence {
        #[serde(rename = "@id")]
        id: &'a str,
        #[serde(rename = "@type")]
        kind: &'static str,
        name: &'a str,
        #[serde(rename = "prov:value", skip_serializing_if = "Option::is_none")]
        quote: Option<&'a str>,
        /// A capture: the run of its command that produced it.
        #[serde(
            rename = "prov:wasGeneratedBy",
            skip_serializing_if = "Option::is_none"
        )]
        generated_by: Option<Activity<'a>>,
    },
    Claim {
        #[serde(rename = "@id")]
        id: &'a str,
    },
}

/// The run of a command that produced a capture: a PROV `Activity` named
/// by its command line, with its start and end times and how it ended.
#[derive(Serialize)]
struct Activity<'a> {
    #[serde(rename = "@type")]
    kind: &'static str,
    /// The command line.
    name: String,
    /// `exit 0`, `exit signal 9`.
    description: String,
    #[serde(rename = "prov:startedAtTime", skip_serializing_if = "Option::is_none")]
    started: Option<DateTime<'a>>,
    #[serde(rename = "prov:endedAtTime", skip_serializing_if = "Option::is_none")]
    ended: Option<DateTime<'a>>,
}

/// An `xsd:dateTime` literal.
#[derive(Serialize)]
struct DateTime<'a> {
    #[serde(rename = "@type")]
    kind: &'static str,
    #[serde(rename = "@value")]
    value: &'a str,
}

fn activity(p: &crate::evidence::Provenance) -> Option<Activity<'_>> {
    if p.command.is_empty() {
        return None;
    }
    fn time(t: &Option<String>) -> Option<DateTime<'_>> {
        t.as_deref().map(|value| DateTime {
            kind: "http://www.w3.org/2001/XMLSchema#dateTime",
            value,
        })
    }
    Some(Activity {
        kind: "prov:Activity",
        name: p.command.join(" "),
        description: format!("exit {}", p.exit.as_deref().unwrap_or("unknown")),
        started: time(&p.started),
        ended: time(&p.ended),
    })
}

fn tagged(bi: &Bi<String>) -> [Tagged<'_>; 2] {
    [
        Tagged {
            language: "ja",
            value: &bi.ja,
        },
        Tagged {
            language: "en",
            value: &bi.en,
        },
    ]
}

fn node<'a>(c: &'a ClaimRecord<'a>, urls: &HashMap<&'a str, &'a str>) -> Node<'a> {
    let evidence = c.evidence.iter().map(|l| Source::Evidence {
        id: &l.url.ja,
        kind: "prov:Entity",
        name: &l.path,
        quote: l.quote.as_deref(),
        generated_by: l.provenance.as_deref().and_then(activity),
    });
    // A premise or successor that is not a claim of the site has no node
    // to link to (`check` reports it).
    let premises = c
        .from
        .iter()
        .filter_map(|f| urls.get(&**f))
        .map(|&id| Source::Claim { id });
    Node {
        id: &c.url.ja,
        types: ["Claim", "prov:Entity"],
        class: {
            let property = |name, value| PropertyValue {
                kind: "PropertyValue",
                name,
                value,
            };
            let class = property("evidenceClass", Value::Plain(&c.class));
            let mut more = Vec::new();
            if let Some(a) = &c.answer {
                more.push(property("answer", Value::Plain(&a.key)));
                if let Some(kind) = &a.kind {
                    more.push(property("answerKind", Value::Plain(kind)));
                }
            }
            if let Some(settle) = &c.settle {
                more.push(property("settledBy", Value::Tagged(tagged(settle))));
            }
            if more.is_empty() {
                Properties::Class(class)
            } else {
                more.insert(0, class);
                Properties::More(more)
            }
        },
        state: &c.state,
        description: c.reason.as_deref().map(tagged),
        identifier: &c.id,
        replaced_by: c
            .superseded_by
            .as_deref()
            .and_then(|id| urls.get(id).copied()),
        text: tagged(&c.text),
        url: [&c.url.ja, &c.url.en],
        derived_from: evidence.chain(premises).collect(),
    }
}
