//! The reading half of the layering test: Rust source with comments and
//! literals blanked out, and the module paths its code names (through
//! `crate::` and `super::`) and its `use` declarations bring in. A small
//! lexer, not a parser: enough to find paths, not to understand code.

/// `text` with comments and string and character literals blanked out
/// (newlines kept, so line numbers still hold).
pub(super) fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let blank = |out: &mut Vec<u8>, bytes: &[u8]| {
        out.extend(bytes.iter().map(|&c| if c == b'\n' { b'\n' } else { b' ' }));
    };
    let mut i = 0;
    while i < b.len() {
        let rest = &b[i..];
        let ident_before = i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
        let end = if rest.starts_with(b"//") {
            rest.iter()
                .position(|&c| c == b'\n')
                .map_or(b.len(), |n| i + n)
        } else if rest.starts_with(b"/*") {
            let (mut depth, mut j) = (0usize, i);
            while j < b.len() {
                if b[j..].starts_with(b"/*") {
                    depth += 1;
                    j += 2;
                } else if b[j..].starts_with(b"*/") {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    j += 1;
                }
            }
            j
        } else if !ident_before && (rest.starts_with(b"r\"") || rest.starts_with(b"r#")) {
            // A raw string: r"…", r#"…"#, …
            let hashes = rest[1..].iter().take_while(|&&c| c == b'#').count();
            if rest.get(1 + hashes) != Some(&b'"') {
                out.push(b[i]);
                i += 1;
                continue;
            }
            let close: Vec<u8> = std::iter::once(b'"')
                .chain(std::iter::repeat_n(b'#', hashes))
                .collect();
            let body = i + 2 + hashes;
            b[body..]
                .windows(close.len())
                .position(|w| w == close.as_slice())
                .map_or(b.len(), |n| body + n + close.len())
        } else if rest[0] == b'"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            j + 1
        } else if rest[0] == b'\'' {
            // A character literal ('x', '\n', '\u{1F600}', 'é'), not a
            // lifetime ('a) or a label.
            let text = std::str::from_utf8(&rest[1..]).unwrap_or("");
            let mut chars = text.char_indices();
            match chars.next() {
                // An escape: what follows the escaped character, up to the
                // closing quote ('\'', '\n', '\u{1F600}').
                Some((_, '\\')) if text.len() > 2 => {
                    text[2..].find('\'').map_or(b.len(), |n| i + 1 + 2 + n + 1)
                }
                Some(_) => match chars.next() {
                    Some((n, '\'')) => i + 1 + n + 1,
                    // A lifetime or a label.
                    _ => {
                        out.push(b[i]);
                        i += 1;
                        continue;
                    }
                },
                None => b.len(),
            }
        } else {
            out.push(b[i]);
            i += 1;
            continue;
        };
        let end = end.min(b.len());
        blank(&mut out, &b[i..end]);
        i = end;
    }
    String::from_utf8(out).expect("only ASCII was blanked")
}

/// A path the code names: the line, the module path it resolves to (from
/// the crate root, items included), and the path as written.
pub(super) type Named = (usize, Vec<String>, String);

/// What a file's code names through `crate::` and `super::` paths, each
/// resolved from the root (`use crate::{a::X, b}` names `a::X` and `b`),
/// and what its own `use` declarations (outside inline modules) bring in
/// under which name (`use a::X as Y` brings `Y`, from `a::X`; a glob
/// brings `*`). `module` is the module path the file defines.
pub(super) fn references(
    code: &str,
    module: &[String],
) -> (Vec<Named>, Vec<(String, Vec<String>)>) {
    let bytes = code.as_bytes();
    let line_of = |at: usize| code[..at].matches('\n').count() + 1;
    let mut found = Vec::new();
    let mut uses = Vec::new();
    // Inline modules (`mod tests { … }`): the module path at each brace.
    let mut stack: Vec<(usize, String)> = Vec::new();
    let mut depth = 0usize;
    let mut pending_mod: Option<String> = None;
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let word_start = c.is_ascii_alphabetic() || c == b'_';
        if word_start && (i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_'))
        {
            let word = ident_at(code, i);
            let after = i + word.len();
            let mut here: Vec<String> = module.to_vec();
            here.extend(stack.iter().map(|(_, m)| m.clone()));
            if word == "mod" {
                let rest = code[after..].trim_start();
                let name = ident_at(code, code.len() - rest.len());
                let next = rest[name.len()..].trim_start();
                if next.starts_with('{') {
                    pending_mod = Some(name.to_owned());
                }
            } else if word == "use" && stack.is_empty() {
                // What this module's own scope gains: a relative path
                // starts at this module (a child module or an outside
                // crate, which no module path of ours starts with).
                let mut from = after + (code[after..].len() - code[after..].trim_start().len());
                let mut base = here.clone();
                if code[from..].starts_with("crate::") {
                    base.clear();
                    from += "crate::".len();
                }
                while code[from..].starts_with("super::") {
                    base.pop();
                    from += "super::".len();
                }
                let mut leaves = Vec::new();
                tree(code, from, &base, &mut leaves);
                uses.extend(leaves.into_iter().map(|(_, path, alias)| (alias, path)));
            }
            if word == "crate" && code[after..].starts_with("::") {
                let mut leaves = Vec::new();
                tree(code, after + 2, &[], &mut leaves);
                for (at, path, _) in leaves {
                    let written = format!("crate::{}", path.join("::"));
                    found.push((line_of(at.max(i)), path, written));
                }
                i = after;
                continue;
            } else if word == "super" && code[after..].starts_with("::") {
                // Climb from the module this code is in.
                let mut at = i;
                let mut written = String::new();
                while code[at..].starts_with("super::") {
                    here.pop();
                    written.push_str("super::");
                    at += "super::".len();
                }
                let mut leaves = Vec::new();
                tree(code, at, &here, &mut leaves);
                for (leaf_at, path, _) in leaves {
                    let shown = format!("{written}{}", path[here.len()..].join("::"));
                    found.push((line_of(leaf_at.max(i)), path, shown));
                }
                i = at;
                continue;
            }
            i = after;
            continue;
        }
        match c {
            b'{' => {
                depth += 1;
                if let Some(m) = pending_mod.take() {
                    stack.push((depth, m));
                }
            }
            b'}' => {
                if stack.last().is_some_and(|(d, _)| *d == depth) {
                    stack.pop();
                }
                depth = depth.saturating_sub(1);
            }
            b';' => pending_mod = None,
            _ => {}
        }
        i += 1;
    }
    (found, uses)
}

/// The identifier starting at `at` (empty if none does).
fn ident_at(code: &str, at: usize) -> &str {
    let end = code[at..]
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .map_or(code.len(), |n| at + n);
    &code[at..end]
}

/// The leaves of the path tree at `at` (`a::b`, `a::{b, c::*}`, `self`),
/// each as (where it starts, `prefix` + its segments, the name it is
/// known by: its alias, its last segment, or `*`).
fn tree(code: &str, mut at: usize, prefix: &[String], out: &mut Vec<(usize, Vec<String>, String)>) {
    let skip_ws = |at: usize| at + (code[at..].len() - code[at..].trim_start().len());
    let start = skip_ws(at);
    at = start;
    let mut path = prefix.to_vec();
    loop {
        at = skip_ws(at);
        if code[at..].starts_with('{') {
            let close = matching_brace(code, at);
            let inner = &code[at + 1..close];
            for item in split_top(inner) {
                let offset = item.as_ptr() as usize - code.as_ptr() as usize;
                if !item.trim().is_empty() {
                    tree(code, offset, &path, out);
                }
            }
            return;
        }
        if code[at..].starts_with('*') {
            out.push((start, path, "*".to_owned()));
            return;
        }
        let name = ident_at(code, at);
        if name.is_empty() {
            if path.len() > prefix.len() {
                let last = path.last().cloned().unwrap_or_default();
                out.push((start, path, last));
            }
            return;
        }
        at += name.len();
        if name != "self" {
            path.push(name.to_owned());
        }
        if code[at..].starts_with("::") {
            at += 2;
            continue;
        }
        let rest = code[at..].trim_start();
        let alias = rest
            .strip_prefix("as")
            .filter(|r| r.starts_with(char::is_whitespace))
            .map(|r| ident_at(code, code.len() - r.trim_start().len()).to_owned());
        let last = path.last().cloned().unwrap_or_default();
        out.push((start, path, alias.unwrap_or(last)));
        return;
    }
}

/// The index of the `}` closing the `{` at `open`.
fn matching_brace(code: &str, open: usize) -> usize {
    let mut depth = 0;
    for (n, c) in code[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return open + n;
                }
            }
            _ => {}
        }
    }
    code.len()
}

/// `a, b::{c, d}, e` split at its top-level commas.
fn split_top(list: &str) -> Vec<&str> {
    let (mut out, mut depth, mut start) = (Vec::new(), 0, 0);
    for (n, c) in list.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&list[start..n]);
                start = n + 1;
            }
            _ => {}
        }
    }
    out.push(&list[start..]);
    out
}
