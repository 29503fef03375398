#!/usr/bin/env bash
# Installs sinew into a fresh prefix and builds three outside consumers of it, then runs each on a
# bundled clip: find_package(sinew CONFIG) (shared and static), pkg-config, and add_subdirectory.
#   tests/consumer/run.sh [work-dir]
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=${1:-$(mktemp -d)}
prefix=$work/prefix
clip=$repo/data/acl_09_02.acl.sjson
cmake -S "$repo" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DSINEW_BUILD_TESTS=OFF -DSINEW_BUILD_BENCH=OFF \
  -DCMAKE_INSTALL_PREFIX="$prefix" > /dev/null
cmake --build "$work/build" -j 2 > /dev/null
cmake --install "$work/build" > /dev/null
for f in include/sinew.h bin/sinew 'lib*/libsinew.a' 'lib*/libsinew.so' 'lib*/cmake/sinew/sinewConfig.cmake' \
  'lib*/cmake/sinew/sinewConfigVersion.cmake' 'lib*/pkgconfig/sinew.pc'; do
  compgen -G "$prefix/$f" > /dev/null || { echo "install: $f missing"; exit 1; }
done
echo "installed into $prefix"
"$prefix/bin/sinew" --version | head -1
# 1. find_package
cmake -S "$repo/tests/consumer" -B "$work/find_package" -DCMAKE_PREFIX_PATH="$prefix" > /dev/null
cmake --build "$work/find_package" > /dev/null
LD_LIBRARY_PATH="$(dirname "$(ls "$prefix"/lib*/libsinew.so | head -1)")" "$work/find_package/consumer_shared" "$clip"
"$work/find_package/consumer_static" "$clip"
[ -f "$work/find_package/animations/acl_09_02.sinew" ] || { echo "sinew_add_animations wrote nothing"; exit 1; }
[ -f "$work/find_package/animations/Walk.Take2.sinew" ] || { echo "sinew_add_animations: Walk.Take2.BVH not named Walk.Take2.sinew"; exit 1; }
"$prefix/bin/sinew" validate "$work/find_package/animations/acl_09_02.sinew"
stamp=$(stat -c %y "$work/find_package/animations/acl_09_02.sinew")
cmake --build "$work/find_package" > /dev/null # nothing changed: not compressed again
[ "$(stat -c %y "$work/find_package/animations/acl_09_02.sinew")" = "$stamp" ] || { echo "sinew_add_animations is not incremental"; exit 1; }
# 2. pkg-config
pc=$(dirname "$(ls "$prefix"/lib*/pkgconfig/sinew.pc | head -1)")
# the README's line: the rpath finds libsinew.so.0 at run time (no LD_LIBRARY_PATH)
libdir=$(PKG_CONFIG_PATH=$pc pkg-config --variable=libdir sinew)
cc -std=c11 "$repo/tests/consumer/main.c" $(PKG_CONFIG_PATH=$pc pkg-config --cflags --libs sinew) -Wl,-rpath,"$libdir" -lm \
  -o "$work/pkg_config_consumer"
env -u LD_LIBRARY_PATH "$work/pkg_config_consumer" "$clip"
# 3. add_subdirectory (no tools, tests or benchmarks are built for the parent project)
cmake -S "$repo/tests/consumer" -B "$work/subdirectory" -DSINEW_SOURCE="$repo" > /dev/null
cmake --build "$work/subdirectory" > /dev/null
[ ! -e "$work/subdirectory/sinew/sinew_tests" ] || { echo "add_subdirectory built the tests"; exit 1; }
"$work/subdirectory/consumer_static" "$clip"
echo "consumers: find_package (shared, static, sinew_add_animations), pkg-config, add_subdirectory ok"
