#!/usr/bin/env python3
"""fpga/logic_depth.py: the deepest register-to-register logic paths of a synthesized
iCE40 netlist (Yosys `synth_ice40 -json`), before place-and-route.

When a design does not fit, nextpnr stops before timing analysis, so this is the
only view of what will limit Fmax: the paths with the most LUT levels, named by the
cells (RTL hierarchy) at their start and end.  Weights are levels, not nanoseconds:
a LUT4 is 1, a carry cell 0.15 (the dedicated chain is several times faster than a
LUT plus its routing), an SB_MAC16 whose output is not registered inside the DSP 4
(its multiplier is slow).  Flip-flops, RAMs, SPRAMs and registered DSP outputs start
and end paths; so do the top's ports.

  logic_depth.py NETLIST.json [--top N] [--verbose]
"""
import argparse
import json
import re
import sys

WEIGHT = {"SB_LUT4": 1.0, "SB_CARRY": 0.15}
MAC_COMB_WEIGHT = 4.0


def mac_registered(cell):
    # TOPOUTPUT_SELECT/BOTOUTPUT_SELECT 1 = the accumulator register; 0 and 3 are
    # combinational (adder, multiplier) outputs.
    p = cell.get("parameters", {})
    sel = [p.get("TOPOUTPUT_SELECT", "0"), p.get("BOTOUTPUT_SELECT", "0")]
    return all(int(str(s), 2) == 1 for s in sel)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("netlist")
    ap.add_argument("--top", type=int, default=5, help="paths to print (distinct start/end registers)")
    ap.add_argument("--verbose", action="store_true", help="list every cell on each path")
    a = ap.parse_args()
    try:
        with open(a.netlist) as f:
            design = json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        sys.exit(f"logic_depth.py: error: cannot read netlist '{a.netlist}': {e}")
    tops = [m for m, v in design["modules"].items() if v.get("attributes", {}).get("top")]
    if not tops:
        sys.exit("logic_depth.py: error: the netlist has no top module")
    mod = design["modules"][tops[0]]

    driver = {}  # bit -> (cell name, weight, input bits) for combinational drivers
    sinks = []   # (cell name, input bits) at path ends
    for name, c in mod["cells"].items():
        t = c["type"]
        dirs = c.get("port_directions", {})
        conn = c.get("connections", {})
        ins = [b for p, bits in conn.items() if dirs.get(p) == "input" for b in bits if isinstance(b, int)]
        outs = [b for p, bits in conn.items() if dirs.get(p) == "output" for b in bits if isinstance(b, int)]
        if t in WEIGHT or (t == "SB_MAC16" and not mac_registered(c)):
            w = WEIGHT.get(t, MAC_COMB_WEIGHT)
            for b in outs:
                driver[b] = (name, w, ins)
        else:
            # A clocked cell: its data inputs end paths (the clock bit is harmless: the
            # clock net has no combinational driver).
            sinks.append((name, ins))
    source_cell = {}  # bit -> the clocked cell whose output it is
    for name, c in mod["cells"].items():
        if c["type"] in WEIGHT:
            continue
        dirs = c.get("port_directions", {})
        for p, bits in c.get("connections", {}).items():
            if dirs.get(p) == "output":
                for b in bits:
                    if isinstance(b, int) and b not in driver:
                        source_cell[b] = f"{name} ({c['type']}.{p})"
    for pname, p in mod.get("ports", {}).items():
        if p["direction"] == "output":
            sinks.append((f"<port {pname}>", [b for b in p["bits"] if isinstance(b, int)]))

    arrival = {}
    via = {}
    sys.setrecursionlimit(1000000)

    def arrive(bit):
        if bit in arrival:
            return arrival[bit]
        d = driver.get(bit)
        if d is None:
            arrival[bit] = 0.0
            return 0.0
        arrival[bit] = 0.0  # breaks a combinational loop, which `check` already refused
        name, w, ins = d
        best, best_in = 0.0, None
        for i in ins:
            v = arrive(i)
            if v >= best:
                best, best_in = v, i
        arrival[bit] = best + w
        via[bit] = best_in
        return arrival[bit]

    ends = []
    for name, ins in sinks:
        if not ins:
            continue
        b = max(ins, key=arrive)
        ends.append((arrive(b), name, b))
    ends.sort(reverse=True)

    bitname = {}
    for n, net in mod.get("netnames", {}).items():
        for b in net["bits"]:
            if isinstance(b, int) and (b not in bitname or n.count("$") < bitname[b].count("$")):
                bitname[b] = n

    # One line per (start, end) pair of register groups: a 32-bit register's bits
    # share a path and would fill the list.
    def group(n):
        return re.sub(r"_SB_DFF\w*", "", n.split(" ")[0])

    shown = set()
    for depth, end, b in ends:
        if len(shown) >= a.top:
            break
        path = []
        while b is not None and b in driver:
            path.append(driver[b][0])
            b = via.get(b)
        start = source_cell.get(b) or bitname.get(b, f"bit {b}") if b is not None else "?"
        key = (group(start), group(end))
        if key in shown:
            continue
        shown.add(key)
        luts = sum(1 for c in path if mod["cells"][c]["type"] == "SB_LUT4")
        carries = sum(1 for c in path if mod["cells"][c]["type"] == "SB_CARRY")
        macs = sum(1 for c in path if mod["cells"][c]["type"] == "SB_MAC16")
        print(f"{depth:6.2f} levels ({luts} LUT4, {carries} carry, {macs} MAC16)")
        print(f"       from {start}")
        print(f"       to   {end}")
        if a.verbose:
            print("       via  " + "\n            ".join(reversed(path)))


if __name__ == "__main__":
    main()
