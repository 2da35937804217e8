//! Navigation: the order and tree of pages, windows of long sections,
//! and section listings split into pages.

use super::*;
use crate::content::Outline;
use crate::validate::Site;
use std::collections::BTreeMap;

/// Sections longer than this show a window of their entries in the
/// navigation, not all of them.
pub(in crate::render) const NAV_MAX: usize = 15;

/// Entries shown on each side of the current one in a windowed section.
pub(in crate::render) const NAV_RADIUS: usize = 5;

/// The positions among `len` entries shown in the navigation when the
/// entry at `focus` is current or on the way to it: all of them in a short
/// section, else `2 * NAV_RADIUS + 1` around the focus (from the start
/// when nothing in the section is on the way).
pub(in crate::render) fn nav_window(len: usize, focus: Option<usize>) -> std::ops::Range<usize> {
    if len <= NAV_MAX {
        return 0..len;
    }
    let width = 2 * NAV_RADIUS + 1;
    let lo = focus
        .unwrap_or(0)
        .saturating_sub(NAV_RADIUS)
        .min(len - width);
    lo..lo + width
}

/// Whether `page` lists its section's pages: a section's own page with the
/// ordinary layout (a generated view already presents its section, and the
/// home page's entries are the top of the navigation).
pub(in crate::render) fn lists(page: &Outline) -> bool {
    page.is_section_index()
        && !page.url_path.is_empty()
        && page.layout == crate::content::Layout::Page
}

/// Entries per listing page for a section of `len` entries.
pub(in crate::render) fn per_listing_page(site: &Site, len: usize) -> usize {
    match site.config.paginate_by {
        0 => len.max(1),
        n => n,
    }
}

/// Listing pages for a section of `len` entries: at least one.
pub(in crate::render) fn listing_pages(site: &Site, len: usize) -> usize {
    len.div_ceil(per_listing_page(site, len)).max(1)
}

/// Direct entries per section URL path, counted without ordering them:
/// what the output paths of listings depend on.
pub(in crate::render) fn section_sizes(site: &Site) -> BTreeMap<String, usize> {
    let all: Vec<usize> = (0..site.content.pages.len()).collect();
    nav_children(site, &all)
        .into_iter()
        .map(|(k, v)| (k, v.len()))
        .collect()
}

/// Groups nav positions under their nearest section page. The home page
/// and top-level entries sit under `""`.
pub(in crate::render) fn nav_children(
    site: &Site,
    order: &[usize],
) -> BTreeMap<String, Vec<usize>> {
    let urls: std::collections::HashSet<&str> = site
        .content
        .pages
        .iter()
        .map(|p| p.url_path.as_str())
        .collect();
    let mut children: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (pos, &i) in order.iter().enumerate() {
        let url = site.content.outline(i).url_path.as_str();
        let mut parent = url.trim_end_matches('/');
        let key = loop {
            if parent.is_empty() {
                break "";
            }
            parent = parent.rsplit_once('/').map_or("", |(p, _)| p);
            let candidate = if parent.is_empty() {
                String::new()
            } else {
                format!("{parent}/")
            };
            if candidate.is_empty() {
                break "";
            }
            if let Some(found) = urls.get(candidate.as_str()) {
                break found;
            }
        };
        children.entry(key.to_owned()).or_default().push(pos);
    }
    children
}

/// Navigation order: sections by the weight of their `_index.md`, pages by
/// weight then path, each section's own page before its children.
pub(in crate::render) fn nav_order(site: &Site) -> Vec<usize> {
    let outline = |i: usize| site.content.outline(i);
    let section_weight = |dir: &str| -> i64 {
        let idx = if dir.is_empty() {
            "_index.md".to_owned()
        } else {
            format!("{dir}/_index.md")
        };
        site.index.pages.get(&idx).map_or(0, |&i| outline(i).weight)
    };
    let key = |p: &Outline| -> Vec<(i64, String)> {
        let mut parts: Vec<&str> = p
            .url_path
            .trim_end_matches('/')
            .split('/')
            .filter(|s| !s.is_empty())
            .collect();
        let mut key = Vec::new();
        let mut dir = String::new();
        let last = parts.pop();
        for part in parts {
            dir = if dir.is_empty() {
                part.to_owned()
            } else {
                format!("{dir}/{part}")
            };
            key.push((section_weight(&dir), part.to_owned()));
        }
        if let Some(last) = last {
            key.push((p.weight, last.to_owned()));
        }
        key
    };
    let mut order: Vec<usize> = (0..site.content.pages.len()).collect();
    order.sort_by_cached_key(|&i| key(outline(i)));
    order
}

/// Each navigation entry's depth: how many section entries it sits under.
pub(in crate::render) fn nav_depths(p: &RenderState, site: &Site) -> Vec<usize> {
    fn walk(p: &RenderState, site: &Site, parent: &str, depth: usize, out: &mut [usize]) {
        let Some(children) = p.nav_children.get(parent) else {
            return;
        };
        for &pos in children {
            out[pos] = depth;
            let url = &site.content.outline(p.order[pos]).url_path;
            if !url.is_empty() {
                walk(p, site, url, depth + 1, out);
            }
        }
    }
    let mut out = vec![0; p.order.len()];
    walk(p, site, "", 0, &mut out);
    out
}
