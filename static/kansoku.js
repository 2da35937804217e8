// kansoku default theme: the little JavaScript the site has.
//
// Only what earns its place: search (Pagefind needs a script), remembering
// the reader's view (ja | en | 対訳) and keeping their place when they switch,
// copying a claim's link, and a way back from an evidence log to the claim.
// Everything here is an enhancement: every page reads fully without it, the
// switcher is made of plain links, and the search box stays hidden.

const VIEW_KEY = "kansoku.view";
// One search bundle per language, beside that language's tree; a page
// searches the language of its <html> (the parallel view: its chrome's),
// a search box with a `data-lang` that language (the 404 page has one per
// language).
const LANG = document.documentElement.lang === "en" ? "en" : "ja";
const bundleDirOf = (lang) => new URL(`../${lang}/pagefind/`, import.meta.url).href;

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
      // A line or range of an evidence log is the same in every language.
      const line = /^#L\d+(-L\d+)?$/.test(location.hash) ? location.hash.slice(1) : null;
      const id = line ?? currentAnchor() ?? reading;
      if (id) a.href = `${a.href.split("#")[0]}#${encodeURIComponent(id)}`;
    });
  }
  // The site root: go straight to the view the reader chose last time,
  // unless they came here from the site itself (the "choose a language"
  // link) or asked for the chooser: it must stay reachable.
  if (document.body.classList.contains("view-chooser")) {
    let inside = false;
    try {
      inside = document.referrer !== "" && new URL(document.referrer).origin === location.origin;
    } catch {
      inside = false;
    }
    const view = inside || location.hash === "#choose" ? null : remembered();
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

/**
 * A copy-link button beside every claim permalink. Written here, not in the
 * page: it needs the clipboard, and a page with many claims would otherwise
 * carry a hidden button for each. Labels come from the body (page language).
 */
function initCopyButtons() {
  const { copy: label, copied: done } = document.body.dataset;
  if (!label) return;
  for (const a of document.querySelectorAll("a.claim-link__anchor")) {
    const b = document.createElement("button");
    b.className = "claim-link__copy";
    b.type = "button";
    b.dataset.copy = a.getAttribute("href");
    b.dataset.done = done ?? label;
    b.textContent = label;
    a.after(" ", b);
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

// ---------- Badge tooltips ----------

/** The bottom of what stays at the top of the screen (the header, an evidence page's bar). */
function stickyBottom() {
  let bottom = 0;
  for (const el of document.querySelectorAll(".site-header, .evidence__bar")) {
    const pos = getComputedStyle(el).position;
    if (pos === "sticky" || pos === "fixed") bottom = Math.max(bottom, el.getBoundingClientRect().bottom);
  }
  return bottom;
}

/**
 * Puts a badge's tip next to what the badge explains, not over it: in a
 * table beside the badge's cell, within its row (under a row drawn as a
 * card); elsewhere above the claim text, else below it, else beside it;
 * on screen and clear of the sticky header. Fixed to the viewport, so that
 * a table's scrolling box does not clip it.
 */
function placeTip(badge) {
  const tip = badge.querySelector(":scope > .badge__tip");
  if (!tip) return;
  const own = (badge.closest("td, th") ?? badge.closest(".claim") ?? badge).getBoundingClientRect();
  const b = badge.getBoundingClientRect();
  tip.classList.add("is-measured");
  const w = tip.offsetWidth;
  const h = tip.offsetHeight;
  tip.classList.remove("is-measured");
  const gap = 6;
  const edge = 8;
  const ceiling = stickyBottom() + edge;
  const floor = innerHeight - edge;
  const clampX = (x) => Math.min(Math.max(edge, x), innerWidth - w - edge);
  const clampY = (y) => Math.min(Math.max(ceiling, y), floor - h);
  let left = clampX(b.left);
  let top;
  // In a table, the neighbouring rows are what a reader compares: the tip
  // goes beside the badge's cell, within its row; in a row drawn as a card
  // (a phone), under the card, clear of the question and scope above it.
  const cell = badge.closest("td, th");
  const row = cell?.closest("tr");
  if (row) {
    const r = row.getBoundingClientRect();
    if (getComputedStyle(cell).display === "table-cell") {
      // As wide as the room beside the cell allows, so that the tip is no
      // taller than the row.
      const fits = (room) => {
        if (room < 160) return null;
        tip.style.maxWidth = `${Math.floor(room)}px`;
        tip.classList.add("is-measured");
        const size = [tip.offsetWidth, tip.offsetHeight];
        tip.classList.remove("is-measured");
        return size[1] <= Math.floor(r.height) - 1 ? size : null;
      };
      const right = fits(innerWidth - edge - own.right - gap);
      const left = right ? null : fits(own.left - gap - edge);
      const size = right ?? left;
      if (size) {
        tip.style.left = `${Math.round(right ? own.right + gap : own.left - gap - size[0])}px`;
        tip.style.top = `${Math.ceil(Math.max(ceiling, r.top + (r.height - size[1]) / 2))}px`;
        return;
      }
      tip.style.maxWidth = "";
    } else if (r.bottom + gap + h <= floor) {
      tip.style.left = `${Math.round(left)}px`;
      tip.style.top = `${Math.round(r.bottom + gap)}px`;
      return;
    }
  }
  if (own.top - gap - h >= ceiling) top = own.top - gap - h;
  else if (own.bottom + gap + h <= floor) top = own.bottom + gap;
  else if (own.right + gap + w <= innerWidth - edge) {
    left = own.right + gap;
    top = clampY(b.top);
  } else if (own.left - gap - w >= edge) {
    left = own.left - gap - w;
    top = clampY(b.top);
  } else {
    // No room anywhere clear of it (a cell taller than the screen): above
    // the badge's own line, where the text it covers is least.
    top = clampY(b.top - gap - h);
  }
  tip.style.left = `${Math.round(left)}px`;
  tip.style.top = `${Math.round(top)}px`;
}

/**
 * A badge's class meaning as a tooltip on hover and keyboard focus (shown
 * by the stylesheet). The text is the badge's accessible description, written
 * once per page in the hidden meanings block; the tip is added to a badge
 * the first time a pointer or the focus reaches it, not written into each.
 */
function initBadgeTips() {
  let active = null;
  const add = (e) => {
    const badge = e.target instanceof Element ? e.target.closest(".badge[aria-describedby]") : null;
    if (!badge) return;
    if (!badge.querySelector(":scope > .badge__tip")) {
      // The first id is the class meaning (in the legend, or the hidden
      // block for the other language); a linked badge's second is the
      // evidence hint, which is for screen readers only.
      const meaning = document.getElementById(badge.getAttribute("aria-describedby").split(" ")[0]);
      if (!meaning) return;
      const tip = document.createElement("span");
      tip.className = "badge__tip";
      tip.setAttribute("aria-hidden", "true");
      tip.textContent = meaning.textContent;
      badge.append(tip);
    }
    active = badge;
    placeTip(badge);
  };
  document.addEventListener("mouseover", add);
  document.addEventListener("focusin", add);
  // A shown tip follows its badge when the page or a table scrolls.
  const follow = () => {
    if (active?.matches(":hover, :focus-visible")) placeTip(active);
  };
  addEventListener("scroll", follow, { passive: true, capture: true });
  addEventListener("resize", follow, { passive: true });
}

// ---------- Evidence: back to the claim ----------

const FROM_KEY = "kansoku.from";
const RETURN_KEY = "kansoku.return";

function readStore(store, key) {
  try {
    return JSON.parse(store.getItem(key) ?? "null");
  } catch {
    return null;
  }
}

function writeStore(store, key, value) {
  try {
    if (value === null) store.removeItem(key);
    else store.setItem(key, JSON.stringify(value));
  } catch {
    /* storage disabled: the referrer is the fallback */
  }
}

/** The links of the page's main part with the same href as `a` (`a` among them). */
function sameLinks(href) {
  const main = document.getElementById("main") ?? document.body;
  return [...main.querySelectorAll("a[href]")].filter((x) => x.getAttribute("href") === href);
}

/**
 * Remembers where a link into an evidence log was followed from: the page,
 * the claim (its anchor, for a fallback link), and the link itself (which
 * of the page's links to that range, and where it was on screen), so that
 * the log can lead back to the very place the reader left, a table cell or
 * a claim in the text as much as an item of the claim list. Kept for this
 * tab and, for a log opened in a new tab, for the site (the new tab checks
 * that its referrer is the page the link was on).
 */
function rememberClaimOrigin() {
  const note = (e) => {
    const a = e.target instanceof Element ? e.target.closest("a[href]") : null;
    if (!a || !/\/evidence\//.test(new URL(a.href, location.href).pathname)) return;
    const item = a.closest(".claim-item[id]");
    const inline = a.closest(".claim[data-claim]");
    const href = a.getAttribute("href");
    const origin = {
      to: new URL(a.href, location.href).pathname,
      from: `${location.pathname}${location.search}`,
      claim: item?.id ?? (inline ? `claim-${inline.dataset.claim}` : null),
      link: href,
      nth: Math.max(0, sameLinks(href).indexOf(a)),
      top: a.getBoundingClientRect().top,
    };
    writeStore(sessionStorage, FROM_KEY, origin);
    writeStore(localStorage, FROM_KEY, origin);
  };
  // A middle click or the context menu ("open in new tab") too.
  document.addEventListener("click", note);
  document.addEventListener("auxclick", note);
  document.addEventListener("contextmenu", note);
}

/**
 * The evidence page's own history entries since the reader arrived (a
 * line link, "claims citing this log"), so that going back skips them.
 * Counted in `history.state` where the Navigation API is missing.
 */
function countOwnEntries() {
  const mark = () => {
    if (typeof history.state?.kansokuDepth !== "number") {
      history.replaceState({ ...(history.state ?? {}), kansokuDepth: countOwnEntries.depth + 1 }, "");
    }
    countOwnEntries.depth = history.state.kansokuDepth;
  };
  countOwnEntries.depth = -1;
  mark();
  addEventListener("popstate", mark);
  addEventListener("hashchange", mark);
}

/** How many steps back the page `from` is, if the reader came from it in this tab; else 0. */
function stepsBack(from) {
  const nav = window.navigation;
  if (nav?.currentEntry && typeof nav.entries === "function") {
    const entries = nav.entries();
    for (let i = nav.currentEntry.index - 1; i >= 0; i -= 1) {
      const u = entries[i].url ? new URL(entries[i].url) : null;
      if (!u) return 0;
      if (u.pathname === location.pathname) continue;
      return u.origin === from.origin && u.pathname === from.pathname && u.search === from.search ? nav.currentEntry.index - i : 0;
    }
    return 0;
  }
  let ref = null;
  try {
    ref = document.referrer ? new URL(document.referrer) : null;
  } catch {
    ref = null;
  }
  const depth = countOwnEntries.depth ?? 0;
  const came = ref && ref.origin === from.origin && ref.pathname === from.pathname && ref.search === from.search;
  return came && history.length > depth + 1 ? depth + 1 : 0;
}

function initEvidenceBack() {
  const box = document.querySelector(".evidence__back");
  if (!box) return;
  let referrer = null;
  try {
    referrer = document.referrer ? new URL(document.referrer) : null;
  } catch {
    referrer = null;
  }
  const mine = (r) => (r && r.to === location.pathname ? r : null);
  let origin = mine(readStore(sessionStorage, FROM_KEY));
  if (!origin) {
    // A new tab: the site-wide note, if this tab was opened from its page.
    const shared = mine(readStore(localStorage, FROM_KEY));
    const page = shared && new URL(shared.from, location.href);
    if (page && referrer && referrer.origin === page.origin && referrer.pathname === page.pathname) origin = shared;
  }
  const from = origin ? new URL(origin.from, location.href) : referrer;
  if (!from || from.origin !== location.origin || from.pathname === location.pathname) return;
  // Without the history (a new tab, a reload elsewhere) the link itself
  // leads to the claim's anchor; the script there finds a claim shown in a
  // table cell, which has no anchor of its own.
  if (origin?.claim) from.hash = `#${origin.claim}`;
  const link = box.querySelector("a");
  link.href = from.href;
  box.hidden = false;
  if (!window.navigation) countOwnEntries();
  link.addEventListener("click", (e) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    if (origin) {
      writeStore(sessionStorage, RETURN_KEY, { path: `${from.pathname}${from.search}`, link: origin.link, nth: origin.nth, top: origin.top });
    }
    // Back in the history when the reader came from that page in this tab:
    // the browser restores the page as it was, and no entry is added.
    const n = stepsBack(from);
    if (n > 0) {
      e.preventDefault();
      history.go(-n);
    }
  });
}

/**
 * Back from an evidence log: the link the reader followed is put back where
 * it was on screen. A link to a claim shown only in a table cell (its
 * anchor is on the claim's own page) lands on the cell.
 */
function restorePlace() {
  const back = readStore(sessionStorage, RETURN_KEY);
  if (back && back.path === `${location.pathname}${location.search}`) {
    writeStore(sessionStorage, RETURN_KEY, null);
    const links = sameLinks(back.link);
    const a = links[back.nth] ?? links[0];
    if (a) {
      const place = () => window.scrollBy(0, a.getBoundingClientRect().top - back.top);
      place();
      // Once more when the page has settled (late layout, the browser's own
      // scroll restoration).
      if (document.readyState !== "complete") addEventListener("load", () => requestAnimationFrame(place), { once: true });
      else requestAnimationFrame(place);
      return;
    }
  }
  const m = /^#claim-(.+)$/.exec(decodeURIComponent(location.hash));
  if (m && !document.getElementById(`claim-${m[1]}`)) {
    const claim = document.querySelector(`.claim[data-claim="${CSS.escape(m[1])}"]`);
    const place = claim?.closest("td, th, li, p") ?? claim;
    if (place) {
      place.classList.add("is-target");
      place.scrollIntoView({ block: "center" });
    }
  }
}

// ---------- Anchors below the sticky header ----------

/**
 * The header stays at the top from tablet width; anchored targets (a log
 * line, a cited range, a claim) must land below it and below an evidence
 * page's bar ("back to the claim", the log's provenance). Their
 * scroll-margin reads these two heights.
 */
function measureChrome() {
  const root = document.documentElement;
  const header = document.querySelector(".site-header");
  const bar = document.querySelector(".evidence__bar");
  if (!header) return;
  const set = () => {
    const sticky = getComputedStyle(header).position === "sticky";
    root.style.setProperty("--header-h", sticky ? `${header.offsetHeight}px` : "0px");
    root.style.setProperty("--back-h", bar && bar.offsetParent ? `${bar.offsetHeight}px` : "0px");
  };
  set();
  const watch = new ResizeObserver(set);
  watch.observe(header);
  if (bar) watch.observe(bar);
  // A log line or range lands with the line before it in view below the
  // bar, so the reader sees where the cited lines start: its margin is the
  // chrome and that line's height (a wrapped line on a phone is several).
  const target = () => location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
  const room = (el) => {
    const before = el.closest(".ev-line")?.previousElementSibling;
    if (before) el.style.scrollMarginTop = `calc(var(--header-h) + var(--back-h) + ${before.offsetHeight + 8}px)`;
  };
  addEventListener("hashchange", () => {
    const el = target();
    if (el) room(el);
  });
  // The browser scrolled to the fragment before these were known.
  const el = target();
  if (!el) return;
  room(el);
  el.scrollIntoView({ block: "start" });
}

// ---------- Phones: the page list as a drawer ----------

/**
 * On a phone the page list sits below the content; the header's link to
 * it becomes a button that opens it over the page. The drawer has one
 * Close button, at its top (Esc and a click beside it close it too); the
 * header button keeps its name and says by `aria-expanded` that the list is
 * open, and the page behind is inert while it is. From 64rem the list is a
 * sidebar and the button is hidden.
 */
function initDrawer() {
  const link = document.querySelector(".nav-jump");
  const nav = document.getElementById("site-nav");
  if (!link || !nav) return;
  const button = document.createElement("button");
  button.type = "button";
  button.className = "nav-jump nav-jump--drawer";
  button.textContent = link.textContent;
  button.setAttribute("aria-expanded", "false");
  button.setAttribute("aria-controls", "site-nav");
  link.replaceWith(button);
  const close = document.createElement("button");
  close.type = "button";
  close.className = "nav-jump--drawer site-nav__close";
  close.textContent = link.dataset.close;
  // Everything but the drawer and the blocks that hold it.
  const behind = () =>
    [...document.body.children, ...(nav.parentElement?.children ?? [])].filter(
      (el) => el !== nav && !el.contains(nav) && !(el instanceof HTMLScriptElement),
    );
  const isOpen = () => document.body.classList.contains("nav-open");
  const toggle = (open, focus = open ? close : null) => {
    document.body.classList.toggle("nav-open", open);
    button.setAttribute("aria-expanded", String(open));
    for (const el of behind()) el.inert = open;
    focus?.focus();
  };
  close.addEventListener("click", () => toggle(false, button));
  nav.prepend(close);
  button.addEventListener("click", () => toggle(!isOpen()));
  document.addEventListener("click", (e) => {
    if (isOpen() && !nav.contains(e.target) && !button.contains(e.target)) toggle(false);
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && isOpen()) toggle(false, button);
  });
  nav.addEventListener("click", (e) => {
    if (e.target instanceof Element && e.target.closest("a")) toggle(false);
  });
  // Grown past the phone layout while open: the list is a sidebar again.
  matchMedia("(min-width: 64rem)").addEventListener("change", (m) => {
    if (m.matches && isOpen()) toggle(false);
  });
}

// ---------- Long pages: "on this page" ----------

/** A contents list of the page's sections, for pages taller than a few screens. */
function initToc() {
  const article = document.querySelector(".main > article.page");
  if (!article || article.querySelector(".toc")) return;
  const heads = [...article.querySelectorAll(".prose h2[id], .prose h3[id], .claims > h2[id], .scope > h2[id]")].filter(
    (h) => !h.closest(".pr__col[lang]:not(:first-child)"),
  );
  if (heads.length < 3 || article.scrollHeight < 2.5 * window.innerHeight) return;
  const nav = document.createElement("nav");
  nav.className = "toc";
  nav.setAttribute("aria-labelledby", "kansoku-toc-title");
  const title = document.createElement("p");
  title.className = "toc__title";
  title.id = "kansoku-toc-title";
  title.textContent = document.body.dataset.toc;
  const list = document.createElement("ol");
  list.className = "toc__list";
  for (const h of heads) {
    const li = document.createElement("li");
    li.className = `toc__item toc__item--${h.tagName.toLowerCase()}`;
    const a = document.createElement("a");
    a.href = `#${encodeURIComponent(h.id)}`;
    a.textContent = h.textContent.trim();
    li.append(a);
    list.append(li);
  }
  nav.append(title, list);
  // After what the page answers first (its summary of findings, scope,
  // an entity's answers): the answer stays on the first screen.
  const first = article.querySelectorAll(":scope > .sof, :scope > .view-scope, :scope > .entity-answers, :scope > .observed");
  (first[first.length - 1] ?? article.querySelector(".page-header")).after(nav);
}

// ---------- Wide tables: say that they scroll ----------

/**
 * A table wider than its box scrolls inside it; the reader is told so
 * above the table (a scrollbar below a long table is out of sight).
 */
function initScrollHints() {
  const boxes = document.querySelectorAll(".table-wrap, .prose table, .diagram");
  const check = () => {
    for (const box of boxes) {
      const wide = box.scrollWidth > box.clientWidth + 2;
      box.classList.toggle("is-wide", wide);
      let hint = box.previousElementSibling;
      if (!hint?.classList.contains("scroll-hint")) hint = null;
      if (wide && !hint) {
        hint = document.createElement("p");
        hint.className = "scroll-hint";
        const { scrollHint, scrollHintDiagram } = document.body.dataset;
        hint.textContent = box.classList.contains("diagram") ? (scrollHintDiagram ?? scrollHint) : scrollHint;
        box.before(hint);
      } else if (!wide && hint) {
        hint.remove();
      }
    }
  };
  check();
  addEventListener("resize", check, { passive: true });
  // A graph laid out top-down has its roots in its top row, not always at
  // the centre (two roots side by side): a wide one opens scrolled to the
  // middle of its top row, so the roots are on screen.
  for (const fig of document.querySelectorAll(".diagram.is-wide")) {
    const boxes = [...fig.querySelectorAll("svg text")].map((t) => t.getBoundingClientRect());
    if (!boxes.length) {
      fig.scrollLeft = (fig.scrollWidth - fig.clientWidth) / 2;
      continue;
    }
    const top = Math.min(...boxes.map((b) => b.top));
    const row = boxes.filter((b) => b.top - top < 4);
    const left = fig.getBoundingClientRect().left - fig.scrollLeft;
    const mid = (Math.min(...row.map((b) => b.left)) + Math.max(...row.map((b) => b.right))) / 2 - left;
    fig.scrollLeft = mid - fig.clientWidth / 2;
  }
}

// ---------- Not found: the reader's language, and where to look ----------

/**
 * One 404.html serves every path; the path says which language the reader
 * was reading, so that language comes first, and the nearest pages that do
 * exist (the parents of the missing path) are offered.
 */
async function initNotFound() {
  const box = document.querySelector(".not-found");
  if (!box) return;
  const m = /^(.*?\/)(ja|en|ja-en)\/(.*)$/.exec(location.pathname);
  if (!m) return;
  const [, base, tree, rest] = m;
  const want = tree === "en" ? "en" : "ja";
  for (const part of box.querySelectorAll(".not-found__lang")) {
    part.hidden = part.lang !== want;
  }
  document.documentElement.lang = want;
  const home = document.querySelector(".site-title");
  if (home) home.href = `${base}${tree}/`;
  const list = box.querySelector(`.not-found__lang[lang="${want}"] .not-found__suggestions`);
  if (!list) return;
  const parts = rest.split("/").filter(Boolean);
  const tried = [];
  for (let i = parts.length - 1; i >= 0; i -= 1) {
    tried.push(`${base}${tree}/${parts.slice(0, i).join("/")}${i ? "/" : ""}`);
  }
  const found = [];
  for (const url of tried) {
    try {
      const r = await fetch(url);
      if (!r.ok) continue;
      const doc = new DOMParser().parseFromString(await r.text(), "text/html");
      if (doc.querySelector(".not-found")) continue;
      found.push({ url, title: doc.querySelector("h1")?.textContent.trim() ?? url });
    } catch {
      /* offline: no suggestion */
    }
  }
  for (const f of found) {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = f.url;
    a.textContent = f.title;
    li.append(a);
    list.append(li);
  }
  list.closest(".not-found__near").hidden = found.length === 0;
}

// ---------- Search ----------

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
function initSearch() {
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

initSwitcher();
initCopyButtons();
initBadgeTips();
rememberClaimOrigin();
initEvidenceBack();
measureChrome();
initDrawer();
initToc();
initScrollHints();
initNotFound();
initSearch();
restorePlace();
// A page restored from the back-forward cache runs no script: put the
// place back there too.
addEventListener("pageshow", (e) => {
  if (e.persisted) restorePlace();
});
