#!/usr/bin/env python3
# compare_report.py: holds the committed characterization report to the models.  The
# ctest characterization_report (bench/check_report.sh) regenerates the report on the
# small budget, which runs a subset of the full budget's points with the same
# parameters, and calls this script on the result: every row the small run wrote must
# equal, column by column and byte for byte, the committed row with the same key
# columns.  A change in the models that moves a cycle-count figure therefore fails the
# suite until the report is regenerated (bench/report.sh) and committed; without this,
# docs/characterization.md could quote figures the models no longer produce.
#
#   bench/compare_report.py NEW_DIR COMMITTED_DIR
#   bench/compare_report.py --self-test COMMITTED_DIR
#
# NEW_DIR is the small run's OUT/characterization, COMMITTED_DIR normally
# docs/characterization.  Exit status 0 when every row matches, 1 with one line per
# moved value (figure, row key, column, committed and regenerated value) otherwise.
# --self-test (ctest characterization_report_compare) plants changes in copies of
# COMMITTED_DIR and fails unless each is caught and an unchanged copy passes: the
# comparison's own teeth, checked without running a bench.
import csv
import io
import os
import shutil
import sys
import tempfile
from contextlib import redirect_stderr, redirect_stdout

# The columns that name a point (its parameters) in each CSV the report writes; the
# other columns are what the point measured or predicted and are compared.  A CSV
# without an entry here fails the check: whoever adds a figure says what its key is.
KEYS = {
    "clock_back_to_back": ["experiment", "model", "T", "active", "thread", "start_offset"],
    "access_patterns": ["model", "queue_mode", "pattern", "stride", "op", "active", "T", "fillers"],
    "access_patterns_fmadd": ["model", "queue_mode", "pattern", "stride", "op", "active", "T", "fillers"],
    "atomic_offsets": ["model", "queue_mode", "pattern", "stride", "op", "active", "T", "fillers"],
    "latency_hiding_ipc": ["model", "case", "N", "active", "T"],
    "latency_hiding_hide": ["model", "case", "N", "active", "T"],
    "latency_hiding_atomic": ["model", "case", "N", "active", "T"],
    "queue_bandwidth": ["threads", "kind", "stream"],
    "queue_passes": ["threads", "kind", "stream"],
    "timeline": ["thread"],
    "cores": ["experiment", "cores", "mode"],
    "cores_scaling": ["cores"],
    "cores_streams": ["cores"],
    "cores_counters": ["cores"],
    "cores_kernels": ["issues"],
    "issue_rate_reuse": ["experiment", "op", "form", "regs", "ways", "active", "T", "L"],
    "issue_rate_ops": ["experiment", "op", "form", "regs", "ways", "active", "T", "L"],
    "issue_rate_threads": ["experiment", "op", "form", "regs", "ways", "active", "T", "L"],
    "divergence": ["experiment", "op", "form", "regs", "ways", "active", "T", "L"],
    "kernels_vm": ["kernel", "size"],
    "kernels_flame": ["machine", "walks", "points", "kernel"],
}

# Figures whose columns are per core count (ipc_N, predicted_N, stop_start_N): the
# small budget measures fewer core counts, so its columns are a subset of the
# committed ones.  Every other CSV must have the committed header exactly.
WIDE = {"cores_kernels"}

# Columns that are not cycle counts (nor computed from them) and differ from run to
# run: never compared.  None of the CSVs holds one today; the simulators' speeds
# (sim_speed, compare_sim_speed.sh) are tables in characterization.md only, which
# this script does not read.  Name such a column here, with why, if a CSV gains one.
EXCLUDED = set()

# Figures drawn from the run's cycles alone, with no command line or path in them,
# compared whole.  The gnuplot SVGs are not: each carries the command that made it,
# which names the small budget's parameters; their data is their CSV, compared above.
WHOLE = ["timeline.svg"]

REGENERATE = ("the committed report is stale against the models: regenerate it with the full budget,\n"
              "  bench/report.sh                                  (builds the benches into build/), or\n"
              "  bench/report.sh --no-build --build BUILD_DIR     (a build that is up to date)\n"
              "and commit docs/characterization.md and docs/characterization/ with the change that moved them")
MAX_LINES = 20  # per figure: a model change can move hundreds of rows


def read(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if not rows:
        return [], []
    return rows[0], rows[1:]


def compare_csv(name, new_path, old_path, problems):
    """Appends to problems a line per difference of one figure; returns rows compared."""
    keys = KEYS.get(name)
    if keys is None:
        problems.append(f"{name}.csv: no key columns declared in bench/compare_report.py KEYS")
        return 0
    new_head, new_rows = read(new_path)
    old_head, old_rows = read(old_path)
    for head, which in ((new_head, "regenerated"), (old_head, "committed")):
        missing = [k for k in keys if k not in head]
        if missing:
            problems.append(f"{name}.csv: the {which} CSV has no key column {', '.join(missing)}")
            return 0
    extra = [c for c in new_head if c not in old_head]
    if extra or (name not in WIDE and new_head != old_head):
        problems.append(f"{name}.csv: header changed: committed {','.join(old_head)}; "
                        f"regenerated {','.join(new_head)}")
        return 0

    def key_of(head, row):
        return tuple(row[head.index(k)] for k in keys)

    def key_text(k):
        return " ".join(f"{c}={v}" for c, v in zip(keys, k))

    old_by = {}
    for row in old_rows:
        if len(row) != len(old_head):
            problems.append(f"{name}.csv: committed row of {len(row)} fields under a header of {len(old_head)}: "
                            f"{','.join(row)}")
            return 0
        k = key_of(old_head, row)
        if k in old_by:
            # Two rows one key: the KEYS entry misses a parameter, and a match would be luck.
            problems.append(f"{name}.csv: two committed rows with {key_text(k)}; KEYS lacks a column")
            return 0
        old_by[k] = dict(zip(old_head, row))
    lines = []
    seen = set()
    for row in new_rows:
        if len(row) != len(new_head):
            lines.append(f"{name}.csv: regenerated row of {len(row)} fields under a header of {len(new_head)}")
            continue
        k = key_of(new_head, row)
        if k in seen:
            lines.append(f"{name}.csv: two regenerated rows with {key_text(k)}; KEYS lacks a column")
            continue
        seen.add(k)
        old = old_by.get(k)
        if old is None:
            # The small budget must be a subset of the full one, or this row is checked against nothing.
            lines.append(f"{name}.csv: row {key_text(k)} is not in the committed CSV "
                         "(a point the full budget does not run, or a new point)")
            continue
        for col, value in zip(new_head, row):
            if col in keys or col in EXCLUDED:
                continue
            if old[col] != value:
                lines.append(f"{name}.csv: row {key_text(k)}: {col} committed {old[col]}, now {value}")
    if len(lines) > MAX_LINES:
        more = len(lines) - MAX_LINES
        lines = lines[:MAX_LINES] + [f"{name}.csv: ... and {more} more differences"]
    problems.extend(lines)
    return len(new_rows)


def compare(new_dir, old_dir):
    new = sorted(f[:-4] for f in os.listdir(new_dir) if f.endswith(".csv"))
    old = sorted(f[:-4] for f in os.listdir(old_dir) if f.endswith(".csv"))
    problems = []
    # Both ways: a figure the report no longer writes must leave docs/ as well.
    for name in sorted(set(old) - set(new)):
        problems.append(f"{name}.csv: committed, but the report no longer writes it")
    for name in sorted(set(new) - set(old)):
        problems.append(f"{name}.csv: written by the report, but not committed")
    counts = {}
    for name in new:
        if name in old:
            n = len(problems)
            counts[name] = compare_csv(name, os.path.join(new_dir, name + ".csv"),
                                       os.path.join(old_dir, name + ".csv"), problems)
            if len(problems) == n and counts[name] == 0:
                problems.append(f"{name}.csv: the small run wrote no rows to compare")
    for f in WHOLE:
        a, b = os.path.join(new_dir, f), os.path.join(old_dir, f)
        if not os.path.exists(b):
            problems.append(f"{f}: not committed")
        elif open(a, "rb").read() != open(b, "rb").read():
            problems.append(f"{f}: differs from the committed figure (its cycles or its drawing moved)")
    if problems:
        print(f"compare_report: the regenerated figures differ from {old_dir}:", file=sys.stderr)
        for p in problems:
            print("  " + p, file=sys.stderr)
        moved = sorted({p.split(":")[0].rsplit(".", 1)[0] for p in problems})
        print(f"compare_report: {len(moved)} figure(s) differ: {' '.join(moved)}", file=sys.stderr)
        print("compare_report: " + REGENERATE, file=sys.stderr)
        return 1
    total = sum(counts.values())
    print(f"compare_report: {total} rows of {len(counts)} CSVs and {', '.join(WHOLE)} equal the committed report")
    return 0


def self_test(old_dir):
    """Each plant edits a copy of the committed report as a moved model would; the
    comparison must fail on it and name what the plant expects."""
    def edit(name, fn):
        def plant(d):
            path = os.path.join(d, name)
            with open(path, newline="") as f:
                lines = f.read().split("\n")
            fn(lines)
            with open(path, "w", newline="") as f:
                f.write("\n".join(lines))
        return plant

    def bump_field(lines, row, col):  # a measured value one unit in its last digit off
        fields = lines[row].split(",")
        v = fields[col]
        fields[col] = v[:-1] + str((int(v[-1]) + 1) % 10)
        lines[row] = ",".join(fields)

    plants = [
        ("a moved cycle count", edit("timeline.csv", lambda l: bump_field(l, 1, 3)),
         ["timeline.csv: row thread=", ": memory_bubbles committed"]),
        ("a moved ratio", edit("access_patterns.csv", lambda l: bump_field(l, 2, 8)),
         ["access_patterns.csv: row model=", " active=", ": core_cycles committed"]),
        ("a point the committed report lacks",
         edit("cores_counters.csv", lambda l: l.insert(len(l) - 1, "16," + l[1].split(",", 1)[1])),
         ["cores_counters.csv: row cores=16 is not in the committed CSV"]),
        ("a renamed column",
         edit("queue_passes.csv", lambda l: l.__setitem__(0, l[0].replace("max_passes", "bound"))),
         ["queue_passes.csv: header changed"]),
        ("a figure the report stopped writing", lambda d: os.remove(os.path.join(d, "cores_scaling.csv")),
         ["cores_scaling.csv: committed, but the report no longer writes it"]),
        ("a redrawn timeline", lambda d: open(os.path.join(d, "timeline.svg"), "a").write("<!-- -->\n"),
         ["timeline.svg: differs from the committed figure"]),
    ]
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for what, plant, expect in [("nothing", lambda d: None, None)] + plants:
            new_dir = os.path.join(tmp, "new")
            shutil.rmtree(new_dir, ignore_errors=True)
            shutil.copytree(old_dir, new_dir)
            plant(new_dir)
            err = io.StringIO()
            with redirect_stderr(err), redirect_stdout(io.StringIO()):
                status = compare(new_dir, old_dir)
            text = err.getvalue()
            # Every plant must be named (its figure, row key and column) and the way out given.
            if expect is None:
                ok = status == 0
            else:
                ok = status == 1 and all(e in text for e in expect + ["bench/report.sh"])
            verdict = "WRONG" if not ok else "passes" if expect is None else "caught"
            print(f"compare_report --self-test: {what}: {verdict}")
            if not ok:
                print(f"  expected {'a pass' if expect is None else repr(expect)}; status {status}, said:\n{text}")
                failed += 1
    return 1 if failed else 0


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--self-test":
        return self_test(sys.argv[2])
    if len(sys.argv) != 3:
        sys.exit("usage: bench/compare_report.py NEW_DIR COMMITTED_DIR | --self-test COMMITTED_DIR")
    return compare(sys.argv[1], sys.argv[2])


if __name__ == "__main__":
    sys.exit(main())
