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

# Configured every time, as scripts/setup.sh does (a stale tree's own re-run of the
# configure step can fail after a CMakeLists change).
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DUMBRA_SANITIZE=ON
# Keep going past a target that fails to build (in a tree several people change at
# once, one broken test binary should not hide every sanitizer report); the script
# still fails at the end.
build_status=0
cmake --build "$build" -j "$jobs" -- -k 0 || build_status=$?

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
test_status=0
ctest --test-dir "$build" --output-on-failure -j "$jobs" -LE fuzz "$@" || test_status=$?
if [ "$build_status" -ne 0 ]; then
  echo "sanitize.sh: some targets in $build failed to build (see above); their tests did not run" >&2
  exit 1
fi
exit "$test_status"
