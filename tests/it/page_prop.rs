//! Property tests: arbitrary bytes and near-valid pages never panic the
//! loader, the checker or the build, and whatever `check` accepts builds.

use proptest::prelude::*;
use std::path::Path;

const BOOK: &str = "[book]\ntitle = { ja = \"試験\", en = \"Test\" }\n";
const LOG: &str = "+++\nkind = \"raw\"\n+++\none\ntwo\nthree\nfour\n";
const VALID: &str = "+++\ntitle = { ja = \"頁\", en = \"Page\" }\nweight = 1\n\n[[claims]]\nid = \"c1\"\nclass = \"confirmed\"\nja = \"確認\"\nen = \"Seen\"\nevidence = [\"log.txt#L1-L3\"]\n\n[[claims]]\nid = \"c2\"\nclass = \"inferred\"\nja = \"推論\"\nen = \"Inferred\"\nevidence = [{ path = \"log.txt\", lines = \"2-4\", quote = \"three\" }]\nfrom = [\"c1\"]\n+++\n::: ja\n本文 [[claim:c1]]\n:::\n::: en\nBody [[claim:c2]]\n:::\n\n| a | b |\n|---|---|\n| [[claim:c1]] | x |\n\n```log\nERROR 0x10\n```\n";

fn site(dir: &Path, page: &[u8]) {
    std::fs::create_dir_all(dir.join("content")).expect("temp dir is writable");
    std::fs::create_dir_all(dir.join("evidence")).expect("temp dir is writable");
    std::fs::write(dir.join("book.toml"), BOOK).expect("temp dir is writable");
    std::fs::write(dir.join("evidence/log.txt"), LOG).expect("temp dir is writable");
    std::fs::write(dir.join("content/_index.md"), page).expect("temp dir is writable");
}

/// The property: `check` never panics; if it finds no error that also
/// stops a build, `build` succeeds; otherwise `build` refuses and writes
/// nothing.
fn holds(page: &[u8]) -> Result<(), TestCaseError> {
    let tmp = crate::scratch::tempdir();
    site(tmp.path(), page);
    let report = crate::common::check(tmp.path()).expect("no I/O failure on a temp site");
    // Search indexing is tested elsewhere and costs most of a tiny build.
    let built = crate::common::build_with(
        tmp.path(),
        kansoku::site::BuildOptions {
            search: false,
            ..Default::default()
        },
    );
    // Untranslated segments are errors in `check` but warnings in `build`.
    let build_errors = report
        .diagnostics
        .iter()
        .filter(|d| d.is_error() && d.code != "E032")
        .count();
    if build_errors == 0 {
        prop_assert!(
            built.is_ok(),
            "check found no build error but build failed: {:?}",
            built.err().map(|e| e.to_string())
        );
    } else {
        prop_assert!(built.is_err(), "check found errors but build succeeded");
        prop_assert!(
            !tmp.path().join("public").exists(),
            "a refused build wrote public/"
        );
        for d in &report.diagnostics {
            prop_assert!(
                d.location.line >= 1 && d.location.col >= 1,
                "bad location in {d}"
            );
        }
    }
    Ok(())
}

/// A valid page with a few characters deleted, inserted or replaced.
fn near_valid() -> impl Strategy<Value = Vec<u8>> {
    let edits = prop::collection::vec(
        (
            0usize..VALID.len(),
            0u8..3,
            prop::sample::select(vec![
                "\"", "=", "[", "]", "+++\n", ":::\n", "\n", "#L9", "x", "{", "\u{FEFF}", "\r\n",
                "\u{0}", "é",
            ]),
        ),
        1..4,
    );
    edits.prop_map(|edits| {
        let mut s = VALID.as_bytes().to_vec();
        for (pos, op, text) in edits {
            let pos = pos.min(s.len());
            match op {
                0 => {
                    let end = (pos + 3).min(s.len());
                    s.drain(pos..end);
                }
                1 => {
                    s.splice(pos..pos, text.bytes());
                }
                _ => {
                    let end = (pos + 1).min(s.len());
                    s.splice(pos..end, text.bytes());
                }
            }
        }
        s
    })
}

#[test]
fn the_valid_page_builds() {
    holds(VALID.as_bytes()).expect("valid page holds the property");
    let tmp = crate::scratch::tempdir();
    site(tmp.path(), VALID.as_bytes());
    assert_eq!(
        crate::common::check(tmp.path())
            .expect("check runs")
            .errors(),
        0
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        holds(&bytes)?;
    }

    #[test]
    fn arbitrary_bytes_after_a_fence_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        let mut page = b"+++\n".to_vec();
        page.extend(bytes);
        holds(&page)?;
    }

    #[test]
    fn near_valid_pages_never_panic(page in near_valid()) {
        holds(&page)?;
    }
}
