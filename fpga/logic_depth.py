#!/usr/bin/env python3
"""fpga/logic_depth.py: the deepest register-to-register logic paths of a synthesized
iCE40 or ECP5 netlist (Yosys `synth_ice40 -json`, `synth_ecp5 -json`), before
place-and-route.

When a design does not fit, nextpnr stops before timing analysis, so this is the
only view of what will limit Fmax: the paths with the most LUT levels, named by the
cells (RTL hierarchy) at their start and end.  Weights are levels, not nanoseconds:
a LUT4 is 1, a carry cell 0.15 (the dedicated chain is several times faster than a
LUT plus its routing), an SB_MAC16 whose output is not registered inside the DSP 4
(its multiplier is slow).  Flip-flops, RAMs, SPRAMs and registered DSP outputs start
and end paths; so do the top's ports.  ECP5: a LUT4 is 1, a CCU2C (two bits of carry)
0.15, a PFUMX or L6MUX21 (the slice's wide-function muxes, LUT5 to LUT7) 0.25, a
distributed RAM's (TRELLIS_DPR16X4) asynchronous read 1 (its write ports end paths),
a MULT18X18D without input or output registers 4.

  logic_depth.py NETLIST.json [--top N] [--verbose] [--blocks LEVELS]

--blocks LEVELS counts the endpoints at LEVELS or deeper by the block (the RTL
instance, `u_*`) their deepest path starts in and the one it ends in: where a pass
over the design has to cut, in a few lines where the path list has thousands.
"""
import argparse
import json
import re
import sys

WEIGHT = {"SB_LUT4": 1.0, "SB_CARRY": 0.15,
          "LUT4": 1.0, "CCU2C": 0.15, "PFUMX": 0.25, "L6MUX21": 0.25}
LUTS = ("SB_LUT4", "LUT4")
CARRIES = ("SB_CARRY", "CCU2C")
MAC_COMB_WEIGHT = 4.0
DPR_READ_WEIGHT = 1.0
DPR_READ_PORTS = ("RAD",)


def mac_registered(cell):
    # TOPOUTPUT_SELECT/BOTOUTPUT_SELECT 1 = the accumulator register; 0 and 3 are
    # combinational (adder, multiplier) outputs.
    p = cell.get("parameters", {})
    sel = [p.get("TOPOUTPUT_SELECT", "0"), p.get("BOTOUTPUT_SELECT", "0")]
    return all(int(str(s), 2) == 1 for s in sel)


def mult_registered(cell):
    # MULT18X18D: combinational unless its inputs or its output are registered.
    p = cell.get("parameters", {})
    return any(str(p.get(r, "NONE")) != "NONE"
               for r in ("REG_INPUTA_CLK", "REG_INPUTB_CLK", "REG_OUTPUT_CLK", "REG_PIPELINE_CLK"))


def block(cell):
    """The RTL instance a cell belongs to: its hierarchical name up to the last `u_*`
    (Yosys names a cell after the net it drives, under its instance's path)."""
    parts = cell.split(" ")[0].split(".")
    last = max((i for i, p in enumerate(parts[:-1]) if p.startswith("u_")), default=-1)
    return ".".join(parts[:last + 1]) or "(top)"


def print_blocks(ends, driver, via, source_cell, levels):
    counts = {}
    for depth, end, b in ends:
        if depth < levels:
            continue
        while b is not None and b in driver:
            b = via.get(b)
        key = (block(source_cell.get(b, "(top)")), block(end))
        counts[key] = counts.get(key, 0) + 1
    total = sum(counts.values())
    print(f"{total} of {len(ends)} endpoints at {levels:g} levels or more, by start -> end block:")
    for (start, end), n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"{n:7d}  {start} -> {end}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("netlist")
    ap.add_argument("--top", type=int, default=5, help="paths to print (distinct start/end registers)")
    ap.add_argument("--verbose", action="store_true", help="list every cell on each path")
    ap.add_argument("--blocks", type=float, metavar="LEVELS",
                    help="count the endpoints at LEVELS or deeper by start and end block")
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
    const = set()  # bits of constant cells
    for name, c in mod["cells"].items():
        t = c["type"]
        dirs = c.get("port_directions", {})
        conn = c.get("connections", {})
        ins = [b for p, bits in conn.items() if dirs.get(p) == "input" for b in bits if isinstance(b, int)]
        outs = [b for p, bits in conn.items() if dirs.get(p) == "output" for b in bits if isinstance(b, int)]
        if t in WEIGHT or (t == "SB_MAC16" and not mac_registered(c)) or \
                (t == "MULT18X18D" and not mult_registered(c)):
            w = WEIGHT.get(t, MAC_COMB_WEIGHT)
            if not ins:
                # A constant (synth_ecp5 leaves INIT-0 LUT4s with tied inputs under a
                # PFUMX): it starts no path.
                const.update(outs)
                continue
            for b in outs:
                driver[b] = (name, w, ins)
        elif t == "TRELLIS_DPR16X4":
            # The read is asynchronous (DO from RAD); the write port is clocked.
            rd = [b for p in DPR_READ_PORTS for b in conn.get(p, []) if isinstance(b, int)]
            for b in outs:
                driver[b] = (name, DPR_READ_WEIGHT, rd)
            sinks.append((name, [b for b in ins if b not in rd]))
        else:
            # A clocked cell: its data inputs end paths (the clock bit is harmless: the
            # clock net has no combinational driver).
            sinks.append((name, ins))
    source_cell = {}  # bit -> the clocked cell whose output it is
    for name, c in mod["cells"].items():
        if c["type"] in WEIGHT or c["type"] == "TRELLIS_DPR16X4":
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
            arrival[bit] = -1.0 if bit in const else 0.0
            return arrival[bit]
        arrival[bit] = 0.0  # breaks a combinational loop, which `check` already refused
        name, w, ins = d
        best, best_in = -1.0, None
        for i in ins:
            v = arrive(i)
            if v >= best:
                best, best_in = v, i
        best = max(best, 0.0)
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
        return re.sub(r"_SB_DFF\w*|_TRELLIS_FF\w*", "", n.split(" ")[0])

    if a.blocks is not None:
        print_blocks(ends, driver, via, source_cell, a.blocks)
        return

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
        kinds = [mod["cells"][c]["type"] for c in path]
        luts = sum(1 for t in kinds if t in LUTS)
        carries = sum(1 for t in kinds if t in CARRIES)
        muxes = sum(1 for t in kinds if t in ("PFUMX", "L6MUX21"))
        rams = sum(1 for t in kinds if t == "TRELLIS_DPR16X4")
        macs = sum(1 for t in kinds if t in ("SB_MAC16", "MULT18X18D"))
        extra = (f", {muxes} wide mux" if muxes else "") + (f", {rams} LUT RAM read" if rams else "")
        print(f"{depth:6.2f} levels ({luts} LUT4, {carries} carry, {macs} MAC16{extra})")
        print(f"       from {start}")
        print(f"       to   {end}")
        if a.verbose:
            print("       via  " + "\n            ".join(reversed(path)))


if __name__ == "__main__":
    main()
