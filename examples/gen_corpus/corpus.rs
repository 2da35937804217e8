//! The corpus generator behind `examples/gen_corpus/main.rs`: a kansoku
//! site of N bilingual pages shaped like ROCm-pages, for benchmarks and for
//! the tests that need a site larger than a fixture (`tests/it/main.rs`
//! includes this file with `#[path]`, so no test runs `cargo run`).
//!
//! `Shape::Sectioned` spreads the pages over √N sections; `Shape::Flat`
//! puts them all in one section (a blog, a log archive). With a Hugo or a
//! Zola peer directory (or both) it also writes the same pages as a
//! bilingual site for that generator (both languages, one Markdown file per
//! page and language, a minimal layout with a paginated section list and
//! prev/next links), so `benches/peers.py` can build one corpus with all.
//!
//! Each page has 4–6 KB of Markdown in ja/en pairs, a 10-row table of claim
//! references, a fenced code block, links to other pages and 10 claims
//! across all four classes citing line ranges in ~N/5 evidence logs of
//! 50–200 lines; some pages are entities for the views. The output depends
//! only on N, the shape and the seed, and passes `kansoku check` clean.

use std::fmt::Write as _;
use std::path::Path;

/// xorshift64*: tiny, deterministic, good enough to vary a corpus.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

const CLASSES: [&str; 4] = ["confirmed", "inferred", "unresolved", "limited"];
const JA: [&str; 6] = [
    "Phase C で /proc/maps を確認したところ、bundle 側のライブラリがロードされていた。",
    "ロードされていることと、推論ループ中に実際に演算を担ったことは別の問題だ。",
    "ne11 が閾値を超えると hipBLAS 経由で rocBLAS の GEMM に委譲される。",
    "observer を有効にすると経路そのものが変わる可能性がある。",
    "量子化方式とバッチサイズによって dispatch の分岐が変わる。",
    "逆アセンブリで .hip_fatbin 内のターゲットを確認した。",
];
const EN: [&str; 6] = [
    "Phase C's /proc/maps check showed the bundle's libraries loaded.",
    "Being loaded and actually computing during the inference loop are separate questions.",
    "When ne11 exceeds the threshold, work is delegated through hipBLAS to rocBLAS GEMM.",
    "Enabling an observer may change the path itself.",
    "The dispatch branch changes with quantization and batch size.",
    "Disassembly confirmed the targets inside .hip_fatbin.",
];

fn write(path: &Path, text: &str) {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("output directory is writable");
    }
    std::fs::write(path, text).expect("output directory is writable");
}

/// The same corpus as a Hugo site: `content/<lang>/…` per language.
struct Hugo<'a> {
    dir: &'a Path,
}

impl Hugo<'_> {
    fn page(&self, lang: &str, rel: &str, front: &str, body: &str) {
        write(
            &self.dir.join(format!("content/{lang}/{rel}")),
            &format!("+++\n{front}+++\n{body}"),
        );
    }

    /// Config and a minimal layout: what a Hugo user would start from,
    /// doing what kansoku's pages do (page, paginated section list,
    /// prev/next in the section, the section's pages in the menu).
    fn skeleton(&self) {
        write(
            &self.dir.join("hugo.toml"),
            "baseURL = \"/\"\ntitle = \"Corpus\"\ndefaultContentLanguage = \"ja\"\ndefaultContentLanguageInSubdir = true\ndisableKinds = [\"taxonomy\", \"term\", \"RSS\"]\n[pagination]\npagerSize = 50\n[languages.ja]\ncontentDir = \"content/ja\"\nlanguageName = \"日本語\"\nweight = 1\n[languages.en]\ncontentDir = \"content/en\"\nlanguageName = \"English\"\nweight = 2\n",
        );
        write(
            &self.dir.join("layouts/_default/baseof.html"),
            "<!DOCTYPE html>\n<html lang=\"{{ .Site.Language.Lang }}\">\n<head><meta charset=\"utf-8\"><title>{{ .Title }} | {{ .Site.Title }}</title></head>\n<body>\n<header><a href=\"{{ .Site.Home.RelPermalink }}\">{{ .Site.Title }}</a>{{ range .Translations }} <a href=\"{{ .RelPermalink }}\" hreflang=\"{{ .Lang }}\">{{ .Language.LanguageName }}</a>{{ end }}</header>\n<main data-pagefind-body>{{ block \"main\" . }}{{ end }}</main>\n<nav><ul>{{ range .Site.Sections }}<li><a href=\"{{ .RelPermalink }}\">{{ .Title }}</a></li>{{ end }}</ul></nav>\n</body>\n</html>\n",
        );
        write(
            &self.dir.join("layouts/_default/single.html"),
            "{{ define \"main\" }}<article><h1>{{ .Title }}</h1>{{ with .Params.lead }}<p class=\"lead\">{{ . }}</p>{{ end }}{{ .Content }}</article>\n<nav>{{ with .PrevInSection }}<a rel=\"prev\" href=\"{{ .RelPermalink }}\">{{ .Title }}</a>{{ end }} {{ with .NextInSection }}<a rel=\"next\" href=\"{{ .RelPermalink }}\">{{ .Title }}</a>{{ end }}</nav>{{ end }}\n",
        );
        write(
            &self.dir.join("layouts/_default/list.html"),
            "{{ define \"main\" }}<h1>{{ .Title }}</h1>{{ .Content }}<ul>{{ range .Paginator.Pages }}<li><a href=\"{{ .RelPermalink }}\">{{ .Title }}</a></li>{{ end }}</ul>\n<nav>{{ with .Paginator.Prev }}<a rel=\"prev\" href=\"{{ .URL }}\">prev</a>{{ end }} {{ with .Paginator.Next }}<a rel=\"next\" href=\"{{ .URL }}\">next</a>{{ end }}</nav>{{ end }}\n",
        );
    }
}

/// The same corpus as a Zola site: `content/…/p.md` (ja, the default
/// language) beside `p.en.md`, laid out like the Hugo peer.
struct Zola<'a> {
    dir: &'a Path,
}

impl Zola<'_> {
    fn page(&self, rel: &str, front: &str, body: &str) {
        write(
            &self.dir.join(format!("content/{rel}")),
            &format!("+++\n{front}+++\n{body}"),
        );
    }

    /// Config and templates matching `Hugo::skeleton`: no search index,
    /// taxonomies, feeds or Sass; code highlighted with inline styles in
    /// Monokai, as Hugo does by default. The section nav goes through `get_section`, the way a Zola
    /// template reaches other sections.
    fn skeleton(&self) {
        write(
            &self.dir.join("config.toml"),
            "base_url = \"/\"\ntitle = \"Corpus\"\ndefault_language = \"ja\"\ncompile_sass = false\nbuild_search_index = false\ngenerate_feeds = false\ntaxonomies = []\n\n[markdown.highlighting]\ntheme = \"monokai\"\n\n[translations]\nlanguage_name = \"日本語\"\n\n[languages.en]\ntitle = \"Corpus\"\ngenerate_feeds = false\nbuild_search_index = false\ntaxonomies = []\n\n[languages.en.translations]\nlanguage_name = \"English\"\n",
        );
        for lang in ["", ".en"] {
            self.page(&format!("_index{lang}.md"), "title = \"Corpus\"\n", "");
        }
        write(
            &self.dir.join("templates/base.html"),
            "{% set root = get_section(path=\"_index.md\", lang=lang, metadata_only=true) %}{% if page is defined %}{% set translations = page.translations %}{% else %}{% set translations = section.translations %}{% endif %}<!DOCTYPE html>\n<html lang=\"{{ lang }}\">\n<head><meta charset=\"utf-8\"><title>{% block title %}{% endblock title %} | {{ config.title }}</title></head>\n<body>\n<header><a href=\"{{ root.permalink | safe }}\">{{ config.title }}</a>{% for t in translations %}{% if t.lang != lang %} <a href=\"{{ t.permalink | safe }}\" hreflang=\"{{ t.lang }}\">{{ trans(key=\"language_name\", lang=t.lang) }}</a>{% endif %}{% endfor %}</header>\n<main data-pagefind-body>{% block main %}{% endblock main %}</main>\n<nav><ul>{% for s in root.subsections %}{% set sub = get_section(path=s, metadata_only=true) %}<li><a href=\"{{ sub.permalink | safe }}\">{{ sub.title }}</a></li>{% endfor %}</ul></nav>\n</body>\n</html>\n",
        );
        write(
            &self.dir.join("templates/page.html"),
            "{% extends \"base.html\" %}{% block title %}{{ page.title }}{% endblock title %}{% block main %}<article><h1>{{ page.title }}</h1>{% if page.extra.lead %}<p class=\"lead\">{{ page.extra.lead }}</p>{% endif %}{{ page.content | safe }}</article>\n<nav>{% if page.lower %}<a rel=\"prev\" href=\"{{ page.lower.permalink | safe }}\">{{ page.lower.title }}</a>{% endif %} {% if page.higher %}<a rel=\"next\" href=\"{{ page.higher.permalink | safe }}\">{{ page.higher.title }}</a>{% endif %}</nav>{% endblock main %}\n",
        );
        write(
            &self.dir.join("templates/section.html"),
            "{% extends \"base.html\" %}{% block title %}{{ section.title }}{% endblock title %}{% block main %}<h1>{{ section.title }}</h1>{{ section.content | safe }}<ul>{% for p in paginator.pages %}<li><a href=\"{{ p.permalink | safe }}\">{{ p.title }}</a></li>{% endfor %}</ul>\n<nav>{% if paginator.previous %}<a rel=\"prev\" href=\"{{ paginator.previous | safe }}\">prev</a>{% endif %} {% if paginator.next %}<a rel=\"next\" href=\"{{ paginator.next | safe }}\">next</a>{% endif %}</nav>{% endblock main %}\n",
        );
        // The home has no pages of its own (they sit in the sections), so
        // unlike Hugo's it lists the sections rather than paginating pages.
        write(
            &self.dir.join("templates/index.html"),
            "{% extends \"base.html\" %}{% block title %}{{ section.title }}{% endblock title %}{% block main %}<h1>{{ section.title }}</h1>{{ section.content | safe }}<ul>{% for s in section.subsections %}{% set sub = get_section(path=s, metadata_only=true) %}<li><a href=\"{{ sub.permalink | safe }}\">{{ sub.title }}</a></li>{% endfor %}</ul>{% endblock main %}\n",
        );
    }
}

/// Replaces `[[claim:ID]]` with the claim's class and text in `lang`, as
/// plain Markdown (what a Hugo or Zola page would show inline).
fn hugo_claims(text: &str, claims: &[(String, &str, String, String)], ja: bool) -> String {
    let mut out = text.to_owned();
    for (id, class, ja_text, en_text) in claims {
        let t = if ja { ja_text } else { en_text };
        out = out.replace(&format!("[[claim:{id}]]"), &format!("**{class}** {t}"));
    }
    out
}

/// How the pages are spread over sections.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    /// √N sections (the default).
    Sectioned,
    /// One section holding every page.
    Flat,
}

/// The seed when none is given: the same corpus on every machine.
pub(crate) const DEFAULT_SEED: u64 = 0x006b_616e_736f_6b75;

/// What to write.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Corpus<'a> {
    /// Pages (besides the home page and the section pages).
    pub(crate) pages: usize,
    /// The kansoku site's directory.
    pub(crate) dir: &'a Path,
    pub(crate) seed: u64,
    pub(crate) shape: Shape,
    /// Where to write the same pages as a Hugo site, if anywhere.
    pub(crate) hugo: Option<&'a Path>,
    /// Where to write the same pages as a Zola site, if anywhere.
    pub(crate) zola: Option<&'a Path>,
}

/// What was written, for the generator's closing line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Written {
    pub(crate) logs: usize,
    pub(crate) sections: usize,
}

/// Writes the corpus; panics if the directory cannot be written.
pub(crate) fn generate(corpus: &Corpus<'_>) -> Written {
    let Corpus {
        pages: n,
        dir,
        seed,
        shape,
        hugo,
        zola,
    } = *corpus;
    let flat = shape == Shape::Flat;
    let hugo = hugo.map(|dir| Hugo { dir });
    let zola = zola.map(|dir| Zola { dir });
    let mut rng = Rng(seed | 1);
    let logs = (n / 5).max(1);
    let sections = if flat {
        1
    } else {
        ((n as f64).sqrt() as usize).max(1)
    };
    if let Some(h) = &hugo {
        h.skeleton();
    }
    if let Some(z) = &zola {
        z.skeleton();
    }
    write(
        &dir.join("book.toml"),
        "[book]\ntitle = { ja = \"コーパス\", en = \"Corpus\" }\nlanguages = [\"ja\", \"en\"]\n\n[kinds]\ncomponent = { ja = \"コンポーネント\", en = \"Component\" }\ngeneration = { ja = \"世代\", en = \"Generation\" }\nobserver = { ja = \"観測手段\", en = \"Observer\" }\n",
    );
    let mut log_lines = Vec::with_capacity(logs);
    for l in 0..logs {
        let lines = 50 + rng.below(151) as usize;
        let mut text = format!(
            "+++\nkind = \"raw\"\nsource = \"ollama run corpus-{l}\"\nphase = \"C\"\n+++\n"
        );
        for i in 1..=lines {
            let _ = writeln!(
                text,
                "2026-03-{:02}T10:{:02}:{:02} INFO runner[{l}] step {i}: map 0x{:012x} /usr/local/lib/ollama/rocm/lib{}.so marker-{l}-{i}",
                1 + i % 28,
                i % 60,
                (i * 7) % 60,
                rng.next() & 0xffff_ffff_ffff,
                ["hipblas", "rocblas", "amdhip64", "hsa-runtime64"][i % 4]
            );
        }
        write(&dir.join(format!("evidence/logs/run-{l:05}.log")), &text);
        log_lines.push(lines);
    }
    for s in 0..sections {
        if let Some(h) = &hugo {
            h.page(
                "ja",
                &format!("s{s:03}/_index.md"),
                &format!("title = \"節 {s}\"\nweight = {s}\n"),
                &format!("節 {s} の概要。\n"),
            );
            h.page(
                "en",
                &format!("s{s:03}/_index.md"),
                &format!("title = \"Section {s}\"\nweight = {s}\n"),
                &format!("Overview of section {s}.\n"),
            );
        }
        if let Some(z) = &zola {
            for (lang, title, body) in [
                ("", format!("節 {s}"), format!("節 {s} の概要。\n")),
                (
                    ".en",
                    format!("Section {s}"),
                    format!("Overview of section {s}.\n"),
                ),
            ] {
                z.page(
                    &format!("s{s:03}/_index{lang}.md"),
                    &format!("title = \"{title}\"\nweight = {s}\nsort_by = \"weight\"\npaginate_by = 50\n"),
                    &body,
                );
            }
        }
        write(
            &dir.join(format!("content/s{s:03}/_index.md")),
            &format!("+++\ntitle = {{ ja = \"節 {s}\", en = \"Section {s}\" }}\nweight = {s}\n+++\n::: ja\n節 {s} の概要。\n:::\n::: en\nOverview of section {s}.\n:::\n"),
        );
    }
    write(
        &dir.join("content/_index.md"),
        "+++\ntitle = { ja = \"ホーム\", en = \"Home\" }\nlayout = \"home\"\n+++\n::: ja\n観測記録のコーパス。\n:::\n::: en\nA corpus of observation records.\n:::\n\n[[view]]\n",
    );
    for p in 0..n {
        let section = p % sections;
        let mut fm = format!("+++\ntitle = {{ ja = \"観測ページ {p}\", en = \"Observation page {p}\" }}\nlead = {{ ja = \"ページ {p} で得られる理解\", en = \"What page {p} gives you\" }}\nweight = {p}\n");
        if p % 50 == 0 {
            let kind = ["component", "generation", "observer"][(p / 50) % 3];
            let _ = write!(fm, "\n[entity]\nkind = \"{kind}\"\nkey = \"e{p}\"\nname = {{ ja = \"実体 {p}\", en = \"Entity {p}\" }}\nrole = {{ ja = \"役割\", en = \"Role\" }}\nstatus = \"p{p}-c0\"\n");
        }
        let mut ids = Vec::new();
        // (id, class, ja, en) for the peer's copy.
        let mut peer_claims = Vec::new();
        for c in 0..10 {
            let id = format!("p{p}-c{c}");
            let log = rng.below(logs as u64) as usize;
            let len = log_lines[log];
            let a = 1 + rng.below((len - 10) as u64) as usize;
            let b = a + rng.below(8) as usize;
            let class = CLASSES[(p + c) % 4];
            let k = rng.below(6) as usize;
            let _ = write!(fm, "\n[[claims]]\nid = \"{id}\"\nclass = \"{class}\"\nja = \"{}({p}-{c})\"\nen = \"{} ({p}-{c})\"\n", JA[k], EN[k]);
            if hugo.is_some() || zola.is_some() {
                peer_claims.push((
                    id.clone(),
                    class,
                    format!("{}({p}-{c})", JA[k]),
                    format!("{} ({p}-{c})", EN[k]),
                ));
            }
            if c % 3 == 0 {
                let _ = writeln!(fm, "evidence = [{{ path = \"logs/run-{log:05}.log\", lines = \"{a}-{b}\", quote = \"marker-{log}-{a}\" }}]");
            } else {
                let _ = writeln!(fm, "evidence = [\"logs/run-{log:05}.log#L{a}-L{b}\"]");
            }
            if p % 50 == 0 && c == 1 {
                let _ = writeln!(fm, "about = \"e{p}\"\naspect = \"world\"");
            }
            if c == 2 && p > 0 {
                let _ = writeln!(fm, "from = [\"p{}-c0\"]", p - 1);
            }
            ids.push(id);
        }
        fm.push_str("\n[scope]\ncan = [\"");
        fm.push_str(&ids[0]);
        fm.push_str("\"]\ncannot = [\"");
        fm.push_str(&ids[2]);
        fm.push_str("\"]\n+++\n");
        let mut body = fm;
        for para in 0..4 {
            let _ = write!(body, "## 観測 {para} {{#obs-{para}}}\n\n::: ja\n");
            for s in 0..4 {
                body.push_str(JA[(p + para + s) % 6]);
            }
            let _ = write!(body, " [[claim:{}]]\n:::\n\n::: en\n", ids[para]);
            for s in 0..4 {
                body.push_str(EN[(p + para + s) % 6]);
                body.push(' ');
            }
            let _ = write!(body, "[[claim:{}]]\n:::\n\n", ids[para]);
        }
        body.push_str("| # | claim |\n|---|---|\n");
        for (i, id) in ids.iter().enumerate() {
            let _ = writeln!(body, "| {i} | [[claim:{id}]] |");
        }
        let other = (p + 1) % n;
        let _ = write!(
            body,
            "\n```sh\nOLLAMA_DEBUG=1 ollama run llama3:8b --verbose\ncat /proc/$(pgrep -f runner)/maps | grep rocm\nexport LD_LIBRARY_PATH=/usr/local/lib/ollama/rocm\n```\n\n::: ja\n次へ: [ページ {other}](/s{:03}/p{other:05}.md#obs-1)\n:::\n::: en\nNext: [page {other}](/s{:03}/p{other:05}.md#obs-1)\n:::\n",
            other % sections,
            other % sections
        );
        if let Some(h) = &hugo {
            hugo_page(h, &body, &peer_claims, section, p);
        }
        if let Some(z) = &zola {
            zola_page(z, &body, &peer_claims, section, p);
        }
        write(
            &dir.join(format!("content/s{section:03}/p{p:05}.md")),
            &body,
        );
    }
    Written { logs, sections }
}

/// One language's copy of a kansoku page for a peer.
struct PeerPage {
    ja: bool,
    title: String,
    lead: String,
    /// Markdown with kansoku's links to source paths (`/s000/p00001.md#…`)
    /// left for the peer to rewrite.
    body: String,
}

/// One kansoku page as two peer pages: the `::: ja` / `::: en` blocks go
/// to their language, shared Markdown to both, claims inline as text.
fn peer_pages(source: &str, claims: &[(String, &str, String, String)], p: usize) -> [PeerPage; 2] {
    let body = source.splitn(3, "+++\n").nth(2).unwrap_or("");
    [true, false].map(|ja| {
        let mut out = String::new();
        let mut skip = false;
        for line in body.lines() {
            match line {
                "::: ja" => skip = !ja,
                "::: en" => skip = ja,
                ":::" => skip = false,
                _ if !skip => {
                    out.push_str(line);
                    out.push('\n');
                }
                _ => {}
            }
        }
        let (title, lead) = if ja {
            (
                format!("観測ページ {p}"),
                format!("ページ {p} で得られる理解"),
            )
        } else {
            (
                format!("Observation page {p}"),
                format!("What page {p} gives you"),
            )
        };
        PeerPage {
            ja,
            title,
            lead,
            body: hugo_claims(&out, claims, ja),
        }
    })
}

fn hugo_page(
    h: &Hugo<'_>,
    source: &str,
    claims: &[(String, &str, String, String)],
    section: usize,
    p: usize,
) {
    for page in peer_pages(source, claims, p) {
        // Links point at kansoku's source paths; Hugo's `ref` would fail
        // the build on a miss, so they become plain relative URLs.
        let body = page.body.replace(".md#", "/#");
        h.page(
            if page.ja { "ja" } else { "en" },
            &format!("s{section:03}/p{p:05}.md"),
            &format!(
                "title = \"{}\"\nweight = {p}\nlead = \"{}\"\n",
                page.title, page.lead
            ),
            &body,
        );
    }
}

fn zola_page(
    z: &Zola<'_>,
    source: &str,
    claims: &[(String, &str, String, String)],
    section: usize,
    p: usize,
) {
    for page in peer_pages(source, claims, p) {
        // Plain URLs rather than `@/` links, as for Hugo. Zola puts the
        // default language (ja) at the root and English under `/en/`, where
        // Hugo's link hook finds the page in the current language itself.
        let mut body = page.body.replace(".md#", "/#");
        if !page.ja {
            body = body.replace("](/", "](/en/");
        }
        z.page(
            &format!(
                "s{section:03}/p{p:05}{}.md",
                if page.ja { "" } else { ".en" }
            ),
            &format!(
                "title = \"{}\"\nweight = {p}\n[extra]\nlead = \"{}\"\n",
                page.title, page.lead
            ),
            &body,
        );
    }
}
