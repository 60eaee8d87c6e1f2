#!/usr/bin/env bash
# scripts/random_regression.sh [N] [FIRST-SEED] [UMBRA-RANDPROG]: runs N constrained-random
# programs (seeds FIRST-SEED .. FIRST-SEED+N-1; defaults 100 and 1) under the
# cosimulation -- the Verilated RTL and the SystemC model in lockstep, both checked
# against the reference simulator -- and prints one PASS/FAIL line per seed, each
# failure with the command that replays it, then a summary.  Exit status 0 only if
# every seed passed.
#
# ctest runs it with a small N; for a long soak run e.g.
#   scripts/random_regression.sh 5000 1000
# Environment: UMBRA_RANDOM_LENGTH (statements per program; default umbra-randprog's:
# 200, or core.imem_words / 4 for a small instruction store),
# UMBRA_RANDOM_CONFIG (a configs/*.yaml whose core matches the verilated RTL),
# UMBRA_BUILD (build directory holding umbra-randprog, default build/).
# The generator is testbench/random/ (randprog.h); programs are replayable one seed at
# a time with `umbra-randprog --seed S --run cosim` or `-o prog.s` to look at one.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
n=${1:-100}
first=${2:-1}
tool=${3:-${UMBRA_BUILD:-$root/build}/tools/umbra-randprog}
length=${UMBRA_RANDOM_LENGTH:-}

case "$n$first" in
  *[!0-9]*) echo "random_regression.sh: N and FIRST-SEED must be numbers, got '$n' '$first'" >&2; exit 2 ;;
esac
if [ ! -x "$tool" ]; then
  echo "random_regression.sh: $tool not found; build it with: cmake --build build --target umbra-randprog" >&2
  exit 2
fi
args=(--seed "$first" --count "$n" --run cosim)
if [ -n "$length" ]; then args+=(--length "$length"); fi
if [ -n "${UMBRA_RANDOM_CONFIG:-}" ]; then
  args+=(--config "$UMBRA_RANDOM_CONFIG")
fi
exec "$tool" "${args[@]}"
