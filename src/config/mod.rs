//! `book.toml`: the raw, strictly parsed form and the validated [`Config`].
//!
//! Unknown keys and wrong types are errors naming `book.toml:line:col`. This
//! module reads one file and knows nothing about content.

mod aspects;
mod bidi;
mod lenient;
pub(crate) mod recover;
mod size;

pub(crate) use aspects::{AnswerKind, Aspect};
pub(crate) use recover::Unread;

use crate::error::{Diagnostic, Error, Result};
use crate::lang::{Bi, Lang, RawBi};
use crate::source::{decode, Source};
use serde::Deserialize;
use size::{parse_size, RawSize};
pub(crate) use size::{show_size, DEFAULT_MAX_GZ_SIZE};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use toml::Spanned;

/// The name of the configuration file at a site's root.
pub const CONFIG_FILE: &str = "book.toml";

#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawConfig {
    #[serde(default)]
    book: RawBook,
    #[serde(default)]
    build: RawBuild,
    #[serde(default)]
    output: RawOutput,
    #[serde(default)]
    evidence: RawEvidence,
    #[serde(default)]
    kinds: BTreeMap<String, Spanned<RawBi>>,
    #[serde(default)]
    serve: RawServe,
    #[serde(default)]
    check: RawCheck,
    #[serde(default)]
    markdown: RawMarkdown,
    #[serde(default)]
    search: RawSearch,
    #[serde(default)]
    aspects: BTreeMap<String, Spanned<aspects::RawAspect>>,
    #[serde(default)]
    capture: RawCapture,
}

/// `[capture]`: what `kansoku capture` records about the host.
#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawCapture {
    /// Fact name → the command printing it (`kernel = "uname -r"`).
    #[serde(default)]
    facts: BTreeMap<String, String>,
}

#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawBook {
    title: Option<Spanned<RawBi>>,
    description: Option<Spanned<RawBi>>,
    #[serde(default)]
    authors: Vec<String>,
    languages: Option<Spanned<Vec<String>>>,
    license: Option<Spanned<String>>,
    publisher: Option<crate::publication::RawPublisher>,
}

#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawBuild {
    build_dir: Option<Spanned<String>>,
    keep: Option<Spanned<Vec<String>>>,
}

#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawOutput {
    #[serde(default)]
    html: RawHtml,
    markdown: Option<bool>,
    llms: Option<bool>,
    ro_crate: Option<bool>,
}

#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawHtml {
    site_url: Option<Spanned<String>>,
    git_repository_url: Option<String>,
    edit_url_template: Option<String>,
    paginate_by: Option<Spanned<i64>>,
}

#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawEvidence {
    dir: Option<Spanned<String>>,
    max_gz_size: Option<Spanned<RawSize>>,
}

#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawSearch {
    enabled: Option<bool>,
}

#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawServe {
    port: Option<u16>,
}

// `[check]`: declared, reasoned acceptances of expected warnings.

#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawCheck {
    #[serde(default)]
    accept: Vec<Spanned<RawAccept>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawAccept {
    code: Spanned<String>,
    reason: Spanned<RawBi>,
    path: Option<Spanned<String>>,
    claim: Option<Spanned<String>>,
}

/// What an acceptance covers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AcceptScope {
    /// Every finding with the code.
    Site,
    /// Findings in files whose site-relative path matches this glob
    /// (`*`, `?` within a path segment, `**` across segments).
    Path(crate::glob::PathGlob),
    /// Findings about this claim (the finding names it).
    Claim(String),
}

/// A `[[check.accept]]` entry: a warning code the maintainers expect, for
/// a scope, and why. Accepted findings are counted, not listed.
#[derive(Debug, Clone)]
pub struct Acceptance {
    /// The warning code, such as `W002`.
    pub(crate) code: String,
    /// Why it is expected, in each language (also shown to readers).
    pub(crate) reason: Bi<String>,
    /// What it covers.
    pub(crate) scope: AcceptScope,
    /// Where it is declared, for the warning when it matches nothing.
    pub(crate) location: crate::error::Location,
}

fn acceptances(
    src: &Source,
    raw: Vec<Spanned<RawAccept>>,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Acceptance> {
    let mut out = Vec::new();
    for entry in raw {
        let span = entry.span();
        let a = entry.into_inner();
        let code = a.code.get_ref();
        let is_warning = code.len() == 4
            && code.starts_with('W')
            && code[1..].bytes().all(|b| b.is_ascii_digit());
        if !is_warning {
            diags.push(
                src.error(
                    "E070",
                    a.code.span(),
                    format!("only warnings can be accepted, and `{code}` is not a warning code"),
                )
                .with_hint("name a warning code such as \"W002\"; errors must be fixed"),
            );
            continue;
        }
        let reason = match a.reason.get_ref().complete() {
            Some(r) if !r.ja.trim().is_empty() && !r.en.trim().is_empty() => r,
            _ => {
                diags.push(
                    src.error(
                        "E071",
                        a.reason.span(),
                        format!("the acceptance of `{code}` gives no reason in both languages"),
                    )
                    .with_hint(
                        "say why the finding is expected: `reason = { ja = \"…\", en = \"…\" }`",
                    ),
                );
                continue;
            }
        };
        let scope = match (a.path, a.claim) {
            (None, None) => AcceptScope::Site,
            (Some(p), None) => AcceptScope::Path(crate::glob::PathGlob::new(p.get_ref())),
            (None, Some(c)) => AcceptScope::Claim(c.into_inner()),
            (Some(_), Some(c)) => {
                diags.push(
                    src.error(
                        "E072",
                        c.span(),
                        "an acceptance takes `path` or `claim`, not both",
                    )
                    .with_hint("write one `[[check.accept]]` entry per scope"),
                );
                continue;
            }
        };
        out.push(Acceptance {
            code: code.clone(),
            reason,
            scope,
            location: src.location(span.start),
        });
    }
    out
}

#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawMarkdown {
    raw_html: Option<RawHtmlPolicy>,
}

/// What `[markdown] raw-html` does with HTML written in a page body.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RawHtmlPolicy {
    /// Passed through as written: the authors of a site are trusted, as in
    /// mdBook and Zola. The default.
    #[default]
    Allow,
    /// Passed through, with a warning (`W061`) at each tag.
    Warn,
    /// An error (`E061`) at each tag.
    Deny,
}

/// The validated site configuration.
#[derive(Debug, Clone)]
pub struct Config {
    /// Site title in each language.
    pub(crate) title: Bi<String>,
    /// Site description in each language.
    pub(crate) description: Bi<String>,
    /// Authors, in order.
    pub(crate) authors: Vec<String>,
    /// `[book] license`: the terms the record is published under.
    pub(crate) license: Option<crate::publication::License>,
    /// `[book] publisher`: who publishes the record.
    pub(crate) publisher: Option<crate::publication::Publisher>,
    /// Languages in order; the first is the default.
    pub(crate) languages: [Lang; 2],
    /// Output directory, relative to the root.
    pub(crate) build_dir: PathBuf,
    /// Entries of the build directory a build leaves alone (`[build] keep`).
    pub(crate) keep: crate::glob::Keep,
    /// Base path of the published site, always starting and ending with `/`.
    pub(crate) base_path: String,
    /// Scheme and host when `site-url` is absolute, without a trailing `/`.
    pub(crate) origin: Option<String>,
    /// `site-url` as given, where, and by what (`site-url` in book.toml,
    /// or `--base-url`).
    pub(crate) site_url: (String, crate::error::Location, &'static str),
    /// Repository link for the header.
    pub(crate) repo_url: Option<String>,
    /// "Edit this page" template with `{path}`.
    pub(crate) edit_url_template: Option<String>,
    /// Evidence directory, relative to the root.
    pub evidence_dir: PathBuf,
    /// `[evidence] max-gz-size`: the most a `.gz` evidence file may expand
    /// to, in bytes.
    pub(crate) max_gz_size: u64,
    /// Entity kinds and their labels.
    pub(crate) kinds: BTreeMap<String, Bi<String>>,
    /// `[aspects]`: questions, scopes and answer vocabularies of view
    /// columns, in the order `book.toml` declares them.
    pub(crate) aspects: Vec<(String, Aspect)>,
    /// What `book.toml` declares but could not be read, for the checks of
    /// the names pages give (empty when it has no mistake).
    pub(crate) unread: Unread,
    /// `[capture] facts`: host facts a capture records, each with the
    /// command that prints it (run without a shell).
    pub(crate) capture_facts: BTreeMap<String, String>,
    /// Dev server port.
    pub(crate) port: u16,
    /// `[[check.accept]]`: expected warnings, with their reasons.
    pub accept: Vec<Acceptance>,
    /// `[markdown] raw-html`.
    pub(crate) raw_html: RawHtmlPolicy,
    /// Entries per page of a section's listing; 0 lists them all on one.
    pub(crate) paginate_by: usize,
    /// Whether builds write the search index (`[search] enabled`).
    pub(crate) search: bool,
    /// Built for `serve`'s preview, for the site's writer: a draft's
    /// notice says how to publish it (`site::plan::Overrides::preview`).
    pub(crate) preview: bool,
    /// The outputs for machine and offline readers (`[output]`).
    pub(crate) outputs: Outputs,
    /// What this configuration is a function of, hashed: the root,
    /// `book.toml`'s bytes and the overrides applied since
    /// (`site::plan::Overrides`). The memo keys what reads the
    /// configuration on this.
    pub(crate) key: u64,
    /// Its warnings (W062: a bidirectional control in a text), reported
    /// with the site's findings.
    pub(crate) warnings: Vec<Diagnostic>,
}

/// A configuration hashes as what it was made from ([`Config::key`]: the
/// root, `book.toml`'s bytes and the overrides), so a render input holding
/// it is keyed on all of it without listing its fields.
impl std::hash::Hash for Config {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.key.hash(h);
    }
}

/// `[output]`: which outputs for machine and offline readers a build
/// writes; each is on unless switched off, since each costs little.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Outputs {
    /// `markdown`: an `index.md` twin beside every page's `index.html`.
    pub(crate) markdown: bool,
    /// `llms`: `llms.txt` and `llms-full.txt`.
    pub(crate) llms: bool,
    /// `ro-crate`: `ro-crate-metadata.json`.
    pub(crate) ro_crate: bool,
}

/// Entries per page of a section's listing when book.toml does not say:
/// Hugo's default is 10 and Zola paginates only when asked; 50 keeps a
/// section page near the size of a content page.
pub(crate) const DEFAULT_PAGINATE_BY: usize = 50;

impl Config {
    /// The aspect declared as `[aspects.NAME]`.
    pub(crate) fn aspect(&self, name: &str) -> Option<&Aspect> {
        self.aspects.iter().find(|(n, _)| n == name).map(|(_, a)| a)
    }

    /// The default language.
    pub(crate) fn default_lang(&self) -> Lang {
        self.languages[0]
    }

    /// Publishes the site under `url` instead of its `site-url`.
    pub(crate) fn set_site_url(&mut self, url: &str) {
        let (origin, base_path) = split_site_url(url);
        self.origin = origin;
        self.base_path = base_path;
        self.site_url = (
            url.to_owned(),
            crate::error::Location::command_line(),
            "--base-url",
        );
    }

    /// W041 when the site has no absolute address: a sitemap lists full
    /// URLs, so a build writes none and says why.
    pub(crate) fn sitemap_warning(&self) -> Option<Diagnostic> {
        if self.origin.is_some() {
            return None;
        }
        let (url, at, what) = &self.site_url;
        Some(
            Diagnostic::warning(
                "W041",
                at.clone(),
                format!("{what} \"{url}\" is not an absolute URL, so no sitemap.xml is written"),
            )
            .with_hint(if *what == "--base-url" {
                "a sitemap lists full addresses: pass the address the site is published at (e.g. --base-url https://example.org/docs/)"
            } else {
                "a sitemap lists full addresses: set `site-url` under [output.html] to where the site is published (e.g. \"https://example.org/docs/\"), or build with --base-url"
            }),
        )
    }

    /// Loads and validates `book.toml` from a site root; any mistake in
    /// it is an error (see [`Config::load_lenient`] to read past them).
    pub fn load(root: &Path) -> Result<Config> {
        match Config::load_lenient(root)? {
            (config, diags) if !diags.iter().any(Diagnostic::is_error) => Ok(config),
            (_, diags) => Err(Error::Content(diags)),
        }
    }

    /// Loads `book.toml` as far as it can be read: a configuration made
    /// of what is right, with a finding for each mistake (see
    /// [`lenient::config`]), so that the pages are still checked. `Err`
    /// only when it cannot be read at all (no file, not UTF-8).
    pub(crate) fn load_lenient(root: &Path) -> Result<(Config, Vec<Diagnostic>)> {
        let path = root.join(CONFIG_FILE);
        let bytes = std::fs::read(&path).map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                Error::Usage(format!(
                    "no {CONFIG_FILE} in {}; run `kansoku init DIR` to start a site, or pass --root",
                    root.display()
                ))
            } else {
                Error::io(&path, e)
            }
        })?;
        let text = decode(CONFIG_FILE, &bytes).map_err(|d| Error::Content(vec![d]))?;
        let (mut config, diags) = Config::read(Source::new(CONFIG_FILE.to_owned(), text));
        let source = [root.as_os_str().as_encoded_bytes(), b"\0", &bytes].concat();
        config.key = crate::hash::content_hash(&source);
        Ok((config, diags))
    }

    #[cfg(test)]
    fn parse(src: Source) -> std::result::Result<Config, Vec<Diagnostic>> {
        match Config::read(src) {
            (config, diags) if !diags.iter().any(Diagnostic::is_error) => Ok(config),
            (_, diags) => Err(diags),
        }
    }

    /// The configuration `src` gives, as far as it can be read, and every
    /// mistake in it.
    fn read(src: Source) -> (Config, Vec<Diagnostic>) {
        let (raw, mut diags, mut unread) = match toml::from_str::<RawConfig>(&src.text) {
            Ok(raw) => (raw, Vec::new(), Unread::default()),
            Err(_) => lenient::config(&src),
        };
        let warnings = bidi::warnings(&src, &raw);
        let mut bi = |field: &Option<Spanned<RawBi>>, key: &str, fallback: &str| match field {
            None => Bi {
                ja: fallback.to_owned(),
                en: fallback.to_owned(),
            },
            Some(v) => match v.get_ref().complete() {
                Some(b) => b,
                None => {
                    diags.push(missing_lang(&src, v.span(), key, &v.get_ref().missing()));
                    Bi {
                        ja: String::new(),
                        en: String::new(),
                    }
                }
            },
        };
        let title = bi(&raw.book.title, "book.title", "kansoku");
        let description = bi(&raw.book.description, "book.description", "");
        let mut kinds = BTreeMap::new();
        for (name, label) in &raw.kinds {
            match label.get_ref().complete() {
                Some(b) => {
                    kinds.insert(name.clone(), b);
                }
                None => {
                    diags.push(missing_lang(
                        &src,
                        label.span(),
                        &format!("kinds.{name}"),
                        &label.get_ref().missing(),
                    ));
                    unread.kinds.push(name.clone());
                }
            }
        }
        let aspects = aspects::aspects(&src, &raw.aspects, &mut diags, &mut unread);
        let languages = match &raw.book.languages {
            None => [Lang::Ja, Lang::En],
            Some(l) => {
                let parsed: Vec<Option<Lang>> =
                    l.get_ref().iter().map(|c| Lang::from_code(c)).collect();
                match parsed.as_slice() {
                    [Some(a), Some(b)] if a != b => [*a, *b],
                    _ => {
                        diags.push(
                            src.error(
                                "E003",
                                l.span(),
                                "`languages` must list \"ja\" and \"en\", each once",
                            )
                            .with_hint(
                                "write `languages = [\"ja\", \"en\"]`; the first is the default",
                            ),
                        );
                        [Lang::Ja, Lang::En]
                    }
                }
            }
        };
        let build_dir = match &raw.build.build_dir {
            None => PathBuf::from("public"),
            Some(d) => match safe_relative_dir(d.get_ref()) {
                Some(p) => p,
                None => {
                    diags.push(
                        src.error(
                            "E003",
                            d.span(),
                            "`build-dir` must be a directory inside the site",
                        )
                        .with_hint("use a relative name such as \"public\""),
                    );
                    PathBuf::from("public")
                }
            },
        };
        let keep = match &raw.build.keep {
            None => crate::glob::Keep::default(),
            Some(k) => match crate::glob::Keep::new(k.get_ref()) {
                Ok(keep) => keep,
                Err(why) => {
                    diags.push(
                        src.error("E003", k.span(), format!("`keep`: {why}"))
                            .with_hint(
                                "patterns are globs as in .gitignore, such as \".*\" or \"CNAME\"",
                            ),
                    );
                    crate::glob::Keep::default()
                }
            },
        };
        let evidence_dir = match &raw.evidence.dir {
            None => PathBuf::from("evidence"),
            Some(d) => match safe_relative_dir(d.get_ref()) {
                Some(p) => p,
                None => {
                    diags.push(
                        src.error(
                            "E003",
                            d.span(),
                            "`evidence.dir` must be a directory inside the site",
                        )
                        .with_hint("use a relative name such as \"evidence\""),
                    );
                    PathBuf::from("evidence")
                }
            },
        };
        let max_gz_size = match &raw.evidence.max_gz_size {
            None => DEFAULT_MAX_GZ_SIZE,
            Some(v) => parse_size(v.get_ref()).unwrap_or_else(|why| {
                diags.push(
                    src.error("E003", v.span(), format!("`max-gz-size`: {why}"))
                        .with_hint("give the most a `.gz` log may expand to, such as \"2 GiB\""),
                );
                DEFAULT_MAX_GZ_SIZE
            }),
        };
        let accept = acceptances(&src, raw.check.accept, &mut diags);
        let license = (raw.book.license.as_ref())
            .and_then(|l| crate::publication::license(&src, l, &mut diags));
        let publisher = (raw.book.publisher.as_ref())
            .and_then(|p| crate::publication::publisher(&src, p, &mut diags));
        let paginate_by = match &raw.output.html.paginate_by {
            None => DEFAULT_PAGINATE_BY,
            Some(n) => usize::try_from(*n.get_ref()).unwrap_or_else(|_| {
                diags.push(
                    src.error("E003", n.span(), "`paginate-by` cannot be negative")
                        .with_hint("give the number of pages per listing page, or 0 for one page"),
                );
                DEFAULT_PAGINATE_BY
            }),
        };
        let site_url = match &raw.output.html.site_url {
            Some(u) => (
                u.get_ref().clone(),
                src.location(u.span().start),
                "site-url",
            ),
            None => (
                "/".to_owned(),
                crate::error::Location::file(CONFIG_FILE),
                "site-url",
            ),
        };
        let (origin, base_path) = split_site_url(&site_url.0);
        let mut config = Config {
            title,
            description,
            authors: raw.book.authors,
            license,
            publisher,
            languages,
            build_dir,
            keep,
            base_path,
            origin,
            site_url,
            repo_url: raw.output.html.git_repository_url,
            edit_url_template: raw.output.html.edit_url_template,
            evidence_dir,
            max_gz_size,
            kinds,
            port: raw.serve.port.unwrap_or(3000),
            accept,
            aspects,
            unread,
            capture_facts: raw.capture.facts,
            raw_html: raw.markdown.raw_html.unwrap_or_default(),
            paginate_by,
            search: raw.search.enabled.unwrap_or(true),
            preview: false,
            outputs: Outputs {
                markdown: raw.output.markdown.unwrap_or(true),
                llms: raw.output.llms.unwrap_or(true),
                ro_crate: raw.output.ro_crate.unwrap_or(true),
            },
            key: 0,
            warnings,
        };
        bidi::isolate(&mut config);
        diags.sort_by(|a, b| a.location.cmp(&b.location));
        (config, diags)
    }
}

/// A relative directory that stays inside the root and is not the root itself.
fn safe_relative_dir(s: &str) -> Option<PathBuf> {
    let p = Path::new(s);
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            std::path::Component::Normal(n) => out.push(n),
            std::path::Component::CurDir => {}
            _ => return None,
        }
    }
    (!out.as_os_str().is_empty()).then_some(out)
}

/// Splits `site-url` into an optional origin and a base path `/…/`.
fn split_site_url(url: &str) -> (Option<String>, String) {
    let (origin, path) = match url.find("://") {
        Some(i) => {
            let rest = &url[i + 3..];
            let slash = rest.find('/').map_or(url.len(), |j| i + 3 + j);
            (Some(url[..slash].to_owned()), &url[slash..])
        }
        None => (None, url),
    };
    let trimmed = path.trim_matches('/');
    let base = if trimmed.is_empty() {
        "/".to_owned()
    } else {
        format!("/{trimmed}/")
    };
    (origin, base)
}

fn missing_lang(
    src: &Source,
    span: std::ops::Range<usize>,
    key: &str,
    missing: &[Lang],
) -> Diagnostic {
    let langs: Vec<&str> = missing.iter().map(|l| l.code()).collect();
    src.error(
        "E031",
        span,
        format!("`{key}` lacks {}", langs.join(" and ")),
    )
    .with_hint("give both languages: `{ ja = \"…\", en = \"…\" }`")
}

/// Turns a TOML error into a diagnostic whose position counts in the whole
/// file (`offset` is where the TOML text starts in it).
pub(crate) fn toml_error(src: &Source, offset: usize, e: &toml::de::Error) -> Diagnostic {
    let span = e.span().unwrap_or(0..0);
    let span = span.start + offset..span.end + offset;
    let message = e.message().trim().to_owned();
    let message = message.lines().next().unwrap_or("").to_owned();
    // serde names the type a table is read into (`struct RawAnswer`),
    // which means nothing to a writer: it is a table.
    let message = match message.find("expected struct Raw") {
        Some(i) => format!("{}expected a table", &message[..i]),
        None => message,
    };
    let (code, hint) = if message.starts_with("unknown field") {
        (
            "E002",
            did_you_mean(&message, "remove the key or fix its spelling"),
        )
    } else if message.starts_with("missing field") {
        ("E004", "add the field".to_owned())
    } else if message.starts_with("invalid type") || message.starts_with("invalid value") {
        ("E003", "give the value the type named above".to_owned())
    } else if message.starts_with("unknown variant") {
        (
            "E003",
            did_you_mean(&message, "use one of the values named above"),
        )
    } else if message.contains("recursion") {
        // Valid TOML, nested deeper than the reader follows: not a syntax
        // mistake, and "fix the syntax" would send the writer looking for one.
        (
            "E003",
            "this value nests arrays or tables deeper than kansoku reads; write it with fewer levels"
                .to_owned(),
        )
    } else {
        ("E001", "fix the TOML syntax at this place".to_owned())
    };
    src.error(code, span, message).with_hint(hint)
}

/// For serde's "unknown field `x`, expected one of `a`, `b`" (or "expected
/// `a` or `b`"): the nearest expected name as a did-you-mean, or `otherwise`
/// with the names that are allowed here.
fn did_you_mean(message: &str, otherwise: &str) -> String {
    let ticked =
        |s: &str| -> Vec<String> { s.split('`').skip(1).step_by(2).map(str::to_owned).collect() };
    let Some((given, expected)) = message.split_once(", expected") else {
        return otherwise.to_owned();
    };
    let given = ticked(given).into_iter().next().unwrap_or_default();
    let expected = ticked(expected);
    // Stricter than the nearest id or path: a key one or two keystrokes
    // off (`evidense`, `titel`), never another key that shares a prefix
    // (`site-title` is not `site-url`).
    let near = crate::suggest::nearest(&given, expected.iter().map(String::as_str)).filter(|n| {
        let d = crate::suggest::edit_distance(&given, n);
        d <= 2 && d * 2 < n.chars().count()
    });
    match near {
        Some(n) => format!("did you mean `{n}`?"),
        None => otherwise.to_owned(),
    }
}

#[cfg(test)]
mod tests;
