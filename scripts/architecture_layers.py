#!/usr/bin/env python3
"""Checks that no #include runs back up a layer (docs/architecture.md, "The layers").

Every C++ file of the tree belongs to one layer by its directory (LAYERS below, bottom
to top); a file may include a header of its own layer or of one below, never one
above.  Tests (any `tests/` directory), benches, testbenches, fuzzers and the tools sit
on top and may include anything.  Each `#include "..."` is resolved against the tree
the way the build's include paths resolve it: the includer's own directory first,
then the `include/` directories and the library directories that export headers by
name.  A header the tree does not hold is a system or generated one; the generated
headers of the ISA and the configuration (umbra/*_gen.h, *_gen.inc) are the ISA layer's.

  scripts/architecture_layers.py [--list]

Exit status 0 when every include points down or sideways; 1 with one line per
violation (file:line, the header, both layers); --list prints each file's layer.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Bottom to top: (name, directory prefixes).  A file takes the layer of its longest
# matching prefix.
LAYERS = [
    ("tool I/O", ["toolio/"]),
    ("ISA", ["isa/", "asm/"]),
    ("programs", ["examples/"]),
    ("contracts", ["contracts/"]),
    ("models", ["sim/", "systemc/", "rtl/"]),
    ("harness", ["harness/"]),
    ("registry", ["models/"]),
    ("host API", ["host/", "fpga/host/"]),
    ("tools, tests and benches", ["tools/", "bench/", "testbench/", "testing/", "fuzz/", "fpga/tests/", "scripts/"]),
]
TOP = len(LAYERS) - 1
# The ISA's generated tables and the configuration's (umbra/*_gen.h, *_gen.inc).
GENERATED = {re.compile(r"(umbra/\w+_gen\.h|^\w+_gen\.inc)$"): 1}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def layer_of(path):
    if "/tests/" in path or path.startswith("tests/"):
        return TOP
    best, best_len = None, -1
    for i, (_, prefixes) in enumerate(LAYERS):
        for p in prefixes:
            if path.startswith(p) and len(p) > best_len:
                best, best_len = i, len(p)
    return best


def main():
    listing = "--list" in sys.argv[1:]
    files = subprocess.run(["git", "-C", ROOT, "ls-files", "*.h", "*.cpp", "*.in", "*.inc"],
                           capture_output=True, text=True, check=True).stdout.split()
    files = [f for f in files if f.endswith((".h", ".cpp", ".cpp.in", ".h.in"))]
    tracked = set(files)
    by_suffix = {}
    for f in files:
        parts = f.split("/")
        for k in range(1, len(parts) + 1):
            by_suffix.setdefault("/".join(parts[-k:]), []).append(f)

    def resolve(includer, name):
        here = os.path.normpath(os.path.join(os.path.dirname(includer), name))
        if here in tracked:
            return [here]
        cands = by_suffix.get(name, [])
        # what the build's include paths reach: an include/ directory's or a library
        # directory's header, not a test's own helper of another directory
        return [c for c in cands if "/tests/" not in c] or cands

    unplaced, violations, ambiguous = [], [], []
    for f in files:
        lf = layer_of(f)
        if lf is None:
            unplaced.append(f)
            continue
        if listing:
            print(f"{LAYERS[lf][0]:26} {f}")
        with open(os.path.join(ROOT, f), encoding="utf-8") as text:
            for n, line in enumerate(text, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                name = m.group(1)
                targets = resolve(f, name)
                if not targets:
                    lt = next((l for r, l in GENERATED.items() if r.search(name)), None)
                    if lt is not None and lt > lf:
                        violations.append(f"{f}:{n}: includes {name} ({LAYERS[lt][0]}) from layer {LAYERS[lf][0]}")
                    continue
                if len(targets) > 1:
                    ambiguous.append(f"{f}:{n}: \"{name}\" could be any of {', '.join(targets)}")
                    continue
                lt = layer_of(targets[0])
                if lt is not None and lt > lf:
                    violations.append(f"{f}:{n}: includes {targets[0]} (layer {LAYERS[lt][0]}) "
                                      f"from layer {LAYERS[lf][0]}")
    for u in unplaced:
        print(f"architecture_layers: {u} is in no layer: add its directory to LAYERS "
              "(scripts/architecture_layers.py) and to docs/architecture.md", file=sys.stderr)
    for a in ambiguous:
        print(f"architecture_layers: {a}: name the header by a path only one file has", file=sys.stderr)
    for v in violations:
        print(f"architecture_layers: {v}: an include that runs back up a layer", file=sys.stderr)
    if unplaced or ambiguous or violations:
        return 1
    print(f"architecture_layers: {len(files)} files in {len(LAYERS)} layers, every include points down or sideways")
    return 0


if __name__ == "__main__":
    sys.exit(main())
