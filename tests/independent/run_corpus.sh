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
if [ -d "$corpus" ]; then
	corpus=$(cd "$corpus" && pwd -P)
else
	echo "corpus $corpus absent: only the bundled clips of data/ are checked" >&2
	corpus=/nonexistent
fi
if [ ! -d "$repo/web/browser-test/node_modules/three" ]; then
	npm ci --prefix "$repo/web/browser-test" --no-audit --no-fund >&2
fi

gltf=$(find "$corpus/gltf" "$repo/data" \( -name '*.gltf' -o -name '*.glb' \) 2>/dev/null | sort)
# every Bandai BVH take (cm), the assimp BVH, every CMU AMC and every ACL transform clip (cm); ACL track
# lists hold scalar tracks only, which have no glTF form (the C tests check them)
mocap=$(find "$corpus/bvh/bandai" "$corpus/bvh/assimp" "$corpus/amc" "$corpus/acl" \( -name '*.bvh' -o -name '*.amc' \
	-o -name '*.acl.sjson' \) ! -name 'track_list*' 2>/dev/null | sort)

# shellcheck disable=SC2086
exec node "$here/check_gltf.mjs" --packed "$@" \
	$gltf \
	--import-args "--unit-cm 5.644" "$repo/data/cmu_01_01.bvh" \
	--import-args "" $mocap \
	"$repo/data/acl_09_02.acl.sjson"
