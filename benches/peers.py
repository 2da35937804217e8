#!/usr/bin/env python3
"""Builds one generated corpus with kansoku and its peers, alternating runs,
and prints ratios first, then medians (stdlib only).

    benches/peers.py N [RUNS] [--shape flat|sectioned]

Writes the corpus three times with examples/gen_corpus.rs (`--peer hugo`
and `--peer zola`): a kansoku site and the same pages as a bilingual Hugo
site and a bilingual Zola site. Each run builds, in an order that rotates
from run to run so no tool always goes first on a warm or cold machine:

- kansoku build (search on) and kansoku build --no-search, both with
  --no-cache and with .kansoku/ removed first, so every kansoku run is cold;
- hugo;
- hugo followed by the Pagefind CLI on its output (what a Hugo user runs
  for search);
- zola build (no search index, as the Zola site is configured).

Every build starts from an empty output directory. Wall, CPU (user+sys)
and peak RSS come from /usr/bin/time; output bytes from walking the tree.
The ratios are kansoku's wall as a fraction of a peer's (below 1 is
faster): kansoku build / (hugo + pagefind), kansoku build --no-search /
zola, kansoku build --no-search / hugo. The load average is printed from
before the first build and after the last.

Tools are found through the environment: KANSOKU (target/release/kansoku),
GEN (target/release/examples/gen_corpus), HUGO (hugo), PAGEFIND (pagefind),
ZOLA (zola), WORK (a scratch directory, /tmp/kansoku-peers). Nothing is
downloaded.
"""

import os
import shutil
import statistics
import subprocess
import sys
import tempfile


def env(name, default):
    return os.environ.get(name, default)


def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def timed(cmd, cwd=None):
    """Runs cmd under /usr/bin/time; returns (wall s, cpu s, peak MiB)."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as t:
        full = ["/usr/bin/time", "-o", t.name, "-f", "%e %U %S %M"] + cmd
        done = subprocess.run(full, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        if done.returncode != 0:
            sys.exit(f"failed: {' '.join(cmd)}\n{done.stderr.decode(errors='replace')[-2000:]}")
        wall, user, sys_, rss = t.read().split()[-4:]
    return float(wall), float(user) + float(sys_), int(rss) / 1024


def tree_bytes(path):
    total = 0
    for dirpath, _, files in os.walk(path):
        for f in files:
            total += os.path.getsize(os.path.join(dirpath, f))
    return total


def main():
    args = sys.argv[1:]
    shape = "flat"
    if "--shape" in args:
        i = args.index("--shape")
        shape = args[i + 1]
        del args[i : i + 2]
    if not args:
        sys.exit(__doc__)
    n = int(args[0])
    runs = int(args[1]) if len(args) > 1 else 3
    kansoku = env("KANSOKU", "target/release/kansoku")
    gen = env("GEN", "target/release/examples/gen_corpus")
    hugo = env("HUGO", "hugo")
    pagefind = env("PAGEFIND", "pagefind")
    zola = env("ZOLA", "zola")
    work = env("WORK", "/tmp/kansoku-peers")
    site = os.path.join(work, f"kansoku-{shape}-{n}")
    hugo_site = os.path.join(work, f"hugo-{shape}-{n}")
    zola_site = os.path.join(work, f"zola-{shape}-{n}")
    for d in (site, hugo_site, zola_site):
        shutil.rmtree(d, ignore_errors=True)
    subprocess.run(
        [gen, str(n), site, "--shape", shape, "--peer", "hugo", hugo_site, "--peer", "zola", zola_site],
        check=True,
        stderr=subprocess.DEVNULL,
    )

    def fresh(out):
        shutil.rmtree(out, ignore_errors=True)

    def kansoku_build(extra):
        def run():
            # --no-cache ignores what earlier builds remembered; removing
            # .kansoku/ as well leaves the disk as a first build finds it.
            fresh(os.path.join(site, "public"))
            fresh(os.path.join(site, ".kansoku"))
            return timed([kansoku, "build", "--root", site, "--no-cache"] + extra), tree_bytes(
                os.path.join(site, "public")
            )

        return run

    def hugo_build(with_pagefind):
        def run():
            out = os.path.join(hugo_site, "public")
            fresh(out)
            w, c, m = timed([hugo, "--quiet", "-s", hugo_site, "-d", out])
            if with_pagefind:
                w2, c2, m2 = timed([pagefind, "--site", out, "--quiet"])
                w, c, m = w + w2, c + c2, max(m, m2)
            return (w, c, m), tree_bytes(out)

        return run

    def zola_build():
        out = os.path.join(zola_site, "public")
        fresh(out)
        result = timed([zola, "--root", zola_site, "build", "--output-dir", out])
        return result, tree_bytes(out)

    tools = [
        ("kansoku build", kansoku_build([])),
        ("kansoku build --no-search", kansoku_build(["--no-search"])),
        ("hugo", hugo_build(False)),
        ("hugo + pagefind", hugo_build(True)),
        ("zola", zola_build),
    ]
    results = {name: [] for name, _ in tools}
    load_before = loadavg()
    for r in range(runs):
        order = tools[r % len(tools) :] + tools[: r % len(tools)]
        for name, run in order:
            results[name].append(run())
    load_after = loadavg()

    med = {}
    rows = []
    for name, _ in tools:
        got = results[name]
        wall = statistics.median(x[0][0] for x in got)
        cpu = statistics.median(x[0][1] for x in got)
        rss = max(x[0][2] for x in got)
        out = got[-1][1]
        med[name] = wall
        rows.append(f"| {name} | {wall:.2f} s | {cpu:.2f} s | {rss:.0f} MiB | {out / 2**20:.0f} MiB |")

    print(f"N = {n}, shape {shape}, {runs} runs each, alternating; load before: {load_before}; after: {load_after}")
    print()
    for a, b in [
        ("kansoku build", "hugo + pagefind"),
        ("kansoku build --no-search", "zola"),
        ("kansoku build --no-search", "hugo"),
    ]:
        peer = f"({b})" if " + " in b else b
        print(f"{a} / {peer}: {med[a] / med[b]:.2f} (wall)")
    print()
    print("| tool | wall (median) | CPU | peak RSS | output |")
    print("|---|---|---|---|---|")
    for row in rows:
        print(row)


if __name__ == "__main__":
    main()
