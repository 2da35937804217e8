// Shared helpers for the browser tests: a static server for public/ on
// 127.0.0.1, Debian's Chromium through playwright-core, and the page list.
// Nothing here reaches beyond this machine.
import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const here = path.dirname(fileURLToPath(import.meta.url));
export const repo = path.resolve(here, "..", "..");
export const publicDir = path.resolve(process.env.KANSOKU_PUBLIC ?? path.join(repo, "public"));
export const artifacts = path.resolve(process.env.KANSOKU_ARTIFACTS ?? path.join(repo, "target", "browser-artifacts"));

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".xml": "application/xml",
  ".txt": "text/plain; charset=utf-8",
  ".md": "text/markdown; charset=utf-8",
  ".log": "text/plain; charset=utf-8",
};

/** Serves `root` (the built `publicDir` unless given) like a plain static host: dir/ → dir/index.html, 404.html otherwise. */
export async function serve(root = publicDir) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, "http://127.0.0.1");
    let rel = decodeURIComponent(url.pathname);
    let file = path.join(root, rel);
    if (!file.startsWith(root)) {
      res.writeHead(403).end();
      return;
    }
    if (rel.endsWith("/")) file = path.join(file, "index.html");
    fs.stat(file, (err, st) => {
      if (!err && st.isDirectory()) {
        res.writeHead(301, { location: rel + "/" }).end();
        return;
      }
      if (err) {
        res.writeHead(404, { "content-type": TYPES[".html"] });
        fs.createReadStream(path.join(root, "404.html")).pipe(res);
        return;
      }
      const type = TYPES[path.extname(file)] ?? "application/octet-stream";
      res.writeHead(200, { "content-type": type });
      fs.createReadStream(file).pipe(res);
    });
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address();
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise((ok) => server.close(ok)) };
}

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export async function launch() {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/**
 * A page that records console errors, page errors and failed or
 * off-origin requests; `problems()` lists them.
 */
export async function watchedPage(context, origin) {
  const page = await context.newPage();
  const problems = [];
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(`console error: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("requestfailed", (r) => {
    // A load cut short by the next navigation is not a failure of the site.
    if (r.failure()?.errorText === "net::ERR_ABORTED") return;
    problems.push(`request failed: ${r.url()} ${r.failure()?.errorText}`);
  });
  page.on("response", (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`);
  });
  page.on("request", (r) => {
    const u = r.url();
    if (!u.startsWith(origin) && !u.startsWith("data:") && !u.startsWith("blob:")) {
      problems.push(`external request: ${u}`);
    }
  });
  page.problems = () => problems.splice(0);
  return page;
}

/** Every HTML page of the build, as URL paths ("/ja/", "/ja-en/components/", "/404.html"). */
export function sitePages() {
  const out = [];
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith(".html")) {
        const rel = "/" + path.relative(publicDir, p).split(path.sep).join("/");
        out.push(rel.endsWith("/index.html") ? rel.slice(0, -"index.html".length) : rel);
      }
    }
  };
  walk(publicDir);
  return out.sort();
}

export function artifact(name) {
  fs.mkdirSync(artifacts, { recursive: true });
  return path.join(artifacts, name);
}
