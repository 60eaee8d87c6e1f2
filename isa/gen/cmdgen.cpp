// umbra-cmdgen: turns isa/commands.yaml, the command processor's command stream, into
// the C++ table (umbra/commands_gen.h), the RTL's codes and attribute function
// (rtl/umbra_commands.vh) and the reference (docs/commands.md), so that no opcode,
// argument count or counter layout is written twice by hand.  It is the checker of the
// YAML too: a duplicate opcode or name, an argument list longer than the hardware's
// three, a counter layout without its per-core block, each is an error naming the file
// and line.
#include <yaml-cpp/yaml.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "umbra/output_file.h"
#include "umbra/output_files.h"

namespace {

constexpr unsigned kMaxArgs = 3;  // the command processor's argument registers

struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string g_file;

[[noreturn]] void fail(const YAML::Node& n, const std::string& msg) {
  const std::string at = n.Mark().is_null() ? "" : ":" + std::to_string(n.Mark().line + 1);
  throw Error(g_file + at + ": error: " + msg);
}

std::string need_str(const YAML::Node& n, const char* key, const std::string& what) {
  if (!n.IsMap()) fail(n, what + ": expected a map");
  const YAML::Node v = n[key];
  if (!v || !v.IsScalar() || v.Scalar().empty()) fail(n, what + ": missing '" + key + "'");
  return v.Scalar();
}

unsigned need_uint(const YAML::Node& n, const char* key, const std::string& what, unsigned max) {
  const std::string s = need_str(n, key, what);
  try {
    size_t used = 0;
    const unsigned long v = std::stoul(s, &used, 0);
    if (used == s.size() && v <= max) return unsigned(v);
  } catch (const std::exception&) {
  }
  fail(n[key], what + ": '" + key + "' is '" + s + "', not an integer 0.." + std::to_string(max));
}

bool opt_bool(const YAML::Node& n, const char* key, const std::string& what) {
  const YAML::Node v = n[key];
  bool b = false;
  if (v && (!v.IsScalar() || !YAML::convert<bool>::decode(v, b)))
    fail(v, what + ": '" + key + "' must be true or false");
  return b;
}

bool snake(const std::string& s) {
  if (s.empty() || !(s[0] >= 'a' && s[0] <= 'z')) return false;
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

std::string upper(std::string s) {
  for (char& c : s) c = char(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

std::string camel(const std::string& s) {
  std::string r;
  bool up = true;
  for (char c : s) {
    if (c == '_') {
      up = true;
      continue;
    }
    r += up ? char(std::toupper(static_cast<unsigned char>(c))) : c;
    up = false;
  }
  return r;
}

std::string quote(const std::string& s) {
  std::string r = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') r += '\\';
    r += c;
  }
  return r + "\"";
}

struct Arg {
  std::string name, doc;
};
struct Command {
  std::string name, doc;
  unsigned opcode = 0;
  bool idle = false;
  std::vector<Arg> args;
};
struct Counter {
  std::string name, doc;
  bool per_core = false;
};
struct Fault {
  std::string name, doc;
  unsigned code = 0;
};
struct Spec {
  std::vector<Command> commands;
  std::vector<Counter> counters;
  std::vector<Fault> faults;
  unsigned fault_bits = 1;
  unsigned port_tag = 0;
};

YAML::Node need_list(const YAML::Node& root, const char* key) {
  const YAML::Node n = root[key];
  if (!n || !n.IsSequence() || n.size() == 0)
    fail(root, std::string("'") + key + "' must be a non-empty list");
  return n;
}

Spec load(const std::string& path) {
  g_file = path;
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::BadFile&) {
    throw Error(path + ": error: cannot read file");
  }
  if (!root.IsMap()) fail(root, "expected a map with commands, counters and faults");
  Spec s;
  for (const YAML::Node& n : need_list(root, "commands")) {
    Command c;
    c.name = need_str(n, "name", "a command");
    const std::string what = "command '" + c.name + "'";
    if (!snake(c.name)) fail(n, what + ": a name is lower case letters, digits and '_'");
    c.opcode = need_uint(n, "opcode", what, 0xff);
    c.doc = need_str(n, "doc", what);
    c.idle = opt_bool(n, "idle", what);
    const YAML::Node args = n["args"];
    if (!args || !args.IsSequence()) fail(n, what + ": 'args' must be a list (empty for none)");
    if (args.size() > kMaxArgs)
      fail(args, what + ": " + std::to_string(args.size()) + " arguments; the command processor holds " +
                     std::to_string(kMaxArgs));
    for (const YAML::Node& a : args)
      c.args.push_back({need_str(a, "name", what + "'s argument"), need_str(a, "doc", what + "'s argument")});
    for (const Command& o : s.commands) {
      if (o.name == c.name) fail(n, what + " is defined twice");
      if (o.opcode == c.opcode)
        fail(n, what + ": opcode " + std::to_string(c.opcode) + " is also '" + o.name + "'s");
    }
    s.commands.push_back(c);
  }
  if (s.commands[0].opcode != 0 || s.commands[0].args.size() != 0)
    fail(root["commands"], "the first command must be the stream's end: opcode 0, no arguments");
  s.port_tag = need_uint(root, "port_tag", "the command stream", 0xff);
  unsigned per_core = 0;
  for (const YAML::Node& n : need_list(root, "counters")) {
    Counter c{need_str(n, "name", "a counter"), need_str(n, "doc", "a counter"),
              opt_bool(n, "per_core", "a counter")};
    if (per_core && !c.per_core) fail(n, "counter '" + c.name + "': the per-core block must come last");
    per_core += c.per_core;
    s.counters.push_back(c);
  }
  if (per_core != 1) fail(root["counters"], "exactly one counter must be per_core (the last)");
  unsigned max_code = 0;
  for (const YAML::Node& n : need_list(root, "faults")) {
    Fault f{need_str(n, "name", "a fault"), need_str(n, "doc", "a fault"),
            need_uint(n, "code", "a fault", 255)};
    for (const Fault& o : s.faults)
      if (o.code == f.code || o.name == f.name) fail(n, "fault '" + f.name + "': name or code used twice");
    if (s.faults.empty() && (f.code != 0 || f.name != "none"))
      fail(n, "the first fault must be none, code 0");
    max_code = std::max(max_code, f.code);
    s.faults.push_back(f);
  }
  while ((1u << s.fault_bits) <= max_code) ++s.fault_bits;
  return s;
}

const char* kNotice = "Generated from isa/commands.yaml by umbra-cmdgen. Do not edit.";

std::string hex2(unsigned v) {
  char b[8];
  std::snprintf(b, sizeof b, "0x%02x", v);
  return b;
}

std::string emit_header(const Spec& s) {
  std::ostringstream o;
  o << "// " << kNotice
    << "\n// The command processor's commands (docs/commands.md); the RTL's copy is "
       "rtl/umbra_commands.vh.\n#pragma once\n#include <cstdint>\n#include <string_view>\n\n"
       "namespace umbra::commands {\n\n";
  o << "enum class Opcode : uint32_t {\n";
  for (const Command& c : s.commands) o << "  " << camel(c.name) << " = " << hex2(c.opcode) << ",\n";
  o << "};\n\nconstexpr unsigned kMaxArgs = " << kMaxArgs << ";\n\n";
  o << "struct CommandDef {\n  const char* name;\n  Opcode opcode;\n  bool idle;  // waits for the system to "
       "be "
       "idle first\n  unsigned nargs;\n  const char* args[kMaxArgs];\n  const char* doc;\n};\n\n";
  o << "inline constexpr CommandDef kCommands[] = {\n";
  for (const Command& c : s.commands) {
    o << "    {" << quote(c.name) << ", Opcode::" << camel(c.name) << ", " << (c.idle ? "true" : "false")
      << ", " << c.args.size() << ", {";
    for (unsigned i = 0; i < kMaxArgs; ++i)
      o << (i ? ", " : "") << (i < c.args.size() ? quote(c.args[i].name) : "nullptr");
    o << "}, " << quote(c.doc) << "},\n";
  }
  o << "};\n\n";
  o << "inline const CommandDef* find(uint32_t opcode) {\n  for (const CommandDef& c : kCommands)\n"
       "    if (uint32_t(c.opcode) == opcode) return &c;\n  return nullptr;\n}\n"
       "inline const CommandDef* find(std::string_view name) {\n  for (const CommandDef& c : kCommands)\n"
       "    if (name == c.name) return &c;\n  return nullptr;\n}\n\n";
  o << "// The block `counters` writes: these words, then one per core.\n";
  o << "enum class Counter : unsigned {\n";
  unsigned fixed = 0;
  for (const Counter& c : s.counters) {
    o << "  " << camel(c.name) << " = " << fixed << ",  // " << c.doc << "\n";
    if (!c.per_core) ++fixed;
  }
  o << "};\nconstexpr unsigned kCounterFixedWords = " << fixed << ";\n"
    << "constexpr unsigned counter_words(unsigned cores) { return kCounterFixedWords + cores; }\n\n";
  o << "// The high byte of the command processor's DRAM-port tag (its requests' tag is this << 8).\n"
    << "constexpr uint32_t kPortTag = " << hex2(s.port_tag) << ";\n\n";
  o << "enum class Fault : uint8_t {\n";
  for (const Fault& f : s.faults) o << "  " << camel(f.name) << " = " << f.code << ",  // " << f.doc << "\n";
  o << "};\nconstexpr unsigned kFaultBits = " << s.fault_bits << ";\n";
  o << "inline const char* fault_text(Fault f) {\n  switch (f) {\n";
  for (const Fault& f : s.faults)
    o << "    case Fault::" << camel(f.name) << ": return " << quote(f.doc) << ";\n";
  o << "  }\n  return \"unknown fault\";\n}\n\n}  // namespace umbra::commands\n";
  return o.str();
}

std::string emit_verilog(const Spec& s) {
  std::ostringstream o;
  o << "// " << kNotice
    << "\n// The command processor's codes (rtl/command_processor.v); the C++ copy is "
       "umbra/commands_gen.h.\n`ifndef UMBRA_COMMANDS_VH\n`define UMBRA_COMMANDS_VH\n\n";
  for (const Command& c : s.commands)
    o << "`define UMBRA_CMD_" << upper(c.name) << " 32'h" << std::hex << c.opcode << std::dec << "\n";
  o << "`define UMBRA_CMD_MAX_ARGS " << kMaxArgs << "\n";
  unsigned fixed = 0;
  for (const Counter& c : s.counters) fixed += !c.per_core;
  o << "`define UMBRA_CMD_COUNTER_FIXED_WORDS " << fixed << "\n";
  unsigned w = 0;
  for (const Counter& c : s.counters)
    if (!c.per_core) o << "`define UMBRA_CMD_COUNTER_" << upper(c.name) << " " << w++ << "\n";
  o << "`define UMBRA_CMD_PORT_TAG 8'h" << std::hex << s.port_tag << std::dec << "\n";
  o << "`define UMBRA_CMD_FAULT_BITS " << s.fault_bits << "\n";
  for (const Fault& f : s.faults)
    o << "`define UMBRA_CMD_FAULT_" << upper(f.name) << " " << s.fault_bits << "'d" << f.code << "\n";
  o << "\n`endif\n";
  return o.str();
}

// The attribute function, included inside the command processor's module: one opcode
// to {known, idle, argument count}.
std::string emit_verilog_attr(const Spec& s) {
  std::ostringstream o;
  o << "// " << kNotice
    << "\n// Included inside rtl/command_processor.v: an opcode's {known, idle, nargs[1:0]}.\n"
       "function [3:0] umbra_cmd_attr;\n  input [31:0] op;\n  begin\n    case (op)\n";
  for (const Command& c : s.commands)
    o << "      `UMBRA_CMD_" << upper(c.name) << ": umbra_cmd_attr = {1'b1, 1'b" << c.idle << ", 2'd"
      << c.args.size() << "};\n";
  o << "      default: umbra_cmd_attr = 4'b0000;\n    endcase\n  end\nendfunction\n";
  return o.str();
}

std::string emit_markdown(const Spec& s) {
  std::ostringstream o;
  o << "<!-- " << kNotice << " -->\n# Commands\n\n"
    << "The host drives Umbra as the data-parallel VM's host drives its GPU: it writes a buffer of "
       "commands into device memory and rings the doorbell with the buffer's address "
       "(`doorbell_valid`, `doorbell_addr` on `umbra_system`).  The command processor "
       "(`rtl/command_processor.v`, `systemc/command_processor.{h,cpp}`) reads the buffer "
       "through the memory system, one command after the other, until `end`.  "
       "docs/microarchitecture.md (\"Command processor\") says how it is built and what each "
       "command costs; the host API (`umbra/device.h`) builds buffers from this table.\n\n"
    << "A command is a group of 32-bit little-endian words: the opcode, then its arguments.  "
       "Addresses are byte addresses.  Commands marked *idle* first wait, as `wait` does, until "
       "the system is idle.\n\n";
  o << "| opcode | command | arguments | idle | what it does |\n|---|---|---|---|---|\n";
  for (const Command& c : s.commands) {
    std::string args;
    for (const Arg& a : c.args) args += (args.empty() ? "" : ", ") + ("`" + a.name + "`");
    o << "| " << hex2(c.opcode) << " | `" << c.name << "` | " << (args.empty() ? "—" : args) << " | "
      << (c.idle ? "yes" : "") << " | " << c.doc << " |\n";
  }
  o << "\n## Arguments\n\n";
  for (const Command& c : s.commands) {
    if (c.args.empty()) continue;
    o << "- `" << c.name << "`:";
    for (const Arg& a : c.args) o << " `" << a.name << "`, " << a.doc << ";";
    o.seekp(-1, std::ios_base::cur);
    o << ".\n";
  }
  o << "\n## Performance counters\n\n`counters addr` writes, from `addr` on, one 32-bit word each:\n\n"
       "| word | counter | meaning |\n|---|---|---|\n";
  unsigned w = 0;
  for (const Counter& c : s.counters) {
    if (c.per_core)
      o << "| " << w << " + c | `" << c.name << "[c]` | " << c.doc << " |\n";
    else
      o << "| " << w++ << " | `" << c.name << "` | " << c.doc << " |\n";
  }
  o << "\n## Faults\n\nA fault stops the command processor; the system's `cmd_fault` output carries "
       "the code and `cmd_fault_addr` the address of the command (the tools print both).\n\n"
       "| code | fault | meaning |\n|---|---|---|\n";
  for (const Fault& f : s.faults) o << "| " << f.code << " | `" << f.name << "` | " << f.doc << " |\n";
  return o.str();
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"umbra-cmdgen: generate the command table, RTL include and reference from commands.yaml"};
  std::string yaml, header, verilog, verilog_attr, markdown;
  app.add_option("yaml", yaml, "command description (isa/commands.yaml)")->required();
  app.add_option("--cpp-header", header, "write the C++ header here");
  app.add_option("--verilog", verilog, "write the Verilog codes here");
  app.add_option("--verilog-attr", verilog_attr, "write the Verilog attribute function here");
  app.add_option("--markdown", markdown, "write the reference here");
  umbra::check_stdout_at_exit("umbra-cmdgen");  // its only standard output is --help
  CLI11_PARSE(app, argc, argv);
  {
    // The rule for output paths of every tool (umbra/output_files.h): no output may be
    // an input or another output; checked before anything is read or written.
    umbra::OutputFiles rule;
    rule.add_input(yaml, "the command description");
    if (!header.empty()) rule.add(header, "", "--cpp-header");
    if (!verilog.empty()) rule.add(verilog, "", "--verilog");
    if (!verilog_attr.empty()) rule.add(verilog_attr, "", "--verilog-attr");
    if (!markdown.empty()) rule.add(markdown, "", "--markdown");
    try {
      rule.check();
    } catch (const umbra::OutputError& e) {
      std::fprintf(stderr, "umbra-cmdgen: error: %s\n", e.what());
      return 1;
    }
  }
  try {
    const Spec s = load(yaml);
    if (!header.empty()) umbra::write_output_if_changed(header, "--cpp-header", emit_header(s));
    if (!verilog.empty()) umbra::write_output_if_changed(verilog, "--verilog", emit_verilog(s));
    if (!verilog_attr.empty())
      umbra::write_output_if_changed(verilog_attr, "--verilog-attr", emit_verilog_attr(s));
    if (!markdown.empty()) umbra::write_output_if_changed(markdown, "--markdown", emit_markdown(s));
  } catch (const Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  } catch (const umbra::OutputError& e) {
    std::fprintf(stderr, "umbra-cmdgen: error: %s\n", e.what());
    return 1;
  } catch (const YAML::Exception& e) {
    const std::string at = e.mark.is_null() ? "" : ":" + std::to_string(e.mark.line + 1);
    std::fprintf(stderr, "%s%s: error: %s\n", g_file.c_str(), at.c_str(), e.msg.c_str());
    return 1;
  }
  return 0;
}
