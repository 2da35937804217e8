// kansoku default theme: the little JavaScript the site has.
//
// Only what earns its place: search (Pagefind needs a script), remembering
// the reader's view (ja | en | 対訳) and keeping their place when they switch,
// copying a claim's link, and a way back from an evidence log to the claim.
// Everything here is an enhancement: every page reads fully without it, the
// switcher is made of plain links, and the search box stays hidden.

const VIEW_KEY = "kansoku.view";
// One search bundle per language, beside that language's tree; a page
// searches the language of its <html> (the parallel view: its chrome's).
const LANG = document.documentElement.lang === "en" ? "en" : "ja";
const bundleDir = new URL(`../${LANG}/pagefind/`, import.meta.url).href;

function remember(view) {
  try {
    localStorage.setItem(VIEW_KEY, view);
  } catch {
    /* storage disabled: the links still work */
  }
}

function remembered() {
  try {
    return localStorage.getItem(VIEW_KEY);
  } catch {
    return null;
  }
}

// ---------- View toggle: keep the place, remember the choice ----------

/** The id of the last heading or claim above the top of the viewport. */
function currentAnchor() {
  const main = document.getElementById("main");
  if (!main || window.scrollY < 40) return null;
  let best = null;
  for (const el of main.querySelectorAll("h2[id], h3[id], h4[id], .claim-item[id]")) {
    if (el.getBoundingClientRect().top > 96) break;
    best = el;
  }
  if (!best) return null;
  // The parallel view suffixes the English copy of a heading id ("-1").
  const m = /^(.*)-(\d+)$/.exec(best.id);
  if (m && document.getElementById(m[1])) return m[1];
  return best.id;
}

function initSwitcher() {
  // Where the reader last stopped to read. On a phone the header scrolls
  // away, so reaching the switcher means scrolling up past everything; the
  // place they had settled on before that is the one to keep.
  let reading = null;
  let settle = null;
  addEventListener(
    "scroll",
    () => {
      clearTimeout(settle);
      settle = setTimeout(() => {
        if (window.scrollY >= 40) reading = currentAnchor();
      }, 1200);
    },
    { passive: true },
  );
  for (const a of document.querySelectorAll("a[data-view]")) {
    a.addEventListener("click", () => {
      remember(a.dataset.view);
      if (!a.classList.contains("switcher__link")) return;
      const id = currentAnchor() ?? reading;
      if (id) a.href = `${a.href.split("#")[0]}#${encodeURIComponent(id)}`;
    });
  }
  // The site root: go straight to the view the reader chose last time.
  if (document.body.classList.contains("view-chooser")) {
    const view = remembered();
    const target = view && document.querySelector(`.chooser__choice[data-view="${CSS.escape(view)}"]`);
    if (target) location.replace(target.href);
  }
}

// ---------- Claim links ----------

async function copy(text) {
  if (navigator.clipboard?.writeText) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      /* fall through to the selection route */
    }
  }
  const field = document.createElement("textarea");
  field.value = text;
  field.setAttribute("readonly", "");
  field.style.position = "fixed";
  field.style.opacity = "0";
  document.body.append(field);
  field.select();
  let ok = false;
  try {
    ok = document.execCommand("copy");
  } catch {
    ok = false;
  }
  field.remove();
  return ok;
}

function initCopyButtons() {
  for (const b of document.querySelectorAll("button[data-copy]")) {
    const label = b.textContent;
    b.hidden = false;
    b.addEventListener("click", async () => {
      const url = new URL(b.dataset.copy, location.href).href;
      const ok = await copy(url);
      b.dataset.copied = ok ? url : "";
      b.textContent = ok ? b.dataset.done : label;
      setTimeout(() => {
        b.textContent = label;
      }, 2000);
    });
  }
}

// ---------- Evidence: back to the claim ----------

function initEvidenceBack() {
  const box = document.querySelector(".evidence__back");
  if (!box || !document.referrer) return;
  let from;
  try {
    from = new URL(document.referrer);
  } catch {
    return;
  }
  if (from.origin !== location.origin || from.pathname === location.pathname) return;
  const link = box.querySelector("a");
  link.href = from.href;
  link.addEventListener("click", (e) => {
    // History restores the exact place (and the claim's anchor).
    if (history.length > 1) {
      e.preventDefault();
      history.back();
    }
  });
  box.hidden = false;
}

// ---------- Search ----------

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const LIMIT = 60; // candidates whose data is loaded and re-ranked
const SHOWN = 10; // pages shown

let pagefind = null;
let claimClasses = null;
async function loadPagefind() {
  if (!pagefind) {
    pagefind = import(`${bundleDir}pagefind.js`).then(async (pf) => {
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
    claimClasses = fetch(`${bundleDir}kansoku-claims.json`).then((r) => (r.ok ? r.json() : {}));
  }
  return pagefind;
}

const squash = (s) => s.replace(/[\u200B\s]+/g, "").normalize("NFKC").toLowerCase();

/**
 * Runs the reader's query. Japanese needs care (Pagefind #1237): the index
 * was segmented by ICU4X over whole sentences, the query is segmented by the
 * browser's Intl.Segmenter on its own, and the two can cut a compound
 * differently, so a plain search can rank pages that merely contain the
 * pieces above the page that contains the word. For queries with Japanese
 * characters we therefore also run the query as a phrase and put the phrase
 * hits first; then, for every query, candidates whose text contains the
 * query verbatim move ahead of those that do not (title matches first).
 */
export async function search(query) {
  const pf = await loadPagefind();
  const q = query.trim();
  if (!q) return [];
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
  // Verbatim first: candidates whose text holds the query as typed (spaces
  // aside), then those holding each of its words, then the rest; a title
  // match first within each tier; Pagefind's order otherwise.
  const whole = squash(q);
  const parts = q.split(/\s+/).map(squash).filter(Boolean);
  const rank = (d) => {
    const title = squash(d.meta?.title ?? "");
    const text = `${title} ${squash(d.content ?? "")}`;
    const tier = text.includes(whole) ? 0 : parts.every((p) => text.includes(p)) ? 2 : 4;
    const own = d.anchors?.some((a) => a.id === `claim-${q}`);
    return (own ? -2 : 0) + tier + (title.includes(whole) ? 0 : 1);
  };
  hits = hits
    .map((d, i) => ({ d, i, r: rank(d) }))
    .sort((a, b) => a.r - b.r || a.i - b.i)
    .map((x) => x.d);
  const classes = (await claimClasses.catch(() => ({}))) ?? {};
  return hits.map((d) => ({
    url: d.url,
    title: d.meta?.title ?? d.url,
    excerpt: d.excerpt,
    claims: matchedClaims(d, classes, q),
  }));
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
    if (byId) {
      // A claim id names one claim; the pages citing it list their own.
      if (id === q) found.push({ id, cls: classes[id], url: `${d.url}#${a.id}` });
      return;
    }
    const next = anchors.slice(i + 1).find((b) => b.location > a.location);
    const end = next ? next.location : Infinity;
    const inside = (d.locations ?? []).filter((l) => l >= a.location && l < end).length;
    if (inside >= need) found.push({ id, cls: classes[id] ?? "", url: `${d.url}#${a.id}` });
  });
  return found;
}

/** In the parallel view, results open the parallel page, not the ja one. */
function viewUrl(url) {
  if (!document.body.classList.contains("view-parallel")) return url;
  return url.replace(/^(.*?\/)ja\//, "$1ja-en/");
}

function badgeFor(cls) {
  const legend = document.querySelector(`.legend .badge--${CSS.escape(cls)}`);
  if (legend) return legend.cloneNode(true);
  const span = document.createElement("span");
  span.className = `badge badge--${cls}`;
  span.textContent = cls;
  return span;
}

function render(box, groups, query) {
  const panel = box.querySelector(".site-search__panel");
  const status = box.querySelector(".site-search__status");
  panel.replaceChildren();
  if (!query) {
    panel.hidden = true;
    status.textContent = "";
    return;
  }
  const n = groups.length;
  const count = (n === 1 ? box.dataset.countOne : box.dataset.countOther).replace("{n}", String(n));
  const head = document.createElement("p");
  head.className = "site-search__count";
  head.textContent = n ? count : box.dataset.none;
  panel.append(head);
  status.textContent = head.textContent;
  if (n) {
    const list = document.createElement("ol");
    list.className = "search-results";
    for (const g of groups.slice(0, SHOWN)) {
      const li = document.createElement("li");
      li.className = "search-result";
      const a = document.createElement("a");
      a.className = "search-result__title";
      a.href = viewUrl(g.url);
      a.textContent = g.title;
      li.append(a);
      if (g.excerpt) {
        const p = document.createElement("p");
        p.className = "search-result__excerpt";
        // Pagefind escapes the page text; only its <mark> tags are markup.
        p.innerHTML = g.excerpt.replace(/\u200B/g, "");
        li.append(p);
      }
      if (g.claims.length) {
        const p = document.createElement("p");
        p.className = "search-result__claims";
        const label = document.createElement("span");
        label.className = "visually-hidden";
        label.textContent = `${box.dataset.claims}: `;
        p.append(label);
        for (const c of g.claims.slice(0, 4)) {
          const ca = document.createElement("a");
          ca.className = "search-result__claim";
          ca.href = viewUrl(c.url);
          ca.dataset.claim = c.id;
          const code = document.createElement("code");
          code.textContent = c.id;
          ca.append(badgeFor(c.cls), " ", code);
          p.append(ca, " ");
        }
        li.append(p);
      }
      list.append(li);
    }
    panel.append(list);
  }
  panel.hidden = false;
}

function initSearch() {
  const box = document.getElementById("site-search");
  if (!box) return;
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
      const groups = q ? await search(q) : [];
      if (mine === seq) render(box, groups, q);
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
  input.addEventListener("focus", () => loadPagefind().catch(() => {}), { once: true });
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
  box.addEventListener("keydown", (e) => {
    if (e.key === "Escape") {
      panel.hidden = true;
      input.focus();
    } else if (e.key === "ArrowDown" && e.target === input) {
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

initSwitcher();
initCopyButtons();
initEvidenceBack();
initSearch();
