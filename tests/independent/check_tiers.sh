#!/bin/sh
# Quality tiers through the independent judge: each file is compressed with --tiers 0.1,0.03,0.01,
# decompressed as it plays with tiers 0..k (sinew decompress --tier k --source FILE), and three.js's
# GLTFLoader + AnimationMixer compare it with the source (check_gltf.mjs --compare) at tier k's
# bound. The base tier is also judged at the finest bound, where it must fail on some file: the
# tiers really are coarser. The CLI: $SINEW_CLI, else build/sinew.
#
#   tests/independent/check_tiers.sh [FILE.glb|.gltf ...]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
cli=${SINEW_CLI:-$repo/build/sinew}
corpus=${SINEW_CORPUS:-$repo/../shared/corpus}
files="$*"
if [ -z "$files" ]; then
	files="$repo/data/godot_platformer_player.glb"
	for f in khronos/Fox/Fox.glb khronos/CesiumMan/CesiumMan.gltf threejs/RobotExpressive.glb; do
		[ -f "$corpus/gltf/$f" ] && files="$files $corpus/gltf/$f"
	done
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
