#!/usr/bin/env bash
# The 2026-11-28 audit's L14, unconfirmed: once, a cached build after a
# SIGKILL differed from `--no-cache` (in en/llms-full.txt and the English
# search files), and the audit's harness did not log the reference
# build's exit status. This one logs everything, and repeats:
#
#   1. change the corpus: delete a page, add one, or edit a body;
#   2. start a cached build and SIGKILL it after a random delay: up to
#      1.3 times the median time of the cached builds (step 3) after a
#      change of the same kind so far, so that kills land in every stage,
#      the last ones (search, writing, records) included, and some builds
#      finish first;
#   3. run a cached build (its exit status: `cached=`);
#   4. run `build --no-cache --out REF` into a fresh directory (`ref=`);
#   5. `diff -r --no-dereference` the two trees (`same` or the paths).
#
#   benches/kill_cached.sh KANSOKU CORPUS_DIR TRIALS [SEED] >log
#
# KANSOKU is a release binary; CORPUS_DIR a corpus from
# `cargo run --release --example gen_corpus -- 1000 DIR` (search on, as
# the audit built it). A comparison is made only when both builds exited
# 0. The corpus is changed in place: use a copy. One line per trial, then
# the counts. Run it under `nice`; it starts one build at a time and
# kills only the build it started, by its PID.
set -uo pipefail
k=$(realpath "$1") dir=$(realpath "$2") trials=$3
RANDOM=${4:-39}
work=$(mktemp -d)
ref=$work/ref
trap 'rm -rf "$work"' EXIT
npages=$(cd "$dir" && find content -name 'p*.md' | wc -l)

build() { "$k" build -q --root "$dir" "$@" >"$work/out" 2>"$work/err"; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }

rm -rf "$dir/public" "$dir/.kansoku"
build --no-cache || { echo "the first build failed:"; cat "$work/err"; exit 1; }
t0=$(now)
build || { echo "a cached build failed:"; cat "$work/err"; exit 1; }
cached_s=$(since "$t0")
echo "# corpus $dir: $npages pages; a cached build without a change takes ${cached_s}s; load $(cut -d' ' -f1-3 /proc/loadavg)"

killed=0 finished=0 same=0 differ=0 cached_failed=0 ref_failed=0 leftovers=0
for trial in $(seq 1 "$trials"); do
  # 1. A change. Pages of a generated corpus link to the next one, whose
  # claims name the previous one's in `from`: deleting a page takes those
  # links and `from` lines out of every page, or the build would stop on
  # them (E030, E020) and there would be nothing to compare.
  current=$(cd "$dir" && find content -name 'p*.md' | sort)
  count=$(echo "$current" | wc -l)
  case $((RANDOM % 3)) in
    0) # Delete a page (the audit's case).
       page=$(echo "$current" | sed -n "$((RANDOM % count + 1))p")
       name=$(basename "$page" .md)
       rel=/${page#content/}
       rm "$dir/$page"
       if [[ $name =~ ^p0*([0-9]+)$ ]]; then n=${BASH_REMATCH[1]}; else n=none; fi
       grep -rlE -e "$rel" -e "\"p$n-c[0-9]+\"" "$dir/content" | while read -r f; do
         REL="$rel" N="$n" perl -0pi -e 's/\[([^\]]*)\]\(\Q$ENV{REL}\E[^)]*\)/$1/g; s/^from = \[[^\]]*"p$ENV{N}-c\d+"[^\]]*\]\n//mg' "$f"
       done
       change="delete $page" ;;
    1) # Add a page of its own, in a section picked at random.
       sections=$(cd "$dir" && find content -mindepth 1 -maxdepth 1 -type d | sort)
       section=$(echo "$sections" | sed -n "$((RANDOM % $(echo "$sections" | wc -l) + 1))p")
       page=$section/added$trial.md
       printf '+++\ntitle = { ja = "追加 %s", en = "Added %s" }\n+++\n\n::: ja\n試行 %s で追加。\n:::\n\n::: en\nAdded in trial %s.\n:::\n' \
         "$trial" "$trial" "$trial" "$trial" >"$dir/$page"
       change="add $page" ;;
    *) # Edit a page's body.
       page=$(echo "$current" | sed -n "$((RANDOM % count + 1))p")
       printf '\nAn edit of trial %s.\n' "$trial" >>"$dir/$page"
       change="edit $page" ;;
  esac
  # 2. A cached build, killed at a random point.
  kind=${change%% *}
  typical=$(sort -n "$work/took-$kind" 2>/dev/null | awk '{ a[NR] = $1 } END { print (NR ? a[int((NR + 1) / 2)] : 0) }')
  [ "$typical" != 0 ] || typical=$cached_s
  delay=$(awk -v c="$typical" -v r=$((RANDOM % 1000)) 'BEGIN { printf "%.3f", c * 1.3 * r / 1000 }')
  "$k" build -q --root "$dir" >/dev/null 2>&1 &
  pid=$!
  sleep "$delay"
  kill -KILL "$pid" 2>/dev/null
  # Its status says which it was: 137 is death by SIGKILL (a build that
  # had ended is not signalled: kill fails once it is reaped).
  wait "$pid" 2>/dev/null; rc=$?
  if [ "$rc" -eq 137 ]; then
    outcome=killed; killed=$((killed + 1))
  else
    outcome="finished($rc)"; finished=$((finished + 1))
  fi
  # 3. The cached build after it.
  t0=$(now)
  build; cached=$?
  took=$(since "$t0")
  echo "$took" >>"$work/took-$kind"
  [ "$cached" -eq 0 ] || cached_failed=$((cached_failed + 1))
  left=$(ls -a "$dir" | grep -c '^\.public\.kansoku-' || true)
  [ "$left" -eq 0 ] || leftovers=$((leftovers + 1))
  # 4. The reference.
  rm -rf "$ref"
  "$k" build -q --root "$dir" --no-cache --out "$ref" >/dev/null 2>"$work/ref-err"; refrc=$?
  [ "$refrc" -eq 0 ] || ref_failed=$((ref_failed + 1))
  # 5. The comparison, of two builds that both succeeded.
  if [ "$cached" -ne 0 ] || [ "$refrc" -ne 0 ]; then
    result="not compared"
  elif diff -rq --no-dereference "$dir/public" "$ref" >"$work/diff" 2>&1; then
    result=same; same=$((same + 1))
  else
    result="DIFFER: $(tr '\n' ';' <"$work/diff" | cut -c1-400)"
    differ=$((differ + 1))
  fi
  echo "trial $trial: $change · kill after ${delay}s: $outcome · cached=$cached (${took}s) · ref=$refrc · leftovers=$left · $result"
  [ "$cached" -eq 0 ] || sed 's/^/  cached: /' "$work/err" | head -5
  [ "$refrc" -eq 0 ] || sed 's/^/  ref: /' "$work/ref-err" | head -5
done
echo "# $trials trials: $killed killed mid-build, $finished finished before the kill; cached builds failed: $cached_failed; reference builds failed: $ref_failed; staging trees left after the next build: $leftovers; identical: $same; different: $differ; not compared (a build failed): $((trials - same - differ))"
