#!/bin/sh
# check_registered_tests.sh BUILD_DIR SOURCE_DIR -- the suite registered every test that
# needs a tool (Verilator, Icarus, Yosys, nextpnr): a missing tool must not leave a
# suite that is green with fewer tests.  Checks, in `ctest -N`'s list of BUILD_DIR:
# each rtl_check_* and fpga_* test by name, the board netlist benches' cases, every
# example manifest under the cosimulation and every example program under each
# variant's cosimulation (counted from SOURCE_DIR's examples/), and test cases of every Verilated test binary.  Registered by
# testbench/cosim/tests/CMakeLists.txt unless UMBRA_REQUIRE_RTL_TOOLS is OFF.
set -eu
build=$1
src=$2
list=$(ctest --test-dir "$build" -N | sed -n 's/^ *Test *#[0-9]*: //p')
fail=0
need() {  # need PATTERN MIN WHAT
  n=$(printf '%s\n' "$list" | grep -c -E "$1" || true)
  if [ "$n" -lt "$2" ]; then
    echo "missing: $3: $n test(s) match '$1', expected at least $2"
    fail=1
  fi
}
for t in rtl_check_fpu rtl_check_fpu_mul_rows rtl_check_fpu_deep rtl_check_reorder_queue \
         rtl_check_reorder_queue_small rtl_check_core_fpga rtl_check_core_deep rtl_check_system \
         rtl_check_depth_refusals rtl_check_sdram_controller rtl_check_sdram_controller_line \
         fpga_synth_top_lint fpga_synth_top_sim fpga_pnr; do
  need "^$t\$" 1 "$t"
done
# The SDRAM controller driving the chip model (testbench/sdram): three builds with every
# case, two broken ones.
need '^sdram_controller_test(_line|_small)?\.SdramController\.' 21 "the SDRAM controller benches' cases"
need '^sdram_controller_test_broken(_refresh)?\.SdramController\.BrokenTimingIsCaughtByTheChip$' 2 \
     "the SDRAM controller's broken-timing builds"
manifests=$(ls "$src"/examples/*.yaml | wc -l)
programs=$(ls "$src"/examples/*.s | wc -l)
need '^cosim_examples_' "$manifests" "an example manifest under the cosimulation"
need '^Checker\.' 10 "cosim_test's checker cases"
need '^StoreEdgeFaults\.' 4 "cosim_test's fault programs at the instruction store's edges"
need '^Isa/Cosim\.' 70 "directed_cosim_test's per-instruction programs"
# The variants of harness/cosim/CMakeLists.txt: the two FPGA configurations, the
# deep pipeline, the odd corners and the core without the float groups, each with
# every example, every instruction's program and random seeds (an example or program
# needing a group the configuration lacks is registered and skips itself).
for v in up5k hx8k deep odd nofp; do
  need "^cosim_${v}_" "$programs" "an example program under the $v cosimulation"
  need "^$v/Isa/Cosim\\." 70 "the per-instruction programs under the $v cosimulation"
  need "^random_cosim_$v\$" 1 "the random seeds under the $v cosimulation"
done
# Several cores: two and four have everything, eight the examples.
for v in cores2 cores4; do
  need "^cosim_${v}_" "$programs" "an example program under the $v cosimulation"
  need "^$v/Isa/Cosim\\." 70 "the per-instruction programs under the $v cosimulation"
  need "^random_cosim_$v\$" 1 "the random seeds under the $v cosimulation"
  need "^$v/Cores\\." 6 "cosim_${v}_test's cases"
done
need "^cosim_cores8_" "$programs" "an example program under the 8-core cosimulation"
# The line port on one and two cores: the examples, the directed memory programs and
# random seeds; on four the examples.
for v in lineport lineport2; do
  need "^cosim_${v}_" "$programs" "an example program under the $v cosimulation"
  need "^$v/Memory/Cosim\\." 10 "the directed memory programs under the $v cosimulation"
  need "^random_cosim_$v\$" 1 "the random seeds under the $v cosimulation"
done
need '^Memory/Cosim\.' 10 "memory_directed_cosim_test"
# The board tops' synthesized netlists with the iCE40 cell models (fpga/tests): the
# directed cases and at least one example each.
need '^netlist\.BoardSim\.' 6 "fpga_board_netlist_sim's directed cases"
need '^netlist\.Examples/BoardExamples\.' 1 "an example on the iCEBreaker top's netlist"
need '^netlist\.hx8k\.BoardSim\.' 6 "fpga_board_netlist_sim_hx8k's directed cases"
need '^netlist\.hx8k\.Examples/BoardExamples\.' 1 "an example on the HX8K breakout top's netlist"
total=$(printf '%s\n' "$list" | wc -l)
if [ "$fail" -ne 0 ]; then
  echo "check_registered_tests: $total tests registered; the suite is incomplete (a tool missing at configure?)"
  exit 1
fi
echo "check_registered_tests: $total tests registered, every tool-dependent test present"
