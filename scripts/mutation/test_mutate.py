#!/usr/bin/env python3
"""test_mutate.py: what the mutation campaign relies on from its mutator (mutate.py),
checked without building anything (ctest: mutation_mutator, label unit).

- A seed names one sample: the same seed draws the same mutants, another seed others.
- The mutants are distinct, each changes exactly one line of one model file, and apply()
  refuses a file whose line no longer reads what the mutant was drawn from.
- The sample spreads over every block in proportion to its size.
- The RTL mutants are valid Verilog: each mutated design still elaborates in Icarus
  (a broken one would be counted as "invalid" by the campaign and waste a Verilator run).
- The SystemC mutants keep the line's brackets balanced, and the mutation kinds plant
  what they say on small known lines (operators, dropped terms, reset values, mux arms,
  stuck enables), and leave comments, declarations and non-blocking assignments alone.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mutate  # noqa: E402

ROOT = mutate.ROOT


def read(path):
    with open(path) as f:
        return f.read()


def mutated(line, lang, in_reset=False):
    masked = mutate.mask_lines(line, lang)[0]
    return {new for _, new in mutate.line_candidates(line, masked, lang, in_reset)}


class Sample(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.a = mutate.draw(ROOT, "11", 40, 20)

    def test_same_seed_same_sample_other_seed_other_sample(self):
        self.assertEqual(self.a, mutate.draw(ROOT, "11", 40, 20))
        b = mutate.draw(ROOT, "12", 40, 20)
        self.assertNotEqual({m["id"] for m in self.a}, {m["id"] for m in b})

    def test_counts_languages_and_distinct_mutants(self):
        self.assertEqual(len([m for m in self.a if m["language"] == "rtl"]), 40)
        self.assertEqual(len([m for m in self.a if m["language"] == "systemc"]), 20)
        self.assertEqual(len({m["id"] for m in self.a}), len(self.a))
        self.assertEqual(len({(m["file"], m["line"], m["mutated"]) for m in self.a}), len(self.a))
        for m in self.a:
            self.assertNotEqual(m["original"], m["mutated"], mutate.describe(m))
            self.assertNotIn("\n", m["mutated"])

    def test_every_block_drawn_in_proportion(self):
        blocks = {b for b, _, lang in mutate.model_files(ROOT) if lang == "verilog"}
        drawn = {m["block"] for m in self.a if m["language"] == "rtl"}
        self.assertEqual(drawn, blocks)  # 40 >= the RTL block count: each gets one
        self.assertEqual(mutate.allocate({"a": 300, "b": 100}, 4), {"a": 3, "b": 1})
        self.assertEqual(mutate.allocate({"a": 300, "b": 100, "c": 100}, 13), {"a": 7, "b": 3, "c": 3})
        self.assertEqual(sum(mutate.allocate({"x": 7, "y": 5, "z": 3}, 10).values()), 10)

    def test_apply_changes_one_line_and_refuses_a_changed_file(self):
        with tempfile.TemporaryDirectory() as tmp:
            for m in self.a[:5] + self.a[-5:]:
                dst = os.path.join(tmp, m["file"])
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                shutil.copy(os.path.join(ROOT, m["file"]), dst)
                before = read(dst).split("\n")
                original = mutate.apply(tmp, m)
                after = read(dst).split("\n")
                self.assertEqual(original.split("\n"), before)
                diff = [i for i, (x, y) in enumerate(zip(before, after)) if x != y]
                self.assertEqual((len(before), diff), (len(after), [m["line"] - 1]))
                self.assertEqual(after[m["line"] - 1], m["mutated"])
                with self.assertRaises(ValueError):  # the line now reads the mutant
                    mutate.apply(tmp, m)

    def test_rtl_mutants_elaborate(self):
        iverilog = shutil.which("iverilog")
        self.assertIsNotNone(iverilog, "iverilog (a required tool of the RTL checks) is not on PATH")
        files = [p for _, p, lang in mutate.model_files(ROOT) if lang == "verilog"]
        with tempfile.TemporaryDirectory() as tmp:
            shutil.copytree(os.path.join(ROOT, "rtl"), os.path.join(tmp, "rtl"))
            for m in [m for m in self.a if m["language"] == "rtl"]:
                original = mutate.apply(tmp, m)
                r = subprocess.run([iverilog, "-g2005", "-I", os.path.join(tmp, "rtl"), "-s", "umbra_system",
                                    "-o", os.devnull] + [os.path.join(tmp, f) for f in files],
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
                with open(os.path.join(tmp, m["file"]), "w") as f:
                    f.write(original)
                self.assertEqual(r.returncode, 0, "%s\n%s" % (mutate.describe(m), r.stdout))

    def test_systemc_mutants_keep_brackets_balanced(self):
        for m in [m for m in self.a if m["language"] == "systemc"]:
            before = mutate.mask_lines(m["original"], "cpp")[0]
            after = mutate.mask_lines(m["mutated"], "cpp")[0]
            for o, c in ("()", "[]", "{}"):
                self.assertEqual(before.count(o) - before.count(c), after.count(o) - after.count(c),
                                 mutate.describe(m))


class Kinds(unittest.TestCase):
    def test_verilog_operators_and_dropped_terms(self):
        got = mutated("  assign go = a && (b || c);", "verilog")
        self.assertIn("  assign go = a || (b || c);", got)
        self.assertIn("  assign go = (b || c);", got)  # left term dropped
        self.assertIn("  assign go = a;", got)  # right term dropped
        self.assertIn("  assign go = a && (c);", got)
        self.assertIn("  assign go = 1'b0;", got)  # stuck enable

    def test_nonblocking_assignment_is_not_a_comparison(self):
        got = mutated("      q <= d;", "verilog")
        self.assertFalse(any(g.strip().startswith("q <") and "<=" not in g for g in got), got)
        self.assertIn("      if (!(a <= b)) q <= 1'b1;", mutated("      if (a <= b) q <= 1'b1;", "verilog"))
        self.assertIn("      if (a < b) q <= 1'b1;", mutated("      if (a <= b) q <= 1'b1;", "verilog"))

    def test_reset_values_and_mux_arms(self):
        self.assertIn("      valid_q <= 1'b1;", mutated("      valid_q <= 1'b0;", "verilog", in_reset=True))
        self.assertIn("  wire [7:0] d = f ? 8'd0 : rd;", mutated("  wire [7:0] d = f ? rd : 8'd0;", "verilog"))

    def test_constants_but_not_widths(self):
        got = mutated("  assign y = x[7:0] + 3'd7;", "verilog")
        self.assertIn("  assign y = x[7:0] + 3'd6;", got)
        self.assertNotIn("  assign y = x[7:0] + 3'd8;", got)  # 8 does not fit in 3 bits
        self.assertFalse(any("x[6:0]" in g or "x[8:0]" in g or "x[7:1]" in g for g in got), got)

    def test_comments_and_declarations_are_left_alone(self):
        self.assertEqual(mutated("  // if (a && b) x = 1;", "verilog"), set())
        self.assertEqual(mutated("  input wire [31:0] a,", "verilog"), set())
        self.assertEqual(mutated("  localparam W = 8;", "verilog"), set())
        self.assertEqual(mutated("  uint32_t regs_[32];", "cpp"), set())
        self.assertEqual(mutated("#include <vector>", "cpp"), set())
        self.assertEqual(mutated("  void tick(unsigned a, int b = 3);", "cpp"), set())

    def test_cpp_templates_and_streams_are_not_operators(self):
        self.assertEqual(mutated("  std::vector<uint32_t> v = make<int>(a);", "cpp"), set())
        self.assertEqual({g for g in mutated('  os << "x" << y;', "cpp") if ">>" in g}, set())
        got = mutated("  if (a < b && ready.read()) return;", "cpp")
        self.assertIn("  if (a <= b && ready.read()) return;", got)
        self.assertIn("  if (!(a < b && ready.read())) return;", got)
        self.assertIn("  if (ready.read()) return;", got)
        self.assertIn("  mem_valid.write(true);", mutated("  mem_valid.write(x && y);", "cpp"))

    def test_configuration_guards_are_skipped(self):
        text = "void f() {\n  if (cfg.n < 1 || cfg.n > 8)\n    throw Error(\"n\");\n  x = y + 1;\n}\n"
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(tmp, "f.cpp"), "w") as f:
                f.write(text)
            _, cands = mutate.file_candidates(tmp, "f.cpp", "cpp")
        self.assertEqual({c["line"] for c in cands}, {4})


if __name__ == "__main__":
    unittest.main()
