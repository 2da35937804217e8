//! The published formats (issue 16; the record's own lock is checked in
//! content.rs): `claims.json` against its schema, a `claims.json` that
//! breaks it rejected, and the JSON-LD export as well-formed linked data.

use super::{build_quiet, reviewed, schema_errors};
use crate::common;

#[test]
fn claims_json_follows_its_schema() {
    let mut t = reviewed();
    build_quiet(&mut t);
    assert_eq!(schema_errors(&t.read("claims.json")), []);
    let mut rocm = common::repo_site();
    build_quiet(&mut rocm);
    assert_eq!(schema_errors(&rocm.read("claims.json")), []);
}

/// The schema test can fail: a `claims.json` that breaks the schema in
/// one place gives one error, at that place, by the keyword broken.
#[test]
fn a_claims_json_that_breaks_its_schema_is_rejected() {
    let valid = serde_json::json!({
        "version": 3,
        "claims": [{
            "id": "loads-hip",
            "class": "confirmed",
            "page": "content/_index.md",
            "url": { "ja": "/ja/#claim-loads-hip", "en": "/en/#claim-loads-hip" },
            "text": { "ja": "読み込む。", "en": "It loads." },
            "evidence": [{
                "path": "logs/run.log",
                "lines": [2, 3],
                "quote": null,
                "url": { "ja": "/ja/evidence/logs/run.log/#L2-L3", "en": "/en/evidence/logs/run.log/#L2-L3" }
            }],
            "from": [],
            "about": null,
            "aspect": null,
            "tags": [],
            "state": "superseded",
            "reason": { "ja": "古い。", "en": "Old." },
            "superseded-by": "uses-mmq",
            "translated-by": "machine"
        }]
    });
    assert_eq!(schema_errors(&valid.to_string()), []);
    let broken = |edit: &dyn Fn(&mut serde_json::Value)| {
        let mut doc = valid.clone();
        edit(&mut doc);
        schema_errors(&doc.to_string())
            .into_iter()
            .map(|(at, keyword, _)| (at, keyword))
            .collect::<Vec<_>>()
    };
    let one = |at: &str, keyword: &str| vec![(at.to_owned(), keyword.to_owned())];
    // A wrong type.
    assert_eq!(
        broken(&|d| d["claims"][0]["page"] = 7.into()),
        one("/claims/0/page", "type")
    );
    assert_eq!(
        broken(&|d| d["claims"][0]["text"]["en"] = serde_json::Value::Null),
        one("/claims/0/text/en", "type")
    );
    // A required field missing.
    assert_eq!(
        broken(&|d| {
            d["claims"][0]
                .as_object_mut()
                .expect("a claim")
                .remove("state");
        }),
        one("/claims/0", "required")
    );
    assert_eq!(
        broken(&|d| {
            d.as_object_mut().expect("an object").remove("version");
        }),
        one("", "required")
    );
    // A class or state the format does not have.
    assert_eq!(
        broken(&|d| d["claims"][0]["class"] = "certain".into()),
        one("/claims/0/class", "enum")
    );
    assert_eq!(
        broken(&|d| d["claims"][0]["state"] = "withdrawn".into()),
        one("/claims/0/state", "enum")
    );
    // Another version; a field the format does not have; an id that is
    // no URL fragment; a line range of three numbers, or from line 0.
    assert_eq!(
        broken(&|d| d["version"] = 2.into()),
        one("/version", "const")
    );
    assert_eq!(
        broken(&|d| d["claims"][0]["confidence"] = 0.9.into()),
        one("/claims/0", "additionalProperties")
    );
    assert_eq!(
        broken(&|d| d["claims"][0]["id"] = "loads hip".into()),
        one("/claims/0/id", "pattern")
    );
    assert_eq!(
        broken(&|d| d["claims"][0]["evidence"][0]["lines"] = serde_json::json!([1, 2, 3])),
        one("/claims/0/evidence/0/lines", "oneOf")
    );
    assert_eq!(
        broken(&|d| d["claims"][0]["evidence"][0]["lines"] = serde_json::json!([0, 2])),
        one("/claims/0/evidence/0/lines", "oneOf")
    );
    // No evidence at all.
    assert_eq!(
        broken(&|d| d["claims"][0]["evidence"] = serde_json::json!([])),
        one("/claims/0/evidence", "minItems")
    );
}

/// JSON-LD well-formedness by the rules a processor applies while
/// expanding (JSON-LD 1.1 §9): the context maps terms to absolute IRIs or
/// compact IRIs of its own prefixes; every key of every node is a keyword,
/// a defined term, a compact IRI with a defined prefix, or covered by
/// `@vocab`; `@id` values are strings; value objects carry `@value` with
/// at most `@language` (a BCP 47 tag) beside it.
fn jsonld_errors(doc: &serde_json::Value) -> Vec<String> {
    use serde_json::Value;
    let mut errs = Vec::new();
    let ctx = doc["@context"].as_object().expect("an inline context");
    let absolute = |s: &str| s.starts_with("http://") || s.starts_with("https://");
    let prefixes: Vec<&str> = ctx
        .iter()
        .filter(|(_, v)| {
            v.as_str()
                .is_some_and(|s| absolute(s) && (s.ends_with('#') || s.ends_with('/')))
        })
        .map(|(k, _)| k.as_str())
        .collect();
    let expands = |s: &str| {
        absolute(s)
            || s.split_once(':')
                .is_some_and(|(p, _)| prefixes.contains(&p))
            || ctx.contains_key("@vocab") && !s.contains(':')
    };
    for (k, v) in ctx {
        let iri = match v {
            Value::String(s) => s.as_str(),
            Value::Object(o) => o["@id"].as_str().unwrap_or(""),
            _ => "",
        };
        if !(k == "@vocab" && absolute(iri) || expands(iri)) {
            errs.push(format!("context term {k} → {iri:?} does not expand"));
        }
    }
    fn walk(v: &Value, expands: &dyn Fn(&str) -> bool, errs: &mut Vec<String>) {
        match v {
            Value::Array(a) => a.iter().for_each(|x| walk(x, expands, errs)),
            Value::Object(o) if o.contains_key("@value") => {
                for k in o.keys() {
                    if !matches!(k.as_str(), "@value" | "@language") {
                        errs.push(format!("value object with {k}"));
                    }
                }
                if let Some(l) = o.get("@language") {
                    if !matches!(l.as_str(), Some("ja" | "en")) {
                        errs.push(format!("language {l}"));
                    }
                }
                if !o["@value"].is_string() {
                    errs.push(format!("@value {}", o["@value"]));
                }
            }
            Value::Object(o) => {
                for (k, x) in o {
                    match k.as_str() {
                        "@context" => {}
                        "@id" if !x.is_string() => errs.push(format!("@id {x}")),
                        "@type" => {
                            let ts: Vec<&Value> =
                                x.as_array().map_or(vec![x], |a| a.iter().collect());
                            for t in ts {
                                if !t.as_str().is_some_and(expands) {
                                    errs.push(format!("@type {t}"));
                                }
                            }
                        }
                        "@id" | "@graph" => walk(x, expands, errs),
                        k if k.starts_with('@') => errs.push(format!("unknown keyword {k}")),
                        k if !expands(k) => errs.push(format!("key {k} does not expand")),
                        _ => walk(x, expands, errs),
                    }
                }
            }
            _ => {}
        }
    }
    walk(doc, &expands, &mut errs);
    errs
}

#[test]
fn claims_jsonld_is_well_formed_linked_data() {
    let mut t = reviewed();
    build_quiet(&mut t);
    let doc: serde_json::Value = serde_json::from_str(&t.read("claims.jsonld")).expect("JSON");
    assert_eq!(jsonld_errors(&doc), Vec::<String>::new());
    let graph = doc["@graph"].as_array().expect("graph");
    assert_eq!(graph.len(), 5);
    let uses = graph
        .iter()
        .find(|n| n["identifier"] == "uses-mmq")
        .expect("node");
    assert_eq!(uses["@type"], serde_json::json!(["Claim", "prov:Entity"]));
    assert_eq!(uses["@id"], "/ja/#claim-uses-mmq");
    assert_eq!(uses["additionalProperty"]["value"], "inferred");
    let derived = uses["wasDerivedFrom"].as_array().expect("derived");
    assert_eq!(derived[0]["@id"], "/ja/evidence/logs/run.log/#L3");
    assert_eq!(
        derived[1],
        serde_json::json!({"@id": "/ja/#claim-loads-hip"})
    );
    let old = graph
        .iter()
        .find(|n| n["identifier"] == "old-path")
        .expect("node");
    assert_eq!(old["isReplacedBy"], "/ja/#claim-uses-mmq");
    assert_eq!(old["creativeWorkStatus"], "superseded");
    // The check can fail.
    let mut bad = doc.clone();
    bad["@graph"][0]["evidenceClass"] = serde_json::json!("x");
    bad["@graph"][0]["@foo"] = serde_json::json!("x");
    assert_eq!(jsonld_errors(&bad).len(), 1, "{:?}", jsonld_errors(&bad));
}
