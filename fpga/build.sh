#!/usr/bin/env bash
# fpga/build.sh [--synth-only | --params-only] [--no-other-families] [--board] [CONFIG.yaml...]
#
# From source to iCE40 bitstreams and a utilization/timing report, in one command.
# For each configuration (default: configs/ice40-up5k.yaml configs/ice40-hx8k.yaml):
#   1. umbra-config reads the YAML through the simulators' own strict loader and
#      gives the FPGA target (device, package, clock, DSPs) and each top's RTL
#      parameters, from the key -> parameter table (isa/include/umbra/rtl_params.h)
#      every other flow uses too, so no number or parameter name is restated here;
#   2. yosys synth_ice40 of fpga/synth_top.v (the core behind an on-chip memory; -dsp
#      and -spram on the UP5K) and `check -assert`;
#   3. fpga/logic_depth.py: the deepest logic paths in LUT levels (before placement);
#   4. nextpnr-ice40 at the configured clock (--report: utilization and Fmax), icepack
#      to <out>/<name>/<name>.bin;
#   5. with --board and fpga.board (icebreaker, hx8k_breakout): the same for the
#      board top fpga/<board>_top.v (core, data memory, UART host link, LEDs) with its
#      pins fpga/<board>.pcf, at fpga.board_clock_mhz (the 12 MHz oscillator, halved,
#      or the PLL with icepll's settings), to <out>/<name>/<board>/<board>.bin, what
#      goes on the board.
# Then Yosys-only utilization of the first configuration for a Lattice ECP5
# (synth_ecp5) and a Xilinx 7-series part (synth_xilinx), which have no packaged
# place-and-route.  fpga/report.py prints the table and writes <out>/report.json.
#
#   --synth-only         stop after yosys + check (the ctest `fpga_synth` test)
#   --params-only        print each design's yosys parameters (chparam) and stop,
#                        running no FPGA tool
#   --no-other-families  skip the ECP5/Xilinx runs
#   --board              also build the board top of configurations with fpga.board
# Environment: UMBRA_FPGA_OUT (default build-fpga/out), UMBRA_CONFIG_TOOL (a built
# umbra-config; otherwise this script builds one in build-fpga/config-tool with cmake,
# from cmake/config-tool, which needs no more than the configuration loader), and
# UMBRA_FPGA_SEED (nextpnr seed, default 1, so runs are repeatable).
# Exit status: 0 when every step ran and every configuration met its clock target;
# 1 when a tool failed (synthesis stops the run; a place-and-route failure, e.g. a
# design that does not fit, is reported and the other configurations still build);
# 3 when everything was built but a clock target was missed.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
synth_only=0
params_only=0
others=1
boards=0
configs=()
for a in "$@"; do
  case "$a" in
    --synth-only) synth_only=1 ;;
    --params-only) params_only=1 ;;
    --no-other-families) others=0 ;;
    --board) boards=1 ;;
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

# Set-up: the Debian packages the flow needs (yosys, nextpnr-ice40, fpga-icestorm,
# cmake, python3...), installed by the same list the quick start uses when missing.
# Elsewhere than on Debian the tools are checked below, not installed.
if [ $params_only = 0 ] && command -v dpkg-query >/dev/null 2>&1; then
  UMBRA_SETUP_PACKAGES_ONLY=1 source "$root/scripts/setup.sh"
fi

need() {
  command -v "$1" >/dev/null 2>&1 || { echo "build.sh: error: '$1' not found (install $2)" >&2; exit 1; }
}
if [ $params_only = 0 ]; then
  need yosys yosys
  need python3 python3
fi
if [ $synth_only = 0 ] && [ $params_only = 0 ]; then
  need nextpnr-ice40 nextpnr-ice40
  need icepack fpga-icestorm
fi

# ---- umbra-config: built once, in its own build tree, unless one is given -----------
tool="${UMBRA_CONFIG_TOOL:-}"
if [ -z "$tool" ]; then
  need cmake cmake
  bdir="$root/build-fpga/config-tool"
  mkdir -p "$bdir"
  if [ ! -f "$bdir/CMakeCache.txt" ]; then
    echo "== configuring $bdir (umbra-config)"
    cmake -S "$root/cmake/config-tool" -B "$bdir" -DCMAKE_BUILD_TYPE=Release >"$root/build-fpga/cmake.log" 2>&1 \
      || { echo "build.sh: error: cmake configure failed, see build-fpga/cmake.log" >&2; exit 1; }
  fi
  cmake --build "$bdir" --target umbra-config >"$root/build-fpga/cmake-build.log" 2>&1 \
    || { echo "build.sh: error: building umbra-config failed, see build-fpga/cmake-build.log" >&2; exit 1; }
  tool="$bdir/umbra-config"
fi

rtl_files=()
while read -r f; do rtl_files+=("$root/rtl/$f"); done < <(grep -v "^#" "$root/rtl/core_files.txt")

# Reads umbra-config's KEY=VALUE lines into the associative array named by $1.
read_kv() {
  local -n arr="$1"
  shift
  local k v
  while IFS='=' read -r k v; do arr["$k"]="$v"; done < <("$@")
}

[ $params_only = 1 ] || mkdir -p "$out"
status=0
names=()    # report entries: a configuration's name, or NAME/BOARD for its board top
dirs=()

# flow NAME DIR TOP "CHPARAM" "SYNTH_OPTS" DEVICE PACKAGE FREQ_MHZ PCF FILE...: one
# design through yosys (synthesis, check -assert, statistics), logic_depth.py and,
# unless --synth-only, nextpnr-ice40 and icepack to DIR/NAME.bin.  A synthesis failure
# stops the run; a place-and-route failure (a design that does not fit) sets status 1
# and the other designs still build.
flow() {
  local name="$1" d="$2" top="$3" chparam="$4" synth_opts="$5" dev="$6" pkg="$7" freq="$8" pcf="$9"
  shift 9
  local files=("$@")
  mkdir -p "$d"
  if ! nice -n 10 yosys -l "$d/yosys.log" -q -p "read_verilog -I$root/rtl ${files[*]}; \
      chparam$chparam $top; synth_ice40 -top $top$synth_opts -json $d/$name.json; \
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
  [ $synth_only = 1 ] && return 0

  echo "== $name: nextpnr-ice40 --$dev --package $pkg --freq $freq${pcf:+ --pcf ${pcf#$root/}}"
  rm -f "$d/nextpnr.json" "$d/$name.asc" "$d/$name.bin"
  # --timing-allow-fail: a missed target still yields the bitstream and the report
  # that says which path missed it; the exit status below says it was missed.
  # A design that does not fit fails here; the other configurations still build and
  # the report shows what this one needed (from nextpnr's packing) against the device.
  if ! nice -n 10 nextpnr-ice40 "--$dev" --package "$pkg" --json "$d/$name.json" ${pcf:+--pcf "$pcf"} \
      --asc "$d/$name.asc" --freq "$freq" --seed "$seed" --timing-allow-fail \
      --report "$d/nextpnr.json" -l "$d/nextpnr.log" -q >/dev/null 2>&1; then
    echo "build.sh: error: $name: nextpnr-ice40 failed; see $d/nextpnr.log:" >&2
    grep -E "ERROR" "$d/nextpnr.log" | head -5 >&2
    echo "   deepest logic before placement ($d/logic_depth.txt):" >&2
    sed 's/^/   /' "$d/logic_depth.txt" >&2 || true
    status=1
    return 0
  fi
  if ! icepack "$d/$name.asc" "$d/$name.bin" 2>"$d/icepack.log"; then
    echo "build.sh: error: $name: icepack failed; see $d/icepack.log" >&2
    status=1
    return 0
  fi
  echo "   bitstream $d/$name.bin"
}

# The board tops (fpga/<board>_top.v): both boards have a 12 MHz oscillator.  The
# core clock is fpga.board_clock_mhz: the oscillator itself, halved by a flip-flop, or
# the PLL with the settings icepll gives (and the frequency it achieves, which the top
# learns as CLK_HZ so that its UART divider follows the clock).
board_osc_mhz=12
board_files=("$root/fpga/uart_rx.v" "$root/fpga/uart_tx.v" "$root/fpga/spram_memory.v"
             "$root/fpga/host_link.v" "$root/fpga/board_system.v")

# board_clock MHZ: the board top's clock parameters (yosys -set ...) for MHZ, and the
# frequency in MHz to time it at, in the globals bclk_params and bclk_mhz.
board_clock() {
  local mhz="$1"
  if [ "$mhz" = "$board_osc_mhz" ]; then
    bclk_params=" -set CLK_DIV 1 -set PLL 0"
    bclk_mhz="$mhz"
  elif [ $((mhz * 2)) = "$board_osc_mhz" ]; then
    bclk_params=" -set CLK_DIV 2 -set PLL 0"
    bclk_mhz="$mhz"
  else
    need icepll fpga-icestorm
    local o
    if ! o=$(icepll -i "$board_osc_mhz" -o "$mhz" 2>&1); then
      echo "build.sh: error: icepll cannot make fpga.board_clock_mhz = $mhz from $board_osc_mhz MHz:" >&2
      echo "$o" >&2
      exit 1
    fi
    local r f q filt hz
    r=$(sed -n 's/^DIVR: *\([0-9]*\).*/\1/p' <<<"$o")
    f=$(sed -n 's/^DIVF: *\([0-9]*\).*/\1/p' <<<"$o")
    q=$(sed -n 's/^DIVQ: *\([0-9]*\).*/\1/p' <<<"$o")
    filt=$(sed -n 's/^FILTER_RANGE: *\([0-9]*\).*/\1/p' <<<"$o")
    bclk_mhz=$(sed -n 's/^F_PLLOUT: *\([0-9.]*\) MHz (achieved).*/\1/p' <<<"$o")
    hz=$(python3 -c "print(round($bclk_mhz * 1e6))")
    bclk_params=" -set PLL 1 -set PLL_DIVR $r -set PLL_DIVF $f -set PLL_DIVQ $q -set PLL_FILTER $filt -set CLK_HZ $hz"
  fi
}

for cfg in "${configs[@]}"; do
  declare -A C=() P=()
  # The loader's own message (file, line, reason) says what is wrong with a bad file.
  "$tool" "$cfg" >/dev/null || exit 1
  read_kv C "$tool" "$cfg"
  read_kv P "$tool" --top synth_top "$cfg"
  name="${C[name]}"
  dev="${C[fpga.device]}"
  if [ -z "$dev" ] || [ -z "${C[fpga.package]}" ] || [ "${C[fpga.clock_mhz]}" = 0 ]; then
    echo "build.sh: error: $cfg: an FPGA build needs fpga.device, fpga.package and fpga.clock_mhz" >&2
    exit 1
  fi
  chparam=" $("$tool" --top synth_top --format yosys "$cfg")"
  board="${C[fpga.board]:-}"
  # The board top: the same core parameters under the board top's names, its own
  # memory (SPRAM or block RAM, with atomics), the UART host link and the pins of
  # fpga/$board.pcf, and its clock from fpga.board_clock_mhz.
  bparam=""
  if [ -n "$board" ]; then
    board_clock "${C[fpga.board_clock_mhz]}"
    bparam=" $("$tool" --top "${board}_top" --format yosys "$cfg")$bclk_params"
  fi
  if [ $params_only = 1 ]; then
    echo "$name synth_top:$chparam"
    [ $boards = 1 ] && [ -n "$board" ] && echo "$name ${board}_top:$bparam"
    continue
  fi
  d="$out/$name"
  mkdir -p "$d"
  names+=("$name")
  dirs+=("$d")
  # The UP5K's SPRAM holds the data memory; -dsp maps the multipliers when asked.
  synth_opts=""
  [ "${C[fpga.dsp]}" = true ] && synth_opts+=" -dsp"
  [ "$dev" = up5k ] && synth_opts+=" -spram"
  {
    echo "config=$cfg"
    for k in "${!C[@]}"; do echo "$k=${C[$k]}"; done
    echo "top=synth_top"
    echo "synth_opts=$synth_opts"
    echo "seed=$seed"
  } >"$d/flow.txt"
  echo "== $name: yosys synth_ice40$synth_opts (${P[THREADS]} threads, ${P[REGS]} registers, ${P[IMEM_WORDS]} imem words, ${P[MEM_WORDS]} memory words)"
  flow "$name" "$d" synth_top "$chparam" "$synth_opts" "$dev" "${C[fpga.package]}" \
    "${C[fpga.clock_mhz]}" "" "${rtl_files[@]}" "$root/fpga/synth_top.v"

  [ $boards = 1 ] && [ -n "$board" ] || continue
  bd="$d/$board"
  mkdir -p "$bd"
  names+=("$name/$board")
  dirs+=("$bd")
  bfreq="$bclk_mhz"
  sed "s/^top=.*/top=${board}_top/; s/^fpga.clock_mhz=.*/fpga.clock_mhz=$bfreq/" "$d/flow.txt" >"$bd/flow.txt"
  echo "== $name/$board: yosys synth_ice40$synth_opts (board top ${board}_top, ${bfreq} MHz)"
  flow "$board" "$bd" "${board}_top" "$bparam" "$synth_opts" "$dev" "${C[fpga.package]}" \
    "$bfreq" "$root/fpga/$board.pcf" "${rtl_files[@]}" "${board_files[@]}" "$root/fpga/${board}_top.v"
done

if [ $synth_only = 1 ] || [ $params_only = 1 ]; then
  exit 0
fi

# ---- Yosys-only utilization on two other families, of the first configuration -------
other_args=()
if [ $others = 1 ]; then
  first="${names[0]}"
  chparam=" $("$tool" --top synth_top --format yosys "${configs[0]}")"
  for fam in ecp5 xilinx; do
    case $fam in
      ecp5) cmd="synth_ecp5 -top synth_top" ;;
      xilinx) cmd="synth_xilinx -flatten -family xc7 -top synth_top" ;;
    esac
    d="$out/$first/$fam"
    mkdir -p "$d"
    echo "== $first: yosys $cmd"
    if ! nice -n 10 yosys -l "$d/yosys.log" -q -p "read_verilog -I$root/rtl ${rtl_files[*]} \
        $root/fpga/synth_top.v; chparam$chparam synth_top; $cmd; check -assert; tee -q -o $d/stat.json stat -json" \
        >/dev/null 2>&1; then
      echo "build.sh: error: $first: yosys $cmd failed; see $d/yosys.log" >&2
      exit 1
    fi
    other_args+=("--other" "$fam=$d/stat.json")
  done
fi

report_args=()
for i in "${!names[@]}"; do report_args+=("--ice40" "${names[$i]}=${dirs[$i]}"); done
rstatus=0
python3 "$root/fpga/report.py" ${report_args[@]+"${report_args[@]}"} \
  ${other_args[@]+"${other_args[@]}"} --json "$out/report.json" || rstatus=$?
echo "report: $out/report.json"
# A tool failure (1) outranks a missed clock target (3).
[ $status = 0 ] && status=$rstatus
exit $status
