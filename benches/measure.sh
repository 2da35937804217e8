#!/usr/bin/env bash
# Times a kansoku command RUNS times (default 3) with /usr/bin/time and
# prints each run and the medians: wall s, CPU s (user+sys), peak RSS MiB.
#
#   benches/measure.sh LABEL PAGES -- target/release/kansoku build --root /tmp/c10k
#
# PAGES (source pages) gives pages/s; 0 leaves it out. The last line is a
# Markdown table row (medians, then the load average when done). RUNS=n
# changes the number of runs.
set -euo pipefail
label=$1 pages=$2
shift 2
[[ ${1:-} == -- ]] && shift
runs=${RUNS:-3}
walls=() cpus=() rsss=()
for ((i = 1; i <= runs; i++)); do
    out=$(mktemp)
    /usr/bin/time -f '%e %U %S %M' -o "$out" "$@" >/dev/null 2>&1 || {
        echo "run $i failed: $*" >&2
        "$@" >&2 || true
        exit 1
    }
    read -r e u s m <"$out"
    rm -f "$out"
    cpu=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }')
    rss=$(awk -v m="$m" 'BEGIN { printf "%d", m / 1024 }')
    echo "  run $i: wall ${e}s cpu ${cpu}s (user $u sys $s) rss ${rss} MiB" >&2
    walls+=("$e") cpus+=("$cpu") rsss+=("$rss")
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
w=$(median "${walls[@]}") c=$(median "${cpus[@]}") r=$(median "${rsss[@]}")
if [[ $pages -gt 0 ]]; then
    pps=$(awk -v p="$pages" -v w="$w" 'BEGIN { printf "%d", p / w }')
else
    pps=-
fi
echo "| $label | $w s | $c s | $r MiB | $pps | $(cut -d' ' -f1-3 /proc/loadavg) |"
