// umbra-config: prints a machine configuration (configs/*.yaml) as it was loaded, so
// that scripts take their numbers from the YAML through the one strict loader the
// simulators use, instead of restating them or parsing YAML themselves.
//
//   umbra-config FILE                   every setting, `key=value`, YAML key names
//   umbra-config --verilog-params FILE  parameters of fpga/synth_top.v, `NAME=VALUE`
//
// fpga/build.sh reads both.  A bad file is reported as the loader words it (file, line,
// what is wrong) and the exit status is 1.
#include <CLI/CLI.hpp>
#include <iostream>

#include "umbra/config.h"

int main(int argc, char** argv) {
  CLI::App app{"umbra-config: print a machine configuration's settings or its RTL parameters"};
  std::string path;
  bool verilog = false;
  app.add_option("config", path, "configuration file (configs/*.yaml)")->required();
  app.add_flag("--verilog-params", verilog, "print the FPGA top's Verilog parameters, NAME=VALUE per line");
  CLI11_PARSE(app, argc, argv);

  umbra::Config c;
  try {
    c = umbra::load_config(path);
  } catch (const std::exception& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
  if (verilog) {
    // An FPGA without DSP blocks gets the multiplier as rows of logic (rtl/fp_mul.v).
    const int mul_rows = !c.fpga_device.empty() && !c.fpga_dsp ? 1 : 0;
    // Word-addressed on-chip memory: the core sends byte addresses, the top keeps words.
    std::cout << "THREADS=" << c.threads << "\n"
              << "REGS=" << c.registers << "\n"
              << "IMEM_WORDS=" << c.imem_words << "\n"
              << "MEM_WORDS=" << c.mem_bytes / 4 << "\n"
              << "MEM_LATENCY=" << c.mem_latency << "\n"
              << "CACHE_BYTES=" << c.cache_bytes << "\n"
              << "CACHE_WAYS=" << c.cache_ways << "\n"
              << "CACHE_LINE_BYTES=" << c.cache_line_bytes << "\n"
              << "REQ_QUEUE=" << c.cache_request_queue << "\n"
              << "MUL_ROWS=" << mul_rows << "\n";
    return 0;
  }
  std::cout << "name=" << c.name << "\n"
            << "cores=" << c.cores << "\n"
            << "core.threads=" << c.threads << "\n"
            << "core.registers=" << c.registers << "\n"
            << "core.imem_words=" << c.imem_words << "\n"
            << "memory.bytes=" << c.mem_bytes << "\n"
            << "memory.latency=" << c.mem_latency << "\n"
            << "fpga.device=" << c.fpga_device << "\n"
            << "fpga.package=" << c.fpga_package << "\n"
            << "fpga.clock_mhz=" << c.fpga_clock_mhz << "\n"
            << "fpga.dsp=" << (c.fpga_dsp ? "true" : "false") << "\n"
            << "fpga.board=" << c.fpga_board << "\n";
  return 0;
}
