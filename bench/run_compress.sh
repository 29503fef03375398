#!/usr/bin/env bash
# Reproduces docs/benchmarks.md: sizes and errors on ACL's regression clips and on mocap, and, when a
# local ACL 2.1 build is given, each clip's compression time beside ACL's in the same run.
# usage: bench/run_compress.sh [build-dir] [path/to/acl_compressor]    (needs ../shared/corpus beside the repository)
#        SINEW_BENCH_FLAGS=--plain-knots bench/run_compress.sh build   (the same without midpoint knots)
# Times: sinew's is `bench_compress --best-of 3` (sinew_compress of the clip, one thread); ACL's is the
# best of 3 of its own `acl_compressor -acl=FILE -stats` "compression_time" (its compress_track_list
# alone). Mocap is handed to ACL as `sinew convert --no-end-sites` writes it (the same joints and samples).
# Short clips are also timed cold (a fresh process each, as ACL's compression_time always is):
# SINEW_BENCH_COLD_RUNS (31) processes of each, taken in turn; the best and the median of each.
# A clip ACL fails on (no compression_time) is named in its table and left out of both totals, which say so;
# a sinew time that cannot be measured, or a cold run of either that fails, ends the script with exit code 1.
set -euo pipefail
B=${1:-build}
ACL=${2:-${ACL_COMPRESSOR:-}}
C=${SINEW_CORPUS:-$(dirname "$0")/../../shared/corpus}
[ -d "$C" ] || { echo "corpus not found at $C"; exit 0; }
acl_set=()
for f in 104_30 13_07 49_09 81_18 81_18_looping 09_02 09_02_multi_root 09_02_with_scale 09_02_with_zero_scale \
  09_02_with_rising_scale 76_07 82_01 90_10 121_10 93_01 93_01_zero_range_extent; do acl_set+=("$C/acl/$f.acl.sjson"); done
cmu_set=()
for f in 01/01_01 01/01_08 01/01_14 02/02_01 02/02_02 02/02_03 02/02_04 02/02_05 02/02_06 02/02_07 02/02_08 02/02_09 02/02_10; do
  cmu_set+=("$C/amc/cmu/$f.amc"); done
cmu_set+=("$C/bvh/cmu_cgspeed/01_01.bvh:5.644" "$C/bvh/assimp/Boxing_Toes.bvh")
echo "== ACL regression clips (cm, 24 Hz), ACL 2.1: 131,581 bytes, max error 0.0495 cm"
"$B/bench_compress" ${SINEW_BENCH_FLAGS:-} "${acl_set[@]}"
echo "== CMU AMC + BVH (CMU units = 5.644 cm, no end sites as in ACL's conversion), ACL 2.1: 2,384,104 bytes, max 0.0266 cm"
"$B/bench_compress" ${SINEW_BENCH_FLAGS:-} --no-end-sites "${cmu_set[@]}"
[ -n "$ACL" ] || exit 0
[ -x "$ACL" ] || { echo "ACL compressor not found: $ACL"; exit 1; }

# compression time, sinew beside ACL, one clip at a time
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
acl_time() { # best of 3 of ACL's own compression_time, in ms; "fails" when ACL gives none
  local best="" t i
  for i in 1 2 3; do
    t=$("$ACL" -acl="$1" -stats 2>/dev/null | awk '$1=="compression_time"{print $3 * 1000; exit}')
    [ -n "$t" ] || { echo "fails"; return; }
    if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN{exit !(a < b)}'; then best=$t; fi
  done
  echo "$best"
}
sinew_time() { # best of 3 of sinew_compress, in ms
  "$B/bench_compress" ${SINEW_BENCH_FLAGS:-} --best-of 3 "$@" --json | sed -n 's/.*"total":{[^}]*"compress_ns":\([0-9]*\).*/\1/p' |
    awk '{printf "%.3f", $1 / 1e6}'
}
mocap=("${cmu_set[@]}")
for f in $(ls "$C"/bvh/bandai/dataset-1/*.bvh | head -11); do mocap+=("$f"); done
report() { # set name, then files (FILE or FILE:unit_cm)
  local name=$1 f path unit flags sinew acl ts=0 ta=0 n=0 acl_failed=(); shift
  echo
  echo "== compression time, $name: sinew (one thread) and ACL 2.1 in the same run (ms, best of 3)"
  echo "| clip | sinew | ACL 2.1 | ACL / sinew |"
  echo "|---|---:|---:|---:|"
  for f in "$@"; do
    path=${f%%:*}; unit=""; [ "$path" != "$f" ] && unit=${f##*:}
    flags=(); [ "$name" = mocap ] && flags=(--no-end-sites)
    if [ "${path%.acl.sjson}" != "$path" ]; then acl_in=$path
    else
      acl_in="$tmp/$(basename "$path").acl.sjson"
      "$B/sinew" convert "$path" -o "$acl_in" -q --no-end-sites ${unit:+--unit-cm $unit}
    fi
    sinew=$(sinew_time "${flags[@]}" "$f")
    [ -n "$sinew" ] || { echo "bench: no sinew compression time for $f"; exit 1; }
    acl=$(acl_time "$acl_in")
    if [ "$acl" = "fails" ]; then
      echo "| $(basename "$path") | $sinew | fails (no compression_time) | not compared |"
      acl_failed+=("$(basename "$path")")
      continue
    fi
    echo "| $(basename "$path") | $sinew | $acl | $(awk -v a="$acl" -v s="$sinew" 'BEGIN{printf "%.2fx", a / s}') |"
    ts=$(awk -v a="$ts" -v b="$sinew" 'BEGIN{print a + b}'); ta=$(awk -v a="$ta" -v b="$acl" 'BEGIN{print a + b}'); n=$((n + 1))
  done
  echo "| **$n clips** | **$(printf %.1f "$ts")** | **$(printf %.1f "$ta")** | **$(awk -v a="$ta" -v s="$ts" 'BEGIN{printf "%.2fx", a / s}')** |"
  if [ ${#acl_failed[@]} -gt 0 ]; then
    echo "ACL 2.1 fails on ${#acl_failed[@]} of the $((n + ${#acl_failed[@]})) clips (${acl_failed[*]}): left out of both totals."
  fi
}
report acl "${acl_set[@]}"
report mocap "${mocap[@]}"

# Short clips cold, as ACL's figure is: its compression_time is the first compression of a fresh
# process, so sinew's here is too (`sinew compress --json -j 1`, compress_ns: sinew_compress of the
# file's one clip), N fresh processes of each, taken in turn: the best of each and the medians (a
# fresh process's time swings with the machine; the median shows how far).
N=${SINEW_BENCH_COLD_RUNS:-31}
echo
echo "== short clips, cold (a fresh process per compression, N = $N of each, in turn; µs)"
echo "| clip | samples | sinew best | ACL 2.1 best | ACL / sinew | sinew median | ACL median | ACL / sinew |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
median() { sort -n | awk '{v[NR] = $1} END {print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
cold_failed=0
for f in 90_10 121_10 82_01 76_07 93_01 93_01_zero_range_extent; do
  path="$C/acl/$f.acl.sjson"
  : > "$tmp/cold_acl"; : > "$tmp/cold_sinew"
  for i in $(seq "$N"); do
    { "$ACL" -acl="$path" -stats 2>/dev/null | awk '$1=="compression_time"{print $3 * 1e6; exit}' >> "$tmp/cold_acl"; } || true
    { "$B/sinew" compress "$path" -o "$tmp/cold.sinew" --strip --json -j 1 |
      sed -n 's/^{[^[]*"compress_ns":\([0-9]*\).*/\1/p' | awk '{print $1 / 1000}' >> "$tmp/cold_sinew"; } || true
  done
  ra=$(grep -c . "$tmp/cold_acl" || true); rs=$(grep -c . "$tmp/cold_sinew" || true)
  if [ "$ra" -ne "$N" ] || [ "$rs" -ne "$N" ]; then
    echo "| $f | timed in $rs of $N sinew runs and $ra of $N ACL runs: not compared |"
    cold_failed=1
    continue
  fi
  bs=$(sort -n "$tmp/cold_sinew" | head -1); ba=$(sort -n "$tmp/cold_acl" | head -1)
  ms=$(median < "$tmp/cold_sinew"); ma=$(median < "$tmp/cold_acl")
  samples=$(awk '$1=="num_samples"{print $3; exit}' "$path")
  awk -v f="$f" -v n="$samples" -v bs="$bs" -v ba="$ba" -v ms="$ms" -v ma="$ma" \
    'BEGIN{printf "| %s | %s | %.0f | %.0f | %.2fx | %.0f | %.0f | %.2fx |\n", f, n, bs, ba, ba / bs, ms, ma, ma / ms}'
done
[ "$cold_failed" -eq 0 ] || { echo "bench: a cold run gave no time (see the table)"; exit 1; }
