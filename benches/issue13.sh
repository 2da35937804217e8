#!/usr/bin/env bash
# Issue 13's figures for one corpus: a cold build, a cached rebuild after
# a one-page edit (checked byte-identical with a cold build), and serve's
# save → reload for a one-page edit. Search off throughout (book.toml's
# `[search] enabled = false`), so indexing neither adds to the builds nor
# competes with the edit.
#
#   benches/issue13.sh KANSOKU CORPUS_DIR PAGE [PORT]
#
# KANSOKU is the binary (target/release/kansoku); PAGE a content file of
# the corpus, relative to it (e.g. content/s042/p00542.md). Prints one
# line per figure with the load average beside it.
set -euo pipefail
k=$(realpath "$1") dir=$(realpath "$2") page=$3 port=${4:-3931}
grep -q '^\[search\]' "$dir/book.toml" || printf '\n[search]\nenabled = false\n' >>"$dir/book.toml"
load() { cut -d' ' -f1-3 /proc/loadavg; }
timed() { /usr/bin/time -f '%e s wall, %M KiB peak' "$@" 2>&1 >/dev/null | tail -1; }

rm -rf "$dir/public" "$dir/.kansoku"
echo "cold build:            $(timed "$k" build -q --root "$dir" --no-cache) · load $(load)"
echo "cached, no edit:       $(timed "$k" build -q --root "$dir") · load $(load)"
cp "$dir/$page" /tmp/issue13-page.bak
printf '\nAn edited paragraph.\n' >>"$dir/$page"
echo "cached, one edit:      $(timed "$k" build -q --root "$dir") · load $(load)"
rm -rf /tmp/issue13-cold
"$k" build -q --root "$dir" --no-cache --out /tmp/issue13-cold
diff -rq "$dir/public" /tmp/issue13-cold >/dev/null && echo "cached output: byte-identical to a cold build" || echo "cached output DIFFERS from a cold build"
cp /tmp/issue13-page.bak "$dir/$page"

log=$(mktemp)
/usr/bin/time -f '%M' -o "$log.rss" "$k" serve --root "$dir" --port "$port" >"$log" 2>&1 &
pid=$!
until grep -q serving "$log"; do sleep 0.5; done
# The server is /usr/bin/time's child, whatever the binary is called (time
# ignores SIGINT, so the signal must reach the server itself).
server=$(pgrep -P $pid || echo $pid)
echo "serve ready · rss $(awk '/VmRSS/ {print int($2/1024) " MiB"}' /proc/$server/status) · load $(load)"
python3 "$(dirname "$0")/serve_edit.py" "$port" "$dir/$page" 7 2>&1 | tail -1 | sed "s/\$/ · load $(load)/"
echo "serve rss after edits: $(awk '/VmRSS/ {print int($2/1024) " MiB"}' /proc/$server/status)"
kill -INT "$server" 2>/dev/null || true
wait $pid || true
rm -f "$log" "$log.rss"
