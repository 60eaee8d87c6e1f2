#!/usr/bin/env bash
# scripts/fuzz.sh [SECONDS | --runs N] [FUZZER...]: build the libFuzzer targets in a
# separate clang build (build-fuzz/, UMBRA_FUZZ=ON; the main build uses gcc, which has
# no libFuzzer) and run each (or the FUZZERs named) for SECONDS (default 60) or for N
# executions, one after the other, seeded from the committed corpus in fuzz/corpus.
# Exits non-zero if any fuzzer reports a crash, leak, timeout or out-of-memory; the
# input that caused it is left in build-fuzz/artifacts/<fuzzer>/.  New corpus entries
# go to a scratch directory, so the committed seeds change only when someone copies a
# reproducer there on purpose (docs/fuzzing.md).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${UMBRA_FUZZ_BUILD:-$root/build-fuzz}
all=(fuzz_asm fuzz_dis fuzz_config fuzz_load fuzz_board)
usage() { echo "usage: $0 [SECONDS | --runs N] [${all[*]}]..." >&2; exit 2; }
# A count of executions is what docs/verification.md quotes; a time is what the suite runs.
limit=(-max_total_time=60) what="60s"
if [ "${1:-}" = --runs ]; then
  case "${2:-}" in '' | *[!0-9]*) usage ;; esac
  limit=(-runs="$2") what="$2 runs"
  shift 2
elif [ $# -gt 0 ] && [[ "$1" != fuzz_* ]]; then
  case "$1" in *[!0-9]*) usage ;; esac
  limit=(-max_total_time="$1") what="${1}s"
  shift
fi
fuzzers=("$@")
[ ${#fuzzers[@]} -gt 0 ] || fuzzers=("${all[@]}")
for f in "${fuzzers[@]}"; do [[ " ${all[*]} " == *" $f "* ]] || { echo "fuzz.sh: no fuzzer '$f'" >&2; usage; }; done

command -v clang++ >/dev/null || { echo "fuzz.sh: clang++ not found (apt-get install clang libclang-rt-14-dev)" >&2; exit 1; }

mkdir -p "$build"
# The ctest entry and a person may run this at once; they share one build tree.
exec 9>"$build/.fuzz.lock"
flock 9

# Configured every time, not only when build.ninja is missing: ninja's own re-run of
# the configure step can first rebuild a generator with a stale tree's flags (a tree
# from before a CMakeLists change), and an explicit configure is quick once cached.
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DUMBRA_FUZZ=ON >"$build/configure.log" 2>&1 ||
  { cat "$build/configure.log" >&2; echo "fuzz.sh: configuring $build failed" >&2; exit 1; }
ninja -C "$build" -j2 "${fuzzers[@]}"

declare -A seeds=([fuzz_asm]="$root/fuzz/corpus/asm" [fuzz_dis]="$root/fuzz/corpus/dis"
  [fuzz_config]="$root/fuzz/corpus/config" [fuzz_load]="$root/fuzz/corpus/load" [fuzz_board]="$root/fuzz/corpus/board")
# The longest input each is given.  The assembler and the disassembler take time in
# proportion to it (every line assembled; every input listed as a raw binary), and in
# short trials the longer limits reached about as much code (within 2 %) at a third
# to a half of the rate, so they are kept short: 2 KiB
# of source is a hundred lines, past the 20-error cap, and 4 KiB holds a whole small
# ELF (the longer seeds, examples/*.s and fib.elf, are then seen cut short;
# docs/fuzzing.md).
declare -A maxlen=([fuzz_asm]=2048 [fuzz_dis]=4096 [fuzz_config]=4096 [fuzz_load]=16384 [fuzz_board]=8192)
status=0
for fuzzer in "${fuzzers[@]}"; do
  scratch="$build/corpus/$fuzzer"
  artifacts="$build/artifacts/$fuzzer"
  mkdir -p "$scratch" "$artifacts"
  # The examples are the best assembler seeds and change as they are written, so they
  # are read from examples/ each run rather than copied into the committed corpus.
  if [ "$fuzzer" = fuzz_asm ]; then
    for f in "$root"/examples/*.s; do [ -e "$f" ] && cp "$f" "$scratch/example-$(basename "$f")"; done
  fi
  log="$build/$fuzzer.log"
  echo "== $fuzzer: $what, seeds ${seeds[$fuzzer]}"
  # Run from the scratch directory so a fuzzed `.include "x"` resolves somewhere harmless.
  rc=0
  (cd "$scratch" && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    "$build/fuzz/$fuzzer" "${limit[@]}" -timeout=25 -rss_limit_mb=2048 \
    -max_len="${maxlen[$fuzzer]}" -print_final_stats=1 -artifact_prefix="$artifacts/" \
    "$scratch" "${seeds[$fuzzer]}") >"$log" 2>&1 || rc=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  if [ "$rc" -ne 0 ]; then
    echo "FAIL $fuzzer (exit $rc); log: $log" >&2
    grep -E "ERROR|SUMMARY|Test unit written|fuzz_(asm|dis|config|load|board):" "$log" | head -20 >&2 || true
    status=1
  else
    echo "ok   $fuzzer: ${runs:-?} runs, ${rate:-?} exec/s, corpus $(ls "$scratch" | wc -l) new entries"
  fi
done
exit $status
