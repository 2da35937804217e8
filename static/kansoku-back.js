// kansoku default theme: the way back from an evidence log to the claim,
// imported by kansoku.js.
//
// A link into an evidence log remembers where it was followed from; the
// log's page offers the way back and, back there, the link is put where
// it was on screen. Without the script the log's page shows no such link;
// the browser's Back still leads back.

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
export function rememberClaimOrigin() {
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

export function initEvidenceBack() {
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
export function restorePlace() {
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
