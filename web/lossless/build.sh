#!/usr/bin/env bash
# sinew — see include/sinew.h for version and licence
# Builds lossless.wasm (wasm MVP) and lossless_simd.wasm (SIMD128) from lossless.c with clang + wasm-ld.
# -fno-vectorize: the loop vectorizer only bloats the generic loops; the 4-lane paths are explicit.
# Fails if either is larger than the 4096-byte budget. CC overrides the compiler (default: clang), OUT the
# output folder (default: this one; web/build_wasm.sh --check builds into a temporary one).
set -euo pipefail
cd "$(dirname "$0")"
CC=${CC:-clang}
OUT=${OUT:-.}
BUDGET=4096
FLAGS=(--target=wasm32 -O3 -fno-vectorize -nostdlib -ffreestanding -std=c11 -Wall -Wextra -Wpedantic -Wshadow -Wcast-align -Wconversion
	-Wno-sign-conversion -Wstrict-prototypes -Wmissing-prototypes -Werror)
LDFLAGS=(--target=wasm32 -nostdlib -Wl,--no-entry -Wl,--strip-all -Wl,--export=alloc -Wl,--export=sample -Wl,--export=sample_all -Wl,-z,stack-size=4096)
# compiled, then linked without -O: a link with -O makes clang run binaryen's wasm-opt when one is on the PATH
# (without the SIMD feature: the SIMD build then fails to validate, the baseline build comes out different)
objs=$(mktemp -d)
trap 'rm -rf "$objs"' EXIT
"$CC" "${FLAGS[@]}" -mcpu=mvp -c lossless.c -o "$objs/lossless.o"
"$CC" "${FLAGS[@]}" -msimd128 -c lossless.c -o "$objs/lossless_simd.o"
"$CC" "${LDFLAGS[@]}" "$objs/lossless.o" -o "$OUT/lossless.wasm"
"$CC" "${LDFLAGS[@]}" "$objs/lossless_simd.o" -o "$OUT/lossless_simd.wasm"
fail=0
for f in "$OUT/lossless.wasm" "$OUT/lossless_simd.wasm"; do
	size=$(wc -c < "$f")
	echo "$f: $size bytes (budget $BUDGET)"
	[ "$size" -le "$BUDGET" ] || { echo "error: $f exceeds $BUDGET bytes" >&2; fail=1; }
done
exit $fail
