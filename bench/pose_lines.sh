#!/usr/bin/env bash
# sinew — see include/sinew.h for version and licence
# The cache lines and pages one pose touches, per part of the blob and of the context (a line-count
# model measured by tracing every data access of one sampling call with valgrind's lackey).
#   bench/pose_lines.sh BUILD FILE [--random-access] [--sample K] [--plain-knots]
# FILE: a .sinew blob, or anything the CLI compresses (then at the defaults, --strip).
set -euo pipefail
build=${1:?usage: bench/pose_lines.sh BUILD FILE [options]}; file=${2:?usage: bench/pose_lines.sh BUILD FILE [options]}; shift 2
command -v valgrind > /dev/null || { echo "pose_lines.sh: needs valgrind (apt-get install valgrind)" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
trace_args=(); compress_args=(--strip -q)
for a in "$@"; do
	case $a in --plain-knots) compress_args+=("$a") ;; *) trace_args+=("$a") ;; esac
done
blob=$file
if [[ $file != *.sinew ]]; then blob=$tmp/clip.sinew; "$build/sinew" compress "$file" -o "$blob" "${compress_args[@]}"; fi
valgrind --tool=lackey --trace-mem=yes --log-file="$tmp/trace" "$build/bench_pose_lines" trace "$blob" "${trace_args[@]}" > "$tmp/map"
head -1 "$tmp/map"
"$build/bench_pose_lines" count "$tmp/map" < "$tmp/trace"
