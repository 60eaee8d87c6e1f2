#!/usr/bin/env bash
# mutation_check.sh: shows that the cosimulation catches a real RTL bug, not only the
# injected event faults of cosim_test.  It copies the source tree to a temporary
# directory, breaks one line of rtl/execute.v there (sleu computes "less than" and
# forgets "or equal"), builds the cosimulation for the broken RTL and requires:
#   - the directed test of `sleu` to FAIL, with a mismatch in a register write's value
#     at an `sleu` instruction (the RTL against the SystemC model);
#   - the directed test of `sltu` (the unbroken neighbour) to pass.
# A fresh build with Verilator takes several minutes on two cores, so it is the ctest
# `cosim_mutation` under the label slow (`ctest -LE slow` leaves it out), or run by hand.  The tree it checks is
# the working tree's tracked files.
set -euo pipefail
src="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/umbra-mutation.XXXXXX")"
trap 'rm -rf "$work"' EXIT

(cd "$src" && git ls-files -z | xargs -0 cp --parents -t "$work")
good='(x1_op == `UMBRA_OP_SLE) || (x1_op == `UMBRA_OP_SLEU);'  # the ops whose bit takes eq
bad='(x1_op == `UMBRA_OP_SLE);'
if ! grep -qF "$good" "$work/rtl/execute.v"; then
  echo "mutation_check: rtl/execute.v no longer has the line this check breaks:" >&2
  echo "  $good" >&2
  echo "update the mutation in $0" >&2
  exit 1
fi
python3 - "$work/rtl/execute.v" "$good" "$bad" <<'PY'
import sys
path, good, bad = sys.argv[1:]
text = open(path).read()
open(path, "w").write(text.replace(good, bad, 1))
PY

cmake -S "$work" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >"$work/configure.log" 2>&1 ||
  { cat "$work/configure.log" >&2; exit 1; }
ninja -C "$work/build" directed_cosim_test >"$work/build.log" 2>&1 || { tail -50 "$work/build.log" >&2; exit 1; }
test_bin="$work/build/testbench/directed/directed_cosim_test"

status=0
out="$("$test_bin" --gtest_filter='Isa/Cosim.RtlSystemcAndIssAgree/sleu' 2>&1)" || status=$?
if [ "$status" -eq 0 ]; then
  echo "mutation_check: FAILED: the broken sleu passed its directed test" >&2
  exit 1
fi
if ! grep -q 'field value (regwrite)' <<<"$out" || ! grep -q 'instruction: pc 0x[0-9a-f]*: sleu ' <<<"$out"; then
  echo "mutation_check: FAILED: sleu failed, but not with a regwrite value mismatch at an sleu:" >&2
  echo "$out" >&2
  exit 1
fi
"$test_bin" --gtest_filter='Isa/Cosim.RtlSystemcAndIssAgree/sltu' >/dev/null 2>&1 ||
  { echo "mutation_check: FAILED: sltu, which the mutation leaves alone, failed too" >&2; exit 1; }
grep -m1 'cosim MISMATCH' <<<"$out"
grep -m1 'instruction: pc' <<<"$out"
echo "mutation_check: the broken sleu was caught; sltu still passes"
