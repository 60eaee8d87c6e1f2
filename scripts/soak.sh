#!/usr/bin/env bash
# scripts/soak.sh --budget 10m|2h|1e8 [--length N] [--first-seed S] [--chunk K] [--build DIR]
#
# The long soak of docs/verification.md: constrained-random programs under the
# cosimulation (umbra-randprog --run cosim: the Verilated RTL and the SystemC model in
# lockstep, both checked against the reference simulator) over every verilated
# configuration, taking turns, until the budget is spent:
#   default       umbra-randprog             (configs/default.yaml: DRAM behind the reorder queue)
#   fixed-memory  umbra-randprog             --config configs/fixed-memory.yaml (queue bypassed)
#   ice40-up5k    umbra-randprog-ice40-up5k  --config configs/ice40-up5k.yaml (its own RTL build)
#   ice40-hx8k    umbra-randprog-ice40-hx8k  --config configs/ice40-hx8k.yaml (likewise)
#   ice40-hx8k-breakout  ...-ice40-hx8k-breakout  --config configs/ice40-hx8k-breakout.yaml
#   test-deep     umbra-randprog-test-deep   --config configs/test-deep.yaml (likewise)
#   test-odd      umbra-randprog-test-odd    --config configs/test-odd.yaml (likewise)
# (the variants of harness/cosim/CMakeLists.txt).
# A budget with a unit (s, m, h) is wall time; a bare number (1e8, 250000000) is reference
# instructions.  The budget is checked between chunks of K seeds (default 20) per
# configuration, so a run overshoots by at most one chunk.  Each configuration walks
# the seeds from S (default 1) upwards.
#
# It prints, per configuration and in total: seeds, failures, instructions (as the
# reference simulator counts them) and cycles (the cycle models'), then every failure
# with the command that replays it.  Exit status 0 only if every seed passed.
# The suite keeps its short runs (random_cosim*); this is for the hours-long one.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${UMBRA_BUILD:-$root/build}
budget="" length="" first=1 chunk=20

usage() { sed -n '2,3p' "$0" | sed 's/^# //' >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --budget) budget=${2:-}; shift 2 || usage ;;
    --length) length=${2:-}; [ -n "$length" ] || usage; shift 2 || usage ;;
    --first-seed) first=${2:-}; shift 2 || usage ;;
    --chunk) chunk=${2:-}; shift 2 || usage ;;
    --build) build=${2:-}; shift 2 || usage ;;
    -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "soak.sh: unknown argument '$1'" >&2; usage ;;
  esac
done
[ -n "$budget" ] || { echo "soak.sh: --budget is required (e.g. 10m, 2h, 1e8)" >&2; exit 2; }
for v in ${length:+"length:$length"} "first-seed:$first" "chunk:$chunk"; do
  case "${v#*:}" in
    ''|*[!0-9]*|0) echo "soak.sh: --${v%%:*} must be a positive integer, got '${v#*:}'" >&2; exit 2 ;;
  esac
done

# The budget: seconds or instructions.
limit_seconds=0 limit_instructions=0
if [[ "$budget" =~ ^([0-9]+)([smh])$ ]]; then
  n=${BASH_REMATCH[1]}
  case ${BASH_REMATCH[2]} in s) limit_seconds=$n ;; m) limit_seconds=$((n * 60)) ;; h) limit_seconds=$((n * 3600)) ;; esac
elif [[ "$budget" =~ ^[0-9]+(\.[0-9]+)?([eE][0-9]+)?$ ]]; then
  limit_instructions=$(awk -v b="$budget" 'BEGIN { printf "%.0f", b }')
else
  echo "soak.sh: --budget '$budget' is neither a time (30s, 10m, 2h) nor an instruction count (1e8)" >&2
  exit 2
fi
if [ "$limit_seconds" -eq 0 ] && [ "$limit_instructions" = 0 ]; then
  echo "soak.sh: --budget must be above zero" >&2; exit 2
fi

# Every verilated configuration: name, binary, config argument (empty: the built-in default).
names=(default fixed-memory ice40-up5k ice40-hx8k ice40-hx8k-breakout test-deep test-odd)
tools=("$build/tools/umbra-randprog" "$build/tools/umbra-randprog")
configs=("" "$root/configs/fixed-memory.yaml")
for v in ice40-up5k ice40-hx8k ice40-hx8k-breakout test-deep test-odd; do
  tools+=("$build/tools/umbra-randprog-$v")
  configs+=("$root/configs/$v.yaml")
done
for t in "${tools[@]}"; do
  if [ ! -x "$t" ]; then
    echo "soak.sh: $t not found; build it: cmake --build $build --target $(basename "$t")" >&2
    exit 2
  fi
done

log=$(mktemp "${TMPDIR:-/tmp}/umbra-soak.XXXXXX")
trap 'rm -f "$log"' EXIT
declare -A seeds fails instr cycles next
for name in "${names[@]}"; do seeds[$name]=0 fails[$name]=0 instr[$name]=0 cycles[$name]=0 next[$name]=$first; done
failures=()
start=$SECONDS
total_instr=0

spent() {
  if [ "$limit_seconds" -gt 0 ]; then
    [ $((SECONDS - start)) -ge "$limit_seconds" ]
  else
    [ "$total_instr" -ge "$limit_instructions" ]
  fi
}

echo "soak: budget $budget, length ${length:-default}, chunks of $chunk seeds, configurations: ${names[*]}"
while ! spent; do
  round_start=$total_instr
  for i in "${!names[@]}"; do
    name=${names[$i]} tool=${tools[$i]} config=${configs[$i]}
    s=${next[$name]}
    args=(--seed "$s" --count "$chunk" ${length:+--length "$length"} --run cosim)
    [ -z "$config" ] || args+=(--config "$config")
    "$tool" "${args[@]}" >"$log" 2>&1 || true
    # "seed N cosim: PASS (C cycles, I instructions)" or "seed N cosim: FAIL: detail".
    read -r n_pass n_fail c_sum i_sum < <(awk '
      /^seed [0-9]+ cosim: PASS \(/ { p++; gsub(/[(),]/, ""); c += $5; i += $7 }
      /^seed [0-9]+ cosim: FAIL/ { f++ }
      END { printf "%d %d %d %d\n", p, f, c, i }' "$log")
    if [ $((n_pass + n_fail)) -ne "$chunk" ]; then
      echo "soak.sh: $name: seeds $s..$((s + chunk - 1)) did not all report (the tool died?); its output:" >&2
      tail -20 "$log" >&2
      failures+=("$name seeds $s..$((s + chunk - 1)): incomplete run; replay: $tool ${args[*]}")
      n_fail=$((chunk - n_pass))
    fi
    while read -r fs; do
      replay="$tool --seed $fs${length:+ --length $length}${config:+ --config $config} --run cosim"
      detail=$(awk -v s="$fs" '$1 == "seed" && $2 == s { sub(/^seed [0-9]+ cosim: FAIL: /, ""); print; exit }' "$log")
      failures+=("$name seed $fs: $detail"$'\n'"    replay: $replay")
    done < <(awk '/^seed [0-9]+ cosim: FAIL/ { print $2 }' "$log")
    seeds[$name]=$((seeds[$name] + chunk))
    fails[$name]=$((fails[$name] + n_fail))
    instr[$name]=$((instr[$name] + i_sum))
    cycles[$name]=$((cycles[$name] + c_sum))
    next[$name]=$((s + chunk))
    total_instr=$((total_instr + i_sum))
    spent && break
  done
  # Only passing seeds count instructions: a round without one would never end.
  if [ "$total_instr" -eq "$round_start" ] && ! spent; then
    echo "soak.sh: no seed passed in a whole round of every configuration; stopping" >&2
    break
  fi
done

elapsed=$((SECONDS - start))
printf '\n%-13s %8s %8s %14s %14s  %s\n' configuration seeds failed instructions cycles "seed range"
t_seeds=0 t_fails=0 t_cycles=0
for name in "${names[@]}"; do
  [ "${seeds[$name]}" -gt 0 ] || continue
  printf '%-13s %8d %8d %14d %14d  %d..%d\n' "$name" "${seeds[$name]}" "${fails[$name]}" "${instr[$name]}" \
    "${cycles[$name]}" "$first" $((next[$name] - 1))
  t_seeds=$((t_seeds + seeds[$name])) t_fails=$((t_fails + fails[$name])) t_cycles=$((t_cycles + cycles[$name]))
done
printf '%-13s %8d %8d %14d %14d\n' total "$t_seeds" "$t_fails" "$total_instr" "$t_cycles"
echo "soak: ${elapsed} s wall, length ${length:-default} (instructions: the reference simulator's count of passing seeds;" \
  "cycles: the cycle models')"
if [ ${#failures[@]} -gt 0 ]; then
  echo "soak: ${#failures[@]} failure(s):"
  printf '  %s\n' "${failures[@]}"
  exit 1
fi
echo "soak: no failures"
