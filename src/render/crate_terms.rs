//! The root of the RO-Crate (`super::rocrate`): under what terms the
//! record is published and by whom (`[book] license` and `publisher`, as
//! `crate::publication` checked them), and when (`datePublished`). Each
//! entity is made as the official validator (roc-validator, profile
//! ro-crate-1.3) asks: a license with an absolute URL, a name and a
//! description; a publisher with its contact; a date in ISO 8601.

use crate::error::{Diagnostic, Location};
use crate::lang::Bi;
use crate::publication::{License, Publisher};
use serde_json::{json, Map, Value};

/// The root's `license` and the entities it names. RO-Crate asks for a
/// license entity with an absolute URL, a name and a description; an SPDX
/// license is named by its SPDX URL. A record that states no license says
/// so in words, in both languages, rather than be given one.
pub(super) fn license_entities(license: &License) -> (Value, Vec<Value>) {
    match license {
        License::Spdx {
            expression,
            licenses,
        } => {
            let one = licenses.len() == 1;
            let entities: Vec<Value> = licenses
                .iter()
                .map(|(id, name)| {
                    let url = format!("https://spdx.org/licenses/{id}");
                    let description = if one && expression == id {
                        format!("The SPDX license {id}; its text is at {url}.html.")
                    } else {
                        format!(
                            "{id}, one of the licenses of the SPDX expression `{expression}` the record is published under; its text is at {url}.html."
                        )
                    };
                    json!({
                        "@id": url,
                        "@type": "CreativeWork",
                        "description": description,
                        "identifier": id,
                        "name": name,
                        "url": format!("{url}.html"),
                    })
                })
                .collect();
            let refs: Vec<Value> = entities
                .iter()
                .map(|e| json!({ "@id": e["@id"] }))
                .collect();
            let reference = match <[Value; 1]>::try_from(refs) {
                Ok([r]) => r,
                Err(all) => Value::Array(all),
            };
            (reference, entities)
        }
        License::Url(url) => (
            json!({ "@id": url }),
            vec![json!({
                "@id": url,
                "@type": "CreativeWork",
                "description": "The license the record is published under, at the address its book.toml gives.",
                "name": url,
            })],
        ),
        License::NotStated => (
            json!({ "@id": "#license" }),
            vec![json!({
                "@id": "#license",
                "@type": "CreativeWork",
                "description": tagged(&Bi {
                    ja: "この記録にはライセンスが記載されていません(book.toml の license が \"NOASSERTION\")。本文や証拠を再利用する前に、著者に確認してください。".to_owned(),
                    en: "No license is stated for this record (its book.toml gives license = \"NOASSERTION\"). Ask its authors before reusing its text or evidence.".to_owned(),
                }),
                "identifier": crate::publication::NOT_STATED,
                "name": tagged(&Bi {
                    ja: "ライセンスの記載なし".to_owned(),
                    en: "No license stated".to_owned(),
                }),
            })],
        ),
    }
}

/// The root's `publisher` and the entities it names: the publisher (its
/// URL as its `@id`, as RO-Crate's examples do, when it has one) and,
/// when it gives an address, a `ContactPoint`.
pub(super) fn publisher_entities(p: &Publisher) -> (Value, Vec<Value>) {
    let id = p.url.clone().unwrap_or_else(|| "#publisher".to_owned());
    let mut publisher = Map::new();
    publisher.insert("@id".into(), json!(id));
    publisher.insert(
        "@type".into(),
        json!(if p.person { "Person" } else { "Organization" }),
    );
    let mut entities = Vec::new();
    if p.email.is_some() || p.url.is_some() {
        let contact_id = p.email.as_ref().map_or_else(
            || "#publisher-contact".to_owned(),
            |e| format!("mailto:{e}"),
        );
        let mut contact = Map::new();
        contact.insert("@id".into(), json!(contact_id));
        contact.insert("@type".into(), json!("ContactPoint"));
        if let Some(email) = &p.email {
            contact.insert("email".into(), json!(email));
        }
        contact.insert("name".into(), json!(p.name));
        if let Some(url) = &p.url {
            contact.insert("url".into(), json!(url));
        }
        entities.push(Value::Object(contact));
        publisher.insert("contactPoint".into(), json!({ "@id": contact_id }));
    }
    publisher.insert("name".into(), json!(p.name));
    if let Some(url) = &p.url {
        publisher.insert("url".into(), json!(url));
    }
    entities.push(Value::Object(publisher));
    (json!({ "@id": id }), entities)
}

/// The root's `datePublished`: the newest `updated` date a page states,
/// else the day of the build in UTC, which `SOURCE_DATE_EPOCH` sets (the
/// reproducible-builds convention), so two builds of one input can still
/// be the same bytes.
pub(crate) fn date_published<'a>(
    pages: impl Iterator<Item = &'a crate::content::Outline>,
) -> Result<String, Diagnostic> {
    let newest = pages
        .filter_map(|p| p.updated.as_deref())
        .filter(|d| is_iso_date(d))
        .max();
    match newest {
        Some(date) => Ok(date.to_owned()),
        None => build_date(
            std::env::var("SOURCE_DATE_EPOCH").ok().as_deref(),
            std::time::SystemTime::now(),
        ),
    }
}

/// The UTC day of `SOURCE_DATE_EPOCH` (seconds since 1970-01-01 UTC) when
/// it is set, else of `now`; a value that is not such a number is an
/// error, as the convention asks, rather than silently today.
fn build_date(epoch: Option<&str>, now: std::time::SystemTime) -> Result<String, Diagnostic> {
    let seconds = match epoch {
        Some(text) => text.trim().parse::<i64>().map_err(|_| {
            Diagnostic::error(
                "E009",
                Location {
                    path: "SOURCE_DATE_EPOCH".to_owned(),
                    line: 0,
                    col: 0,
                },
                format!("`{text}` is not a whole number of seconds since 1970-01-01 UTC"),
            )
            .with_hint("unset it, or give the time the record was last changed, e.g. SOURCE_DATE_EPOCH=$(git log -1 --format=%ct)")
        })?,
        None => now
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX)),
    };
    let day = time::OffsetDateTime::from_unix_timestamp(seconds)
        .map(time::OffsetDateTime::date)
        .map_err(|_| {
            Diagnostic::error(
                "E009",
                Location {
                    path: "SOURCE_DATE_EPOCH".to_owned(),
                    line: 0,
                    col: 0,
                },
                format!("{seconds} seconds since 1970-01-01 UTC is not a date kansoku can write"),
            )
            .with_hint("give a time between the years -9999 and 9999 in seconds, e.g. SOURCE_DATE_EPOCH=$(git log -1 --format=%ct)")
        })?;
    Ok(format!(
        "{:04}-{:02}-{:02}",
        day.year(),
        u8::from(day.month()),
        day.day()
    ))
}

/// A language-tagged value per language, Japanese first.
pub(super) fn tagged(bi: &Bi<String>) -> Value {
    json!([
        { "@language": "ja", "@value": bi.ja },
        { "@language": "en", "@value": bi.en },
    ])
}

/// `YYYY-MM-DD`, optionally followed by a time: what ISO 8601 dates in
/// headers and front matter look like (a free-text `captured` is not).
pub(super) fn is_iso_date(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 10
        && b[..4].iter().all(u8::is_ascii_digit)
        && b[4] == b'-'
        && b[5..7].iter().all(u8::is_ascii_digit)
        && b[7] == b'-'
        && b[8..10].iter().all(u8::is_ascii_digit)
        && (b.len() == 10 || b[10] == b'T' || b[10] == b' ')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_build_date_is_source_date_epoch_s_day_in_utc() {
        let now = std::time::UNIX_EPOCH + std::time::Duration::from_secs(86_400 * 365);
        assert_eq!(build_date(None, now).expect("a date"), "1971-01-01");
        // 2026-11-28T23:59:59Z, then one second later.
        assert_eq!(
            build_date(Some("1795910399"), now).expect("a date"),
            "2026-11-28"
        );
        assert_eq!(
            build_date(Some("1795910400"), now).expect("a date"),
            "2026-11-29"
        );
        let e = build_date(Some("yesterday"), now).expect_err("not a number");
        assert_eq!(e.code, "E009");
        assert_eq!(e.location.to_string(), "SOURCE_DATE_EPOCH");
        assert_eq!(
            e.message,
            "`yesterday` is not a whole number of seconds since 1970-01-01 UTC"
        );
    }
}
