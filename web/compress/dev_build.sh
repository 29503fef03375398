#!/usr/bin/env bash
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-web/sinew-compress.wasm}
objs=$(mktemp -d)
WARN="-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion -Wstrict-prototypes -Wmissing-prototypes -Wcast-align -Wno-float-conversion -Wno-shorten-64-to-32"
CFLAGS="--target=wasm32 -std=c11 -nostdlib -ffreestanding -fno-exceptions -DNDEBUG -ffp-contract=off -isystem web/compress/include -Iinclude -ffile-prefix-map=$PWD/= -O2 -mbulk-memory -mnontrapping-fptoint -msign-ext -mmutable-globals"
SRC=$(ls src/core/*.c src/clip/*.c src/import/*.c src/compress/*.c src/format/*.c src/decompress/*.c src/export/*.c | grep -v -e kernel_avx2 -e kernel_sse2 -e kernel_neon)
for f in $SRC tools/*.c web/compress/{compress_wasm,heap,format,libc,libm,sort}.c; do
  extra=""; case $f in tools/sinew_cli.c) extra="-Dmain=sinew_cli_main -Wno-missing-prototypes";; esac
  clang $CFLAGS $WARN $extra -c $f -o $objs/$(echo $f | tr / _).o &
  while [ $(jobs -r | wc -l) -ge 2 ]; do sleep 0.1; done
done
wait
EXP=""
for e in sinew_wc_alloc sinew_wc_release sinew_wc_put_file sinew_wc_get_file sinew_wc_file_count sinew_wc_file_name sinew_wc_console_text sinew_wc_run sinew_wc_failure sinew_wc_heap_bytes sinew_wc_errors; do EXP="$EXP -Wl,--export=$e"; done
clang --target=wasm32 -nostdlib -Wl,--no-entry -Wl,--strip-all -Wl,--gc-sections -Wl,--stack-first -Wl,-z,stack-size=1048576 -Wl,--initial-memory=2097152 -Wl,--wrap=sinewi_fail $EXP $objs/*.o -o $out
rm -rf $objs
ls -la $out
