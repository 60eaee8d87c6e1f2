#!/usr/bin/env python3
"""campaign.py: the mutation campaign of docs/verification.md -- does the cosimulation
catch real bugs planted in the RTL and in the SystemC model?

For each mutant of the sample mutate.py draws (same seed, same sample), it plants the one
changed line in a scratch copy of the tracked tree, rebuilds the cosimulation there and
runs the screening set:
  directed   testbench/directed: every instruction's program under cosim (Isa/Cosim.*)
  memory     the directed memory-system programs under cosim (Memory/Cosim.*)
  faults     cosim_test's fault programs (FAULT_TESTS): illegal encodings, bad jumps
  examples   a few example manifests under umbra-cosim
  random     20 constrained-random seeds under cosim (umbra-randprog --run cosim)
  queue      testbench/memsys: the reorder queue alone against its model, 3 builds
  systemc    (SystemC mutants only) the SystemC model's own unit tests: its timing
             rules, its statistics, the data cache and the queue alone, the run API,
             the model under the SystemC kernel (its ports on signals, sc_start), the
             port protocol errors a bad memory causes
and, with --stage full, when the screen does not kill it, the bare RTL core reset in
the middle of runs, its fault outputs held after a fault and its directed programs
(core_bench --no-examples --random 0) and the cosim regression (every example,
the UP5K build's examples, 200 more random seeds, the fixed-memory path).
Outcomes: killed (a test failed; the first failing test is recorded), survived,
invalid (the mutant does not build or elaborate: not counted), timeout (the per-mutant
limit ran out: reported apart, not counted as killed).

Why one scratch tree: the copy is made once (DIR, with its build in DIR/build) and each
mutant only rewrites its one file and puts it back afterwards, so ninja rebuilds just
what that file feeds; the shared ccache (base_dir /work) turns the rebuild of the
unchanged original into cache hits.  Keep DIR under /work for that.  Results are
appended to a JSON-lines file as each mutant finishes, so an interrupted campaign
resumes where it stopped (mutants already in the file are skipped), and the Markdown
summary is rebuilt from that file.

  scripts/mutation/campaign.py --rtl 200 --systemc 100 --stage full          # the campaign
  scripts/mutation/campaign.py --rtl 6 --systemc 4 --stage screen            # a sample
  scripts/mutation/campaign.py --summary-only                                # table again
  scripts/mutation/campaign.py --rerun-survivors                             # after new tests
"""
import argparse
import datetime
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mutate  # noqa: E402

ROOT = mutate.ROOT
SCREEN_EXAMPLES = ["sum", "memcpy", "sort", "atomic_histogram"]
# cosim_test's programs that must fault (or must not), on every model alike: illegal
# encodings, jumps and fall-throughs at the instruction store's edges, misaligned jump
# targets, a memory fault.  The rest of cosim_test checks the checker itself.
FAULT_TESTS = ":".join(["RtlAlone.*", "Checker.ProgramFaultsAgreeOnBothModelsAndWithTheIss",
                        "Checker.IllegalEncodingsFaultIdenticallyOnEveryModel", "StoreEdgeFaults.*"])
# The assembler's refusal of a program whose data does not fit the configuration's
# memory: such an example is skipped, as the suite's SKIP_REGULAR_EXPRESSION does.
NOT_RUN = "would extend past the target's data memory"


def log(msg):
    print("[%s] %s" % (datetime.datetime.utcnow().strftime("%H:%M:%S"), msg), flush=True)


def tracked_files(root):
    out = subprocess.run(["git", "-C", root, "ls-files", "-z"], check=True, stdout=subprocess.PIPE).stdout
    return [p for p in out.decode().split("\0") if p]


def sync_tree(root, work):
    """Copies every tracked file whose content differs into work (so unchanged files keep
    their times and ninja leaves their outputs alone); returns a hash of the tree."""
    h = hashlib.sha1()
    copied = 0
    for rel in tracked_files(root):
        src = os.path.join(root, rel)
        if not os.path.isfile(src):
            continue
        with open(src, "rb") as f:
            data = f.read()
        h.update(rel.encode() + b"\0" + hashlib.sha1(data).digest())
        dst = os.path.join(work, rel)
        try:
            with open(dst, "rb") as f:
                same = f.read() == data
        except OSError:
            same = False
        if not same:
            # A new modification time, not the source's: a file restored after an
            # interrupted mutant must look newer than the outputs built from the mutant.
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copyfile(src, dst)
            shutil.copymode(src, dst)
            copied += 1
    return h.hexdigest()[:16], copied


def run(cmd, cwd, deadline, log_path):
    """(status, output) of one command under nice, killed (its whole process group) at the
    deadline; status None means it timed out."""
    left = deadline - time.monotonic()
    if left <= 0:
        return None, ""
    with open(log_path, "w") as out:
        p = subprocess.Popen(["nice", "-n", "19"] + cmd, cwd=cwd, stdout=out, stderr=subprocess.STDOUT,
                             start_new_session=True)
        try:
            status = p.wait(timeout=left)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
            status = None
    with open(log_path, errors="replace") as f:
        return status, f.read()


# The SystemC model's own unit tests (systemc/tests): what they check of the model
# (its cycle counts, statistics and blocks alone) no cosimulation compares.
SYSTEMC_TESTS = ["systemc_timing_test", "systemc_iss_compare_test", "umbra_systemc_run_test", "reorder_queue_test",
                 "memory_stats_test", "dcache_test", "systemc_kernel_test", "systemc_protocol_test"]


def assembles(build_dir, work, config, source):
    """Whether umbra-as takes SOURCE under CONFIG's extension groups (core.groups)."""
    out = os.path.join(build_dir, "campaign-probe.elf")
    r = subprocess.run([os.path.join(build_dir, "tools", "umbra-as"), "--config", config, source, "-o", out],
                       cwd=work, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return r.returncode == 0


def test_sets(work, stage, language):
    """[(name, command)] in the order they run: cheap and sharp first."""
    b = os.path.join(work, "build")
    directed = os.path.join(b, "testbench", "directed", "directed_cosim_test")
    memory = os.path.join(b, "testbench", "directed", "memory", "memory_directed_cosim_test")
    cosim = os.path.join(b, "tools", "umbra-cosim")
    randprog = os.path.join(b, "tools", "umbra-randprog")
    faults = os.path.join(b, "testbench", "cosim", "tests", "cosim_test")
    sets = [("directed", [directed, "--gtest_fail_fast", "--gtest_brief=1"]),
            ("memory", [memory, "--gtest_fail_fast", "--gtest_brief=1"]),
            ("faults", [faults, "--gtest_filter=" + FAULT_TESTS, "--gtest_fail_fast", "--gtest_brief=1"])]
    sets += [("example:" + e, [cosim, "--example", "examples/%s.yaml" % e]) for e in SCREEN_EXAMPLES]
    sets.append(("random:1..20", [randprog, "--seed", "1", "--count", "20", "--run", "cosim"]))
    # The reorder queue alone against its model, on a stream that reorders, fills and
    # forces (seconds; a queue mutant may need a start no program makes).
    sets += [("queue:" + q, [os.path.join(b, "testbench", "memsys", "reorder_queue_cosim" + q)])
             for q in ("", "_small", "_fcfs")]
    if language == "systemc":
        sets += [("systemc:" + t, [os.path.join(b, "systemc", "tests", t), "--gtest_fail_fast", "--gtest_brief=1"])
                 for t in SYSTEMC_TESTS]
    if stage == "full":
        # The bare RTL core (about a second): reset in the middle of runs (what a
        # reset-value mutant changes shows only when the pipeline holds something at
        # reset), the fault outputs held after a fault (a board reads them at any later
        # time; no cosim bench runs past a fault), its directed programs.
        sets.append(("core-bench", [os.path.join(b, "testbench", "core", "core_bench"), "--no-examples",
                                    "--random", "0"]))
        up5k = os.path.join(b, "tools", "umbra-cosim-ice40-up5k")
        randup5k = os.path.join(b, "tools", "umbra-randprog-ice40-up5k")
        examples = sorted(f[:-5] for f in os.listdir(os.path.join(work, "examples")) if f.endswith(".yaml"))
        sets += [("example:" + e, [cosim, "--example", "examples/%s.yaml" % e])
                 for e in examples if e not in SCREEN_EXAMPLES]
        # Only the examples the UP5K's extension groups can run (core.groups): the
        # assembler refuses the others, as the suite skips them.
        sets += [("up5k:" + e, [up5k, "--config", "configs/ice40-up5k.yaml", "examples/%s.s" % e])
                 for e in examples if assembles(b, work, "configs/ice40-up5k.yaml", "examples/%s.s" % e)]
        # The HX8K's build is the only one with the multiplier as shift-and-add rows
        # (fp_mul.v MUL_ROWS): without it those rows are code no cosim elaborates.
        hx8k = os.path.join(b, "tools", "umbra-cosim-ice40-hx8k")
        sets += [("hx8k:" + e, [hx8k, "--config", "configs/ice40-hx8k.yaml", "examples/%s.s" % e])
                 for e in examples]
        sets.append(("random:1001..1200", [randprog, "--seed", "1001", "--count", "200", "--run", "cosim"]))
        sets.append(("random-fixed:5001..5050", [randprog, "--seed", "5001", "--count", "50", "--run", "cosim",
                                                 "--config", "configs/fixed-memory.yaml"]))
        sets.append(("random-up5k:7001..7050", [randup5k, "--seed", "7001", "--count", "50", "--run", "cosim",
                                                "--config", "configs/ice40-up5k.yaml"]))
        sets.append(("random-hx8k:8001..8050", [os.path.join(b, "tools", "umbra-randprog-ice40-hx8k"),
                                                "--seed", "8001", "--count", "50", "--run", "cosim",
                                                "--config", "configs/ice40-hx8k.yaml"]))
        # The corners no other build reaches (configs/test-odd.yaml: 255 registers, a
        # 2-set direct-mapped cache).
        sets.append(("odd:directed", [os.path.join(b, "testbench", "directed", "directed_cosim_test-test-odd"),
                                      "--gtest_fail_fast", "--gtest_brief=1"]))
        sets.append(("random-odd:9001..9050", [os.path.join(b, "tools", "umbra-randprog-test-odd"),
                                               "--seed", "9001", "--count", "50", "--run", "cosim",
                                               "--config", "configs/test-odd.yaml"]))
    return sets


def targets(stage, language):
    t = ["umbra-cosim", "umbra-randprog", "directed_cosim_test", "memory_directed_cosim_test", "cosim_test",
         "reorder_queue_cosim", "reorder_queue_cosim_small", "reorder_queue_cosim_fcfs"]
    if language == "systemc":
        t += SYSTEMC_TESTS
    if stage == "full":
        t += ["umbra-as", "umbra-cosim-ice40-up5k", "umbra-randprog-ice40-up5k", "umbra-cosim-ice40-hx8k",
              "umbra-randprog-ice40-hx8k", "core_bench", "directed_cosim_test-test-odd",
              "umbra-randprog-test-odd"]
    return t


def first_failure(name, output):
    """A short name of what failed: the first failed gtest case, or the first failing seed
    or mismatch line of the command's output."""
    for line in output.splitlines():
        s = line.strip()
        if s.startswith("[  FAILED  ]") and "test" not in s.split("]")[1][:8]:
            return name + " " + s.split("]", 1)[1].strip().split(" ")[0].rstrip(","), s
    for line in output.splitlines():
        if line.startswith("seed ") and ": FAIL" in line:
            return "random seed " + line.split()[1], line.strip()[:300]
    for line in output.splitlines():
        if "FAIL" in line or "MISMATCH" in line or "mismatch" in line or "error" in line.lower():
            return name, line.strip()[:300]
    lines = [l for l in output.splitlines() if l.strip()]
    return name, (lines[-1].strip()[:300] if lines else "")


def configure(work, jobs_log):
    if os.path.exists(os.path.join(work, "build", "build.ninja")):
        return True
    cmd = ["cmake", "-S", work, "-B", os.path.join(work, "build"), "-G", "Ninja",
           "-DCMAKE_BUILD_TYPE=RelWithDebInfo"]
    if shutil.which("ccache"):
        cmd += ["-DCMAKE_CXX_COMPILER_LAUNCHER=ccache", "-DCMAKE_C_COMPILER_LAUNCHER=ccache"]
    status, out = run(cmd, work, time.monotonic() + 3600, jobs_log)
    if status != 0:
        sys.stderr.write(out[-3000:])
    return status == 0


def build(work, stage, language, jobs, deadline, log_path):
    return run(["ninja", "-C", os.path.join(work, "build"), "-j%d" % jobs] + targets(stage, language), work,
               deadline, log_path)


def evaluate(work, stage, language, jobs, deadline, logdir, tag):
    """(outcome, killer, detail) of the tree as it is now, with the tests for a mutant of
    `language` (rtl or systemc)."""
    status, out = build(work, stage, language, jobs, deadline, os.path.join(logdir, tag + ".build.log"))
    if status is None:
        return "timeout", "build", ""
    if status != 0:
        err = [l for l in out.splitlines() if "rror" in l or "%Error" in l]
        return "invalid", "build", (err[0] if err else out.strip().splitlines()[-1:] or [""])[0][:300]
    for name, cmd in test_sets(work, stage, language):
        safe = name.replace(":", "_").replace(".", "_")
        status, out = run(cmd, work, deadline, os.path.join(logdir, "%s.%s.log" % (tag, safe)))
        if status is None:
            return "timeout", name, ""
        if status != 0 and NOT_RUN in out:
            continue  # the example's data does not fit this configuration (as ctest skips it)
        if status != 0:
            killer, detail = first_failure(name, out)
            return "killed", killer, detail
    return "survived", "", ""


def load_results(path):
    done = {}
    if os.path.exists(path):
        with open(path) as f:
            for n, line in enumerate(f, 1):
                if line.strip():
                    try:
                        r = json.loads(line)
                    except ValueError:
                        sys.exit("campaign.py: %s:%d is not a JSON object; fix or remove that line" % (path, n))
                    done[r["id"]] = r
    return done


def load_equivalent(path):
    """{id: reason} from the reviewed list beside the results: one survivor per line, its
    id, then why no test can tell it from the original; '#' starts a comment."""
    eq = {}
    if os.path.exists(path):
        with open(path) as f:
            for n, line in enumerate(f, 1):
                line = line.split("#", 1)[0].strip()
                if not line:
                    continue
                parts = line.split(None, 1)
                if len(parts) < 2:
                    sys.exit("campaign.py: %s:%d: expected 'ID REASON'" % (path, n))
                eq[parts[0]] = parts[1]
    return eq


def summary(results, path, title, command, results_path):
    equivalent = load_equivalent(os.path.join(os.path.dirname(os.path.abspath(results_path)), "equivalent.txt"))
    rows = {}
    for r in results:
        b = rows.setdefault(r["block"], {"killed": 0, "survived": 0, "equivalent": 0, "invalid": 0, "timeout": 0})
        b["equivalent" if r["outcome"] == "survived" and r["id"] in equivalent else r["outcome"]] += 1

    def rate(k, s):
        return "%.0f%%" % (100.0 * k / (k + s)) if k + s else "-"

    lines = ["# %s" % title, "",
             "Generated by `scripts/mutation/campaign.py` from `%s`; rerun with:" % os.path.basename(results_path),
             "", "    " + command, "",
             "Kill rate = killed / (killed + survived); equivalent survivors (reviewed, listed with their reason "
             "in `equivalent.txt`), invalid mutants (do not build) and timeouts are not counted.",
             "", "| block | killed | survived | equivalent | invalid | timeout | kill rate |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    keys = ["killed", "survived", "equivalent", "invalid", "timeout"]
    tot = dict.fromkeys(keys, 0)
    for block in sorted(rows):
        b = rows[block]
        for k in tot:
            tot[k] += b[k]
        lines.append("| %s | %s | %s |" % (block, " | ".join(str(b[k]) for k in keys), rate(b["killed"], b["survived"])))
    lines.append("| **all** | %s | %s |" % (" | ".join(str(tot[k]) for k in keys), rate(tot["killed"], tot["survived"])))
    lines += ["", "| mutant | where | change | outcome | by |", "|---|---|---|---|---|"]
    for r in sorted(results, key=lambda r: (r["block"], r["line"])):
        change = "`%s` → `%s`" % (r["original"].strip().replace("|", "\\|"), r["mutated"].strip().replace("|", "\\|"))
        outcome, by = r["outcome"], r.get("killer", "").rstrip(",")
        if outcome == "survived" and r["id"] in equivalent:
            outcome, by = "equivalent", equivalent[r["id"]]
        lines.append("| %s | %s:%d [%s] | %s | %s | %s |" % (r["id"], r["file"], r["line"], r["kind"], change,
                                                              outcome, by.replace("|", "\\|")))
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def main(argv=None):
    ap = argparse.ArgumentParser(description="Mutation campaign: RTL and SystemC mutants against the cosimulation.")
    ap.add_argument("--seed", default="1", help="the sample's seed (mutate.py)")
    ap.add_argument("--rtl", type=int, default=200, help="RTL mutants")
    ap.add_argument("--systemc", type=int, default=100, help="SystemC mutants")
    ap.add_argument("--stage", choices=["screen", "full"], default="full",
                    help="screen: the quick set only; full: the cosim regression for what the screen misses")
    ap.add_argument("--work", default=os.path.join(ROOT, "build-mutation"),
                    help="scratch tree, its build in WORK/build (default: build-mutation/ here; keep it under "
                         "/work so ccache's base_dir shares the cache)")
    ap.add_argument("--results", default=None,
                    help="JSON-lines results (default: docs/mutation/results-seedSEED.jsonl, in the tree, so "
                         "that a campaign longer than one machine's life resumes from what is committed)")
    ap.add_argument("--summary", default=None, help="Markdown summary (default: docs/mutation/summary-seedSEED.md)")
    ap.add_argument("--timeout", type=float, default=1800, help="seconds per mutant, build and tests")
    ap.add_argument("--jobs", type=int, default=1, help="ninja -j")
    ap.add_argument("--limit", type=int, default=0, help="stop after this many new mutants (0: all)")
    ap.add_argument("--summary-only", action="store_true", help="only rewrite the summary from the results")
    ap.add_argument("--rerun-survivors", action="store_true",
                    help="also run again every mutant whose last result is 'survived' and that equivalent.txt "
                         "does not list (after a test was added for it); the new result is appended and counts")
    ap.add_argument("--no-baseline", action="store_true",
                    help="skip checking that the unmutated tree passes the tests first")
    a = ap.parse_args(argv)
    if a.rtl < 0 or a.systemc < 0 or a.timeout <= 0 or a.jobs < 1:
        ap.error("--rtl/--systemc must be >= 0, --timeout > 0, --jobs >= 1")
    work = os.path.abspath(a.work)
    results_path = a.results or os.path.join(ROOT, "docs", "mutation", "results-seed%s.jsonl" % a.seed)
    summary_path = a.summary or os.path.join(ROOT, "docs", "mutation", "summary-seed%s.md" % a.seed)
    os.makedirs(os.path.dirname(os.path.abspath(results_path)), exist_ok=True)
    command = "scripts/mutation/campaign.py --seed %s --rtl %d --systemc %d --stage %s" % (a.seed, a.rtl, a.systemc,
                                                                                          a.stage)
    sample = mutate.draw(ROOT, a.seed, a.rtl, a.systemc)
    ids = {m["id"] for m in sample}
    done = load_results(results_path)
    title = "Mutation campaign: %d of %d mutants (seed %s, stage %s)" % (
        len([i for i in ids if i in done]), len(sample), a.seed, a.stage)
    if a.summary_only:
        summary([done[i] for i in sorted(ids) if i in done], summary_path, title, command, results_path)
        print(open(summary_path).read())
        return 0

    os.makedirs(work, exist_ok=True)
    logdir = os.path.join(work, "logs")
    os.makedirs(logdir, exist_ok=True)
    tree, copied = sync_tree(ROOT, work)
    log("scratch tree %s (%d files copied), %d mutants, %d done" % (work, copied, len(sample),
                                                                    len([i for i in ids if i in done])))
    if not configure(work, os.path.join(logdir, "configure.log")):
        sys.exit("campaign.py: cmake failed in %s (see %s/configure.log)" % (work, logdir))
    marker = os.path.join(work, "baseline-%s-%s.ok" % (a.stage, tree))
    if not a.no_baseline and not os.path.exists(marker):
        log("baseline: building and testing the unmutated tree")
        # Every test a mutant of the sample may get (the SystemC unit tests when there are
        # SystemC mutants) must pass unmutated.
        language = "systemc" if any(m["language"] == "systemc" for m in sample) else "rtl"
        outcome, killer, detail = evaluate(work, a.stage, language, a.jobs, time.monotonic() + 4 * a.timeout, logdir,
                                           "baseline")
        if outcome != "survived":
            sys.exit("campaign.py: the unmutated tree does not pass (%s %s: %s); fix that first"
                     % (outcome, killer, detail))
        open(marker, "w").close()
        log("baseline: passes")

    # A later line of the results file replaces an earlier one of the same mutant
    # (load_results), so a survivor run again is recorded by appending.
    rerun = set()
    if a.rerun_survivors:
        equivalent = load_equivalent(os.path.join(os.path.dirname(os.path.abspath(results_path)), "equivalent.txt"))
        rerun = {i for i in ids if i in done and done[i]["outcome"] == "survived" and i not in equivalent}
        log("%d survivors to run again" % len(rerun))
    new = 0
    for n, m in enumerate(sample, 1):
        if m["id"] in done and m["id"] not in rerun:
            continue
        if a.limit and new >= a.limit:
            break
        log("%d/%d %s %s" % (n, len(sample), m["id"], mutate.describe(m)))
        start = time.monotonic()
        try:
            original = mutate.apply(work, m)
        except ValueError as e:
            log("  skipped: %s" % e)
            continue
        try:
            outcome, killer, detail = evaluate(work, a.stage, m["language"], a.jobs, start + a.timeout, logdir,
                                               m["id"])
        finally:
            with open(os.path.join(work, m["file"]), "w") as f:
                f.write(original)
        r = dict(m, outcome=outcome, killer=killer, detail=detail, stage=a.stage, tree=tree,
                 seconds=round(time.monotonic() - start, 1))
        with open(results_path, "a") as f:
            f.write(json.dumps(r, sort_keys=True) + "\n")
        done[m["id"]] = r
        new += 1
        log("  %s %s (%.0f s)%s" % (outcome, killer, r["seconds"], ": " + detail if detail else ""))
        title = "Mutation campaign: %d of %d mutants (seed %s, stage %s)" % (
            len([i for i in ids if i in done]), len(sample), a.seed, a.stage)
        summary([done[i] for i in sorted(ids) if i in done], summary_path, title, command, results_path)
    log("summary: %s" % summary_path)
    print(open(summary_path).read())
    return 0


if __name__ == "__main__":
    sys.exit(main())
