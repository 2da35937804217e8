// The page of a long evidence log (issue 27): what a reader who followed
// a claim's link meets in a log of thousands of lines. The page shows the
// cited lines with context and says what it leaves out; the cited range
// is highlighted exactly (the highlighting counts list items, and the
// left-out runs are items too); the index of runs jumps; axe-core finds
// nothing serious. The site is built here from the `check/clean` fixture
// with the release binary .ci/run has built.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { repo, serve, launch, watchedPage, artifact } from "./lib.js";

const require = createRequire(import.meta.url);
const AXE = fs.readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
const BIN = process.env.KANSOKU_BIN ?? path.join(repo, "target", "release", "kansoku");

let site, server, browser;
before(async () => {
  site = fs.mkdtempSync(path.join(os.tmpdir(), "kansoku-longlog-"));
  fs.cpSync(path.join(repo, "tests", "fixtures", "check", "clean"), site, { recursive: true });
  const lines = [];
  for (let n = 1; n <= 5000; n++) lines.push(`[${String(n).padStart(5)}] amdgpu: ring gfx_0.0.0 test ${n % 3 ? "passed" : "skipped"}`);
  fs.writeFileSync(path.join(site, "evidence", "logs", "long.log"), lines.join("\n") + "\n");
  const page = path.join(site, "content", "page.md");
  const claims =
    '[[claims]]\nid = "long-range"\nclass = "inferred"\nja = "範囲。"\nen = "A range."\n' +
    'evidence = [{ path = "logs/long.log", lines = "2500-2502", quote = "[ 2501] amdgpu" }]\n\n' +
    '[[claims]]\nid = "long-line"\nclass = "inferred"\nja = "一行。"\nen = "One line."\n' +
    'evidence = ["logs/long.log#L4000"]\n\n[[claims]]\n';
  fs.writeFileSync(page, fs.readFileSync(page, "utf8").replace("[[claims]]\n", claims));
  execFileSync(BIN, ["build", "--quiet", "--root", site], { stdio: ["ignore", "ignore", "inherit"] });
  server = await serve(path.join(site, "public"));
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
  if (site) fs.rmSync(site, { recursive: true, force: true });
});

async function open(url, options = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  const page = await watchedPage(context, server.origin);
  await page.goto(server.origin + url);
  return { context, page };
}

/** The numbers of the lines shown, and of those highlighted as the target range. */
function shownAndLit(page) {
  return page.evaluate(() => {
    const lines = [...document.querySelectorAll(".ev-lines > .ev-line")];
    const plain = getComputedStyle(document.querySelector(".ev-lines > .ev-line:not(:target)")).backgroundColor;
    return {
      shown: lines.map((li) => Number(li.id.slice(1))),
      lit: lines.filter((li) => getComputedStyle(li).backgroundColor !== plain).map((li) => Number(li.id.slice(1))),
      gaps: [...document.querySelectorAll(".ev-lines > .ev-gap")].map((g) => g.textContent.trim()),
    };
  });
}

test("a long log shows its opening lines and each cited line with context, and says what it leaves out", async () => {
  const { context, page } = await open("/en/evidence/logs/long.log/");
  const { shown, gaps } = await shownAndLit(page);
  const range = (a, b) => Array.from({ length: b - a + 1 }, (_, i) => a + i);
  assert.deepEqual(shown, [...range(1, 10), ...range(2497, 2505), ...range(3997, 4003)]);
  assert.deepEqual(gaps, [
    "Lines 11–2496 are not shown here. Open the raw file",
    "Lines 2506–3996 are not shown here. Open the raw file",
    "Lines 4004–5000 are not shown here. Open the raw file",
  ]);
  const intro = await page.locator(".ev-window p").innerText();
  assert.match(intro, /^This log has 5000 lines \([\d.]+ KiB\)/);
  assert.deepEqual(page.problems(), []);
  await page.screenshot({ path: artifact("longlog-en-desktop.png"), fullPage: true });
  await context.close();
});

test("the cited range is highlighted exactly, though left-out runs sit among the lines", async () => {
  const { context, page } = await open("/en/evidence/logs/long.log/#L2500-L2502");
  assert.deepEqual((await shownAndLit(page)).lit, [2500, 2501, 2502]);
  await page.goto(server.origin + "/en/evidence/logs/long.log/#L4000");
  assert.deepEqual((await shownAndLit(page)).lit, [4000]);
  // The range is in view, below the sticky header.
  const top = await page.locator("#L4000").evaluate((el) => el.getBoundingClientRect().top);
  assert.ok(top > 0 && top < 900, `line 4000 at ${top}px`);
  await context.close();
});

test("the index of runs jumps to each, naming the claims citing it", async () => {
  const { context, page } = await open("/ja/evidence/logs/long.log/");
  const runs = await page.locator(".ev-runs li").allInnerTexts();
  assert.deepEqual(runs, ["L1–L10", "L2497–L2505 long-range", "L3997–L4003 long-line"]);
  await page.locator('.ev-runs a[href="#L3997"]').click();
  assert.equal(new URL(page.url()).hash, "#L3997");
  const top = await page.locator("#L3997").evaluate((el) => el.getBoundingClientRect().top);
  assert.ok(top > 0 && top < 900, `line 3997 at ${top}px`);
  await context.close();
});

test("a long log's page passes axe-core, on a phone, dark", async () => {
  const { context, page } = await open("/ja/evidence/logs/long.log/#L2500-L2502", {
    viewport: { width: 390, height: 844 },
    colorScheme: "dark",
  });
  await page.addScriptTag({ content: AXE });
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ["violations"] }));
  const serious = result.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  assert.deepEqual(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(", ")}`), []);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px`);
  await page.screenshot({ path: artifact("longlog-ja-phone-dark.png"), fullPage: false });
  await context.close();
});
