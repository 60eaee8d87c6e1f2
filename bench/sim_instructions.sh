#!/usr/bin/env bash
# sim_instructions.sh [--cycles N] [--program FILE] [--models "systemc rtl cosim"] SIM [SIM2]:
# instructions per simulated cycle of each model, counted by valgrind's callgrind, for
# one umbra-sim binary or two side by side with the ratio old/new (SIM's count over
# SIM2's: above 1, SIM2 simulates a cycle in fewer instructions).
#
# Why beside sim_speed and compare_sim_speed.sh: on the shared machines this project runs
# on, CPU-time rates of one binary moved by up to half between back-to-back runs
# (testbench/cosim/README.md, "Speed"); an instruction count does not move with the
# load, so it says whether a change made the work smaller, while the rates say what a
# user waits.  The count includes the run's start-up (assembling, loading the
# instruction store), a few percent of a run of 60,000 cycles or more.
set -euo pipefail
cycles=60000
program="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/examples/mandelbrot.s"
models="systemc rtl cosim"
usage() {
  echo "usage: $0 [--cycles N] [--program FILE] [--models \"systemc rtl cosim\"] UMBRA-SIM [UMBRA-SIM2]" >&2
  exit 2
}
while [ $# -gt 0 ]; do
  case "$1" in
    --cycles) cycles=${2:-}; shift 2 ;;
    --program) program=${2:-}; shift 2 ;;
    --models) models=${2:-}; shift 2 ;;
    -h | --help) usage ;;
    -*) echo "$0: unknown option '$1'" >&2; usage ;;
    *) break ;;
  esac
done
[ $# -ge 1 ] && [ $# -le 2 ] || usage
case "$cycles" in '' | *[!0-9]*) echo "$0: --cycles must be a number of cycles, got '$cycles'" >&2; exit 2 ;; esac
[ -r "$program" ] || { echo "$0: cannot read program '$program'" >&2; exit 2; }
for sim in "$@"; do [ -x "$sim" ] || { echo "$0: '$sim' is not an executable umbra-sim" >&2; exit 2; }; done
command -v valgrind >/dev/null || { echo "$0: valgrind not found (apt-get install valgrind)" >&2; exit 1; }

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# Instructions per simulated cycle of one model on one binary: callgrind's total over the
# cycles the run reports (its end cycle: from reset, the loading included).
per_cycle() {
  local sim=$1 model=$2 out=$scratch/cg.out stats=$scratch/stats.json
  valgrind --tool=callgrind --callgrind-out-file="$out" "$sim" --model "$model" --max-cycles "$cycles" \
    --no-progress --stats-json "$stats" "$program" >/dev/null 2>"$scratch/err" || true
  local ir end
  ir=$(sed -n 's/^==[0-9]*== Collected : *//p; s/^==[0-9]*== I *refs: *//p' "$scratch/err" | tr -d , | tail -1)
  end=$(sed -n 's/.*"end_cycle": *\([0-9]*\).*/\1/p' "$stats" 2>/dev/null | head -1)
  if [ -z "$ir" ] || [ -z "$end" ] || [ "$end" = 0 ]; then
    echo "$0: $sim --model $model gave no count (valgrind's output: $scratch/err)" >&2
    cat "$scratch/err" >&2
    exit 1
  fi
  awk -v i="$ir" -v c="$end" 'BEGIN { printf "%.0f", i / c }'
}

echo "instructions per simulated cycle (callgrind), $(basename "$program"), up to $cycles cycles after launch"
if [ $# -eq 1 ]; then
  printf '%-8s %12s\n' model "$(basename "$1")"
  for m in $models; do printf '%-8s %12s\n' "$m" "$(per_cycle "$1" "$m")"; done
else
  printf '%-8s %12s %12s %10s\n' model old new old/new
  for m in $models; do
    a=$(per_cycle "$1" "$m")
    b=$(per_cycle "$2" "$m")
    printf '%-8s %12s %12s %9.2fx\n' "$m" "$a" "$b" "$(awk -v a="$a" -v b="$b" 'BEGIN { print a / b }')"
  done
fi
