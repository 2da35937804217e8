// `kansoku serve` in a real browser: edit a page on disk and watch the open
// page change without a manual reload, keeping its scroll position.
// Starts the release binary against a temp copy of tests/fixtures/serve on
// a free loopback port, and stops it afterwards.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import net from "node:net";
import { repo, launch, artifact } from "./lib.js";

const BIN = process.env.KANSOKU_BIN ?? path.join(repo, "target", "release", "kansoku");

function freePort() {
  return new Promise((ok, fail) => {
    const s = net.createServer();
    s.once("error", fail);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
  });
}

function startServe(root, port) {
  const child = spawn(BIN, ["serve", "--root", root, "--port", String(port)], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  const ready = new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`serve did not start:\n${out}`)), 30000);
    child.stdout.on("data", () => {
      if (out.includes("serving http://")) {
        clearTimeout(timer);
        ok();
      }
    });
    child.on("exit", (code) => fail(new Error(`serve exited ${code}:\n${out}`)));
  });
  return { child, ready, output: () => out };
}

/** Runs `body` against `kansoku serve` on a temp copy of tests/fixtures/serve,
 *  with a browser; stops both and removes the copy afterwards. */
async function withServe(body) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "kansoku-serve-browser-"));
  fs.cpSync(path.join(repo, "tests", "fixtures", "serve"), root, { recursive: true });
  const port = await freePort();
  const server = startServe(root, port);
  const browser = await launch();
  try {
    await server.ready;
    await body({ root, port, browser, page: path.join(root, "content", "_index.md") });
  } finally {
    await browser.close();
    server.child.kill("SIGINT");
    await new Promise((ok) => server.child.once("exit", ok));
    fs.rmSync(root, { recursive: true, force: true });
  }
}

test("an edit on disk reaches the open page without a manual reload", async () => {
  await withServe(async ({ root, port, browser, page }) => {
    const context = await browser.newContext({ viewport: { width: 800, height: 400 } });
    const tab = await context.newPage();
    await tab.goto(`http://127.0.0.1:${port}/en/`);
    await tab.waitForSelector("text=The records are under");
    // Mark the document: a manual reload would lose this property.
    await tab.evaluate(() => {
      window.__kansokuMarker = "before";
    });
    const text = fs.readFileSync(page, "utf8");
    fs.writeFileSync(page, text.replace("The records are under", "Edited live: the records are under"));
    await tab.waitForSelector("text=Edited live: the records are under", { timeout: 20000 });
    // The reload script reloaded the page itself (the marker is gone) and
    // the reader stayed on the same page and language.
    assert.equal(await tab.evaluate(() => window.__kansokuMarker), undefined);
    assert.equal(new URL(tab.url()).pathname, "/en/");
    // A broken page keeps the last good build and shows the diagnostics.
    fs.writeFileSync(page, text.replace("title = {", "title = {{"));
    await tab.waitForSelector("text=content/_index.md:", { timeout: 20000 });
    assert.ok(await tab.isVisible("text=Edited live: the records are under"));
  });
});

// WCAG 2 contrast ratio of two "rgb(a)" colours (alpha ignored: the overlay
// paints opaque backgrounds, checked below).
function contrast(fg, bg) {
  const lum = (c) => {
    const [r, g, b] = c.match(/[\d.]+/g).slice(0, 3).map(Number).map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}

test("the error overlay is readable in light and dark, errors first, in the page's language (issue 15)", async () => {
  await withServe(async ({ root, port, browser, page }) => {
    // One warning (an evidence file no claim cites) and one error (bad TOML).
    fs.writeFileSync(path.join(root, "evidence", "logs", "uncited.log"), "nothing cites this\n");
    const text = fs.readFileSync(page, "utf8");
    fs.writeFileSync(page, text.replace("title = {", "title = {{"));
    for (const colorScheme of ["light", "dark"]) {
      const context = await browser.newContext({ colorScheme, viewport: { width: 900, height: 700 } });
      for (const lang of ["en", "ja"]) {
        const tab = await context.newPage();
        await tab.goto(`http://127.0.0.1:${port}/${lang}/`);
        await tab.waitForSelector("#kansoku-overlay li.ko-error", { timeout: 20000 });
        await tab.waitForSelector("#kansoku-overlay li.ko-warning", { timeout: 20000 });
        const report = await tab.evaluate(() => {
          const overlay = document.getElementById("kansoku-overlay");
          const background = (el) => {
            for (let e = el; e; e = e.parentElement) {
              const bg = getComputedStyle(e).backgroundColor;
              if (!/rgba\(.*, 0\)$/.test(bg) && bg !== "transparent") return bg;
            }
            return "rgb(255, 255, 255)";
          };
          const texts = [];
          for (const el of overlay.querySelectorAll("*")) {
            const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
            if (!own || el.getClientRects().length === 0) continue;
            texts.push({ tag: el.tagName, text: el.textContent.trim().slice(0, 40), fg: getComputedStyle(el).color, bg: background(el) });
          }
          const items = [...overlay.querySelectorAll("li")].map((li) => li.className);
          const link = overlay.querySelector("li.ko-error a");
          const head = overlay.querySelector(".ko-head");
          const visible = [...head.querySelectorAll("[lang]")].filter((s) => s.getClientRects().length > 0).map((s) => s.lang);
          return {
            texts,
            items,
            link: link && { href: link.getAttribute("href"), text: link.textContent },
            count: overlay.querySelector(".ko-count")?.innerText,
            meaning: [...overlay.querySelectorAll("li.ko-error .ko-meaning")].filter((m) => m.getClientRects().length > 0).map((m) => m.innerText).join(""),
            hint: overlay.querySelector("li.ko-error .ko-label")?.innerText,
            visible,
            errorBg: getComputedStyle(overlay.querySelector("li.ko-error")).backgroundColor,
            warningBg: getComputedStyle(overlay.querySelector("li.ko-warning")).backgroundColor,
          };
        });
        assert.ok(report.texts.length > 5, `${colorScheme}/${lang}: overlay has text`);
        for (const t of report.texts) {
          const ratio = contrast(t.fg, t.bg);
          assert.ok(ratio >= 4.5, `${colorScheme}/${lang}: ${t.tag} "${t.text}" ${t.fg} on ${t.bg} is ${ratio.toFixed(2)}:1`);
        }
        const firstWarning = report.items.indexOf("ko-warning");
        assert.ok(firstWarning > 0 && report.items.slice(0, firstWarning).every((c) => c === "ko-error"), `errors first: ${report.items}`);
        assert.notEqual(report.errorBg, report.warningBg, "errors look different from warnings");
        assert.match(report.link.text, /^content\/_index\.md:\d+:\d+$/);
        assert.ok(report.link.href.startsWith("vscode://file/") && report.link.href.endsWith(report.link.text.replace(/^content/, "content")), report.link.href);
        // The count line, what the code means and the hint's label in the
        // page's language (issue 40, trial L19).
        if (lang === "en") {
          assert.match(report.count, /^check: 1 error, 1 warning/);
          assert.equal(report.meaning, "", "an English page has the message itself");
          assert.equal(report.hint, "hint:");
        } else {
          assert.match(report.count, /^check: エラー 1 件、警告 1 件/);
          assert.equal(report.meaning, "構文の誤り(TOML・UTF-8・`+++` の区切り)");
          assert.equal(report.hint, "ヒント:");
        }
        assert.deepEqual(report.visible, [lang, lang], `${lang} page: chrome in ${lang}`);
        await tab.close();
      }
      await context.close();
    }
  });
});

// Issue 40, trial L19: on a phone a finding's source line scrolls sideways
// rather than wrapping under its caret, and the severity label stays one
// word (エラー did break into エ / ラー).
test("the overlay on a phone keeps source lines and labels whole (trial L19)", async () => {
  await withServe(async ({ port, browser, page }) => {
    const text = fs.readFileSync(page, "utf8");
    fs.writeFileSync(page, text.replace("title = {", "title = {{"));
    for (const colorScheme of ["light", "dark"]) {
      const context = await browser.newContext({ colorScheme, viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });
      const tab = await context.newPage();
      await tab.goto(`http://127.0.0.1:${port}/ja/`);
      await tab.waitForSelector("#kansoku-overlay li.ko-error", { timeout: 20000 });
      const r = await tab.evaluate(() => {
        const li = document.querySelector("#kansoku-overlay li.ko-error");
        const pre = li.querySelector("pre.ko-src");
        const sev = li.querySelector(".ko-sev");
        const lines = pre.textContent.split("\n");
        return {
          whiteSpace: getComputedStyle(pre).whiteSpace,
          overflowX: getComputedStyle(pre).overflowX,
          preLines: Math.round(pre.getBoundingClientRect().height / parseFloat(getComputedStyle(pre).lineHeight)),
          lines: lines.length,
          sevRects: [...sev.getClientRects()].length,
          sevHeight: sev.getBoundingClientRect().height,
          lineHeight: parseFloat(getComputedStyle(sev).lineHeight),
          pageWidth: document.documentElement.scrollWidth,
        };
      });
      assert.equal(r.whiteSpace, "pre", `${colorScheme}: source lines are not wrapped`);
      assert.equal(r.overflowX, "auto", `${colorScheme}: they scroll sideways`);
      assert.ok(r.preLines <= r.lines + 1, `${colorScheme}: ${r.lines} lines shown on ${r.preLines}`);
      assert.ok(r.sevHeight < r.lineHeight * 1.5, `${colorScheme}: the severity label is one line (${r.sevHeight} px)`);
      assert.ok(r.pageWidth <= 390, `${colorScheme}: no sideways page scroll (${r.pageWidth})`);
      await tab.screenshot({ path: artifact(`serve-overlay-ja-phone-${colorScheme}.png`) });
      await context.close();
    }
  });
});
