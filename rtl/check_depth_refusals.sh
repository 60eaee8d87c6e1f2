#!/usr/bin/env bash
# check_depth_refusals.sh [--yosys]: umbra_core's elaboration checks of the pipeline
# depth refuse what the configuration loader and the SystemC model refuse:
# EXEC_STAGES outside isa/uarch.yaml's limits, and THREADS below the depth
# UMBRA_FETCH_TO_X1 + EXEC_STAGES + 1 (no forwarding, no interlock).  A refusal is an
# elaboration error naming the check's module (Verilog-2005 has no $error); a
# pipeline at depth = THREADS must elaborate.  Verilator and Icarus take seconds;
# Yosys elaborates the same missing module the same way but takes minutes for the
# whole core, so it runs only with --yosys.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
files=()
while read -r f; do
  case "$f" in "#"* | "") ;; *) files+=("rtl/$f") ;; esac
done <rtl/core_files.txt
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
status=0

# elaborate TOOL THREADS EXEC_STAGES: 0 if the tool elaborates umbra_core; its log in $tmp/log.
elaborate() {
  case "$1" in
    verilator)
      verilator --lint-only -Wno-fatal -Irtl rtl/lint_waivers.vlt "${files[@]}" --top-module umbra_core \
        -GTHREADS="$2" -GEXEC_STAGES="$3" >"$tmp/log" 2>&1 ;;
    iverilog)
      iverilog -g2005 -Irtl -s umbra_core -Pumbra_core.THREADS="$2" -Pumbra_core.EXEC_STAGES="$3" \
        -o "$tmp/iv.out" "${files[@]}" >"$tmp/log" 2>&1 ;;
    yosys)
      yosys -q -p "read_verilog -Irtl ${files[*]}; chparam -set THREADS $2 -set EXEC_STAGES $3 umbra_core; \
                   hierarchy -check -top umbra_core" >"$tmp/log" 2>&1 ;;
  esac
}

# expect TOOL THREADS EXEC_STAGES CHECK: CHECK is the refusal's module name, or "" to
# expect elaboration to succeed.
expect() {
  local what="$1 THREADS=$2 EXEC_STAGES=$3"
  if elaborate "$1" "$2" "$3"; then
    if [ -n "$4" ]; then
      echo "FAILED   $what: elaborated, expected the refusal $4"
      status=1
    else
      echo "ok       $what: elaborates"
    fi
  elif [ -n "$4" ] && grep -q "$4" "$tmp/log"; then
    echo "ok       $what: refused ($4)"
  else
    echo "FAILED   $what: ${4:+expected the refusal $4, got:}${4:-expected to elaborate, got:}"
    tail -5 "$tmp/log"
    status=1
  fi
}

tools=(verilator iverilog)
if [ "${1:-}" = "--yosys" ]; then tools+=(yosys); fi
for tool in "${tools[@]}"; do
  expect "$tool" 8 5 umbra_core_THREADS_below_the_pipeline_depth
  expect "$tool" 15 12 umbra_core_THREADS_below_the_pipeline_depth
  expect "$tool" 16 3 umbra_core_EXEC_STAGES_outside
  expect "$tool" 64 17 umbra_core_EXEC_STAGES_outside
  expect "$tool" 16 12 ""
done
exit $status
