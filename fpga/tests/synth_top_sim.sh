#!/usr/bin/env bash
# synth_top_sim.sh UMBRA_AS UMBRA_CONFIG: fpga_synth_top_sim.  Runs synth_top_mem.s on
# fpga/synth_top.v under Icarus (synth_top_tb.v) with the synth_top parameters of each
# FPGA configuration, and for the UP5K's also at memory latencies 1 (the response
# straight from the RAM, no request register) and 3 (a register after the RAM's), so
# that each arrangement of the top's memory is run; every run must end, with no fault.
set -euo pipefail
as="$1" config="$2"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
files=(fpga/synth_top.v fpga/tests/synth_top_tb.v)
while read -r f; do files+=("rtl/$f"); done < <(grep -v "^#" rtl/core_files.txt)
status=0
run() {  # CONFIG [MEM_LATENCY]
  local cfg="$1" lat="${2:-}" defs=() name
  name="$(basename "$cfg" .yaml)${lat:+ MEM_LATENCY=$lat}"
  "$as" --config "$cfg" fpga/tests/synth_top_mem.s -o "$tmp/mem.hex"
  while IFS='=' read -r k v; do
    [ "$k" = MEM_LATENCY ] && [ -n "$lat" ] && v="$lat"
    defs+=("-D$k=$v")
  done < <("$config" --top synth_top "$cfg")
  iverilog -g2005 -Irtl "${defs[@]}" -DPROGRAM="\"$tmp/mem.hex\"" -s synth_top_tb \
    -o "$tmp/tb.out" "${files[@]}"
  if vvp -n "$tmp/tb.out" | tee "$tmp/out.log" | grep -q '^PASS$'; then
    echo "ok   $name: $(grep '^synth_top_tb:' "$tmp/out.log")"
  else
    echo "FAIL $name:"
    cat "$tmp/out.log"
    status=1
  fi
}
run configs/ice40-up5k.yaml
run configs/ice40-up5k.yaml 1
run configs/ice40-up5k.yaml 3
run configs/ice40-hx8k.yaml
exit $status
