#!/usr/bin/env python3
"""Writes a site whose one page holds N claims (issue 11, finding 11).

    python3 benches/many_claims.py N DIR

The site is tests/fixtures/check/clean plus content/many.md: N confirmed
claims, each citing one line of the fixture's log, listed in the page's
claim list (and so in the parallel view's). Deterministic for N.
"""

import pathlib
import shutil
import sys


def main() -> None:
    n, out = int(sys.argv[1]), pathlib.Path(sys.argv[2])
    repo = pathlib.Path(__file__).resolve().parent.parent
    if out.exists():
        shutil.rmtree(out)
    shutil.copytree(repo / "tests/fixtures/check/clean", out)
    parts = ['+++\ntitle = { ja = "多数", en = "Many" }\n']
    for i in range(n):
        parts.append(
            f'[[claims]]\nid = "c{i}"\nclass = "confirmed"\n'
            f'ja = "主張{i}"\nen = "Claim {i}"\nevidence = ["logs/a.log#L2"]\n'
        )
    parts.append("+++\n\n::: ja\n本文。\n:::\n::: en\nBody.\n:::\n")
    (out / "content/many.md").write_text("".join(parts), encoding="utf-8")


if __name__ == "__main__":
    main()
