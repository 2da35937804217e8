// The reader's routes through the site (issue 26), measured in the page:
// back from an evidence log to the exact place the reader left (a hub or
// matrix cell, a claim in the text), the home table and the status chain
// on a phone, badge tooltips beside what they explain, an evidence range
// with the line before it and the log's provenance in view, the chooser
// and the 404 page in both languages (the 404 with search and the site's
// sections), the parallel view's entity box and shared claims, and one
// Close button in the phone drawer.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { serve, launch, watchedPage } from "./lib.js";

let server, browser;
before(async () => {
  server = await serve();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

async function open(path, options = {}) {
  const context = await browser.newContext({ viewport: DESKTOP, ...options });
  const page = await watchedPage(context, server.origin);
  await page.goto(server.origin + path);
  return { context, page };
}

const pathOf = (page) => new URL(page.url()).pathname;
const top = (locator) => locator.evaluate((el) => el.getBoundingClientRect().top);

/** Rectangles that share area (touching edges do not count). */
const overlap = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;

// ---------- A. Back to the claim: the exact place ----------

const ORIGINS = [
  // [what, page, the element the reader was looking at, its evidence link]
  ["a hub cell", "/en/components/", ".view--hub tbody tr:nth-child(5) td.cell--loaded", "a.badge"],
  ["a matrix cell", "/en/generations/", ".view--matrix tbody tr:nth-child(2) td:nth-of-type(4)", "a.badge"],
  ["an inline claim in the text", "/en/components/rocblas/", '.prose .claim[data-claim="rocblas-files-used-live"]', "a.badge"],
];

for (const [what, path, selector, link] of ORIGINS) {
  test(`back to the claim returns to ${what}, where it was on screen`, async () => {
    const { context, page } = await open(path);
    const el = page.locator(selector).first();
    await el.evaluate((e) => e.scrollIntoView({ block: "center" }));
    await page.waitForTimeout(150);
    const before = await top(el);
    await Promise.all([page.waitForURL("**/evidence/**"), el.locator(link).first().click()]);
    const back = page.locator(".evidence__back a");
    await back.waitFor({ state: "visible" });
    await Promise.all([page.waitForURL((u) => u.pathname === path), back.click()]);
    await page.waitForLoadState("load");
    await page.waitForTimeout(300);
    const after = await top(el);
    assert.ok(
      Math.abs(after - before) <= 100,
      `${what}: was ${Math.round(before)} px from the top of the screen, is ${Math.round(after)} px after back-to-claim`,
    );
    assert.deepEqual(page.problems(), []);
    await context.close();
  });
}

test("back to the claim skips the log's own entries, with and without the Navigation API", async () => {
  for (const api of [true, false]) {
    const context = await browser.newContext({ viewport: DESKTOP });
    // Browsers without the Navigation API count the log's entries themselves.
    if (!api) await context.addInitScript(() => Object.defineProperty(window, "navigation", { value: undefined }));
    const page = await watchedPage(context, server.origin);
    await page.goto(`${server.origin}/en/generations/`);
    const cell = page.locator(".view--matrix tbody tr:nth-child(3) td:has(a.badge)").first();
    await cell.evaluate((e) => e.scrollIntoView({ block: "center" }));
    const before = await top(cell);
    await Promise.all([page.waitForURL("**/evidence/**"), cell.locator("a.badge").click()]);
    // The reader follows a line link and the link to the citing claims first.
    await page.locator("#L2 a.ev-ln").click();
    await page.locator("a.evidence__to-claims").click();
    assert.equal(new URL(page.url()).hash, "#kansoku-cited-by");
    const entries = await page.evaluate(() => history.length);
    await Promise.all([page.waitForURL((u) => u.pathname === "/en/generations/"), page.locator(".evidence__back a").click()]);
    await page.waitForLoadState("load");
    await page.waitForTimeout(300);
    const after = await top(cell);
    assert.ok(Math.abs(after - before) <= 100, `api ${api}: the cell was at ${before}, is at ${after}`);
    // Back in the history, not a new entry: forward leads to the log again.
    assert.equal(await page.evaluate(() => history.length), entries, `api ${api}: no entry added`);
    assert.deepEqual(page.problems(), []);
    await context.close();
  }
});

test("back to the claim without the history (a new tab) lands on the claim", async () => {
  const { context, page } = await open("/en/components/");
  const cell = page.locator(".view--hub tbody tr:nth-child(5) td.cell--loaded");
  const claim = await cell.locator(".claim").getAttribute("data-claim");
  await cell.scrollIntoViewIfNeeded();
  const [tab] = await Promise.all([context.waitForEvent("page"), cell.locator("a.badge").click({ modifiers: ["Control"] })]);
  await tab.waitForLoadState("load");
  assert.equal(await tab.evaluate(() => history.length), 1, "a new tab has no history to go back in");
  const back = tab.locator(".evidence__back a");
  await back.waitFor({ state: "visible" });
  const href = new URL(await back.getAttribute("href"), server.origin);
  assert.equal(`${href.pathname}${href.hash}`, `/en/components/#claim-${claim}`, "it links to the claim's anchor");
  await Promise.all([tab.waitForURL("**/en/components/**"), back.click()]);
  await tab.waitForLoadState("load");
  await tab.waitForTimeout(300);
  const [cellTop, cellBottom, header] = await tab.evaluate((id) => {
    const r = document.querySelector(`.view--hub .claim[data-claim="${id}"]`).closest("td").getBoundingClientRect();
    return [r.top, r.bottom, document.querySelector(".site-header").getBoundingClientRect().bottom];
  }, claim);
  assert.ok(cellTop >= header - 1 && cellBottom <= DESKTOP.height, `the cell is on screen below the header: ${cellTop}..${cellBottom}, header ${header}`);
  await context.close();
});

// ---------- B. The home table on a phone ----------

test("the home page's worlds table reads on a phone without sideways scrolling", async () => {
  for (const lang of ["en", "ja"]) {
    const { context, page } = await open(`/${lang}/`, { viewport: PHONE, isMobile: true });
    const m = await page.evaluate(() => {
      const box = document.querySelector(".view--home");
      const text = box.querySelector("tbody tr td");
      return {
        scroll: box.scrollWidth - box.clientWidth,
        page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        text: text.getBoundingClientRect().width,
      };
    });
    assert.ok(m.scroll <= 0, `${lang}: the table wrapper does not scroll sideways (${m.scroll} px too wide)`);
    assert.equal(m.page, 0, `${lang}: nor does the page`);
    assert.ok(m.text >= 250, `${lang}: the text column is ${m.text} px wide`);
    await context.close();
  }
});

// ---------- C. Badge tooltips beside what they explain ----------

const TIPS = [
  ["a hub cell", "/en/components/", ".view--hub tbody tr:nth-child(3) td.cell--loaded", "td"],
  ["a matrix cell", "/en/generations/", ".view--matrix tbody tr:nth-child(2) td:nth-of-type(3)", "td"],
  ["a claim in the text", "/en/components/rocblas/", '.prose .claim[data-claim="rocblas-tensile-backend"]', ".claim"],
  ["a claim in the list", "/ja/components/rocblas/", "#claim-rocblas-loaded-hsaco .claim-item__text", ".claim"],
];

for (const [what, path, selector, own] of TIPS) {
  test(`a badge's tooltip does not cover ${what}`, async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const { context, page } = await open(path, { viewport, isMobile: viewport === PHONE });
      const box = page.locator(selector).first();
      await box.evaluate((e) => e.scrollIntoView({ block: "center" }));
      const badge = box.locator(".badge").first();
      await badge.hover();
      const tip = badge.locator(".badge__tip");
      await tip.waitFor({ state: "visible" });
      const m = await badge.evaluate((b, own) => {
        const t = b.querySelector(".badge__tip").getBoundingClientRect();
        const o = b.closest(own).getBoundingClientRect();
        const r = (x) => ({ left: x.left, right: x.right, top: x.top, bottom: x.bottom });
        return { tip: r(t), own: r(o), w: innerWidth, h: innerHeight };
      }, own);
      assert.ok(!overlap(m.tip, m.own), `${what} at ${viewport.width}px: the tip ${JSON.stringify(m.tip)} covers ${own} ${JSON.stringify(m.own)}`);
      assert.ok(m.tip.left >= 0 && m.tip.right <= m.w && m.tip.top >= 0 && m.tip.bottom <= m.h, `the tip is on screen: ${JSON.stringify(m.tip)}`);
      // Keyboard focus shows it in the same place.
      await page.mouse.move(1, m.h - 1);
      await badge.focus();
      await page.keyboard.press("Shift+Tab");
      await page.keyboard.press("Tab");
      await tip.waitFor({ state: "visible" });
      const again = await tip.evaluate((t) => t.getBoundingClientRect().toJSON());
      const ownNow = await badge.evaluate((b, own) => b.closest(own).getBoundingClientRect().toJSON(), own);
      assert.ok(!overlap(again, ownNow), `${what} at ${viewport.width}px: the focused badge's tip ${JSON.stringify(again)} stays clear of ${JSON.stringify(ownNow)} too`);
      assert.deepEqual(page.problems(), []);
      await context.close();
    }
  });
}

// ---------- D. Evidence: the range, the line before it, the provenance ----------

/** Whether a text is on screen: its box below the sticky chrome's top and in the viewport, and not covered. */
async function textOnScreen(page, needle) {
  return page.evaluate((needle) => {
    const header = document.querySelector(".site-header").getBoundingClientRect().bottom;
    const walk = document.createTreeWalker(document.querySelector("main"), NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      const at = n.textContent.indexOf(needle);
      if (at < 0) continue;
      const range = document.createRange();
      range.setStart(n, at);
      range.setEnd(n, at + Math.min(needle.length, 12));
      const r = range.getBoundingClientRect();
      if (!r.width || r.top < header - 1 || r.bottom > innerHeight) continue;
      const hit = document.elementFromPoint(r.left + 2, (r.top + r.bottom) / 2);
      if (hit && (hit === n.parentElement || n.parentElement.contains(hit) || hit.contains(n.parentElement))) return true;
    }
    return false;
  }, needle);
}

/** The cited range's first line and the one before it, against the sticky chrome. */
async function rangeMeasure(page, first) {
  return page.evaluate((first) => {
    const sticky = [".site-header", ".evidence__bar", ".evidence__back"]
      .map((s) => document.querySelector(s))
      .filter((e) => e && e.checkVisibility() && ["sticky", "fixed"].includes(getComputedStyle(e).position))
      .map((e) => e.getBoundingClientRect().bottom);
    const before = document.getElementById(`L${first - 1}`).getBoundingClientRect();
    const line = document.getElementById(`L${first}`).getBoundingClientRect();
    return { chrome: Math.max(0, ...sticky), before: before.top, line: line.bottom, h: innerHeight, y: scrollY };
  }, first);
}

for (const [name, viewport] of [["desktop", DESKTOP], ["phone", PHONE]]) {
  test(`an evidence range lands with the line before it and the provenance in view (${name})`, async () => {
    // Ranges claims cite (a range no claim cites has no anchor of its own).
    for (const [path, first, source] of [
      ["/en/evidence/record/home-worlds.txt/#L19-L20", 19, "ROCm-pages home page"],
      ["/ja/evidence/record/components.txt/#L24-L25", 24, null],
    ]) {
      const { context, page } = await open(path, { viewport, isMobile: viewport === PHONE });
      await page.waitForLoadState("load");
      await page.waitForTimeout(200);
      const m = await rangeMeasure(page, first);
      assert.ok(m.y > 0, `${path}: the page scrolled to the range`);
      assert.ok(m.before >= m.chrome - 1, `${path} ${name}: line ${first - 1} (${m.before}) is below the sticky chrome (${m.chrome})`);
      assert.ok(m.line <= m.h, `${path} ${name}: line ${first} is on screen`);
      const kind = path.startsWith("/en/") ? "Transcript" : "転記";
      assert.ok(await textOnScreen(page, kind), `${path} ${name}: the log's kind (${kind}) is in view`);
      const src = source ?? (await page.evaluate(() => document.querySelector(".ev-header code")?.textContent.slice(0, 20)));
      assert.ok(await textOnScreen(page, src), `${path} ${name}: its source (${src}) is in view`);
      assert.deepEqual(page.problems(), []);
      await context.close();
    }
  });
}

test("from a claim to its range: the back bar, the line before the range and the provenance all in view", async () => {
  for (const viewport of [DESKTOP, PHONE]) {
    const { context, page } = await open("/en/generations/", { viewport, isMobile: viewport === PHONE });
    const badge = page.locator('.view--matrix a.badge[href$="home-worlds.txt/#L11-L13"]').first();
    await badge.scrollIntoViewIfNeeded();
    await Promise.all([page.waitForURL("**/home-worlds.txt/**"), badge.click()]);
    await page.locator(".evidence__back a").waitFor({ state: "visible" });
    await page.waitForTimeout(200);
    const m = await rangeMeasure(page, 11);
    assert.ok(m.before >= m.chrome - 1, `${viewport.width}px: line 10 (${m.before}) is below the back bar (${m.chrome})`);
    assert.ok(m.line <= m.h, `${viewport.width}px: line 11 is on screen`);
    assert.ok(await textOnScreen(page, "Transcript"), `${viewport.width}px: the kind is in view`);
    assert.ok(await textOnScreen(page, "ROCm-pages home page"), `${viewport.width}px: the source is in view`);
    await context.close();
  }
});

// ---------- E. The chooser's description in both languages ----------

test("the chooser describes the site in both languages", async () => {
  const { context, page } = await open("/");
  const parts = await page.$$eval(".chooser__description", (ps) => ps.map((p) => [p.closest("[lang]").getAttribute("lang"), p.textContent.trim()]));
  const by = Object.fromEntries(parts);
  assert.match(by.ja ?? "", /観測記録/, JSON.stringify(parts));
  assert.match(by.en ?? "", /observation record/, JSON.stringify(parts));
  assert.ok(parts.every(([l]) => l === "ja" || l === "en"), "each description says its language");
  await context.close();
});

// ---------- F. The 404 page: search and the site's sections ----------

for (const [lang, path, query, want] of [
  ["en", "/en/no-such-page/", "rocBLAS", "/en/components/rocblas/"],
  ["ja", "/ja/components/a/b/no-such-page/", "線形代数", "/ja/components/rocm-bundle/"],
]) {
  test(`404 at ${path}: the site's search works and its sections link home`, async () => {
    const { context, page } = await open(path);
    const part = page.locator(`.not-found__lang[lang="${lang}"]`);
    const input = part.locator('input[type="search"]');
    await input.waitFor({ state: "visible" });
    await input.fill(query);
    const first = part.locator(".search-result__title").first();
    await first.waitFor();
    assert.equal(new URL(await first.getAttribute("href"), server.origin).pathname, want, `${query}: the page about it first`);
    const links = await part.locator("nav a").evaluateAll((as) => as.map((a) => a.href));
    assert.ok(links.length >= 5, `the site's sections are listed: ${links.join(", ")}`);
    for (const href of links) {
      const r = await fetch(href);
      const html = await r.text();
      assert.equal(r.status, 200, href);
      assert.ok(!html.includes('class="not-found"'), `${href} is a page, not the 404 page`);
      assert.ok(new URL(href).pathname.startsWith(`/${lang}/`), `${href} is in the ${lang} tree`);
    }
    // The page itself, and the parents of its path that the script tries
    // for suggestions, answer 404; nothing else may fail.
    const tried = (p) => /^HTTP 404: /.test(p) && path.startsWith(new URL(p.slice(10)).pathname);
    const expected = (p) => tried(p) || p === "console error: Failed to load resource: the server responded with a status of 404 (Not Found)";
    assert.deepEqual(page.problems().filter((p) => !expected(p)), []);
    await context.close();
  });
}

// ---------- G. The parallel view: the entity box, shared claims ----------

test("the parallel view shows the entity box in both languages", async () => {
  const { context, page } = await open("/ja-en/components/rocblas/");
  for (const [lang, label] of [["ja", "このページの対象"], ["en", "This page is about"]]) {
    const box = page.locator(`[lang="${lang}"] > dl.entity, dl.entity[lang="${lang}"]`);
    assert.equal(await box.count(), 1, `${lang}: one entity box`);
    assert.ok(await box.isVisible());
    assert.match(await box.textContent(), new RegExp(label), `${lang}: labelled in its language`);
    assert.match(await box.textContent(), /rocBLAS/);
  }
  await context.close();
});

test("a claim in a shared part of the parallel view: ja and en apart, each marked with its language", async () => {
  for (const viewport of [DESKTOP, PHONE]) {
    const { context, page } = await open("/ja-en/components/rocm-bundle/", { viewport });
    const items = await page.$$eval(".pr--shared li", (lis) =>
      lis
        .filter((li) => li.querySelector(".claim"))
        .map((li) => {
          const alt = li.querySelector(".claim__text--alt");
          const main = li.querySelector(".claim");
          const mainLang = main.parentElement.closest("[lang]");
          const lines = [...main.getClientRects()];
          return {
            mainLang: mainLang === document.documentElement ? "(inherited)" : mainLang.getAttribute("lang"),
            altLang: alt?.getAttribute("lang"),
            mainBottom: Math.max(...lines.map((r) => r.bottom)),
            altTop: alt ? Math.min(...[...alt.getClientRects()].map((r) => r.top)) : null,
            altLeft: alt?.getClientRects()[0].left,
            liLeft: li.getBoundingClientRect().left,
          };
        }),
    );
    assert.ok(items.length >= 2, JSON.stringify(items));
    for (const it of items) {
      assert.equal(it.mainLang, "ja", `the Japanese part is marked lang="ja" in the shared row: ${JSON.stringify(it)}`);
      assert.equal(it.altLang, "en");
      assert.ok(it.altTop >= it.mainBottom - 1, `${viewport.width}px: the English starts below the Japanese, not on its line: ${JSON.stringify(it)}`);
    }
    await context.close();
  }
});

// ---------- I. The phone drawer: one Close button ----------

test("the phone drawer has exactly one Close button, and it works", async () => {
  for (const [lang, close] of [["en", "Close"], ["ja", "閉じる"]]) {
    const { context, page } = await open(`/${lang}/components/`, { viewport: PHONE, isMobile: true });
    const toggle = page.locator("button.nav-jump");
    await toggle.click();
    const closers = await page.evaluate((close) => {
      const named = (b) => (b.getAttribute("aria-label") ?? b.textContent).trim();
      return [...document.querySelectorAll("button")]
        .filter((b) => b.checkVisibility() && !b.closest("[inert], [aria-hidden=true]") && named(b) === close)
        .map((b) => b.className);
    }, close);
    assert.equal(closers.length, 1, `${lang}: one "${close}" button: ${closers.join(", ")}`);
    assert.equal(await toggle.getAttribute("aria-expanded"), "true");
    assert.equal(await page.evaluate(() => document.activeElement.textContent.trim()), close, "focus moves to it");
    await page.keyboard.press("Enter");
    assert.equal(await toggle.getAttribute("aria-expanded"), "false");
    assert.equal(await page.evaluate(() => document.body.classList.contains("nav-open")), false);
    assert.ok(await toggle.evaluate((b) => b === document.activeElement), "focus returns to the toggle");
    assert.deepEqual(page.problems(), []);
    await context.close();
  }
});

// ---------- J. The status chain on a phone ----------

test("the observers' status chain is readable on a phone: nothing cut off", async () => {
  for (const width of [360, 390]) {
    for (const lang of ["en", "ja"]) {
      const { context, page } = await open(`/${lang}/observers/`, { viewport: { width, height: 844 }, isMobile: true });
      const fig = page.locator("figure.diagram--chain");
      await fig.scrollIntoViewIfNeeded();
      const m = await fig.evaluate((f) => {
        const box = f.getBoundingClientRect();
        const svg = f.querySelector("svg").getBoundingClientRect();
        const text = f.querySelector("svg text");
        const scale = svg.width / f.querySelector("svg").viewBox.baseVal.width;
        return {
          box: { left: box.left, right: box.right },
          svg: { left: svg.left, right: svg.right },
          font: parseFloat(getComputedStyle(text).fontSize) * scale,
          hint: f.previousElementSibling?.classList.contains("scroll-hint") ? f.previousElementSibling.textContent : null,
        };
      });
      assert.ok(m.svg.left >= m.box.left - 0.5 && m.svg.right <= m.box.right + 0.5, `${lang} ${width}px: the chain ${JSON.stringify(m.svg)} fits its box ${JSON.stringify(m.box)}`);
      assert.ok(m.font >= 10, `${lang} ${width}px: its labels are drawn at ${m.font.toFixed(1)} px`);
      assert.equal(m.hint, null, `${lang} ${width}px: no note to scroll sideways`);
      await context.close();
    }
  }
});
