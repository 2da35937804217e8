//! The modules of the library form a DAG at every level: no top-level
//! module depends, directly or through others, on one that depends on
//! it, and neither do the submodules of any module (`src/render/*`,
//! `src/site/*`, `src/render/pages/*`, …) among themselves. A cycle makes
//! the modules one unit that can only be read, tested and changed
//! together, and it creeps in one convenient import at a time, so this
//! test reads the sources and fails naming the cycle and the lines that
//! make it.
//!
//! What counts as a dependency of module `a` on its sibling `b` (both
//! submodules of one module `m`, or both top-level): a path through
//! `crate::` or `super::` that leads to `m::b` (in a `use` or in code,
//! `use crate::{b, …}` included), or to a name `m` itself brings in from
//! `b` (`pub use b::X` or `pub use b::*`: a re-export hides no cycle), in
//! any `.rs` file of `a` or under it. A module and its own submodules may
//! use each other: that is how a module is split into files. Comments
//! (doc comments included) and string and character literals are not
//! read: a doc comment naming another module is no dependency. Test code
//! is read like the rest (a unit test that reaches up is a cycle too);
//! `src/pipeline_tests/` is a module of its own that nothing depends on,
//! so it can reach everything without making a cycle. `src/lib.rs` (the
//! root) is read only for what it re-exports, and the binary
//! (`src/main.rs`, `src/cmd/`, which use the library by its name,
//! `kansoku::`) is above every module and not read.

mod read;

use read::{code_only, references, Named};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Where a dependency was seen: `src/…:line` and the path as written.
type Seen = (String, String);

/// The dependencies between the submodules of one module (or between the
/// top-level modules), each with the first place it was seen.
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

/// Every `.rs` file of the library with the module path it defines
/// (`src/lib.rs`, the root, with the empty path).
fn library(src: &Path) -> Vec<(PathBuf, Vec<String>)> {
    let mut all = vec![(src.join("lib.rs"), Vec::new())];
    for m in &top_level(src) {
        let dir = src.join(m);
        if dir.is_dir() {
            files(&dir, std::slice::from_ref(m), &mut all);
        }
        let file = src.join(format!("{m}.rs"));
        if file.is_file() {
            all.push((file, vec![m.clone()]));
        }
    }
    all
}

/// A source file as read: where it is (`src/…`), its module path, what it
/// names and what its `use` declarations bring in, and its code.
struct Read {
    shown: String,
    module: Vec<String>,
    named: Vec<Named>,
    uses: Vec<(String, Vec<String>)>,
    code: String,
}

fn read_all(src: &Path) -> Vec<Read> {
    let root = src.parent().expect("src/ has a parent");
    library(src)
        .into_iter()
        .map(|(path, module)| {
            let text = std::fs::read_to_string(&path).expect("a source file reads");
            let code = code_only(&text);
            let (named, uses) = references(&code, &module);
            let shown = path
                .strip_prefix(root)
                .expect("under the crate")
                .to_string_lossy()
                .replace('\\', "/");
            Read {
                shown,
                module,
                named,
                uses,
                code,
            }
        })
        .collect()
}

/// Whether `code` defines an item called `name`.
fn defines(code: &str, name: &str) -> bool {
    [
        "fn", "struct", "enum", "trait", "type", "const", "static", "mod", "union",
    ]
    .iter()
    .any(|kw| {
        let needle = format!("{kw} {name}");
        code.match_indices(&needle).any(|(at, _)| {
            let before = code[..at].chars().next_back();
            let after = code[at + needle.len()..].chars().next();
            !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
                && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
        })
    })
}

/// The graph between the submodules of module `folder` (the top-level
/// modules for the root): an edge from `a` to `b` for each path in `a`
/// (its files and the modules under it) that leads into `b`, directly or
/// through a name `folder` itself re-exports from `b` (`pub use b::X`, or
/// a glob `pub use b::*` when `b` defines `X`).
fn graph(all: &[Read], folder: &[String]) -> Graph {
    let n = folder.len();
    let inside = |m: &[String]| m.len() > n && m[..n] == *folder;
    let nodes: BTreeSet<&str> = all
        .iter()
        .filter(|r| inside(&r.module))
        .map(|r| r.module[n].as_str())
        .collect();
    // What `folder`'s own file brings in from its submodules, by name.
    let mut named_from: BTreeMap<&str, &str> = BTreeMap::new();
    let mut globbed: Vec<&str> = Vec::new();
    for r in all.iter().filter(|r| r.module == folder) {
        for (alias, path) in &r.uses {
            let Some(child) = inside(path)
                .then(|| path[n].as_str())
                .filter(|c| nodes.contains(c))
            else {
                continue;
            };
            if alias == "*" {
                globbed.push(child);
            } else {
                named_from.insert(alias.as_str(), child);
            }
        }
    }
    let mut g = Graph::new();
    for r in all.iter().filter(|r| inside(&r.module)) {
        let from = r.module[n].as_str();
        let edges = g.entry(from.to_owned()).or_default();
        for (line, path, written) in &r.named {
            if !inside(path) {
                continue;
            }
            let name = path[n].as_str();
            let to: Vec<&str> = if nodes.contains(name) {
                vec![name]
            } else if let Some(child) = named_from.get(name) {
                vec![child]
            } else {
                globbed
                    .iter()
                    .copied()
                    .filter(|c| {
                        all.iter().any(|o| {
                            inside(&o.module) && o.module[n] == *c && defines(&o.code, name)
                        })
                    })
                    .collect()
            };
            for to in to.into_iter().filter(|&t| t != from) {
                edges
                    .entry(to.to_owned())
                    .or_insert_with(|| (format!("{}:{line}", r.shown), written.clone()));
            }
        }
    }
    g
}

/// Each module with submodules (the root included), as its path.
fn folders(all: &[Read]) -> BTreeSet<Vec<String>> {
    let mut out = BTreeSet::from([Vec::new()]);
    for r in all {
        for k in 1..r.module.len() {
            out.insert(r.module[..k].to_vec());
        }
    }
    out
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

/// Folders whose submodules still form a cycle, each with why: the known
/// debts, listed so that no new cycle joins them unseen (a cycle in any
/// other folder fails the test, and one listed here that is gone must be
/// taken off the list). None now: `config/` and `content/`, the last two,
/// were untied (issue 41).
const ALLOWED: &[(&str, &str)] = &[];

/// The cycles among the submodules of each module of `all` (the
/// top-level modules for the root, `""`), each named with its folder.
fn every_cycle(all: &[Read]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for folder in folders(all) {
        let name = folder.join("/");
        for cycle in cycles(&graph(all, &folder)) {
            let shown = if name.is_empty() {
                cycle
            } else {
                cycle.replacen("module cycle:", &format!("module cycle in src/{name}/:"), 1)
            };
            out.push((name.clone(), shown));
        }
    }
    out
}

#[test]
fn the_top_level_modules_form_a_dag() {
    let all = read_all(&src_dir());
    let g = graph(&all, &[]);
    assert!(g.len() > 10, "the modules were found: {:?}", g.keys());
    let found = cycles(&g);
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn the_submodules_of_every_module_form_a_dag() {
    let all = read_all(&src_dir());
    let seen: Vec<String> = folders(&all).iter().map(|f| f.join("/")).collect();
    for folder in ["render", "site", "validate", "render/twin"] {
        assert!(
            seen.iter().any(|f| f == folder),
            "{folder} was read: {seen:?}"
        );
    }
    let found: Vec<String> = every_cycle(&all)
        .into_iter()
        .filter(|(folder, _)| !folder.is_empty() && !ALLOWED.iter().any(|(a, _)| a == folder))
        .map(|(_, cycle)| cycle)
        .collect();
    assert!(found.is_empty(), "{}", found.join("\n"));
    // An exception that no longer holds is taken out of the list.
    for (folder, why) in ALLOWED {
        assert!(
            every_cycle(&all).iter().any(|(f, _)| f == folder),
            "src/{folder}/ has no cycle any more: remove it from ALLOWED ({why})"
        );
    }
}

/// Rendering reads the loaded site only through what a unit's input
/// keys (`render/context/reads.rs`): the site itself is named only where
/// units are dispatched and their inputs made (`render/mod.rs`,
/// `render/input.rs`) and in `render/context/`, which makes the render
/// state and the claims' views. A render file that names `Site` could be
/// handed it, and read past its key.
#[test]
fn only_the_dispatch_inputs_and_context_of_render_name_the_site() {
    let allowed = |f: &str| {
        matches!(f, "src/render/mod.rs" | "src/render/input.rs")
            || f.starts_with("src/render/context/")
    };
    let named: Vec<String> = read_all(&src_dir())
        .iter()
        .filter(|r| r.shown.starts_with("src/render/") && !allowed(&r.shown))
        .flat_map(|r| {
            r.code.lines().enumerate().filter_map(move |(n, line)| {
                let word = |c: char| c.is_alphanumeric() || c == '_';
                let names = line.match_indices("Site").any(|(at, _)| {
                    !line[..at].ends_with(word) && !line[at + 4..].starts_with(word)
                });
                names.then(|| format!("{}:{}: {}", r.shown, n + 1, line.trim()))
            })
        })
        .collect();
    assert!(named.is_empty(), "render files naming the site: {named:#?}");
}

#[test]
fn the_reader_sees_paths_and_not_comments_or_strings() {
    let src = "//! see `crate::a`\n\
               use crate::{b::X, c};\n\
               /* crate::d */ fn f<'l>(x: &'l str) -> char { let _ = \"crate::d\"; '\"' }\n\
               mod tests { use super::super::e; }\n\
               fn g() { crate::f::{h::I, J}; super::k::L::new(); }\n";
    let (refs, uses) = references(&code_only(src), &["m".to_owned()]);
    let names: Vec<(usize, String)> = refs.iter().map(|(l, p, _)| (*l, p.join("::"))).collect();
    let expect = [
        (2, "b::X"),
        (2, "c"),
        (4, "e"),
        (5, "f::h::I"),
        (5, "f::J"),
        (5, "k::L::new"),
    ];
    assert_eq!(names, expect.map(|(l, p)| (l, p.to_owned())));
    let uses: Vec<(String, String)> = uses.into_iter().map(|(a, p)| (a, p.join("::"))).collect();
    assert_eq!(
        uses,
        [("X".into(), "b::X".into()), ("c".into(), "c".into())]
    );

    // Inside a folder: a sibling reached by its path, and one reached
    // through a name the folder's own file re-exports, by name and by glob.
    let read = |shown: &str, module: &[&str], src: &str| {
        let code = code_only(src);
        let module: Vec<String> = module.iter().map(|m| m.to_string()).collect();
        let (named, uses) = references(&code, &module);
        Read {
            shown: shown.to_owned(),
            module,
            named,
            uses,
            code,
        }
    };
    let all = [
        read(
            "src/r/mod.rs",
            &["r"],
            "mod p; mod q; mod s; pub use p::Ctx; use s::*;\n",
        ),
        read(
            "src/r/p.rs",
            &["r", "p"],
            "pub struct Ctx;\nfn f() { super::q::g(); }\n",
        ),
        read(
            "src/r/q.rs",
            &["r", "q"],
            "use super::Ctx;\npub fn g() {}\n",
        ),
        read("src/r/s.rs", &["r", "s"], "pub fn h() {}\n"),
        read("src/r/t.rs", &["r", "t"], "\nfn t2() { super::h(); }\n"),
    ];
    let found = every_cycle(&all);
    assert_eq!(
        found,
        [(
            "r".to_owned(),
            "module cycle in src/r/: p -> q -> p, via src/r/p.rs:2 `super::q::g`, src/r/q.rs:1 `super::Ctx`".to_owned()
        )]
    );
    let g = graph(&all, &["r".to_owned()]);
    assert_eq!(
        g["t"]["s"],
        ("src/r/t.rs:2".to_owned(), "super::h".to_owned())
    );

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
