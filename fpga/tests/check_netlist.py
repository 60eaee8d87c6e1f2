#!/usr/bin/env python3
# check_netlist.py NETLIST.v CELLS_SIM.v [--counts FILE] [--require CELL...] -- can a Yosys netlist
# (write_verilog -noattr of synth_ice40) be simulated by Verilator with the iCE40 cell
# models, and does it hold the cells it must?  Run by the board netlist benches
# (fpga/tests/CMakeLists.txt) before Verilating a netlist.
#
# Verilator 5.006 does not support input ports with default values, which cells_sim.v
# gives some inputs (ICE40_DEFAULT_ASSIGNMENT_*: a RAM's RCLKE/WCLKE default to 1), so
# the models are compiled with NO_ICE40_DEFAULT_ASSIGNMENTS and an input left
# unconnected would read 0 where the chip reads its default.  Refused here: an
# instance that leaves a defaulted input unconnected.  Also refused: a memory array
# left in the netlist (a `reg [..] name [..]` that synthesis did not map to a RAM
# cell, which the simulation would then run as a behavioural array instead of the
# chip's RAM), and a --require'd cell type with no instance (the RAMs whose
# read-during-write behaviour the simulation exists to exercise).
# Writes the count of each cell type to FILE (--counts) or stdout.  Exit status 0 when clean, 1 otherwise.
import re
import sys
from collections import Counter


def defaulted_inputs(cells_sim):
    """{cell type: set of input ports with a default value} from the models' headers."""
    out = {}
    for m in re.finditer(r"^module\s+(\w+)\s*\((.*?)\);", cells_sim, re.S | re.M):
        ports = set()
        for line in m.group(2).splitlines():
            if "ICE40_DEFAULT_ASSIGNMENT" in line:
                names = re.sub(r"`ICE40_DEFAULT_ASSIGNMENT\w*(\(.*?\))?", "", line)
                names = re.sub(r"\b(input|output|inout|wire|reg)\b|\[.*?\]", "", names)
                ports.update(n for n in re.split(r"[\s,]+", names) if n)
        if ports:
            out[m.group(1)] = ports
    return out


def main(argv):
    args = argv[1:]
    require = []
    if "--require" in args:
        i = args.index("--require")
        require = args[i + 1:]
        args = args[:i]
    counts_file = None
    if len(args) == 4 and args[2] == "--counts":
        counts_file = args[3]
        args = args[:2]
    if len(args) != 2:
        print("usage: check_netlist.py NETLIST.v CELLS_SIM.v [--counts FILE] [--require CELL...]",
              file=sys.stderr)
        return 2
    netlist = open(args[0]).read()
    defaults = defaulted_inputs(open(args[1]).read())
    errors = []
    counts = Counter()
    # Instances: `SB_X #( ... ) name ( .P(sig), ... );` or without parameters.
    inst = re.compile(r"^\s*(SB_\w+)\s*(?:#\s*\((?:.*?)\)\s*)?(\S+)\s*\((.*?)\);", re.S | re.M)
    for m in inst.finditer(netlist):
        cell, name, conns = m.group(1), m.group(2), m.group(3)
        counts[cell] += 1
        connected = set(re.findall(r"\.(\w+)\s*\(\s*[^)\s]", conns))
        for p in sorted(defaults.get(cell, set()) - connected):
            errors.append(f"{cell} {name}: input {p} unconnected (its model's default is not simulated)")
    for m in re.finditer(r"^\s*reg\s*(\[[^\]]*\])?\s*(\\?\S+)\s*\[[^\]]*\]\s*;", netlist, re.M):
        errors.append(f"memory array {m.group(2)} left in the netlist (not mapped to a RAM cell)")
    for cell in require:
        if counts[cell] == 0:
            errors.append(f"no {cell} in the netlist")
    table = "".join(f"{cell} {n}\n" for cell, n in sorted(counts.items()))
    if counts_file:
        with open(counts_file, "w") as f:
            f.write(table)
    else:
        sys.stdout.write(table)
    for e in errors:
        print(f"check_netlist.py: {args[0]}: {e}", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
