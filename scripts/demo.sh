#!/usr/bin/env bash
# The README's first command: set up, build, and run the demo — the Mandelbrot example
# (96x72 pixels, 8 threads) — showing its picture in the terminal and its cycle
# statistics, and writing out/mandelbrot.png.
#
# It runs on the most faithful model that works here: the cosimulation (the RTL and
# the SystemC model in lockstep, compared event by event), else the SystemC model,
# else the reference simulator, and says which.  Each candidate is first tried on a
# one-instruction program, so a model that cannot run on this machine is skipped with
# its reason instead of failing the demo halfway.
set -euo pipefail
# The demo builds what it runs (umbra-sim and the models behind it), not the suite.
UMBRA_BUILD_TARGETS=umbra-sim
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
cd "$UMBRA_ROOT"
mkdir -p out
SIM="$UMBRA_BUILD/tools/umbra-sim"

probe=$(mktemp --suffix=.s)
trap 'rm -f "$probe" "$probe.err"' EXIT
echo "exit" >"$probe"
model=""
for m in cosim systemc iss; do
  if "$SIM" --model "$m" --threads 1 --no-progress "$probe" >/dev/null 2>"$probe.err"; then
    model=$m
    break
  fi
  echo "== --model $m is not available here: $(grep -m1 -i 'error\|fault\|mismatch' "$probe.err" || head -n1 "$probe.err")"
done
[ -n "$model" ] || { echo "error: no model of the core runs here" >&2; exit 1; }
case $model in
  cosim) echo "== model: cosim (the RTL and the SystemC model in lockstep, checked against each other and the ISS)" ;;
  systemc) echo "== model: systemc (the cycle-accurate SystemC model; the cosimulation is not available)" ;;
  iss) echo "== model: iss (the reference simulator, no timing; the cycle models are not available)" ;;
esac

echo "== umbra-sim --model $model examples/mandelbrot.s --threads 8 --dump-image fb:96x72:out/mandelbrot.png --show-image fb:96x72"
"$SIM" --model "$model" --threads 8 examples/mandelbrot.s \
  --dump-image fb:96x72:out/mandelbrot.png --show-image fb:96x72 \
  --dump-mem "$(cat examples/mandelbrot.demo-args 2>/dev/null || echo fb:27648:out/mandelbrot.txt)" \
  --stats-json out/mandelbrot-stats.json
echo "== wrote out/mandelbrot.png, out/mandelbrot.txt (the framebuffer as words) and out/mandelbrot-stats.json"
