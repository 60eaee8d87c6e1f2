#!/usr/bin/env bash
# fpga/system_utilization.sh [--out DIR] [--families "ecp5 xilinx"] [CORES...]
#
# Yosys-only FPGA utilization of the multi-core system top, rtl/umbra_system.v (CORES
# cores behind the arbiter and the one reorder queue), for each core count (default
# "1 2 4") on two families with no packaged place-and-route:
#   ecp5    synth_ecp5                          (Lattice ECP5; reference LFE5U-85F)
#   xilinx  synth_xilinx -flatten -family xc7   (Xilinx 7-series; reference XC7A100T)
# The RTL is rtl/umbra_system.v, the core files listed in rtl/core_files.txt (the one
# list every flow reads), rtl/reorder_queue.v, rtl/round_robin.v, rtl/dispatcher.v and rtl/command_processor.v,
# include directory rtl/, with the default configuration's parameters (umbra-config
# reads them from configs/default.yaml) and CORES set with chparam.
#
# The trace_* outputs exist only for the cosimulation; an FPGA top leaves them open.
# Left as ports they would keep all their logic (and a netlist for a part it could not
# fit on anyway, their pins).  So after `hierarchy` they are turned into internal wires
# (`delete -port umbra_system/w:trace_*`) and synthesis removes what only they used.
# The ports of the final netlist are listed to <dir>/ports.txt and the run fails if a
# trace_* port is still there.  Nothing else is tied (bypass_queue stays an input).
#
# Each run (core count x family) is one yosys process under `nice -n 19`, one at a
# time, to <out>/c<N>-<family>/: yosys.log, stat.txt, stat.json, ports.txt, time.txt.
# At the end one table line per run: cells, the fraction of the reference part, and
# the run's wall time (also in <out>/summary.txt).
#   --out DIR        output directory (default build-fpga/system-util in the repository)
#   --families LIST  "ecp5 xilinx" (the default), "ecp5" or "xilinx"
# Exit status 0 when every run completed; 1 when a yosys run failed; 2 bad arguments.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$root/build-fpga/system-util"
families="ecp5 xilinx"
cores_list=()
while [ $# -gt 0 ]; do
  case "$1" in
    --out|--families)
      [ $# -ge 2 ] || { echo "system_utilization.sh: error: $1 needs a value" >&2; exit 2; }
      case "$1" in
        --out) out="$2" ;;
        --families) families="$2" ;;
      esac
      shift 2 ;;
    -h|--help) sed -n '2,/^set -e/p' "${BASH_SOURCE[0]}" | grep '^#' | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "system_utilization.sh: error: unknown option '$1' (see --help)" >&2; exit 2 ;;
    *) for n in $1; do cores_list+=("$n"); done; shift ;;
  esac
done
[ ${#cores_list[@]} -gt 0 ] || cores_list=(1 2 4)
for n in "${cores_list[@]}"; do
  [[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "system_utilization.sh: error: '$n' is not a core count" >&2; exit 2; }
done
for f in $families; do
  case "$f" in ecp5|xilinx) ;; *) echo "system_utilization.sh: error: --families: '$f' is not ecp5 or xilinx" >&2; exit 2 ;; esac
done
for t in yosys python3; do
  command -v "$t" >/dev/null || { echo "system_utilization.sh: error: $t not found" >&2; exit 1; }
done

rtl_files=("$root/rtl/umbra_system.v")
while read -r f; do
  case "$f" in ''|'#'*) continue ;; esac
  rtl_files+=("$root/rtl/$f")
done < "$root/rtl/core_files.txt"
rtl_files+=("$root/rtl/reorder_queue.v" "$root/rtl/round_robin.v" "$root/rtl/dispatcher.v" "$root/rtl/command_processor.v")

# The default configuration's parameters but CORES, from the key -> parameter table
# (umbra-config: UMBRA_CONFIG_TOOL, else the one the main build made).
tool="${UMBRA_CONFIG_TOOL:-$root/build/umbra-config-tool/umbra-config}"
[ -x "$tool" ] || { echo "system_utilization.sh: error: no umbra-config at $tool (build first, or set UMBRA_CONFIG_TOOL)" >&2; exit 1; }
params=$("$tool" --top umbra_system --format yosys "$root/configs/default.yaml" | sed 's/-set CORES [0-9]* //')

mkdir -p "$out"
runs=()
status=0
for n in "${cores_list[@]}"; do
  for fam in $families; do
    case $fam in
      ecp5) cmd="synth_ecp5 -top umbra_system" ;;
      xilinx) cmd="synth_xilinx -flatten -family xc7 -top umbra_system" ;;
    esac
    d="$out/c$n-$fam"
    mkdir -p "$d"
    rm -f "$d/stat.txt" "$d/stat.json" "$d/ports.txt" "$d/time.txt"
    echo "== CORES=$n $fam: yosys $cmd"
    t0=$(date +%s.%N)
    if nice -n 19 yosys -q -l "$d/yosys.log" -p "read_verilog -I$root/rtl ${rtl_files[*]}; \
        chparam $params -set CORES $n umbra_system; hierarchy -top umbra_system; \
        delete -port umbra_system/w:trace_*; $cmd; check; \
        tee -q -o $d/ports.txt select -list umbra_system/x:*; \
        tee -q -o $d/stat.txt stat; tee -q -o $d/stat.json stat -json" >/dev/null 2>&1; then
      t1=$(date +%s.%N)
      awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f\n", b - a }' > "$d/time.txt"
      if grep -q 'trace_' "$d/ports.txt"; then
        echo "system_utilization.sh: error: CORES=$n $fam: trace ports left in the netlist ($d/ports.txt)" >&2
        status=1
      fi
      runs+=("$n:$fam:$d")
    else
      echo "system_utilization.sh: error: CORES=$n $fam: yosys failed; see $d/yosys.log" >&2
      tail -n 5 "$d/yosys.log" >&2 || true
      status=1
    fi
  done
done

[ ${#runs[@]} -gt 0 ] || exit 1
python3 - "${runs[@]}" <<'EOF' | tee "$out/summary.txt"
import json, sys

def cells(path):
    s = json.load(open(path))
    if "design" in s and "num_cells_by_type" in s["design"]:
        return s["design"]["num_cells_by_type"]
    mods = list(s["modules"].values())
    return mods[0]["num_cells_by_type"]

def pct(v, cap):
    return "%d (%.1f%%)" % (v, 100.0 * v / cap)

# Reference parts: LFE5U-85F and XC7A100T.
print("%-5s %-6s  %s" % ("cores", "family", "cells (fraction of LFE5U-85F / XC7A100T), wall time"))
for run in sys.argv[1:]:
    n, fam, d = run.split(":", 2)
    c = cells(d + "/stat.json")
    g = lambda k: int(c.get(k, 0))
    t = open(d + "/time.txt").read().strip()
    if fam == "ecp5":
        lut, ccu = g("LUT4"), g("CCU2C")
        dpr = g("TRELLIS_DPR16X4")
        line = ("LUT4 %d + CCU2C %d -> LUT4-eq %s  DPR16X4 %d  TRELLIS_FF %s  DP16KD %s  "
                "MULT18X18D %s  ALU54B %d" %
                (lut, ccu, pct(lut + 2 * ccu, 83640), dpr, pct(g("TRELLIS_FF"), 83640),
                 pct(g("DP16KD"), 208), pct(g("MULT18X18D"), 156), g("ALU54B")))
    else:
        lut = sum(g("LUT%d" % i) for i in range(1, 7))
        ff = sum(g(k) for k in ("FDRE", "FDSE", "FDCE", "FDPE"))
        r36, r18 = g("RAMB36E1"), g("RAMB18E1")
        srl = g("SRL16E") + g("SRLC32E")
        lutram = sum(int(v) for k, v in c.items()
                     if k.startswith("RAM") and not k.startswith("RAMB"))
        line = ("LUT %s  FF %s  RAMB36E1 %d RAMB18E1 %d -> RAMB36-eq %s  DSP48E1 %s  "
                "SRL %d  LUTRAM %d  CARRY4 %d  MUXF7/8 %d/%d" %
                (pct(lut, 63400), pct(ff, 126800), r36, r18,
                 "%.1f (%.1f%%)" % (r36 + r18 / 2.0, 100.0 * (r36 + r18 / 2.0) / 135),
                 pct(g("DSP48E1"), 240), srl, lutram, g("CARRY4"), g("MUXF7"), g("MUXF8")))
    print("%-5s %-6s  %s  time %ss" % (n, fam, line, t))
EOF
exit $status
