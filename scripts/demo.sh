#!/usr/bin/env bash
# The README's first command: set up, build, and run the demo — the Mandelbrot
# example — showing its result and statistics.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
cd "$UMBRA_ROOT"
mkdir -p out
echo "== umbra-sim --model iss examples/mandelbrot.s --threads 8"
"$UMBRA_BUILD/sim/umbra-sim" --model iss --threads 8 examples/mandelbrot.s \
  --dump-mem "$(cat examples/mandelbrot.demo-args 2>/dev/null || echo 0x10000:64)"
