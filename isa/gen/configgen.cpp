// umbra-configgen: turns isa/config_keys.yaml, the machine configuration's keys and the
// RTL parameters they become, into the configuration's C++ fields (umbra/config_gen.h),
// the loader's key table (config_keys_gen.inc, walked by isa/src/config.cpp), the key ->
// RTL parameter table (rtl_params_gen.inc, isa/src/rtl_params.cpp) and the two tables
// of docs/configuration.md, so that a key's type, default, range, meaning and
// parameter are written once.  It checks the YAML too: a duplicate key, field or
// parameter, a range that does not hold its default, a parameter of an unknown key or
// top, a core parameter some top holding a core does not take; each is an error
// naming the file and line.
#include <yaml-cpp/yaml.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "umbra/output_file.h"
#include "umbra/output_files.h"

namespace {

struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string g_file;

[[noreturn]] void fail(const YAML::Node& n, const std::string& msg) {
  const std::string at = n.Mark().is_null() ? "" : ":" + std::to_string(n.Mark().line + 1);
  throw Error(g_file + at + ": error: " + msg);
}

std::string opt_str(const YAML::Node& n, const char* key) {
  const YAML::Node v = n[key];
  if (!v) return "";
  if (!v.IsScalar()) fail(v, std::string("'") + key + "' must be a string");
  return v.Scalar();
}

std::string need_str(const YAML::Node& n, const char* key, const std::string& what) {
  const std::string s = opt_str(n, key);
  if (s.empty()) fail(n, what + ": missing '" + key + "'");
  return s;
}

bool opt_bool(const YAML::Node& n, const char* key) {
  const YAML::Node v = n[key];
  bool b = false;
  if (v && (!v.IsScalar() || !YAML::convert<bool>::decode(v, b)))
    fail(v, std::string("'") + key + "' must be true or false");
  return b;
}

// A number, or uarch:PATH (a dotted path into uarch.yaml) resolved to one.
uint64_t number(const YAML::Node& n, const YAML::Node& uarch, const std::string& what) {
  if (!n.IsScalar()) fail(n, what + ": expected a number");
  std::string s = n.Scalar();
  if (s.rfind("uarch:", 0) == 0) {
    YAML::Node at = YAML::Clone(uarch);
    std::stringstream path(s.substr(6));
    std::string part;
    while (std::getline(path, part, '.')) {
      if (!at.IsMap() || !at[part]) fail(n, what + ": uarch.yaml has no '" + s.substr(6) + "'");
      at = at[part];
    }
    if (!at.IsScalar()) fail(n, what + ": uarch.yaml's '" + s.substr(6) + "' is not a number");
    s = at.Scalar();
  }
  try {
    size_t used = 0;
    const unsigned long long v = std::stoull(s, &used, 0);
    if (used == s.size()) return v;
  } catch (const std::exception&) {
  }
  fail(n, what + ": '" + s + "' is not a non-negative integer");
}

struct Key {
  std::string key, field, type, cpp, def, doc_default, doc_range, meaning;
  bool free = false;
  uint64_t lo = 0, hi = 0, def_num = 0;
  std::vector<std::string> values;
};

struct Param {
  std::string name, keys, value, rule, needs, needs_key, list;
  std::vector<std::string> tops;
};

struct Spec {
  std::vector<Key> keys;
  std::vector<Param> params;
};

// The RtlTop names (isa/include/umbra/rtl_params.h) and the C++ constants of their bits.
const std::map<std::string, std::string> kTops = {
    {"core", "kCore"}, {"system", "kSystem"},       {"synth_top", "kSynth"}, {"board_top", "kBoard"},
    {"fpu", "kFpu"},   {"reorder_queue", "kQueue"}, {"ulx3s_top", "kUlx3s"}, {"sdram_controller", "kSdram"}};
// The tops that hold a core: each takes every parameter umbra_core takes, from
// rtl/umbra_defaults.vh's UMBRA_CORE_PARAMS.
const std::vector<std::string> kCoreHolders = {"core", "system", "synth_top", "board_top", "ulx3s_top"};

Spec load(const std::string& path, const std::string& uarch_path) {
  g_file = path;
  const YAML::Node root = YAML::LoadFile(path);
  YAML::Node uarch;
  if (!uarch_path.empty()) {
    g_file = uarch_path;
    uarch = YAML::LoadFile(uarch_path);
    g_file = path;
  }
  Spec s;
  std::set<std::string> keys, fields, params;
  if (!root["keys"] || !root["keys"].IsSequence()) fail(root, "expected a list 'keys'");
  for (const YAML::Node& n : root["keys"]) {
    if (!n.IsMap()) fail(n, "a key is a mapping");
    Key k;
    k.key = need_str(n, "key", "a key");
    const std::string what = "key '" + k.key + "'";
    k.field = need_str(n, "field", what);
    k.type = need_str(n, "type", what);
    k.meaning = need_str(n, "meaning", what);
    k.doc_default = opt_str(n, "doc_default");
    k.doc_range = opt_str(n, "doc_range");
    k.free = opt_bool(n, "free");
    if (!keys.insert(k.key).second) fail(n["key"], "key '" + k.key + "' is described twice");
    if (!fields.insert(k.field).second) fail(n["field"], what + ": field '" + k.field + "' is another key's");
    if (!n["default"]) fail(n, what + ": missing 'default'");
    if (k.type == "uint") {
      k.cpp = need_str(n, "cpp", what);
      if (k.cpp != "unsigned" && k.cpp != "uint32_t")
        fail(n["cpp"], what + ": 'cpp' is unsigned or uint32_t");
      if (!n["range"] || !n["range"].IsSequence() || n["range"].size() != 2)
        fail(n, what + ": a uint needs 'range: [lo, hi]'");
      k.lo = number(n["range"][0], uarch, what);
      k.hi = number(n["range"][1], uarch, what);
      k.def_num = number(n["default"], uarch, what);
      // 0 is "not set" for the keys whose range starts above it (fpga.clock_mhz).
      if (k.lo > k.hi || (k.def_num && (k.def_num < k.lo || k.def_num > k.hi)))
        fail(n["default"], what + ": the default is outside the range");
      k.def = std::to_string(k.def_num);
    } else if (k.type == "bool") {
      bool b = false;
      if (!YAML::convert<bool>::decode(n["default"], b))
        fail(n["default"], what + ": the default is true or false");
      k.def = b ? "true" : "false";
    } else if (k.type == "enum") {
      if (!n["values"] || !n["values"].IsSequence()) fail(n, what + ": an enum needs 'values'");
      for (const YAML::Node& v : n["values"]) k.values.push_back(v.Scalar());
      k.def = n["default"].Scalar();
      bool known = k.def.empty();
      for (const std::string& v : k.values) known |= v == k.def;
      if (!known) fail(n["default"], what + ": the default is not one of its values");
    } else if (k.type == "text") {
      k.def = n["default"].Scalar();
    } else if (k.type == "groups") {
      if (n["default"].Scalar() != "all") fail(n["default"], what + ": the groups' default is 'all'");
      k.def = "all";
    } else {
      fail(n["type"], what + ": type '" + k.type + "' is not uint, bool, enum, text or groups");
    }
    s.keys.push_back(k);
  }
  auto find_key = [&](const std::string& name) -> const Key* {
    for (const Key& k : s.keys)
      if (k.key == name) return &k;
    return nullptr;
  };
  if (!root["rtl"] || !root["rtl"].IsSequence()) fail(root, "expected a list 'rtl'");
  for (const YAML::Node& n : root["rtl"]) {
    Param p;
    p.name = need_str(n, "param", "a parameter");
    const std::string what = "parameter '" + p.name + "'";
    p.keys = need_str(n, "keys", what);
    p.value = opt_str(n, "value");
    p.rule = opt_str(n, "rule");
    p.needs = opt_str(n, "needs");
    p.list = opt_str(n, "list");
    if (!params.insert(p.name).second) fail(n["param"], what + " is described twice");
    if (!n["tops"] || !n["tops"].IsSequence() || n["tops"].size() == 0) fail(n, what + ": needs 'tops'");
    for (const YAML::Node& t : n["tops"]) {
      if (!kTops.count(t.Scalar())) fail(t, what + ": '" + t.Scalar() + "' is not a top");
      p.tops.push_back(t.Scalar());
    }
    std::stringstream list(p.keys);
    std::string one;
    while (std::getline(list, one, ',')) {
      one.erase(0, one.find_first_not_of(' '));
      if (!find_key(one)) fail(n["keys"], what + ": '" + one + "' is not a key of this file");
    }
    if (p.value.empty()) {
      const Key* k = find_key(p.keys);
      if (!k) fail(n["keys"], what + ": without 'value', 'keys' names one key");
      if (k->type == "uint")
        p.value = "c." + k->field;
      else if (k->type == "bool")
        p.value = "c." + k->field + " ? 1 : 0";
      else
        fail(n, what + ": a " + k->type + " key needs a 'value' and a 'rule'");
    } else if (p.rule.empty()) {
      fail(n, what + ": a 'value' needs its 'rule' in words");
    }
    if (!p.needs.empty()) {
      const Key* k = find_key(p.needs);
      if (!k || k->type != "bool") fail(n["needs"], what + ": 'needs' names a bool key");
      p.needs_key = p.needs;
      p.needs = k->field;
    }
    const bool core = std::find(p.tops.begin(), p.tops.end(), "core") != p.tops.end();
    for (const std::string& t : kCoreHolders)
      if (core && std::find(p.tops.begin(), p.tops.end(), t) == p.tops.end())
        fail(n["tops"], what + ": umbra_core takes it, so every top that holds a core takes it: add " + t);
    s.params.push_back(p);
  }
  return s;
}

// Words to lines of at most `width` characters, each starting with `lead`.
std::string wrap(const std::string& text, const std::string& lead, size_t width = 92) {
  std::stringstream in(text);
  std::string word, line, out;
  while (in >> word) {
    if (!line.empty() && lead.size() + line.size() + 1 + word.size() > width) {
      out += lead + line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty()) out += lead + line + "\n";
  return out;
}

std::string quote(const std::string& s) {
  std::string o = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\';
    o += c;
  }
  return o + "\"";
}

const char* kHeader = "Generated from isa/config_keys.yaml by umbra-configgen. Do not edit.";

std::string emit_header(const Spec& s) {
  std::ostringstream o;
  o << "// " << kHeader << "\n"
    << "// The configuration's keys as fields with their defaults; umbra::Config "
       "(umbra/config.h)\n// extends it.\n"
    << "#pragma once\n#include <cstdint>\n#include <string>\n\n#include \"umbra/isa.h\"\n\n"
    << "namespace umbra {\n\nstruct ConfigKeys {\n";
  for (const Key& k : s.keys) {
    o << wrap(k.key + ": " + k.meaning, "  // ");
    if (k.type == "uint")
      o << "  " << k.cpp << " " << k.field << " = " << k.def << ";\n";
    else if (k.type == "bool")
      o << "  bool " << k.field << " = " << k.def << ";\n";
    else if (k.type == "groups")
      o << "  uint32_t " << k.field << " = isa::kAllGroups;\n";
    else
      o << "  std::string " << k.field << " = " << quote(k.def) << ";\n";
  }
  o << "};\n\n}  // namespace umbra\n";
  return o.str();
}

// Entries of the loader's map (isa/src/config.cpp defines the *_key makers).
std::string emit_keys(const Spec& s) {
  std::ostringstream o;
  o << "// " << kHeader << "\n// The loader's keys (isa/src/config.cpp), entries of its map.\n";
  for (const Key& k : s.keys) {
    o << "{" << quote(k.key) << ", ";
    if (k.type == "uint") {
      o << "uint_key(&c." << k.field << ", " << k.lo << "ull, " << k.hi << "ull)";
    } else if (k.type == "bool") {
      o << "bool_key(&c." << k.field << ")";
    } else if (k.type == "groups") {
      o << "groups_key(&c." << k.field << ")";
    } else if (k.type == "text" && k.free) {
      o << "free_key(&c." << k.field << ")";
    } else {
      o << "string_key(&c." << k.field << ", {";
      for (size_t i = 0; i < k.values.size(); ++i) o << (i ? ", " : "") << quote(k.values[i]);
      o << "})";
    }
    o << "},\n";
  }
  return o.str();
}

// Rows of the parameter table (isa/src/rtl_params.cpp defines the k* bits).
std::string emit_params(const Spec& s) {
  std::ostringstream o;
  o << "// " << kHeader << "\n// The key -> RTL parameter table's rows (isa/src/rtl_params.cpp).\n";
  for (const Param& p : s.params) {
    std::string tops;
    for (const std::string& t : p.tops) tops += (tops.empty() ? "" : " | ") + kTops.at(t);
    o << "{" << quote(p.name) << ", " << tops << ", " << quote(p.keys) << ", " << quote(p.rule)
      << ", [](const Config& c) -> uint64_t { return " << p.value << "; }, ";
    if (p.needs.empty())
      o << "nullptr";
    else
      o << "[](const Config& c) { return bool(c." << p.needs << "); }";
    o << ", " << quote(p.list) << "},\n";
  }
  return o.str();
}

std::string doc_range(const Key& k) {
  if (!k.doc_range.empty()) return k.doc_range;
  if (k.type == "uint") return std::to_string(k.lo) + ".." + std::to_string(k.hi);
  if (k.type == "bool") return "true, false";
  if (k.type == "text") return k.free ? "text" : "a non-empty string";
  std::string r;
  for (const std::string& v : k.values) r += (r.empty() ? "`" : ", `") + v + "`";
  return r;
}

std::string doc_default(const Key& k) {
  if (!k.doc_default.empty()) return k.doc_default;
  if (k.type == "enum" || (k.type == "text" && !k.def.empty())) return "`" + k.def + "`";
  return k.def;
}

std::string emit_key_table(const Spec& s) {
  std::ostringstream o;
  o << "| key | default | range | meaning |\n|---|---|---|---|\n";
  for (const Key& k : s.keys) {
    std::string meaning;
    for (char c : k.meaning) meaning += c == '\n' ? ' ' : c;
    o << "| `" << k.key << "` | " << doc_default(k) << " | " << doc_range(k) << " | " << meaning << " |\n";
  }
  return o.str();
}

std::string emit_param_table(const Spec& s) {
  std::ostringstream o;
  o << "| parameter | tops | keys | value |\n|---|---|---|---|\n";
  for (const Param& p : s.params) {
    std::string tops;
    for (const std::string& t : p.tops) tops += (tops.empty() ? "`" : "`, `") + t;
    o << "| `" << p.name << "` | " << tops << "` | " << p.keys << " | "
      << (p.rule.empty() ? "the key's value" : p.rule)
      << (p.needs.empty() ? "" : "; it matters only with `" + p.needs_key + "` true") << " |\n";
  }
  return o.str();
}

// Replaces what stands between `<!-- generated: NAME ... -->` and `<!-- end: NAME -->`.
std::string splice(std::string doc, const std::string& name, const std::string& table,
                   const std::string& path) {
  const std::string begin = "<!-- generated: " + name, end = "<!-- end: " + name + " -->";
  const size_t b = doc.find(begin);
  const size_t e = doc.find(end);
  if (b == std::string::npos || e == std::string::npos || e < b)
    throw Error(path + ": error: no '" + begin + " ...-->' ... '" + end +
                "' markers to write the table between");
  const size_t after = doc.find("-->", b) + 3;
  return doc.substr(0, after) + "\n" + table + doc.substr(e);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "umbra-configgen: generate the configuration's fields, loader table, RTL parameter table "
      "and documentation tables from config_keys.yaml"};
  std::string yaml, uarch, header, keys, params, markdown, markdown_from;
  app.add_option("yaml", yaml, "configuration keys (isa/config_keys.yaml)")->required();
  app.add_option("--uarch", uarch, "microarchitecture description (isa/uarch.yaml), for uarch: bounds")
      ->required();
  app.add_option("--cpp-header", header, "write umbra/config_gen.h here");
  app.add_option("--cpp-keys", keys, "write the loader's key table here");
  app.add_option("--cpp-params", params, "write the RTL parameter table here");
  app.add_option("--markdown", markdown, "write docs/configuration.md with its tables regenerated here");
  app.add_option("--markdown-from", markdown_from,
                 "the document whose tables --markdown regenerates (default: the --markdown file)");
  umbra::check_stdout_at_exit("umbra-configgen");
  CLI11_PARSE(app, argc, argv);
  {
    umbra::OutputFiles rule;
    rule.add_input(yaml, "the configuration keys");
    rule.add_input(uarch, "the microarchitecture description");
    if (!header.empty()) rule.add(header, "", "--cpp-header");
    if (!keys.empty()) rule.add(keys, "", "--cpp-keys");
    if (!params.empty()) rule.add(params, "", "--cpp-params");
    if (!markdown.empty()) rule.add(markdown, "", "--markdown");
    try {
      rule.check();
    } catch (const umbra::OutputError& e) {
      std::fprintf(stderr, "umbra-configgen: error: %s\n", e.what());
      return 1;
    }
  }
  try {
    const Spec s = load(yaml, uarch);
    if (!header.empty()) umbra::write_output_if_changed(header, "--cpp-header", emit_header(s));
    if (!keys.empty()) umbra::write_output_if_changed(keys, "--cpp-keys", emit_keys(s));
    if (!params.empty()) umbra::write_output_if_changed(params, "--cpp-params", emit_params(s));
    if (!markdown.empty()) {
      const std::string from = markdown_from.empty() ? markdown : markdown_from;
      std::ifstream in(from, std::ios::binary);
      if (!in) throw Error(from + ": error: cannot read the document to regenerate");
      std::stringstream doc;
      doc << in.rdbuf();
      std::string text = splice(doc.str(), "config-keys", emit_key_table(s), from);
      text = splice(text, "rtl-params", emit_param_table(s), from);
      umbra::write_output_if_changed(markdown, "--markdown", text);
    }
  } catch (const Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  } catch (const umbra::OutputError& e) {
    std::fprintf(stderr, "umbra-configgen: error: %s\n", e.what());
    return 1;
  } catch (const YAML::Exception& e) {
    const std::string at = e.mark.is_null() ? "" : ":" + std::to_string(e.mark.line + 1);
    std::fprintf(stderr, "%s%s: error: %s\n", g_file.c_str(), at.c_str(), e.msg.c_str());
    return 1;
  }
  return 0;
}
