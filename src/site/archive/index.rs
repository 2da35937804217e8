//! The archive as one document: its head (the theme's stylesheets, a
//! policy that allows no request), an index that replaces the language
//! chooser and search (the pages, evidence logs and claims, with a filter),
//! then every page as a section, and the filter's script.
//!
//! Which section shows is CSS alone: the one the address's fragment names
//! or holds (`:target`, `:has(:target)`), the index when it names none.

use super::css;
use super::links::{anchor, Links};
use super::page::{self, escape, Section};
use super::{size as human, Archive, MARK};
use crate::error::{Error, Result};
use crate::lang::Lang;
use crate::render::i18n::I18n;
use crate::render::paths;
use crate::validate::Site;
use std::collections::HashSet;
use std::path::Path;

pub(super) const DOCTYPE: &str = "<!DOCTYPE html>";

/// The filter (the one script the document's policy allows, by its hash)
/// and the tab's title, which follows the section shown.
const SCRIPT: &str = r#"(() => {
  "use strict";
  const box = document.querySelector(".kx-filter");
  const input = document.getElementById("kx-filter");
  const count = document.getElementById("kx-count");
  const items = [...document.querySelectorAll(".kx-list > li")];
  const norm = (s) => s.normalize("NFKC").toLowerCase();
  const texts = items.map((li) => norm(li.textContent));
  box.hidden = false;
  input.addEventListener("input", () => {
    const q = norm(input.value).trim();
    let shown = 0;
    items.forEach((li, i) => {
      li.hidden = q !== "" && !texts[i].includes(q);
      if (!li.hidden) shown += 1;
    });
    count.textContent = q === "" ? "" : `${shown} / ${items.length}`;
  });
  const target = () => {
    let el = null;
    const id = location.hash.slice(1);
    if (id !== "") {
      el = document.getElementById(id);
      try {
        el ??= document.getElementById(decodeURIComponent(id));
      } catch {
        el = null;
      }
    }
    return el;
  };
  // Back from a log to the place left (issue 40): a section shows only once
  // it is the target, after the browser would have restored the scroll, so
  // each entry keeps its own; a log reached from a claim offers the way back.
  history.scrollRestoration = "manual";
  let leaving = null;
  document.addEventListener("click", (e) => {
    const a = e.target instanceof Element ? e.target.closest("a[href^='#']") : null;
    if (!a || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    if (a.classList.contains("evidence__back-link") && history.state?.from) {
      e.preventDefault();
      history.back();
      return;
    }
    history.replaceState({ ...(history.state ?? {}), y: scrollY }, "");
    leaving = location.hash || '#start';
  });
  const show = () => {
    if (leaving !== null) {
      history.replaceState({ from: leaving }, "");
      leaving = null;
    }
    const el = target();
    const section = el?.closest(".kx-page") ?? document.getElementById("start");
    document.title = section.dataset.title;
    const state = history.state ?? {};
    const back = section.querySelector(".evidence__back");
    if (back) {
      back.hidden = !state.from;
      if (state.from) back.querySelector("a").href = state.from;
    }
    requestAnimationFrame(() => {
      if (typeof state.y === "number") scrollTo(0, state.y);
      else el?.scrollIntoView();
    });
  };
  addEventListener("hashchange", show);
  show();
})();
"#;

/// The archive's own rules, after the theme's.
const STYLE: &str = ".kx-page{display:none}
.kx-page:target,.kx-page:has(:target),body:not(:has(:target)) #start{display:block}
.kx-to-index{font-size:.95rem;white-space:nowrap}
.kx-filter{margin:1.5rem 0 1rem;max-width:32rem}
.kx-filter[hidden]{display:none}
.kx-filter label{display:block;font-weight:700;margin-bottom:.3rem}
.kx-count{color:var(--muted);margin:.3rem 0 0;min-height:1.65em}
.kx-list{list-style:none;padding:0;margin:0 0 1.5rem}
.kx-list>li{padding:.35rem 0;border-bottom:1px solid var(--border)}
.kx-list>li[hidden]{display:none}
.kx-list code{overflow-wrap:anywhere}
";

/// How many pages are rewritten between two looks at the size so far.
const BATCH: usize = 64;

/// A step through `n` sorted pages (see [`document`]) that visits each
/// once: the first number from a large prime on that shares no factor
/// with `n`.
fn stride(n: usize) -> usize {
    fn gcd(a: usize, b: usize) -> usize {
        if b == 0 {
            a
        } else {
            gcd(b, a % b)
        }
    }
    if n < 2 {
        return 1;
    }
    (7919..)
        .find(|&s| gcd(s, n) == 1)
        .expect("some number is coprime")
}

/// The archive of `site`, from the pages among `files` that `read` reads.
pub(super) fn document(
    site: &Site,
    i18n: &I18n,
    files: &[&str],
    read: &(dyn Fn(&str) -> Result<Vec<u8>> + Sync),
    archive: &Archive,
    shown: &Path,
) -> Result<Vec<u8>> {
    use rayon::prelude::*;
    let trees = archive.trees();
    let mut pages: Vec<&str> = files
        .iter()
        .copied()
        .filter(|p| {
            paths::page_of(p).is_some()
                && !paths::in_bundle(p)
                && p.split_once('/').is_some_and(|(t, _)| trees.contains(&t))
        })
        .collect();
    pages.sort_unstable();
    pages.dedup();
    let page_set: HashSet<String> = pages
        .iter()
        .map(|p| paths::page_of(p).unwrap_or(p).to_owned())
        .collect();
    let file_set: HashSet<&str> = files.iter().copied().collect();
    let say = |lang: Lang, key: &str| -> Result<String> {
        i18n.message(lang, key, None).map_err(Error::Usage)
    };
    let to_index = [
        say(Lang::Ja, "archive-to-index")?,
        say(Lang::En, "archive-to-index")?,
    ];
    let to_index = |lang: &str| match lang {
        "en" => to_index[1].clone(),
        _ => to_index[0].clone(),
    };
    let links = Links {
        base: &site.config.base_path,
        origin: site.config.origin.as_deref(),
        pages: &page_set,
        files: &file_set,
        read,
        to_index: &to_index,
    };
    // Pages are rewritten in an order that strides through the sorted
    // list, so that the first batches are a fair sample of the whole (the
    // evidence pages, largest, sort together) when the size so far says
    // the archive would pass its limit: the size named is then close.
    let n = pages.len();
    let step = stride(n);
    let order: Vec<usize> = (0..n).map(|k| k * step % n).collect();
    let mut sections: Vec<Option<Section>> = (0..n).map(|_| None).collect();
    let mut size = 0u64;
    for (b, batch) in order.chunks(BATCH).enumerate() {
        let done: Vec<(usize, Section)> = batch
            .par_iter()
            .map(|&i| {
                let bytes = read(pages[i])?;
                let html = String::from_utf8_lossy(&bytes);
                Ok((i, page::rewrite(pages[i], &html, &links)?))
            })
            .collect::<Result<_>>()?;
        for (i, s) in done {
            size += (s.body.len() + s.style.len()) as u64;
            sections[i] = Some(s);
        }
        let seen = (b * BATCH + batch.len()) as u64;
        if size > archive.limit {
            let about = (size as f64 / seen as f64 * n as f64) as u64;
            return Err(too_large(archive, shown, about, seen < n as u64));
        }
    }
    let sections: Vec<Section> = sections.into_iter().flatten().collect();
    let static_text = |name: &str| -> Result<String> {
        let path = format!("static/{name}");
        if file_set.contains(path.as_str()) {
            Ok(String::from_utf8_lossy(&read(&path)?).into_owned())
        } else {
            Ok(String::new())
        }
    };
    let default = site.config.default_lang();
    let first = archive.lang.unwrap_or(default);
    let doc_title = i18n
        .message(
            first,
            "archive-title",
            Some(&fluent_bundle::FluentArgs::from_iter([(
                "title",
                site.config.title.get(first).as_str(),
            )])),
        )
        .map_err(Error::Usage)?;
    let script_hash = {
        use base64::Engine;
        use sha2::Digest;
        base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(SCRIPT.as_bytes()))
    };
    let mut out = String::with_capacity(size as usize + 200_000);
    out.push_str(DOCTYPE);
    out.push('\n');
    out.push_str(MARK);
    out.push('\n');
    out.push_str(&format!(
        "<html lang=\"{first}\">\n<head>\n<meta charset=\"utf-8\">\n"
    ));
    // No request of any kind: the styles and the one script are inline,
    // images are data: URLs, and nothing else may load.
    out.push_str(&format!(
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'sha256-{script_hash}'; base-uri 'none'; form-action 'none'\">\n"
    ));
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<meta name=\"color-scheme\" content=\"light dark\">\n<meta name=\"generator\" content=\"kansoku\">\n");
    out.push_str(&format!("<title>{}</title>\n", escape(&doc_title)));
    if file_set.contains("static/favicon.svg") {
        use base64::Engine;
        let svg = read("static/favicon.svg")?;
        out.push_str(&format!(
            "<link rel=\"icon\" type=\"image/svg+xml\" href=\"data:image/svg+xml;base64,{}\">\n",
            base64::engine::general_purpose::STANDARD.encode(svg)
        ));
    }
    for name in crate::theme::STYLESHEETS.iter().chain(&["syntax.css"]) {
        out.push_str("<style>\n");
        out.push_str(&css::inline(&static_text(name)?));
        out.push_str("</style>\n");
    }
    out.push_str("<style>\n");
    out.push_str(STYLE);
    for s in sections.iter().filter(|s| !s.style.trim().is_empty()) {
        out.push_str(&css::inline(s.style.trim()));
        out.push('\n');
    }
    out.push_str("</style>\n</head>\n<body class=\"kansoku-archive\">\n");
    let mut body = start(site, i18n, &trees, first, &page_set, &doc_title)?;
    for s in &sections {
        body.push_str(&format!(
            "<div class=\"kx-page {}\" id=\"{}\" lang=\"{}\" data-title=\"{}\">",
            escape(&s.class),
            escape(&s.id),
            escape(&s.lang),
            escape(&s.title)
        ));
        // A removed language switch leaves its list item empty.
        body.push_str(s.body.trim().replace("<li></li>", "").as_str());
        body.push_str("</div>\n");
    }
    drop(sections);
    // Each page was rewritten alone; joined, an element one left open
    // can end in the next, so the whole is read once more as a browser
    // reads it.
    out.push_str(&page::sanitize(&body)?);
    drop(body);
    out.push_str("<script>");
    out.push_str(SCRIPT);
    out.push_str("</script>\n</body>\n</html>\n");
    let size = out.len() as u64;
    if size > archive.limit {
        return Err(too_large(archive, shown, size, false));
    }
    Ok(out.into_bytes())
}

/// The error for an archive past its limit.
fn too_large(archive: &Archive, shown: &Path, size: u64, estimated: bool) -> Error {
    let hint = match archive.lang {
        None => "put one language in it with --archive-lang ja or --archive-lang en (each about a third of the size)",
        Some(_) => "the record is too large to read as one file: read the built site instead, through any static file server",
    };
    Error::Usage(format!(
        "--archive {}: the archive would be {}{}, over its limit of {}; kansoku changed nothing. Hint: {hint}",
        shown.display(),
        if estimated { "about " } else { "" },
        human(size),
        human(archive.limit),
    ))
}

/// The index: what the archive is, the ways in (each language, the
/// parallel view), and the filtered lists of pages, evidence and claims.
fn start(
    site: &Site,
    i18n: &I18n,
    trees: &[&str],
    first: Lang,
    pages: &HashSet<String>,
    doc_title: &str,
) -> Result<String> {
    let langs: Vec<Lang> = Lang::ALL
        .into_iter()
        .filter(|l| trees.contains(&l.code()))
        .collect();
    let say = |lang: Lang, key: &str| -> Result<String> {
        i18n.message(lang, key, None).map_err(Error::Usage)
    };
    // A piece of chrome in each language the archive holds.
    let both = |key: &str| -> Result<String> {
        let parts: Vec<String> = langs
            .iter()
            .map(|&l| {
                Ok(format!(
                    "<span lang=\"{l}\">{}</span>",
                    escape(&say(l, key)?)
                ))
            })
            .collect::<Result<_>>()?;
        Ok(parts.join(" / "))
    };
    let plain = |key: &str| -> Result<String> {
        let parts: Vec<String> = langs.iter().map(|&l| say(l, key)).collect::<Result<_>>()?;
        Ok(parts.join(" / "))
    };
    let href = |tree: &str, path: &str| format!("#{}", anchor(&format!("{tree}/{path}")));
    let mut h = String::new();
    h.push_str(&format!(
        "<div class=\"kx-page kx-start view-chooser\" id=\"start\" lang=\"{first}\" data-title=\"{}\">\n",
        escape(doc_title)
    ));
    h.push_str(&format!(
        "<header class=\"site-header\"><span class=\"site-title\">{}</span></header>\n",
        escape(site.config.title.get(first))
    ));
    h.push_str(
        "<div class=\"layout\">\n<div class=\"main\" role=\"main\">\n<article class=\"chooser\">\n",
    );
    h.push_str(&format!(
        "<h1 class=\"page-title\">{}</h1>\n",
        escape(site.config.title.get(first))
    ));
    for &l in &langs {
        let d = site.config.description.get(l);
        if !d.is_empty() {
            h.push_str(&format!(
                "<p class=\"chooser__description\" lang=\"{l}\">{}</p>\n",
                escape(d)
            ));
        }
    }
    h.push_str("<div class=\"chooser__prompt\">\n");
    for &l in &langs {
        h.push_str(&format!(
            "<p lang=\"{l}\">{}</p>\n",
            escape(&say(l, "archive-about")?)
        ));
    }
    h.push_str("</div>\n<ul class=\"chooser__list\">\n");
    for tree in trees {
        match Lang::from_code(tree) {
            Some(l) => h.push_str(&format!(
                "<li><a class=\"chooser__choice\" href=\"{}\" hreflang=\"{l}\" lang=\"{l}\"><span class=\"chooser__name\">{}</span> <span class=\"chooser__text\">{}</span></a></li>\n",
                escape(&href(tree, "")),
                escape(&say(l, &format!("switcher-{l}"))?),
                escape(&say(l, "chooser-read")?)
            )),
            None => h.push_str(&format!(
                "<li><a class=\"chooser__choice\" href=\"{}\"><span class=\"chooser__name\"><span lang=\"ja\">{}</span> <span lang=\"en\">{}</span></span> <span class=\"chooser__text\"><span lang=\"ja\">{}</span> <span lang=\"en\">{}</span></span></a></li>\n",
                escape(&href(tree, "")),
                escape(&say(Lang::Ja, "switcher-ja-en")?),
                escape(&say(Lang::En, "switcher-ja-en")?),
                escape(&say(Lang::Ja, "chooser-read-parallel")?),
                escape(&say(Lang::En, "chooser-read-parallel")?)
            )),
        }
    }
    h.push_str("</ul>\n");
    // Shown by the script: without it the lists are whole, and a box that
    // does nothing would only mislead.
    h.push_str(&format!(
        "<div class=\"kx-filter\" hidden>\n<label for=\"kx-filter\">{}</label>\n<input class=\"site-search__input\" id=\"kx-filter\" type=\"search\" autocomplete=\"off\" spellcheck=\"false\" placeholder=\"{}\" aria-describedby=\"kx-count\">\n<p class=\"kx-count\" id=\"kx-count\" role=\"status\"></p>\n</div>\n",
        both("archive-filter-label")?,
        escape(&plain("archive-filter-placeholder")?)
    ));

    h.push_str(&format!(
        "<section aria-labelledby=\"kx-pages\">\n<h2 id=\"kx-pages\">{}</h2>\n<ul class=\"kx-list\">\n",
        both("archive-pages")?
    ));
    for p in &site.content.pages {
        let mut links = Vec::new();
        for tree in trees {
            if !pages.contains(&format!("{tree}/{}", p.url_path)) {
                continue;
            }
            match Lang::from_code(tree) {
                Some(l) => links.push(format!(
                    "<a href=\"{}\" lang=\"{l}\" hreflang=\"{l}\">{}</a>",
                    escape(&href(tree, &p.url_path)),
                    escape(p.title.get(l))
                )),
                None => links.push(format!(
                    "<a href=\"{}\">{}</a>",
                    escape(&href(tree, &p.url_path)),
                    plain("switcher-ja-en")?
                )),
            }
        }
        if links.is_empty() {
            continue;
        }
        h.push_str(&format!(
            "<li>{} <code>/{}</code></li>\n",
            links.join(" · "),
            escape(&p.url_path)
        ));
    }
    h.push_str("</ul>\n</section>\n");

    h.push_str(&format!(
        "<section aria-labelledby=\"kx-evidence\">\n<h2 id=\"kx-evidence\">{}</h2>\n<ul class=\"kx-list\">\n",
        both("archive-evidence")?
    ));
    for path in site.evidence.files.keys() {
        let mut links = Vec::new();
        for &l in &langs {
            let page = paths::evidence_href("", l, path);
            if !pages.contains(&page) {
                continue;
            }
            let text = if links.is_empty() {
                format!("<code>{}</code>", escape(path))
            } else {
                escape(&say(l, &format!("switcher-{l}"))?)
            };
            links.push(format!(
                "<a href=\"{}\" hreflang=\"{l}\">{text}</a>",
                escape(&format!("#{}", anchor(&page)))
            ));
        }
        if !links.is_empty() {
            h.push_str(&format!("<li>{}</li>\n", links.join(" · ")));
        }
    }
    h.push_str("</ul>\n</section>\n");

    h.push_str(&format!(
        "<section aria-labelledby=\"kx-claims\">\n<h2 id=\"kx-claims\">{}</h2>\n<ul class=\"kx-list\">\n",
        both("archive-claims")?
    ));
    let Some(&lead) = langs.first() else {
        return Err(Error::Usage(
            "an archive holds at least one language".into(),
        ));
    };
    for p in &site.content.pages {
        if !pages.contains(&format!("{lead}/{}", p.url_path)) {
            continue;
        }
        for c in &p.claims {
            let texts: Vec<String> = langs
                .iter()
                .map(|&l| format!("<span lang=\"{l}\">{}</span>", escape(c.text.get(l))))
                .collect();
            let state = c.life.state.name();
            h.push_str(&format!(
                "<li><a href=\"{}\"><code>{}</code></a> <span class=\"badge badge--{}\" lang=\"{lead}\">{}</span>{} {}</li>\n",
                escape(&href(lead.code(), &format!("{}claim-{}", p.url_path, c.id))),
                escape(&c.id),
                c.class.name(),
                escape(&say(lead, &format!("class-{}", c.class.name()))?),
                if state == "current" { String::new() } else { format!(" <small>({state})</small>") },
                texts.join(" ")
            ));
        }
    }
    h.push_str("</ul>\n</section>\n</article>\n</div>\n</div>\n</div>\n");
    Ok(h)
}

#[cfg(test)]
mod tests {
    use super::stride;

    #[test]
    fn the_stride_visits_every_page_once() {
        for n in [0, 1, 2, 64, 7919, 7919 * 2, 10_000, 36_003] {
            let step = stride(n);
            let mut seen: Vec<usize> = (0..n).map(|k| k * step % n).collect();
            seen.sort_unstable();
            assert!(seen.iter().copied().eq(0..n), "n = {n}");
        }
    }
}
