// The RO-Crate a build writes (ro-crate-metadata.json), read by a JSON-LD
// processor (jsonld.js) as a consumer would: expanded in safe mode, which
// fails on anything the RO-Crate context cannot map (a term it lacks would
// otherwise vanish silently), with the context taken from the vendored
// copy in tests/fixtures/ro-crate/ and no network at all. Then the expanded
// graph must hold what the crate promises: a Dataset root, a File for every
// evidence file the build published, and where evidence was captured, the
// CreateAction that made it.
//
// Two sites: this repository's (public/, transcripts and notes only) and
// examples/shared-libs, whose evidence is all captures (built by .ci/run
// into target/shared-libs, or KANSOKU_SHARED_LIBS).
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import jsonld from "jsonld";
import { publicDir, repo } from "./lib.js";

const CONTEXT_URL = "https://w3id.org/ro/crate/1.3/context";
const CONTEXT = JSON.parse(
  fs.readFileSync(path.join(repo, "tests/fixtures/ro-crate/context-1.3.jsonld"), "utf8"),
);
const sharedLibs = path.resolve(process.env.KANSOKU_SHARED_LIBS ?? path.join(repo, "target", "shared-libs"));

const SCHEMA = "http://schema.org/";
const PROV = "http://www.w3.org/ns/prov#";
// Relative @ids resolve against the crate's root, as RO-Crate says.
const BASE = "arcp://name,kansoku-test/";

async function documentLoader(url) {
  if (url === CONTEXT_URL) {
    return { contextUrl: null, documentUrl: url, document: CONTEXT };
  }
  throw new Error(`the test reaches no network: ${url}`);
}

async function expand(dir) {
  const file = path.join(dir, "ro-crate-metadata.json");
  const doc = JSON.parse(fs.readFileSync(file, "utf8"));
  return jsonld.expand(doc, { documentLoader, safe: true, base: BASE });
}

/** Every file under DIR/evidence, relative to DIR, from the directory itself. */
function evidenceFiles(dir) {
  const out = [];
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(path.relative(dir, p).split(path.sep).join("/"));
    }
  };
  walk(path.join(dir, "evidence"));
  return out.sort();
}

// Nodes by @id; those inside the crate also by their path, decoded.
const byId = (graph) => {
  const m = new Map(graph.map((n) => [n["@id"], n]));
  for (const n of graph) {
    if (n["@id"].startsWith(BASE)) m.set(rel(n["@id"]), n);
  }
  return m;
};
const rel = (id) => decodeURIComponent(id.slice(BASE.length));
const types = (node) => node?.["@type"] ?? [];
const ids = (node, prop) => (node?.[prop] ?? []).map((v) => v["@id"]);
const value = (node, prop) => node?.[prop]?.[0]?.["@value"];

function checkCrate(expanded, dir) {
  const nodes = byId(expanded);
  const descriptor = nodes.get(`${BASE}ro-crate-metadata.json`);
  assert.ok(descriptor, "the metadata descriptor is in the graph");
  assert.deepEqual(ids(descriptor, `${SCHEMA}about`), [BASE]);
  assert.deepEqual(ids(descriptor, "http://purl.org/dc/terms/conformsTo"), ["https://w3id.org/ro/crate/1.3"]);
  const root = nodes.get(BASE);
  assert.ok(types(root).includes(`${SCHEMA}Dataset`), "the root is a Dataset");
  const names = root[`${SCHEMA}name`].map((v) => v["@language"]);
  assert.deepEqual(names, ["ja", "en"], "the name in both languages");
  const parts = new Set(ids(root, `${SCHEMA}hasPart`).map(rel));
  for (const f of ["claims.json", "claims.jsonld", "claims.schema.json"]) {
    assert.ok(parts.has(f), `${f} is a part of the root`);
    assert.ok(fs.existsSync(path.join(dir, f)), `${f} is published`);
  }
  assert.deepEqual(ids(nodes.get("claims.json"), "http://purl.org/dc/terms/conformsTo").map(rel), ["claims.schema.json"]);
  const evidence = evidenceFiles(dir);
  assert.ok(evidence.length > 0, `${dir}/evidence holds files`);
  // Every evidence file published, from the directory's listing.
  for (const f of evidence) {
    const node = nodes.get(f);
    assert.ok(parts.has(f), `${f} is a part of the root`);
    // RO-Crate's File is schema.org's MediaObject.
    assert.ok(types(node).includes(`${SCHEMA}MediaObject`), `${f} is a File`);
    const bytes = fs.readFileSync(path.join(dir, f));
    assert.equal(value(node, `${SCHEMA}contentSize`), String(bytes.length), `${f}: contentSize`);
  }
  return { nodes, evidence };
}

test("this repository's crate expands and names every published evidence file", async () => {
  const expanded = await expand(publicDir);
  const { nodes, evidence } = checkCrate(expanded, publicDir);
  // Transcripts and notes: no capture, so no action.
  const actions = [...nodes.values()].filter((n) => types(n).includes(`${SCHEMA}CreateAction`));
  assert.deepEqual(actions, []);
  assert.ok(evidence.length >= 19, `${evidence.length} evidence files`);
});

test("a site of captures: each capture is the result of a CreateAction with its command and times", async () => {
  assert.ok(
    fs.existsSync(path.join(sharedLibs, "ro-crate-metadata.json")),
    `build examples/shared-libs into ${sharedLibs} first (.ci/run does)`,
  );
  const expanded = await expand(sharedLibs);
  const { nodes, evidence } = checkCrate(expanded, sharedLibs);
  for (const f of evidence) {
    const file = nodes.get(f);
    const [run] = ids(file, `${PROV}wasGeneratedBy`);
    const action = nodes.get(run);
    assert.ok(types(action).includes(`${SCHEMA}CreateAction`), `${f}: made by a CreateAction`);
    assert.ok(ids(action, `${SCHEMA}result`).map(rel).includes(f), `${f}: the action's result`);
    assert.match(value(action, `${SCHEMA}startTime`), /^\d{4}-\d\d-\d\dT/);
    assert.match(value(action, `${SCHEMA}endTime`), /^\d{4}-\d\d-\d\dT/);
    assert.ok(value(action, `${SCHEMA}description`).length > 0, `${f}: the command line`);
    const [program] = ids(action, `${SCHEMA}instrument`);
    // A Thing, not a SoftwareApplication: a capture records no version or
    // origin of the program, which RO-Crate requires of one (issue 42).
    assert.ok(types(nodes.get(program)).includes(`${SCHEMA}Thing`), `${f}: its program`);
    // The published bytes are the ones hashed.
    const sha = createHash("sha256").update(fs.readFileSync(path.join(sharedLibs, f))).digest("hex");
    assert.equal(value(file, `${SCHEMA}sha256`), sha, `${f}: sha256`);
  }
});

test("the processor refuses a term the RO-Crate context does not define (safe mode is on)", async () => {
  const doc = JSON.parse(fs.readFileSync(path.join(publicDir, "ro-crate-metadata.json"), "utf8"));
  doc["@graph"][1].notARoCrateTerm = "x";
  await assert.rejects(jsonld.expand(doc, { documentLoader, safe: true, base: BASE }), /safe mode/i);
});
