#!/usr/bin/env python3
"""fpga/report.py: the report of fpga/build.sh: a table on stdout, JSON and Markdown.

For each placed design (iCE40 or ECP5; a configuration's synthesis top or its board
top) it reads
Yosys's `stat -json` (flip-flops and LUTs before packing), the flow's settings
(flow.txt: device, clock, target, seeds, tool versions) and, per nextpnr seed
(DIR/seed-N/), nextpnr's --report JSON (use against the device's totals, Fmax per
clock, critical paths).  Fmax is given over the seeds as min / median / max, with the
critical path of the median run (of an even number of seeds, the median is the mean
of the middle two and the path that of the lower), and the throughput it implies at
the barrel's peak issue rate of one instruction per cycle (every thread running):
M instructions/s = median Fmax, FP32 M operations/s = median Fmax (one FP32
instruction a cycle) and M flops/s = 2 x median Fmax (fmadd, a multiply and an add).
A design meets its targets (configs: fpga.target_mhz, fpga.board_target_mhz) when
every seed placed and its median Fmax reaches the target; a board top runs at its
board clock, so that clock must reach the target, the median Fmax that clock, and
BOARD_MIN_FREE_PCT of its logic cells must be free (an ECP5's "logic cells" are its
LUT4 slots, nextpnr's TRELLIS_COMB).  The Yosys-only utilization of a design that is
not placed (--other: ECP5 and Xilinx 7-series) has the datasheet totals of one named
part, given below.

  report.py [--ice40 NAME=DIR...] [--ecp5 NAME=DIR...] [--other FAMILY=STAT.json...]
            --json OUT [--markdown OUT]
  report.py --best-seed DIR   (prints the seed with the highest Fmax; fpga/build.sh
                               packs its placement)

Exit status 3 when a design missed a target or did not place (the report is still
written), 1 on unreadable input.  Standard library only, so the flow needs no Python
packages.
"""
import argparse
import json
import os
import re
import statistics
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


# The issue's fit margin for board tops: a design that fills the device leaves no room
# for the next change and places erratically.
BOARD_MIN_FREE_PCT = 10.0

# Peak issue rate of the barrel: one instruction a cycle while every thread runs.
ISSUE_PER_CYCLE = 1
# fmadd does two floating-point operations (a multiply and an add) in one instruction.
FLOPS_PER_FMADD = 2


# Each family's resources as the report names them: (name, nextpnr's utilization key).
# "logic cells" and "flip-flops" come first in both; the flip-flops of an iCE40 design
# are Yosys's SB_DFF* cells, since nextpnr counts logic cells with or without one.
FAMILIES = {
    "ice40": {"label": "iCE40", "synth": "synth_ice40", "resources": [
        ("logic cells", "ICESTORM_LC"), ("flip-flops", None), ("BRAM (4 Kbit)", "ICESTORM_RAM"),
        ("SPRAM (256 Kbit)", "ICESTORM_SPRAM"), ("DSP (SB_MAC16)", "ICESTORM_DSP"), ("I/O", "SB_IO")]},
    "ecp5": {"label": "ECP5", "synth": "synth_ecp5", "resources": [
        ("logic cells", "TRELLIS_COMB"), ("flip-flops", "TRELLIS_FF"), ("EBR (DP16KD)", "DP16KD"),
        ("DSP (MULT18X18D)", "MULT18X18D"), ("I/O", "TRELLIS_IO")]},
}

# Device totals, used only when place-and-route failed and wrote no report of its own
# (nextpnr's report carries the device's totals otherwise).  Datasheet figures.
DEVICE_TOTALS = {
    "up5k": {"ICESTORM_LC": 5280, "ICESTORM_RAM": 30, "ICESTORM_SPRAM": 4, "ICESTORM_DSP": 8},
    "hx8k": {"ICESTORM_LC": 7680, "ICESTORM_RAM": 32, "ICESTORM_SPRAM": 0, "ICESTORM_DSP": 0},
    "lfe5u-25f": {"TRELLIS_COMB": 24288, "TRELLIS_FF": 24288, "DP16KD": 56, "MULT18X18D": 28},
    "lfe5u-45f": {"TRELLIS_COMB": 43848, "TRELLIS_FF": 43848, "DP16KD": 108, "MULT18X18D": 72},
    "lfe5u-85f": {"TRELLIS_COMB": 83640, "TRELLIS_FF": 83640, "DP16KD": 208, "MULT18X18D": 156},
}


def failed_pnr_utilization(d, family, device, cells):
    """What the design needed, from nextpnr's log and Yosys's cells, when nextpnr
    stopped before writing its report (a design that does not fit)."""
    totals = DEVICE_TOTALS.get(device, {})
    if family == "ecp5":
        # nextpnr's device utilization after packing ("TRELLIS_COMB: N/ M"), printed
        # before placement, is the count: it holds the LUT4 slots of the distributed
        # RAMs and of the wide multiplexers too, which Yosys's cells leave out (an
        # eight-core ULX3S board packed into 82,034 slots where LUT4 + 2 CCU2C said
        # 75,450).  Without it (nextpnr stopped earlier), Yosys's cells: a CCU2C is two
        # LUT4 slots.  The log's first ERROR says why it stopped.
        used = {"TRELLIS_COMB": count(cells, "LUT4") + 2 * count(cells, "CCU2C"),
                "TRELLIS_FF": count(cells, "TRELLIS_FF"), "DP16KD": count(cells, "DP16KD"),
                "MULT18X18D": count(cells, "MULT18X18D")}
        try:
            with open(f"{d}/nextpnr.log") as f:
                for line in f:
                    m = re.search(r"Info:\s+(TRELLIS_COMB|TRELLIS_FF|DP16KD|MULT18X18D):\s+(\d+)/", line)
                    if m:
                        used[m.group(1)] = int(m.group(2))
        except OSError:
            pass
        util = {k: {"used": used[k], "available": totals.get(k, 0)} for k in used}
        return util, pnr_error(d, family)
    # The device utilization nextpnr prints after packing ("ICESTORM_LC: N/ M") is
    # the count; else the placer names the LC count it could not fit when it gives up
    # on a region; else the packer's "N LCs used as ..." lines add up to about it.
    device_lcs, placer_lcs, packed_lcs, error = 0, 0, 0, "nextpnr-ice40 failed"
    try:
        with open(f"{d}/nextpnr.log") as f:
            for line in f:
                m = re.search(r"ICESTORM_LC:\s+(\d+)/", line)
                if m:
                    device_lcs = int(m.group(1))
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
    lcs = device_lcs or placer_lcs or packed_lcs
    used = {"ICESTORM_LC": lcs, "ICESTORM_RAM": count(cells, "SB_RAM40_4K"),
            "ICESTORM_SPRAM": count(cells, "SB_SPRAM256KA"), "ICESTORM_DSP": count(cells, "SB_MAC16")}
    util = {k: {"used": used[k], "available": totals.get(k, 0)} for k in used}
    return util, error


def read_flow(d):
    flow = {}
    try:
        with open(f"{d}/flow.txt") as f:
            for line in f:
                k, _, v = line.rstrip("\n").partition("=")
                flow[k] = v
    except OSError:
        pass
    return flow


def seed_runs(d):
    """{seed: DIR/seed-N} for the seed directories place-and-route left in DIR."""
    runs = {}
    try:
        names = os.listdir(d)
    except OSError as e:
        sys.exit(f"report.py: error: cannot read '{d}': {e.strerror}")
    for n in names:
        m = re.fullmatch(r"seed-(\d+)", n)
        if m and os.path.isdir(f"{d}/{n}"):
            runs[int(m.group(1))] = f"{d}/{n}"
    return dict(sorted(runs.items()))


def run_fmax(pnr):
    """A placed run's Fmax: its slowest clock's (the design runs at that)."""
    f = [c.get("achieved", 0.0) for c in pnr.get("fmax", {}).values()]
    return min(f) if f else None


def placed_runs(d, family="ice40"):
    """{seed: nextpnr report} for the seeds that placed, {seed: error} for the rest."""
    placed, failed = {}, {}
    for seed, sd in seed_runs(d).items():
        try:
            with open(f"{sd}/status") as f:
                rc = f.read().strip()
        except OSError:
            rc = "?"
        if rc == "0" and os.path.exists(f"{sd}/nextpnr.json"):
            pnr = load_json(f"{sd}/nextpnr.json", "nextpnr report")
            if run_fmax(pnr) is not None:
                placed[seed] = pnr
                continue
        failed[seed] = pnr_error(sd, family)
    return placed, failed


def pnr_error(sd, family):
    try:
        with open(f"{sd}/nextpnr.log") as f:
            for line in f:
                if line.startswith("ERROR:"):
                    return line[len("ERROR:"):].strip()
    except OSError:
        pass
    return f"nextpnr-{family} failed"


def fmax_stats(fmax_by_seed):
    """min / median / max of {seed: Fmax}, and the seed whose run is the median's
    (the lower middle one of an even count)."""
    order = sorted(fmax_by_seed, key=lambda s: (fmax_by_seed[s], s))
    values = [fmax_by_seed[s] for s in order]
    return {
        "min": round(values[0], 2),
        "median": round(statistics.median(values), 2),
        "max": round(values[-1], 2),
        "median_seed": order[(len(order) - 1) // 2],
    }


def best_seed(d):
    placed, _ = placed_runs(d)
    if not placed:
        return None
    return max(placed, key=lambda s: (run_fmax(placed[s]), -s))


def critical_paths(pnr):
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
    return paths


def to_number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return 0.0


def placed_entry(name, d, family):
    cells = yosys_cells(load_json(f"{d}/stat.json", "yosys statistics"))
    flow = read_flow(d)
    placed, failed = placed_runs(d, family)
    if placed:
        stats = fmax_stats({s: run_fmax(p) for s, p in placed.items()})
        pnr = placed[stats["median_seed"]]
        util = pnr.get("utilization", {})
        error = None
    else:
        stats, pnr = None, {}
        # What the design needed, from the first failed seed's log.
        first = next(iter(seed_runs(d).values()), d)
        util, error = failed_pnr_utilization(first, family, flow.get("fpga.device", ""), cells)

    def use(key):
        u = util.get(key, {})
        return {"used": u.get("used", 0), "available": u.get("available", 0)}

    resources = {res: use(key) for res, key in FAMILIES[family]["resources"] if key}
    lc = resources["logic cells"]
    if family == "ice40":
        resources["flip-flops"] = {"used": count(cells, "SB_DFF"), "available": lc["available"]}
        resources = {res: resources[res] for res, _ in FAMILIES[family]["resources"]}
    if error is not None:
        del resources["I/O"]  # nextpnr adds the SB_IO cells; nothing counted them
    free_pct = round(100.0 * (1 - lc["used"] / lc["available"]), 1) if lc["available"] else None
    clocks = {}
    for clk, f in pnr.get("fmax", {}).items():
        clocks[clk] = {
            "fmax_mhz": round(f.get("achieved", 0.0), 2),
            "constraint_mhz": round(f.get("constraint", 0.0), 2),
        }

    board = flow.get("board") == "1"
    clock = to_number(flow.get("fpga.clock_mhz"))
    target = to_number(flow.get("target_mhz"))
    checks = {"placed": {"ok": not failed,
                         "what": f"{len(placed)} of {len(placed) + len(failed)} seeds placed"}}
    if target:
        median = stats["median"] if stats else 0.0
        if board:
            checks["board clock"] = {"ok": clock >= target,
                                     "what": f"board clock {clock:g} MHz >= target {target:g} MHz"}
            checks["timing"] = {"ok": median >= clock,
                                "what": f"median Fmax {median:.2f} MHz >= board clock {clock:g} MHz"}
            checks["fit margin"] = {"ok": free_pct is not None and free_pct >= BOARD_MIN_FREE_PCT,
                                    "what": f"{free_pct if free_pct is not None else '?'}% logic cells free "
                                            f">= {BOARD_MIN_FREE_PCT:g}%"}
        else:
            checks["timing"] = {"ok": median >= target,
                                "what": f"median Fmax {median:.2f} MHz >= target {target:g} MHz"}
    throughput = None
    if stats:
        m = stats["median"]
        throughput = {
            "issue_per_cycle": ISSUE_PER_CYCLE,
            "minstr_per_s": round(m * ISSUE_PER_CYCLE, 2),
            "fp32_mops_per_s": round(m * ISSUE_PER_CYCLE, 2),
            "fp32_mflops_per_s_fmadd": round(m * ISSUE_PER_CYCLE * FLOPS_PER_FMADD, 2),
        }
    return {
        "config": flow.get("config", ""),
        "top": flow.get("top", "synth_top"),
        "board_top": board,
        "device": flow.get("fpga.device", ""),
        "package": flow.get("fpga.package", ""),
        # The configuration's extension groups (core.groups), by name: what the core
        # implements, and so what the figures are of.
        "groups": [g.strip() for g in flow.get("core.groups", "").split(",") if g.strip()],
        "clock_mhz": clock,
        "target_mhz": target or None,
        "family": family,
        "yosys": FAMILIES[family]["synth"] + flow.get("synth_opts", ""),
        "tools": {k[len("tools."):]: v for k, v in flow.items() if k.startswith("tools.")},
        "seeds": sorted(list(placed) + list(failed)),
        "fmax_by_seed": {str(s): round(run_fmax(p), 2) for s, p in sorted(placed.items())},
        "failed_seeds": {str(s): e for s, e in sorted(failed.items())},
        "fmax_mhz": {k: v for k, v in stats.items() if k != "median_seed"} if stats else None,
        "median_seed": stats["median_seed"] if stats else None,
        "bitstream_seed": best_seed(d),
        "resources": resources,
        "logic_cells_free_pct": free_pct,
        "yosys_cells": ({"SB_LUT4": count(cells, "SB_LUT4"), "SB_CARRY": count(cells, "SB_CARRY")}
                        if family == "ice40" else
                        {"LUT4": count(cells, "LUT4"), "CCU2C": count(cells, "CCU2C"),
                         "TRELLIS_DPR16X4": count(cells, "TRELLIS_DPR16X4")}),
        "clocks": clocks,
        "critical_paths": critical_paths(pnr),
        "throughput": throughput,
        "place_and_route": "ok" if error is None else "failed: " + error,
        "checks": checks,
        "meets_targets": all(c["ok"] for c in checks.values()),
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


def mhz(e, key):
    return f"{e['fmax_mhz'][key]:.2f}" if e["fmax_mhz"] else "-"


def print_placed(name, e):
    kind = "board top" if e["board_top"] else "synthesis top"
    label = FAMILIES[e["family"]]["label"]
    print(f"\n{name}: {e['top']} ({kind}) on {label} {e['device'].upper()} {e['package']}, {e['yosys']}")
    print(f"  {'groups':18s} {', '.join(e['groups']) or '-'}")
    for tool, v in e["tools"].items():
        print(f"  {tool:18s} {v}")
    if e["place_and_route"] != "ok":
        print(f"  PLACE-AND-ROUTE {e['place_and_route']}")
        print("  (logic cells: nextpnr's packed count; no timing without placement)")
    for res, u in e["resources"].items():
        print(f"  {res:18s} {u['used']:>6} / {u['available']:<6} {pct(u)}")
    if e["logic_cells_free_pct"] is not None:
        print(f"  {'fit margin':18s} {e['logic_cells_free_pct']:.1f}% of logic cells free")
    seeds = ", ".join(f"{s}: {f:.2f}" for s, f in e["fmax_by_seed"].items())
    seeds += "".join(f", {s}: failed" for s in e["failed_seeds"])
    print(f"  Fmax (MHz, seed: Fmax) {seeds}")
    if e["fmax_mhz"]:
        target = f", target {e['target_mhz']:g}" if e["target_mhz"] else ""
        print(f"  Fmax min / median / max  {mhz(e, 'min')} / {mhz(e, 'median')} / {mhz(e, 'max')} MHz "
              f"(at {e['clock_mhz']:g} MHz{target}; median: seed {e['median_seed']}, "
              f"bitstream: seed {e['bitstream_seed']})")
        t = e["throughput"]
        print(f"  throughput         {t['minstr_per_s']:.1f} M instructions/s, {t['fp32_mops_per_s']:.1f} M FP32 "
              f"operations/s ({t['fp32_mflops_per_s_fmadd']:.1f} M flops/s with fmadd as two)")
    for clk, c in e["clocks"].items():
        print(f"  clock {clk}: {c['fmax_mhz']:.2f} MHz (constraint {c['constraint_mhz']:g} MHz)")
    for p in e["critical_paths"]:
        print(f"  critical path {p['from_clock']} -> {p['to_clock']}: {p['delay_ns']:.2f} ns "
              f"({p['logic_ns']:.2f} logic + {p['routing_ns']:.2f} routing, {p['cells']} cells)")
        print(f"    from {p['start']}")
        print(f"    to   {p['end']}")
    for what, c in e["checks"].items():
        print(f"  {'ok    ' if c['ok'] else 'MISSED'} {what}: {c['what']}")


def short_name(cell):
    """A netlist cell name cut back to its RTL hierarchy for the docs' table: Yosys
    and nextpnr append the mapped cells' names (`_SB_LUT4_O...`, `$func$file:line`)."""
    keep = []
    for part in cell.rsplit(".", 1)[0].split("."):  # without the port
        cut = re.split(r"\$|_SB_|_DFFLC|_LC$|_DSP$", part, maxsplit=1)
        if cut[0]:
            keep.append(cut[0])
        if len(cut) > 1:
            break
    return ".".join(keep)


def markdown(report):
    """The docs' tables: one row per placed design (a table per family), then the
    Yosys-only cell counts."""
    def frac(u):
        if not u["available"]:
            return "-"
        return f"{u['used']} / {u['available']}"

    lines = []
    for family in FAMILIES:
        entries = report.get(family, {})
        if not entries:
            continue
        # The family's memory and multiplier columns: every resource but the logic
        # cells, the flip-flops and the I/O.
        extra = [res for res, _ in FAMILIES[family]["resources"]
                 if res not in ("logic cells", "flip-flops", "I/O")]
        short = [res.split(" (")[0] if family == "ice40" else res for res in extra]
        if lines:
            lines.append("")
        lines += ["| design | logic cells | free | FF | " + " | ".join(short) + " | Fmax min / median / max (MHz) "
                  "| target | M instr/s | FP32 Mop/s (fmadd x2) | critical path (median seed) | meets |",
                  "|---|---|---|---|" + "---|" * len(extra) + "---|---|---|---|---|---|"]
        for name, e in entries.items():
            r = e["resources"]
            lc = r["logic cells"]
            free = f"{e['logic_cells_free_pct']:.1f}%" if e["logic_cells_free_pct"] is not None else "-"
            if e["fmax_mhz"]:
                fmax = f"{mhz(e, 'min')} / **{mhz(e, 'median')}** / {mhz(e, 'max')}"
                t = e["throughput"]
                mips = f"{t['minstr_per_s']:.1f}"
                flops = f"{t['fp32_mops_per_s']:.1f} ({t['fp32_mflops_per_s_fmadd']:.1f})"
            else:
                fmax, mips, flops = "not placed", "-", "-"
            if e["board_top"]:
                target = f"≥ {e['target_mhz']:g} at {e['clock_mhz']:g} MHz" if e["target_mhz"] else "-"
            else:
                target = f"≥ {e['target_mhz']:g}" if e["target_mhz"] else "-"
            paths = e["critical_paths"]
            if paths:
                p = max(paths, key=lambda p: p["delay_ns"])
                path = (f"{p['delay_ns']:.1f} ns ({p['logic_ns']:.1f} logic, {p['cells']} cells): "
                        f"`{short_name(p['start'])}` → `{short_name(p['end'])}`")
            else:
                path = "-"
            missed = [k for k, c in e["checks"].items() if not c["ok"]]
            meets = "yes" if not missed else "no: " + ", ".join(missed)
            cols = " | ".join(frac(r[res]) for res in extra)
            lines.append(f"| {name} ({e['top']}; {', '.join(e['groups']) or '-'}) | {frac(lc)} | {free} "
                         f"| {r['flip-flops']['used']} "
                         f"| {cols} | {fmax} | {target} | {mips} | {flops} | {path} | {meets} |")
    placed = [e for family in FAMILIES for e in report.get(family, {}).values()]
    tools = {}
    for e in placed:
        for k, v in e["tools"].items():
            tools.setdefault(k, set()).add(v)
    seeds = sorted({tuple(e["seeds"]) for e in placed})
    lines.append("")
    lines.append("Tools: " + "; ".join(f"{k} {', '.join(sorted(v))}" for k, v in tools.items()) + ".  "
                 + "nextpnr seeds: " + "; ".join(", ".join(map(str, s)) for s in seeds) + ".")
    if report["yosys_only"]:
        lines += ["", "| Yosys only | part | " + " | ".join(["LUT", "FF", "block RAM", "multipliers"]) + " |",
                  "|---|---|---|---|---|---|"]
        for fam, e in report["yosys_only"].items():
            cols = " | ".join(f"{u['used']:g} / {u['available']}" for u in e["resources"].values())
            lines.append(f"| {fam} | {e['part']} | {cols} |")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ice40", action="append", default=[], metavar="NAME=DIR")
    ap.add_argument("--ecp5", action="append", default=[], metavar="NAME=DIR")
    ap.add_argument("--other", action="append", default=[], metavar="FAMILY=STAT.json")
    ap.add_argument("--json")
    ap.add_argument("--markdown")
    ap.add_argument("--best-seed", metavar="DIR")
    a = ap.parse_args()
    if a.best_seed:
        seed = best_seed(a.best_seed)
        if seed is None:
            print(f"report.py: no seed placed in '{a.best_seed}'", file=sys.stderr)
            return 1
        print(seed)
        return 0
    if not a.json:
        ap.error("--json is required")

    report = {"ice40": {}, "ecp5": {}, "yosys_only": {}}
    for family in FAMILIES:
        for item in getattr(a, family):
            name, _, d = item.partition("=")
            report[family][name] = placed_entry(name, d, family)
    for item in a.other:
        fam, _, p = item.partition("=")
        if fam not in OTHER_PARTS:
            sys.exit(f"report.py: error: unknown family '{fam}' (ecp5, xilinx)")
        report["yosys_only"][fam] = other_entry(fam, p)

    placed = {name: e for family in FAMILIES for name, e in report[family].items()}
    for name, e in placed.items():
        print_placed(name, e)
    for fam, e in report["yosys_only"].items():
        print(f"\n{fam}: {e['part']}, {e['source']}")
        for res, u in e["resources"].items():
            print(f"  {res:18s} {u['used']:>6g} / {u['available']:<6} {pct(u)}")
        print("  " + ", ".join(f"{k} {v:g}" for k, v in e["other_cells"].items()))

    outputs = [(a.json, json.dumps(report, indent=2) + "\n")]
    if a.markdown:
        outputs.append((a.markdown, markdown(report)))
    for path, text in outputs:
        try:
            with open(path, "w") as f:
                f.write(text)
        except OSError as e:
            sys.exit(f"report.py: error: cannot write '{path}': {e.strerror}")
    return 0 if all(e["meets_targets"] for e in placed.values()) else 3


if __name__ == "__main__":
    sys.exit(main())
