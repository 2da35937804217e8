//! UI strings through Fluent: `templates/i18n/{ja,en}.ftl`.
//!
//! The embedded theme's files are loaded first and a site's own files
//! override them message by message. Templates reach them through the Tera
//! function `t(key=…, lang=…)`; no UI text is written in Rust or templates.

use crate::error::Diagnostic;
use crate::lang::Lang;
use crate::source::Source;
use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use std::collections::HashMap;
use std::sync::Arc;

/// One Fluent bundle per language.
pub(crate) struct I18n {
    ja: FluentBundle<FluentResource>,
    en: FluentBundle<FluentResource>,
}

impl std::fmt::Debug for I18n {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("I18n").finish_non_exhaustive()
    }
}

impl I18n {
    /// Builds the bundles from (path, text) sources per language, later
    /// sources overriding earlier ones.
    pub(crate) fn new(sources: &[(Lang, String, String)]) -> Result<I18n, Vec<Diagnostic>> {
        let mut diags = Vec::new();
        let mut make = |lang: Lang| {
            let id: unic_langid::LanguageIdentifier = lang
                .code()
                .parse()
                .expect("ja and en are valid language ids");
            let mut bundle = FluentBundle::new_concurrent(vec![id]);
            // Bidi isolation marks would end up as stray characters in HTML.
            bundle.set_use_isolating(false);
            for (_, path, text) in sources.iter().filter(|(l, _, _)| *l == lang) {
                match FluentResource::try_new(text.clone()) {
                    Ok(res) => bundle.add_resource_overriding(res),
                    Err((_, errors)) => {
                        let src = Source::new(path.clone(), text.clone());
                        for e in errors {
                            diags.push(
                                src.error(
                                    "E041",
                                    e.pos.start..e.pos.end,
                                    format!("Fluent syntax error: {}", e.kind),
                                )
                                .with_hint(
                                    "see https://projectfluent.org/fluent/guide/ for the syntax",
                                ),
                            );
                        }
                    }
                }
            }
            bundle
        };
        let ja = make(Lang::Ja);
        let en = make(Lang::En);
        if diags.is_empty() {
            Ok(I18n { ja, en })
        } else {
            Err(diags)
        }
    }

    fn bundle(&self, lang: Lang) -> &FluentBundle<FluentResource> {
        match lang {
            Lang::Ja => &self.ja,
            Lang::En => &self.en,
        }
    }

    /// The message `key` in `lang`, with arguments.
    pub(crate) fn message(
        &self,
        lang: Lang,
        key: &str,
        args: Option<&FluentArgs<'_>>,
    ) -> Result<String, String> {
        let bundle = self.bundle(lang);
        let msg = bundle
            .get_message(key)
            .ok_or_else(|| format!("no UI string `{key}` in templates/i18n/{lang}.ftl"))?;
        let pattern = msg
            .value()
            .ok_or_else(|| format!("UI string `{key}` in {lang}.ftl has no value"))?;
        let mut errors = Vec::new();
        let out = bundle
            .format_pattern(pattern, args, &mut errors)
            .into_owned();
        if let Some(e) = errors.first() {
            return Err(format!("UI string `{key}` in {lang}.ftl: {e}"));
        }
        Ok(out)
    }
}

/// The Tera function `t(key, lang, …args)`.
pub(crate) struct Translate(
    pub(crate) Arc<I18n>,
    pub(crate) std::sync::RwLock<[crate::hash::Map<String, String>; 2]>,
);

/// Which of [`Translate`]'s two caches holds `lang`'s messages.
fn slot(lang: Lang) -> usize {
    match lang {
        Lang::Ja => 0,
        Lang::En => 1,
    }
}

impl tera::Function for Translate {
    fn call(&self, args: &HashMap<String, tera::Value>) -> tera::Result<tera::Value> {
        // One pass over the few arguments rather than two lookups: Tera's
        // map hashes with SipHash, which a test build runs unoptimised.
        let (mut key, mut lang) = (None, None);
        for (name, value) in args {
            match name.as_str() {
                "key" => key = value.as_str(),
                "lang" => lang = value.as_str(),
                _ => {}
            }
        }
        let key = key.ok_or_else(|| tera::Error::msg("t() needs `key`"))?;
        let lang = lang.and_then(Lang::from_code).ok_or_else(|| {
            tera::Error::msg(format!("t(key=\"{key}\") needs `lang` = \"ja\" or \"en\""))
        })?;
        // Every page asks for the same chrome strings, and Fluent
        // formatting is the costly part: a message without arguments (only
        // `key` and `lang` given) is formatted once per language and looked
        // up by `key` alone, without a key allocated per call.
        let plain = args.len() == 2;
        if plain {
            if let Some(hit) = self.1.read().unwrap_or_else(|p| p.into_inner())[slot(lang)].get(key)
            {
                return Ok(tera::Value::String(hit.clone()));
            }
        }
        let mut fargs = FluentArgs::new();
        let mut names: Vec<&String> = args
            .keys()
            .filter(|k| *k != "key" && *k != "lang")
            .collect();
        names.sort();
        for name in names {
            let value = match &args[name] {
                tera::Value::Number(n) => FluentValue::from(n.as_f64().unwrap_or(0.0)),
                tera::Value::String(s) => FluentValue::from(s.clone()),
                other => FluentValue::from(other.to_string()),
            };
            fargs.set(name.clone(), value);
        }
        let text = self
            .0
            .message(lang, key, (!plain).then_some(&fargs))
            .map_err(tera::Error::msg)?;
        if plain {
            self.1.write().unwrap_or_else(|p| p.into_inner())[slot(lang)]
                .insert(key.to_owned(), text.clone());
        }
        Ok(tera::Value::String(text))
    }

    fn is_safe(&self) -> bool {
        false
    }
}
