#!/usr/bin/env bash
# lint_ulx3s.sh: the ctest `fpga_ulx3s_lint` (unit).  The ULX3S board top
# (fpga/ulx3s_top.v) and its bench wrapper (fpga/sim/ulx3s_bench.v) under the RTL's
# lint rules (rtl/check_rtl.sh's first two: verilator --lint-only -Wall with
# rtl/lint_waivers.vlt, iverilog -Wall without a warning), in the simulation's form
# (PLL = 0; the PLL = 1 form instantiates the ECP5's EHXPLLL and ODDRX1F, which only
# synth_ecp5 knows: fpga/ulx3s_build.sh) with the configuration's parameters and at
# 1 and 2 cores.  The synthesis itself is fpga/ulx3s_build.sh's.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
tool="${1:?usage: lint_ulx3s.sh UMBRA_CONFIG}"
files=()
while read -r f; do files+=("rtl/$f"); done < <(grep -v "^#" rtl/core_files.txt)
for f in reorder_queue round_robin dispatcher command_processor umbra_system sdram_controller; do
  files+=("rtl/$f.v")
done
for f in host_link ecp5_clock ulx3s_system ulx3s_top sim/ulx3s_bench; do files+=("fpga/$f.v"); done
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
config=()
while read -r p; do config+=("$p"); done < <("$tool" --top ulx3s_top configs/ecp5-ulx3s.yaml)
status=0
for top in ulx3s_top ulx3s_bench; do
  for variant in config cores1 cores2; do
    g=()
    for p in "${config[@]}"; do
      case "$variant:$p" in
        cores1:CORES=*) p="CORES=1" ;;
        cores2:CORES=*) p="CORES=2" ;;
      esac
      g+=("-G$p")
    done
    g+=(-GPLL=0)
    if verilator --lint-only -Wall -Irtl rtl/lint_waivers.vlt "${files[@]}" --top-module $top "${g[@]}" \
        >"$tmp/lint.log" 2>&1; then
      echo "lint     $top ($variant): clean"
    else
      echo "lint     $top ($variant): FAILED"
      cat "$tmp/lint.log"
      status=1
    fi
  done
  if iverilog -g2005 -Wall -Irtl -s $top -P$top.PLL=0 -o "$tmp/iv.out" "${files[@]}" >"$tmp/iv.log" 2>&1 &&
      ! grep -qi warning "$tmp/iv.log"; then
    echo "iverilog $top: clean"
  else
    echo "iverilog $top: FAILED"
    cat "$tmp/iv.log"
    status=1
  fi
done
exit $status
