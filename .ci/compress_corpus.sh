#!/usr/bin/env bash
# One build's batch compression of every animation file of the corpus (glTF, BVH, AMC, ACL) and data/, for the
# determinism step of .ci/run, which compares the blobs between builds. It fails unless the files refused are
# exactly the known ones below, each by name, with a one-line error, and every other file gives a blob: a
# new refusal, a crash, or the same failure in every build cannot pass as "identical".
# usage: .ci/compress_corpus.sh OUT_DIR CLI... -- [compress options]
#   .ci/compress_corpus.sh build-ci-det/musl build-ci-musl/sinew -- -j 2 --page-bytes 4096
#   .ci/compress_corpus.sh build-ci-det/arm64 qemu-aarch64 -L /usr/aarch64-linux-gnu build-ci-arm64/sinew -- -j 2
# SINEW_DET_FOLDERS: the corpus folders (default "gltf bvh amc acl"); the corpus is $SINEW_CORPUS or
# ../shared/corpus, and must be there.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$1; shift
cli=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do cli+=("$1"); shift; done
[ $# -gt 0 ] && shift
corpus=${SINEW_CORPUS:-../shared/corpus}
[ -d "$corpus" ] || { echo "compress_corpus: no corpus at $corpus"; exit 1; }
corpus=$(cd "$corpus" && pwd)

# Refused on purpose, with the reason (files of the folders compressed; any other refusal fails)
known=(
  "acl/format_reference.acl.sjson"         # holds both a clip and a track_list: ACL files hold one
  "acl/no_output_scalar_tracks.acl.sjson"  # every track stripped (ACL's invalid output index)
  "acl/no_output_transform_tracks.acl.sjson" # no bones
)

inputs=(data)
for d in ${SINEW_DET_FOLDERS:-gltf bvh amc acl}; do inputs+=("$corpus/$d"); done
expected_refusals=()
for k in "${known[@]}"; do
  for d in ${SINEW_DET_FOLDERS:-gltf bvh amc acl}; do [ "${k#"$d"/}" != "$k" ] && expected_refusals+=("$k"); done
done
rm -rf "$out"
mkdir -p "$out"
set +e
"${cli[@]}" compress "${inputs[@]}" -o "$out" -q "$@" 2> "$out.stderr"
rc=$?
set -e
# every line of stderr is one refusal: "sinew: error: <file>: <why>" (corpus files named from the corpus)
refused=$(sed -n "s|^sinew: error: \([^:]*\): .*|\1|p" "$out.stderr" | sed "s|^$corpus/||" | sort)
want=$(printf '%s\n' "${expected_refusals[@]}" | sed '/^$/d' | sort)
other=$(grep -v "^sinew: error: [^:]*: " "$out.stderr" || true)
fail=0
if [ -n "$other" ]; then echo "compress_corpus: unexpected output on stderr (exit code $rc):"; echo "$other" | head -20; fail=1; fi
if [ "$refused" != "$want" ]; then
  echo "compress_corpus: refused files differ from the known refusals (exit code $rc)"
  { diff <(echo "$want") <(echo "$refused") | sed -n 's/^< /  no longer refused: /p; s/^> /  refused: /p' | head -20; } || true
  echo "  ($( { diff <(echo "$want") <(echo "$refused") || true; } | grep -c '^[<>]') files in all; the first messages:)"
  grep -v -F -f <(echo "$want" | sed '/^$/d; s|^|'"$corpus"'/|; s|$|:|') "$out.stderr" | head -5 || true
  fail=1
fi
if [ ${#expected_refusals[@]} -gt 0 ] && [ $rc -ne 1 ]; then echo "compress_corpus: exit code $rc, expected 1"; fail=1; fi
if [ ${#expected_refusals[@]} -eq 0 ] && [ $rc -ne 0 ]; then echo "compress_corpus: exit code $rc"; fail=1; fi
files=$(find "${inputs[@]}" -type f \( -name '*.glb' -o -name '*.gltf' -o -name '*.bvh' -o -name '*.amc' -o -name '*.acl.sjson' \) | wc -l)
blobs=$(find "$out" -name '*.sinew' | wc -l)
if [ "$blobs" -ne $((files - ${#expected_refusals[@]})) ]; then
  echo "compress_corpus: $blobs blobs from $files files with ${#expected_refusals[@]} known refusals"; fail=1
fi
[ $fail -eq 0 ] || exit 1
echo "$blobs blobs from $files files (${#expected_refusals[@]} refused as known)"
