//! Loading pages: what a page, its claims and its file name give.

use super::*;

#[test]
fn url_paths() {
    assert_eq!(url_path("_index.md"), "");
    assert_eq!(url_path("notes/_index.md"), "notes/");
    assert_eq!(url_path("notes/first.md"), "notes/first/");
}

fn load(text: &str) -> (Option<Page>, Vec<Diagnostic>) {
    let mut d = Vec::new();
    let p = load_page(
        Source::new("content/p.md".into(), text.into()),
        "p.md",
        &mut d,
    );
    let p = match p {
        PageLoad::Ok(p) => Some(p),
        _ => None,
    };
    (p, d)
}

/// The outline is the page's part of every render unit's memo key: a
/// value another page may show changes it, a line that only moves
/// the declarations (their spans) does not.
#[test]
fn an_outline_hashes_its_values_not_where_they_sit() {
    let page = |above: &str, status: &str| {
        let text = format!(
            "+++\ntitle = {{ ja = \"x\", en = \"x\" }}\n{above}[entity]\nkind = \"component\"\n\
             key = \"k\"\nname = {{ ja = \"k\", en = \"k\" }}\nstatus = \"{status}\"\n\
             depends-on = [\"j\"]\n+++\nBody.\n"
        );
        let (page, d) = load(&text);
        page.unwrap_or_else(|| panic!("{d:?}"))
    };
    let hash = |p: &Page| crate::hash::memo::hash_of(&p.outline);
    let (before, moved) = (page("", "a"), page("# a note\n", "a"));
    let (b, m) = (before.entity.as_ref(), moved.entity.as_ref());
    assert_ne!(
        b.map(|e| e.key_span.0.clone()),
        m.map(|e| e.key_span.0.clone())
    );
    assert_eq!(hash(&before), hash(&moved));
    assert_ne!(hash(&before), hash(&page("", "b")));
}

#[test]
fn toml_errors_count_lines_in_the_whole_file() {
    let (_, d) = load("+++\ntitle = \"x\"\nweight = \"heavy\"\n+++\n");
    assert_eq!(d[0].location.to_string(), "content/p.md:3:10");
    assert_eq!(d[0].code, "E003");
}

#[test]
fn unknown_key_in_claim() {
    let (_, d) = load("+++\ntitle = \"x\"\n[[claims]]\nid = \"a\"\nclass = \"confirmed\"\nja = \"あ\"\nen = \"a\"\nevidense = []\n+++\n");
    assert_eq!(d[0].code, "E002");
    assert_eq!(d[0].location.to_string(), "content/p.md:8:1");
    // The missing `evidence` is the same mistake: not reported again.
    assert_eq!(d.len(), 1, "{d:?}");
}

fn codes(d: &[Diagnostic]) -> Vec<String> {
    d.iter()
        .map(|d| format!("{}@{}", d.code, d.location))
        .collect()
}

/// A page with errors, assembled as far as it parsed, and its findings.
fn partial(text: &str) -> (Page, Vec<Diagnostic>) {
    let mut d = Vec::new();
    match load_page(
        Source::new("content/p.md".into(), text.into()),
        "p.md",
        &mut d,
    ) {
        PageLoad::Partial(p) => (p, d),
        _ => panic!("a partial page: {d:?}"),
    }
}

#[test]
fn every_mistake_of_a_front_matter_is_reported_and_the_rest_kept() {
    let text = "+++\ntitel = \"x\"\nweight = \"heavy\"\n\n[[claims]]\nid = \"a\"\nclass = \"推論\"\nja = \"あ\"\nen = \"a\"\nevidence = [\"x.log#L1\"]\nextra = 1\n\n[[claims]]\nid = \"b\"\nclass = \"confirmed\"\nja = \"い\"\nevidence = [\"y.log#L2\"]\n+++\n";
    let (page, d) = partial(text);
    assert_eq!(
        codes(&d),
        [
            "E002@content/p.md:2:1",
            "E003@content/p.md:3:10",
            "E002@content/p.md:11:1",
            "E010@content/p.md:7:9",
            "E031@content/p.md:14:6",
        ]
    );
    assert_eq!(d[0].hint.as_deref(), Some("did you mean `title`?"));
    assert_eq!(d[3].hint.as_deref(), Some("did you mean `inferred`?"));
    // Both claims are kept, broken, with their links, to be checked.
    let ids: Vec<(&str, bool, usize)> = page
        .claims
        .iter()
        .map(|c| (c.id.as_str(), c.broken, c.evidence.len()))
        .collect();
    assert_eq!(ids, [("a", true, 1), ("b", true, 1)]);
}

#[test]
fn a_toml_syntax_error_keeps_the_claims_that_parsed() {
    let text = "+++\ntitle = \"x\"\n\n[[claims]]\nid = \"a\"\nclass = \"confirmed\"\nja = \"あ\"\nen = \"a\"\nevidence = [\"x.log#L1\"\n\n[[claims]]\nid = \"b\"\nclass = \"confirmed\"\nja = \"い\"\nen = \"b\"\nevidence = [\"y.log#L2\"]\n+++\n";
    let (page, d) = partial(text);
    assert!(d.iter().all(|d| d.code == "E001"), "{d:?}");
    assert!(
        page.claims
            .iter()
            .any(|c| c.id == "b" && c.evidence.len() == 1),
        "{:?}",
        page.claims
    );
}

#[test]
fn claim_without_evidence() {
    let (_, d) = load("+++\ntitle = \"x\"\n[[claims]]\nid = \"a\"\nclass = \"confirmed\"\nja = \"あ\"\nen = \"a\"\n+++\n");
    assert_eq!(d[0].code, "E011");
    assert_eq!(d[0].location.to_string(), "content/p.md:4:6");
}
