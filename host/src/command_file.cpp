// The command file reader (umbra/command_file.h): YAML through yaml-cpp, commands and
// their arguments through the generated table, values as numbers or symbols.
#include "umbra/command_file.h"

#include <yaml-cpp/yaml.h>

#include <fstream>
#include <sstream>
#include <vector>

namespace umbra::host {

namespace {

std::string known_commands() {
  std::string s;
  for (const commands::CommandDef& c : commands::kCommands)
    s += (s.empty() ? "" : ", ") + std::string(c.name);
  return s;
}

class Reader {
 public:
  Reader(const std::string& name, const Program& p, const ProgramImage& img)
      : name_(name), p_(p), img_(img) {}

  CommandFileError error(const YAML::Node& at, const std::string& what) const {
    const YAML::Mark m = at.Mark();
    return CommandFileError(name_ + ":" + (m.line >= 0 ? std::to_string(m.line + 1) : std::string("?")) +
                            ": " + what);
  }

  // A number (decimal, or hex with 0x) or a symbol of the program.
  uint32_t value(const YAML::Node& n, const std::string& cmd, const char* arg) const {
    const std::string where = "command `" + cmd + "`, argument `" + arg + "`";
    if (!n.IsScalar()) throw error(n, where + ": expected a number or a symbol");
    const std::string s = n.Scalar();
    const bool hex = s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    const std::string digits = hex ? s.substr(2) : s;
    if (!digits.empty() &&
        digits.find_first_not_of(hex ? "0123456789abcdefABCDEF" : "0123456789") == std::string::npos) {
      if (digits.size() > 10 || std::stoull(digits, nullptr, hex ? 16 : 10) > UINT32_MAX)
        throw error(n, where + ": " + s + " does not fit in 32 bits");
      return uint32_t(std::stoull(digits, nullptr, hex ? 16 : 10));
    }
    if (auto v = p_.symbol(s)) return *v;
    throw error(n, where + ": '" + s + "' is neither a number nor a symbol of the program");
  }

  void command(const YAML::Node& item, CommandBuffer& out) const {
    std::string cmd;
    YAML::Node args;
    if (item.IsScalar()) {
      cmd = item.Scalar();
    } else if (item.IsMap() && item.size() == 1) {
      cmd = item.begin()->first.as<std::string>();
      args = item.begin()->second;
    } else {
      throw error(item, "expected a command: its name, or `name: arguments` (one a list item)");
    }
    const commands::CommandDef* def = commands::find(std::string_view(cmd));
    if (!def) throw error(item, "no command '" + cmd + "' (commands: " + known_commands() + ")");
    std::vector<uint32_t> a;
    const bool none = !args || args.IsNull();
    if (none && def->opcode == commands::Opcode::Program) {
      a = {img_.src, img_.words, img_.dest};
    } else if (none && def->opcode == commands::Opcode::Run) {
      a = {img_.entry};
    } else if (none) {
    } else if (args.IsScalar()) {
      a.push_back(value(args, cmd, def->nargs ? def->args[0] : "?"));
    } else if (args.IsSequence()) {
      for (size_t i = 0; i < args.size(); ++i)
        a.push_back(value(args[i], cmd, i < def->nargs ? def->args[i] : "?"));
    } else if (args.IsMap()) {
      a.resize(def->nargs);
      std::vector<bool> given(def->nargs, false);
      for (const auto& kv : args) {
        const std::string key = kv.first.as<std::string>();
        unsigned i = 0;
        while (i < def->nargs && key != def->args[i]) ++i;
        if (i == def->nargs) throw error(kv.first, "command `" + cmd + "` has no argument `" + key + "`");
        a[i] = value(kv.second, cmd, def->args[i]);
        given[i] = true;
      }
      for (unsigned i = 0; i < def->nargs; ++i)
        if (!given[i]) throw error(args, "command `" + cmd + "`: argument `" + def->args[i] + "` missing");
    }
    // `domain: 64` is a 1D domain.
    if (def->opcode == commands::Opcode::Domain && a.size() == 1) a.push_back(1);
    if (a.size() != def->nargs) {
      std::string names;
      for (unsigned i = 0; i < def->nargs; ++i) names += (i ? ", " : "") + std::string(def->args[i]);
      throw error(item, "command `" + cmd + "` takes " + std::to_string(def->nargs) + " argument" +
                            (def->nargs == 1 ? "" : "s") + (names.empty() ? "" : " (" + names + ")") +
                            ", not " + std::to_string(a.size()));
    }
    out.append(def->opcode, a);
  }

  CommandBuffer read(const std::string& text) const {
    YAML::Node root;
    try {
      root = YAML::Load(text);
    } catch (const YAML::Exception& e) {
      throw CommandFileError(name_ + ":" + std::to_string(e.mark.line + 1) + ": not YAML: " + e.msg);
    }
    if (!root.IsSequence() || root.size() == 0)
      throw CommandFileError(name_ + ":1: expected a list of commands (e.g. `- run`), one a line");
    return read(root);
  }

  CommandBuffer read(const YAML::Node& list) const {
    if (!list.IsSequence() || list.size() == 0)
      throw error(list, "expected a list of commands (e.g. `- run`), one a line");
    CommandBuffer out;
    for (const YAML::Node& item : list) command(item, out);
    return out;
  }

 private:
  const std::string& name_;
  const Program& p_;
  const ProgramImage& img_;
};

}  // namespace

CommandBuffer parse_commands(const std::string& text, const std::string& name, const Program& p,
                             const ProgramImage& img) {
  return Reader(name, p, img).read(text);
}

CommandBuffer parse_commands(const YAML::Node& list, const std::string& name, const Program& p,
                             const ProgramImage& img) {
  return Reader(name, p, img).read(list);
}

CommandBuffer parse_command_file(const std::string& path, const Program& p, const ProgramImage& img) {
  std::ifstream f(path);
  if (!f) throw CommandFileError(path + ": cannot read the command file");
  std::ostringstream ss;
  ss << f.rdbuf();
  return parse_commands(ss.str(), path, p, img);
}

}  // namespace umbra::host
