//! `claims.jsonld`: the claims as linked data, made from `claims.json`.
//!
//! Each claim is a schema.org `Claim` and a W3C PROV `Entity`: its texts
//! are language-tagged values, its evidence class and state are schema.org
//! properties (`additionalProperty`, `creativeWorkStatus`), the evidence
//! lines and premises it rests on are `prov:wasDerivedFrom`, and a
//! successor is `dcterms:isReplacedBy`. Only terms of those published
//! vocabularies are used, so a standard JSON-LD processor expands it
//! without a private context. Made from the bytes of `claims.json`, so
//! `serve`, which keeps that file per page, needs nothing more.

use serde_json::{json, Map, Value};

/// The JSON-LD document for `claims_json` (the bytes of `claims.json`).
///
/// At 100,000 claims (`claims.json` ~90 MB) the parsed document, a copy of
/// its claims and the graph of nodes each cost most of a gigabyte when held
/// whole, the build's peak at N = 10,000. So the claims are read twice: once
/// for each claim's id and URL (what premises and successors link to), then
/// one at a time, each turned into its node, written and dropped. The bytes
/// are those `to_vec_pretty` gives for the whole document.
pub(super) fn from_claims_json(claims_json: &[u8]) -> Vec<u8> {
    let index: Index = serde_json::from_slice(claims_json).expect("claims.json is written as JSON");
    let ids: std::collections::HashMap<&str, &Value> = index
        .claims
        .iter()
        .map(|c| (c.id.as_str(), &c.url.ja))
        .collect();
    // The document with a placeholder where the graph goes; the graph's
    // array is written in its place, element by element.
    const GRAPH: &str = "\u{0}graph";
    let out = json!({
        "@context": {
            "@vocab": "https://schema.org/",
            "prov": "http://www.w3.org/ns/prov#",
            "dcterms": "http://purl.org/dc/terms/",
            "wasDerivedFrom": { "@id": "prov:wasDerivedFrom", "@type": "@id" },
            "isReplacedBy": { "@id": "dcterms:isReplacedBy", "@type": "@id" },
            "url": { "@id": "url", "@type": "@id" }
        },
        "version": index.version,
        "@graph": GRAPH,
    });
    let shell = serde_json::to_string_pretty(&out).expect("the export serialises");
    let placeholder = serde_json::to_string(GRAPH).expect("a string serialises");
    let (head, tail) = shell
        .split_once(&placeholder)
        .expect("the placeholder is in the document");
    let mut bytes = Vec::with_capacity(claims_json.len() + claims_json.len() / 4);
    bytes.extend_from_slice(head.as_bytes());
    let mut any = false;
    let mut write = |c: Value| {
        bytes.extend_from_slice(if any { b",\n" } else { b"[\n" });
        any = true;
        let one = serde_json::to_string_pretty(&node(&c, &ids)).expect("a node serialises");
        // An element of the graph sits two levels deep.
        for (k, line) in one.split('\n').enumerate() {
            if k > 0 {
                bytes.push(b'\n');
            }
            bytes.extend_from_slice(b"    ");
            bytes.extend_from_slice(line.as_bytes());
        }
    };
    let mut de = serde_json::Deserializer::from_slice(claims_json);
    serde::de::DeserializeSeed::deserialize(EachClaim(&mut write), &mut de)
        .expect("claims.json is written as JSON");
    bytes.extend_from_slice(if any { b"\n  ]" } else { b"[]" });
    bytes.extend_from_slice(tail.as_bytes());
    bytes.push(b'\n');
    bytes
}

/// What the first reading of `claims.json` keeps: its version, and each
/// claim's id and Japanese URL.
#[derive(serde::Deserialize)]
struct Index {
    version: Value,
    #[serde(default)]
    claims: Vec<ClaimUrl>,
}

#[derive(serde::Deserialize)]
struct ClaimUrl {
    id: String,
    url: JaUrl,
}

#[derive(serde::Deserialize)]
struct JaUrl {
    ja: Value,
}

/// Hands each element of the document's `claims` array, parsed on its own,
/// to the function it holds.
struct EachClaim<'f>(&'f mut dyn FnMut(Value));

impl<'de> serde::de::DeserializeSeed<'de> for EachClaim<'_> {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> serde::de::Visitor<'de> for EachClaim<'_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the claims.json document")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let each = self.0;
        while let Some(key) = map.next_key::<String>()? {
            if key == "claims" {
                map.next_value_seed(Elements(&mut *each))?;
            } else {
                map.next_value::<serde::de::IgnoredAny>()?;
            }
        }
        Ok(())
    }
}

/// The `claims` array itself, one element at a time.
struct Elements<'f>(&'f mut dyn FnMut(Value));

impl<'de> serde::de::DeserializeSeed<'de> for Elements<'_> {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> serde::de::Visitor<'de> for Elements<'_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an array of claims")
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while let Some(claim) = seq.next_element::<Value>()? {
            (self.0)(claim);
        }
        Ok(())
    }
}

fn node(c: &Value, ids: &std::collections::HashMap<&str, &Value>) -> Value {
    let mut derived: Vec<Value> = c["evidence"]
        .as_array()
        .map(|links| {
            links
                .iter()
                .map(|l| {
                    let mut e = Map::new();
                    e.insert("@id".into(), l["url"]["ja"].clone());
                    e.insert("@type".into(), json!("prov:Entity"));
                    e.insert("name".into(), l["path"].clone());
                    if let Some(q) = l["quote"].as_str() {
                        e.insert("prov:value".into(), json!(q));
                    }
                    Value::Object(e)
                })
                .collect()
        })
        .unwrap_or_default();
    if let Some(from) = c["from"].as_array() {
        derived.extend(
            from.iter()
                .filter_map(|f| ids.get(f.as_str()?))
                .map(|&u| json!({ "@id": u })),
        );
    }
    let mut n = Map::new();
    n.insert("@id".into(), c["url"]["ja"].clone());
    n.insert("@type".into(), json!(["Claim", "prov:Entity"]));
    n.insert("identifier".into(), c["id"].clone());
    n.insert(
        "text".into(),
        json!([
            { "@value": c["text"]["ja"], "@language": "ja" },
            { "@value": c["text"]["en"], "@language": "en" }
        ]),
    );
    n.insert("url".into(), json!([c["url"]["ja"], c["url"]["en"]]));
    n.insert(
        "additionalProperty".into(),
        json!({ "@type": "PropertyValue", "name": "evidenceClass", "value": c["class"] }),
    );
    n.insert("creativeWorkStatus".into(), c["state"].clone());
    n.insert("wasDerivedFrom".into(), Value::Array(derived));
    if let Some(next) = c["superseded-by"].as_str().and_then(|id| ids.get(id)) {
        n.insert("isReplacedBy".into(), (*next).clone());
    }
    if let Some(reason) = c.get("reason") {
        n.insert(
            "description".into(),
            json!([
                { "@value": reason["ja"], "@language": "ja" },
                { "@value": reason["en"], "@language": "en" }
            ]),
        );
    }
    Value::Object(n)
}
