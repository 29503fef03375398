#!/usr/bin/env bash
# Reproduces docs/benchmarks.md (sizes and errors against ACL 2.1's figures on the same clips).
# usage: bench/run_compress.sh [build-dir]   (needs ../shared/corpus beside the repository)
#        SINEW_BENCH_FLAGS=--plain-knots bench/run_compress.sh build   (the same without midpoint knots)
set -euo pipefail
B=${1:-build}
C=${SINEW_CORPUS:-$(dirname "$0")/../../shared/corpus}
[ -d "$C" ] || { echo "corpus not found at $C"; exit 0; }
echo "== ACL regression clips (cm, 24 Hz), ACL 2.1: 131,581 bytes, max error 0.0495 cm"
"$B/bench_compress" ${SINEW_BENCH_FLAGS:-} $(for f in 104_30 13_07 49_09 81_18 81_18_looping 09_02 09_02_multi_root 09_02_with_scale \
  09_02_with_zero_scale 09_02_with_rising_scale 76_07 82_01 90_10 121_10 93_01 93_01_zero_range_extent; do
  echo "$C/acl/$f.acl.sjson"; done)
echo "== CMU AMC + BVH (CMU units = 5.644 cm, no end sites as in ACL's conversion), ACL 2.1: 2,384,104 bytes, max 0.0266 cm"
"$B/bench_compress" ${SINEW_BENCH_FLAGS:-} --no-end-sites $(for f in 01/01_01 01/01_08 01/01_14 02/02_01 02/02_02 02/02_03 02/02_04 02/02_05 \
  02/02_06 02/02_07 02/02_08 02/02_09 02/02_10; do echo "$C/amc/cmu/$f.amc"; done) \
  "$C/bvh/cmu_cgspeed/01_01.bvh:5.644" "$C/bvh/assimp/Boxing_Toes.bvh"
