//! Derivation rules over `from`: no cycles (E086), no inference stronger
//! than its premises (W082), no `from` on a confirmed claim (W083), and
//! for a claim stating an answer, the same held as errors (E029): an
//! answer deduced from other claims names them and is no stronger.
//!
//! These read the claims and the site-wide id map only; the lock and the
//! evidence are not consulted here (see `crate::review` for what changes
//! over time).

use super::{ClaimAt, Map};
use crate::content::{Class, Content};
use crate::error::Diagnostic;

/// E086 for every cycle in `from`, each reported once, at the claim of the
/// cycle whose id sorts first, naming every claim in the cycle in order.
pub(super) fn cycles(content: &Content, claims: &Map<String, ClaimAt>) -> Vec<Diagnostic> {
    let claim = |at: ClaimAt| &content.pages[at.page].claims[at.claim];
    // Only a claim resting on another can be in a cycle: the graph is
    // made of those alone (a claim with no premise ends every path
    // through it), which at scale leaves out most claims and their sort.
    let rests = |at: ClaimAt| {
        claim(at)
            .from
            .iter()
            .any(|(f, _)| claims.contains_key(f.as_str()))
    };
    let in_graph: Map<&str, ClaimAt> = claims
        .iter()
        .filter(|&(_, &at)| rests(at))
        .map(|(id, &at)| (id.as_str(), at))
        .collect();
    let next = |id: &str| -> Vec<&str> {
        in_graph.get(id).map_or_else(Vec::new, |&at| {
            claim(at)
                .from
                .iter()
                .map(|(f, _)| f.as_str())
                .filter(|f| in_graph.contains_key(f))
                .collect()
        })
    };
    let mut ids: Vec<&str> = in_graph.keys().copied().collect();
    ids.sort_unstable();
    let sccs = strongly_connected(&ids, &next);
    let mut out = Vec::new();
    for scc in sccs {
        let first = scc[0];
        let cyclic = scc.len() > 1 || next(first).contains(&first);
        if !cyclic {
            continue;
        }
        // The walk from the first id, always to the smallest successor
        // inside the component, closes a cycle; every member is then
        // named (for a component with more than one cycle, the rest are
        // listed after the walk).
        let members: std::collections::BTreeSet<&str> = scc.iter().copied().collect();
        let mut walk = vec![first];
        loop {
            let cur = *walk.last().expect("walk starts non-empty");
            let mut succ: Vec<&str> = next(cur)
                .into_iter()
                .filter(|s| members.contains(s))
                .collect();
            succ.sort_unstable();
            let Some(&s) = succ.iter().find(|s| !walk.contains(s)).or(succ.first()) else {
                break;
            };
            walk.push(s);
            if walk[..walk.len() - 1].contains(&s) {
                break;
            }
        }
        let mut text = walk
            .iter()
            .map(|id| format!("`{id}`"))
            .collect::<Vec<_>>()
            .join(" → ");
        let rest: Vec<String> = members
            .iter()
            .filter(|m| !walk.contains(m))
            .map(|m| format!("`{m}`"))
            .collect();
        if !rest.is_empty() {
            text.push_str(&format!(" (also in the cycle: {})", rest.join(", ")));
        }
        let at = claims[first];
        let page = &content.pages[at.page];
        let c = claim(at);
        let span = c
            .from
            .iter()
            .find(|(f, _)| Some(f.as_str()) == walk.get(1).copied())
            .map_or(c.id_span.clone(), |(_, s)| s.clone());
        out.push(
            page.src
                .error("E086", span, format!("`from` forms a cycle: {text}"))
                .with_hint(
                    "an inference cannot rest on itself: remove one `from` link in the cycle",
                )
                .with_claim(&c.id),
        );
    }
    out
}

/// Tarjan's strongly connected components, iterative; each component
/// sorted, the list in order of each component's first id.
fn strongly_connected<'a>(
    ids: &[&'a str],
    next: &dyn Fn(&str) -> Vec<&'a str>,
) -> Vec<Vec<&'a str>> {
    let pos: Map<&str, usize> = ids.iter().enumerate().map(|(i, &id)| (id, i)).collect();
    let n = ids.len();
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut counter = 0;
    let mut out = Vec::new();
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        // (node, its successors, how many of them are done)
        let mut work: Vec<(usize, Vec<usize>, usize)> = Vec::new();
        let succ = |v: usize| -> Vec<usize> { next(ids[v]).iter().map(|s| pos[s]).collect() };
        index[root] = counter;
        low[root] = counter;
        counter += 1;
        stack.push(root);
        on_stack[root] = true;
        work.push((root, succ(root), 0));
        while let Some((v, succs, i)) = work.last_mut() {
            let v = *v;
            if *i < succs.len() {
                let w = succs[*i];
                *i += 1;
                if index[w] == usize::MAX {
                    index[w] = counter;
                    low[w] = counter;
                    counter += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    work.push((w, succ(w), 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some((parent, _, _)) = work.last() {
                low[*parent] = low[*parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut comp = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    comp.push(ids[w]);
                    if w == v {
                        break;
                    }
                }
                comp.sort_unstable();
                out.push(comp);
            }
        }
    }
    out.sort_unstable();
    out
}

/// How strong a class is: 0 for confirmed, down to 3 for unresolved.
fn strength(class: Class) -> usize {
    Class::BY_CERTAINTY
        .iter()
        .position(|c| *c == class)
        .expect("every class is ranked")
}

/// W082 and W083 for one claim: an inferred claim resting on an
/// unresolved or limited premise, a confirmed claim with `from`. For a
/// claim that states an answer (`answered`: a yes, no or partial from its
/// vocabulary) these are errors, E029, with one more: an inferred answer
/// names the claims it is deduced from. Views show an answer first, on
/// the home page's summary; one stronger than what it rests on is read as
/// the record's word.
pub(super) fn premises(
    content: &Content,
    claims: &Map<String, ClaimAt>,
    at: ClaimAt,
    answered: bool,
    diags: &mut Vec<Diagnostic>,
) {
    let page = &content.pages[at.page];
    let c = &page.claims[at.claim];
    if answered {
        if let Some((_, span)) = c
            .answer
            .as_ref()
            .filter(|_| c.class == Class::Inferred && c.from.is_empty())
        {
            diags.push(
                page.src
                    .error(
                        "E029",
                        span.clone(),
                        format!("inferred claim `{}` states an answer but names no premises (`from`)", c.id),
                    )
                    .with_hint("an answer deduced from other claims names them: add `from = [\"…\"]` with the claims it follows from"),
            );
        }
    }
    if c.class == Class::Confirmed && !c.from.is_empty() {
        let d = if answered {
            page.src
                .error(
                    "E029",
                    c.from[0].1.clone(),
                    format!("confirmed claim `{}` states an answer deduced from other claims (`from`)", c.id),
                )
                .with_hint(format!(
                    "an answer deduced from other claims is inferred at most: make `{}` inferred, or drop `from` if the answer was seen directly",
                    c.id
                ))
        } else {
            page.src
                .warning(
                    "W083",
                    c.from[0].1.clone(),
                    format!("confirmed claim `{}` rests on other claims (`from`)", c.id),
                )
                .with_hint("a confirmed claim is seen directly: make it `inferred`, or drop `from`")
        };
        diags.push(d.with_claim(&c.id));
        return;
    }
    if c.class != Class::Inferred && !answered {
        return;
    }
    for (id, span) in &c.from {
        let Some(&p) = claims.get(id.as_str()) else {
            continue;
        };
        let premise = &content.pages[p.page].claims[p.claim];
        // A broken premise's class is a stand-in, reported where it is.
        if premise.broken {
            continue;
        }
        let premise = premise.class;
        if answered {
            if strength(c.class) < strength(premise) {
                diags.push(
                    page.src
                        .error(
                            "E029",
                            span.clone(),
                            format!(
                                "claim `{}` states an answer stronger than its premises: `{id}` is {}",
                                c.id,
                                premise.name()
                            ),
                        )
                        .with_hint(format!(
                            "an answer is no stronger than what it rests on: make `{}` {} too, or settle `{id}` first",
                            c.id,
                            premise.name()
                        )),
                );
            }
            continue;
        }
        if matches!(premise, Class::Unresolved | Class::Limited) {
            diags.push(
                page.src
                    .warning(
                        "W082",
                        span.clone(),
                        format!(
                            "inferred claim `{}` is stronger than its premises: `{id}` is {}",
                            c.id,
                            premise.name()
                        ),
                    )
                    .with_hint(format!(
                        "make `{}` {} too, or accept this with a reason",
                        c.id,
                        premise.name()
                    ))
                    .with_claim(&c.id),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn components_of_a_small_graph() {
        let g: std::collections::HashMap<&str, Vec<&str>> = [
            ("a", vec!["b"]),
            ("b", vec!["c"]),
            ("c", vec!["a"]),
            ("d", vec!["d"]),
            ("e", vec!["a"]),
        ]
        .into_iter()
        .collect();
        let next = |id: &str| g[id].clone();
        let comps = strongly_connected(&["a", "b", "c", "d", "e"], &next);
        assert_eq!(comps, vec![vec!["a", "b", "c"], vec!["d"], vec!["e"]]);
    }
}
