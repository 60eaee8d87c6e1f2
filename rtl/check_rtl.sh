#!/usr/bin/env bash
# check_rtl.sh TOP FILE...: the RTL acceptance checks for one design, failing on any
# finding:
#   1. verilator --lint-only -Wall (with rtl/lint_waivers.vlt), once per module, each
#      module as the top (a module is named after its file);
#   2. iverilog -g2005 -Wall compiles the design, without a single warning;
#   3. yosys: the coarse part of its generic synthesis, flattened (`synth -flatten
#      -top TOP -run :fine`: every process to cells, memories inferred), then `check
#      -assert` (no multiple or missing drivers, no combinational loops), no latch
#      inferred (a mapped latch would become a LUT feedback loop that `check` does not
#      flag) and no yosys warning; the cell statistics are printed for the record.
#      What the RTL is, not a device: mapping to a device's cells is the FPGA flow's
#      (fpga/build.sh, run by the fpga_pnr test and the board netlist benches), and
#      at the default size synth_ice40 of umbra_system takes over 200 s, this 52 s.
# Includes come from rtl/ (the generated umbra_isa.vh lives there).  Run from
# anywhere; FILE paths are relative to the repository root or absolute.
# Leading -GNAME=VALUE arguments set parameters of TOP for its lint run, iverilog
# (-P) and yosys (chparam); the other modules are linted with their defaults.
set -euo pipefail
params=()
while [ $# -gt 0 ] && [[ "$1" == -G*=* ]]; do
  params+=("$1")
  shift
done
if [ $# -lt 2 ]; then
  echo "usage: $0 [-GNAME=VALUE]... TOP FILE..." >&2
  exit 2
fi
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
top="$1"
shift
top_lint=()
iv_params=()
chparams=""
for p in ${params[@]+"${params[@]}"}; do
  kv="${p#-G}"
  top_lint+=("$p")
  iv_params+=("-P$top.$kv")
  chparams+="chparam -set ${kv%%=*} ${kv#*=} $top; "
done
files=("$@")
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
status=0

for f in "${files[@]}"; do
  m="$(basename "$f" .v)"
  g=()
  if [ "$m" = "$top" ]; then g=(${top_lint[@]+"${top_lint[@]}"}); fi
  if verilator --lint-only -Wall -Irtl rtl/lint_waivers.vlt "${files[@]}" --top-module "$m" \
      ${g[@]+"${g[@]}"} >"$tmp/lint.log" 2>&1; then
    echo "lint     $m: clean"
  else
    echo "lint     $m: FAILED"
    cat "$tmp/lint.log"
    status=1
  fi
done

if iverilog -g2005 -Wall -Irtl -s "$top" ${iv_params[@]+"${iv_params[@]}"} -o "$tmp/iv.out" \
    "${files[@]}" >"$tmp/iv.log" 2>&1 \
    && ! grep -qi "warning" "$tmp/iv.log"; then
  echo "iverilog $top: clean"
else
  echo "iverilog $top: FAILED"
  cat "$tmp/iv.log"
  status=1
fi

if yosys -p "read_verilog -Irtl ${files[*]}; ${chparams}synth -flatten -top $top -run :fine; check -assert; tee -o $tmp/stat.txt stat" \
    >"$tmp/yosys.log" 2>&1 && ! grep -qE "^Warning:|^Latch inferred" "$tmp/yosys.log"; then
  echo "yosys    $top: synth (coarse) + check clean"
  grep -E "Number of cells|\$mem" "$tmp/stat.txt" | sed 's/^ */         /'
else
  echo "yosys    $top: FAILED"
  grep -E "^Warning:|^Latch inferred|ERROR|problems" "$tmp/yosys.log" || tail -20 "$tmp/yosys.log"
  status=1
fi

exit $status
