#!/usr/bin/env bash
# sinew — see include/sinew.h for version and licence
# Builds and runs web/compress/test_libc.c: the wasm compressor's printf, strtod, math, allocator and qsort,
# compiled natively with their names prefixed wc_, against glibc's. Usage: web/compress/test_libc.sh
set -euo pipefail
cd "$(dirname "$0")"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
CC=${CC:-cc}
rename="-Dvsnprintf=wc_vsnprintf -Dsnprintf=wc_snprintf -Dstrtod=wc_strtod -Dstrtof=wc_strtof -Datof=wc_atof
  -Dsin=wc_sin -Dcos=wc_cos -Dacos=wc_acos -Datan2=wc_atan2 -Dcbrt=wc_cbrt -Dlog2=wc_log2 -Dpow=wc_pow -Dldexp=wc_ldexp -Dfrexp=wc_frexp -Dfmod=wc_fmod
  -Dnextafterf=wc_nextafterf -Dmalloc=wc_malloc -Dfree=wc_free -Dcalloc=wc_calloc -Drealloc=wc_realloc
  -Daligned_alloc=wc_aligned_alloc -Dposix_memalign=wc_posix_memalign -Dqsort=wc_qsort -Dbsearch=wc_bsearch"
flags="-std=c11 -O2 -ffp-contract=off -fno-builtin -Wall -Wextra -DSINEW_WC_NATIVE_TEST"
# shellcheck disable=SC2086
for f in format libm heap sort; do $CC $flags $rename -c $f.c -o "$dir/$f.o"; done
$CC -std=c11 -O2 -Wall -Wextra test_libc.c "$dir"/*.o -lm -o "$dir/test_libc"
"$dir/test_libc"
