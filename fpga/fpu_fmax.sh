#!/usr/bin/env bash
# fpga/fpu_fmax.sh [--latencies "4 6 8 10 12"] [--seeds "1 2 3"] [--devices "up5k hx8k"]
#                  [--check-cycles N]
#
# The FPU alone on the iCE40s: how fast each pipeline depth (rtl/fpu.v LATENCY, with
# MISC_LATENCY as execute gives it: isa/uarch.yaml's misc_latency_2_from .. _4_from)
# places, so the depth of an FPGA configuration can be chosen from figures
# (docs/fpga.md, "The FPU alone").
# For each device and latency:
#   1. yosys synth_ice40 (-dsp on the UP5K, whose multiplier is `*` on SB_MAC16; the
#      HX8K's is shift-and-add rows, MUL_ROWS=1) of fpga/fpu_fmax_top.v, the FPU between
#      registers, and the cell counts;
#   2. the synthesized FPU (the same parameters, the fpu module as top) simulated with
#      the iCE40 cell models against the RTL (testbench/fpu/fpu_netlist_tb.v, Icarus),
#      so a figure is never that of a netlist synthesis broke;
#   3. nextpnr-ice40 (--up5k --package sg48 / --hx8k --package ct256) at --freq of the
#      device's goal for each seed: Fmax, logic cells and the critical path (its start
#      and end registers and the RTL lines it passes).
# Prints a Markdown table (min / median / max Fmax over the seeds) and writes it with
# the logs to $UMBRA_FPU_FMAX_OUT (default build-fpga/fpu-fmax).  Exit status 0 when
# every run completed and every netlist matched, 1 otherwise.  Run time: about a
# minute per place-and-route; nothing here is part of the ctest suite.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
latencies="4 6 8 10 12"
seeds="1 2 3"
devices="up5k hx8k"
check_cycles=300
while [ $# -gt 0 ]; do
  case "$1" in
    --latencies|--seeds|--devices|--check-cycles)
      if [ $# -lt 2 ]; then
        echo "fpu_fmax.sh: error: $1 needs a value" >&2
        exit 2
      fi
      case "$1" in
        --latencies) latencies="$2" ;;
        --seeds) seeds="$2" ;;
        --devices) devices="$2" ;;
        --check-cycles) check_cycles="$2" ;;
      esac
      shift 2 ;;
    -h|--help) sed -n '2,/^set -e/p' "${BASH_SOURCE[0]}" | grep '^#' | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "fpu_fmax.sh: error: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
for d in $devices; do
  case "$d" in up5k|hx8k) ;; *) echo "fpu_fmax.sh: error: --devices: '$d' is not up5k or hx8k" >&2; exit 2 ;; esac
done
for l in $latencies; do
  if ! [[ "$l" =~ ^[0-9]+$ ]] || [ "$l" -lt 4 ] || [ "$l" -gt 12 ]; then
    echo "fpu_fmax.sh: error: --latencies: '$l' is not 4..12" >&2
    exit 2
  fi
done
for t in yosys nextpnr-ice40 iverilog vvp python3; do
  command -v "$t" >/dev/null || { echo "fpu_fmax.sh: error: $t not found" >&2; exit 1; }
done

# The depths from which execute gives the FPU MISC_LATENCY 2, 3 and 4: isa/uarch.yaml's,
# read from the header generated from it, as execute.v reads them.
for n in 2 3 4; do
  v=$(sed -n "s/^\`define UMBRA_MISC_LATENCY_${n}_FROM \\([0-9]*\\)\$/\\1/p" "$root/rtl/umbra_uarch.vh")
  if ! [[ "$v" =~ ^[0-9]+$ ]]; then
    echo "fpu_fmax.sh: error: rtl/umbra_uarch.vh has no UMBRA_MISC_LATENCY_${n}_FROM (regenerate it: isa-docs)" >&2
    exit 1
  fi
  declare "misc_${n}_from=$v"
done

out="${UMBRA_FPU_FMAX_OUT:-$root/build-fpga/fpu-fmax}"
mkdir -p "$out"
cd "$root"
fpu_files="rtl/fp_stage.v rtl/fp_mul.v rtl/fp_add.v rtl/fp_misc.v rtl/fpu.v"
cells_sim="$(dirname "$(command -v yosys)")/../share/yosys/ice40/cells_sim.v"
status=0
rows="$out/rows.tsv"
: >"$rows"

for dev in $devices; do
  if [ "$dev" = up5k ]; then
    dsp=-dsp; rows_p=0; pnr=(--up5k --package sg48); goal=35
  else
    dsp=; rows_p=1; pnr=(--hx8k --package ct256); goal=60
  fi
  for lat in $latencies; do
    misc=1
    if [ "$lat" -ge "$misc_2_from" ]; then misc=2; fi
    if [ "$lat" -ge "$misc_3_from" ]; then misc=3; fi
    if [ "$lat" -ge "$misc_4_from" ]; then misc=4; fi
    tag="$dev-l$lat-m$misc"
    params="-set MUL_ROWS $rows_p -set LATENCY $lat -set MISC_LATENCY $misc"
    echo "== $tag: synthesis" >&2
    if ! yosys -p "read_verilog -Irtl $fpu_files fpga/fpu_fmax_top.v; chparam $params fpu_fmax_top;
                   synth_ice40 $dsp -top fpu_fmax_top -json $out/$tag.json; check -assert;
                   tee -o $out/$tag.stat stat" >"$out/$tag.yosys.log" 2>&1; then
      echo "fpu_fmax.sh: yosys failed for $tag, see $out/$tag.yosys.log" >&2
      status=1
      continue
    fi
    cells() { awk -v c="$1" '$1 == c { n += $2 } END { print n + 0 }' "$out/$tag.stat"; }
    luts=$(cells SB_LUT4)
    ffs=$(awk '$1 ~ /^SB_DFF/ { n += $2 } END { print n + 0 }' "$out/$tag.stat")
    dsps=$(cells SB_MAC16)

    echo "== $tag: netlist against RTL" >&2
    check=ok
    if ! yosys -q -p "read_verilog -Irtl $fpu_files; chparam $params fpu; synth_ice40 $dsp -top fpu;
                      rename fpu fpu_syn; write_verilog -noattr $out/$tag.netlist.v" \
          >"$out/$tag.netlist.log" 2>&1 \
        || ! iverilog -g2012 -DNO_ICE40_DEFAULT_ASSIGNMENTS -Irtl -o "$out/$tag.tb" -s fpu_netlist_tb \
          -P fpu_netlist_tb.MUL_ROWS=$rows_p -P fpu_netlist_tb.LATENCY=$lat \
          -P fpu_netlist_tb.MISC_LATENCY=$misc -P fpu_netlist_tb.CYCLES=$check_cycles \
          testbench/fpu/fpu_netlist_tb.v $fpu_files "$out/$tag.netlist.v" "$cells_sim" \
          >>"$out/$tag.netlist.log" 2>&1 \
        || ! vvp -n "$out/$tag.tb" >>"$out/$tag.netlist.log" 2>&1 \
        || ! grep -q "fpu_netlist_tb: PASS" "$out/$tag.netlist.log"; then
      check=FAILED
      status=1
      echo "fpu_fmax.sh: the netlist of $tag does not match the RTL, see $out/$tag.netlist.log" >&2
    fi

    for seed in $seeds; do
      echo "== $tag: nextpnr seed $seed" >&2
      log="$out/$tag.s$seed.pnr.log"
      if ! nextpnr-ice40 "${pnr[@]}" --json "$out/$tag.json" --freq "$goal" --seed "$seed" \
            --log "$log" >/dev/null 2>&1 \
          && ! grep -q "Max frequency for clock" "$log"; then
        echo "fpu_fmax.sh: nextpnr failed for $tag seed $seed, see $log" >&2
        status=1
        continue
      fi
      printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$dev" "$lat" "$misc" "$seed" "$luts" "$ffs" \
        "$dsps" "$check" "$goal" "$log" >>"$rows"
    done
  done
done

python3 - "$rows" >"$out/table.md" <<'PY'
# Reads rows.tsv and each nextpnr log: Fmax after routing, logic cells, critical path.
import re, statistics, sys

def parse(log):
    text = open(log).read()
    fmax = [float(m) for m in re.findall(r"Max frequency for clock '[^']*': ([0-9.]+) MHz", text)]
    lc = re.findall(r"ICESTORM_LC:\s+(\d+)/\s*(\d+)", text)
    # The last clock-to-clock report is the one after routing.
    blocks = re.split(r"Info: Critical path report for ", text)
    path = ""
    for b in blocks[1:]:
        if not b.startswith("clock"):
            continue
        cells = re.findall(r"(Source|Sink) (\S+)", b)
        lines = []  # the RTL lines the path passes, first occurrences, in order
        for f, l in re.findall(r"(rtl/fp_\w+\.v|rtl/fpu\.v):(\d+)\.", b):
            item = f"{f[4:]}:{l}"
            if f != "rtl/fp_stage.v" and item not in lines:
                lines.append(item)
        total = re.findall(r"Info:\s+[0-9.]+\s+([0-9.]+)\s+(?:Source|Net)", b)

        def short(c):
            c = c.rsplit(".", 1)[0] if c.endswith((".O", ".Q", ".I0", ".I1", ".I2", ".I3", ".CIN", ".COUT")) else c
            return re.split(r"_SB_|\$|_DFFLC|_LC\b", c)[0]

        if cells:
            path = "%s -> %s, %s ns (%s)" % (short(cells[0][1]), short(cells[-1][1]),
                                           total[-1] if total else "?", " ".join(lines[:12]))
    return (fmax[-1] if fmax else 0.0), (lc[-1][0] if lc else "?"), path

points = {}
for row in open(sys.argv[1]):
    dev, lat, misc, seed, luts, ffs, dsps, check, goal, log = row.rstrip("\n").split("\t")
    f, lc, path = parse(log)
    p = points.setdefault((dev, int(lat)), dict(misc=misc, luts=luts, ffs=ffs, dsps=dsps,
                                                check=check, goal=goal, runs=[]))
    p["runs"].append((f, lc, int(seed), path))

print("| device | LATENCY | MISC | Fmax MHz min / median / max (seeds) | goal | LUT4 | FF | DSP | logic cells | netlist = RTL | critical path (slowest seed) |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for (dev, lat), p in sorted(points.items()):
    fs = sorted(r[0] for r in p["runs"])
    worst = min(p["runs"])
    seeds = ",".join(str(r[2]) for r in sorted(p["runs"], key=lambda r: r[2]))
    print(f"| {dev} | {lat} | {p['misc']} | {fs[0]:.1f} / {statistics.median(fs):.1f} / {fs[-1]:.1f} ({seeds}) "
          f"| {p['goal']} | {p['luts']} | {p['ffs']} | {p['dsps']} | {worst[1]} | {p['check']} | {worst[3]} |")
PY
cat "$out/table.md"
exit $status
