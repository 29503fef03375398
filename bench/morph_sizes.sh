#!/usr/bin/env bash
# Morph weights side by side: a baseline CLI (A) against another (B, default build/sinew) on every corpus file with
# morph targets, at 0.01 and 0.1 cm: `sinew compress --strip` and `sinew pack` bytes, and the independent judge's
# worst morphed vertex (tests/independent/check_gltf.mjs --packed: decompressed / packed, cm; FAIL when a file
# fails the judge). One markdown row per file and bound; any figure it cannot measure stops it with an error.
# usage: bench/morph_sizes.sh BASELINE_CLI [CLI]
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { echo "usage: bench/morph_sizes.sh BASELINE_CLI [CLI]" >&2; exit 2; }
A=$1; B=${2:-build/sinew}; C=${SINEW_CORPUS:-../shared/corpus}/gltf
[ -d "$C" ] || { echo "morph_sizes: no glTF corpus at $C" >&2; exit 2; }
files="khronos/AnimatedMorphCube/AnimatedMorphCube.gltf khronos/AnimatedMorphSphere/AnimatedMorphSphere.gltf
  khronos/MorphStressTest/MorphStressTest.gltf khronos/SimpleMorph/SimpleMorph.gltf threejs/Flamingo.glb threejs/Horse.glb
  threejs/RobotExpressive.glb blender_io/24_animation_pointer/24_animation_pointer.gltf"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
field() { node -e "const v = JSON.parse(require('fs').readFileSync(0))['$1']; if (typeof v !== 'number') process.exit(1); process.stdout.write(String(v))"; }
echo "| file | bound cm | A: stripped | packed | morph vertices cm | B: stripped | packed | morph vertices cm |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for f in $files; do
  for e in 0.01 0.1; do
    row="$(basename "$f") | $e"
    for cli in "$A" "$B"; do
      s=$("$cli" compress "$C/$f" -o "$tmp/x.sinew" --strip --error-cm $e --json -q | field compressed_bytes)
      p=$("$cli" pack "$C/$f" -o "$tmp/x.glb" --error-cm $e --json -q | field animation_bytes_after)
      j=$(node tests/independent/check_gltf.mjs --cli "$cli" --packed --error-cm $e --json "$C/$f" | node -e "
        const r = JSON.parse(require('fs').readFileSync(0)).files[0];
        if (!r.clips.length || typeof r.max_morph_vertex_error_cm !== 'number') { console.error(r.error ?? 'no morph vertex error'); process.exit(1); }
        process.stdout.write(r.max_morph_vertex_error_cm.toFixed(5) + ' / ' + r.packed.max_morph_vertex_error_cm.toFixed(5) + (r.pass && r.packed.pass ? '' : ' FAIL'))") || true
      [ -n "$j" ] || { echo "morph_sizes: the judge measured nothing on $f with $cli" >&2; exit 1; }
      row="$row | $s | $p | $j"
    done
    echo "| $row |"
  done
done
