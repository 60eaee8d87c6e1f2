#!/usr/bin/env bash
# check_rtl.sh TOP FILE...: the RTL acceptance checks for one design, failing on any
# finding:
#   1. verilator --lint-only -Wall (with rtl/lint_waivers.vlt), once per module, each
#      module as the top (a module is named after its file);
#   2. iverilog -g2005 -Wall compiles the design, without a single warning;
#   3. yosys: synth_ice40 -top TOP, then `check -assert` (no multiple or missing
#      drivers, no combinational loops), no latch inferred (synth_ice40 would map a
#      latch into a LUT feedback loop that `check` does not flag) and no yosys
#      warning; the cell statistics are printed for the record.
# Includes come from rtl/ (the generated umbra_isa.vh lives there).  Run from
# anywhere; FILE paths are relative to the repository root or absolute.
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 TOP FILE..." >&2
  exit 2
fi
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
top="$1"
shift
files=("$@")
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
status=0

for f in "${files[@]}"; do
  m="$(basename "$f" .v)"
  if verilator --lint-only -Wall -Irtl rtl/lint_waivers.vlt "${files[@]}" --top-module "$m" \
      >"$tmp/lint.log" 2>&1; then
    echo "lint     $m: clean"
  else
    echo "lint     $m: FAILED"
    cat "$tmp/lint.log"
    status=1
  fi
done

if iverilog -g2005 -Wall -Irtl -s "$top" -o "$tmp/iv.out" "${files[@]}" >"$tmp/iv.log" 2>&1 \
    && ! grep -qi "warning" "$tmp/iv.log"; then
  echo "iverilog $top: clean"
else
  echo "iverilog $top: FAILED"
  cat "$tmp/iv.log"
  status=1
fi

if yosys -p "read_verilog -Irtl ${files[*]}; synth_ice40 -top $top; check -assert; tee -o $tmp/stat.txt stat" \
    >"$tmp/yosys.log" 2>&1 && ! grep -qE "^Warning:|^Latch inferred" "$tmp/yosys.log"; then
  echo "yosys    $top: synth_ice40 + check clean"
  grep -E "Number of cells|SB_" "$tmp/stat.txt" | sed 's/^ */         /'
else
  echo "yosys    $top: FAILED"
  grep -E "^Warning:|^Latch inferred|ERROR|problems" "$tmp/yosys.log" || tail -20 "$tmp/yosys.log"
  status=1
fi

exit $status
