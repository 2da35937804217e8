//! The two pattern dialects of `book.toml`, both compiled by `globset`:
//! [`Keep`] (`[build] keep`, `.gitignore`-style) and [`PathGlob`] (the
//! `path` of a `[[check.accept]]`, also `kansoku claims --page`). A leaf
//! module: patterns and `/`-separated paths in, yes or no out.

/// Which entries of the build directory a build leaves alone: glob
/// patterns as in `.gitignore`. A pattern without `/` matches a name at any
/// depth (`.*` every dot-file and dot-directory, `CNAME`); one with `/`
/// matches a path from the build directory's top (`docs/keep.txt`). A kept
/// directory is kept whole.
#[derive(Clone, Debug)]
pub(crate) struct Keep {
    names: globset::GlobSet,
    paths: globset::GlobSet,
}

impl Default for Keep {
    fn default() -> Self {
        Keep::new(&[".*".to_owned()]).expect("the default pattern is valid")
    }
}

impl Keep {
    /// Compiles `patterns`; an invalid one is named in the error.
    pub(crate) fn new(patterns: &[String]) -> Result<Keep, String> {
        let mut names = globset::GlobSetBuilder::new();
        let mut paths = globset::GlobSetBuilder::new();
        for p in patterns {
            let trimmed = p.trim_start_matches('/').trim_end_matches('/');
            let glob = globset::GlobBuilder::new(trimmed)
                .literal_separator(true)
                .backslash_escape(true)
                .build()
                .map_err(|e| format!("`{p}` is not a valid pattern: {}", e.kind()))?;
            if trimmed.is_empty() {
                return Err(format!("`{p}` is not a valid pattern: it is empty"));
            }
            if p.trim_end_matches('/').contains('/') {
                paths.add(glob);
            } else {
                names.add(glob);
            }
        }
        let build = |b: globset::GlobSetBuilder| b.build().map_err(|e| e.to_string());
        Ok(Keep {
            names: build(names)?,
            paths: build(paths)?,
        })
    }

    /// Whether the entry at `rel` (`/`-separated, under the build
    /// directory) is kept, judged on its own name and path only.
    pub(crate) fn matches_entry(&self, rel: &str) -> bool {
        let name = rel.rsplit('/').next().unwrap_or(rel);
        self.names.is_match(name) || self.paths.is_match(rel)
    }

    /// Whether `rel` is kept, itself or as part of a kept directory.
    pub(crate) fn covers(&self, rel: &str) -> bool {
        let mut end = 0;
        loop {
            let next = rel[end..].find('/').map(|i| end + i);
            let prefix = &rel[..next.unwrap_or(rel.len())];
            if self.matches_entry(prefix) {
                return true;
            }
            match next {
                Some(i) => end = i + 1,
                None => return false,
            }
        }
    }
}

/// A glob over a site-relative path: `*` and `?` match within one path
/// segment, `**` across segments (`content/**/a.md` matches
/// `content/a.md` and `content/x/y/a.md`); every other character, `[`,
/// `{` and `\` included, matches itself. Compiled once; shown, compared
/// and debugged as the pattern it was written as.
#[derive(Clone)]
pub struct PathGlob {
    pattern: String,
    matcher: globset::GlobMatcher,
}

impl PathGlob {
    /// Compiles `pattern`. Any text is a pattern: a `**` that is not a
    /// whole segment matches across segments all the same.
    pub(crate) fn new(pattern: &str) -> PathGlob {
        let mut glob = String::with_capacity(pattern.len() + 8);
        let mut rest = pattern;
        while let Some(c) = rest.chars().next() {
            if let Some(after) = rest.strip_prefix("**/") {
                // Nothing, or anything that ends a segment.
                glob.push_str("{,*/**/}");
                rest = after;
                continue;
            }
            if let Some(after) = rest.strip_prefix("**") {
                // Anything: within one segment, or across several.
                glob.push_str("{*,*/**/*}");
                rest = after;
                continue;
            }
            if matches!(c, '[' | ']' | '{' | '}' | '\\' | ',') {
                glob.push('\\');
            }
            glob.push(c);
            rest = &rest[c.len_utf8()..];
        }
        let matcher = globset::GlobBuilder::new(&glob)
            .literal_separator(true)
            .backslash_escape(true)
            .empty_alternates(true)
            .build()
            .expect("every special character but `*`, `?` and `/` is escaped")
            .compile_matcher();
        PathGlob {
            pattern: pattern.to_owned(),
            matcher,
        }
    }

    /// Whether `path` (`/`-separated) matches.
    pub(crate) fn is_match(&self, path: &str) -> bool {
        self.matcher.is_match(path)
    }
}

impl From<&str> for PathGlob {
    fn from(pattern: &str) -> PathGlob {
        PathGlob::new(pattern)
    }
}

/// As the pattern's string: the configuration's `Debug` text is part of
/// the memo keys (see `site::memo`), and was the string's.
impl std::fmt::Debug for PathGlob {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&self.pattern, f)
    }
}

impl PartialEq for PathGlob {
    fn eq(&self, other: &PathGlob) -> bool {
        self.pattern == other.pattern
    }
}

impl Eq for PathGlob {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keep_matches_names_at_any_depth_and_paths_from_the_top() {
        let keep = Keep::new(&[".*".into(), "CNAME".into(), "/docs/*.txt".into()]).expect("valid");
        for kept in [
            ".git",
            ".git/HEAD",
            "ja/.well-known/x",
            "CNAME",
            "ja/CNAME",
            "docs/a.txt",
        ] {
            assert!(keep.covers(kept), "{kept}");
        }
        for not in [
            "index.html",
            "ja/index.html",
            "docs/a/b.txt",
            "x/docs/a.txt",
        ] {
            assert!(!keep.covers(not), "{not}");
        }
        assert_eq!(
            Keep::new(&["a[".into()]).expect_err("invalid"),
            "`a[` is not a valid pattern: unclosed character class; missing ']'"
        );
    }

    #[test]
    fn path_globs() {
        let glob_match = |g: &str, p: &str| PathGlob::new(g).is_match(p);
        assert!(glob_match("content/*.md", "content/a.md"));
        assert!(!glob_match("content/*.md", "content/x/a.md"));
        assert!(glob_match("content/**", "content/x/a.md"));
        assert!(glob_match("content/**/a.md", "content/a.md"));
        assert!(glob_match("content/**/a.md", "content/x/y/a.md"));
        assert!(glob_match("evidence/?.txt", "evidence/b.txt"));
        assert!(!glob_match("evidence/?.txt", "evidence/bb.txt"));
    }

    /// The hand-written matcher this replaced, kept to hold the two equal.
    fn reference(glob: &str, path: &str) -> bool {
        fn go(g: &[u8], p: &[u8]) -> bool {
            match g {
                [] => p.is_empty(),
                [b'*', b'*', rest @ ..] => match rest.strip_prefix(b"/") {
                    Some(after) => {
                        go(after, p) || (0..p.len()).any(|i| p[i] == b'/' && go(after, &p[i + 1..]))
                    }
                    None => (0..=p.len()).any(|i| go(rest, &p[i..])),
                },
                [b'*', rest @ ..] => (0..=p.len())
                    .take_while(|&i| i == 0 || p[i - 1] != b'/')
                    .any(|i| go(rest, &p[i..])),
                [b'?', rest @ ..] => p.first().is_some_and(|&c| c != b'/') && go(rest, &p[1..]),
                [c, rest @ ..] => p.first() == Some(c) && go(rest, &p[1..]),
            }
        }
        go(glob.as_bytes(), path.as_bytes())
    }

    /// Every pattern of up to four of `a / * ? [ \\` against paths of up to
    /// three segments (and a few odd ones): the same answers as the
    /// matcher this module replaced. (Up to five characters, and with
    /// `{ } ] ,` too, was run once by hand when it was replaced.)
    #[test]
    fn same_answers_as_the_hand_written_matcher() {
        fn all(alphabet: &[&str], n: usize) -> Vec<String> {
            let mut out = vec![String::new()];
            let mut last = out.clone();
            for _ in 0..n {
                last = last
                    .iter()
                    .flat_map(|s| alphabet.iter().map(move |a| format!("{s}{a}")))
                    .collect();
                out.extend(last.iter().cloned());
            }
            out
        }
        let segments: Vec<String> = all(&["a", "[", "\\"], 2).into_iter().skip(1).collect();
        let mut paths = vec!["", "/a", "a/", "a//a"]
            .into_iter()
            .map(str::to_owned)
            .collect::<Vec<_>>();
        for a in &segments {
            paths.push(a.clone());
            for b in &segments {
                paths.push(format!("{a}/{b}"));
                paths.push(format!("{a}/{b}/a"));
            }
        }
        for glob in all(&["a", "/", "*", "?", "[", "\\"], 4) {
            let compiled = PathGlob::new(&glob);
            for path in &paths {
                assert_eq!(
                    compiled.is_match(path),
                    reference(&glob, path),
                    "glob {glob:?}, path {path:?}"
                );
            }
        }
    }
}
