#!/usr/bin/env bash
# Reproduces the streaming figures of docs/benchmarks.md: for the longest corpus mocap take and a
# 10-minute reel concatenated from corpus takes (bench/make_long_bvh.py), the blob unpaged and
# with 4 KB / 64 KB pages (resident part, pages), `sinew bench --stream` (ns per pose streamed vs
# every page present, misses), the base tier of --tiers 0.1,0.01 against the full clip, and the
# time to the first pose through web/stream.mjs (0 and 50 ms per range read).
# usage: bench/run_stream.sh [build-dir]   (needs ../shared/corpus beside the repository)
set -euo pipefail
B=${1:-build}
C=${SINEW_CORPUS:-$(dirname "$0")/../../shared/corpus}
[ -d "$C" ] || { echo "corpus not found at $C"; exit 0; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
long="$C/bvh/bandai/dataset-1/dataset-1_dance-short_normal_001.bvh"
python3 "$(dirname "$0")/make_long_bvh.py" "$T/reel10.bvh" 600 "$C"/bvh/bandai/dataset-1/*.bvh
for src in "$long" "$T/reel10.bvh"; do
	name=$(basename "$src" .bvh)
	"$B/sinew" compress "$src" -o "$T/plain.sinew" -q --strip
	"$B/sinew" compress "$src" -o "$T/p4.sinew" -q --strip --page-bytes 4096
	"$B/sinew" compress "$src" -o "$T/p64.sinew" -q --strip --page-bytes 65536
	"$B/sinew" compress "$src" -o "$T/tiers.sinew" --strip --tiers 0.1,0.01 --page-bytes 65536 --json > "$T/tiers.json"
	echo "== $name"
	for f in plain p4 p64; do
		"$B/sinew" info "$T/$f.sinew" --json | python3 -c "import json,sys; d=json.load(sys.stdin); c=d['clips'][0]; print(f'  $f: {d[\"bytes\"]} bytes, resident {d[\"resident_bytes\"]}, {c[\"pages\"]} pages (largest {c[\"page_bytes_max\"]}), {c[\"duration\"]:.1f} s')"
	done
	"$B/sinew" bench "$T/p4.sinew" --stream --budget-bytes 16384 | tail -1
	"$B/sinew" bench "$T/p64.sinew" --stream --budget-bytes 196608 | tail -1
	python3 -c "import json; d=json.load(open('$T/tiers.json')); c=d['clips'][0]; [print(f'  tier {t[\"tier\"]} ({t[\"bound_cm\"]:.2g} cm): {t[\"bytes\"]} bytes of pages, max error {t[\"max_error_cm\"]:.5f} cm with tiers 0..{t[\"tier\"]}') for t in c['tiers']]"
	for lat in 0 50; do node "$(dirname "$0")/web/first_pose.mjs" "$T/p4.sinew" $lat; done
done
