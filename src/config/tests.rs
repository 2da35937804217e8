//! Reading `book.toml`: what each key gives, and each mistake's finding.

use super::*;

fn parse(text: &str) -> std::result::Result<Config, Vec<Diagnostic>> {
    Config::parse(Source::new("book.toml".into(), text.into()))
}

#[test]
fn unknown_key_names_line_and_col() {
    let e = parse("[book]\ntitle = \"x\"\ntitel = \"y\"\n").expect_err("unknown key");
    assert_eq!(e[0].location.to_string(), "book.toml:3:1");
    assert_eq!(e[0].code, "E002");
}

#[test]
fn an_unknown_key_suggests_the_nearest_allowed_one() {
    let e = parse("[evidence]\ndirr = \"logs\"\n").expect_err("unknown key");
    assert_eq!(e[0].code, "E002");
    assert_eq!(e[0].hint.as_deref(), Some("did you mean `dir`?"));
    let e = parse("[output.html]\nsite-title = \"x\"\n").expect_err("unknown key");
    assert_eq!(
        e[0].hint.as_deref(),
        Some("remove the key or fix its spelling")
    );
}

#[test]
fn wrong_type_is_located() {
    let e = parse("[serve]\nport = \"x\"\n").expect_err("wrong type");
    assert_eq!(e[0].location.to_string(), "book.toml:2:8");
    assert_eq!(e[0].code, "E003");
}

#[test]
fn site_url_forms() {
    assert_eq!(split_site_url("/"), (None, "/".into()));
    assert_eq!(split_site_url("/docs"), (None, "/docs/".into()));
    assert_eq!(
        split_site_url("https://example.org/rocm/"),
        (Some("https://example.org".into()), "/rocm/".into())
    );
}

#[test]
fn search_and_pagination_settings() {
    let c = parse("").expect("valid");
    assert!(c.search);
    assert_eq!(c.paginate_by, DEFAULT_PAGINATE_BY);
    let c = parse("[search]\nenabled = false\n[output.html]\npaginate-by = 7\n").expect("valid");
    assert!(!c.search);
    assert_eq!(c.paginate_by, 7);
    let e = parse("[output.html]\npaginate-by = -1\n").expect_err("negative");
    assert_eq!(e[0].location.to_string(), "book.toml:2:15");
    assert_eq!(e[0].message, "`paginate-by` cannot be negative");
}

#[test]
fn outputs_are_on_unless_switched_off() {
    let all = Outputs {
        markdown: true,
        llms: true,
        ro_crate: true,
    };
    assert_eq!(parse("").expect("valid").outputs, all);
    let c = parse("[output]\nmarkdown = false\nro-crate = false\n").expect("valid");
    assert_eq!(
        c.outputs,
        Outputs {
            markdown: false,
            ro_crate: false,
            ..all
        }
    );
    let e = parse("[output]\nmarkdown = \"yes\"\n").expect_err("not a boolean");
    assert_eq!(e[0].location.to_string(), "book.toml:2:12");
}

#[test]
fn the_gz_cap_is_a_size_in_bytes_or_units() {
    assert_eq!(parse("").expect("valid").max_gz_size, 2 << 30);
    for (given, bytes) in [
        ("\"2 GiB\"", 2u64 << 30),
        ("\"512 MiB\"", 512 << 20),
        ("\"64KiB\"", 64 << 10),
        ("\"100 B\"", 100),
        ("\"7\"", 7),
        ("1048576", 1 << 20),
    ] {
        let c = parse(&format!("[evidence]\nmax-gz-size = {given}\n")).expect(given);
        assert_eq!(c.max_gz_size, bytes, "{given}");
    }
    for (given, why) in [
        ("\"2 GB\"", "`max-gz-size`: a size is a number of bytes or a number and a unit (B, KiB, MiB, GiB, TiB), such as \"2 GiB\""),
        ("-1", "`max-gz-size`: a size is a number of bytes or a number and a unit (B, KiB, MiB, GiB, TiB), such as \"2 GiB\""),
        ("\"99999999999 TiB\"", "`max-gz-size`: a size is a number of bytes or a number and a unit (B, KiB, MiB, GiB, TiB), such as \"2 GiB\""),
        ("0", "`max-gz-size`: a size of 0 would refuse every `.gz` log"),
    ] {
        let e = parse(&format!("[evidence]\nmax-gz-size = {given}\n")).expect_err(given);
        assert_eq!(e[0].code, "E003", "{given}");
        assert_eq!(e[0].location.to_string(), "book.toml:2:15", "{given}");
        assert_eq!(e[0].message, why, "{given}");
        assert_eq!(
            e[0].hint.as_deref(),
            Some("give the most a `.gz` log may expand to, such as \"2 GiB\"")
        );
    }
}

#[test]
fn plain_string_title_is_both_languages() {
    let c = parse("[book]\ntitle = \"ROCm-pages\"\nlanguages = [\"en\", \"ja\"]\n").expect("valid");
    assert_eq!(c.title.ja, "ROCm-pages");
    assert_eq!(c.default_lang(), Lang::En);
}
