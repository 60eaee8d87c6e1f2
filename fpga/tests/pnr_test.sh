#!/usr/bin/env bash
# pnr_test.sh UMBRA_CONFIG OUTDIR: the ctest `fpga_pnr` (label slow).  Runs the
# flow (fpga/build.sh: the UP5K's synthesis top, and the ECP5/Xilinx utilization of
# the same configuration) at one nextpnr seed, not the report's five-seed sweep, and
# checks what its user gets: a bitstream and a JSON report with the design's use, Fmax
# statistics, critical path, throughput and target checks.  One iCE40 design: the
# flow is the same for the HX8K's, whose synthesis and place-and-route were 8 of the
# test's 18 CPU-minutes; its board top's synth_ice40 netlist runs the board bench
# (fpga_board_netlist_sim_hx8k), and `fpga/build.sh` places both.  The UP5K's is the
# one kept since it uses the most of the flow (DSP and SPRAM mapping).  A
# missed target (build.sh status 3) is reported, not failed: Fmax and the fit margin
# are properties of the design, to read in the report; the test holds the flow to
# producing it.  So is a design that does not fit (build.sh status 1), but only when
# the report shows it needs more logic cells than the device has; any other failure
# fails the test.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
tool="$1"
out="$2"
rm -rf "$out"
rc=0
UMBRA_CONFIG_TOOL="$tool" UMBRA_FPGA_OUT="$out" "$root/fpga/build.sh" --seeds 1 --no-board \
  "$root/configs/ice40-up5k.yaml" || rc=$?
if [ $rc != 0 ] && [ $rc != 1 ] && [ $rc != 3 ]; then
  echo "pnr_test: build.sh failed with status $rc" >&2
  exit 1
fi
if [ ! -f "$out/report.json" ] || [ ! -s "$out/report.md" ]; then
  echo "pnr_test: build.sh (status $rc) wrote no report.json / report.md" >&2
  exit 1
fi
python3 - "$out" "$rc" <<'PY'
import json, os, sys
out, rc = sys.argv[1], int(sys.argv[2])
r = json.load(open(f"{out}/report.json"))
# The board tops are left out: placing them would more than double the test's time;
# the board sims run both, and fpga/build.sh places them by default.
designs = {"ice40-up5k": "ice40-up5k/ice40-up5k.bin"}
assert sorted(r["ice40"]) == sorted(designs), sorted(r["ice40"])
unfit = []
for n, binary in designs.items():
    e = r["ice40"][n]
    lc = e["resources"]["logic cells"]
    assert e["seeds"] == [1], (n, e["seeds"])
    assert e["tools"].get("yosys") and e["tools"].get("nextpnr"), (n, e["tools"])
    if e["place_and_route"] != "ok":
        # Not fitting is the design's, and the report must show it.
        assert lc["used"] > lc["available"] > 0, (n, e["place_and_route"], lc)
        unfit.append(f"{n} ({lc['used']} / {lc['available']} logic cells)")
        continue
    assert os.path.getsize(f"{out}/{binary}") > 0, binary
    assert 0 < lc["used"] <= lc["available"], (n, lc)
    assert e["fmax_mhz"]["min"] == e["fmax_mhz"]["median"] == e["fmax_mhz"]["max"] > 0, n
    assert e["throughput"]["minstr_per_s"] == e["fmax_mhz"]["median"], n
    assert e["critical_paths"] and e["critical_paths"][0]["delay_ns"] > 0, n
    assert e["target_mhz"] and "timing" in e["checks"], n
for f in ("ecp5", "xilinx"):
    assert r["yosys_only"][f]["resources"], f
# Status 1 only for designs that do not fit; 0 only when every target is met.
assert (rc == 1) == bool(unfit), (rc, unfit)
assert (rc == 0) == all(e["meets_targets"] for e in r["ice40"].values()), rc
if unfit:
    print("pnr_test: note: does not fit: " + ", ".join(unfit))
missed = [n for n, e in r["ice40"].items() if not e["meets_targets"]]
if missed:
    print("pnr_test: note: targets missed (see the report above): " + ", ".join(missed))
print("pnr_test: bitstreams and report complete")
PY
