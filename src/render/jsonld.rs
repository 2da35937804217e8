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
pub(super) fn from_claims_json(claims_json: &[u8]) -> Vec<u8> {
    let doc: Value = serde_json::from_slice(claims_json).expect("claims.json is written as JSON");
    let claims = doc["claims"].as_array().cloned().unwrap_or_default();
    let ids: std::collections::HashMap<&str, &Value> = claims
        .iter()
        .filter_map(|c| Some((c["id"].as_str()?, &c["url"]["ja"])))
        .collect();
    let graph: Vec<Value> = claims.iter().map(|c| node(c, &ids)).collect();
    let out = json!({
        "@context": {
            "@vocab": "https://schema.org/",
            "prov": "http://www.w3.org/ns/prov#",
            "dcterms": "http://purl.org/dc/terms/",
            "wasDerivedFrom": { "@id": "prov:wasDerivedFrom", "@type": "@id" },
            "isReplacedBy": { "@id": "dcterms:isReplacedBy", "@type": "@id" },
            "url": { "@id": "url", "@type": "@id" }
        },
        "version": doc["version"],
        "@graph": graph,
    });
    let mut bytes = serde_json::to_vec_pretty(&out).expect("the export serialises");
    bytes.push(b'\n');
    bytes
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
