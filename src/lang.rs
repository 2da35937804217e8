//! The two languages of a kansoku site and text given in both.
//!
//! kansoku is bilingual by design: Japanese and English, in the order the
//! site's `book.toml` lists them. Nothing here touches files.

use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A site language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    /// Japanese.
    Ja,
    /// English.
    En,
}

impl Lang {
    /// Both languages, in code order.
    pub(crate) const ALL: [Lang; 2] = [Lang::Ja, Lang::En];

    /// The BCP 47 code.
    pub(crate) fn code(self) -> &'static str {
        match self {
            Lang::Ja => "ja",
            Lang::En => "en",
        }
    }

    /// The other language.
    pub(crate) fn other(self) -> Lang {
        match self {
            Lang::Ja => Lang::En,
            Lang::En => Lang::Ja,
        }
    }

    /// Parses a code.
    pub(crate) fn from_code(code: &str) -> Option<Lang> {
        match code {
            "ja" => Some(Lang::Ja),
            "en" => Some(Lang::En),
            _ => None,
        }
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A value in each language.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Bi<T> {
    /// Japanese.
    pub(crate) ja: T,
    /// English.
    pub(crate) en: T,
}

impl<T> Bi<T> {
    /// The value for one language.
    pub(crate) fn get(&self, lang: Lang) -> &T {
        match lang {
            Lang::Ja => &self.ja,
            Lang::En => &self.en,
        }
    }
}

/// Bilingual text as written: a plain string (both languages) or `{ ja, en }`,
/// where either side may be missing so the loader can say which one is.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct RawBi {
    pub(crate) ja: Option<String>,
    pub(crate) en: Option<String>,
}

impl RawBi {
    /// The languages missing or blank.
    pub(crate) fn missing(&self) -> Vec<Lang> {
        let blank = |s: &Option<String>| s.as_deref().is_none_or(|s| s.trim().is_empty());
        let mut out = Vec::new();
        if blank(&self.ja) {
            out.push(Lang::Ja);
        }
        if blank(&self.en) {
            out.push(Lang::En);
        }
        out
    }

    /// Both sides, when both are present and non-blank.
    pub(crate) fn complete(&self) -> Option<Bi<String>> {
        if !self.missing().is_empty() {
            return None;
        }
        Some(Bi {
            ja: self.ja.clone()?,
            en: self.en.clone()?,
        })
    }
}

impl<'de> Deserialize<'de> for RawBi {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = RawBi;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string or a table `{ ja = \"…\", en = \"…\" }`")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<RawBi, E> {
                Ok(RawBi {
                    ja: Some(v.to_owned()),
                    en: Some(v.to_owned()),
                })
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<RawBi, A::Error> {
                #[derive(Deserialize)]
                #[serde(deny_unknown_fields)]
                struct Table {
                    ja: Option<String>,
                    en: Option<String>,
                }
                let t = Table::deserialize(de::value::MapAccessDeserializer::new(map))?;
                Ok(RawBi { ja: t.ja, en: t.en })
            }
        }
        d.deserialize_any(V)
    }
}
