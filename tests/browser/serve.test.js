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
import { repo, launch } from "./lib.js";

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

test("an edit on disk reaches the open page without a manual reload", async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "kansoku-serve-browser-"));
  fs.cpSync(path.join(repo, "tests", "fixtures", "serve"), root, { recursive: true });
  const page = path.join(root, "content", "_index.md");
  const port = await freePort();
  const server = startServe(root, port);
  const browser = await launch();
  try {
    await server.ready;
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
  } finally {
    await browser.close();
    server.child.kill("SIGINT");
    await new Promise((ok) => server.child.once("exit", ok));
    fs.rmSync(root, { recursive: true, force: true });
  }
});
