// kansoku default theme: search, imported by kansoku.js.
//
// Pagefind needs a script; without it the search box stays hidden and
// every page reads the same.

// One search bundle per language, beside that language's tree; a page
// searches the language of its <html> (the parallel view: its chrome's),
// a search box with a `data-lang` that language (the 404 page has one per
// language).
const LANG = document.documentElement.lang === "en" ? "en" : "ja";
const bundleDirOf = (lang) => new URL(`../${lang}/pagefind/`, import.meta.url).href;

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const LIMIT = 60; // candidates whose data is loaded and re-ranked
const SHOWN = 10; // results shown at a time; "more" shows the next ones

/** Per language: Pagefind loaded, and the claims' classes. */
const bundles = new Map();
function loadBundle(lang = LANG) {
  if (!bundles.has(lang)) {
    const bundleDir = bundleDirOf(lang);
    const pagefind = import(`${bundleDir}pagefind.js`).then(async (pf) => {
      const options = { baseUrl: "/", excerptLength: 24 };
      await pf.options(options);
      await pf.init();
      // A large site is indexed in shards; Pagefind ranks their results together.
      const shards = await fetch(`${bundleDir}kansoku-shards.json`)
        .then((r) => (r.ok ? r.json() : []))
        .catch(() => []);
      await Promise.all(shards.map((dir) => pf.mergeIndex(new URL(dir, bundleDir).href, options)));
      return pf;
    });
    const classes = fetch(`${bundleDir}kansoku-claims.json`).then((r) => (r.ok ? r.json() : {}));
    bundles.set(lang, { pagefind, classes });
  }
  return bundles.get(lang);
}

const loadPagefind = (lang) => loadBundle(lang).pagefind;

const squash = (s) => s.replace(/[\u200B\s]+/g, "").normalize("NFKC").toLowerCase();

/**
 * Runs the reader's query. Japanese needs care (Pagefind #1237): the index
 * was segmented by ICU4X over whole sentences, the query is segmented by the
 * browser's Intl.Segmenter on its own, and the two can cut a compound
 * differently, so a plain search can rank pages that merely contain the
 * pieces above the page that contains the word. For queries with Japanese
 * characters we therefore also run the query as a phrase and put the phrase
 * hits first; then, for every query, a page titled exactly as the query
 * comes first, then candidates whose text contains the query verbatim
 * (title matches first, then pages whose answers say it), then the rest.
 *
 * Returns `{ total, first, more }`: the re-ranked results (data loaded) and
 * a loader for the ones beyond them, so every counted result is reachable.
 */
export async function search(query, lang = LANG) {
  const pf = await loadPagefind(lang);
  const q = query.trim();
  if (!q) return { total: 0, first: [], more: async () => [] };
  const japanese = CJK.test(q) && !q.includes('"');
  const runs = [pf.search(q)];
  if (japanese && !/\s/.test(q)) runs.unshift(pf.search(`"${q}"`));
  const done = await Promise.all(runs);
  // The loose run reports every occurrence of the words in a page (an exact
  // phrase search only the first), which is what finds the matching claims.
  const loose = new Map(done[done.length - 1].results.map((r) => [r.id, r]));
  const seen = new Set();
  const ordered = [];
  for (const run of done) {
    for (const r of run.results) {
      if (!seen.has(r.id)) {
        seen.add(r.id);
        ordered.push(loose.get(r.id) ?? r);
      }
    }
  }
  let hits = await Promise.all(ordered.slice(0, LIMIT).map((r) => r.data()));
  const whole = squash(q);
  const parts = q.split(/\s+/).map(squash).filter(Boolean);
  const rank = (d) => {
    const title = squash(d.meta?.title ?? "");
    if (title === whole) return -4;
    const text = `${title} ${squash(d.content ?? "")}`;
    const tier = text.includes(whole) ? 0 : parts.every((p) => text.includes(p)) ? 2 : 4;
    const own = d.anchors?.some((a) => a.id === `claim-${q}`);
    // A page whose own answers say the query ("✗ Not dispatched") is what
    // the query asks for; a page that mentions the words in passing is not.
    const answered = squash(d.meta?.["answer-words"] ?? "").includes(whole);
    return (own ? -2 : 0) + tier + (title.includes(whole) ? 0 : 1) - (answered ? 0.5 : 0);
  };
  hits = hits
    .map((d, i) => ({ d, i, r: rank(d) }))
    .sort((a, b) => a.r - b.r || a.i - b.i)
    .map((x) => x.d);
  const classes = (await loadBundle(lang).classes.catch(() => ({}))) ?? {};
  const shape = (d) => ({
    url: d.url,
    title: d.meta?.title ?? d.url,
    // An entity page's answers (its `answers` metadata): searching an
    // entity's name shows what the record says of it first.
    answers: d.meta?.answers ?? "",
    excerpt: d.excerpt,
    claims: matchedClaims(d, classes, q),
  });
  let next = LIMIT;
  const first = hits.map(shape);
  await fillClaimTexts(first.slice(0, SHOWN));
  return {
    total: ordered.length,
    first,
    more: async (n) => {
      const batch = ordered.slice(next, next + n);
      next += batch.length;
      return (await Promise.all(batch.map((r) => r.data()))).map(shape);
    },
  };
}

const pageCache = new Map();

/**
 * Fills in the text of each matched claim from the claim's own page (the
 * index knows where a claim starts, not reliably where its words end,
 * least of all in Japanese). Only results about to be shown are fetched,
 * and each page once.
 */
async function fillClaimTexts(items) {
  await Promise.all(
    items
      .filter((g) => g.claims.length)
      .map(async (g) => {
        if (!pageCache.has(g.url)) {
          pageCache.set(
            g.url,
            fetch(g.url)
              .then((r) => (r.ok ? r.text() : ""))
              .then((html) => new DOMParser().parseFromString(html, "text/html"))
              .catch(() => null),
          );
        }
        const doc = await pageCache.get(g.url);
        for (const c of g.claims) {
          const el = doc?.getElementById(`claim-${c.id}`)?.querySelector(".claim");
          if (!el) continue;
          c.text = claimText(el);
          // The claim's own marks, as its page shows them: its answer, and
          // its badge ("Confirmed · per record") or, for the record's own
          // framing, "per record" and no class.
          const own = (sel) => [...el.children].find((n) => n.matches(sel));
          c.answer = own(".answer") ?? null;
          c.mark = own(".badge, .framing") ?? null;
        }
      }),
  );
  return items;
}

/**
 * The claims of a result page that the query matched: each claim's list
 * item is an anchor (`claim-<id>`) running to the next anchor, and a claim
 * matched if a matched word falls inside it (or the query is its id).
 */
function matchedClaims(d, classes, q) {
  const anchors = [...(d.anchors ?? [])].sort((a, b) => a.location - b.location);
  const byId = Object.hasOwn(classes, q);
  // Each word of the query must be able to land in the claim.
  const need = q.split(/\s+/).filter(Boolean).length;
  const found = [];
  anchors.forEach((a, i) => {
    if (!a.id.startsWith("claim-")) return;
    const id = a.id.slice("claim-".length);
    const next = anchors.slice(i + 1).find((b) => b.location > a.location);
    const end = next ? next.location : Infinity;
    if (byId) {
      // A claim id names one claim; the pages citing it list their own.
      if (id === q) found.push({ id, text: "", cls: classes[id], url: `${d.url}#${a.id}` });
      return;
    }
    const inside = (d.locations ?? []).filter((l) => l >= a.location && l < end).length;
    if (inside >= need) found.push({ id, text: "", cls: classes[id] ?? "", url: `${d.url}#${a.id}` });
  });
  return found;
}

/** In the parallel view, results open the parallel page, not the ja one. */
function viewUrl(url) {
  if (!document.body.classList.contains("view-parallel")) return url;
  return url.replace(/^(.*?\/)ja\//, "$1ja-en/");
}

/** An inline claim's text: what follows its answer and its badge. */
function claimText(claim) {
  let text = "";
  for (const n of claim.childNodes) {
    const mark = n.nodeType === Node.ELEMENT_NODE && n.matches(".badge, .framing, .answer");
    if (!mark) text += n.textContent;
  }
  return text.trim();
}

/**
 * A mark from a claim's page (its answer, badge or framing) for a result:
 * the same classes and words, as plain text inside the result's link (a
 * link may not hold another, and its description names ids of that page).
 */
function markFrom(node) {
  const span = document.createElement("span");
  span.className = node.className;
  for (const child of node.childNodes) span.append(document.importNode(child, true));
  return span;
}

/** A class badge in the box's language: its own set (404 page), else the legend's. */
function badgeFor(cls, box) {
  const sel = `.badge--${CSS.escape(cls)}`;
  const own = box.querySelector("template.site-search__badges")?.content.querySelector(sel);
  const legend = own ?? document.querySelector(`.legend ${sel}`);
  if (legend) return legend.cloneNode(true);
  const span = document.createElement("span");
  span.className = `badge badge--${cls}`;
  span.textContent = cls;
  return span;
}

/** Pagefind's excerpt, marked where it starts or ends inside a sentence. */
function cleanExcerpt(html) {
  // Pagefind marks each indexed word on its own, and Japanese is indexed in
  // segments (量子化 as 量子 + 化, each word carrying the space after it):
  // spaces go outside the marks, and marks side by side become one, so a
  // word reads as one highlight, not as pieces.
  let out = html
    .replace(/\u200B/g, "")
    .replace(/<mark>(\s*)([^<]*?)(\s*)<\/mark>/g, "$1<mark>$2</mark>$3")
    .replace(/<\/mark>(\s*)<mark>/g, "$1")
    .trim();
  if (!out) return out;
  // An answer's glyph is its own word: the page sets it apart with a
  // margin, which the indexed text does not keep ("✓Loaded").
  out = out.replace(/(\p{So})(?=<mark>|\p{L})/gu, "$1 ");
  if (!/^(<mark>)?[\p{Lu}\p{N}「『(\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(out)) out = `… ${out}`;
  if (!/[.。!?!?」)]$/u.test(out.replace(/<\/mark>$/, ""))) out = `${out} …`;
  return out;
}

function resultItem(g, box) {
  const li = document.createElement("li");
  li.className = "search-result";
  const a = document.createElement("a");
  a.className = "search-result__title";
  a.href = viewUrl(g.url);
  a.textContent = g.title;
  li.append(a);
  if (g.answers) {
    const p = document.createElement("p");
    p.className = "search-result__answers";
    p.textContent = g.answers;
    li.append(p);
  }
  if (g.excerpt) {
    const p = document.createElement("p");
    p.className = "search-result__excerpt";
    // Pagefind escapes the page text; only its <mark> tags are markup.
    p.innerHTML = cleanExcerpt(g.excerpt);
    li.append(p);
  }
  if (g.claims.length) {
    const ul = document.createElement("ul");
    ul.className = "search-result__claims";
    ul.setAttribute("aria-label", box.dataset.claims);
    for (const c of g.claims.slice(0, 4)) {
      const item = document.createElement("li");
      const ca = document.createElement("a");
      ca.className = "search-result__claim";
      ca.href = viewUrl(c.url);
      ca.dataset.claim = c.id;
      const text = document.createElement("span");
      text.className = "search-result__claim-text";
      text.textContent = c.text || c.id;
      if (c.answer) ca.append(markFrom(c.answer), " ");
      ca.append(c.mark ? markFrom(c.mark) : badgeFor(c.cls, box), " ", text);
      item.append(ca);
      ul.append(item);
    }
    li.append(ul);
  }
  return li;
}

/**
 * The results of `query` in `box`'s panel. `from` names the other
 * language's index when the results come from it (a Japanese query on an
 * English page); otherwise a query in Japanese script on an English page
 * is offered that index, where its words are.
 */
function render(box, found, query, from = null) {
  const panel = box.querySelector(".site-search__panel");
  const status = box.querySelector(".site-search__status");
  panel.replaceChildren();
  if (!query) {
    panel.hidden = true;
    status.textContent = "";
    return;
  }
  const n = found.total;
  const count = (n === 1 ? box.dataset.countOne : box.dataset.countOther).replace("{n}", String(n));
  const head = document.createElement("p");
  head.className = "site-search__count";
  head.textContent = n ? count : box.dataset.none;
  if (from) {
    head.textContent = `${box.dataset.fromJa} ${n ? count : box.dataset.none}`;
    head.lang = box.dataset.lang ?? LANG;
  }
  panel.append(head);
  status.textContent = head.textContent;
  const lang = box.dataset.lang ?? LANG;
  if (!from && lang !== "ja" && CJK.test(query) && box.dataset.inJa) {
    const other = document.createElement("button");
    other.type = "button";
    other.className = "site-search__other";
    other.textContent = box.dataset.inJa.replace("{q}", query);
    other.addEventListener("click", async () => {
      box.setAttribute("aria-busy", "true");
      try {
        render(box, await search(query, "ja"), query, "ja");
        panel.querySelector(".search-result__title")?.focus();
      } catch (e) {
        panel.replaceChildren(Object.assign(document.createElement("p"), { textContent: box.dataset.error }));
        console.warn("kansoku search:", e);
      } finally {
        box.removeAttribute("aria-busy");
      }
    });
    panel.append(other);
  }
  if (n) {
    const list = document.createElement("ol");
    list.className = "search-results";
    panel.append(list);
    const queue = [...found.first];
    let shown = 0;
    const more = document.createElement("button");
    more.type = "button";
    more.className = "site-search__more";
    const showMore = async () => {
      if (queue.length < SHOWN) queue.push(...(await found.more(SHOWN)));
      const batch = await fillClaimTexts(queue.splice(0, SHOWN));
      const items = batch.map((g) => resultItem(g, box));
      list.append(...items);
      shown += batch.length;
      const left = n - shown;
      more.hidden = left <= 0;
      more.textContent = box.dataset.more.replace("{n}", String(Math.min(left, SHOWN)));
      return items[0];
    };
    more.addEventListener("click", async () => {
      const first = await showMore();
      first?.querySelector("a")?.focus();
    });
    panel.append(more);
    showMore();
  }
  panel.hidden = false;
}

/**
 * Every search box of the page: the header's, or on the 404 page one per
 * language (`data-lang`). "/" opens the first one on screen.
 */
export function initSearch() {
  const boxes = [...document.querySelectorAll(".site-search")];
  boxes.forEach(initSearchBox);
  // "/" opens search from anywhere but a text field (as on GitHub, MDN
  // and Starlight).
  document.addEventListener("keydown", (e) => {
    if (e.key !== "/" || e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target;
    const typing = t instanceof HTMLElement && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName));
    const input = boxes.map((b) => b.querySelector("input")).find((i) => i?.checkVisibility());
    if (!typing && input) {
      e.preventDefault();
      input.focus();
      input.select();
    }
  });
}

function initSearchBox(box) {
  const lang = box.dataset.lang ?? LANG;
  const input = box.querySelector("input");
  const form = box.querySelector("form");
  const panel = box.querySelector(".site-search__panel");
  box.hidden = false;
  let seq = 0;
  let timer = null;
  const run = async () => {
    const mine = ++seq;
    const q = input.value.trim();
    box.setAttribute("aria-busy", "true");
    try {
      const found = q ? await search(q, lang) : { total: 0, first: [] };
      if (mine === seq) render(box, found, q);
    } catch (e) {
      if (mine === seq) {
        panel.hidden = false;
        panel.replaceChildren(Object.assign(document.createElement("p"), { textContent: box.dataset.error }));
      }
      console.warn("kansoku search:", e);
    } finally {
      if (mine === seq) {
        box.removeAttribute("aria-busy");
        box.dataset.done = q;
      }
    }
  };
  input.addEventListener("focus", () => loadPagefind(lang).catch(() => {}), { once: true });
  input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(run, 180);
  });
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const first = panel.querySelector(".search-result__title");
    if (first && box.dataset.done === input.value.trim()) first.click();
    else {
      clearTimeout(timer);
      run();
    }
  });
  // Esc closes the results from anywhere on the page.
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && !panel.hidden) {
      panel.hidden = true;
      if (box.contains(document.activeElement)) input.focus();
    }
  });
  box.addEventListener("keydown", (e) => {
    if (e.key === "ArrowDown" && e.target === input) {
      const first = panel.querySelector("a");
      if (first && !panel.hidden) {
        e.preventDefault();
        first.focus();
      }
    }
  });
  document.addEventListener("click", (e) => {
    if (!box.contains(e.target)) panel.hidden = true;
  });
  input.addEventListener("focus", () => {
    if (panel.childElementCount && input.value.trim()) panel.hidden = false;
  });
}
