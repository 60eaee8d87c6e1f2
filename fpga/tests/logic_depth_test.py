#!/usr/bin/env python3
"""fpga/tests/logic_depth_test.py: the ctest `fpga_logic_depth` (label unit).

fpga/logic_depth.py is what docs/fpga.md's timing studies count levels and blocks
with (and what stands in for timing when a design does not place), so its weights
and its block attribution are checked on a hand-made ECP5 netlist laid out as Yosys
writes one: a register in `u_src` drives two LUT4s and a PFUMX in `u_mid`, which end
at a register in `u_dst`; a second register in `u_dst` is one LUT4 behind the first.
Runs logic_depth.py as a user does (a separate process), with Debian's Python alone.
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

TOOL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "logic_depth.py")


def cell(kind, inputs, outputs):
    conn = dict(inputs)
    conn.update(outputs)
    dirs = {p: "input" for p in inputs}
    dirs.update({p: "output" for p in outputs})
    return {"type": kind, "port_directions": dirs, "connections": conn}


def netlist():
    # Bits: 2 clock, 3 the source register's Q, 4 and 5 the LUTs', 6 the mux's, 7 the
    # first end register's Q, 8 the LUT behind it.
    cells = {
        "u_sys.u_src.r_TRELLIS_FF_Q": cell("TRELLIS_FF", {"CLK": [2], "DI": [7]}, {"Q": [3]}),
        "u_sys.u_mid.a_LUT4_Z": cell("LUT4", {"A": [3], "B": [3]}, {"Z": [4]}),
        "u_sys.u_mid.b_LUT4_Z": cell("LUT4", {"A": [4]}, {"Z": [5]}),
        "u_sys.u_mid.c_PFUMX_Z": cell("PFUMX", {"ALUT": [5], "BLUT": [4], "C0": [3]}, {"Z": [6]}),
        "u_sys.u_dst.x_TRELLIS_FF_Q": cell("TRELLIS_FF", {"CLK": [2], "DI": [6]}, {"Q": [7]}),
        "u_sys.u_dst.d_LUT4_Z": cell("LUT4", {"A": [7]}, {"Z": [8]}),
        "u_sys.u_dst.y_TRELLIS_FF_Q": cell("TRELLIS_FF", {"CLK": [2], "DI": [8]}, {"Q": [9]}),
    }
    return {"modules": {"top": {"attributes": {"top": 1}, "ports": {"clk": {"direction": "input", "bits": [2]}},
                                "cells": cells, "netnames": {}}}}


class LogicDepth(unittest.TestCase):
    def run_tool(self, *args):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "top.json")
            with open(path, "w") as f:
                json.dump(netlist(), f)
            r = subprocess.run([sys.executable, TOOL, path, *args], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        return r.stdout

    def test_the_deepest_path_weighs_its_luts_and_muxes(self):
        out = self.run_tool("--top", "1")
        self.assertIn("2.25 levels (2 LUT4, 0 carry, 0 MAC16, 1 wide mux)", out)
        self.assertIn("from u_sys.u_src.r_TRELLIS_FF_Q (TRELLIS_FF.Q)", out)
        self.assertIn("to   u_sys.u_dst.x_TRELLIS_FF_Q", out)

    def test_blocks_count_endpoints_by_their_start_and_end_instances(self):
        out = self.run_tool("--blocks", "1").splitlines()
        self.assertEqual(out[0], "2 of 3 endpoints at 1 levels or more, by start -> end block:")
        self.assertEqual([line.split() for line in out[1:]],
                         [["1", "u_sys.u_dst", "->", "u_sys.u_dst"], ["1", "u_sys.u_src", "->", "u_sys.u_dst"]])

    def test_blocks_leave_out_shallower_endpoints(self):
        out = self.run_tool("--blocks", "2").splitlines()
        self.assertEqual(out[0], "1 of 3 endpoints at 2 levels or more, by start -> end block:")
        self.assertEqual(out[1].split(), ["1", "u_sys.u_src", "->", "u_sys.u_dst"])


if __name__ == "__main__":
    unittest.main()
