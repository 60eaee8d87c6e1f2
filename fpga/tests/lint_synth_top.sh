#!/usr/bin/env bash
# lint_synth_top.sh: fpga/synth_top.v under the RTL's lint rules (rtl/check_rtl.sh's
# first two: verilator --lint-only -Wall with rtl/lint_waivers.vlt, iverilog -Wall
# without a warning), at the memory latencies the configurations use and at 1, where
# the response comes straight from the RAM's register.  The synthesis itself is the
# fpga_synth test's.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
files=()
while read -r f; do files+=("rtl/$f"); done < <(grep -v "^#" rtl/core_files.txt)
files+=(fpga/synth_top.v)
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
status=0
for lat in 1 2 3; do
  if verilator --lint-only -Wall -Irtl rtl/lint_waivers.vlt "${files[@]}" --top-module synth_top \
      -GMEM_LATENCY=$lat >"$tmp/lint.log" 2>&1; then
    echo "lint     synth_top MEM_LATENCY=$lat: clean"
  else
    echo "lint     synth_top MEM_LATENCY=$lat: FAILED"
    cat "$tmp/lint.log"
    status=1
  fi
  if iverilog -g2005 -Wall -Irtl -s synth_top -Psynth_top.MEM_LATENCY=$lat -o "$tmp/iv.out" "${files[@]}" \
      >"$tmp/iv.log" 2>&1 && ! grep -qi warning "$tmp/iv.log"; then
    echo "iverilog synth_top MEM_LATENCY=$lat: clean"
  else
    echo "iverilog synth_top MEM_LATENCY=$lat: FAILED"
    cat "$tmp/iv.log"
    status=1
  fi
done
exit $status
