#!/usr/bin/env bash
# fpga/build.sh [--synth-only] [--no-other-families] [CONFIG.yaml...]
#
# From source to iCE40 bitstreams and a utilization/timing report, in one command.
# For each configuration (default: configs/ice40-up5k.yaml configs/ice40-hx8k.yaml):
#   1. umbra-config reads the YAML through the simulators' own strict loader and
#      gives the RTL parameters and the FPGA target (device, package, clock, DSPs), so
#      no number is restated here;
#   2. yosys synth_ice40 of fpga/synth_top.v (the core behind an on-chip memory; -dsp
#      and -spram on the UP5K) and `check -assert`;
#   3. fpga/logic_depth.py: the deepest logic paths in LUT levels (before placement);
#   4. nextpnr-ice40 at the configured clock (--report: utilization and Fmax), icepack
#      to <out>/<name>/<name>.bin.
# Then Yosys-only utilization of the first configuration for a Lattice ECP5
# (synth_ecp5) and a Xilinx 7-series part (synth_xilinx), which have no packaged
# place-and-route.  fpga/report.py prints the table and writes <out>/report.json.
#
#   --synth-only         stop after yosys + check (the ctest `fpga_synth` test)
#   --no-other-families  skip the ECP5/Xilinx runs
# Environment: UMBRA_FPGA_OUT (default build-fpga/out), UMBRA_CONFIG_TOOL (a built
# umbra-config; otherwise this script builds one in build-fpga/ with cmake), and
# UMBRA_FPGA_SEED (nextpnr seed, default 1, so runs are repeatable).
# Exit status: 0 when every step ran and every configuration met its clock target;
# 1 when a tool failed (synthesis stops the run; a place-and-route failure, e.g. a
# design that does not fit, is reported and the other configurations still build);
# 3 when everything was built but a clock target was missed.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
synth_only=0
others=1
configs=()
for a in "$@"; do
  case "$a" in
    --synth-only) synth_only=1 ;;
    --no-other-families) others=0 ;;
    -h|--help) sed -n '2,/^set -e/p' "${BASH_SOURCE[0]}" | grep '^#' | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "build.sh: error: unknown option '$a' (see --help)" >&2; exit 2 ;;
    *)
      if [ ! -f "$a" ]; then
        echo "build.sh: error: no configuration file '$a'" >&2
        exit 2
      fi
      configs+=("$(cd "$(dirname "$a")" && pwd)/$(basename "$a")") ;;
  esac
done
[ ${#configs[@]} -gt 0 ] || configs=("$root/configs/ice40-up5k.yaml" "$root/configs/ice40-hx8k.yaml")
out="${UMBRA_FPGA_OUT:-$root/build-fpga/out}"
seed="${UMBRA_FPGA_SEED:-1}"

need() {
  command -v "$1" >/dev/null 2>&1 || { echo "build.sh: error: '$1' not found (install $2)" >&2; exit 1; }
}
need yosys yosys
need python3 python3
if [ $synth_only = 0 ]; then
  need nextpnr-ice40 nextpnr-ice40
  need icepack fpga-icestorm
fi

# ---- umbra-config: built once, in its own build tree, unless one is given -----------
tool="${UMBRA_CONFIG_TOOL:-}"
if [ -z "$tool" ]; then
  need cmake cmake
  bdir="$root/build-fpga/tool"
  mkdir -p "$bdir"
  if [ ! -f "$bdir/CMakeCache.txt" ]; then
    echo "== configuring $bdir (umbra-config)"
    cmake -S "$root" -B "$bdir" -DCMAKE_BUILD_TYPE=Release >"$root/build-fpga/cmake.log" 2>&1 \
      || { echo "build.sh: error: cmake configure failed, see build-fpga/cmake.log" >&2; exit 1; }
  fi
  cmake --build "$bdir" --target umbra-config >"$root/build-fpga/cmake-build.log" 2>&1 \
    || { echo "build.sh: error: building umbra-config failed, see build-fpga/cmake-build.log" >&2; exit 1; }
  tool="$bdir/fpga/umbra-config"
fi

rtl_files=()
while read -r f; do rtl_files+=("$root/rtl/$f"); done < <(grep -v "^#" "$root/rtl/core_files.txt")
rtl_files+=("$root/fpga/synth_top.v")

# Reads umbra-config's KEY=VALUE lines into the associative array named by $1.
read_kv() {
  local -n arr="$1"
  shift
  local k v
  while IFS='=' read -r k v; do arr["$k"]="$v"; done < <("$@")
}

mkdir -p "$out"
status=0
names=()
for cfg in "${configs[@]}"; do
  declare -A C=() P=()
  # The loader's own message (file, line, reason) says what is wrong with a bad file.
  "$tool" "$cfg" >/dev/null || exit 1
  read_kv C "$tool" "$cfg"
  read_kv P "$tool" --verilog-params "$cfg"
  name="${C[name]}"
  dev="${C[fpga.device]}"
  if [ -z "$dev" ] || [ -z "${C[fpga.package]}" ] || [ "${C[fpga.clock_mhz]}" = 0 ]; then
    echo "build.sh: error: $cfg: an FPGA build needs fpga.device, fpga.package and fpga.clock_mhz" >&2
    exit 1
  fi
  d="$out/$name"
  mkdir -p "$d"
  names+=("$name")
  chparam=""
  for k in THREADS REGS IMEM_WORDS MEM_WORDS MEM_LATENCY CACHE_BYTES CACHE_WAYS CACHE_LINE_BYTES REQ_QUEUE MUL_ROWS; do chparam+=" -set $k ${P[$k]}"; done
  # The UP5K's SPRAM holds the data memory; -dsp maps the multipliers when asked.
  synth_opts=""
  [ "${C[fpga.dsp]}" = true ] && synth_opts+=" -dsp"
  [ "$dev" = up5k ] && synth_opts+=" -spram"
  {
    echo "config=$cfg"
    for k in "${!C[@]}"; do echo "$k=${C[$k]}"; done
    echo "synth_opts=$synth_opts"
    echo "seed=$seed"
  } >"$d/flow.txt"

  echo "== $name: yosys synth_ice40$synth_opts (${P[THREADS]} threads, ${P[REGS]} registers, ${P[IMEM_WORDS]} imem words, ${P[MEM_WORDS]} memory words)"
  if ! nice -n 10 yosys -l "$d/yosys.log" -q -p "read_verilog -I$root/rtl ${rtl_files[*]}; \
      chparam$chparam synth_top; synth_ice40 -top synth_top$synth_opts -json $d/$name.json; \
      check -assert; tee -q -o $d/stat.json stat -json" >/dev/null 2>&1; then
    echo "build.sh: error: $name: yosys synthesis or check failed; see $d/yosys.log:" >&2
    grep -E "ERROR|problems|Warning" "$d/yosys.log" | head -20 >&2
    exit 1
  fi
  echo "   synthesis and check -assert clean"
  # Before placement: the deepest register-to-register logic (LUT levels), the only
  # timing view left when a design does not fit.
  python3 "$root/fpga/logic_depth.py" "$d/$name.json" --top 3 >"$d/logic_depth.txt" \
    || echo "build.sh: warning: $name: logic_depth.py failed" >&2
  [ $synth_only = 1 ] && continue

  echo "== $name: nextpnr-ice40 --$dev --package ${C[fpga.package]} --freq ${C[fpga.clock_mhz]}"
  rm -f "$d/nextpnr.json" "$d/$name.asc" "$d/$name.bin"
  # --timing-allow-fail: a missed target still yields the bitstream and the report
  # that says which path missed it; the exit status below says it was missed.
  # A design that does not fit fails here; the other configurations still build and
  # the report shows what this one needed (from nextpnr's packing) against the device.
  if ! nice -n 10 nextpnr-ice40 "--$dev" --package "${C[fpga.package]}" --json "$d/$name.json" \
      --asc "$d/$name.asc" --freq "${C[fpga.clock_mhz]}" --seed "$seed" --timing-allow-fail \
      --report "$d/nextpnr.json" -l "$d/nextpnr.log" -q >/dev/null 2>&1; then
    echo "build.sh: error: $name: nextpnr-ice40 failed; see $d/nextpnr.log:" >&2
    grep -E "ERROR" "$d/nextpnr.log" | head -5 >&2
    echo "   deepest logic before placement ($d/logic_depth.txt):" >&2
    sed 's/^/   /' "$d/logic_depth.txt" >&2 || true
    status=1
    continue
  fi
  if ! icepack "$d/$name.asc" "$d/$name.bin" 2>"$d/icepack.log"; then
    echo "build.sh: error: $name: icepack failed; see $d/icepack.log" >&2
    status=1
    continue
  fi
  echo "   bitstream $d/$name.bin"
done

if [ $synth_only = 1 ]; then
  exit 0
fi

# ---- Yosys-only utilization on two other families, of the first configuration -------
other_args=()
if [ $others = 1 ]; then
  first="${names[0]}"
  declare -A P0=()
  read_kv P0 "$tool" --verilog-params "${configs[0]}"
  chparam=""
  for k in THREADS REGS IMEM_WORDS MEM_WORDS MEM_LATENCY CACHE_BYTES CACHE_WAYS CACHE_LINE_BYTES REQ_QUEUE MUL_ROWS; do chparam+=" -set $k ${P0[$k]}"; done
  for fam in ecp5 xilinx; do
    case $fam in
      ecp5) cmd="synth_ecp5 -top synth_top" ;;
      xilinx) cmd="synth_xilinx -flatten -family xc7 -top synth_top" ;;
    esac
    d="$out/$first/$fam"
    mkdir -p "$d"
    echo "== $first: yosys $cmd"
    if ! nice -n 10 yosys -l "$d/yosys.log" -q -p "read_verilog -I$root/rtl ${rtl_files[*]}; \
        chparam$chparam synth_top; $cmd; check -assert; tee -q -o $d/stat.json stat -json" \
        >/dev/null 2>&1; then
      echo "build.sh: error: $first: yosys $cmd failed; see $d/yosys.log" >&2
      exit 1
    fi
    other_args+=("--other" "$fam=$d/stat.json")
  done
fi

report_args=()
for n in "${names[@]}"; do report_args+=("--ice40" "$n=$out/$n"); done
rstatus=0
python3 "$root/fpga/report.py" ${report_args[@]+"${report_args[@]}"} \
  ${other_args[@]+"${other_args[@]}"} --json "$out/report.json" || rstatus=$?
echo "report: $out/report.json"
# A tool failure (1) outranks a missed clock target (3).
[ $status = 0 ] && status=$rstatus
exit $status
