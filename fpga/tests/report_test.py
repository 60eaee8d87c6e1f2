#!/usr/bin/env python3
"""fpga/tests/report_test.py: the ctest `fpga_report` (label unit).

fpga/report.py turns a seed sweep into the figures docs/fpga.md quotes and the exit
status fpga/build.sh returns, so its arithmetic is tested here on small fixtures
written the way build.sh leaves its output (stat.json, flow.txt, seed-N/ with status,
nextpnr.json and nextpnr.log): min / median / max over the seeds and which seed is
the median's (its critical path is the one reported), the throughput, the fit margin,
each target, a failed seed, the best seed for the bitstream and the Markdown row.
Runs report.py as build.sh does (a separate process), with Debian's Python alone.
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

REPORT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "report.py")


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def nextpnr_report(fmax, lcs, end_cell):
    """A nextpnr --report as nextpnr-ice40 0.4 writes it, one clock and one path."""
    return json.dumps({
        "utilization": {
            "ICESTORM_LC": {"used": lcs, "available": 5280},
            "ICESTORM_RAM": {"used": 25, "available": 30},
            "ICESTORM_SPRAM": {"used": 4, "available": 4},
            "ICESTORM_DSP": {"used": 4, "available": 8},
            "SB_IO": {"used": 10, "available": 96},
        },
        "fmax": {"clk$SB_IO_IN_$glb_clk": {"achieved": fmax, "constraint": 40.0}},
        "critical_paths": [{
            "from": "posedge clk", "to": "posedge clk",
            "path": [
                {"type": "clk-to-q", "from": {"cell": "a", "port": "CLK"}, "to": {"cell": "u_core.start", "port": "Q"}, "delay": 0.5},
                {"type": "routing", "from": {"cell": "u_core.start", "port": "O"}, "to": {"cell": "lut", "port": "I0"}, "delay": 2.0},
                {"type": "logic", "from": {"cell": "lut", "port": "I0"}, "to": {"cell": "lut", "port": "O"}, "delay": 1.5},
                {"type": "routing", "from": {"cell": "lut", "port": "O"}, "to": {"cell": end_cell + "_SB_DFF_Q_DFFLC", "port": "D"}, "delay": 3.0},
                {"type": "setup", "from": {"cell": end_cell + "_SB_DFF_Q_DFFLC", "port": "D"}, "to": {"cell": end_cell + "_SB_DFF_Q_DFFLC"}, "delay": 0.1},
            ],
        }],
    })


def design(root, name, fmax_by_seed, lcs=4000, board=False, clock=40, target=30, failed=(),
           groups="base, mulh, fp32, fp32cvt, atomic"):
    """A design's output directory as fpga/build.sh leaves it after its seed sweep."""
    d = os.path.join(root, name)
    write(f"{d}/stat.json", json.dumps({"design": {"num_cells_by_type": {
        "SB_LUT4": 3000, "SB_CARRY": 500, "SB_DFF": 700, "SB_DFFE": 300, "SB_RAM40_4K": 25}}}))
    flow = [f"config=/x/{name}.yaml", "fpga.device=up5k", "fpga.package=sg48", f"fpga.clock_mhz={clock}",
            f"target_mhz={target}", "top=" + ("icebreaker_top" if board else "synth_top"),
            "synth_opts= -dsp -spram", "tools.yosys=Yosys 0.23 (test)", "tools.nextpnr=nextpnr-0.4 (test)",
            f"core.groups={groups}"]
    if board:
        flow.append("board=1")
    write(f"{d}/flow.txt", "\n".join(flow) + "\n")
    for seed, fmax in fmax_by_seed.items():
        write(f"{d}/seed-{seed}/status", "0\n")
        write(f"{d}/seed-{seed}/nextpnr.json", nextpnr_report(fmax, lcs, f"end_of_seed_{seed}"))
    for seed in failed:
        write(f"{d}/seed-{seed}/status", "1\n")
        write(f"{d}/seed-{seed}/nextpnr.log",
              "Info: 6479 LCs used as LUT4 only\nInfo: 80 LCs used to legalise carry chains.\n"
              "Info: \t         ICESTORM_LC:  6531/ 5280   123%\n"
              "ERROR: Failed to expand region (0, 0) |_> (25, 31) of 6479 ICESTORM_LCs\n")
    return d


def run(*args):
    p = subprocess.run([sys.executable, REPORT, *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


class ReportTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def report(self, *designs):
        args = []
        for name, d in designs:
            args += ["--ice40", f"{name}={d}"]
        rc, out, err = run(*args, "--json", f"{self.root}/r.json", "--markdown", f"{self.root}/r.md")
        with open(f"{self.root}/r.json") as f:
            r = json.load(f)
        with open(f"{self.root}/r.md") as f:
            md = f.read()
        return rc, out, r, md

    def test_five_seeds_give_min_median_max_and_the_median_runs_path(self):
        d = design(self.root, "up5k", {1: 12.0, 2: 10.0, 3: 14.0, 4: 11.0, 5: 13.0})
        rc, out, r, md = self.report(("up5k", d))
        e = r["ice40"]["up5k"]
        self.assertEqual(e["fmax_mhz"], {"min": 10.0, "median": 12.0, "max": 14.0})
        self.assertEqual(e["median_seed"], 1)
        self.assertEqual(e["critical_paths"][0]["end"], "end_of_seed_1_SB_DFF_Q_DFFLC.D")
        self.assertEqual(e["critical_paths"][0]["start"], "u_core.start.O")
        self.assertEqual(e["critical_paths"][0]["delay_ns"], 7.1)
        self.assertEqual(e["bitstream_seed"], 3)
        self.assertEqual(e["throughput"], {"issue_per_cycle": 1, "minstr_per_s": 12.0,
                                           "fp32_mops_per_s": 12.0, "fp32_mflops_per_s_fmadd": 24.0})
        self.assertEqual(e["resources"]["flip-flops"]["used"], 1000)
        self.assertEqual(e["logic_cells_free_pct"], 24.2)
        self.assertEqual(e["tools"], {"yosys": "Yosys 0.23 (test)", "nextpnr": "nextpnr-0.4 (test)"})
        # 12 MHz is below the 30 MHz target: reported, and the exit status says so.
        self.assertFalse(e["checks"]["timing"]["ok"])
        self.assertFalse(e["meets_targets"])
        self.assertEqual(rc, 3)
        self.assertIn("10.00 / **12.00** / 14.00", md)
        self.assertIn("| 4000 / 5280 | 24.2% | 1000 |", md)
        self.assertIn("no: timing", md)
        self.assertIn("7.1 ns (2.1 logic, 3 cells): `u_core.start` → `end_of_seed_1` |", md)
        self.assertIn("MISSED timing: median Fmax 12.00 MHz >= target 30 MHz", out)

    def test_each_design_lists_its_extension_groups_by_name(self):
        # umbra-config writes core.groups as "base, fp32" into flow.txt (issue 34): a
        # design's figures are of the core with those groups only.
        a = design(self.root, "up5k", {1: 31.0}, groups="base, mulh, fp32, fp32cvt, atomic")
        b = design(self.root, "up5k-board", {1: 31.0}, board=True, clock=30, groups="base, fp32")
        _, out, r, md = self.report(("up5k", a), ("up5k/icebreaker", b))
        self.assertEqual(r["ice40"]["up5k"]["groups"], ["base", "mulh", "fp32", "fp32cvt", "atomic"])
        self.assertEqual(r["ice40"]["up5k/icebreaker"]["groups"], ["base", "fp32"])
        self.assertIn("| up5k/icebreaker (icebreaker_top; base, fp32) |", md)
        self.assertIn("groups             base, fp32\n", out)

    def test_an_even_count_takes_the_mean_of_the_middle_two_and_the_lower_runs_path(self):
        d = design(self.root, "up5k", {1: 16.0, 2: 12.0, 3: 14.0, 4: 10.0})
        _, _, r, _ = self.report(("up5k", d))
        e = r["ice40"]["up5k"]
        self.assertEqual(e["fmax_mhz"]["median"], 13.0)
        self.assertEqual(e["median_seed"], 2)
        self.assertEqual(e["critical_paths"][0]["end"], "end_of_seed_2_SB_DFF_Q_DFFLC.D")

    def test_a_design_that_meets_its_target_exits_zero(self):
        d = design(self.root, "up5k", {1: 31.0, 2: 29.0, 3: 30.5})
        rc, _, r, md = self.report(("up5k", d))
        self.assertEqual(r["ice40"]["up5k"]["fmax_mhz"]["median"], 30.5)
        self.assertTrue(r["ice40"]["up5k"]["meets_targets"])
        self.assertEqual(rc, 0)
        self.assertIn("| yes |", md)

    def test_a_board_top_needs_its_clock_the_target_and_ten_percent_free(self):
        ok = design(self.root, "ok", {1: 25.0, 2: 26.0, 3: 24.5}, lcs=4700, board=True, clock=24, target=24)
        full = design(self.root, "full", {1: 25.0, 2: 26.0, 3: 24.5}, lcs=4800, board=True, clock=24, target=24)
        slow = design(self.root, "slow", {1: 25.0, 2: 26.0, 3: 24.5}, lcs=4000, board=True, clock=12, target=24)
        late = design(self.root, "late", {1: 23.0, 2: 26.0, 3: 23.9}, lcs=4000, board=True, clock=24, target=24)
        rc, _, r, md = self.report(("ok", ok), ("full", full), ("slow", slow), ("late", late))
        missed = {n: sorted(k for k, c in e["checks"].items() if not c["ok"]) for n, e in r["ice40"].items()}
        self.assertEqual(missed, {"ok": [], "full": ["fit margin"], "slow": ["board clock"], "late": ["timing"]})
        self.assertEqual(r["ice40"]["ok"]["logic_cells_free_pct"], 11.0)  # 4700 of 5280
        self.assertEqual(r["ice40"]["full"]["logic_cells_free_pct"], 9.1)
        self.assertEqual(rc, 3)
        self.assertIn("≥ 24 at 24 MHz", md)

    def test_a_failed_seed_is_a_miss_and_the_placed_ones_still_count(self):
        d = design(self.root, "up5k", {1: 31.0, 3: 33.0}, failed=(2,))
        rc, out, r, _ = self.report(("up5k", d))
        e = r["ice40"]["up5k"]
        self.assertEqual(e["seeds"], [1, 2, 3])
        self.assertEqual(e["fmax_mhz"]["median"], 32.0)
        self.assertIn("Failed to expand region", e["failed_seeds"]["2"])
        self.assertFalse(e["checks"]["placed"]["ok"])
        self.assertEqual(rc, 3)
        self.assertIn("2: failed", out)

    def test_a_design_no_seed_placed_reports_what_it_needed(self):
        d = design(self.root, "board", {}, board=True, clock=24, target=24, failed=(1, 2))
        rc, _, r, md = self.report(("board", d))
        e = r["ice40"]["board"]
        self.assertIsNone(e["fmax_mhz"])
        self.assertIsNone(e["throughput"])
        # nextpnr's own utilization line, not the packer's lines added up (6559).
        self.assertEqual(e["resources"]["logic cells"], {"used": 6531, "available": 5280})
        self.assertTrue(e["place_and_route"].startswith("failed: Failed to expand region"))
        self.assertEqual(rc, 3)
        self.assertIn("not placed", md)

    def test_an_ecp5_board_top_counts_its_lut4_slots_ebr_and_multipliers(self):
        d = os.path.join(self.root, "ulx3s")
        write(f"{d}/stat.json", json.dumps({"design": {"num_cells_by_type": {
            "LUT4": 20000, "CCU2C": 1000, "TRELLIS_FF": 7500, "DP16KD": 10, "MULT18X18D": 4}}}))
        write(f"{d}/flow.txt", "\n".join([
            "config=/x/ecp5.yaml", "fpga.device=lfe5u-85f", "fpga.package=CABGA381", "fpga.clock_mhz=20",
            "target_mhz=20", "top=ulx3s_top", "board=1", "synth_opts=", "tools.nextpnr=nextpnr-ecp5 (test)"]) + "\n")
        for seed, fmax in {1: 22.0, 2: 21.0, 3: 23.0}.items():
            write(f"{d}/seed-{seed}/status", "0\n")
            write(f"{d}/seed-{seed}/nextpnr.json", json.dumps({
                "utilization": {"TRELLIS_COMB": {"used": 23000, "available": 83640},
                                "TRELLIS_FF": {"used": 7600, "available": 83640},
                                "DP16KD": {"used": 10, "available": 208},
                                "MULT18X18D": {"used": 4, "available": 156},
                                "TRELLIS_IO": {"used": 60, "available": 365}},
                "fmax": {"$glbnet$clk": {"achieved": fmax, "constraint": 20.0}}, "critical_paths": []}))
        failed = os.path.join(self.root, "big")
        write(f"{failed}/stat.json", json.dumps({"design": {"num_cells_by_type": {
            "LUT4": 90000, "CCU2C": 2000, "TRELLIS_FF": 30000, "DP16KD": 40, "MULT18X18D": 16}}}))
        write(f"{failed}/flow.txt", "fpga.device=lfe5u-85f\ntop=ulx3s_top\nboard=1\nfpga.clock_mhz=20\ntarget_mhz=20\n")
        write(f"{failed}/seed-1/status", "1\n")
        write(f"{failed}/seed-1/nextpnr.log", "ERROR: Unable to place cell 'x', no BELs remaining\n")
        # Packed, then stopped: nextpnr's own counts, which hold the distributed RAMs'
        # and wide multiplexers' LUT4 slots that Yosys's cells leave out.
        packed = os.path.join(self.root, "packed")
        write(f"{packed}/stat.json", json.dumps({"design": {"num_cells_by_type": {
            "LUT4": 67740, "CCU2C": 3855, "TRELLIS_FF": 32748, "DP16KD": 88, "MULT18X18D": 36}}}))
        write(f"{packed}/flow.txt", "fpga.device=lfe5u-85f\ntop=ulx3s_top\nboard=1\nfpga.clock_mhz=20\ntarget_mhz=20\n")
        write(f"{packed}/seed-1/status", "1\n")
        write(f"{packed}/seed-1/nextpnr.log", "\n".join([
            "Info: Device utilisation:", "Info: \t          TRELLIS_IO:      51/    365    13%",
            "Info: \t              DP16KD:      88/    208    42%", "Info: \t          MULT18X18D:      36/    156    23%",
            "Info: \t          TRELLIS_FF:   32748/  83640    39%", "Info: \t        TRELLIS_COMB:   82034/  83640    98%",
            "Info: \t        TRELLIS_RAMW:     798/  10455     7%", "ERROR: Unable to place cell 'y'"]) + "\n")
        rc, out, _ = run("--ecp5", f"ulx3s={d}", "--ecp5", f"big={failed}", "--ecp5", f"packed={packed}",
                         "--json", f"{self.root}/r.json", "--markdown", f"{self.root}/r.md")
        with open(f"{self.root}/r.json") as f:
            r = json.load(f)
        with open(f"{self.root}/r.md") as f:
            md = f.read()
        e = r["ecp5"]["ulx3s"]
        self.assertEqual(e["family"], "ecp5")
        self.assertEqual(e["yosys"], "synth_ecp5")
        self.assertEqual(e["resources"]["logic cells"], {"used": 23000, "available": 83640})
        self.assertEqual(e["resources"]["flip-flops"]["used"], 7600)
        self.assertEqual(e["resources"]["EBR (DP16KD)"], {"used": 10, "available": 208})
        self.assertEqual(e["resources"]["DSP (MULT18X18D)"]["used"], 4)
        self.assertEqual(e["fmax_mhz"]["median"], 22.0)
        self.assertEqual(e["logic_cells_free_pct"], 72.5)
        self.assertTrue(e["meets_targets"])
        # Not placed: the LUT4 slots Yosys's cells need (a CCU2C is two) against the part.
        b = r["ecp5"]["big"]
        self.assertEqual(b["resources"]["logic cells"], {"used": 94000, "available": 83640})
        self.assertIn("no BELs remaining", b["place_and_route"])
        p = r["ecp5"]["packed"]
        self.assertEqual(p["resources"]["logic cells"], {"used": 82034, "available": 83640})
        self.assertEqual(p["resources"]["flip-flops"]["used"], 32748)
        self.assertEqual(p["logic_cells_free_pct"], 1.9)
        self.assertEqual(rc, 3)
        self.assertIn("on ECP5 LFE5U-85F CABGA381, synth_ecp5", out)
        self.assertIn("| EBR (DP16KD) | DSP (MULT18X18D) |", md)
        self.assertIn("| ulx3s (ulx3s_top; -) | 23000 / 83640 | 72.5% | 7600 | 10 / 208 | 4 / 156 |", md)

    def test_best_seed_is_the_highest_fmax(self):
        d = design(self.root, "up5k", {1: 12.0, 2: 15.0, 3: 14.0}, failed=(4,))
        rc, out, _ = run("--best-seed", d)
        self.assertEqual((rc, out.strip()), (0, "2"))
        none = design(self.root, "none", {}, failed=(1,))
        rc, _, err = run("--best-seed", none)
        self.assertEqual(rc, 1)
        self.assertIn("no seed placed", err)


if __name__ == "__main__":
    unittest.main()
