#!/usr/bin/env python3
"""hostile_probe.py: runs every tool of a build on inputs a careless or hostile user
would give it, and sorts what happens (issue 37; the counts are in
docs/verification.md, "Hostile inputs").

Each case says what a user may rely on: either the tool refuses the input (a non-zero
exit, and a message holding the fragments that name what is wrong: the option, the
file, the key, the reason) or, for the fault programs, every model gives the same
fault with the same reason.  Whatever else happens is one of:
  crash      killed by a signal, a sanitizer report, an uncaught exception, "terminate"
  hang       still running after the time limit
  destroyed  an input file changed
  silent     exit 0 where a refusal was due, or a model's fault differs from the ISS's
  unclear    refused, but the message lacks what names the problem
The cases are new: none is a copy of a ctest's (tools_output_test.cpp, the hostile
tests of umbra-sim and the configuration loader hold those).

    scripts/hostile_probe.py BUILD_DIR [--only CLASS] [--list] [--json FILE]

It exits 1 when any case is not "ok", printing each such case with its command.
"""
import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

TOOLS = {
    "umbra-as": "tools/umbra-as",
    "umbra-dis": "tools/umbra-dis",
    "umbra-sim": "tools/umbra-sim",
    "umbra-cosim": "tools/umbra-cosim",
    "umbra-cosim-test-odd": "tools/umbra-cosim-test-odd",
    "umbra-systemc-run": "tools/umbra-systemc-run",
    "umbra-randprog": "tools/umbra-randprog",
    "umbra-load": "tools/umbra-load",
    "umbra-directed": "tools/umbra-directed",
    "umbra-config": "tools/umbra-config",
    "umbra-examples": "tools/umbra-examples",
    "umbra-isagen": "isa/umbra-isagen",
    "umbra-cmdgen": "isa/umbra-cmdgen",
    "sim_speed": "bench/sim_speed",
    "clock_bench": "bench/clock_bench",
    "latency_hiding": "bench/latency_hiding",
    "access_patterns": "bench/access_patterns",
    "queue_bench": "bench/queue_bench",
    "cores_bench": "bench/cores_bench",
}

PROGRAM = """_start: li   r1, 5
        .include "inc.s"
        exit
        .data
cell:   .word 7
"""

# Programs that fault, each the same way on every model.  {name: (source, reason the ISS
# gives, the configuration: None for the default)}.  A program for a configuration is
# assembled without it (for 256 registers) and run on it; its RTL is the variant
# verilated for it (umbra-cosim-NAME), which umbra-sim's rtl and cosim do not run.
FAULTS = {
    "jalr-misaligned": ("_start: li r1, 6\n        jalr r2, r1\n        exit\n",
                        "bad jump: jump target 0x00000006 is not a multiple of 4", None),
    "jalr-far": ("_start: li r1, 0x40000\n        jalr r2, r1\n        exit\n",
                 "bad jump: target 0x00040000 is outside the instruction store", None),
    "illegal-word": ("_start: nop\n        .word 0xffffffff\n        exit\n",
                     "illegal instruction: opcode 0xff is not an instruction", None),
    "run-off-text": ("_start: nop\n", "illegal instruction: opcode 0x0 is not an instruction", None),
    "ldw-misaligned": ("_start: li r1, 6\n        ldw r2, 0(r1)\n        exit\n",
                       "misaligned access: ldw address 0x00000006 is not a multiple of 4", None),
    "stw-misaligned": ("_start: li r1, 0x10002\n        stw r2, 0(r1)\n        exit\n",
                       "misaligned access: stw address 0x00010002 is not a multiple of 4", None),
    "ldw-beyond": ("_start: li r1, 0x100004\n        ldw r2, 0(r1)\n        exit\n",
                   "out-of-range access: ldw address 0x00100004 is beyond data memory (1048576 bytes)", None),
    "stw-beyond": ("_start: li r1, 0x7ffffff0\n        stw r2, 0(r1)\n        exit\n",
                   "out-of-range access: stw address 0x7ffffff0 is beyond data memory (1048576 bytes)", None),
    "atomic-beyond": ("_start: li r1, 0x200000\n        atom.add r2, r1, r3\n        exit\n",
                      "out-of-range access: atom.add address 0x00200000 is beyond data memory (1048576 bytes)",
                      None),
    "register-beyond": ("_start: add r255, r1, r2\n        exit\n",
                        "illegal instruction: r255 does not exist: the core has 255 registers", "test-odd"),
}

BAD_VALUES = ["-1", "abc", "", "1.5", "7x", "0x", "99999999999999999999", "18446744073709551616"]


class Probe:
    def __init__(self, build, timeout):
        self.build = build
        self.timeout = timeout
        self.dir = tempfile.mkdtemp(prefix="umbra-probe-")
        self.results = []
        self.files = {}
        w = self.write
        self.files["{prog}"] = w("p.s", PROGRAM)
        self.files["{inc}"] = w("inc.s", "        nop\n")
        self.files["{cfg}"] = w("cfg.yaml", open(os.path.join(ROOT, "configs/default.yaml")).read())
        self.files["{isa}"] = w("isa.yaml", open(os.path.join(ROOT, "isa/isa.yaml")).read())
        self.files["{cmdy}"] = w("commands.yaml", open(os.path.join(ROOT, "isa/commands.yaml")).read())
        self.files["{bin}"] = w("p.bin", "\x00" * 8)
        subprocess.run([self.tool("umbra-as"), self.files["{prog}"], "-o", os.path.join(self.dir, "p.elf")],
                       check=True, capture_output=True)
        self.files["{elf}"] = os.path.join(self.dir, "p.elf")
        self.guarded = dict(self.files)

    def write(self, name, text):
        path = os.path.join(self.dir, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def tool(self, name):
        return os.path.join(self.build, TOOLS[name])

    def snapshot(self):
        out = {}
        for path in self.guarded.values():
            with open(path, "rb") as f:
                out[path] = hashlib.sha256(f.read()).hexdigest()
        return out

    def expand(self, arg):
        for key, path in self.files.items():
            arg = arg.replace(key, path)
        return arg.replace("{dir}", self.dir)

    def run(self, tool, args):
        cmd = [self.tool(tool)] + [self.expand(a) for a in args]
        before = self.snapshot()
        try:
            p = subprocess.run(cmd, cwd=self.dir, capture_output=True, timeout=self.timeout, stdin=subprocess.DEVNULL)
            rc, out, err = p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")
        except subprocess.TimeoutExpired:
            rc, out, err = None, "", ""
        changed = [p for p, h in self.snapshot().items() if before[p] != h]
        for p in changed:  # the next case starts from the same inputs
            key = next(k for k, v in self.guarded.items() if v == p)
            name = os.path.basename(p)
            src = {"{cfg}": "configs/default.yaml", "{isa}": "isa/isa.yaml", "{cmdy}": "isa/commands.yaml"}.get(key)
            if src:
                shutil.copy(os.path.join(ROOT, src), p)
            elif key == "{prog}":
                self.write(name, PROGRAM)
            elif key == "{inc}":
                self.write(name, "        nop\n")
        return cmd, rc, out, err, changed

    def record(self, cls, tool, name, cmd, verdict, why=""):
        self.results.append({"class": cls, "tool": tool, "case": name, "verdict": verdict, "why": why,
                             "command": " ".join(cmd)})

    # A refusal is due: non-zero, and every fragment in the message.
    def refuse(self, cls, tool, name, args, fragments):
        cmd, rc, out, err, changed = self.run(tool, args)
        if rc is None:
            return self.record(cls, tool, name, cmd, "hang")
        crashed = rc < 0 or rc >= 128 or "Sanitizer" in err or "terminate called" in err or \
            "Segmentation" in err or "Aborted" in err
        if crashed:
            return self.record(cls, tool, name, cmd, "crash", err[-300:])
        if changed:
            return self.record(cls, tool, name, cmd, "destroyed", ", ".join(changed))
        if rc == 0:
            return self.record(cls, tool, name, cmd, "silent", (out + err)[-300:])
        said = (err + out).lower()  # a tool's verdict line may be its standard output
        missing = [f for f in fragments if self.expand(f).lower() not in said]
        if missing:
            return self.record(cls, tool, name, cmd, "unclear", "lacks %s: %s" % (missing, err.strip()[-300:]))
        self.record(cls, tool, name, cmd, "ok")


# --- the classes --------------------------------------------------------------------

# Numeric options: (tool, option, the rest of a run that would otherwise work, bad
# values beyond BAD_VALUES: the range's edges).
NUMERIC = [
    ("umbra-as", "--registers", ["{prog}", "-o", "{dir}/o.elf"], ["0", "257"]),
    ("umbra-as", "--max-errors", ["{prog}", "-o", "{dir}/o.elf"], []),
    ("umbra-dis", "--base", ["-f", "bin", "{bin}"], ["2", "4294967296"]),
    ("umbra-sim", "--threads", ["--no-progress", "{prog}"], ["0", "257"]),
    ("umbra-sim", "--max-instructions", ["--no-progress", "{prog}"], ["0"]),
    ("umbra-sim", "--max-cycles", ["--no-progress", "--model", "systemc", "{prog}"], ["0"]),
    ("umbra-sim", "--mem-size", ["--no-progress", "{prog}"], ["0", "6", "3G"]),
    ("umbra-sim", "--trace-limit", ["--no-progress", "{prog}", "--trace", "{dir}/t.txt"], []),
    ("umbra-sim", "--wave-limit", ["--no-progress", "--model", "rtl", "{prog}", "--vcd", "{dir}/w"], []),
    ("umbra-sim", "--wave-from", ["--no-progress", "--model", "rtl", "{prog}", "--vcd", "{dir}/w"], []),
    ("umbra-sim", "--wave-to", ["--no-progress", "--model", "rtl", "{prog}", "--vcd", "{dir}/w"], []),
    ("umbra-sim", "--domain", ["--no-progress", "{prog}"], ["0", "0x4", "4x0", "4x4x4"]),
    ("umbra-sim", "--timeline-window", ["--no-progress", "--model", "systemc", "{prog}", "--timeline",
                                        "{dir}/t.svg"], ["5", "0:0", "5:-1"]),
    ("umbra-cosim", "--threads", ["{prog}"], ["0", "257"]),
    ("umbra-cosim", "--max-cycles", ["{prog}"], ["0"]),
    ("umbra-cosim", "--history", ["{prog}"], []),
    ("umbra-cosim", "--inject-iss", ["{prog}"], []),
    ("umbra-cosim", "--events-limit", ["--model", "rtl", "{prog}", "--events", "{dir}/e.txt"], []),
    ("umbra-cosim", "--wave-limit", ["{prog}", "--vcd", "{dir}/w"], []),
    ("umbra-cosim", "--domain", ["{prog}"], ["0", "4x0"]),
    ("umbra-systemc-run", "--threads", ["{prog}"], ["0", "257"]),
    ("umbra-systemc-run", "--max-cycles", ["{prog}"], ["0"]),
    ("umbra-systemc-run", "--events-limit", ["{prog}", "--events", "{dir}/e.txt"], []),
    ("umbra-randprog", "--seed", [], []),
    ("umbra-randprog", "--length", ["--seed", "1"], ["0", "100001"]),
    ("umbra-randprog", "--count", ["--seed", "1", "--run", "iss"], ["0"]),
    ("umbra-load", "--baud", ["-d", "{dir}/no-such-tty", "{prog}"], ["0"]),
    ("umbra-load", "--threads", ["-d", "{dir}/no-such-tty", "{prog}"], ["0"]),
    ("umbra-load", "--timeout", ["-d", "{dir}/no-such-tty", "{prog}"], ["0", "86401", "nan", "inf"]),
    ("umbra-directed", "--threads", ["{dir}/directed-out"], ["0", "65"]),
    ("sim_speed", "--threads", [], ["0", "9"]),
    ("sim_speed", "--repeat", [], ["0", "101"]),
    ("latency_hiding", "--fillers", [], ["2001"]),
    ("access_patterns", "--threads", [], ["0", "257"]),
    ("access_patterns", "--offsets", [], ["65537"]),
    ("queue_bench", "--threads", [], ["0", "8,", ",8", "8,,32"]),
    ("queue_bench", "--reads", [], ["0", "100001"]),
    ("queue_bench", "--writes", [], ["0", "100001"]),
    ("queue_bench", "--seed", [], []),
    ("cores_bench", "--cores", [], ["0", "65", "1,,2"]),
    ("cores_bench", "--lines", [], ["0", "4097"]),
    ("cores_bench", "--words", [], ["0", "65537"]),
    ("cores_bench", "--atomics", [], ["0", "65537"]),
    ("cores_bench", "--occupancy", [], ["0", "4x0", "x4"]),
    ("cores_bench", "--occupancy-cores", [], ["0", "65"]),
]


def probe_options(p):
    for tool, opt, rest, edges in NUMERIC:
        values = [v for v in BAD_VALUES + edges if not (opt == "--timeout" and v == "1.5")]  # seconds
        for v in values:
            # The form a user types (OPTION VALUE); OPTION=VALUE where the value starts with '-'.
            given = [opt + "=" + v] if v.startswith("-") else [opt, v]
            p.refuse("option values", tool, "%s %r" % (opt, v), rest + given, [opt])


# Configurations a user could hand a tool: {name: (text or None for "no such file",
# the fragments its refusal must hold besides the file's name)}.
BAD_CONFIGS = {
    "missing file": (None, ["No such file or directory"]),
    "a directory": ("<dir>", ["directory"]),
    "empty": ("", ["empty"]),
    "two documents": ("core:\n  threads: 8\n---\ncore:\n  threads: 4\n", ["document"]),
    "syntax error": ("core: [1, 2\n", ["end of sequence"]),
    "top level a list": ("- core\n- memory\n", ["mapping"]),
    "top level a scalar": ("hello\n", ["mapping"]),
    "section a scalar": ("core: 5\n", ["core", "mapping"]),
    "value a word": ("core:\n  threads: many\n", ["core.threads", ":2"]),
    "value negative": ("core:\n  threads: -8\n", ["core.threads"]),
    "value a fraction": ("core:\n  threads: 8.5\n", ["core.threads"]),
    "value huge": ("memory:\n  bytes: 99999999999999999999999\n", ["memory.bytes"]),
    "value out of range": ("core:\n  threads: 100000\n", ["core.threads"]),
    "value a list": ("core:\n  threads: [8]\n", ["core.threads"]),
    "unknown key": ("core:\n  thredas: 8\n", ["thredas"]),
    "unknown section": ("cor:\n  threads: 8\n", ["cor"]),
    "binary": ("\x7fELF\x01\x01\x00\x00\xff\xfe", []),
}

CONFIG_TOOLS = [
    ("umbra-as", ["{prog}", "-o", "{dir}/o.elf", "--config", "{badcfg}"]),
    ("umbra-sim", ["--no-progress", "--config", "{badcfg}", "{prog}"]),
    ("umbra-cosim", ["--config", "{badcfg}", "{prog}"]),
    ("umbra-systemc-run", ["--config", "{badcfg}", "{prog}"]),
    ("umbra-randprog", ["--seed", "1", "--config", "{badcfg}"]),
    ("umbra-examples", ["--config", "{badcfg}", "--dir", os.path.join(ROOT, "examples"), "sum"]),
    ("umbra-config", ["{badcfg}"]),
    ("latency_hiding", ["--config", "{badcfg}"]),
    ("access_patterns", ["--config", "{badcfg}"]),
    ("queue_bench", ["--config", "{badcfg}"]),
    ("cores_bench", ["--config", "{badcfg}"]),
]


def probe_configs(p):
    os.makedirs(os.path.join(p.dir, "cfgdir"), exist_ok=True)
    for name, (text, fragments) in BAD_CONFIGS.items():
        if text is None:
            path = os.path.join(p.dir, "missing.yaml")
        elif text == "<dir>":
            path = os.path.join(p.dir, "cfgdir")
        else:
            path = p.write("bad-%s.yaml" % name.replace(" ", "-"), text)
        for tool, args in CONFIG_TOOLS:
            p.refuse("config messages", tool, name, [a.replace("{badcfg}", path) for a in args],
                     [os.path.basename(path)] + fragments)


# The same fault on every model: umbra-sim's four, umbra-systemc-run, umbra-cosim's two sides.
def probe_faults(p):
    for name, (src, reason, config) in FAULTS.items():
        prog = p.write("fault-%s.s" % name, src)
        cfg, cosim, models = [], "umbra-cosim", ("iss", "systemc", "rtl", "cosim")
        if config:
            elf = os.path.join(p.dir, "fault-%s.elf" % name)
            subprocess.run([p.tool("umbra-as"), prog, "-o", elf], check=True, capture_output=True)
            prog, cfg = elf, ["--config", os.path.join(ROOT, "configs", config + ".yaml")]
            cosim, models = "umbra-cosim-" + config, ("iss", "systemc")
        iss_line = None
        for model in models:
            cmd, rc, out, err, _ = p.run("umbra-sim", ["--no-progress", "--threads", "1", "--model", model] +
                                         cfg + [prog])
            line = next((l for l in err.splitlines() if "fault: " in l), "")
            line = line.split(" (cycle ")[0]
            if rc is None:
                p.record("fault reasons", "umbra-sim", "%s %s" % (name, model), cmd, "hang")
            elif rc == 0 or reason not in line:
                p.record("fault reasons", "umbra-sim", "%s %s" % (name, model), cmd, "silent" if rc == 0 else
                         "unclear", line or err[-300:])
            elif iss_line is not None and line != iss_line:
                p.record("fault reasons", "umbra-sim", "%s %s" % (name, model), cmd, "unclear",
                         "differs from the ISS's: %r vs %r" % (line, iss_line))
            else:
                p.record("fault reasons", "umbra-sim", "%s %s" % (name, model), cmd, "ok")
            if model == "iss":
                iss_line = line
        p.refuse("fault reasons", "umbra-systemc-run", name, ["--threads", "1"] + cfg + [prog], [reason])
        cmd, rc, out, err, _ = p.run(cosim, ["--threads", "1"] + cfg + [prog])
        sides = [l for l in (out + err).splitlines() if l.strip().startswith(("rtl:", "systemc:"))]
        ok = rc is not None and len(sides) == 2 and all(reason in l for l in sides)
        p.record("fault reasons", cosim, name, cmd, "ok" if ok else "hang" if rc is None else "unclear",
                 "" if ok else (out + err)[-300:])


# Outputs onto inputs by spellings the ctest does not try: a hard link, a ../ path, a
# symlink to the included file.
def probe_outputs(p):
    os.link(p.files["{prog}"], os.path.join(p.dir, "hard.s"))
    os.symlink(p.files["{inc}"], os.path.join(p.dir, "inc-link.s"))
    os.link(p.files["{cfg}"], os.path.join(p.dir, "hard.yaml"))
    up = os.path.join(p.dir, "sub", "..")
    os.makedirs(os.path.join(p.dir, "sub"), exist_ok=True)
    writers = [
        ("umbra-as", ["{prog}", "-o", "{O}"], ["{prog}", "--config", "{cfg}", "-o", "{O}"]),
        ("umbra-sim", ["--no-progress", "{prog}", "--stats-json", "{O}"],
         ["--no-progress", "--config", "{cfg}", "{prog}", "--trace", "{O}"]),
        ("umbra-cosim", ["--model", "rtl", "{prog}", "--events", "{O}"],
         ["--model", "rtl", "--config", "{cfg}", "{prog}", "--events", "{O}"]),
        ("umbra-systemc-run", ["{prog}", "--memory-out", "{O}"], ["--config", "{cfg}", "{prog}", "--events", "{O}"]),
        ("umbra-load", ["{prog}", "-d", "{O}"], None),
    ]
    for tool, with_prog, with_cfg in writers:
        for name, out in (("hard link to the program", "{dir}/hard.s"),
                          ("../ spelling of the program", up + "/p.s"),
                          ("symlink to the included file", "{dir}/inc-link.s")):
            p.refuse("output paths", tool, name, [a.replace("{O}", out) for a in with_prog], ["refusing"])
        if with_cfg:
            for name, out in (("hard link to the configuration", "{dir}/hard.yaml"),
                              ("../ spelling of the configuration", up + "/cfg.yaml")):
                p.refuse("output paths", tool, name, [a.replace("{O}", out) for a in with_cfg], ["refusing"])
    p.refuse("output paths", "umbra-randprog", "hard link to the configuration",
             ["--seed", "1", "--config", "{cfg}", "-o", "{dir}/hard.yaml"], ["refusing"])
    os.link(p.files["{elf}"], os.path.join(p.dir, "hard.elf"))
    p.refuse("output paths", "umbra-dis", "hard link to the image", ["{elf}", "-o", "{dir}/hard.elf"], ["refusing"])
    p.refuse("output paths", "umbra-isagen", "../ spelling of the description",
             ["{isa}", "--markdown", up + "/isa.yaml"], ["refusing"])
    os.link(p.files["{cmdy}"], os.path.join(p.dir, "hard-cmd.yaml"))
    p.refuse("output paths", "umbra-cmdgen", "hard link to the description",
             ["{cmdy}", "--markdown", "{dir}/hard-cmd.yaml"], ["refusing"])


# Waveform, trace and window options that conflict or point outside the run.
def probe_windows(p):
    rtl = ["--no-progress", "--model", "rtl", "{prog}"]
    cases = [
        ("umbra-sim", "from after to", rtl + ["--vcd", "{dir}/w", "--wave-from", "10", "--wave-to", "5"],
         ["--wave-from"]),
        ("umbra-sim", "window without a waveform", rtl + ["--wave-from", "3"], ["--wave-from"]),
        ("umbra-sim", "limit without a waveform", rtl + ["--wave-limit", "1K"], ["--wave-limit"]),
        ("umbra-sim", "vcd and fst", rtl + ["--vcd", "{dir}/a", "--fst", "{dir}/b"], ["--vcd", "--fst"]),
        ("umbra-sim", "waves on the iss", ["--no-progress", "{prog}", "--vcd", "{dir}/w"], ["--vcd"]),
        ("umbra-sim", "timeline on the iss", ["--no-progress", "{prog}", "--timeline", "{dir}/t.svg"],
         ["--timeline"]),
        ("umbra-sim", "timeline window past the run",
         ["--no-progress", "--model", "systemc", "{prog}", "--timeline", "{dir}/t.svg", "--timeline-window",
          "100000:64"], ["--timeline-window"]),
        ("umbra-sim", "trace limit without a trace", ["--no-progress", "{prog}", "--trace-limit", "1K"],
         ["--trace-limit"]),
        ("umbra-sim", "threads and domain", ["--no-progress", "{prog}", "--threads", "2", "--domain", "4"],
         ["--threads", "--domain"]),
        ("umbra-sim", "dump a label of the text", ["--no-progress", "{prog}", "--dump-mem", "_start:4"], ["_start"]),
        ("umbra-sim", "image of a text label", ["--no-progress", "{prog}", "--show-image", "_start:2x2"], ["_start"]),
        ("umbra-sim", "dump of an unknown symbol", ["--no-progress", "{prog}", "--dump-mem", "nosuch:4"], ["nosuch"]),
        ("umbra-cosim", "events without rtl", ["{prog}", "--events", "{dir}/e.txt"], ["--events"]),
        ("umbra-cosim", "events limit without events", ["--model", "rtl", "{prog}", "--events-limit", "1K"],
         ["--events-limit"]),
        ("umbra-cosim", "run without example", ["{prog}", "--run", "0"], ["--run"]),
        ("umbra-cosim", "from after to", ["{prog}", "--vcd", "{dir}/w", "--wave-from", "9", "--wave-to", "2"],
         ["--wave-from"]),
        ("umbra-cosim", "a fault of an unknown kind", ["{prog}", "--inject-fault", "5:nosuch"], ["nosuch"]),
        ("umbra-cosim", "a fault in a core the system lacks", ["{prog}", "--inject-fault", "5:issue:9"], ["9"]),
        ("umbra-systemc-run", "events limit without events", ["{prog}", "--events-limit", "1K"], ["--events-limit"]),
        ("umbra-randprog", "run without a model", ["--seed", "1", "--run", "nosuch"], ["--run"]),
        ("umbra-config", "unknown top", ["{cfg}", "--top", "nosuch"], ["nosuch"]),
        ("umbra-examples", "unknown example", ["--dir", os.path.join(ROOT, "examples"), "nosuch"], ["nosuch"]),
        ("cores_bench", "unknown experiment", ["--only", "nosuch"], ["nosuch"]),
        ("queue_bench", "csv and json one file", ["--csv", "{dir}/x", "--json", "{dir}/x"], ["same file"]),
    ]
    for tool, name, args, fragments in cases:
        p.refuse("conflicts and windows", tool, name, args, fragments)


CLASSES = {
    "option values": probe_options,
    "config messages": probe_configs,
    "fault reasons": probe_faults,
    "output paths": probe_outputs,
    "conflicts and windows": probe_windows,
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("build")
    ap.add_argument("--only", choices=sorted(CLASSES))
    ap.add_argument("--json", help="write every case and its verdict here")
    ap.add_argument("--timeout", type=float, default=60)
    a = ap.parse_args()
    p = Probe(os.path.abspath(a.build), a.timeout)
    try:
        for name, fn in CLASSES.items():
            if a.only in (None, name):
                fn(p)
    finally:
        shutil.rmtree(p.dir, ignore_errors=True)
    verdicts = Counter(r["verdict"] for r in p.results)
    by_class = defaultdict(Counter)
    by_tool = defaultdict(Counter)
    for r in p.results:
        by_class[r["class"]][r["verdict"]] += 1
        by_tool[r["tool"]][r["verdict"]] += 1
    kinds = ["ok", "unclear", "silent", "destroyed", "hang", "crash"]
    print("| class | cases | " + " | ".join(kinds[1:]) + " |")
    print("|---|---:|" + "---:|" * (len(kinds) - 1))
    for c, n in by_class.items():
        print("| %s | %d | " % (c, sum(n.values())) + " | ".join(str(n[k]) for k in kinds[1:]) + " |")
    print()
    print("| tool | cases | " + " | ".join(kinds[1:]) + " |")
    print("|---|---:|" + "---:|" * (len(kinds) - 1))
    for t in sorted(by_tool):
        n = by_tool[t]
        print("| %s | %d | " % (t, sum(n.values())) + " | ".join(str(n[k]) for k in kinds[1:]) + " |")
    print("\n%d cases: %s" % (len(p.results), ", ".join("%d %s" % (verdicts[k], k) for k in kinds)))
    bad = [r for r in p.results if r["verdict"] != "ok"]
    for r in bad:
        print("\n%s [%s] %s: %s\n  %s\n  %s" % (r["verdict"].upper(), r["class"], r["tool"], r["case"],
                                              r["command"], r["why"]))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(p.results, f, indent=1)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
