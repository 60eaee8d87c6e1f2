#!/usr/bin/env bash
# uart_test.sh: the ctest `fpga_uart` (unit).  fpga/uart_tx.v and fpga/uart_rx.v lint
# clean under Verilator -Wall at a few bit lengths, and uart_tb.v (loopback of every
# byte value, a low stop bit, a glitch) passes under iverilog.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
for m in uart_tx uart_rx; do
  for cpb in 5 8 104; do
    verilator --lint-only -Wall -GCLKS_PER_BIT=$cpb "fpga/$m.v" --top-module $m
  done
done
iverilog -g2005 -Wall -o "$tmp/tb" fpga/uart_tx.v fpga/uart_rx.v fpga/tests/uart_tb.v 2>"$tmp/iv.log"
if grep -qi warning "$tmp/iv.log"; then
  cat "$tmp/iv.log"
  exit 1
fi
vvp -n "$tmp/tb" | tee "$tmp/out.log"
grep -q '^PASS$' "$tmp/out.log" && ! grep -q '^FAIL' "$tmp/out.log"
