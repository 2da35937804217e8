#!/usr/bin/env bash
# The search stage's memo for one corpus, search on: a cold build, a cached
# rebuild with no edit, and one after a one-page edit (checked
# byte-identical with a cold build), each with the search stage's own
# timing lines (`KANSOKU_TIMINGS`: shards indexed, CPU, peak).
#
#   benches/search_cache.sh KANSOKU CORPUS_DIR PAGE
#
# KANSOKU is the binary (target/release/kansoku); PAGE a content file of
# the corpus, relative to it (e.g. content/s042/p00542.md). The corpus's
# book.toml must not turn search off. Prints the load average beside each
# figure.
set -euo pipefail
k=$(realpath "$1") dir=$(realpath "$2") page=$3
load() { cut -d' ' -f1-3 /proc/loadavg; }
run() {
  local what=$1; shift
  local log; log=$(mktemp)
  KANSOKU_TIMINGS=1 /usr/bin/time -f 'time: %e s wall, %U s user, %S s sys, %M KiB peak' \
    "$k" build -q --root "$dir" "$@" >/dev/null 2>"$log" || { cat "$log"; exit 1; }
  echo "$what: $(grep '^time:' "$log" | cut -c7-) · load $(load)"
  grep -E '^timing: (search|render|write|load|prepare)' "$log" | sed 's/^/    /'
  rm -f "$log"
}
rm -rf "$dir/public" "$dir/.kansoku"
run "cold build" --no-cache
run "cached, no edit"
cp "$dir/$page" /tmp/search-cache-page.bak
printf '\nAn edited paragraph.\n' >>"$dir/$page"
run "cached, one edit"
rm -rf /tmp/search-cache-cold
"$k" build -q --root "$dir" --no-cache --out /tmp/search-cache-cold 2>/dev/null
diff -rq "$dir/public" /tmp/search-cache-cold >/dev/null \
  && echo "cached output: byte-identical to a cold build" \
  || echo "cached output DIFFERS from a cold build"
cp /tmp/search-cache-page.bak "$dir/$page"
rm -rf /tmp/search-cache-cold
