//! The top-level modules of the library form a DAG: no module depends,
//! directly or through others, on one that depends on it. A cycle makes
//! the modules one unit that can only be read, tested and changed
//! together, and it creeps in one convenient import at a time, so this
//! test reads the sources and fails naming the cycle and the lines that
//! make it.
//!
//! What counts as a dependency of module `a` on module `b`: a path
//! `crate::b` (in a `use` or in code, `use crate::{b, …}` included) or a
//! `super::` path that climbs out of `a` to `b`, in any `.rs` file under
//! `src/a/` or in `src/a.rs`. Comments (doc comments included) and string
//! and character literals are not read: a doc comment naming another
//! module is no dependency. Test code is read like the rest (a unit test
//! that reaches up is a cycle too); `src/pipeline_tests/` is a module of
//! its own that nothing depends on, so it can reach everything without
//! making a cycle. `src/lib.rs` (the root) and the binary (`src/main.rs`,
//! `src/cmd/`, which use the library by its name, `kansoku::`) are above
//! every module and not read.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Where a dependency was seen: `src/…:line` and the path as written.
type Seen = (String, String);

/// The dependencies between top-level modules, each with the first place
/// it was seen.
type Graph = BTreeMap<String, BTreeMap<String, Seen>>;

fn src_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The top-level modules of the library: `src/x.rs` and `src/x/`.
fn top_level(src: &Path) -> BTreeSet<String> {
    let mut mods = BTreeSet::new();
    for entry in std::fs::read_dir(src).expect("src/ reads") {
        let path = entry.expect("entry").path();
        let name = path
            .file_stem()
            .expect("a name")
            .to_string_lossy()
            .into_owned();
        let is_mod = if path.is_dir() {
            name != "cmd"
                && (path.join("mod.rs").is_file() || src.join(format!("{name}.rs")).is_file())
        } else {
            path.extension().is_some_and(|e| e == "rs") && name != "lib" && name != "main"
        };
        if is_mod {
            mods.insert(name);
        }
    }
    mods
}

/// Every `.rs` file under `dir`, with the module path it defines.
fn files(dir: &Path, module: &[String], out: &mut Vec<(PathBuf, Vec<String>)>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("a module directory reads")
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path
            .file_stem()
            .expect("a name")
            .to_string_lossy()
            .into_owned();
        if path.is_dir() {
            let mut sub = module.to_vec();
            sub.push(name);
            files(&path, &sub, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let mut m = module.to_vec();
            if name != "mod" {
                m.push(name);
            }
            out.push((path, m));
        }
    }
}

/// `text` with comments and string and character literals blanked out
/// (newlines kept, so line numbers still hold).
fn code_only(text: &str) -> String {
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

/// The top-level modules a file's code names, each with the line and the
/// path as written. `module` is the module path the file defines.
fn references(
    code: &str,
    module: &[String],
    top: &BTreeSet<String>,
) -> Vec<(usize, String, String)> {
    let bytes = code.as_bytes();
    let ident_at = |at: usize| -> &str {
        let end = code[at..]
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .map_or(code.len(), |n| at + n);
        &code[at..end]
    };
    let line_of = |at: usize| code[..at].matches('\n').count() + 1;
    // Inline modules (`mod tests { … }`): the module path at each brace.
    let mut found = Vec::new();
    let mut stack: Vec<(usize, String)> = Vec::new();
    let mut depth = 0usize;
    let mut pending_mod: Option<String> = None;
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let word_start = c.is_ascii_alphabetic() || c == b'_';
        if word_start && (i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_'))
        {
            let word = ident_at(i);
            let after = i + word.len();
            if word == "mod" {
                let rest = code[after..].trim_start();
                let name = ident_at(code.len() - rest.len());
                let next = rest[name.len()..].trim_start();
                if next.starts_with('{') {
                    pending_mod = Some(name.to_owned());
                }
            } else if word == "crate" && code[after..].starts_with("::") {
                let from = after + 2;
                if code[from..].starts_with('{') {
                    // `crate::{a::…, b}`: the first segment of each item.
                    let close = matching_brace(code, from);
                    for item in split_top(&code[from + 1..close]) {
                        let name = item.trim().split("::").next().unwrap_or("").trim();
                        if top.contains(name) {
                            found.push((line_of(i), name.to_owned(), format!("crate::{name}")));
                        }
                    }
                } else {
                    let name = ident_at(from);
                    if top.contains(name) {
                        found.push((line_of(i), name.to_owned(), format!("crate::{name}")));
                    }
                }
            } else if word == "super" && code[after..].starts_with("::") {
                // Climb from the module this code is in.
                let mut here: Vec<String> = module.to_vec();
                here.extend(stack.iter().map(|(_, m)| m.clone()));
                let mut at = i;
                let mut written = String::new();
                while code[at..].starts_with("super::") {
                    here.pop();
                    written.push_str("super::");
                    at += "super::".len();
                }
                let name = ident_at(at);
                // Out at the root, the name after it is a top-level module.
                let target = here.first().map_or(name, String::as_str);
                if top.contains(target) {
                    found.push((line_of(i), target.to_owned(), format!("{written}{name}")));
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
    found
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

/// The module graph of the sources under `src`.
fn graph(src: &Path) -> Graph {
    let top = top_level(src);
    let mut all = Vec::new();
    for m in &top {
        let dir = src.join(m);
        if dir.is_dir() {
            files(&dir, std::slice::from_ref(m), &mut all);
        }
        let file = src.join(format!("{m}.rs"));
        if file.is_file() {
            all.push((file, vec![m.clone()]));
        }
    }
    let root = src.parent().expect("src/ has a parent");
    let mut g = Graph::new();
    for (path, module) in all {
        let text = std::fs::read_to_string(&path).expect("a source file reads");
        let shown = path
            .strip_prefix(root)
            .expect("under the crate")
            .to_string_lossy()
            .replace('\\', "/");
        let from = &module[0];
        let edges = g.entry(from.clone()).or_default();
        for (line, to, written) in references(&code_only(&text), &module, &top) {
            if &to != from {
                edges
                    .entry(to)
                    .or_insert_with(|| (format!("{shown}:{line}"), written));
            }
        }
    }
    g
}

/// Each cycle of `g` (one per strongly connected component of more than
/// one module), as `a -> b -> … -> a, via …`.
fn cycles(g: &Graph) -> Vec<String> {
    // Tarjan's algorithm, over the modules in name order.
    struct State<'a> {
        g: &'a Graph,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        sccs: Vec<Vec<&'a str>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a str) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on.insert(v);
        for w in s.g.get(v).into_iter().flat_map(|e| e.keys()) {
            let w = w.as_str();
            if !s.index.contains_key(w) {
                visit(s, w);
                let lw = s.low[w];
                let lv = s.low.get_mut(v).expect("visited");
                *lv = (*lv).min(lw);
            } else if s.on.contains(w) {
                let iw = s.index[w];
                let lv = s.low.get_mut(v).expect("visited");
                *lv = (*lv).min(iw);
            }
        }
        if s.low[v] == s.index[v] {
            let mut scc = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on.remove(w);
                scc.push(w);
                if w == v {
                    break;
                }
            }
            s.sccs.push(scc);
        }
    }
    let mut s = State {
        g,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        sccs: Vec::new(),
    };
    for v in g.keys() {
        if !s.index.contains_key(v.as_str()) {
            visit(&mut s, v);
        }
    }
    let mut out = Vec::new();
    for scc in s.sccs.iter().filter(|c| c.len() > 1) {
        let members: BTreeSet<&str> = scc.iter().copied().collect();
        let start = *members.iter().next().expect("not empty");
        // The shortest way from `start` back to itself inside the
        // component (breadth first), to name one concrete cycle.
        let mut prev: BTreeMap<&str, &str> = BTreeMap::new();
        let mut queue = std::collections::VecDeque::from([start]);
        let mut closing = None;
        while let Some(v) = queue.pop_front() {
            for w in g[v]
                .keys()
                .map(String::as_str)
                .filter(|w| members.contains(w))
            {
                if w == start {
                    closing = Some(v);
                    break;
                }
                if !prev.contains_key(w) {
                    prev.insert(w, v);
                    queue.push_back(w);
                }
            }
            if closing.is_some() {
                break;
            }
        }
        let mut path = vec![start];
        let mut v = closing.expect("a component has a cycle through each member");
        while v != start {
            path.push(v);
            v = prev[v];
        }
        path[1..].reverse();
        path.push(start);
        let names = path.join(" -> ");
        let via: Vec<String> = path
            .windows(2)
            .map(|w| {
                let (at, written) = &g[w[0]][w[1]];
                format!("{at} `{written}`")
            })
            .collect();
        let mut also: Vec<&str> = members
            .iter()
            .copied()
            .filter(|m| !path.contains(m))
            .collect();
        also.sort_unstable();
        let rest = if also.is_empty() {
            String::new()
        } else {
            format!(" (the cycle also takes in: {})", also.join(", "))
        };
        out.push(format!(
            "module cycle: {names}, via {}{rest}",
            via.join(", ")
        ));
    }
    out
}

#[test]
fn the_top_level_modules_form_a_dag() {
    let g = graph(&src_dir());
    assert!(g.len() > 10, "the modules were found: {:?}", g.keys());
    let found = cycles(&g);
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn the_reader_sees_paths_and_not_comments_or_strings() {
    let top: BTreeSet<String> = ["a", "b", "c", "d", "e"].map(String::from).into();
    let src = "//! see `crate::a`\n\
               use crate::{b::X, c};\n\
               /* crate::d */ fn f<'l>(x: &'l str) -> char { let _ = \"crate::d\"; '\"' }\n\
               mod tests { use super::super::e; }\n";
    let refs = references(&code_only(src), &["m".to_owned()], &top);
    let names: Vec<(usize, &str)> = refs.iter().map(|(l, n, _)| (*l, n.as_str())).collect();
    assert_eq!(names, [(2, "b"), (2, "c"), (4, "e")]);

    let mut g = Graph::new();
    let seen = |at: &str, w: &str| (at.to_owned(), w.to_owned());
    g.entry("a".into())
        .or_default()
        .insert("b".into(), seen("src/a.rs:1", "crate::b"));
    g.entry("b".into())
        .or_default()
        .insert("c".into(), seen("src/b.rs:2", "crate::c"));
    g.entry("c".into())
        .or_default()
        .insert("a".into(), seen("src/c/mod.rs:3", "super::a"));
    g.entry("c".into())
        .or_default()
        .insert("d".into(), seen("src/c/mod.rs:4", "crate::d"));
    assert_eq!(
        cycles(&g),
        ["module cycle: a -> b -> c -> a, via src/a.rs:1 `crate::b`, src/b.rs:2 `crate::c`, src/c/mod.rs:3 `super::a`"]
    );
}
