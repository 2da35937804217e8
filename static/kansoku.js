// kansoku default theme: the little JavaScript the site has.
//
// Only what earns its place: search (Pagefind needs a script), remembering
// the reader's view (ja | en | 対訳) and keeping their place when they switch,
// copying a claim's link, and a way back from an evidence log to the claim.
// Everything here is an enhancement: every page reads fully without it, the
// switcher is made of plain links, and the search box stays hidden.
//
// This module is the one base.html loads; search (kansoku-search.js) and
// the way back from an evidence log (kansoku-back.js) are modules of their
// own beside it, imported by relative URL, so they load from wherever the
// site's static/ is served.

import { initEvidenceBack, rememberClaimOrigin, restorePlace } from "./kansoku-back.js";
import { initSearch } from "./kansoku-search.js";

// The search function stays reachable from this module, as before the split.
export { search } from "./kansoku-search.js";

const VIEW_KEY = "kansoku.view";

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
