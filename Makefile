# sinew — everyday entry points over CMake.
#   make run    build, then compress a bundled real mocap clip: size, error, speed, round-trip glTF
#   make test   build, then run every test (last line: "N passed, N failed, N skipped")
#   make sanitize   the tests under ASan+UBSan;  make fuzz   libFuzzer targets (clang), 30 s each
SHELL := /bin/bash
BUILD ?= build
OUT ?= out
JOBS ?= 2
CMAKE ?= cmake
CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=Release
SINEW = $(BUILD)/sinew
FUZZ_SECONDS ?= 30

.PHONY: all quiet-build run test sanitize fuzz fuzz-regression bench clean

all:
	@$(CMAKE) -S . -B $(BUILD) $(CMAKE_FLAGS) > /dev/null
	@$(CMAKE) --build $(BUILD) -j $(JOBS)

# The build for `run` and `test`, quiet unless it fails (then its whole log); VERBOSE=1 shows it.
quiet-build:
ifeq ($(VERBOSE),1)
	@$(MAKE) --no-print-directory all
else
	@log=$$(mktemp); if { $(CMAKE) -S . -B $(BUILD) $(CMAKE_FLAGS) && $(CMAKE) --build $(BUILD) -j $(JOBS); } > $$log 2>&1; \
	  then rm -f $$log; echo "built $(BUILD)/ (make VERBOSE=1 shows the build)"; \
	  else cat $$log; rm -f $$log; echo "build failed"; exit 1; fi
endif

# The main job: CMU mocap 01_01 (120 Hz, 2752 frames; CMU units, 1 unit = 5.644 cm).
run: quiet-build
	@mkdir -p $(OUT)
	$(SINEW) info data/cmu_01_01.bvh --unit-cm 5.644
	$(SINEW) compress data/cmu_01_01.bvh --unit-cm 5.644 -o $(OUT)/cmu_01_01.sinew
	$(SINEW) bench $(OUT)/cmu_01_01.sinew
	$(SINEW) decompress $(OUT)/cmu_01_01.sinew -o $(OUT)/cmu_01_01.glb
	$(SINEW) compress data/godot_platformer_player.glb -o $(OUT)/platformer_player.sinew
	$(SINEW) decompress $(OUT)/platformer_player.sinew --source data/godot_platformer_player.glb -o $(OUT)/platformer_player.glb
	@echo "round-trip glTF written: $(OUT)/cmu_01_01.glb $(OUT)/platformer_player.glb"

test: quiet-build
	$(BUILD)/sinew_tests

sanitize:
	@$(CMAKE) -S . -B $(BUILD)-sanitize -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSINEW_SANITIZE=ON -DSINEW_BUILD_BENCH=OFF > /dev/null
	@$(CMAKE) --build $(BUILD)-sanitize -j $(JOBS)
	$(BUILD)-sanitize/sinew_tests

# Decoder-only objects (the wasm runtime's subset) must link without the compressor.
DECODE_SOURCES := $(wildcard src/core/*.c src/clip/*.c src/format/format_read.c src/format/format_rig.c src/format/format_sizes.c src/decompress/*.c)
ALL_SOURCES := $(wildcard src/core/*.c src/clip/*.c src/import/*.c src/compress/*.c src/format/*.c src/decompress/*.c src/export/*.c)
FUZZ_TARGETS = decode pages roundtrip import_bvh import_gltf import_acl import_amc
# The library is compiled once per flavour (objects under $(BUILD)/fuzz-obj, header dependencies
# tracked), so `make -j` builds the targets' objects in parallel instead of every source once per target.
FUZZ_OBJ = $(BUILD)/fuzz-obj
SAN_FLAGS = -O1 -g -fno-sanitize-recover=all -Iinclude
FUZZ_CFLAGS = $(SAN_FLAGS) -fsanitize=fuzzer-no-link,address,undefined -MMD -MP
FUZZ_LDFLAGS = -fsanitize=fuzzer,address,undefined
REGRESS_CFLAGS = $(SAN_FLAGS) -std=c11 -fsanitize=address,undefined -MMD -MP
fuzz_sources = fuzz/fuzz_$(1).c $(if $(filter decode pages,$(1)),$(DECODE_SOURCES),$(ALL_SOURCES))
fuzz_objects = $(patsubst %.c,$(FUZZ_OBJ)/$(1)/%.o,$(2))

$(FUZZ_OBJ)/clang/%.o: %.c
	@mkdir -p $(@D) && clang $(FUZZ_CFLAGS) -c $< -o $@
$(FUZZ_OBJ)/gcc/%.o: %.c
	@mkdir -p $(@D) && gcc $(REGRESS_CFLAGS) -c $< -o $@
-include $(wildcard $(FUZZ_OBJ)/*/fuzz/*.d $(FUZZ_OBJ)/*/src/*/*.d)

.SECONDEXPANSION:
.SECONDARY: # keep the objects for the next build
$(BUILD)/fuzz_%: $$(call fuzz_objects,clang,$$(call fuzz_sources,$$*))
	@clang $(FUZZ_LDFLAGS) $^ -lm -o $@
$(BUILD)/regress_%: $$(call fuzz_objects,gcc,fuzz/fuzz_main.c $$(call fuzz_sources,$$*))
	@gcc -fsanitize=address,undefined $^ -lm -o $@

fuzz: $(patsubst %,$(BUILD)/fuzz_%,$(FUZZ_TARGETS))
	@for t in $(FUZZ_TARGETS); do \
	  seeds=fuzz/seeds/$${t#import_}; mkdir -p $(BUILD)/fuzz-corpus-$$t; \
	  echo "fuzzing $$t for $(FUZZ_SECONDS) s"; \
	  $(BUILD)/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -timeout=10 -max_len=65536 $(BUILD)/fuzz-corpus-$$t $$seeds 2>&1 | tail -1; \
	  [ $${PIPESTATUS[0]:-0} -eq 0 ] || exit 1; \
	done

# The assimp importer (needs libassimp-dev): not in `fuzz` or CI, since assimp is not hardened against
# hostile files; its crashes and leaks are assimp's (the importer is for trusted input). Seeds: assimp-testmodels.
ASSIMP_SEEDS ?= /usr/share/assimp/models/FBX /usr/share/assimp/models/Collada
$(BUILD)/fuzz_import_assimp: fuzz/fuzz_import_assimp.c
	@mkdir -p $(BUILD) && clang $(SAN_FLAGS) $(FUZZ_LDFLAGS) -DSINEW_HAVE_ASSIMP $< $(ALL_SOURCES) -lassimp -lm -o $@
.PHONY: fuzz-assimp
fuzz-assimp: $(BUILD)/fuzz_import_assimp
	@mkdir -p $(BUILD)/fuzz-corpus-assimp
	-$(BUILD)/fuzz_import_assimp -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=4096 -max_len=262144 \
	  -detect_leaks=0 -artifact_prefix=$(BUILD)/assimp- \
	  $(BUILD)/fuzz-corpus-assimp $(ASSIMP_SEEDS) 2>&1 | tail -20

# Seeds and past crash reproducers through every target with gcc (no libFuzzer needed).
fuzz-regression: $(patsubst %,$(BUILD)/regress_%,$(FUZZ_TARGETS))
	@for t in $(FUZZ_TARGETS); do \
	  out=$$($(BUILD)/regress_$$t fuzz/seeds/$${t#import_}) || { echo "$$t: FAILED"; exit 1; }; echo "$$t: $$out"; \
	done

bench: all
	bench/run_compress.sh $(BUILD)

clean:
	rm -rf $(BUILD) $(BUILD)-sanitize $(OUT)

# Web runtime and compressor (web/): clang --target=wasm32, no emscripten. `wasm` rebuilds the runtime
# modules (web/lossless/ too) and web/sinew-compress.wasm and writes their sizes into web/README.md;
# `wasm-check` verifies the committed ones are reproduced byte for byte (same clang version) and that
# web/README.md gives their sizes; `web-test` runs the node tests on the committed modules (the glTF-Transform
# test needs `npm ci --prefix web`); `inspector` serves the inspector page for INSPECT=model.glb;
# `inspector-test` runs it in headless Chromium (npm ci --prefix web/browser-test).
.PHONY: wasm wasm-check web-test web-types inspector inspector-test
wasm:
	web/build_wasm.sh
wasm-check:
	web/build_wasm.sh --check
web-test:
	SINEW_CLI=$(BUILD)/sinew node --expose-gc --test web/test/
# tsc --strict over web/test/types/usage.ts against the .d.mts declarations (TypeScript from
# web/browser-test's pinned packages: npm ci --prefix web/browser-test).
web-types:
	web/browser-test/node_modules/.bin/tsc -p web/test/types
inspector:
	node web/bin/sinew-anim.mjs inspect $(INSPECT)
inspector-test:
	node web/browser-test/inspector.mjs $(BUILD)/sinew

# Lossless glTF sampler runtime (web/lossless/): build (fails above its 4 KB budget), its size into
# web/README.md, and node tests.
.PHONY: web-lossless
web-lossless:
	web/lossless/build.sh
	web/build_wasm.sh --sizes
	node --expose-gc --test web/lossless/test/
