// Reading the built site: the ja | en | 対訳 toggle (same page, same place,
// remembered), claim permalinks and copy-link, badge meanings on hover and
// focus, one click from a claim to its highlighted evidence lines and back.
// Every page visited must log no console error and no failed request.
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

const path = (page) => new URL(page.url()).pathname;
const hash = (page) => new URL(page.url()).hash;

async function fresh(options = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  const page = await watchedPage(context, server.origin);
  return { context, page };
}

test("switch ja → en → parallel on the same page, keeping the place", async () => {
  const { context, page } = await fresh();
  await page.goto(`${server.origin}/ja/components/ggml-hip/`);
  await page.evaluate(() => {
    document.getElementById("fatbin-targets").scrollIntoView({ block: "start" });
    window.scrollBy(0, 40);
  });
  await Promise.all([page.waitForURL("**/en/components/ggml-hip/**"), page.locator('.switcher a[data-view="en"]').click()]);
  assert.equal(path(page), "/en/components/ggml-hip/");
  assert.equal(hash(page), "#fatbin-targets", "the reader stays at the section they were reading");
  assert.equal(await page.getAttribute("html", "lang"), "en");
  assert.equal(await page.locator('.switcher a[aria-current="page"]').getAttribute("data-view"), "en");
  await Promise.all([page.waitForURL("**/ja-en/components/ggml-hip/**"), page.locator('.switcher a[data-view="ja-en"]').click()]);
  assert.equal(path(page), "/ja-en/components/ggml-hip/");
  assert.equal(hash(page), "#fatbin-targets");
  assert.ok(await page.locator('.pr__col[lang="ja"]').first().isVisible());
  assert.ok(await page.locator('.pr__col[lang="en"]').first().isVisible());
  // Wide screen: the ja and en columns of a pair sit side by side, row by row.
  const [ja, en] = await page.$$eval(".parallel__body .pr--pair", (rows) => {
    const r = rows[0];
    return [r.children[0].getBoundingClientRect().top, r.children[1].getBoundingClientRect().top];
  });
  assert.ok(Math.abs(ja - en) < 2, "pair aligned on one row");
  assert.deepEqual(page.problems(), []);
  await context.close();
});

test("on a phone, scrolling up to the toggle still keeps the place", async () => {
  const { context, page } = await fresh({ viewport: { width: 360, height: 800 } });
  await page.goto(`${server.origin}/ja/components/ggml-hip/`);
  await page.evaluate(() => {
    document.getElementById("gfx1201-bundles").scrollIntoView({ block: "start" });
    window.scrollBy(0, 30);
  });
  await page.waitForTimeout(1600); // the reader settles to read
  await page.evaluate(() => window.scrollTo(0, 0));
  await Promise.all([page.waitForURL("**/en/components/ggml-hip/**"), page.locator('.switcher a[data-view="en"]').click()]);
  assert.equal(hash(page), "#gfx1201-bundles");
  assert.deepEqual(page.problems(), []);
  await context.close();
});

test("the parallel view stacks ja then en on a phone", async () => {
  const { context, page } = await fresh({ viewport: { width: 360, height: 800 } });
  await page.goto(`${server.origin}/ja-en/components/ggml-hip/`);
  const [ja, en] = await page.$$eval(".parallel__body .pr--pair", (rows) => {
    const r = rows[0];
    return [r.children[0].getBoundingClientRect(), r.children[1].getBoundingClientRect()].map((b) => b.top);
  });
  assert.ok(en > ja, "English below Japanese");
  assert.deepEqual(page.problems(), []);
  await context.close();
});

test("the chosen view is remembered across pages", async () => {
  const { context, page } = await fresh();
  await page.goto(`${server.origin}/ja/components/`);
  await Promise.all([page.waitForURL("**/ja-en/components/"), page.locator('.switcher a[data-view="ja-en"]').click()]);
  await Promise.all([page.waitForURL("**/ja-en/observers/"), page.locator('.site-nav a[href$="/ja-en/observers/"]').click()]);
  assert.equal(await page.locator('.switcher a[aria-current="page"]').getAttribute("data-view"), "ja-en");
  // Back at the site root, the chooser sends the reader to the view they chose.
  await page.goto(`${server.origin}/`);
  await page.waitForURL("**/ja-en/");
  assert.equal(path(page), "/ja-en/");
  await Promise.all([page.waitForURL("**/en/"), page.locator('.switcher a[data-view="en"]').click()]);
  await page.goto(`${server.origin}/`);
  await page.waitForURL("**/en/");
  assert.equal(path(page), "/en/");
  assert.deepEqual(page.problems(), []);
  await context.close();
});

test("without JavaScript the toggle is plain links and the chooser stays", async () => {
  const { context, page } = await fresh({ javaScriptEnabled: false });
  await page.goto(`${server.origin}/`);
  assert.equal(path(page), "/");
  assert.equal(await page.locator(".chooser__choice").count(), 3);
  await page.goto(`${server.origin}/ja/components/`);
  await Promise.all([page.waitForURL("**/en/components/"), page.locator('.switcher a[data-view="en"]').click()]);
  assert.equal(path(page), "/en/components/");
  await context.close();
});

test("a claim badge opens its evidence lines highlighted, and one click leads back", async () => {
  const { context, page } = await fresh();
  await page.goto(`${server.origin}/en/components/ggml-hip/`);
  const item = page.locator("li.claim-item#claim-bundle-disasm-wave32");
  const badge = item.locator("a.badge").first();
  const target = new URL(await badge.getAttribute("href"), server.origin);
  assert.match(target.hash, /^#L\d+(-L\d+)?$/);
  await item.scrollIntoViewIfNeeded();
  await Promise.all([page.waitForURL(`**${target.pathname}**`), badge.click()]);
  assert.equal(hash(page), target.hash);
  const [, a, b] = /^#L(\d+)(?:-L(\d+))?$/.exec(target.hash);
  const first = Number(a);
  const last = Number(b ?? a);
  const marked = await page.$$eval(".ev-line", (lines) =>
    lines.map((l) => getComputedStyle(l).getPropertyValue("--line-bg").trim() !== ""),
  );
  marked.forEach((on, i) => {
    const n = i + 1;
    assert.equal(on, n >= first && n <= last, `line ${n} highlighted: ${on}`);
  });
  const firstLine = page.locator(`#L${first}`);
  assert.ok(await firstLine.isVisible(), "the cited lines are on screen");
  // Back: the script's link returns to the claim where the reader was.
  const back = page.locator(".evidence__back a");
  assert.ok(await back.isVisible(), "a way back to the claim is offered");
  await Promise.all([page.waitForURL("**/en/components/ggml-hip/**"), back.click()]);
  assert.equal(path(page), "/en/components/ggml-hip/");
  // Without the script the evidence page still links every citing claim.
  await page.goto(target.href);
  const citing = page.locator(`.cited-by a[href$="#claim-bundle-disasm-wave32"]`);
  assert.ok((await citing.count()) >= 1, "the cited-by list links back to the claim");
  assert.deepEqual(page.problems(), []);
  await context.close();
});

test("every claim has a permalink and a copy-link button", async () => {
  const { context, page } = await fresh({ permissions: ["clipboard-read", "clipboard-write"] });
  await page.goto(`${server.origin}/ja/observers/`);
  const item = page.locator("#claim-quant-matmul-split");
  const anchor = item.locator("a.claim-link__anchor");
  assert.equal(await anchor.getAttribute("href"), "#claim-quant-matmul-split");
  const label = await anchor.evaluate((el) => document.getElementById(el.getAttribute("aria-describedby"))?.textContent);
  assert.equal(label, "この主張へのリンク", "the permalink says what it is to screen readers");
  assert.equal(await anchor.textContent(), "quant-matmul-split");
  assert.match(await anchor.evaluate((el) => getComputedStyle(el).fontFamily), /mono/i, "the id reads as code");
  const button = item.locator("button.claim-link__copy");
  assert.ok(await button.isVisible());
  await button.click();
  await page.waitForFunction(() => document.querySelector("#claim-quant-matmul-split button[data-copied]") !== null);
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(copied, `${server.origin}/ja/observers/#claim-quant-matmul-split`);
  assert.equal((await button.textContent()).trim(), "コピーしました");
  // Following the permalink marks the claim.
  await page.goto(`${server.origin}/ja/observers/#claim-quant-matmul-split`);
  const outline = await item.evaluate((el) => getComputedStyle(el).outlineStyle);
  assert.equal(outline, "solid", "the targeted claim is highlighted");
  // Every claim item of every view carries its anchor and permalink.
  const missing = await page.$$eval("li.claim-item[id^='claim-']", (items) =>
    items.filter((li) => !li.querySelector(`a.claim-link__anchor[href$="#${li.id}"]`)).map((li) => li.id),
  );
  assert.deepEqual(missing, []);
  assert.deepEqual(page.problems(), []);
  await context.close();
});

test("a badge shows its class meaning on hover and keyboard focus, in the reader's language", async () => {
  for (const [lang, meaning] of [
    ["ja", "直接観測した(実機コマンド、ログ、逆アセンブリ)"],
    ["en", "Seen directly: live command, log, disassembly"],
  ]) {
    const { context, page } = await fresh();
    await page.goto(`${server.origin}/${lang}/components/ggml-hip/`);
    const badge = page.locator("main a.badge--confirmed").first();
    const tip = badge.locator(".badge__tip");
    assert.equal(await tip.isVisible(), false, "hidden until asked");
    await badge.hover();
    assert.ok(await tip.isVisible(), "shown on hover");
    assert.equal(await tip.textContent(), meaning);
    await page.mouse.move(0, 0);
    await badge.evaluate((el) => el.blur());
    // Keyboard focus: tab until this badge is focused.
    await page.keyboard.press("Tab");
    await badge.focus();
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Tab");
    assert.ok(await tip.isVisible(), "shown on keyboard focus");
    // Screen readers get the meaning as the badge's description, label as text.
    // Its description is the meaning, then the hint that it opens the log.
    const described = await badge.evaluate((el) =>
      el.getAttribute("aria-describedby").split(" ").map((id) => document.getElementById(id)?.textContent),
    );
    assert.deepEqual(described, [meaning, lang === "ja" ? "(根拠のログを開く)" : "(open the evidence log)"]);
    assert.equal(await badge.evaluate((el) => el.firstChild.textContent.trim()), lang === "ja" ? "確認済み" : "Confirmed");
    assert.deepEqual(page.problems(), []);
    await context.close();
  }
});
