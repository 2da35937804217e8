//! The screen for credentials in what a capture records (issue 39, M1,
//! L5): evidence is published, so an environment variable's value is kept
//! only when it does not look like a credential, and a credential on the
//! command line is recorded as `<redacted>`. The command still runs with
//! what was typed; only the record leaves it out.
//!
//! It errs on the side of leaving out: a value left out costs a reader a
//! detail, a credential published cannot be taken back. What it knows:
//! names that say secret (`PASS`, `PWD`, `TOKEN`, `KEY`, `AUTH`,
//! `WEBHOOK`, `DSN`, …), URLs with user information (`scheme://u:p@`),
//! known key and token shapes (AWS `AKIA`/`ASIA`, GitHub, GitLab, Slack,
//! OpenAI/Stripe `sk-`, Google `AIza`, JWTs, key blocks), `Authorization`
//! and `Bearer`/`Basic` values, and long random-looking strings.

use crate::review::captures::REDACTED;

/// Why a variable named `name` is never recorded, if its name says secret.
pub(crate) fn secret_name(name: &str) -> Option<&'static str> {
    let n = name.to_ascii_uppercase();
    // The shell's working directories are paths, not passwords.
    if matches!(n.as_str(), "PWD" | "OLDPWD") {
        return None;
    }
    let words = [
        "PASS",
        "PWD",
        "SECRET",
        "TOKEN",
        "KEY",
        "AUTH",
        "WEBHOOK",
        "DSN",
        "CREDENTIAL",
        "PRIVATE",
        "SESSION",
        "COOKIE",
        "SIGNATURE",
        "SALT",
    ];
    words
        .iter()
        .any(|w| n.contains(w))
        .then_some("its name looks like a secret's")
}

/// Why `value` looks like a credential, if it does (anywhere in it).
pub(crate) fn secret_value(value: &str) -> Option<&'static str> {
    let (screened, found) = screen_text(value);
    (screened != value).then(|| found.first().copied().unwrap_or("a credential"))
}

/// Known prefixes of keys and tokens.
const PREFIXES: &[(&str, &str)] = &[
    ("ghp_", "a GitHub token"),
    ("gho_", "a GitHub token"),
    ("ghu_", "a GitHub token"),
    ("ghs_", "a GitHub token"),
    ("ghr_", "a GitHub token"),
    ("github_pat_", "a GitHub token"),
    ("glpat-", "a GitLab token"),
    ("xoxb-", "a Slack token"),
    ("xoxp-", "a Slack token"),
    ("xoxa-", "a Slack token"),
    ("xoxs-", "a Slack token"),
    ("xapp-", "a Slack token"),
    ("sk-", "an API key"),
    ("sk_live_", "an API key"),
    ("rk_live_", "an API key"),
    ("AKIA", "an AWS access key"),
    ("ASIA", "an AWS access key"),
    ("AIza", "a Google API key"),
    ("npm_", "an npm token"),
    ("pypi-", "a PyPI token"),
    ("hf_", "a Hugging Face token"),
    ("-----BEGIN", "a key block"),
];

/// Hosts whose URLs are themselves credentials.
const SECRET_URLS: &[&str] = &[
    "hooks.slack.com/",
    "discord.com/api/webhooks/",
    "discordapp.com/api/webhooks/",
    "outlook.office.com/webhook",
];

/// Query parameters that carry a credential.
const SECRET_PARAMS: &[&str] = &[
    "token",
    "access_token",
    "api_key",
    "apikey",
    "key",
    "password",
    "secret",
    "sig",
    "signature",
    "auth",
];

/// `text` with every credential it holds replaced by `<redacted>`, and
/// what each was. The words of `text` are what is between blanks, quotes
/// and `=`; a URL keeps its host and path, without its user information.
pub(crate) fn screen_text(text: &str) -> (String, Vec<&'static str>) {
    let mut found = Vec::new();
    // `Authorization: …` and `Proxy-Authorization: …` lose all they say.
    let lower = text.to_ascii_lowercase();
    for header in ["authorization:", "cookie:", "x-api-key:", "private-token:"] {
        if let Some(at) = lower.find(header) {
            let cut = at + header.len();
            let kept = &text[..cut];
            if !text[cut..].trim().is_empty() && !text[cut..].trim().starts_with(REDACTED) {
                found.push("an authorization header");
                return (format!("{kept} {REDACTED}"), found);
            }
        }
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    let mut after_scheme_word = false;
    while !rest.is_empty() {
        let start = rest.find(|c: char| !is_separator(c)).unwrap_or(rest.len());
        out.push_str(&rest[..start]);
        rest = &rest[start..];
        let end = word_end(rest);
        let word = &rest[..end];
        rest = &rest[end..];
        if after_scheme_word {
            // The word after `Bearer` or `Basic`.
            after_scheme_word = false;
            if !word.is_empty() && word != REDACTED {
                found.push("an authorization header");
                out.push_str(REDACTED);
                continue;
            }
        }
        if word.eq_ignore_ascii_case("bearer") || word.eq_ignore_ascii_case("basic") {
            after_scheme_word = true;
            out.push_str(word);
            continue;
        }
        match screen_word(word) {
            Some((kept, why)) => {
                found.push(why);
                out.push_str(&kept);
            }
            None => out.push_str(word),
        }
    }
    (out, found)
}

fn is_separator(c: char) -> bool {
    c.is_whitespace()
        || matches!(
            c,
            '"' | '\'' | '=' | ',' | ';' | '(' | ')' | '`' | '<' | '>'
        )
}

/// Where the word at the start of `s` ends: at a separator, except that
/// a URL keeps its `=` (its query is screened with it).
fn word_end(s: &str) -> usize {
    for (i, c) in s.char_indices() {
        if c == '=' && s[..i].contains("://") {
            continue;
        }
        if is_separator(c) {
            return i;
        }
    }
    s.len()
}

/// One word screened: what to record instead, and why; `None` to keep it.
fn screen_word(word: &str) -> Option<(String, &'static str)> {
    if word == REDACTED {
        return None;
    }
    if let Some(kept) = url_without_userinfo(word) {
        return Some((kept, "a URL with a password"));
    }
    if SECRET_URLS.iter().any(|h| word.contains(h)) {
        return Some((REDACTED.to_owned(), "a webhook URL"));
    }
    if let Some(kept) = url_without_secret_params(word) {
        return Some((kept, "a URL with a credential in its query"));
    }
    if let Some((_, why)) = PREFIXES.iter().find(|(p, _)| word.starts_with(p)) {
        // A bare prefix (`sk-`, `AKIA` alone) is a word, not a key.
        if word.len() >= 12 {
            return Some((REDACTED.to_owned(), why));
        }
    }
    if jwt(word) {
        return Some((REDACTED.to_owned(), "a JSON web token"));
    }
    if random_looking(word) {
        return Some((REDACTED.to_owned(), "a long random-looking string"));
    }
    None
}

/// `scheme://<redacted>@host/…` for a URL that carries user information
/// (`scheme://user:pass@`, `redis://:pass@`, `https://token@`).
fn url_without_userinfo(word: &str) -> Option<String> {
    let at_scheme = word.find("://")?;
    let scheme = &word[..at_scheme];
    if scheme.is_empty()
        || !scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
    {
        return None;
    }
    let after = &word[at_scheme + 3..];
    let authority_end = after.find(['/', '?', '#']).unwrap_or(after.len());
    let at = after[..authority_end].rfind('@')?;
    if at == 0 || &after[..at] == REDACTED {
        return None;
    }
    Some(format!(
        "{}://{REDACTED}@{}",
        &word[..at_scheme],
        &after[at + 1..]
    ))
}

/// A URL whose query holds a credential parameter, with its value left out.
fn url_without_secret_params(word: &str) -> Option<String> {
    let q = word.find('?')?;
    if !word[..q].contains("://") {
        return None;
    }
    let mut changed = false;
    let params: Vec<String> = word[q + 1..]
        .split('&')
        .map(|kv| match kv.split_once('=') {
            Some((k, v))
                if !v.is_empty()
                    && v != REDACTED
                    && SECRET_PARAMS.contains(&k.to_ascii_lowercase().as_str()) =>
            {
                changed = true;
                format!("{k}={REDACTED}")
            }
            _ => kv.to_owned(),
        })
        .collect();
    changed.then(|| format!("{}?{}", &word[..q], params.join("&")))
}

/// `eyJ….eyJ….…`: a JSON web token's three parts.
fn jwt(word: &str) -> bool {
    let parts: Vec<&str> = word.split('.').collect();
    parts.len() == 3
        && parts[0].starts_with("eyJ")
        && parts.iter().all(|p| {
            p.len() >= 4
                && p.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        })
}

/// 20 or more characters of the kind keys are made of (letters, digits
/// and `+/=_-.`), upper and lower case and digits mixed, with the spread
/// of characters random strings have. Paths (starting with `/`, `./`,
/// `~`) and lowercase hex (commit and file hashes) are not keys.
fn random_looking(word: &str) -> bool {
    if word.len() < 20
        || word.starts_with(['/', '.', '~'])
        || !word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "+/=_-.".contains(c))
    {
        return false;
    }
    let upper = word.chars().any(|c| c.is_ascii_uppercase());
    let lower = word.chars().any(|c| c.is_ascii_lowercase());
    let digit = word.chars().any(|c| c.is_ascii_digit());
    if !(upper && lower && digit) {
        return false;
    }
    // Shannon entropy per character: random base64 is near 5 bits, a
    // sentence of CamelCase words nearer 3.5.
    let mut counts = std::collections::HashMap::new();
    for c in word.chars() {
        *counts.entry(c).or_insert(0usize) += 1;
    }
    let n = word.chars().count() as f64;
    let bits: f64 = counts
        .values()
        .map(|&k| {
            let p = k as f64 / n;
            -p * p.log2()
        })
        .sum();
    bits >= 3.6
}

/// Options whose next argument is a credential.
const SECRET_OPTIONS: &[&str] = &[
    "--password",
    "--passwd",
    "--pass",
    "--token",
    "--secret",
    "--api-key",
    "--apikey",
    "--auth",
    "--access-token",
    "--client-secret",
    "--private-key",
    "--cookie",
];

/// Whether the option `word` (`--token`, `--db-password`) names a credential.
fn secret_option(word: &str) -> bool {
    let w = word.to_ascii_lowercase();
    w.starts_with("--")
        && (SECRET_OPTIONS.contains(&w.as_str())
            || [
                "password",
                "passwd",
                "token",
                "secret",
                "apikey",
                "api-key",
                "credential",
            ]
            .iter()
            .any(|s| w.contains(s)))
}

const USER_PASSWORD: &str = "a user name and password";

/// What the argument after the option `word` is, if a credential.
fn takes_secret(word: &str) -> Option<&'static str> {
    if secret_option(word) {
        Some("a credential given to an option")
    } else if matches!(word, "-u" | "--user" | "--proxy-user") {
        Some(USER_PASSWORD)
    } else {
        None
    }
}

/// Whether `value`, the argument after an option that takes `why`, is
/// left out: `-u name` alone is a user name, `-u name:pw` holds a password.
fn left_out(why: &str, value: &str) -> bool {
    !value.is_empty() && value != REDACTED && (why != USER_PASSWORD || value.contains(':'))
}

/// The command line as it is recorded: each argument screened (a shell
/// line word by word), the value of `--token=…` and the argument after
/// `--password`, `-u`/`--user` (`user:password`) or `-H` (a header) left
/// out. Returns it with what was left out.
pub(crate) fn screen_command(command: &[String]) -> (Vec<String>, Vec<&'static str>) {
    let mut out = Vec::with_capacity(command.len());
    let mut found = Vec::new();
    let mut next_is_secret: Option<&'static str> = None;
    for arg in command {
        if let Some(why) = next_is_secret.take() {
            if left_out(why, arg) {
                found.push(why);
                out.push(REDACTED.to_owned());
                continue;
            }
        }
        if let Some((opt, value)) = arg.split_once('=') {
            if secret_option(opt) && !value.is_empty() && value != REDACTED {
                found.push("a credential given to an option");
                out.push(format!("{opt}={REDACTED}"));
                continue;
            }
        }
        next_is_secret = takes_secret(arg);
        let (screened, why) = screen_shell_words(arg);
        found.extend(why);
        out.push(screened);
    }
    (out, found)
}

/// One argument screened; a shell line's `-u user:pass` and `--token X`
/// are caught inside it too.
fn screen_shell_words(arg: &str) -> (String, Vec<&'static str>) {
    let (screened, mut found) = screen_text(arg);
    if !arg.contains(char::is_whitespace) {
        return (screened, found);
    }
    let words: Vec<&str> = screened.split(' ').collect();
    let mut out: Vec<String> = Vec::with_capacity(words.len());
    let mut next: Option<&'static str> = None;
    for w in words {
        if let Some(why) = next.take() {
            let bare = w.trim_matches(|c| c == '"' || c == '\'');
            if left_out(why, bare) {
                found.push(why);
                out.push(REDACTED.to_owned());
                continue;
            }
        }
        next = takes_secret(w);
        out.push(w.to_owned());
    }
    (out.join(" "), found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_values_of_credentials_are_recognised() {
        for n in [
            "GITHUB_TOKEN",
            "db_password",
            "MYSQL_PWD",
            "DOCKER_PASS",
            "AWS_ACCESS_KEY_ID",
            "SLACK_WEBHOOK_URL",
            "SENTRY_DSN",
            "GOOGLE_APPLICATION_CREDENTIALS",
        ] {
            assert!(secret_name(n).is_some(), "{n}");
        }
        for n in [
            "HSA_OVERRIDE_GFX_VERSION",
            "LANG",
            "PWD",
            "OLDPWD",
            "REDIS_URL",
        ] {
            assert!(secret_name(n).is_none(), "{n}");
        }
        for (v, why) in [
            ("ghp_abcdefghijklmnop", "a GitHub token"),
            ("AKIAABCDEFGHIJKLMNOP", "an AWS access key"),
            ("ASIAQWERTYUIOPASDFGH", "an AWS access key"),
            (
                "postgres://app:S3cret@db:5432/prod",
                "a URL with a password",
            ),
            ("redis://:p4ssw0rd@cache:6379", "a URL with a password"),
            (
                "https://hooks.slack.com/services/T0/B0/XXXX",
                "a webhook URL",
            ),
            (
                "Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdo",
                "a long random-looking string",
            ),
            (
                "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
                "a long random-looking string",
            ),
            (
                "https://x.example/cb?token=abc123",
                "a URL with a credential in its query",
            ),
        ] {
            assert_eq!(secret_value(v), Some(why), "{v}");
        }
        for v in [
            "11.0.0",
            "/usr/local/lib/ollama/rocm:/opt/rocm/lib",
            "C.UTF-8",
            "3f2a9c0d5e8b7a6f4e3d2c1b0a9f8e7d6c5b4a39",
            "https://example.org/path",
            "gfx1201",
            "ThisIsAPlainCamelCaseSentence",
            "sk-",
        ] {
            assert_eq!(secret_value(v), None, "{v}");
        }
    }

    #[test]
    fn a_url_keeps_its_host_and_path() {
        assert_eq!(
            screen_text("postgres://app:S3cretPw!@db.internal:5432/prod").0,
            "postgres://<redacted>@db.internal:5432/prod"
        );
        assert_eq!(
            screen_text("see https://u:p@example.org/x?y=1 now").0,
            "see https://<redacted>@example.org/x?y=1 now"
        );
    }

    #[test]
    fn a_command_line_is_screened_argument_by_argument() {
        let cmd: Vec<String> = [
            "curl",
            "-u",
            "admin:pw",
            "-H",
            "Authorization: Bearer abc",
            "--token",
            "t0k3n",
            "--db-password=x",
            "-u",
            "plainuser",
        ]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
        let (out, found) = screen_command(&cmd);
        assert_eq!(
            out,
            [
                "curl",
                "-u",
                "<redacted>",
                "-H",
                "Authorization: <redacted>",
                "--token",
                "<redacted>",
                "--db-password=<redacted>",
                "-u",
                "plainuser",
            ]
        );
        assert_eq!(found.len(), 4);
        let (out, _) = screen_command(&["curl -u admin:Sup3r --token abc https://x".to_owned()]);
        assert_eq!(out, ["curl -u <redacted> --token <redacted> https://x"]);
        // Screening twice changes nothing more.
        let again = screen_command(&out);
        assert_eq!(again.0, out);
        assert!(again.1.is_empty());
    }
}
