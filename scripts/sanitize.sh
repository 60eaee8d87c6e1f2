#!/usr/bin/env bash
# scripts/sanitize.sh [CTEST ARGS...]: configure a separate build (build-asan/) with
# UMBRA_SANITIZE=ON, so every library, tool and test is compiled with ASan and UBSan
# (any UB aborts: -fno-sanitize-recover=all), build it, and run the ctest suite there.
# The fuzz-labelled test is left out: it runs scripts/fuzz.sh, whose own clang build
# already has both sanitizers.  Extra arguments go to ctest (e.g. -L unit).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${UMBRA_ASAN_BUILD:-$root/build-asan}
jobs=${UMBRA_JOBS:-2}

if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DUMBRA_SANITIZE=ON
fi
cmake --build "$build" -j "$jobs"

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
ctest --test-dir "$build" --output-on-failure -j "$jobs" -LE fuzz "$@"
