#!/usr/bin/env python3
"""fpga/report.py: the report of fpga/build.sh, printed as a table and written as JSON.

For each iCE40 build it reads nextpnr's --report JSON (use against the device's
totals, Fmax per clock, critical paths) and Yosys's `stat -json` (flip-flops and LUTs
before packing); for ECP5 and Xilinx 7-series only the Yosys statistics exist, so
their totals are the datasheet figures of one named part, given below.

  report.py --ice40 NAME=DIR... [--other FAMILY=STAT.json...] --json OUT

Exit status 3 when a clock missed its target (the report is still written), 1 on
unreadable input.  Standard library only, so the flow needs no Python packages.
"""
import argparse
import json
import re
import sys

# Parts whose Yosys-only utilization is reported: the smallest common part of each
# family that holds the UP5K configuration (its 128 KiB data memory needs ~70 EBRs on
# ECP5, ~35 RAMB36 on Artix-7).  Datasheet totals.
OTHER_PARTS = {
    "ecp5": {
        "part": "LFE5U-45F",
        "totals": {"LUT4": 43848, "FF": 43848, "EBR (DP16KD)": 108, "MULT18X18D": 72},
    },
    "xilinx": {
        "part": "XC7A35T (Artix-7)",
        "totals": {"LUT": 20800, "FF": 41600, "RAMB36 (equiv.)": 50, "DSP48E1": 90},
    },
}


def load_json(path, what):
    try:
        with open(path) as f:
            text = f.read()
    except OSError as e:
        sys.exit(f"report.py: error: cannot read {what} '{path}': {e.strerror}")
    # `tee -o` of `stat -json` may put log lines before and after the JSON object.
    start = max(text.find("{"), 0)
    try:
        return json.JSONDecoder().raw_decode(text[start:])[0]
    except json.JSONDecodeError as e:
        sys.exit(f"report.py: error: {what} '{path}' is not JSON: {e}")


def yosys_cells(stat):
    design = stat.get("design") or {}
    cells = design.get("num_cells_by_type")
    if cells is None:  # one module only: take it
        mods = stat.get("modules", {})
        cells = next(iter(mods.values()), {}).get("num_cells_by_type", {})
    return cells


def count(cells, *prefixes):
    return sum(n for c, n in cells.items() if any(c.startswith(p) for p in prefixes))


def endpoint(p):
    # nextpnr names a path end by cell and port; the cell name carries the RTL
    # hierarchy (u_core.u_execute...), which is what a reader wants to see.
    return f"{p.get('cell', '?')}.{p.get('port', '?')}" if isinstance(p, dict) else str(p)


# iCE40 totals, used only when place-and-route failed and wrote no report of its own
# (nextpnr's report carries the device's totals otherwise).  Datasheet figures.
ICE40_TOTALS = {
    "up5k": {"ICESTORM_LC": 5280, "ICESTORM_RAM": 30, "ICESTORM_SPRAM": 4, "ICESTORM_DSP": 8},
    "hx8k": {"ICESTORM_LC": 7680, "ICESTORM_RAM": 32, "ICESTORM_SPRAM": 0, "ICESTORM_DSP": 0},
}


def failed_pnr_utilization(d, device, cells):
    """What the design needed, from nextpnr's log and Yosys's cells, when nextpnr
    stopped before writing its report (a design that does not fit)."""
    totals = ICE40_TOTALS.get(device, {})
    # The placer names the LC count it could not fit when it gives up on a region;
    # otherwise the packer's "N LCs used as ..." lines add up to it.
    placer_lcs, packed_lcs, error = 0, 0, "nextpnr-ice40 failed"
    try:
        with open(f"{d}/nextpnr.log") as f:
            for line in f:
                m = re.search(r"of (\d+) ICESTORM_LCs", line)
                if m:
                    placer_lcs = int(m.group(1))
                m = re.search(r"Info:\s+(\d+) LCs used (as|to legalise)", line)
                if m:
                    packed_lcs += int(m.group(1))
                if line.startswith("ERROR:"):
                    error = line[len("ERROR:"):].strip()
    except OSError:
        pass
    lcs = placer_lcs or packed_lcs
    used = {"ICESTORM_LC": lcs, "ICESTORM_RAM": count(cells, "SB_RAM40_4K"),
            "ICESTORM_SPRAM": count(cells, "SB_SPRAM256KA"), "ICESTORM_DSP": count(cells, "SB_MAC16")}
    util = {k: {"used": used[k], "available": totals.get(k, 0)} for k in used}
    return util, error


def ice40_entry(name, d):
    cells = yosys_cells(load_json(f"{d}/stat.json", "yosys statistics"))
    flow = {}
    try:
        with open(f"{d}/flow.txt") as f:
            for line in f:
                k, _, v = line.rstrip("\n").partition("=")
                flow[k] = v
    except OSError:
        pass
    pnr_error = None
    try:
        open(f"{d}/nextpnr.json").close()
        pnr = load_json(f"{d}/nextpnr.json", "nextpnr report")
        util = pnr.get("utilization", {})
    except OSError:
        pnr = {}
        util, pnr_error = failed_pnr_utilization(d, flow.get("fpga.device", ""), cells)

    def use(key):
        u = util.get(key, {})
        return {"used": u.get("used", 0), "available": u.get("available", 0)}

    lc = use("ICESTORM_LC")
    resources = {
        "logic cells": lc,
        "flip-flops": {"used": count(cells, "SB_DFF"), "available": lc["available"]},
        "BRAM (4 Kbit)": use("ICESTORM_RAM"),
        "SPRAM (256 Kbit)": use("ICESTORM_SPRAM"),
        "DSP (SB_MAC16)": use("ICESTORM_DSP"),
        "I/O": use("SB_IO"),
    }
    if pnr_error is not None:
        del resources["I/O"]  # nextpnr adds the SB_IO cells; nothing counted them
    clocks = {}
    for clk, f in pnr.get("fmax", {}).items():
        clocks[clk] = {
            "fmax_mhz": round(f.get("achieved", 0.0), 2),
            "target_mhz": round(f.get("constraint", 0.0), 2),
            "met": f.get("achieved", 0.0) >= f.get("constraint", 0.0),
        }
    paths = []
    for cp in pnr.get("critical_paths", []):
        steps = cp.get("path", [])
        if not steps:
            continue
        delay = sum(s.get("delay", 0.0) for s in steps)
        logic = sum(s.get("delay", 0.0) for s in steps if s.get("type") != "routing")
        # nextpnr 0.4 names a clk-to-q step's source cell in its "to" field, and the
        # end's setup step has no port; the routing steps around them carry both.
        routes = [s for s in steps if s.get("type") == "routing"]
        start = routes[0].get("from") if routes else steps[0].get("from")
        end = routes[-1].get("to") if routes else steps[-1].get("to")
        paths.append({
            "from_clock": cp.get("from", ""),
            "to_clock": cp.get("to", ""),
            "start": endpoint(start),
            "end": endpoint(end),
            "delay_ns": round(delay, 2),
            "logic_ns": round(logic, 2),
            "routing_ns": round(delay - logic, 2),
            "cells": len({endpoint(s.get("to")).rsplit(".", 1)[0] for s in steps}),
        })
    return {
        "config": flow.get("config", ""),
        "top": flow.get("top", "synth_top"),
        "device": flow.get("fpga.device", ""),
        "package": flow.get("fpga.package", ""),
        "yosys": "synth_ice40" + flow.get("synth_opts", ""),
        "nextpnr_seed": flow.get("seed", ""),
        "resources": resources,
        "yosys_cells": {"SB_LUT4": count(cells, "SB_LUT4"), "SB_CARRY": count(cells, "SB_CARRY")},
        "clocks": clocks,
        "critical_paths": paths,
        "place_and_route": "ok" if pnr_error is None else "failed: " + pnr_error,
    }


def other_entry(fam, path):
    cells = yosys_cells(load_json(path, "yosys statistics"))
    part = OTHER_PARTS[fam]
    if fam == "ecp5":
        # CCU2C is a carry cell holding two LUT4s; TRELLIS_DPR16X4 is LUT RAM.
        used = {
            "LUT4": count(cells, "LUT4") + 2 * count(cells, "CCU2C"),
            "FF": count(cells, "TRELLIS_FF"),
            "EBR (DP16KD)": count(cells, "DP16KD"),
            "MULT18X18D": count(cells, "MULT18X18D"),
        }
        extra = {"LUT RAM (TRELLIS_DPR16X4)": count(cells, "TRELLIS_DPR16X4"),
                 "CCU2C": count(cells, "CCU2C")}
    else:
        ramb = count(cells, "RAMB36") + count(cells, "RAMB18") / 2
        used = {
            "LUT": count(cells, "LUT", "INV"),  # an INV is a LUT1 after placement
            "FF": count(cells, "FD"),
            "RAMB36 (equiv.)": ramb,
            "DSP48E1": count(cells, "DSP48"),
        }
        extra = {"LUT RAM (RAM32M/RAM64M/RAM*X1D)": count(cells, "RAM32", "RAM64", "RAM128", "RAM256"),
                 "CARRY4": count(cells, "CARRY4"), "SRL": count(cells, "SRL")}
    return {
        "part": part["part"],
        "source": "yosys only (no place-and-route)",
        "resources": {k: {"used": used[k], "available": part["totals"][k]} for k in used},
        "other_cells": extra,
    }


def pct(u):
    return f"{100.0 * u['used'] / u['available']:5.1f}%" if u["available"] else "   - "


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ice40", action="append", default=[], metavar="NAME=DIR")
    ap.add_argument("--other", action="append", default=[], metavar="FAMILY=STAT.json")
    ap.add_argument("--json", required=True)
    a = ap.parse_args()

    report = {"ice40": {}, "yosys_only": {}}
    for item in a.ice40:
        name, _, d = item.partition("=")
        report["ice40"][name] = ice40_entry(name, d)
    for item in a.other:
        fam, _, p = item.partition("=")
        if fam not in OTHER_PARTS:
            sys.exit(f"report.py: error: unknown family '{fam}' (ecp5, xilinx)")
        report["yosys_only"][fam] = other_entry(fam, p)

    missed = False
    for name, e in report["ice40"].items():
        print(f"\n{name}: {e['top']} on iCE40 {e['device'].upper()} {e['package']}  ({e['yosys']}, nextpnr-ice40 seed {e['nextpnr_seed']})")
        if e["place_and_route"] != "ok":
            missed = True
            print(f"  PLACE-AND-ROUTE {e['place_and_route']}")
            print("  (logic cells: nextpnr's packed count; no timing without placement)")
        for res, u in e["resources"].items():
            print(f"  {res:18s} {u['used']:>6} / {u['available']:<6} {pct(u)}")
        for clk, c in e["clocks"].items():
            verdict = "met" if c["met"] else "MISSED"
            missed |= not c["met"]
            print(f"  Fmax {clk}: {c['fmax_mhz']:.2f} MHz (target {c['target_mhz']:.0f} MHz, {verdict})")
        for p in e["critical_paths"]:
            print(f"  critical path {p['from_clock']} -> {p['to_clock']}: {p['delay_ns']:.2f} ns "
                  f"({p['logic_ns']:.2f} logic + {p['routing_ns']:.2f} routing, {p['cells']} cells)")
            print(f"    from {p['start']}")
            print(f"    to   {p['end']}")
    for fam, e in report["yosys_only"].items():
        print(f"\n{fam}: {e['part']}, {e['source']}")
        for res, u in e["resources"].items():
            print(f"  {res:18s} {u['used']:>6g} / {u['available']:<6} {pct(u)}")
        print("  " + ", ".join(f"{k} {v:g}" for k, v in e["other_cells"].items()))

    try:
        with open(a.json, "w") as f:
            json.dump(report, f, indent=2)
            f.write("\n")
    except OSError as e:
        sys.exit(f"report.py: error: cannot write '{a.json}': {e.strerror}")
    return 3 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
