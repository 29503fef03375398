#!/usr/bin/env bash
# Size and reported max error of every animated glTF of the corpus and data/, plus the bundled mocap
# clips, for two sinew CLIs side by side (e.g. a build of an earlier commit and the current one):
#   bench/compare_sizes.sh BASE_CLI NEW_CLI [compress options, e.g. --strip or --error-cm 0.1]
# Prints a markdown table: file, bytes and max error (cm) of each, size ratio new / base.
set -uo pipefail
base=$1 new=$2
shift 2
C=${SINEW_CORPUS:-$(dirname "$0")/../../shared/corpus}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
files=$(ls data/*.glb 2> /dev/null; [ -d "$C" ] && find "$C/gltf" \( -name '*.gltf' -o -name '*.glb' \) | sort)
measure() { # cli file extra-args... -> "bytes max_cm" or "- -"
	local cli=$1 f=$2
	shift 2
	"$cli" compress "$f" -o "$tmp/out.sinew" --json "$@" 2> /dev/null |
		python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["compressed_bytes"], "%.5f" % d["max_error_cm"])' 2> /dev/null ||
		echo "- -"
}
echo "| file | base bytes | base max cm | new bytes | new max cm | new / base |"
echo "|---|---:|---:|---:|---:|---:|"
tb=0 tn=0
row() { # label file args...
	local label=$1 f=$2
	shift 2
	read -r b be < <(measure "$base" "$f" "$@")
	read -r n ne < <(measure "$new" "$f" "$@")
	if [ "$b" = - ] || [ "$n" = - ]; then
		echo "| $label | $b | $be | $n | $ne | - |"
		return
	fi
	tb=$((tb + b)) tn=$((tn + n))
	echo "| $label | $b | $be | $n | $ne | $(python3 -c "print('%.3f' % ($n / $b))") |"
}
for f in $files; do row "$(basename "$f")" "$f" "$@"; done
row cmu_01_01.bvh data/cmu_01_01.bvh --unit-cm 5.644 "$@"
row acl_09_02.acl.sjson data/acl_09_02.acl.sjson "$@"
echo "| total | $tb | | $tn | | $(python3 -c "print('%.3f' % ($tn / $tb))") |"
