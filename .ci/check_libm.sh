#!/usr/bin/env bash
# The codec calls none of libm's functions but the exact ones (docs/format.md, Appendix B: the same bytes on
# every platform): of the symbols the library's objects leave undefined, those libm defines may only be
# sqrt, floor, ceil, trunc, fabs and copysign (and their float forms), whose results every C library
# gives alike. sin, atan2, pow, log2, fmax ... come from src/core/elementary.c and base.h instead.
# usage: .ci/check_libm.sh BUILD_DIR [NM]   (the objects of a CMake build: BUILD_DIR/CMakeFiles/sinew_objects.dir)
set -euo pipefail
cd "$(dirname "$0")/.."
build=$1
nm_tool=${2:-nm}
objects=$(find "$build/CMakeFiles/sinew_objects.dir" -name '*.o' | sort)
[ -n "$objects" ] || { echo "check_libm: no library objects under $build"; exit 1; }
libm=$(gcc -print-file-name=libm.so.6)
[ -e "$libm" ] || { echo "check_libm: libm.so.6 not found"; exit 1; }
# libm's functions, by name (versions dropped)
nm -D --defined-only "$libm" | awk '$2 ~ /^[TWi]$/ {sub(/@.*/, "", $3); print $3}' | sort -u > "$build/libm.symbols"
exact='^(sqrt|floor|ceil|trunc|fabs|copysign)f?$'
fail=0
for o in $objects; do
  bad=$("$nm_tool" -u "$o" | awk '{print $NF}' | sed 's/@.*//' | sort -u | comm -12 - "$build/libm.symbols" | grep -vE "$exact" || true)
  if [ -n "$bad" ]; then echo "check_libm: ${o#"$build"/CMakeFiles/sinew_objects.dir/} calls libm: $(echo $bad)"; fail=1; fi
done
[ $fail -eq 0 ] && echo "libm ok: $(echo "$objects" | wc -l) library objects call no libm function but $exact"
exit $fail
