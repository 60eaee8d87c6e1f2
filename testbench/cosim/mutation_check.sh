#!/usr/bin/env bash
# mutation_check.sh MUTANT_TEST: shows that the cosimulation catches a real RTL bug, not
# only the injected event faults of cosim_test.  MUTANT_TEST is directed_cosim_test
# linked with the cosimulation of a broken copy of the RTL, which the build makes
# beside the real one (harness/cosim/CMakeLists.txt: one line of rtl/execute.v
# changed so that sleu computes "less than" and forgets "or equal").  It requires:
#   - the directed test of `sleu` to FAIL, with a mismatch in a register write's value
#     at an `sleu` instruction (the RTL against the SystemC model);
#   - the directed test of `sltu` (the unbroken neighbour) to pass.
# The ctest `cosim_mutation` runs it.
set -euo pipefail
if [ $# -ne 1 ] || [ ! -x "$1" ]; then
  echo "usage: $0 MUTANT_TEST (the build's testbench/directed/directed_cosim_test-mutant)" >&2
  exit 2
fi
test_bin="$1"

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
