#!/usr/bin/env bash
# cores_sim_cost.sh [--cycles N] [--program FILE] [--cores "1 2 4 8"] [BUILD_DIR]: what a
# simulated core-cycle costs each model as the cores multiply: host instructions
# (valgrind's callgrind) per simulated cycle, and per simulated cycle of one core, for
# the SystemC model (umbra-sim --model systemc --config ...), the Verilated RTL alone
# and the cosimulation (umbra-cosim of each configuration's variant: the RTL is
# verilated per configuration, harness/cosim/CMakeLists.txt).  The machines are shared
# and noisy; an instruction count does not move with the load (bench/sim_instructions.sh
# says why).  The ISS comparison is left out (--no-iss): it is not part of any model's
# rate.  Configurations: configs/default.yaml for one core, configs/test-coresN.yaml
# for N; a count without its configuration or its variant is refused.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cycles=60000
program="$root/examples/mandelbrot.s"
cores="1 2 4 8"
usage() {
  echo "usage: $0 [--cycles N] [--program FILE] [--cores \"1 2 4 8\"] [BUILD_DIR]" >&2
  exit 2
}
while [ $# -gt 0 ]; do
  case "$1" in
    --cycles) cycles=${2:-}; shift 2 ;;
    --program) program=${2:-}; shift 2 ;;
    --cores) cores=${2:-}; shift 2 ;;
    -h | --help) usage ;;
    -*) echo "$0: unknown option '$1'" >&2; usage ;;
    *) break ;;
  esac
done
[ $# -le 1 ] || usage
build=${1:-$root/build}
case "$cycles" in '' | *[!0-9]*) echo "$0: --cycles must be a number, got '$cycles'" >&2; exit 2 ;; esac
[ -r "$program" ] || { echo "$0: cannot read program '$program'" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "$0: valgrind not found (apt-get install valgrind)" >&2; exit 1; }
sim="$build/tools/umbra-sim"
[ -x "$sim" ] || { echo "$0: no $sim (build first)" >&2; exit 1; }

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# count CMD...: callgrind's instruction total of CMD, whose JSON (stdout or --stats-json)
# gives the end cycle; prints "INSTRUCTIONS END_CYCLE".
count() {
  local json=$1
  shift
  valgrind --tool=callgrind --callgrind-out-file="$scratch/cg.out" "$@" >"$scratch/out" 2>"$scratch/err" || true
  local ir end
  ir=$(sed -n 's/^==[0-9]*== Collected : *//p' "$scratch/err" | tr -d , | tail -1)
  [ "$json" = stdout ] && json="$scratch/out"
  end=$(python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print(j['rtl']['end_cycle'] if 'rtl' in j else j['end_cycle'])" "$json" 2>/dev/null || true)
  if [ -z "$ir" ] || [ -z "$end" ] || [ "$end" = 0 ]; then
    echo "$0: $* gave no count:" >&2
    cat "$scratch/err" >&2
    exit 1
  fi
  echo "$ir $end"
}

echo "host instructions per simulated cycle (callgrind), $(basename "$program"), up to $cycles cycles after launch"
printf '%-6s %-8s %14s %16s\n' cores model "per cycle" "per core-cycle"
for n in $cores; do
  if [ "$n" = 1 ]; then
    cfg="$root/configs/default.yaml"
    cosim="$build/tools/umbra-cosim"
  else
    cfg="$root/configs/test-cores$n.yaml"
    cosim="$build/tools/umbra-cosim-test-cores$n"
  fi
  [ -r "$cfg" ] || { echo "$0: $n cores: no configuration $cfg" >&2; exit 2; }
  [ -x "$cosim" ] || { echo "$0: $n cores: no cosimulation $cosim (is it a variant?)" >&2; exit 2; }
  for model in systemc rtl cosim; do
    case $model in
      systemc) r=$(count "$scratch/stats.json" "$sim" --model systemc --config "$cfg" --max-cycles "$cycles" \
                   --no-progress --stats-json "$scratch/stats.json" "$program") ;;
      rtl) r=$(count stdout "$cosim" --model rtl --config "$cfg" --max-cycles "$cycles" --json "$program") ;;
      cosim) r=$(count stdout "$cosim" --config "$cfg" --max-cycles "$cycles" --no-iss --json "$program") ;;
    esac
    read -r ir end <<<"$r"
    printf '%-6s %-8s %14.0f %16.0f\n' "$n" "$model" "$(awk -v i="$ir" -v c="$end" 'BEGIN { print i / c }')" \
      "$(awk -v i="$ir" -v c="$end" -v n="$n" 'BEGIN { print i / c / n }')"
  done
done
