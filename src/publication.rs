//! `[book] license` and `[book] publisher`: under what terms a record is
//! published and by whom, which its RO-Crate states (`render::rocrate`)
//! and RO-Crate asks for (`license` is required, `publisher` recommended).
//!
//! A license is an SPDX license expression (`CC-BY-4.0`, `MIT OR
//! Apache-2.0`), checked against the SPDX license list the `spdx` crate
//! carries, with a did-you-mean for a misspelt id; or the URL of a
//! license; or `NOASSERTION`, SPDX's word for "no license is stated",
//! for a record whose terms are not known. A publisher is a table:
//! `{ name = "…", url = "…", email = "…", type = "organization" }`.
//!
//! This module reads only the two values `config` hands it, with their
//! places in `book.toml`, and knows nothing else of the configuration.

use crate::error::Diagnostic;
use crate::source::Source;
use serde::Deserialize;
use std::ops::Range;
use toml::Spanned;

/// The code of a `license` that is not an SPDX expression or a URL.
const LICENSE: &str = "E007";
/// The code of a `publisher` value that cannot be published as given.
const PUBLISHER: &str = "E008";

/// The terms a record is published under (`[book] license`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum License {
    /// An SPDX license expression as written, and the licenses in it, in
    /// order, each once: (SPDX id, its full name).
    Spdx {
        /// The expression (`MIT OR Apache-2.0`).
        expression: String,
        /// The licenses it names.
        licenses: Vec<(&'static str, &'static str)>,
    },
    /// The URL of a license (`https://…`).
    Url(String),
    /// `NOASSERTION`: the record states no license.
    NotStated,
}

/// SPDX's value for "no license information is asserted".
pub(crate) const NOT_STATED: &str = "NOASSERTION";

/// Who publishes a record (`[book] publisher`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct Publisher {
    /// Its name.
    pub(crate) name: String,
    /// Its web address, if given.
    pub(crate) url: Option<String>,
    /// An address to write to, if given.
    pub(crate) email: Option<String>,
    /// A person rather than an organization.
    pub(crate) person: bool,
}

/// `[book] publisher` as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct RawPublisher {
    name: Spanned<String>,
    url: Option<Spanned<String>>,
    email: Option<Spanned<String>>,
    #[serde(rename = "type")]
    kind: Option<PublisherKind>,
}

/// A publisher's `type`.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "lowercase")]
enum PublisherKind {
    Organization,
    Person,
}

/// Checks `[book] license`, pushing a finding for each mistake.
pub(crate) fn license(
    src: &Source,
    raw: &Spanned<String>,
    diags: &mut Vec<Diagnostic>,
) -> Option<License> {
    let text = raw.get_ref();
    // Where the value's text starts: after its opening quote.
    let start = raw.span().start + 1;
    let at = |r: Range<usize>| start + r.start..start + r.end;
    let trimmed = text.trim();
    if trimmed.is_empty() {
        diags.push(
            src.error(LICENSE, raw.span(), "`license` is empty")
                .with_hint(HOW_TO_NAME),
        );
        return None;
    }
    if trimmed == NOT_STATED {
        return Some(License::NotStated);
    }
    if trimmed.starts_with("http://") || trimmed.starts_with("https://") {
        return match url_problem(trimmed) {
            None => Some(License::Url(trimmed.to_owned())),
            Some(why) => {
                diags.push(
                    src.error(LICENSE, raw.span(), format!("`license` {why}"))
                        .with_hint("give the license's address, e.g. \"https://creativecommons.org/licenses/by/4.0/\""),
                );
                None
            }
        };
    }
    let expression = match spdx::Expression::parse_mode(trimmed, spdx::ParseMode::STRICT) {
        Ok(e) => e,
        Err(e) => {
            let offset = text.len() - text.trim_start().len();
            let span = e.span.start + offset..e.span.end + offset;
            let term = trimmed.get(e.span.clone()).unwrap_or(trimmed);
            diags.push(spdx_error(src, at(span), term, &e.reason));
            return None;
        }
    };
    let mut licenses: Vec<(&'static str, &'static str)> = Vec::new();
    for req in expression.requirements() {
        match req.req.license.id() {
            Some(id) => {
                if !licenses.iter().any(|(n, _)| *n == id.name) {
                    licenses.push((id.name, id.full_name));
                }
            }
            None => {
                let offset = text.len() - text.trim_start().len();
                let span = req.span.start as usize + offset..req.span.end as usize + offset;
                diags.push(
                    src.error(
                        LICENSE,
                        at(span),
                        format!(
                            "`{}` names a license that is not on the SPDX list, which a reader cannot look up",
                            req.req.license
                        ),
                    )
                    .with_hint("give the license's address instead: `license = \"https://…\"`"),
                );
                return None;
            }
        }
    }
    Some(License::Spdx {
        expression: trimmed.to_owned(),
        licenses,
    })
}

const HOW_TO_NAME: &str = "name the license by its SPDX id (e.g. \"CC-BY-4.0\"), by its URL, or write \"NOASSERTION\" when no license is stated";

/// The finding for an SPDX expression that does not parse.
fn spdx_error(
    src: &Source,
    span: Range<usize>,
    term: &str,
    reason: &spdx::error::Reason,
) -> Diagnostic {
    use spdx::error::Reason;
    match reason {
        Reason::UnknownLicense | Reason::UnknownTerm => {
            let hint = match nearest_license(term) {
                Some(id) => format!("did you mean `{id}`?"),
                None => HOW_TO_NAME.to_owned(),
            };
            src.error(LICENSE, span, format!("`{term}` is not an SPDX license id"))
                .with_hint(hint)
        }
        Reason::DeprecatedLicenseId => {
            let hint = match deprecated_successor(term) {
                Some(ids) => format!("use {ids}"),
                None => "use a current id from https://spdx.org/licenses/".to_owned(),
            };
            src.error(
                LICENSE,
                span,
                format!("`{term}` is a deprecated SPDX license id"),
            )
            .with_hint(hint)
        }
        other => src
            .error(
                LICENSE,
                span,
                format!(
                    "`license` is not an SPDX license expression: {}",
                    describe(other)
                ),
            )
            .with_hint("join SPDX ids with AND, OR or WITH, e.g. \"MIT OR Apache-2.0\""),
    }
}

fn describe(reason: &spdx::error::Reason) -> String {
    use spdx::error::Reason;
    match reason {
        Reason::UnknownException => "unknown exception id".to_owned(),
        Reason::InvalidCharacters => "invalid characters".to_owned(),
        Reason::UnclosedParens => "a `(` is never closed".to_owned(),
        Reason::UnopenedParens => "a `)` closes nothing".to_owned(),
        Reason::Empty => "it names no license".to_owned(),
        Reason::Unexpected(expected) => format!("expected {}", expected.join(" or ")),
        Reason::SeparatedPlus => "`+` must follow the id without a space".to_owned(),
        Reason::GnuNoPlus | Reason::GnuPlusWithSuffix => {
            "a GNU license takes `-only` or `-or-later`, not `+`".to_owned()
        }
        _ => "it does not parse".to_owned(),
    }
}

/// The SPDX id a misspelt `term` most likely means: the same id in other
/// letter case (`mit`), a common name for it (`Apache 2`), or the nearest
/// id by edit distance (`CC-BY-4`).
fn nearest_license(term: &str) -> Option<&'static str> {
    let ids = || {
        spdx::identifiers::LICENSES
            .iter()
            .filter(|l| l.flags & spdx::flags::IS_DEPRECATED == 0)
    };
    if let Some(l) = ids().find(|l| l.name.eq_ignore_ascii_case(term)) {
        return Some(l.name);
    }
    if let Some((id, len)) = spdx::imprecise_license_id(term) {
        if len == term.len() {
            return Some(id.name);
        }
    }
    let lower = term.to_ascii_lowercase();
    let names: Vec<(String, &'static str)> = ids()
        .map(|l| (l.name.to_ascii_lowercase(), l.name))
        .collect();
    let near = crate::suggest::nearest(&lower, names.iter().map(|(n, _)| n.as_str()))?;
    names.iter().find(|(n, _)| n == near).map(|(_, id)| *id)
}

/// For a deprecated GNU-style id (`GPL-2.0`, `LGPL-3.0+`): its `-only`
/// and `-or-later` forms, as a hint.
fn deprecated_successor(term: &str) -> Option<String> {
    let base = term.trim_end_matches('+');
    let only = spdx::license_id(&format!("{base}-only"))?;
    let later = spdx::license_id(&format!("{base}-or-later"))?;
    Some(if term.ends_with('+') {
        format!("`{}`", later.name)
    } else {
        format!("`{}` or `{}`", only.name, later.name)
    })
}

/// Why `url` cannot be published as a link, if it cannot.
fn url_problem(url: &str) -> Option<&'static str> {
    let rest = url.split_once("://").map_or("", |(_, r)| r);
    let host = rest.split(['/', '?', '#']).next().unwrap_or("");
    if host.is_empty() {
        Some("is a URL without a host")
    } else if url.chars().any(|c| c.is_whitespace() || c.is_control()) {
        Some("is a URL with a space or control character in it")
    } else {
        None
    }
}

/// Checks `[book] publisher`, pushing a finding for each mistake.
pub(crate) fn publisher(
    src: &Source,
    raw: &RawPublisher,
    diags: &mut Vec<Diagnostic>,
) -> Option<Publisher> {
    let before = diags.len();
    let name = raw.name.get_ref().trim();
    if name.is_empty() {
        diags.push(
            src.error(
                PUBLISHER,
                raw.name.span(),
                "the publisher's `name` is empty",
            )
            .with_hint("give the name of the person or organization that publishes the record"),
        );
    }
    let url = raw.url.as_ref().and_then(|u| {
        let text = u.get_ref().trim();
        let problem = if !(text.starts_with("https://") || text.starts_with("http://")) {
            Some("is not an http(s) URL")
        } else {
            url_problem(text)
        };
        match problem {
            None => Some(text.to_owned()),
            Some(why) => {
                diags.push(
                    src.error(PUBLISHER, u.span(), format!("the publisher's `url` {why}"))
                        .with_hint(
                            "give the publisher's web address, e.g. \"https://example.org/\"",
                        ),
                );
                None
            }
        }
    });
    let email = raw.email.as_ref().and_then(|e| {
        let text = e.get_ref().trim();
        let valid = text.split_once('@').is_some_and(|(user, host)| {
            !user.is_empty() && host.contains('.') && !host.starts_with('.')
        }) && !text
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || c == '<' || c == '>');
        if valid {
            Some(text.to_owned())
        } else {
            diags.push(
                src.error(
                    PUBLISHER,
                    e.span(),
                    format!("the publisher's `email` `{text}` is not an email address"),
                )
                .with_hint("write the address alone, e.g. \"records@example.org\""),
            );
            None
        }
    });
    if diags.len() > before {
        return None;
    }
    // An ORCID iD is a person's; otherwise `type` says, and an
    // organization is what publishes most records.
    let person = match raw.kind {
        Some(PublisherKind::Person) => true,
        Some(PublisherKind::Organization) => false,
        None => url
            .as_deref()
            .is_some_and(|u| u.starts_with("https://orcid.org/")),
    };
    Some(Publisher {
        name: name.to_owned(),
        url,
        email,
        person,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn license_of(value: &str) -> Result<License, Vec<Diagnostic>> {
        #[derive(Deserialize)]
        struct Doc {
            license: Spanned<String>,
        }
        let text = format!("license = {value}\n");
        let doc: Doc = toml::from_str(&text).expect("TOML");
        let src = Source::new("book.toml".into(), text);
        let mut diags = Vec::new();
        license(&src, &doc.license, &mut diags).ok_or(diags)
    }

    #[test]
    fn spdx_ids_and_expressions_are_licenses() {
        assert_eq!(
            license_of("\"CC-BY-4.0\"").expect("valid"),
            License::Spdx {
                expression: "CC-BY-4.0".into(),
                licenses: vec![(
                    "CC-BY-4.0",
                    "Creative Commons Attribution 4.0 International"
                )],
            }
        );
        let License::Spdx { licenses, .. } = license_of("\"MIT OR Apache-2.0\"").expect("valid")
        else {
            panic!("an SPDX expression")
        };
        assert_eq!(
            licenses.iter().map(|(id, _)| *id).collect::<Vec<_>>(),
            ["MIT", "Apache-2.0"]
        );
        assert_eq!(
            license_of("\"NOASSERTION\"").expect("valid"),
            License::NotStated
        );
        assert_eq!(
            license_of("\"https://example.org/terms\"").expect("valid"),
            License::Url("https://example.org/terms".into())
        );
    }

    #[test]
    fn an_unknown_id_is_located_with_the_id_it_likely_means() {
        let e = license_of("\"CC-BY-4\"").expect_err("unknown");
        assert_eq!(e[0].code, "E007");
        assert_eq!(e[0].location.to_string(), "book.toml:1:12");
        assert_eq!(e[0].message, "`CC-BY-4` is not an SPDX license id");
        assert_eq!(e[0].hint.as_deref(), Some("did you mean `CC-BY-4.0`?"));
        // Letter case, and the column of the second term.
        let e = license_of("\"MIT OR apache-2.0\"").expect_err("case");
        assert_eq!(e[0].location.to_string(), "book.toml:1:19");
        assert_eq!(e[0].hint.as_deref(), Some("did you mean `Apache-2.0`?"));
        let e = license_of("\"GPL-2.0\"").expect_err("deprecated");
        assert_eq!(e[0].message, "`GPL-2.0` is a deprecated SPDX license id");
        assert_eq!(
            e[0].hint.as_deref(),
            Some("use `GPL-2.0-only` or `GPL-2.0-or-later`")
        );
        let e = license_of("\"\"").expect_err("empty");
        assert_eq!(e[0].message, "`license` is empty");
        let e = license_of("\"https:///x\"").expect_err("no host");
        assert_eq!(e[0].message, "`license` is a URL without a host");
    }

    #[test]
    fn a_publisher_needs_a_name_and_a_real_address() {
        #[derive(Deserialize)]
        struct Doc {
            publisher: RawPublisher,
        }
        let check = |value: &str| {
            let text = format!("publisher = {value}\n");
            let doc: Doc = toml::from_str(&text).expect("TOML");
            let src = Source::new("book.toml".into(), text);
            let mut diags = Vec::new();
            publisher(&src, &doc.publisher, &mut diags).ok_or(diags)
        };
        let p = check("{ name = \"Lab\", url = \"https://orcid.org/0000-0002-1825-0097\" }")
            .expect("valid");
        assert!(p.person, "an ORCID iD is a person's");
        let p = check("{ name = \"Lab\", email = \"lab@example.org\" }").expect("valid");
        assert!(!p.person);
        let e = check("{ name = \" \", url = \"example.org\", email = \"nobody\" }")
            .expect_err("three mistakes");
        let found: Vec<String> = e
            .iter()
            .map(|d| format!("{} {}", d.location, d.message))
            .collect();
        assert_eq!(
            found,
            [
                "book.toml:1:22 the publisher's `name` is empty",
                "book.toml:1:33 the publisher's `url` is not an http(s) URL",
                "book.toml:1:56 the publisher's `email` `nobody` is not an email address",
            ]
        );
    }
}
