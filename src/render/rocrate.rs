//! `ro-crate-metadata.json`: the published site as an RO-Crate 1.3, and
//! `claims.schema.json` beside `claims.json`, which the crate names as the
//! schema it conforms to.
//!
//! The crate's root is the build directory: a `Dataset` whose parts are
//! the raw copies of the evidence files (`evidence/…`, each a `File` with
//! its size and SHA-256), `claims.json`, its schema and `claims.jsonld`
//! (where the claims are schema.org `Claim`s; they are not repeated here).
//! A captured or imported file carries how it came to be as RO-Crate's
//! provenance pattern says: a `CreateAction` whose `result` it is, with the
//! program as its `instrument` and the run's start and end times, and the
//! PROV link `claims.jsonld` gives its lines (`prov:wasGeneratedBy`).
//!
//! Only terms of the RO-Crate context are used (no `@vocab` there: a term
//! it lacks would vanish on expansion), the graph and every object's keys
//! are sorted, and every entity a property names is in the graph. The
//! root's license, publisher and `datePublished` are `super::crate_terms`'s;
//! the date is the only thing that can come from the clock, and only when
//! no page states an `updated` date (`SOURCE_DATE_EPOCH` then fixes it).
//! The raw bytes are read from disk as `files::evidence_page` reads them
//! to copy.

use super::context::{Ctx, Whole};
use super::crate_terms::{self as terms, is_iso_date, tagged};
use super::paths::raw_evidence_path;
use super::OutputFile;
use crate::error::{Diagnostic, Location};
use crate::evidence::{EvidenceFile, EvidenceKind, Provenance};
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

/// The RO-Crate specification the crate conforms to, and its context. The
/// context's URL is the one the RO-Crate 1.3 context file gives as its own
/// `@id` (tests/fixtures/ro-crate/ holds that file).
const SPEC: &str = "https://w3id.org/ro/crate/1.3";
const CONTEXT: &str = "https://w3id.org/ro/crate/1.3/context";

/// The JSON Schema of `claims.json`, published beside it.
pub(crate) const CLAIMS_SCHEMA: &str = include_str!("../../schemas/claims.schema.json");

/// The crate and the schema, in that order. `claims` are `claims.json`
/// and `claims.jsonld` as the build writes them, whose sizes and hashes
/// the crate states.
pub(super) fn files(
    cx: &Ctx<'_>,
    whole: Whole<'_>,
    claims: &[OutputFile],
) -> Result<[OutputFile; 2], Diagnostic> {
    let files = whole.evidence_files();
    let mut evidence = Vec::with_capacity(files.len());
    for file in files {
        let (size, hash) = hash_file(&file.disk_path).map_err(|e| {
            Diagnostic::error(
                "E043",
                Location::file(format!("{}/{}", cx.evidence_dir(), file.path)),
                format!("cannot read evidence file: {e}"),
            )
        })?;
        evidence.push((file, size, hash));
    }
    let published = terms::date_published(cx.outlines())?;
    let mut bytes =
        serde_json::to_vec_pretty(&document(cx.config(), whole, &evidence, claims, &published))
            .expect("the crate serialises");
    bytes.push(b'\n');
    Ok([
        OutputFile {
            path: "ro-crate-metadata.json".to_owned(),
            bytes,
        },
        OutputFile {
            path: "claims.schema.json".to_owned(),
            bytes: CLAIMS_SCHEMA.as_bytes().to_vec(),
        },
    ])
}

/// One evidence file with the size and SHA-256 of its published copy.
type Raw<'a> = (&'a EvidenceFile, u64, String);

/// The size and SHA-256 of the file at `path`, read in pieces: a log of
/// any size costs no more memory than a small one.
fn hash_file(path: &std::path::Path) -> std::io::Result<(u64, String)> {
    use sha2::Digest;
    let mut hasher = sha2::Sha256::new();
    let size = std::io::copy(&mut std::fs::File::open(path)?, &mut hasher)?;
    Ok((size, hex(&hasher.finalize())))
}

fn document(
    config: &crate::config::Config,
    whole: Whole<'_>,
    evidence: &[Raw<'_>],
    claims: &[OutputFile],
    published: &str,
) -> Value {
    let mut parts: Vec<Value> = Vec::new();
    let mut entities: BTreeMap<String, Value> = BTreeMap::new();
    let mut add = |entity: Value| {
        let id = entity["@id"].as_str().expect("every entity has an @id");
        parts.push(json!({ "@id": id }));
        entities.insert(id.to_owned(), entity);
    };
    // The size and hash of a claims file as this build writes it.
    let sized = |path: &str, mut entity: Value| {
        if let Some(f) = claims.iter().find(|f| f.path == path) {
            entity["contentSize"] = json!(f.bytes.len().to_string());
            entity["sha256"] = json!(sha256(&f.bytes));
        }
        entity
    };
    add(sized(
        "claims.json",
        json!({
            "@id": "claims.json",
            "@type": "File",
            "conformsTo": { "@id": "claims.schema.json" },
            "description": "Every claim of the record: its id, evidence class, page, texts in Japanese and English, the evidence lines it cites, the claims it rests on, its answer and its state.",
            "encodingFormat": "application/json",
            "name": "claims.json",
        }),
    ));
    add(sized(
        "claims.jsonld",
        json!({
            "@id": "claims.jsonld",
            "@type": "File",
            "description": "The claims of claims.json as linked data: each a schema.org Claim and a W3C PROV Entity, derived from the evidence lines it cites (prov:wasDerivedFrom).",
            "encodingFormat": "application/ld+json",
            "name": "claims.jsonld",
        }),
    ));
    // A File, and the CreativeWork that claims.json `conformsTo`: RO-Crate
    // asks that a file conform to a Profile or CreativeWork entity of the
    // crate, and a JSON Schema is a creative work (a File is a
    // MediaObject, one too, but a reader without schema.org's class tree
    // cannot tell).
    add(json!({
        "@id": "claims.schema.json",
        "@type": ["File", "CreativeWork"],
        "contentSize": CLAIMS_SCHEMA.len().to_string(),
        "description": "The JSON Schema of claims.json.",
        "encodingFormat": "application/schema+json",
        "name": "claims.schema.json",
        "sha256": sha256(CLAIMS_SCHEMA.as_bytes()),
    }));
    let mut actions: BTreeMap<String, Action<'_>> = BTreeMap::new();
    for (file, size, hash) in evidence {
        let id = file_id(&raw_evidence_path(&file.path));
        let header = file.header.as_ref();
        let mut entity = Map::new();
        entity.insert("@id".into(), json!(id));
        entity.insert("@type".into(), json!("File"));
        entity.insert("contentSize".into(), json!(size.to_string()));
        if let Some(captured) = header
            .and_then(|h| h.captured.as_deref())
            .filter(|c| is_iso_date(c))
        {
            entity.insert("dateCreated".into(), json!(captured));
        }
        // What the file restates (a transcript's `source`), or what the
        // person capturing it said (a capture's `note`).
        if let Some(text) = header.and_then(|h| h.provenance.note.as_ref().or(h.source.as_ref())) {
            entity.insert("description".into(), json!(text));
        }
        entity.insert("encodingFormat".into(), json!(media_type(&file.path)));
        if let Some(kind) = file.kind() {
            entity.insert("genre".into(), json!(kind.name()));
        }
        entity.insert("name".into(), json!(file.path));
        if let Some(run) = run_of(whole, file) {
            let action = actions.entry(run.0.clone()).or_insert_with(|| Action {
                id: format!("#run-{}", file_id(&run.0)),
                provenance: run.1,
                kind: file.kind().unwrap_or(EvidenceKind::Capture),
                results: Vec::new(),
            });
            action.results.push(id.clone());
            entity.insert(
                "prov:wasGeneratedBy".into(),
                json!({ "@id": action.id.clone() }),
            );
        }
        entity.insert("sha256".into(), json!(hash));
        add(Value::Object(entity));
    }
    let mut programs = BTreeMap::new();
    let mut statuses = std::collections::BTreeSet::new();
    for action in actions.values() {
        let entity = action.entity(&mut programs);
        if let Some(status) = entity["actionStatus"]["@id"].as_str() {
            statuses.insert(status.to_owned());
        }
        entities.insert(action.id.clone(), entity);
    }
    // The program as the command line named it: a capture records neither
    // its version nor where it came from, which RO-Crate requires of a
    // `SoftwareApplication`, so it is the schema.org `Thing` an action's
    // `instrument` may be, and says what is not known.
    for (id, name) in programs {
        entities.insert(
            id.clone(),
            json!({
                "@id": id,
                "@type": "Thing",
                "description": format!("The program `{name}` as the captured command line named it; its version and origin were not recorded."),
                "name": name,
            }),
        );
    }
    // Each status an action ended with, described in the graph as RO-Crate
    // asks of every entity referenced.
    for id in statuses {
        let (name, description) = if id.ends_with("CompletedActionStatus") {
            (
                "Completed",
                "The command ran to its end and exited with status 0.",
            )
        } else {
            (
                "Failed",
                "The command exited with a non-zero status (see the action's `error`).",
            )
        };
        entities.insert(
            id.clone(),
            json!({ "@id": id, "@type": "ActionStatusType", "description": description, "name": name }),
        );
    }
    parts.sort_by(|a, b| a["@id"].as_str().cmp(&b["@id"].as_str()));

    let mut root = Map::new();
    root.insert("@id".into(), json!("./"));
    root.insert("@type".into(), json!("Dataset"));
    root.insert("datePublished".into(), json!(published));
    if !config.description.ja.is_empty() || !config.description.en.is_empty() {
        root.insert("description".into(), tagged(&config.description));
    }
    root.insert("hasPart".into(), Value::Array(parts));
    root.insert("inLanguage".into(), json!(["ja", "en"]));
    if let Some(license) = &config.license {
        let (reference, described) = terms::license_entities(license);
        root.insert("license".into(), reference);
        for e in described {
            entities.insert(e["@id"].as_str().unwrap_or_default().to_owned(), e);
        }
    }
    root.insert("name".into(), tagged(&config.title));
    if let Some(publisher) = &config.publisher {
        let (reference, described) = terms::publisher_entities(publisher);
        root.insert("publisher".into(), reference);
        for e in described {
            entities.insert(e["@id"].as_str().unwrap_or_default().to_owned(), e);
        }
    }
    if let Some(origin) = &config.origin {
        root.insert("url".into(), json!(format!("{origin}{}", config.base_path)));
    }
    let mut graph = vec![
        json!({
            "@id": "ro-crate-metadata.json",
            "@type": "CreativeWork",
            "about": { "@id": "./" },
            "conformsTo": { "@id": SPEC },
        }),
        Value::Object(root),
    ];
    graph.extend(entities.into_values());
    json!({ "@context": CONTEXT, "@graph": graph })
}

/// A run of a command (or an import) that produced evidence files.
struct Action<'a> {
    id: String,
    provenance: &'a Provenance,
    kind: EvidenceKind,
    /// The files it produced: its stdout and its stderr.
    results: Vec<String>,
}

impl Action<'_> {
    /// The `CreateAction`, adding its program to `programs` (id → name).
    fn entity(&self, programs: &mut BTreeMap<String, String>) -> Value {
        let p = self.provenance;
        let mut a = Map::new();
        a.insert("@id".into(), json!(self.id));
        a.insert("@type".into(), json!("CreateAction"));
        // How it ended, by its exit status: a non-zero one is what the
        // program itself reported as failure.
        let failed = p.exit.as_deref().filter(|e| *e != "0");
        if p.exit.is_some() {
            let status = match failed {
                None => "http://schema.org/CompletedActionStatus",
                Some(_) => "http://schema.org/FailedActionStatus",
            };
            a.insert("actionStatus".into(), json!({ "@id": status }));
        }
        if !p.command.is_empty() {
            // The command line, as RO-Crate's examples give it.
            a.insert("description".into(), json!(p.command.join(" ")));
        }
        if let Some(t) = &p.ended {
            a.insert("endTime".into(), json!(t));
        }
        if let Some(exit) = failed {
            a.insert("error".into(), json!(format!("exit {exit}")));
        }
        if let Some(program) = p.command.first() {
            let id = format!("#program-{}", file_id(program));
            a.insert("instrument".into(), json!({ "@id": id }));
            programs.insert(id, program.clone());
        }
        let name = match (self.kind, &p.original) {
            (EvidenceKind::Import, Some(original)) => format!("Import of {original}"),
            (EvidenceKind::Import, None) => "Import of a log".to_owned(),
            _ => format!(
                "Run of {}",
                p.command.first().map_or("a command", String::as_str)
            ),
        };
        a.insert("name".into(), json!(name));
        let results: Vec<Value> = self.results.iter().map(|r| json!({ "@id": r })).collect();
        a.insert(
            "result".into(),
            match <[Value; 1]>::try_from(results) {
                Ok([one]) => one,
                Err(all) => Value::Array(all),
            },
        );
        if let Some(t) = &p.started {
            a.insert("startTime".into(), json!(t));
        }
        Value::Object(a)
    }
}

/// The run that produced `file`, if it is a capture or an import: the
/// path its action is keyed on (the stdout file of a capture whose
/// stderr is kept beside it, so both are one run) and its provenance.
fn run_of<'a>(whole: Whole<'a>, file: &'a EvidenceFile) -> Option<(String, &'a Provenance)> {
    let h = file.header.as_ref()?;
    if !matches!(h.kind, Some(EvidenceKind::Capture | EvidenceKind::Import)) {
        return None;
    }
    let p = &h.provenance;
    if p.stream.as_deref() == Some("stderr") {
        if let Some(sibling) = p.other_stream.as_ref().and_then(|o| whole.evidence_file(o)) {
            if sibling.kind() == h.kind {
                return Some((sibling.path.clone(), p));
            }
        }
    }
    Some((file.path.clone(), p))
}

/// A path as a URI reference relative to the crate's root: RO-Crate asks
/// for `@id`s percent-encoded (a space is `%20`, non-ASCII its UTF-8).
fn file_id(path: &str) -> String {
    use percent_encoding::{utf8_percent_encode, AsciiSet, CONTROLS};
    const SET: &AsciiSet = &CONTROLS
        .add(b' ')
        .add(b'"')
        .add(b'#')
        .add(b'%')
        .add(b'<')
        .add(b'>')
        .add(b'?')
        .add(b'[')
        .add(b'\\')
        .add(b']')
        .add(b'^')
        .add(b'`')
        .add(b'{')
        .add(b'|')
        .add(b'}');
    utf8_percent_encode(path, SET).to_string()
}

/// The media type of a published evidence file. Evidence is text; a
/// compressed log is published as it is, and an active type is published
/// with `.txt` added (`raw_evidence_path`), as plain text.
fn media_type(path: &str) -> &'static str {
    let published = raw_evidence_path(path);
    let ext = published
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase());
    match ext.as_deref() {
        Some("gz") => "application/gzip",
        Some("json") => "application/json",
        Some("csv") => "text/csv",
        Some("tsv") => "text/tab-separated-values",
        Some("md") => "text/markdown",
        _ => "text/plain",
    }
}

fn sha256(bytes: &[u8]) -> String {
    use sha2::Digest;
    hex(&sha2::Sha256::digest(bytes))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_percent_encoded_paths() {
        assert_eq!(
            file_id("phase-c/runner-maps.txt"),
            "phase-c/runner-maps.txt"
        );
        assert_eq!(
            file_id("a b/観測#1.log"),
            "a%20b/%E8%A6%B3%E6%B8%AC%231.log"
        );
    }

    #[test]
    fn media_types_follow_the_published_name() {
        assert_eq!(media_type("x/run.log"), "text/plain");
        assert_eq!(media_type("x/run.log.gz"), "application/gzip");
        // Published as x/page.html.txt.
        assert_eq!(media_type("x/page.html"), "text/plain");
        assert_eq!(media_type("x/data.JSON"), "application/json");
    }

    #[test]
    fn only_iso_dates_are_dates() {
        assert!(is_iso_date("2026-03-28"));
        assert!(is_iso_date("2026-03-28T10:00:00Z"));
        assert!(!is_iso_date("March 2026"));
        assert!(!is_iso_date("2026-3-28"));
        assert!(!is_iso_date("2026-03-28x"));
    }
}
