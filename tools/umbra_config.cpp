// umbra-config: prints a machine configuration (configs/*.yaml) as it was loaded, and
// the RTL parameters it gives each top module, so that build scripts take their
// numbers from the YAML through the one strict loader the simulators use and the one
// key -> parameter table (umbra/rtl_params.h), instead of restating them or parsing
// YAML themselves.
//
//   umbra-config FILE                       every setting, `key=value`, YAML key names,
//                                           and fpga.synth_options, the synthesis options
//   umbra-config --verilog-params FILE      fpga/synth_top.v's parameters, `NAME=VALUE`
//   umbra-config --top MODULE [--format F] FILE
//                                           MODULE's parameters in form F:
//       lines      NAME=VALUE, one a line (the default)
//       cmake      NAME=VALUE;NAME=VALUE   (a CMake list: cmake/UmbraVerilate.cmake)
//       verilator  -GNAME=VALUE ...         (verilator, rtl/check_rtl.sh)
//       yosys      -set NAME VALUE ...      (yosys chparam: fpga/build.sh)
//       json       {"config":..., "name":..., "top":..., "params":{NAME: VALUE...}}
//   umbra-config --table                    the table itself: parameter, tops, keys, rule
//   umbra-config --verilog-defaults FILE    writes rtl/umbra_defaults.vh: each parameter's
//                                           value for the default machine, and the
//                                           core's parameter list (below)
//
// A bad file is reported as the loader words it (file, line, what is wrong) and the
// exit status is 1; an unknown module or format is a usage error (status 2).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "umbra/config.h"
#include "umbra/output_file.h"
#include "umbra/rtl_params.h"

namespace {

void print_table() {
  for (const umbra::RtlParam& p : umbra::rtl_param_table()) {
    std::string tops;
    for (const umbra::RtlModule& m : umbra::rtl_modules())
      if (p.applies_to(m.top)) tops += (tops.empty() ? "" : ",") + std::string(m.name);
    std::cout << p.name << "\t" << tops << "\t" << p.keys << "\t" << p.rule << "\n";
  }
}

// rtl/umbra_defaults.vh: the table's parameters for the default machine (Config{},
// configs/default.yaml's), so that no module header restates a default, and the
// parameters umbra_core takes as one list that every module holding a core declares
// (UMBRA_CORE_PARAMS) and passes on (UMBRA_CORE_PASS): a new core parameter is a row
// of isa/config_keys.yaml and its use, not an edit of every top on the way down.
std::string verilog_defaults() {
  const umbra::Config c;
  std::string o =
      "// Generated from isa/config_keys.yaml (the key -> RTL parameter table) by\n"
      "// umbra-config --verilog-defaults.  Do not edit: `cmake --build build --target isa-docs`.\n"
      "// UMBRA_DEFAULT_<P>: parameter P's value for the default machine (configs/default.yaml).\n"
      "// UMBRA_CORE_PARAMS: umbra_core's parameters from the configuration, declared with those\n"
      "// defaults by every module that holds a core; UMBRA_CORE_PASS passes them on by name.\n"
      "// UMBRA_<LIST>_PARAMS and _PASS: the same for the rows of a list (`list` in the YAML).\n"
      "`ifndef UMBRA_DEFAULTS_VH\n`define UMBRA_DEFAULTS_VH\n\n";
  std::vector<std::pair<std::string, std::pair<std::string, std::string>>> lists;  // name, {decl, pass}
  auto add = [&](const std::string& list, const char* name) {
    auto it = std::find_if(lists.begin(), lists.end(), [&](const auto& l) { return l.first == list; });
    if (it == lists.end()) it = lists.insert(lists.end(), {list, {}});
    auto& [decl, pass] = it->second;
    decl += std::string(decl.empty() ? "" : ", \\\n") + "    parameter integer " + name +
            " = `UMBRA_DEFAULT_" + name;
    pass += std::string(pass.empty() ? "" : ", \\\n") + "    ." + name + "(" + name + ")";
  };
  for (const umbra::RtlParam& p : umbra::rtl_param_table()) {
    o += "`define UMBRA_DEFAULT_" + std::string(p.name) + " " + std::to_string(p.value(c)) + "\n";
    if (p.applies_to(umbra::RtlTop::Core)) add("CORE", p.name);
    if (*p.list) {
      std::string upper = p.list;
      for (char& ch : upper) ch = char(std::toupper(static_cast<unsigned char>(ch)));
      add(upper, p.name);
    }
  }
  for (const auto& [name, lp] : lists)
    o += "\n`define UMBRA_" + name + "_PARAMS \\\n" + lp.first + "\n\n`define UMBRA_" + name + "_PASS \\\n" +
         lp.second + "\n";
  return o + "\n`endif\n";
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"umbra-config: print a machine configuration's settings or its RTL parameters"};
  std::string path, top, format;
  bool verilog = false, table = false;
  app.add_option("config", path, "configuration file (configs/*.yaml)");
  app.add_flag("--verilog-params", verilog,
               "print the FPGA top's (synth_top) Verilog parameters, NAME=VALUE per line");
  std::string modules;
  for (const umbra::RtlModule& m : umbra::rtl_modules())
    modules += (modules.empty() ? "" : ", ") + std::string(m.name);
  app.add_option("--top", top, "print this module's Verilog parameters (" + modules + ")");
  app.add_option("--format", format, "form of the parameters: lines (default), cmake, verilator, yosys, json")
      ->check(CLI::IsMember({"lines", "cmake", "verilator", "yosys", "json"}));
  app.add_flag("--table", table, "print the configuration key -> RTL parameter table and exit");
  std::string defaults_file;
  app.add_option("--verilog-defaults", defaults_file,
                 "write the parameters' defaults and the core's parameter list (rtl/umbra_defaults.vh) here");
  umbra::check_stdout_at_exit("umbra-config");  // its output is standard output
  CLI11_PARSE(app, argc, argv);

  if (!defaults_file.empty()) {
    try {
      umbra::write_output(defaults_file, "--verilog-defaults", verilog_defaults(), true);
    } catch (const std::exception& e) {
      std::cerr << "umbra-config: error: " << e.what() << "\n";
      return 1;
    }
    return 0;
  }
  if (table) {
    print_table();
    return 0;
  }
  if (path.empty()) {
    std::cerr << "umbra-config: error: a configuration file is required (see --help)\n";
    return 2;
  }
  if (verilog && !top.empty() && top != "synth_top") {
    std::cerr << "umbra-config: error: --verilog-params is --top synth_top; not with --top " << top << "\n";
    return 2;
  }
  if (verilog) top = "synth_top";
  if (!format.empty() && top.empty()) {
    std::cerr << "umbra-config: error: --format needs --top MODULE (" << modules << ")\n";
    return 2;
  }
  std::optional<umbra::RtlTop> which;
  if (!top.empty() && !(which = umbra::rtl_top(top))) {
    std::cerr << "umbra-config: error: --top '" << top << "': no such module in the parameter table ("
              << modules << ")\n";
    return 2;
  }

  umbra::Config c;
  try {
    c = umbra::load_config(path);
  } catch (const std::exception& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
  if (which) {
    const auto params = umbra::rtl_params(c, *which);
    if (format == "json") {
      nlohmann::ordered_json j;
      j["config"] = path;
      j["name"] = c.name;
      j["top"] = top;
      j["params"] = nlohmann::ordered_json::object();
      for (const auto& [name, value] : params) j["params"][name] = value;
      std::cout << j.dump(2) << "\n";
      return 0;
    }
    std::string sep = "\n";
    if (format == "cmake") sep = ";";
    if (format == "verilator" || format == "yosys") sep = " ";
    std::string out;
    for (const auto& [name, value] : params) {
      if (format == "verilator")
        out += "-G" + name + "=" + std::to_string(value);
      else if (format == "yosys")
        out += "-set " + name + " " + std::to_string(value);
      else
        out += name + "=" + std::to_string(value);
      out += sep;
    }
    // One line for the single-line forms, one parameter a line for `lines`.
    if (sep != "\n" && !out.empty()) out.back() = '\n';
    std::cout << out;
    return 0;
  }
  std::cout << "name=" << c.name << "\n"
            << "cores=" << c.cores << "\n"
            << "core.threads=" << c.threads << "\n"
            << "core.registers=" << c.registers << "\n"
            << "core.imem_words=" << c.imem_words
            << "\n"
            // The extension groups by name, as "base, fp32" (fpga/report.py lists them).
            << "core.groups=" << umbra::group_names(c.groups)
            << "\n"
            // What stands behind the memory port: a cosimulation variant built for
            // `sdram` verilates the RTL controller too (harness/cosim/CMakeLists.txt).
            << "memory.model=" << c.mem_model << "\n"
            << "memory.bytes=" << c.mem_bytes << "\n"
            << "memory.latency=" << c.mem_latency << "\n"
            << "fpga.device=" << c.fpga_device << "\n"
            << "fpga.package=" << c.fpga_package << "\n"
            << "fpga.clock_mhz=" << c.fpga_clock_mhz << "\n"
            << "fpga.dsp=" << (c.fpga_dsp ? "true" : "false") << "\n"
            << "fpga.board=" << c.fpga_board << "\n"
            << "fpga.board_clock_mhz=" << c.fpga_board_clock_mhz << "\n"
            << "fpga.target_mhz=" << c.fpga_target_mhz << "\n"
            << "fpga.board_target_mhz=" << c.fpga_board_target_mhz
            << "\n"
            // The synthesis command's options for every top of this configuration
            // (fpga/build.sh, the netlist benches of fpga/tests).  synth_ice40: -dsp
            // maps the multipliers when asked, and the UP5K's SPRAM holds the data
            // memory; synth_ecp5 maps them unless told -nodsp.
            << "fpga.synth_options="
            << (c.fpga_device.rfind("lfe5u", 0) == 0 ? (c.fpga_dsp ? "" : " -nodsp")
                                                     : (c.fpga_dsp ? " -dsp" : ""))
            << (c.fpga_device == "up5k" ? " -spram" : "") << "\n";
  return 0;
}
