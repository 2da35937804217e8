//! `dot` diagrams to inline SVG at build time, with layout-rs.
//!
//! layout-rs does the graph layout (we do not write one); this module makes
//! its SVG fit inside an HTML page: no XML prolog, ids unique per page,
//! deterministic style order, the page's fonts, and an accessible name.
//! It must never panic on bad input: layout runs under `catch_unwind`.

use crate::content::body::parse_dot as parse;
use layout::backends::svg::SVGWriter;
use layout::gv::{self, parser::ast};
use std::collections::HashMap;
use std::sync::Mutex;

/// Placeholder for the per-page id prefix inside cached SVG.
const PREFIX: &str = "KANSOKU_DG";

/// Renders `dot` sources, caching each distinct source once per build.
#[derive(Debug, Default)]
pub struct Diagrams {
    cache: Mutex<HashMap<String, Result<String, String>>>,
}

/// Edges as `a → b`, for the diagram's accessible name.
fn describe(graph: &ast::Graph) -> String {
    fn walk(list: &ast::StmtList, out: &mut Vec<String>) {
        for stmt in &list.list {
            match stmt {
                ast::Stmt::Edge(e) => {
                    let mut from = &e.from.name;
                    for (to, _) in &e.to {
                        out.push(format!(
                            "{} → {}",
                            from.trim_matches('"'),
                            to.name.trim_matches('"')
                        ));
                        from = &to.name;
                    }
                }
                ast::Stmt::SubGraph(g) => walk(&g.list, out),
                _ => {}
            }
        }
    }
    let mut edges = Vec::new();
    walk(&graph.list, &mut edges);
    edges.join(", ")
}

fn layout_svg(src: &str) -> Result<String, String> {
    let graph = parse(src)?;
    let label = describe(&graph);
    let svg = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let mut builder = gv::GraphBuilder::new();
        builder.visit_graph(&graph);
        let mut visual = builder.get();
        let mut writer = SVGWriter::new();
        visual.do_it(false, false, false, &mut writer);
        writer.finalize()
    }))
    .map_err(|_| "the graph could not be laid out".to_owned())?;
    Ok(fit_for_html(&svg, &label))
}

/// Makes layout-rs's standalone SVG safe to inline in a page.
fn fit_for_html(svg: &str, label: &str) -> String {
    let mut s = svg.to_owned();
    if let Some(i) = s.find("<svg") {
        s.drain(..i);
    }
    // Its font classes come from a HashMap: sort them so output is stable.
    if let (Some(a), Some(b)) = (s.find("<style>\n"), s.find("</style>")) {
        let body = &s[a + 8..b];
        let mut lines: Vec<&str> = body.lines().filter(|l| !l.trim().is_empty()).collect();
        lines.sort_unstable();
        let sorted = lines
            .iter()
            .map(|l| {
                l.replace(
                    "font-family: Times, serif;",
                    "font-family: inherit; fill: currentColor;",
                )
                .replace(".a", &format!(".{PREFIX}-a"))
            })
            .collect::<Vec<_>>()
            .join("\n");
        s = format!("{}<style>\n{sorted}\n{}", &s[..a], &s[b..]);
    }
    s = s
        .replace("class=\"a", &format!("class=\"{PREFIX}-a"))
        .replace("id=\"startarrow\"", &format!("id=\"{PREFIX}-startarrow\""))
        .replace("id=\"endarrow\"", &format!("id=\"{PREFIX}-endarrow\""))
        .replace("url(#startarrow)", &format!("url(#{PREFIX}-startarrow)"))
        .replace("url(#endarrow)", &format!("url(#{PREFIX}-endarrow)"))
        .replace("id=\"C", &format!("id=\"{PREFIX}-C"))
        .replace("url(#C", &format!("url(#{PREFIX}-C"))
        .replace("id=\"arrow", &format!("id=\"{PREFIX}-arrow"))
        .replace("href=\"#arrow", &format!("href=\"#{PREFIX}-arrow"));
    let escaped = super::highlight::escape(label);
    s.replacen(
        "<svg ",
        &format!("<svg role=\"img\" aria-label=\"{escaped}\" class=\"diagram__svg\" "),
        1,
    )
}

impl Diagrams {
    /// The SVG for `src` with ids prefixed by `prefix` (unique on the page).
    pub fn svg(&self, src: &str, prefix: &str) -> Result<String, String> {
        let cached = {
            let cache = self.cache.lock().unwrap_or_else(|p| p.into_inner());
            cache.get(src).cloned()
        };
        let result = match cached {
            Some(r) => r,
            None => {
                let r = layout_svg(src);
                let mut cache = self.cache.lock().unwrap_or_else(|p| p.into_inner());
                cache.insert(src.to_owned(), r.clone());
                r
            }
        };
        result.map(|svg| svg.replace(PREFIX, prefix))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_inline_svg_with_page_unique_ids() {
        let d = Diagrams::default();
        let svg = d
            .svg("digraph { a -> b; b -> c }", "dg-1")
            .expect("valid graph");
        assert!(
            svg.starts_with("<svg role=\"img\" aria-label=\"a → b, b → c\""),
            "{svg}"
        );
        assert!(!svg.contains("<?xml"));
        assert!(svg.contains("id=\"dg-1-endarrow\""));
        assert!(!svg.contains("id=\"endarrow\""));
        assert_eq!(
            svg,
            d.svg("digraph { a -> b; b -> c }", "dg-1").expect("cached")
        );
    }

    #[test]
    fn bad_dot_is_an_error_not_a_panic() {
        let d = Diagrams::default();
        assert!(d.svg("digraph { a -> ", "x").is_err());
        assert!(d.svg("not a graph at all {{{", "x").is_err());
    }
}
