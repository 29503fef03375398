#!/bin/sh
# Runs the independent judge (check_gltf.mjs --packed) on every animated glTF of the shared corpus and
# of data/, and every BVH (every folder of bvh/), AMC and ACL clip. Extra arguments go to check_gltf.mjs
# before the files (e.g. --error-cm 0.1, --subdiv 4, --json, --jobs 2). The CLI: $SINEW_CLI, else
# build/sinew. The corpus: $SINEW_CORPUS, else ../shared/corpus beside the repository; without it the
# run fails, unless --allow-no-corpus is given (then only data/ is checked). Skips: only the files
# tests/independent/allowed_skips.json names (any other refusal or crash of sinew fails the run).
#
#   tests/independent/run_corpus.sh [--allow-no-corpus] [--cli PATH] [options...]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
allow_no_corpus=0
for a in "$@"; do [ "$a" = "--allow-no-corpus" ] && allow_no_corpus=1; done
if [ "$allow_no_corpus" = 1 ]; then # drop the flag from the arguments for check_gltf.mjs
	n=$#
	while [ "$n" -gt 0 ]; do a=$1; shift; [ "$a" = "--allow-no-corpus" ] || set -- "$@" "$a"; n=$((n - 1)); done
fi
corpus=${SINEW_CORPUS:-$repo/../shared/corpus}
if [ -d "$corpus/gltf" ]; then
	corpus=$(cd "$corpus" && pwd -P)
elif [ "$allow_no_corpus" = 1 ]; then
	echo "corpus $corpus absent (--allow-no-corpus): only the bundled clips of data/ are checked" >&2
	corpus=/nonexistent
else
	echo "run_corpus.sh: error: no corpus at $corpus (set SINEW_CORPUS, or --allow-no-corpus to check data/ only)" >&2
	exit 2
fi
if [ ! -d "$repo/web/browser-test/node_modules/three" ]; then
	npm ci --prefix "$repo/web/browser-test" --no-audit --no-fund >&2
fi

gltf=$(find "$corpus/gltf" "$repo/data" \( -name '*.gltf' -o -name '*.glb' \) 2>/dev/null | sort)
# every BVH of every folder of bvh/ (cm; cgspeed's CMU conversion in CMU units, 5.644 cm, like data/'s copy
# of its 01_01), every CMU AMC and every ACL file (cm); the ACL files that cannot be judged (track lists of
# scalar tracks only, which have no glTF form, and the non-clips) are skipped by name and reason in
# allowed_skips.json
mocap=$(find "$corpus/bvh" "$corpus/amc" "$corpus/acl" \( -name '*.bvh' -o -name '*.amc' -o -name '*.acl.sjson' \) \
	! -path '*/cmu_cgspeed/*' 2>/dev/null | sort)
cmu_units=$(find "$corpus/bvh/cmu_cgspeed" -name '*.bvh' 2>/dev/null | sort)
if [ "$corpus" != /nonexistent ]; then
	ng=$(printf '%s\n' "$gltf" | grep -c "^$corpus/" || true)
	nm=$(printf '%s\n' "$mocap" | grep -c . || true)
	if [ "$ng" -eq 0 ] || [ "$nm" -eq 0 ]; then
		echo "run_corpus.sh: error: the corpus at $corpus holds $ng glTF and $nm BVH/AMC/ACL files" >&2
		exit 2
	fi
fi

# shellcheck disable=SC2086
exec node "$here/check_gltf.mjs" --packed "$@" \
	$gltf \
	--import-args "--unit-cm 5.644" "$repo/data/cmu_01_01.bvh" $cmu_units \
	--import-args "" $mocap \
	"$repo/data/acl_09_02.acl.sjson"
