#!/bin/sh
# Quality tiers through the independent judge: each file is compressed with --tiers 0.1,0.03,0.01,
# decompressed as it plays with tiers 0..k (sinew decompress --tier k --source FILE), and three.js's
# GLTFLoader + AnimationMixer compare it with the source (check_gltf.mjs --compare) at tier k's
# bound. The base tier is also judged at the finest bound, where it must fail on some file: the
# tiers really are coarser. The CLI: $SINEW_CLI, else build/sinew. Without FILEs: data/'s platformer and
# three corpus characters ($SINEW_CORPUS, else ../shared/corpus); a corpus without them fails (exit 2), and
# so does no corpus, unless --allow-no-corpus is given (then data/ alone is judged, and it says so).
#
#   tests/independent/check_tiers.sh [--allow-no-corpus] [FILE.glb|.gltf ...]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
cli=${SINEW_CLI:-$repo/build/sinew}
corpus=${SINEW_CORPUS:-$repo/../shared/corpus}
allow_no_corpus=0
if [ "${1:-}" = "--allow-no-corpus" ]; then allow_no_corpus=1; shift; fi
files="$*"
if [ -z "$files" ]; then
	files="$repo/data/godot_platformer_player.glb"
	if [ -d "$corpus/gltf" ]; then
		for f in khronos/Fox/Fox.glb khronos/CesiumMan/CesiumMan.gltf threejs/RobotExpressive.glb; do
			[ -f "$corpus/gltf/$f" ] || { echo "check_tiers.sh: error: $corpus/gltf/$f is missing from the corpus" >&2; exit 2; }
			files="$files $corpus/gltf/$f"
		done
	elif [ "$allow_no_corpus" = 1 ]; then
		echo "corpus $corpus absent (--allow-no-corpus): only data/godot_platformer_player.glb is judged" >&2
	else
		echo "check_tiers.sh: error: no corpus at $corpus (set SINEW_CORPUS, or --allow-no-corpus for data/ only)" >&2
		exit 2
	fi
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
bounds="0.1 0.03 0.01"
pass=0 fail=0 coarser=0
for f in $files; do
	name=$(basename "$f")
	"$cli" compress "$f" -o "$out/t.sinew" -q --tiers 0.1,0.03,0.01
	k=0
	for b in $bounds; do
		"$cli" decompress "$out/t.sinew" --tier $k --source "$f" -o "$out/t$k.glb" > /dev/null
		if node "$here/check_gltf.mjs" --compare "$f" "$out/t$k.glb" --error-cm "$b" > "$out/log" 2>&1; then
			pass=$((pass + 1)); echo "$name: tiers 0..$k within $b cm: ok"
		else
			fail=$((fail + 1)); echo "$name: tiers 0..$k within $b cm: FAILED"; tail -5 "$out/log"
		fi
		k=$((k + 1))
	done
	if ! node "$here/check_gltf.mjs" --compare "$f" "$out/t0.glb" --error-cm 0.01 > /dev/null 2>&1; then coarser=$((coarser + 1)); fi
done
echo "tiers judged: $pass passed, $fail failed; the base tier is coarser than 0.01 cm on $coarser file(s)"
[ "$fail" -eq 0 ] && [ "$coarser" -gt 0 ]
