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

/// Each node's label (its id when it has none) and link (`href` or
/// `URL`), from node statements anywhere in the graph.
fn nodes(graph: &ast::Graph) -> HashMap<String, (String, Option<String>)> {
    fn walk(list: &ast::StmtList, out: &mut HashMap<String, (String, Option<String>)>) {
        for stmt in &list.list {
            match stmt {
                ast::Stmt::Node(n) => {
                    let id = n.id.name.trim_matches('"').to_owned();
                    let mut label = None;
                    let mut href = None;
                    for (k, v) in n.list.iter() {
                        let v = v.trim_matches('"').to_owned();
                        match k.as_str() {
                            "label" => label = Some(v),
                            "href" | "URL" => href = Some(v),
                            _ => {}
                        }
                    }
                    let e = out.entry(id.clone()).or_insert_with(|| (id, None));
                    if let Some(l) = label {
                        e.0 = l;
                    }
                    if href.is_some() {
                        e.1 = href;
                    }
                }
                ast::Stmt::SubGraph(g) => walk(&g.list, out),
                _ => {}
            }
        }
    }
    let mut out = HashMap::new();
    walk(&graph.list, &mut out);
    out
}

/// A label's lines (`\\n` in dot source, or already split by the parser).
fn label_lines(label: &str) -> impl Iterator<Item = &str> {
    label
        .split("\\n")
        .flat_map(str::lines)
        .map(str::trim)
        .filter(|l| !l.is_empty())
}

/// The diagram in words, for its accessible name: its edges as chains of
/// labels ("a → b → c"; a new chain where one does not continue the last),
/// each label on one line.
fn describe(graph: &ast::Graph, nodes: &HashMap<String, (String, Option<String>)>) -> String {
    fn walk(list: &ast::StmtList, out: &mut Vec<(String, String)>) {
        for stmt in &list.list {
            match stmt {
                ast::Stmt::Edge(e) => {
                    let mut from = &e.from.name;
                    for (to, _) in &e.to {
                        out.push((from.clone(), to.name.clone()));
                        from = &to.name;
                    }
                }
                ast::Stmt::SubGraph(g) => walk(&g.list, out),
                _ => {}
            }
        }
    }
    let name = |id: &str| {
        let id = id.trim_matches('"');
        let label = nodes.get(id).map_or(id, |n| n.0.as_str());
        label_lines(label).collect::<Vec<_>>().join(" ")
    };
    let mut edges = Vec::new();
    walk(&graph.list, &mut edges);
    if edges.is_empty() {
        let mut all: Vec<String> = nodes.keys().map(|k| name(k)).collect();
        all.sort();
        return all.join(", ");
    }
    let mut chains: Vec<Vec<&str>> = Vec::new();
    for (from, to) in &edges {
        match chains.last_mut() {
            Some(c) if c.last() == Some(&from.as_str()) => c.push(to),
            _ => chains.push(vec![from, to]),
        }
    }
    chains
        .iter()
        .map(|c| c.iter().map(|id| name(id)).collect::<Vec<_>>().join(" → "))
        .collect::<Vec<_>>()
        .join("; ")
}

fn layout_svg(src: &str) -> Result<String, String> {
    let graph = parse(src)?;
    let nodes = nodes(&graph);
    let label = describe(&graph, &nodes);
    let svg = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let mut builder = gv::GraphBuilder::new();
        builder.visit_graph(&graph);
        let mut visual = builder.get();
        let mut writer = SVGWriter::new();
        visual.do_it(false, false, false, &mut writer);
        writer.finalize()
    }))
    .map_err(|_| "the graph could not be laid out".to_owned())?;
    let links: HashMap<String, String> = nodes
        .values()
        .filter_map(|(label, href)| {
            let first = label_lines(label).next().unwrap_or_default().to_owned();
            href.clone().map(|h| (first, h))
        })
        .collect();
    Ok(fit_for_html(&svg, &label, &links))
}

/// The value of attribute `name` in one tag's text.
fn attr<'t>(tag: &'t str, name: &str) -> Option<&'t str> {
    let key = format!(" {name}=\"");
    let i = tag.find(&key)? + key.len();
    let j = tag[i..].find('"')? + i;
    Some(&tag[i..j])
}

fn num(tag: &str, name: &str) -> Option<f64> {
    attr(tag, name)?.trim().parse().ok()
}

/// The box the drawing actually covers: layout-rs sizes its canvas from a
/// rough estimate and leaves half of it empty.
fn drawn_bounds(svg: &str) -> Option<(f64, f64, f64, f64)> {
    let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    let mut add = |x: f64, y: f64| {
        x0 = x0.min(x);
        y0 = y0.min(y);
        x1 = x1.max(x);
        y1 = y1.max(y);
    };
    let mut rest = svg;
    while let Some(i) = rest.find('<') {
        let Some(j) = rest[i..].find('>') else { break };
        let tag = &rest[i..i + j];
        rest = &rest[i + j..];
        if tag.starts_with("<rect") {
            if let (Some(x), Some(y), Some(w), Some(h)) = (
                num(tag, "x"),
                num(tag, "y"),
                num(tag, "width"),
                num(tag, "height"),
            ) {
                add(x, y);
                add(x + w, y + h);
            }
        } else if tag.starts_with("<ellipse") || tag.starts_with("<circle") {
            let (cx, cy) = (num(tag, "cx"), num(tag, "cy"));
            let rx = num(tag, "rx").or_else(|| num(tag, "r"));
            let ry = num(tag, "ry").or_else(|| num(tag, "r"));
            if let (Some(cx), Some(cy), Some(rx), Some(ry)) = (cx, cy, rx, ry) {
                add(cx - rx, cy - ry);
                add(cx + rx, cy + ry);
            }
        } else if tag.starts_with("<path") {
            if let Some(d) = attr(tag, "d") {
                let v: Vec<f64> = d
                    .split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
                    .filter_map(|t| t.parse().ok())
                    .collect();
                for p in v.chunks_exact(2) {
                    add(p[0], p[1]);
                }
            }
        } else if tag.starts_with("<line") {
            if let (Some(a), Some(b), Some(c), Some(d)) = (
                num(tag, "x1"),
                num(tag, "y1"),
                num(tag, "x2"),
                num(tag, "y2"),
            ) {
                add(a, b);
                add(c, d);
            }
        }
    }
    (x1 > x0 && y1 > y0).then_some((x0, y0, x1, y1))
}

/// Relative luminance of `#rrggbb[aa]`.
fn luminance(hex: &str) -> Option<f64> {
    let h = hex.strip_prefix('#')?;
    if h.len() < 6 {
        return None;
    }
    let c = |i: usize| -> Option<f64> {
        let v = f64::from(u8::from_str_radix(h.get(i..i + 2)?, 16).ok()?) / 255.0;
        Some(if v <= 0.03928 {
            v / 12.92
        } else {
            ((v + 0.055) / 1.055).powf(2.4)
        })
    };
    Some(0.2126 * c(0)? + 0.7152 * c(2)? + 0.0722 * c(4)?)
}

/// Colours that follow the page's scheme: strokes and text in the text
/// colour, white (default) node fills in the page background; text on a
/// coloured fill in black or white, whichever reads. Node labels that
/// have a link become links.
fn recolour(svg: &str, links: &HashMap<String, String>) -> String {
    let mut out = String::with_capacity(svg.len() + 256);
    let mut on_fill: Option<&str> = None;
    let mut open_link = false;
    let mut rest = svg;
    while let Some(i) = rest.find('<') {
        out.push_str(&rest[..i]);
        let Some(j) = rest[i..].find('>') else { break };
        let tag = &rest[i..=i + j];
        rest = &rest[i + j + 1..];
        let mut tag = tag
            .replace("stroke=\"#000000ff\"", "stroke=\"currentColor\"")
            .replace("fill=\"context-stroke\"", "fill=\"currentColor\"");
        if tag.starts_with("<rect") || tag.starts_with("<ellipse") || tag.starts_with("<circle") {
            match attr(&tag, "fill").map(str::to_owned) {
                Some(f) if f.eq_ignore_ascii_case("#ffffffff") => {
                    tag = tag.replacen(" fill=\"#ffffffff\"", " style=\"fill:var(--bg)\"", 1);
                    on_fill = None;
                }
                Some(f) => {
                    on_fill = luminance(&f).map(|l| if l > 0.18 { "#000" } else { "#fff" });
                }
                None => on_fill = None,
            }
        }
        if tag.starts_with("<g")
            && !tag.starts_with("<g>")
            && rest.trim_start().starts_with("<rect")
            || tag.starts_with("<g") && rest.trim_start().starts_with("<ellipse")
        {
            // A node starts: link it if its label's first line has a link.
            if let Some(text_at) = rest.find("<text dominant-baseline") {
                let after = &rest[text_at..];
                let first = after
                    .find("\">")
                    .and_then(|a| after.find("<tspan").map(|t| (a, t)))
                    .and_then(|(_, t)| {
                        let s = &after[t..];
                        let open = s.find('>')? + 1;
                        let close = s.find("</tspan>")?;
                        Some(s[open..close].to_owned())
                    });
                if let Some(href) = first.and_then(|f| links.get(unescape(&f).trim())) {
                    out.push_str(&format!("<a href=\"{}\">", super::highlight::escape(href)));
                    open_link = true;
                }
            }
        }
        if tag.starts_with("<text dominant-baseline") {
            if let Some(fill) = on_fill.take() {
                tag = tag.replacen("<text ", &format!("<text style=\"fill:{fill}\" "), 1);
            }
        }
        out.push_str(&tag);
        if tag == "</text>" && open_link {
            out.push_str("</a>");
            open_link = false;
        }
    }
    out.push_str(rest);
    out
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// Makes layout-rs's standalone SVG safe to inline in a page.
fn fit_for_html(svg: &str, label: &str, links: &HashMap<String, String>) -> String {
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
    s = recolour(&s, links);
    let escaped = super::highlight::escape(label);
    // A diagram whose nodes are links is a group of links with a name;
    // otherwise it is one image (role img hides its parts).
    let role = if links.is_empty() { "img" } else { "group" };
    let Some(open_end) = s.find('>') else {
        return s;
    };
    let size = match drawn_bounds(&s) {
        Some((x0, y0, x1, y1)) => {
            let (x, y) = ((x0 - 8.0).floor(), (y0 - 8.0).floor());
            let (w, h) = ((x1 + 8.0).ceil() - x, (y1 + 8.0).ceil() - y);
            format!("width=\"{w}\" height=\"{h}\" viewBox=\"{x} {y} {w} {h}\"")
        }
        None => ["width", "height", "viewBox"]
            .iter()
            .filter_map(|k| attr(&s[..open_end], k).map(|v| format!("{k}=\"{v}\"")))
            .collect::<Vec<_>>()
            .join(" "),
    };
    format!(
        "<svg role=\"{role}\" aria-label=\"{escaped}\" class=\"diagram__svg\" {size} xmlns=\"http://www.w3.org/2000/svg\"{}",
        &s[open_end..]
    )
}

impl Diagrams {
    /// The SVG for `src` with ids prefixed by `prefix` (unique on the page).
    pub(crate) fn svg(&self, src: &str, prefix: &str) -> Result<String, String> {
        let cached = {
            let cache = crate::sync::lock(&self.cache);
            cache.get(src).cloned()
        };
        let result = match cached {
            Some(r) => r,
            None => {
                let r = layout_svg(src);
                let mut cache = crate::sync::lock(&self.cache);
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
            svg.starts_with("<svg role=\"img\" aria-label=\"a → b → c\""),
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
    fn nodes_link_and_are_named_by_label_issue_14() {
        let d = Diagrams::default();
        let svg = d
            .svg(
                "digraph { a [label=\"Alpha\\nfirst\", shape=box, href=\"/x/\"]; b [label=\"Beta\", shape=box]; a -> b }",
                "dg",
            )
            .expect("valid graph");
        assert!(
            svg.starts_with("<svg role=\"group\" aria-label=\"Alpha first → Beta\""),
            "{svg}"
        );
        assert_eq!(svg.matches("<a href=\"/x/\">").count(), 1, "{svg}");
        assert!(svg.contains("stroke=\"currentColor\""), "{svg}");
        assert!(!svg.contains("#000000ff"), "{svg}");
    }

    /// `check` knows a diagram's inner ids by their pattern
    /// (`content::body::svg_id_of`), not by laying it out: every id the
    /// SVG holds must follow it, or a heading could repeat one.
    #[test]
    fn every_id_in_a_diagram_is_one_check_knows_issue_41() {
        let d = Diagrams::default();
        for src in [
            "digraph { a }",
            "digraph { a -> b; b -> c; a -> c }",
            "digraph { a [label=\"A\", shape=box]; a -> b [label=\"x\"]; subgraph cluster_0 { c -> d } }",
            "digraph { rankdir=LR; a -> b -> c -> d; d -> a }",
        ] {
            let svg = d.svg(src, "diagram-2").expect("valid graph");
            let mut rest = svg.as_str();
            let mut n = 0;
            while let Some(i) = rest.find(" id=\"") {
                let value = &rest[i + 5..];
                let end = value.find('"').expect("quoted");
                let id = &value[..end];
                assert!(
                    crate::content::body::svg_id_of("diagram-2", id),
                    "`{id}` in the SVG of {src}"
                );
                n += 1;
                rest = &value[end..];
            }
            assert!(n >= 2, "the arrowheads at least: {svg}");
        }
    }

    #[test]
    fn bad_dot_is_an_error_not_a_panic() {
        let d = Diagrams::default();
        assert!(d.svg("digraph { a -> ", "x").is_err());
        assert!(d.svg("not a graph at all {{{", "x").is_err());
    }
}
