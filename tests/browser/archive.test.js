// The one-file archive (`kansoku build --archive FILE`), opened in Chromium
// from a file:// URL with every request that is not the file itself
// aborted and recorded: the archive must make none. Then every in-file
// link must land on an element, each address must show its one section
// (a claim's page around the claim, an evidence page with its cited range
// highlighted), the filter must narrow the index, and axe-core must find
// no serious violation in the index or in the sections it opens.
//
// .ci/run writes the archive to target/rocm-pages.html (KANSOKU_ARCHIVE
// names another).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { launch, repo, artifact } from "./lib.js";

const require = createRequire(import.meta.url);
const AXE = fs.readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
const file = path.resolve(process.env.KANSOKU_ARCHIVE ?? path.join(repo, "target", "rocm-pages.html"));
const url = pathToFileURL(file).href;

let browser;
before(async () => {
  assert.ok(fs.existsSync(file), `no archive at ${file}: run \`kansoku build --archive ${file}\` first`);
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** A page on the archive whose every request but the file is aborted and named. */
async function open(options = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  const attempted = [];
  await context.route("**/*", (route) => {
    const u = route.request().url();
    if (u === url || u.startsWith(`${url}#`)) return route.continue();
    attempted.push(u);
    return route.abort();
  });
  const page = await context.newPage();
  const problems = [];
  page.on("request", (r) => {
    const u = r.url();
    if (!u.startsWith(url) && !u.startsWith("data:")) problems.push(`request: ${u}`);
  });
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  await page.goto(url);
  page.problems = () => [...attempted.map((u) => `attempted: ${u}`), ...problems.splice(0)];
  return { context, page };
}

/** The ids of the sections shown now. */
const shown = (page) =>
  page.evaluate(() =>
    [...document.querySelectorAll(".kx-page")].filter((s) => getComputedStyle(s).display !== "none").map((s) => s.id),
  );

async function go(page, fragment) {
  await page.evaluate((f) => {
    location.hash = f;
  }, fragment);
  await page.waitForFunction((f) => location.hash === `#${f}`, fragment);
}

test("the archive opens from file:// and asks for nothing else", async () => {
  const { context, page } = await open();
  assert.deepEqual(await shown(page), ["start"], "without a fragment the index shows");
  for (const f of ["ja/", "en/components/rocblas/", "ja/evidence/phase-c/runner-maps.txt/L3", "ja-en/"]) {
    await go(page, f);
  }
  // Every section laid out once, so that anything it would load, loads.
  await page.evaluate(async () => {
    for (const s of document.querySelectorAll(".kx-page")) {
      s.style.display = "block";
      s.getBoundingClientRect();
      s.style.display = "";
    }
  });
  await page.waitForTimeout(300);
  assert.deepEqual(page.problems(), []);
  const policy = await page.evaluate(
    () => document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.content ?? "",
  );
  assert.match(policy, /default-src 'none'/);
  await context.close();
});

test("every in-file link lands, every id is unique, and no link leads out of the file but to other sites", async () => {
  const { context, page } = await open();
  const r = await page.evaluate(() => {
    const find = (f) => {
      let el = document.getElementById(f);
      if (!el) {
        try {
          el = document.getElementById(decodeURIComponent(f));
        } catch {
          el = null;
        }
      }
      return el;
    };
    const links = [...document.querySelectorAll("a[href]")];
    const inner = links.filter((a) => a.getAttribute("href").startsWith("#"));
    const missing = [...new Set(inner.map((a) => a.getAttribute("href")).filter((h) => !find(h.slice(1))))];
    const outward = links
      .map((a) => a.getAttribute("href"))
      .filter((h) => !h.startsWith("#") && !/^(https?|mailto):/.test(h));
    const counts = new Map();
    for (const el of document.querySelectorAll("[id]")) counts.set(el.id, (counts.get(el.id) ?? 0) + 1);
    const duplicates = [...counts].filter(([, n]) => n > 1).map(([id]) => id);
    const loads = [...document.querySelectorAll("[src], link[href], script[src], iframe, object, embed")]
      .map((el) => el.getAttribute("src") ?? el.getAttribute("href") ?? el.tagName)
      .filter((s) => !String(s).startsWith("data:"));
    return { inner: inner.length, missing, outward: [...new Set(outward)], duplicates, loads };
  });
  assert.ok(r.inner > 5000, `${r.inner} in-file links`);
  assert.deepEqual(r.missing, [], "links without their target");
  assert.deepEqual(r.outward, [], "links that would leave the file for a path");
  assert.deepEqual(r.duplicates, [], "ids used twice");
  assert.deepEqual(r.loads, [], "elements that load something");
  await context.close();
});

test("an address shows its section: a page, a claim on it, an evidence range highlighted", async () => {
  const { context, page } = await open();
  await go(page, "en/components/rocblas/");
  assert.deepEqual(await shown(page), ["en/components/rocblas/"]);
  assert.equal(await page.title(), await page.evaluate(() => document.getElementById("en/components/rocblas/").dataset.title));
  assert.match(await page.title(), /rocBLAS/);
  // A claim: its page shows, the claim is on screen.
  const claim = await page.evaluate(() => {
    const a = document.querySelector('#ja\\/components\\/rocblas\\/ a.claim-link__anchor');
    return a.getAttribute("href").slice(1);
  });
  await go(page, claim);
  assert.deepEqual(await shown(page), ["ja/components/rocblas/"]);
  const inView = await page.evaluate((id) => {
    const r = document.getElementById(id).getBoundingClientRect();
    return r.top >= 0 && r.top < innerHeight;
  }, claim);
  assert.ok(inView, `${claim} is on screen`);
  // An evidence range: the page's own rule, rewritten, highlights its lines.
  const range = await page.evaluate(() => document.querySelector("#ja\\/evidence\\/phase-c\\/runner-maps\\.txt\\/ .ev-range").id);
  await go(page, range);
  assert.deepEqual(await shown(page), ["ja/evidence/phase-c/runner-maps.txt/"]);
  const [first, last] = range.split("/").at(-1).slice(1).split("-L").map(Number);
  const marked = await page.evaluate(
    () =>
      [...document.querySelectorAll("#ja\\/evidence\\/phase-c\\/runner-maps\\.txt\\/ .ev-line")]
        .map((li, i) => [i + 1, getComputedStyle(li).getPropertyValue("--line-bg").trim()])
        .filter(([, bg]) => bg !== "" && bg !== "transparent" && !bg.startsWith("var(--line"))
        .map(([n]) => n),
  );
  const want = Array.from({ length: last - first + 1 }, (_, i) => first + i);
  assert.deepEqual(marked, want, `lines ${first}-${last}, and only those, are highlighted`);
  // The language switch goes to the same page in the other language.
  await go(page, "ja/components/rocblas/");
  await page.click('#ja\\/components\\/rocblas\\/ .switcher a[hreflang="en"]');
  await page.waitForFunction(() => location.hash === "#en/components/rocblas/");
  assert.deepEqual(await shown(page), ["en/components/rocblas/"]);
  await page.screenshot({ path: artifact("archive-en-rocblas.png") });
  assert.deepEqual(page.problems(), []);
  await context.close();
});

test("the filter narrows the index of pages, evidence and claims", async () => {
  const { context, page } = await open();
  const count = () =>
    page.evaluate(() => [...document.querySelectorAll(".kx-list > li")].filter((li) => !li.hidden).length);
  const total = await count();
  assert.ok(total > 150, `${total} entries`);
  await page.fill("#kx-filter", "rocblas");
  const some = await count();
  assert.ok(some > 0 && some < total, `rocblas: ${some} of ${total}`);
  const texts = await page.evaluate(() =>
    [...document.querySelectorAll(".kx-list > li")].filter((li) => !li.hidden).map((li) => li.textContent.toLowerCase()),
  );
  assert.ok(texts.every((t) => t.includes("rocblas")), "every entry shown holds the words");
  assert.equal(await page.textContent("#kx-count"), `${some} / ${total}`);
  await page.fill("#kx-filter", "ＲＯＣＢＬＡＳ");
  assert.equal(await count(), some, "full-width letters match as their ASCII forms");
  await page.fill("#kx-filter", "no such thing here");
  assert.equal(await count(), 0);
  await page.fill("#kx-filter", "");
  assert.equal(await count(), total);
  await page.screenshot({ path: artifact("archive-index.png") });
  assert.deepEqual(page.problems(), []);
  await context.close();
});

async function axe(page) {
  // Evaluated, not added as a script: the archive's policy refuses scripts
  // it does not know.
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ["violations"] });
    return r.violations.map(
      (v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | ")}`,
    );
  });
}

test("axe-core: no violation in the index and the sections it opens, light and dark", async () => {
  const failures = [];
  for (const colorScheme of ["light", "dark"]) {
    const { context, page } = await open({ colorScheme });
    for (const f of ["", "ja/", "en/", "ja-en/", "en/components/rocblas/", "ja/generations/", "en/evidence/phase-c/runner-maps.txt/", "ja/evidence/"]) {
      if (f !== "") await go(page, f);
      const v = await axe(page);
      if (v.length) failures.push(`${colorScheme} #${f}\n    ${v.join("\n    ")}`);
    }
    await context.close();
  }
  assert.deepEqual(failures, []);
});

// Issue 39 (attacks M3): whatever a page's raw HTML or the site's own
// stylesheet holds, the archive asks for nothing and stays where it is.
// A site is built with the kansoku binary (KANSOKU_BIN, or the release
// build) from tests/fixtures/basic plus pages whose bodies try every way
// out a Content-Security-Policy does not stop by itself (a meta refresh,
// also inside SVG, after the body, inside noscript, across two sections
// and in MathML and SVG nested as lol_html and a browser read apart), and
// those it does (frames, objects, links, forms, images, script, styles);
// a server on 127.0.0.1 logs every request. Opened from file://, with
// every section laid out, the archive must have made none and still be at
// its own address after 3 s.
test("hostile raw HTML and CSS make no request and cannot navigate the archive away", async () => {
  const { spawnSync } = await import("node:child_process");
  const os = await import("node:os");
  const http = await import("node:http");
  const BIN = process.env.KANSOKU_BIN ?? path.join(repo, "target", "release", "kansoku");
  const requests = [];
  const server = http.createServer((req, res) => {
    requests.push(req.url);
    res.writeHead(200, { "content-type": "text/html" }).end("<p>gone</p>");
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  const at = `http://127.0.0.1:${server.address().port}`;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "kansoku-hostile-"));
  try {
    const site = path.join(tmp, "site");
    fs.cpSync(path.join(repo, "tests", "fixtures", "basic"), site, { recursive: true });
    const page = (title, body) =>
      `+++\ntitle = { ja = "${title}", en = "${title}" }\n+++\n\n::: ja\n${title}\n:::\n\n::: en\n${title}\n:::\n\n${body}\n`;
    const vectors = [
      `<meta http-equiv="refresh" content="0;url=${at}/meta-refresh">`,
      `<base href="${at}/base/">`,
      `<a href="after-base">after base</a>`,
      `<svg><meta http-equiv="refresh" content="0;url=${at}/svg-meta"></svg>`,
      `a <noscript><p title="</noscript><meta http-equiv=refresh content='0;url=${at}/noscript'>"></p></noscript> b`,
      `<iframe src="${at}/iframe"></iframe>`,
      `<iframe srcdoc="<meta http-equiv='refresh' content='0;url=${at}/srcdoc'>"></iframe>`,
      `<object data="${at}/object"></object>`,
      `<embed src="${at}/embed">`,
      `<portal src="${at}/portal"></portal>`,
      `<link rel="prefetch" href="${at}/prefetch">`,
      `<link rel="preconnect" href="${at}/preconnect">`,
      `<link rel="dns-prefetch" href="${at}/dns-prefetch">`,
      `<link rel="prerender" href="${at}/prerender">`,
      `<form action="${at}/form"><input autofocus onfocus="location='${at}/onfocus'"><button formaction="${at}/formaction">go</button></form>`,
      `<img src="${at}/img" onerror="location='${at}/onerror'">`,
      `<a ping="${at}/ping" href="#nowhere">ping</a>`,
      `<svg width="20" height="20"><a href="${at}/svg-a"><text y="10">a</text></a><image href="${at}/svg-image"/><set attributeName="href" to="${at}/svg-set"/></svg>`,
      `<style>@import url(${at}/import); .x{background:url(${at}/css-url)}</style><div class="x" style="background:url(${at}/style-url)">x</div>`,
      `<video poster="${at}/poster" src="${at}/video" autoplay></video>`,
      `<script>location='${at}/script'</script>`,
      `<details open ontoggle="location='${at}/ontoggle'"><summary>s</summary></details>`,
      // MathML and SVG nested as a browser and lol_html read apart: the
      // <style> is a foreign element to Chromium, raw text to lol_html.
      `<math><mtext><mglyph><style><meta http-equiv="refresh" content="0;url=${at}/mglyph"></style></mglyph></mtext></math>`,
      `<math><mi><malignmark><style><meta http-equiv="refresh" content="0;url=${at}/malignmark"></style></malignmark></mi></math>`,
      `<svg><math><mtext><style><meta http-equiv="refresh" content="0;url=${at}/svg-math"></style></mtext></math></svg>`,
      `<math><svg><desc><style><meta http-equiv="refresh" content="0;url=${at}/math-svg"></style></desc></svg></math>`,
      `<math><mtext><mglyph><style><b>b</b><link rel="preconnect" href="${at}/foreign-preconnect"></style></mglyph></mtext></math>`,
      `</body></html>`,
      `<meta http-equiv="refresh" content="0;url=${at}/after-body">`,
    ];
    fs.writeFileSync(path.join(site, "content", "notes", "b-hostile.md"), page("Hostile", vectors.join("\n\n")));
    // Left open in one page, an element ends in the next section, where a
    // browser then reads the rest of an attribute as a tag. (After the
    // page above in the archive, so that it does not hide that page.)
    fs.writeFileSync(path.join(site, "content", "notes", "y-open.md"), page("Open", "<textarea>"));
    fs.writeFileSync(
      path.join(site, "content", "notes", "z-cross.md"),
      page("Cross", `<p title="</textarea><meta http-equiv=refresh content='0;url=${at}/cross-section'>">x</p>`),
    );
    fs.mkdirSync(path.join(site, "static"), { recursive: true });
    fs.writeFileSync(
      path.join(site, "static", "kansoku.css"),
      `body { color: #111 }\n/* </style><meta http-equiv="refresh" content="0;url=${at}/css-breakout"> */\n`,
    );
    const archive = path.join(tmp, "hostile.html");
    const built = spawnSync(BIN, ["build", "--archive", archive, "--root", site], { encoding: "utf8" });
    assert.equal(built.status, 0, `kansoku build --archive failed:\n${built.stderr}`);
    const fileUrl = pathToFileURL(archive).href;
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const tab = await context.newPage();
    const navigations = [];
    tab.on("framenavigated", (f) => {
      if (f === tab.mainFrame()) navigations.push(f.url());
    });
    await tab.goto(fileUrl);
    for (const f of ["en/notes/b-hostile/", "ja/notes/b-hostile/", "en/notes/z-cross/"]) {
      await tab.evaluate((x) => (location.hash = x), f).catch(() => {});
    }
    // Every section laid out, so that anything in one would load.
    await tab
      .evaluate(() => {
        for (const s of document.querySelectorAll(".kx-page")) s.style.display = "block";
      })
      .catch(() => {});
    await tab.waitForTimeout(3000);
    assert.deepEqual(requests, [], `requests reached ${at}`);
    // As the browser parsed it: no element or attribute left that a
    // policy may not stop (each vector, not only the first to fire).
    const left = await tab.evaluate(() =>
      [
        ...document.querySelectorAll(
          "meta[http-equiv]:not([http-equiv='Content-Security-Policy']), body meta, base, iframe, frame, object, embed, portal, body link, noscript, set, [onfocus], [onerror], [ontoggle], [ping], [srcdoc]",
        ),
      ].map((el) => el.outerHTML.slice(0, 80)),
    );
    assert.deepEqual(left, []);
    assert.ok(tab.url().startsWith(fileUrl), `the archive navigated to ${tab.url()}`);
    assert.ok(
      navigations.every((u) => u.startsWith(fileUrl)),
      `navigations: ${navigations.join(", ")}`,
    );
    await context.close();
  } finally {
    server.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});

// Issue 40, trial L7: back from a log lands where the reader left (the
// hub at 617 px came back at 0), by the log's "Back to the claim" link as
// by the browser's Back.
test("back from a log returns to the place left, by the link or by Back (trial L7)", async () => {
  const { context, page } = await open();
  await page.goto(`${url}#en/components/`);
  const badge = page.locator('[id="en/components/"] a.badge[href^="#en/evidence/"]').nth(6);
  await badge.scrollIntoViewIfNeeded();
  await page.evaluate(() => window.scrollBy(0, -200));
  const left = await page.evaluate(() => window.scrollY);
  assert.ok(left > 300, `scrolled into the hub: ${left}`);
  for (const how of ["link", "back"]) {
    await badge.click();
    await page.waitForFunction(() => location.hash.startsWith("#en/evidence/"));
    const back = page.locator(".kx-page:target .evidence__back, .kx-page:has(:target) .evidence__back").first();
    assert.equal(await back.isVisible(), true, "the log offers the way back to the claim");
    assert.equal(await back.locator("a").getAttribute("href"), "#en/components/");
    if (how === "link") await back.locator("a").click();
    else await page.goBack();
    await page.waitForFunction(() => location.hash === "#en/components/");
    await page.waitForTimeout(300);
    const now = await page.evaluate(() => window.scrollY);
    assert.ok(Math.abs(now - left) <= 2, `${how}: back at ${now}, left at ${left}`);
  }
  // A log opened from the index, not from a claim, offers no way back.
  await page.goto(`${url}#en/evidence/record/components.txt/`);
  assert.equal(await page.locator('[id="en/evidence/record/components.txt/"] .evidence__back').isVisible(), false);
  assert.deepEqual(page.problems(), []);
  await context.close();
});
