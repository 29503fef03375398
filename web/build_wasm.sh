#!/usr/bin/env bash
# sinew — see include/sinew.h for version and licence
# Builds the WebAssembly decoder with clang directly (no emscripten, no libc, no imports):
#   web/sinew.wasm       baseline (-mcpu=mvp), scalar kernel
#   web/sinew-simd.wasm  -msimd128, wasm SIMD128 kernel
#   web/sinew-world.wasm, web/sinew-world-simd.wasm  the world runtime (web/sinew_world.c: many
#                        blobs and players in one instance, blending; same decoder sources)
# from the same sources, checks that none imports anything and that each is under its budget
# (decoder 32 KB, world 40 KB); and
#   web/sinew-compress.wasm  the compressor: the CLI (tools/) and the whole library for wasm32-wasi over
#                        Debian's wasi-libc, a WASI command importing its memory and WASI preview 1 only, 512 KB
#                        budget
#   web/lossless/lossless.wasm, lossless_simd.wasm  the lossless glTF sampler (web/lossless/build.sh, 4 KB budget)
# and writes their sizes into web/README.md (§Module sizes). `--check` rebuilds into a temporary directory and
# fails unless the result matches the committed .wasm files byte for byte and web/README.md gives their sizes;
# `--sizes` only rewrites that table from the committed files.
set -euo pipefail
cd "$(dirname "$0")/.."

CLANG=${CLANG:-clang}
# clang 14 runs any `wasm-opt` it finds on PATH after linking an optimized module (binaryen's, when the
# binaryen package is installed): that changes the bytes, and its validator refuses SIMD128 it was not told
# of. The modules are what clang and wasm-ld write: clang is called with -B naming a no-op wasm-opt
# (-B comes before clang's own folder and PATH).
noopt=$(mktemp -d)
trap 'rm -rf "$noopt"' EXIT
printf '#!/bin/sh\nexit 0\n' > "$noopt/wasm-opt"
printf '#!/bin/sh\nexec "%s" -B"%s" "$@"\n' "$(command -v "$CLANG")" "$noopt" > "$noopt/clang"
chmod +x "$noopt/wasm-opt" "$noopt/clang"
CLANG="$noopt/clang"
LIMIT=32768
WORLD_LIMIT=40960
out=web

# The table of web/README.md between these two lines is written here, never by hand.
SIZES_BEGIN='<!-- module sizes: written by web/build_wasm.sh, checked by make wasm-check -->'
SIZES_END='<!-- end of module sizes -->'
# module (under web/), budget in bytes, what it is
MODULES="sinew.wasm 32768 decoder_(baseline)
sinew-simd.wasm 32768 decoder_(SIMD128)
sinew-stream.wasm 40960 streaming_decoder_(baseline)
sinew-stream-simd.wasm 40960 streaming_decoder_(SIMD128)
sinew-world.wasm 40960 world_runtime_(baseline)
sinew-world-simd.wasm 40960 world_runtime_(SIMD128)
lossless/lossless.wasm 4096 lossless_glTF_sampler_(baseline)
lossless/lossless_simd.wasm 4096 lossless_glTF_sampler_(SIMD128)
sinew-compress.wasm 524288 compressor_(CLI_and_library)"
thousands() { echo "$1" | sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/' -e 'ta'; }
sizes_table() { # dir holding the modules -> the markdown table
	local dir=$1 f budget what
	echo "| module | what | bytes | gzip -9 | budget |"
	echo "| --- | --- | --- | --- | --- |"
	while read -r f budget what; do
		printf '| `%s` | %s | %s | %s | %s |\n' "$f" "${what//_/ }" "$(thousands "$(wc -c < "$dir/$f")")" \
		  "$(thousands "$(gzip -9 -n -c "$dir/$f" | wc -c)")" "$(thousands "$budget")"
	done <<< "$MODULES"
}
readme_table() { # the table web/README.md holds now
	awk -v b="$SIZES_BEGIN" -v e="$SIZES_END" '$0 == e { on = 0 } on { print } $0 == b { on = 1 }' web/README.md
}
write_sizes() { # rewrites the table of web/README.md from the modules in web/
	local table tmp
	grep -qxF "$SIZES_BEGIN" web/README.md && grep -qxF "$SIZES_END" web/README.md || { echo "build_wasm: web/README.md lacks the module-size markers" >&2; exit 1; }
	table=$(sizes_table web)
	tmp=$(mktemp)
	awk -v b="$SIZES_BEGIN" -v e="$SIZES_END" -v t="$table" '$0 == e { print t; on = 0 } !on { print } $0 == b { on = 1 }' web/README.md > "$tmp"
	cat "$tmp" > web/README.md
	rm -f "$tmp"
}

case "${1:-}" in
--check) out=$(mktemp -d); mkdir "$out/lossless"; trap 'rm -rf "$out" "$noopt"' EXIT ;;
--sizes) write_sizes; echo "build_wasm: web/README.md module sizes written"; exit 0 ;;
"") ;;
*) echo "usage: web/build_wasm.sh [--check | --sizes]" >&2; exit 2 ;;
esac

# The sampling path at -O2 without auto-vectorization (the kernels are explicitly SIMD; letting
# the compiler vectorize the rest adds 1.5 KB for no measured gain; -O3 unrolls the unpack loops
# for +0.8 KB and no measured gain); loading, validation, segment preparation and error formatting
# at -Oz (size; -O2 measured no faster there).
HOT="src/decompress/sample.c src/decompress/kernel_scalar.c src/decompress/kernel_wasm.c"
COLD="web/sinew_wasm.c web/wasm_libc.c src/core/error.c src/core/hash.c src/core/codec_tables.c src/core/alloc.c
  src/format/format_read.c src/format/format_rig.c src/decompress/context.c src/decompress/dispatch.c"
WORLD_COLD="web/sinew_world.c web/wasm_libc.c src/core/error.c src/core/hash.c src/core/codec_tables.c src/core/alloc.c
  src/format/format_read.c src/format/format_rig.c src/decompress/context.c src/decompress/dispatch.c"
WORLD_EXPORTS="sinew_world_reserve sinew_world_alloc sinew_world_error sinew_world_validate sinew_world_load
  sinew_world_clip sinew_world_add_player sinew_world_update sinew_world_state"
EXPORTS="sinew_web_alloc sinew_web_load sinew_web_error sinew_web_clip_count sinew_web_clip_info sinew_web_sample sinew_web_changed"
# the streaming decoder: the same runtime with paged clips compiled in, and the page exports
STREAM_EXPORTS="$EXPORTS sinew_web_page_count sinew_web_page_info sinew_web_add_page sinew_web_drop_page
  sinew_web_pages_needed sinew_web_missing_page sinew_web_sample_ahead"
STREAM_LIMIT=40960

WARN="-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion -Wstrict-prototypes -Wmissing-prototypes
  -Wcast-align -Werror"
# web/include holds the freestanding math/string/stdlib/stdio headers; -ffile-prefix-map and no
# debug info keep the output independent of where the repository is checked out.
CFLAGS="--target=wasm32 -std=c11 -nostdlib -ffreestanding -fno-exceptions -DNDEBUG -DSINEW_DIVIDE -isystem web/include -Iinclude
  -ffile-prefix-map=$PWD/= $WARN"
PAGES="-DSINEW_NO_PAGES" # every module but the streaming one leaves paged clips out (size)
# every decoder module reads format 3 only (docs/format.md §version: older blobs play natively; for the web,
# compress the source again)
CFLAGS="$CFLAGS -DSINEW_NO_LEGACY -DSINEW_TERSE_ERRORS -Wno-unused-parameter" # and their messages name the refusing
# line (base.h: a message argument left unused is not a bug there)
# Link-time optimization (each object keeps its -O2 or -Oz): the linker inlines and drops across the decoder's files,
# 2.2 KB off every decoder module (what format 3's curves needed), with no measured change in sampling speed. The
# objects' -fno-vectorize does not reach the link-time optimizer, so it is told again (measured: once the unpack loop
# stopped storing the dropped component, it vectorized a loop of sinew-simd.wasm, +1 KB).
LDBASE="-flto -Wl,--lto-O2 -Wl,-mllvm,-vectorize-loops=false -Wl,-mllvm,-vectorize-slp=false -Wl,--no-entry -Wl,--strip-all -Wl,--gc-sections -Wl,-z,stack-size=32768 -Wl,--initial-memory=131072"

build() { # output, cpu flags (uses $COLD, $EXPORTS, $LIMIT)
	local target=$1; shift
	local LDFLAGS=$LDBASE e
	for e in $EXPORTS; do LDFLAGS="$LDFLAGS -Wl,--export=$e"; done
	local objs; objs=$(mktemp -d)
	local f objects=()
	# shellcheck disable=SC2086
	for f in $HOT $COLD; do
		local opt="-Oz"; case " $HOT ${HOT_ALSO:-} " in *" $f "*) opt="-O2 -fno-vectorize -fno-slp-vectorize";; esac
		local o; o="$objs/$(basename "$f" .c).o"
		"$CLANG" $CFLAGS $PAGES $opt -flto "$@" -c "$f" -o "$o"
		objects+=("$o")
	done
	# shellcheck disable=SC2086
	"$CLANG" --target=wasm32 -nostdlib $LDFLAGS "${objects[@]}" -o "$target"
	rm -rf "$objs"
	local size; size=$(wc -c < "$target")
	if [ "$size" -gt "$LIMIT" ]; then echo "build_wasm: $target is $size bytes, over the $LIMIT-byte budget" >&2; exit 1; fi
	# the import section is section id 2; a module without imports has none
	check_imports "$target" ""
	echo "$target: $size bytes"
}

# Fails unless the module imports exactly `allowed` ("module.name kind" items, space-separated, sorted).
check_imports() { # target, allowed
	local report
	if ! report=$(node -e '
		const m = new WebAssembly.Module(require("fs").readFileSync(process.argv[1]));
		const i = WebAssembly.Module.imports(m).map(x => `${x.module}.${x.name}:${x.kind}`).sort().join(" ");
		if (i !== process.argv[2]) { console.error(`imports: "${i}", expected "${process.argv[2]}"`); process.exit(1); }' "$1" "$2" 2>&1); then
		echo "$report" >&2
		echo "build_wasm: $1 has unexpected imports" >&2; exit 1
	fi
}

# The compressor: a WASI command (wasm32-wasi, Debian's wasi-libc, compiler-rt's builtins from
# libclang-rt-14-dev-wasm32) holding every library source but the native kernels and the CLI's own files
# (tools/, its main renamed) under web/compress/compress_wasm.c's main, so `sinew compress`/`pack` run
# unchanged on the folders the host preopens (node:wasi, or a WASI shim in browsers: web/compress.mjs).
# Import and export code at -Os, the compressor, decoder, metric and resampler at -O2 (measured: as fast as all
# at -O2, which is 10 % larger; -Os throughout is 20 % slower). Baseline features, as wasi-libc is built: with
# -mbulk-memory clang 14 addresses wasi-libc's errno as a thread-local (relative to __tls_base), which the
# libc's own plain errno is not (SIMD128 made compression 3 % faster: not worth a second module). -nostdlibinc: the
# headers of wasi-libc and clang only (never the host's). The memory is imported, so the host bounds it.
# The sinewi_fail wrap records each failure's result code for the JS side (web/compress/compress_wasm.c).
WASI_INCLUDE=${WASI_INCLUDE:-/usr/include/wasm32-wasi}
WASI_LIB=${WASI_LIB:-/usr/lib/wasm32-wasi}
COMPRESS_LIMIT=524288
build_compress() { # output
	local target=$1 objs f opt extra LDFLAGS
	for f in "$WASI_INCLUDE/stdio.h" "$WASI_LIB/libc.a" "$("$CLANG" --target=wasm32-wasi -print-libgcc-file-name)"; do
		[ -e "$f" ] || { echo "build_wasm: $f missing (apt-get install wasi-libc libclang-rt-14-dev-wasm32)" >&2; exit 1; }
	done
	objs=$(mktemp -d)
	local flags="--target=wasm32-wasi -std=c11 -nostdlibinc -isystem $WASI_INCLUDE -fno-exceptions -DNDEBUG -ffp-contract=off
	  -D_WASI_EMULATED_GETPID -Iinclude -ffile-prefix-map=$PWD/= $WARN -Wno-float-conversion -Wno-shorten-64-to-32"
	local sources
	sources=$(ls src/core/*.c src/clip/*.c src/import/*.c src/compress/*.c src/format/*.c src/decompress/*.c src/export/*.c \
	  tools/*.c | grep -v -e kernel_avx2 -e kernel_sse2 -e kernel_neon)
	sources="$sources web/compress/compress_wasm.c"
	for f in $sources; do
		case $f in
		src/compress/* | src/core/* | src/decompress/* | src/clip/* | src/import/gltf_resample.c | src/import/gltf_checks.c) opt=-O2 ;;
		*) opt=-Os ;;
		esac
		extra=""
		[ "$f" = tools/sinew_cli.c ] && extra="-Dmain=sinew_cli_main -Wno-missing-prototypes"
		# shellcheck disable=SC2086
		"$CLANG" $flags $opt $extra -c "$f" -o "$objs/$(echo "$f" | tr / _).o"
	done
	LDFLAGS="-Wl,--strip-all -Wl,--gc-sections -Wl,--stack-first -Wl,-z,stack-size=1048576 -Wl,--import-memory
	  -Wl,--initial-memory=2097152 -Wl,--wrap=sinewi_fail -Wl,--wrap=sinewi_import_warn -L$WASI_LIB -lwasi-emulated-getpid"
	# shellcheck disable=SC2086
	"$CLANG" --target=wasm32-wasi $LDFLAGS "$objs"/*.o -o "$objs/out.wasm" # a failed link leaves $target as it was
	mv "$objs/out.wasm" "$target"
	rm -rf "$objs"
	local size; size=$(wc -c < "$target")
	if [ "$size" -gt "$COMPRESS_LIMIT" ]; then echo "build_wasm: $target is $size bytes, over the $COMPRESS_LIMIT-byte budget" >&2; exit 1; fi
	# its memory and WASI preview 1 only (web/test/compress.test.mjs: every one the browser shim provides)
	node -e '
		const m = new WebAssembly.Module(require("fs").readFileSync(process.argv[1]));
		const bad = WebAssembly.Module.imports(m).filter((i) => !(i.module === "env" && i.name === "memory" && i.kind === "memory") &&
		  !(i.module === "wasi_snapshot_preview1" && i.kind === "function")).map((i) => `${i.module}.${i.name}`);
		if (bad.length) { console.error(`build_wasm: ${process.argv[1]} imports ${bad.join(" ")}`); process.exit(1); }' "$target"
	echo "$target: $size bytes"
}

build "$out/sinew.wasm" -mcpu=mvp
build "$out/sinew-simd.wasm" -mcpu=mvp -msimd128
# the world's frame call (advance + blend loops) is sampling-path code too: -O2 like HOT
# and clears its blend accumulators per player, and copies a lone layer's rest pose: memset and memcpy 16 bytes a
# step (web/wasm_libc.c)
COLD=$WORLD_COLD EXPORTS=$WORLD_EXPORTS LIMIT=$WORLD_LIMIT HOT_ALSO=web/sinew_world.c build "$out/sinew-world.wasm" -mcpu=mvp -DSINEW_WASM_WIDE_MEMOPS=1
COLD=$WORLD_COLD EXPORTS=$WORLD_EXPORTS LIMIT=$WORLD_LIMIT HOT_ALSO=web/sinew_world.c build "$out/sinew-world-simd.wasm" -mcpu=mvp -msimd128 -DSINEW_WASM_WIDE_MEMOPS=1
PAGES= COLD="$COLD src/decompress/pages.c" EXPORTS=$STREAM_EXPORTS LIMIT=$STREAM_LIMIT build "$out/sinew-stream.wasm" -mcpu=mvp
PAGES= COLD="$COLD src/decompress/pages.c" EXPORTS=$STREAM_EXPORTS LIMIT=$STREAM_LIMIT build "$out/sinew-stream-simd.wasm" -mcpu=mvp -msimd128
build_compress "$out/sinew-compress.wasm"
CC=$CLANG OUT=$(realpath "$out/lossless") web/lossless/build.sh

if [ "$out" != web ]; then
	while read -r f _; do
		cmp -s "$out/$f" "web/$f" || { echo "build_wasm --check: web/$f differs from a fresh build" >&2; exit 1; }
	done <<< "$MODULES"
	echo "build_wasm --check: web/sinew{,-simd,-world,-world-simd,-stream,-stream-simd,-compress}.wasm and web/lossless/*.wasm are reproduced byte for byte"
	if [ "$(readme_table)" != "$(sizes_table "$out")" ]; then
		diff <(readme_table) <(sizes_table "$out") >&2 || true
		echo "build_wasm --check: web/README.md §Module sizes is stale: run web/build_wasm.sh (or --sizes) and commit it" >&2; exit 1
	fi
	echo "build_wasm --check: web/README.md gives these sizes"
else
	write_sizes
fi
