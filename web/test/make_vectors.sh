#!/usr/bin/env bash
# sinew — see include/sinew.h for version and licence
# Regenerates web/test/data: blobs compressed by the native CLI from the bundled clips (data/,
# licences in data/NOTICE.md) and their expected poses from the native reference kernel
# (make_vectors.c). Usage: web/test/make_vectors.sh [path/to/sinew CLI] (default build/sinew).
set -euo pipefail
cd "$(dirname "$0")/../.."
SINEW=${1:-build/sinew}
[ -x "$SINEW" ] || { echo "make_vectors: build the CLI first ($SINEW not found)" >&2; exit 1; }
out=web/test/data
mkdir -p "$out"
tool=$(mktemp -d)/make_vectors
trap 'rm -rf "$(dirname "$tool")"' EXIT
cc -std=c11 -O2 -Iinclude web/test/make_vectors.c src/core/*.c src/clip/*.c src/format/format_read.c src/format/format_rig.c \
  src/decompress/*.c -lm -o "$tool"

# name, times per clip, CLI arguments
make() {
	local name=$1 times=$2; shift 2
	"$SINEW" compress "$@" -o "$out/$name.sinew" -q
	"$tool" "$out/$name.sinew" "$out/$name.expect" "$times"
	echo "$out/$name.sinew: $(wc -c < "$out/$name.sinew") bytes, $out/$name.expect: $(wc -c < "$out/$name.expect") bytes"
}
make cmu_01_01 12 data/cmu_01_01.bvh --unit-cm 5.644 --strip
make acl_09_02 12 data/acl_09_02.acl.sjson
make godot_platformer_player 8 data/godot_platformer_player.glb
