// The search-quality guard (issue 29): a fixed set of queries in both
// languages, on this repository's site and on a generated corpus, with
// the results a reader expects first. Any change to how pages are handed
// to Pagefind (less markup, fewer records, other weights) must keep every
// row: search must not get worse to get faster. Each expectation was read
// against the pages, not copied from whatever came back: an entity's name
// finds its page first, a claim id its page, a log's marker its log, and a
// phrase every page that holds it before any page that does not.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { repo, publicDir, serve, launch } from "./lib.js";

const BIN = process.env.KANSOKU_BIN ?? path.join(repo, "target", "release", "kansoku");
const GEN = process.env.KANSOKU_GEN ?? path.join(repo, "target", "release", "examples", "gen_corpus");

// This repository's site: [language, query, first result, more expected
// within the first three (or the first `within`)]. Since the transcripts
// give each line in Japanese too (issue 40, F28), the Japanese evidence
// pages hold the record's own words and answer Japanese queries as their
// English twins answer English ones.
const RECORD = [
  // Entity names: the entity's page first.
  ["ja", "rocBLAS", "/ja/components/rocblas/", ["/ja/observers/rocblas-layer/"]],
  ["en", "rocBLAS", "/en/components/rocblas/", ["/en/observers/rocblas-layer/"]],
  ["ja", "hipBLAS", "/ja/components/hipblas/", ["/ja/components/hipblaslt/"]],
  ["en", "hipBLAS", "/en/components/hipblas/", ["/en/components/hipblaslt/"]],
  ["en", "Tensile", "/en/components/tensile/", ["/en/components/rocblas/"]],
  ["en", "gfx1201", "/en/generations/gfx1201/", ["/en/evidence/fatbin/gfx1201-bundles.txt/"]],
  ["ja", "gfx942", "/ja/generations/gfx942/", []],
  ["en", "RDNA 4", "/en/generations/gfx1200/", ["/en/generations/gfx1201/"]],
  ["ja", "rocprofv3", "/ja/observers/rocprofv3-wrap/", ["/ja/observers/rocprofv3-attach/"]],
  ["en", "ROCBLAS_LAYER", "/en/observers/rocblas-layer/", ["/en/evidence/observers/rocblas-layer.txt/"]],
  // Claim words and answers.
  ["en", "not dispatched", "/en/components/miopen/", []],
  ["en", "MMVQ", "/en/components/ggml-hip/", []],
  ["ja", "閾値", "/ja/observers/phase-proxy/", []],
  // Japanese compounds, found whole (Pagefind #1237).
  // 別ビルド is the record's word, kept in the Phase D log; the gfx942 page
  // says 別の Ollama ビルド.
  ["ja", "別ビルド", "/ja/evidence/phase-d/fatbin-targets.txt/", ["/ja/generations/gfx942/"]],
  // As "disassembly" in English: the log of the disassembly, then its page.
  ["ja", "逆アセンブル", "/ja/evidence/fatbin/gfx1201-bundles.txt/", ["/ja/components/ggml-hip/"]],
  ["ja", "観測手段", "/ja/observers/", []],
  // Two logs restate the record's 量子化方式 (home-worlds, quantization-map).
  ["ja", "量子化", "/ja/", ["/ja/components/ggml-hip/", "/ja/observers/"], 5],
  // English phrases.
  ["en", "inference loop", "/en/components/", ["/en/components/hipblas/"]],
  ["en", "disassembly", "/en/evidence/fatbin/gfx1201-bundles.txt/", ["/en/components/ggml-hip/"]],
];

// The corpus (gen_corpus 200, flat): unique words find their one page first.
const CORPUS_FIRST = [
  ["ja", "実体 100", "/ja/s000/p00100/"],
  ["en", "Entity 150", "/en/s000/p00150/"],
  ["en", "Observation page 42", "/en/s000/p00042/"],
  ["ja", "観測ページ 137", "/ja/s000/p00137/"],
  ["ja", "p42-c3", "/ja/s000/p00042/"],
  ["en", "p17-c0", "/en/s000/p00017/"],
  ["ja", "marker-3-17", "/ja/evidence/logs/run-00003.log/"],
  ["en", "marker-12-40", "/en/evidence/logs/run-00012.log/"],
];

// The corpus's shared sentences: every one of the first five results holds the phrase.
const CORPUS_PHRASES = [
  ["ja", "量子化方式"],
  ["ja", "逆アセンブリ"],
  ["ja", "推論ループ"],
  ["en", "batch size"],
  ["en", "delegated through hipBLAS"],
  ["en", "hip_fatbin"],
];

let corpus, record, corpusServer, browser, context;
before(async () => {
  corpus = fs.mkdtempSync(path.join(os.tmpdir(), "kansoku-search-quality-"));
  execFileSync(GEN, ["200", corpus, "--shape", "flat"], { stdio: "ignore" });
  execFileSync(BIN, ["build", "--quiet", "--root", corpus], { stdio: ["ignore", "ignore", "inherit"] });
  record = await serve(publicDir);
  corpusServer = await serve(path.join(corpus, "public"));
  browser = await launch();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
});
after(async () => {
  await context?.close();
  await browser?.close();
  await record?.close();
  await corpusServer?.close();
  if (corpus) fs.rmSync(corpus, { recursive: true, force: true });
});

/** The result pages of `query` typed into the search box of `/lang/`, in order. */
async function search(server, lang, query) {
  const page = await context.newPage();
  await page.goto(`${server.origin}/${lang}/`);
  await page.locator("#site-search-input").fill(query);
  await page.waitForFunction((q) => document.getElementById("site-search")?.dataset.done === q, query);
  const hrefs = await page.$$eval(".search-result__title", (as) => as.map((a) => new URL(a.href).pathname));
  await page.close();
  return hrefs;
}

/** A page's searchable text, tags stripped, spaces dropped, NFKC, lower case. */
async function text(server, href) {
  const html = await (await fetch(server.origin + href)).text();
  const start = html.indexOf("data-pagefind-body");
  const body = start < 0 ? "" : html.slice(start, html.indexOf("</article>", start));
  return body.replace(/<[^>]*>/g, "").replace(/\s+/g, "").normalize("NFKC").toLowerCase();
}

test("this repository's site: each query's expected page first, and the rest in the first three", async () => {
  const misses = [];
  for (const [lang, query, first, more, within = 3] of RECORD) {
    const got = await search(record, lang, query);
    if (got[0] !== first) misses.push(`${lang} ${query}: first ${got[0]}, expected ${first}`);
    for (const m of more) {
      if (!got.slice(0, within).includes(m)) misses.push(`${lang} ${query}: ${m} not in ${got.slice(0, within).join(", ")}`);
    }
  }
  assert.deepEqual(misses, []);
});

test("the corpus: a unique name, claim id or log marker finds its page first", async () => {
  const misses = [];
  for (const [lang, query, first] of CORPUS_FIRST) {
    const got = await search(corpusServer, lang, query);
    if (got[0] !== first) misses.push(`${lang} ${query}: first ${got[0]}, expected ${first}`);
  }
  assert.deepEqual(misses, []);
});

test("the corpus: a shared phrase finds five pages, each holding it", async () => {
  const misses = [];
  for (const [lang, query] of CORPUS_PHRASES) {
    const got = (await search(corpusServer, lang, query)).slice(0, 5);
    if (got.length < 5) misses.push(`${lang} ${query}: only ${got.length} results`);
    const needle = query.replace(/\s+/g, "").normalize("NFKC").toLowerCase();
    for (const href of got) {
      if (!(await text(corpusServer, href)).includes(needle)) misses.push(`${lang} ${query}: ${href} lacks it`);
    }
  }
  assert.deepEqual(misses, []);
});
