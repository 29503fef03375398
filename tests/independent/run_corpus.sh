#!/bin/sh
# Runs the independent judge (check_gltf.mjs) on every animated glTF of the shared corpus and of
# data/, plus a few BVH / AMC / ACL clips. Extra arguments go to check_gltf.mjs before the files
# (e.g. --error-cm 0.1, --json, --jobs 2). The CLI: $SINEW_CLI, else build/sinew.
#
#   tests/independent/run_corpus.sh [--cli PATH] [options...]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
corpus=${SINEW_CORPUS:-$repo/../shared/corpus}
[ -d "$corpus" ] || corpus=/work/shared/corpus
corpus=$(cd "$corpus" && pwd -P)
if [ ! -d "$repo/web/browser-test/node_modules/three" ]; then
	npm ci --prefix "$repo/web/browser-test" --no-audit --no-fund >&2
fi

gltf=$(find "$corpus/gltf" "$repo/data" \( -name '*.gltf' -o -name '*.glb' \) 2>/dev/null | sort)
bandai="$corpus/bvh/bandai/dataset-1/dataset-1_walk_normal_001.bvh $corpus/bvh/bandai/dataset-1/dataset-1_dance-short_normal_001.bvh"
bandai2=$(find "$corpus/bvh/bandai/dataset-2" -name '*.bvh' 2>/dev/null | sort | head -n 1)

# shellcheck disable=SC2086
exec node "$here/check_gltf.mjs" --packed "$@" \
	$gltf \
	--import-args "--unit-cm 5.644" "$repo/data/cmu_01_01.bvh" \
	--import-args "" $bandai $bandai2 \
	"$corpus/amc/cmu/01/01_01.amc" \
	"$repo/data/acl_09_02.acl.sjson"
