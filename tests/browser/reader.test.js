// The reader's side (issue 14), measured in the page: evidence ranges land
// below the sticky header and lead back to the claim; the matrix is
// readable at every width; diagrams carry their full labels, fit their box,
// follow dark mode and name themselves in words; search counts only what
// it can show and ranks an exact title first; each language tree speaks its
// own language; claims are shown in context. Then a screenshot gallery of
// every view × ja/en/ja-en × desktop/phone × light/dark.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { serve, launch, watchedPage, sitePages, artifact } from "./lib.js";

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
const WIDE = { width: 1920, height: 1080 };
const PHONE = { width: 390, height: 844 };

async function open(path, options = {}) {
  const context = await browser.newContext({ viewport: DESKTOP, ...options });
  const page = await watchedPage(context, server.origin);
  await page.goto(server.origin + path);
  return { context, page };
}

const JA = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

test("a cited range lands fully below the sticky header, at 1280 and 1920 px", async () => {
  for (const viewport of [DESKTOP, WIDE]) {
    for (const lang of ["ja", "en"]) {
      const { context, page } = await open(`/${lang}/evidence/phase-c/rocblas-library.txt/#L1-L2`, { viewport });
      await page.waitForFunction(() => document.documentElement.style.getPropertyValue("--header-h") !== "");
      const [header, line] = await page.evaluate(() => [
        document.querySelector(".site-header").getBoundingClientRect().bottom,
        document.getElementById("L1").getBoundingClientRect().top,
      ]);
      assert.ok(line >= header, `${lang} ${viewport.width}px: L1 top ${line} is below the header bottom ${header}`);
      assert.ok(line < viewport.height / 2, `and near the top of the screen: ${line}`);
      assert.deepEqual(page.problems(), []);
      await context.close();
    }
  }
});

test("from a claim to its range and back: the line clears the header and the back bar; back leads to the claim", async () => {
  const { context, page } = await open("/en/components/rocblas/");
  const badge = page.locator('.claim-item a.ev-link[href$="rocblas-library.txt/#L1-L2"]').first();
  await badge.scrollIntoViewIfNeeded();
  const claim = await badge.evaluate((a) => a.closest(".claim-item[id]")?.id ?? `claim-${a.closest(".claim[data-claim]")?.dataset.claim}`);
  await Promise.all([page.waitForURL("**/rocblas-library.txt/**"), badge.click()]);
  const back = page.locator(".evidence__back a");
  await back.waitFor({ state: "visible" });
  await page.waitForTimeout(100);
  const [header, bar, line] = await page.evaluate(() => [
    document.querySelector(".site-header").getBoundingClientRect().bottom,
    document.querySelector(".evidence__back").getBoundingClientRect(),
    document.getElementById("L1").getBoundingClientRect().top,
  ]);
  assert.ok(bar.top >= header - 1, `the back bar ${bar.top} is not under the header ${header}`);
  assert.ok(line >= bar.bottom - 1, `L1 ${line} is below the back bar ${bar.bottom}`);
  assert.equal(new URL(await back.getAttribute("href"), server.origin).hash, `#${claim}`, "back links to the claim");
  // With the history to go back in, back goes back (issue 26): the page as
  // the reader left it, the claim where it was.
  await Promise.all([page.waitForURL((u) => u.pathname === "/en/components/rocblas/"), back.click()]);
  await page.waitForLoadState("load");
  const top = await page.locator(`#${claim}`).evaluate((el) => el.getBoundingClientRect().top);
  const headerNow = await page.evaluate(() => document.querySelector(".site-header").getBoundingClientRect().bottom);
  assert.ok(top >= headerNow && top < 900, `the claim ${top} is on screen, below the header ${headerNow}`);
  assert.deepEqual(page.problems(), []);
  await context.close();
});

test("switching language on an evidence page keeps the line", async () => {
  const { context, page } = await open("/ja/evidence/phase-c/rocblas-library.txt/#L4");
  await Promise.all([page.waitForURL("**/en/evidence/**"), page.locator('.switcher a[data-view="en"]').click()]);
  assert.equal(new URL(page.url()).hash, "#L4");
  await context.close();
});

test("the matrix: every column in view at 1280 and 1920 px, one card per row on a phone", async () => {
  for (const viewport of [DESKTOP, WIDE]) {
    const { context, page } = await open("/en/generations/", { viewport });
    const m = await page.evaluate(() => {
      const box = document.querySelector(".view--matrix");
      const last = box.querySelector("thead th:last-child").getBoundingClientRect();
      return { scroll: box.scrollWidth, client: box.clientWidth, right: last.right, width: innerWidth };
    });
    assert.ok(m.scroll <= m.client, `${viewport.width}px: the matrix does not scroll (${m.scroll} > ${m.client})`);
    assert.ok(m.right <= m.width, `${viewport.width}px: its last column is in view (${m.right} > ${m.width})`);
    await context.close();
  }
  const { context, page } = await open("/en/generations/", { viewport: PHONE, isMobile: true });
  const cards = await page.evaluate(() => {
    const box = document.querySelector(".view--matrix");
    const rows = [...box.querySelectorAll("tbody tr")];
    return {
      scroll: box.scrollWidth - box.clientWidth,
      page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      wide: rows.every((r) => r.getBoundingClientRect().width >= box.clientWidth - 2),
      labels: [...box.querySelectorAll("tbody tr:first-child td")].map((td) => getComputedStyle(td, "::before").content),
      columns: [...box.querySelectorAll("thead th")].slice(1).map((th) => `"${th.textContent}"`),
    };
  });
  assert.equal(cards.scroll, 0, "no sideways scroll inside the matrix");
  assert.equal(cards.page, 0, "nor of the page");
  assert.ok(cards.wide, "each row is a full-width card");
  assert.deepEqual(cards.labels, cards.columns, "each cell says its column");
  await page.screenshot({ path: artifact("matrix-en-phone-cards.png"), fullPage: true });
  assert.deepEqual(page.problems(), []);
  await context.close();
});

test("a wide table says it scrolls, above the table", async () => {
  const { context, page } = await open("/en/generations/", { viewport: { width: 900, height: 900 } });
  const wide = await page.evaluate(() =>
    [...document.querySelectorAll(".table-wrap, .prose table")].filter((b) => b.scrollWidth > b.clientWidth + 2),
  );
  const hints = await page.evaluate(() =>
    [...document.querySelectorAll(".table-wrap, .prose table")]
      .filter((b) => b.scrollWidth > b.clientWidth + 2)
      .map((b) => b.previousElementSibling?.classList.contains("scroll-hint") ?? false),
  );
  assert.equal(hints.length, wide.length);
  assert.ok(hints.every(Boolean), "every box that scrolls has a hint before it");
  await context.close();
});

/** Text nodes of the page in the wrong script, outside the allowed parts. */
async function foreign(page, want) {
  return page.evaluate((want) => {
    const ja = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
    const sentence = /[A-Za-z]{2,}(?:[ ,'’-]+[A-Za-z]{2,}){3,}/;
    const allowed = ".switcher, .ev-lines, .ev-header, code, pre, svg, [hidden], .visually-hidden, .skip-link";
    const out = [];
    const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      const el = n.parentElement;
      const text = n.textContent.trim();
      if (!text || el.closest(allowed)) continue;
      // Parts marked as the other language (an untranslated segment, with
      // its notice) say so; the rest must be in the page's language.
      const lang = el.closest("[lang]")?.getAttribute("lang");
      if (lang !== want) continue;
      if (want === "en" ? ja.test(text) : sentence.test(text) && !ja.test(text)) out.push(text.slice(0, 60));
    }
    return out;
  }, want);
}

test("no language mixing: /en/ pages hold no Japanese, /ja/ chrome no English", async () => {
  const context = await browser.newContext({ viewport: DESKTOP });
  const page = await watchedPage(context, server.origin);
  const failures = [];
  for (const p of sitePages().filter((p) => p.startsWith("/en/") || p.startsWith("/ja/"))) {
    await page.goto(server.origin + p);
    const want = p.startsWith("/en/") ? "en" : "ja";
    const found = await foreign(page, want);
    // /ja/ pages quote English product names and commands; only whole
    // English sentences of the theme's own making count there.
    const bad = want === "en" ? found : found.filter((t) => /^(Search|Claims|Evidence|What you|This page|Rests on|Back to)/.test(t));
    if (bad.length) failures.push(`${p}: ${bad.slice(0, 3).join(" | ")}`);
  }
  await context.close();
  assert.deepEqual(failures, []);
});

test("a shared table header is written once per language", async () => {
  // ROCm-pages' quantization map is a generated table in a shared part:
  // its header comes from book.toml's [kinds] label in the page's language.
  for (const [lang, word, other] of [["en", "Layer to map", "見る層"], ["ja", "見る層", "Layer to map"]]) {
    const { context, page } = await open(`/${lang}/observers/`);
    const heads = await page.$$eval("main th", (ths) => ths.map((t) => t.textContent.trim()));
    assert.ok(heads.includes(word), `${lang}: ${heads.join(", ")}`);
    assert.ok(!heads.some((h) => h.includes(other)), `${lang}: no ${other}`);
    await context.close();
  }
  // The parallel view shows the shared table once in each language.
  const { context, page } = await open("/ja-en/observers/");
  const heads = await page.$$eval("main th", (ths) => ths.map((t) => t.textContent.trim()));
  assert.equal(heads.filter((h) => h === "見る層").length, 1, heads.join(", "));
  assert.equal(heads.filter((h) => h === "Layer to map").length, 1, heads.join(", "));
  await context.close();
});

test("the chooser is all bilingual chrome, and reachable again after a choice", async () => {
  const { context, page } = await open("/");
  const mixed = await page.evaluate(() => {
    const out = [];
    const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      if (n.textContent.trim() && !n.parentElement.closest("[lang]:not(html)") && !n.parentElement.closest("h1, .site-title, .chooser__description")) out.push(n.textContent.trim());
    }
    return out;
  });
  assert.deepEqual(mixed.filter((t) => !/^[/|·]$/.test(t)), [], "every text on the chooser says its language");
  await Promise.all([page.waitForURL("**/en/"), page.locator('.chooser__choice[data-view="en"]').click()]);
  await Promise.all([page.waitForURL(`${server.origin}/#choose`), page.locator('.site-footer a[href$="#choose"]').click()]);
  await page.waitForTimeout(300);
  assert.equal(new URL(page.url()).pathname, "/", "the chooser stays");
  await page.goto(`${server.origin}/`);
  await page.waitForURL("**/en/");
  await context.close();
});

test("404: the language of the path first, with the nearest pages that exist", async () => {
  const { context, page } = await open("/en/components/no-such-page/");
  await page.locator(".not-found__lang[lang=en] .not-found__suggestions a").first().waitFor();
  assert.equal(await page.getAttribute("html", "lang"), "en");
  assert.equal(await page.locator('.not-found__lang[lang="ja"]').isVisible(), false);
  const links = await page.$$eval(".not-found__lang[lang=en] .not-found__suggestions a", (as) => as.map((a) => new URL(a.href).pathname));
  assert.deepEqual(links, ["/en/components/", "/en/"]);
  assert.equal(new URL(await page.locator(".site-title").getAttribute("href"), server.origin).pathname, "/en/");
  assert.deepEqual(await foreign(page, "en"), []);
  await context.close();
});

test("search: an exact title first, every counted result reachable, claims by text, Esc and /", async () => {
  for (const [lang, q, want] of [["en", "rocBLAS", "/en/components/rocblas/"], ["ja", "rocBLAS", "/ja/components/rocblas/"]]) {
    const { context, page } = await open(`/${lang}/`);
    await page.keyboard.press("/");
    assert.equal(await page.evaluate(() => document.activeElement.id), "site-search-input", "/ focuses search");
    await page.keyboard.type(q);
    await page.waitForFunction((q) => document.getElementById("site-search")?.dataset.done === q, q);
    const first = await page.locator(".search-result__title").first().getAttribute("href");
    assert.equal(new URL(first, server.origin).pathname, want, `${q}: the page titled ${q} first`);
    const n = Number((await page.locator(".site-search__count").textContent()).match(/\d+/)[0]);
    const more = page.locator(".site-search__more");
    while (await more.isVisible()) {
      const before = await page.locator(".search-result").count();
      await more.click();
      await page.waitForFunction((b) => document.querySelectorAll(".search-result").length > b, before);
    }
    assert.equal(await page.locator(".search-result").count(), n, `${lang}: "${n} results" are all reachable`);
    const excerpts = await page.$$eval(".search-result__excerpt", (ps) => ps.map((p) => p.textContent));
    assert.ok(!excerpts.some((e) => /aboutrocBLAS/i.test(e)), "no words run together");
    // Esc closes the results from anywhere, not only from the box.
    await page.evaluate(() => document.activeElement.blur());
    assert.equal(await page.locator(".site-search__panel").isVisible(), true);
    await page.keyboard.press("Escape");
    assert.equal(await page.locator(".site-search__panel").isVisible(), false);
    assert.deepEqual(page.problems(), []);
    await context.close();
  }
  for (const lang of ["en", "ja"]) {
    const { context, page } = await open(`/${lang}/`);
    await page.locator("#site-search-input").fill("quant-matmul-split");
    await page.waitForFunction(() => document.getElementById("site-search")?.dataset.done === "quant-matmul-split");
    const text = await page.locator('.search-result__claim[data-claim="quant-matmul-split"] .search-result__claim-text').first().textContent();
    const own = await page.evaluate(async () => {
      const doc = new DOMParser().parseFromString(await (await fetch("/" + document.documentElement.lang + "/observers/")).text(), "text/html");
      // The claim's text is the inline claim's, after its badge.
      const claim = doc.querySelector("#claim-quant-matmul-split .claim");
      return [...claim.childNodes].filter((n) => !["badge", "answer", "answer-none", "claim__settle"].some((c) => n.classList?.contains(c))).map((n) => n.textContent).join("").trim();
    });
    assert.equal(text, own, `${lang}: a matched claim shows its own text, not its id`);
    await context.close();
  }
});

test("status chain: full labels, a box sized to the drawing, nodes that link, alt text in words", async () => {
  for (const lang of ["en", "ja"]) {
    const { context, page } = await open(`/${lang}/observers/`);
    const svg = page.locator(".diagram--chain svg");
    const texts = await svg.locator("text").allTextContents();
    assert.ok(!texts.some((t) => t.includes("…")), `${lang}: no label is cut`);
    const join = (s) => s.replace(/\s+/g, "");
    const drawn = join(texts.join(""));
    for (const status of await page.$$eval(".observer-card__status .claim", (els) =>
      els.map((e) => [...e.childNodes].filter((n) => !["badge", "answer", "answer-none", "claim__settle"].some((c) => n.classList?.contains(c))).map((n) => n.textContent).join("").trim()),
    )) {
      assert.ok(drawn.includes(join(status)), `${lang}: the chain says "${status}" in full`);
    }
    const [box, drawnBox] = await svg.evaluate((s) => {
      const b = s.getBBox();
      const v = s.viewBox.baseVal;
      return [{ w: v.width, h: v.height }, { w: b.width, h: b.height }];
    });
    assert.ok(drawnBox.h >= box.h * 0.85 && drawnBox.w >= box.w * 0.6, `${lang}: viewBox ${JSON.stringify(box)} fits the drawing ${JSON.stringify(drawnBox)}`);
    const label = await svg.getAttribute("aria-label");
    assert.ok(!/\bn\d\b/.test(label) && label.includes("→"), `${lang}: alt text in words: ${label}`);
    const links = await svg.locator("a").evaluateAll((as) => as.map((a) => new URL(a.getAttribute("href"), location.href).pathname));
    assert.equal(links.length, await page.locator(".observer-card").count(), "every node links to its page");
    assert.ok(links.every((l) => l.startsWith(`/${lang}/observers/`)), links.join(", "));
    await context.close();
  }
});

test("dark mode: diagrams use the dark palette", async () => {
  const lum = (rgb) => {
    const [r, g, b] = rgb.match(/\d+(\.\d+)?/g).slice(0, 3).map(Number);
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
  };
  for (const path of ["/en/observers/", "/en/components/rocm-bundle/"]) {
    const { context, page } = await open(path, { colorScheme: "dark" });
    const d = page.locator(".diagram").first();
    const [bg, stroke, text] = await d.evaluate((fig) => [
      getComputedStyle(fig).backgroundColor,
      getComputedStyle(fig.querySelector("path[stroke]")).stroke,
      getComputedStyle(fig).color,
    ]);
    assert.ok(lum(bg) < 0.2, `${path}: dark panel, got ${bg}`);
    assert.ok(lum(stroke) > 0.6, `${path}: light edges, got ${stroke}`);
    assert.ok(lum(text) > 0.6, `${path}: light text, got ${text}`);
    await context.close();
  }
});

test("the parallel view keeps both languages in generated views, and a shared title once", async () => {
  for (const path of ["/ja-en/generations/", "/ja-en/components/", "/ja-en/"]) {
    const { context, page } = await open(path);
    for (const lang of ["ja", "en"]) {
      assert.ok((await page.locator(`.view-lang[lang="${lang}"] .view-table, .pr__col[lang="${lang}"] .view-table`).count()) >= 1, `${path}: ${lang} view`);
    }
    await context.close();
  }
  const { context, page } = await open("/ja-en/components/rocblas/");
  assert.equal((await page.locator("main h1").textContent()).trim(), "rocBLAS");
  await context.close();
});

test("claims in context: cells named by row and column, premises and entities by name", async () => {
  let { context, page } = await open("/en/open-questions/");
  const ctx = await page.$$eval(".claim__context", (els) => els.map((e) => e.textContent));
  assert.ok(ctx.some((c) => /^gfx942 .* · .+/.test(c)), ctx.join(" | "));
  await context.close();
  ({ context, page } = await open("/en/components/rocblas/"));
  assert.equal(await page.locator(".from-link code").count(), 0, "premises by text, not by id");
  assert.equal(await page.locator(".entity code").count(), 0, "the entity by name, not by key");
  await context.close();
});

test("a confirmed claim resting only on a transcript says so on its badge; the legend explains", async () => {
  const { context, page } = await open("/en/components/rocblas/");
  const label = await page.locator("a.badge--confirmed").first().textContent();
  assert.match(label, /Confirmed · per record/);
  assert.match(await page.locator(".legend__kinds").textContent(), /transcript/);
  await context.close();
  const ev = await open("/en/evidence/phase-c/rocblas-library.txt/");
  assert.match(await ev.page.locator(".ev-header").textContent(), /Transcript: restates/);
  await ev.context.close();
});

test("Japanese typography reaches /ja/ pages", async () => {
  const { context, page } = await open("/ja/components/rocblas/");
  const ja = await page.evaluate(() => {
    const s = getComputedStyle(document.querySelector("main p"));
    return [s.fontFamily, parseFloat(s.lineHeight) / parseFloat(s.fontSize)];
  });
  await page.goto(`${server.origin}/ja-en/components/rocblas/`);
  const col = await page.evaluate(() => {
    const s = getComputedStyle(document.querySelector('.pr__col[lang="ja"] p'));
    return [s.fontFamily, parseFloat(s.lineHeight) / parseFloat(s.fontSize)];
  });
  assert.equal(ja[0], col[0], "the same font as the ja column of the parallel view");
  assert.ok(Math.abs(ja[1] - 1.8) < 0.05, `line height 1.8: ${ja[1]}`);
  assert.match(ja[0], /Hiragino Sans/);
  await context.close();
});

test("phones: logs wrap, the page list opens as a drawer", async () => {
  const { context, page } = await open("/en/evidence/phase-c/rocblas-library.txt/", { viewport: PHONE, isMobile: true });
  const [scroll, client] = await page.locator(".ev-lines").evaluate((el) => [el.scrollWidth, el.clientWidth]);
  assert.ok(scroll <= client + 1, `log lines wrap: ${scroll} > ${client}`);
  await page.goto(`${server.origin}/en/components/rocblas/`);
  const button = page.locator("button.nav-jump");
  await button.click();
  const nav = await page.locator("#site-nav").evaluate((n) => {
    const b = n.getBoundingClientRect();
    return { top: b.top, right: b.right, visible: getComputedStyle(n).position === "fixed" };
  });
  assert.ok(nav.visible && nav.top === 0 && nav.right <= PHONE.width, JSON.stringify(nav));
  assert.equal(await button.getAttribute("aria-expanded"), "true");
  await page.keyboard.press("Escape");
  assert.equal(await button.getAttribute("aria-expanded"), "false");
  await context.close();
});

test("a long page lists its sections (on this page)", async () => {
  const { context, page } = await open("/en/observers/");
  const items = await page.$$eval(".toc a", (as) => as.map((a) => a.getAttribute("href")));
  assert.ok(items.length >= 3, items.join(", "));
  for (const href of items) assert.equal(await page.locator(decodeURIComponent(href).replace(/^#/, "#")).count(), 1, href);
  await context.close();
});

test("gallery: every view × ja/en/ja-en × desktop/phone × light/dark", async () => {
  const views = [
    ["home", ""],
    ["hub", "components/"],
    ["matrix", "generations/"],
    ["observers", "observers/"],
    ["open-questions", "open-questions/"],
    ["component", "components/rocblas/"],
    ["evidence", "evidence/phase-c/rocblas-library.txt/#L1-L2"],
  ];
  let n = 0;
  for (const scheme of ["light", "dark"]) {
    for (const [device, viewport] of [["desktop", DESKTOP], ["phone", PHONE]]) {
      const context = await browser.newContext({ viewport, colorScheme: scheme, isMobile: device === "phone" });
      const page = await watchedPage(context, server.origin);
      for (const tree of ["ja", "en", "ja-en"]) {
        for (const [name, path] of views) {
          // Evidence pages exist per language; the parallel view links to the ja ones.
          const t = name === "evidence" && tree === "ja-en" ? "ja" : tree;
          await page.goto(`${server.origin}/${t}/${path}`);
          await page.screenshot({ path: artifact(`gallery-${name}-${tree}-${device}-${scheme}.png`), fullPage: name !== "evidence" });
          n += 1;
        }
      }
      assert.deepEqual(page.problems(), []);
      await context.close();
    }
  }
  assert.equal(n, 7 * 3 * 2 * 2);
});

test("a wide dependency graph opens with its root on screen", async () => {
  const { context, page } = await open("/en/components/rocm-bundle/");
  const fig = page.locator(".diagram").first();
  await fig.scrollIntoViewIfNeeded();
  const seen = await fig.evaluate((f) => {
    const box = f.getBoundingClientRect();
    // Node labels are the library's name, then its class on a second line.
    const root = [...f.querySelectorAll("text")].find((t) => t.textContent.trim().startsWith("libggml-hip.so")).getBoundingClientRect();
    return root.left >= box.left && root.right <= box.right;
  });
  assert.ok(seen, "the root node is inside the visible part of the panel");
  await context.close();
});

test("the component hub is one card per component on a phone", async () => {
  const { context, page } = await open("/en/components/", { viewport: PHONE, isMobile: true });
  const hub = await page.evaluate(() => {
    const box = document.querySelector(".view--hub");
    return {
      scroll: box.scrollWidth - box.clientWidth,
      display: getComputedStyle(box.querySelector("tbody tr")).display,
      labels: [...box.querySelectorAll("tbody tr:first-child td")].map((td) => getComputedStyle(td, "::before").content),
    };
  });
  assert.equal(hub.scroll, 0);
  assert.equal(hub.display, "block");
  // Each cell is labelled by its column (ROCm-pages' hub has three), a
  // column by its question where it asks one (issue 40, trial L4).
  assert.deepEqual(hub.labels, ['"LLM inference role"', `"Loaded into Ollama's runner? (Phase C status (loaded))"`, '"Dispatched during inference?"']);
  await context.close();
});
