#!/usr/bin/env bash
# compare_sim_speed.sh OLD NEW [ROUNDS] [-- SIM_SPEED-ARGS...]: the speed of two builds'
# simulators, side by side in one run.  OLD and NEW are sim_speed binaries (e.g. one
# built from the commit before a change, kept aside, and build/bench/sim_speed).  On a
# shared machine absolute rates move with the load, so the two take turns ROUNDS times
# (default 3: old, new, old, new, ...) and the figure reported per model is the ratio
# of the medians of simulated cycles per CPU-second, new / old.
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 OLD-SIM_SPEED NEW-SIM_SPEED [ROUNDS] [-- sim_speed args]" >&2
  exit 2
fi
old=$1 new=$2
shift 2
rounds=3
if [ $# -gt 0 ] && [ "$1" != "--" ]; then rounds=$1; shift; fi
[ "${1:-}" = "--" ] && shift
case "$rounds" in '' | *[!0-9]*) echo "$0: ROUNDS must be a number, got '$rounds'" >&2; exit 2 ;; esac
for b in "$old" "$new"; do
  [ -x "$b" ] || { echo "$0: $b is not an executable sim_speed" >&2; exit 2; }
done

samples=$(mktemp)
trap 'rm -f "$samples"' EXIT
for ((r = 1; r <= rounds; r++)); do
  for side in old new; do
    bin=$old
    [ "$side" = new ] && bin=$new
    echo "round $r/$rounds: $side" >&2
    # The table's rows: model, cycles, wall s, cpu s, cycles/s, cycles/cpu-s, ...
    "$bin" --repeat 1 "$@" 2>/dev/null |
      awk -v side="$side" '$1 ~ /^(systemc|rtl|cosim)$/ && $6 ~ /^[0-9.]+$/ { print side, $1, $6 }' >>"$samples"
  done
done
awk '
  function median(a, n,   i, j, t) {
    for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j > 0 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  { n[$1, $2]++; v[$1, $2, n[$1, $2]] = $3; models[$2] = 1 }
  END {
    printf "%-8s %16s %16s %8s\n", "model", "old cycles/cpu-s", "new cycles/cpu-s", "new/old"
    split("systemc rtl cosim", order, " ")
    for (k = 1; k <= 3; k++) {
      m = order[k]
      if (!(m in models)) continue
      for (s = 1; s <= 2; s++) {
        side = s == 1 ? "old" : "new"
        c = n[side, m]; delete a
        for (i = 1; i <= c; i++) a[i] = v[side, m, i]
        med[side] = c ? median(a, c) : 0
      }
      printf "%-8s %16.0f %16.0f %7.2fx\n", m, med["old"], med["new"], med["old"] ? med["new"] / med["old"] : 0
    }
  }' "$samples"
