#!/usr/bin/env python3
"""Builds one generated corpus with kansoku and its peers, alternating runs,
and prints medians and ratios (stdlib only).

    benches/peers.py N [RUNS] [--shape flat|sectioned]

Writes the corpus twice with examples/gen_corpus.rs (`--peer hugo`): a
kansoku site and the same pages as a bilingual Hugo site. Each run builds,
in an order that rotates from run to run so no tool always goes first on a
warm or cold machine:

- kansoku build (search on) and kansoku build --no-search;
- hugo;
- hugo followed by the Pagefind CLI on its output (what a Hugo user runs
  for search).

Every build starts from an empty output directory. Wall, CPU (user+sys)
and peak RSS come from /usr/bin/time; output bytes from walking the tree.
Tools are found through the environment: KANSOKU (target/release/kansoku),
GEN (target/release/examples/gen_corpus), HUGO (hugo), PAGEFIND (pagefind),
WORK (a scratch directory, /tmp/kansoku-peers). Nothing is downloaded.
"""

import os
import shutil
import statistics
import subprocess
import sys
import tempfile


def env(name, default):
    return os.environ.get(name, default)


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
    work = env("WORK", "/tmp/kansoku-peers")
    site = os.path.join(work, f"kansoku-{shape}-{n}")
    peer = os.path.join(work, f"hugo-{shape}-{n}")
    for d in (site, peer):
        shutil.rmtree(d, ignore_errors=True)
    subprocess.run(
        [gen, str(n), site, "--shape", shape, "--peer", "hugo", peer],
        check=True,
        stderr=subprocess.DEVNULL,
    )

    def fresh(out):
        shutil.rmtree(out, ignore_errors=True)

    def kansoku_build(extra):
        def run():
            fresh(os.path.join(site, "public"))
            return timed([kansoku, "build", "--root", site] + extra), tree_bytes(
                os.path.join(site, "public")
            )

        return run

    def hugo_build(with_pagefind):
        def run():
            out = os.path.join(peer, "public")
            fresh(out)
            w, c, m = timed([hugo, "--quiet", "-s", peer, "-d", out])
            if with_pagefind:
                w2, c2, m2 = timed([pagefind, "--site", out, "--quiet"])
                w, c, m = w + w2, c + c2, max(m, m2)
            return (w, c, m), tree_bytes(out)

        return run

    tools = [
        ("kansoku build", kansoku_build([])),
        ("kansoku build --no-search", kansoku_build(["--no-search"])),
        ("hugo", hugo_build(False)),
        ("hugo + pagefind", hugo_build(True)),
    ]
    results = {name: [] for name, _ in tools}
    for r in range(runs):
        order = tools[r % len(tools) :] + tools[: r % len(tools)]
        for name, run in order:
            results[name].append(run())
    load = open("/proc/loadavg").read().split()[:3]
    print(f"N = {n}, shape {shape}, {runs} runs each, alternating; load after: {' '.join(load)}")
    print("| tool | wall (median) | CPU | peak RSS | output |")
    print("|---|---|---|---|---|")
    med = {}
    for name, _ in tools:
        rows = results[name]
        wall = statistics.median(x[0][0] for x in rows)
        cpu = statistics.median(x[0][1] for x in rows)
        rss = max(x[0][2] for x in rows)
        out = rows[-1][1]
        med[name] = wall
        print(f"| {name} | {wall:.2f} s | {cpu:.2f} s | {rss:.0f} MiB | {out / 2**20:.0f} MiB |")
    print()
    for a, b in [
        ("hugo + pagefind", "kansoku build"),
        ("hugo", "kansoku build --no-search"),
        ("hugo", "kansoku build"),
    ]:
        print(f"{a} / {b}: {med[a] / med[b]:.2f}x (wall)")


if __name__ == "__main__":
    main()
