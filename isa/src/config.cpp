// Strict loading of configs/*.yaml: a typo in a key must not silently fall back to
// a default, so unknown keys and out-of-range values name the file and line.
#include "umbra/config.h"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <sstream>
#include <vector>

#include "umbra/rtl_params.h"

namespace umbra {

namespace {

[[noreturn]] void fail(const std::string& path, const YAML::Node& at, const std::string& msg) {
  throw ConfigError(path + ":" + std::to_string(at.Mark().line + 1) + ": error: " + msg);
}

uint64_t get_uint(const std::string& path, const YAML::Node& n, const std::string& key, uint64_t lo,
                  uint64_t hi) {
  uint64_t v = 0;
  try {
    v = n.as<uint64_t>();
  } catch (const YAML::Exception&) {
    fail(path, n, "'" + key + "' must be a non-negative integer");
  }
  if (v < lo || v > hi)
    fail(path, n,
         "'" + key + "' = " + std::to_string(v) + " is out of range " + std::to_string(lo) + ".." +
             std::to_string(hi));
  return v;
}

using Setter = std::function<void(const YAML::Node&, const std::string& key)>;

void walk(const std::string& path, const YAML::Node& map, const std::string& prefix,
          const std::map<std::string, Setter>& keys) {
  if (!map.IsMap())
    fail(path, map,
         prefix.empty()
             ? "a configuration is a mapping of sections (core:, memory:, ...), not a list or a value"
             : "'" + prefix + "' must be a mapping of its keys, not a list or a value");
  for (const auto& kv : map) {
    const std::string key = kv.first.as<std::string>();
    const std::string full = prefix.empty() ? key : prefix + "." + key;
    auto it = keys.find(full);
    if (it == keys.end()) {
      bool is_section = false;
      for (auto& [k, s] : keys) is_section |= k.rfind(full + ".", 0) == 0;
      if (!is_section) fail(path, kv.first, "unknown configuration key '" + full + "'");
      walk(path, kv.second, full, keys);
    } else {
      it->second(kv.second, full);
    }
  }
}

// Before yaml-cpp opens the file: it reports a directory as "basic_filebuf::underflow
// error reading the file" and would read a device such as /dev/zero forever.
void check_config_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw ConfigError(path + ": error: is a directory, not a configuration file");
  if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec))
    throw ConfigError(path + ": error: is not a regular file (a configuration is a YAML file)");
}

// yaml-cpp keeps both entries of a key written twice, and the walk would let the
// later one win silently; a configuration says each thing once.
void check_duplicate_keys(const std::string& path, const YAML::Node& map, const std::string& prefix) {
  if (!map.IsMap()) return;
  std::map<std::string, YAML::Mark> seen;
  for (const auto& kv : map) {
    if (!kv.first.IsScalar())
      fail(path, kv.first, "a configuration key must be a name, not a list or a mapping");
    const std::string key = kv.first.Scalar();
    const std::string full = prefix.empty() ? key : prefix + "." + key;
    const auto [it, fresh] = seen.emplace(key, kv.first.Mark());
    if (!fresh)
      fail(path, kv.first,
           "duplicate key '" + full + "' (lines " + std::to_string(it->second.line + 1) + " and " +
               std::to_string(kv.first.Mark().line + 1) + ")");
    check_duplicate_keys(path, kv.second, full);
  }
}

// An empty file (or one of comments only) is most likely a mistake, such as a file
// truncated by a failed copy; taking it as the default machine would hide that.
void check_not_empty(const std::string& path, const YAML::Node& root) {
  if (root.IsNull())
    throw ConfigError(path +
                      ": error: the configuration is empty (for the default machine, name "
                      "configs/default.yaml or leave out the configuration)");
}

// A second document (after ---) would be dropped unread by YAML::Load.  Counted with
// the parser itself, not YAML::LoadAll: yaml-cpp 0.7's LoadAll never ends on some
// inputs ("," gives endless empty documents; the fuzzer found it), so documents are
// read one at a time, at most a few, and only one with content counts.
class ContentSeen final : public YAML::EventHandler {
 public:
  bool seen = false;
  YAML::Mark at;
  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark& m, YAML::anchor_t) override { see(m); }
  void OnScalar(const YAML::Mark& m, const std::string&, YAML::anchor_t, const std::string&) override {
    see(m);
  }
  void OnSequenceStart(const YAML::Mark& m, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {
    see(m);
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark& m, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {
    see(m);
  }
  void OnMapEnd() override {}

 private:
  void see(const YAML::Mark& m) {
    if (!seen) at = m;
    seen = true;
  }
};

void check_one_document(const std::string& path, const std::string& text) {
  std::istringstream in(text);
  YAML::Parser parser(in);
  ContentSeen first;
  if (!parser.HandleNextDocument(first)) return;
  for (int i = 0; i < 16; ++i) {
    ContentSeen next;
    if (!parser.HandleNextDocument(next)) return;
    if (next.seen)
      throw ConfigError(path + ":" + std::to_string(next.at.line + 1) +
                        ": error: a second YAML document (after '---'): a configuration is one document, "
                        "and the later ones would be ignored");
  }
}

}  // namespace

std::string group_names(uint32_t groups) {
  std::string s;
  for (unsigned b = 0; b < isa::kNumGroups; ++b)
    if ((groups >> b) & 1u) s += (s.empty() ? "" : ", ") + std::string(isa::kGroups[b].name);
  return s;
}

Config load_config(const std::string& path) {
  check_config_file(path);
  // yaml-cpp's LoadFile would open the file the same way and parse the same stream;
  // reading it here lets parse_config (and so the fuzzer) run exactly this code.
  std::ifstream f(path);
  if (!f) throw ConfigError(path + ": error: cannot read configuration file: " + std::strerror(errno));
  const std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  return parse_config(text, path);
}

Config parse_config(const std::string& text, const std::string& path) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
    check_one_document(path, text);
  } catch (const YAML::ParserException& e) {
    throw ConfigError(path + ":" + std::to_string(e.mark.line + 1) + ": error: " + e.msg);
  }
  check_not_empty(path, root);
  check_duplicate_keys(path, root, "");
  Config c;
  auto uint_key = [&](auto* field, uint64_t lo, uint64_t hi) -> Setter {
    return [=, &path](const YAML::Node& n, const std::string& key) {
      *field = static_cast<std::remove_pointer_t<decltype(field)>>(get_uint(path, n, key, lo, hi));
    };
  };
  // A non-empty scalar, one of `allowed` unless that is empty.
  auto string_key = [&](std::string* field, std::vector<std::string> allowed) -> Setter {
    return [=, &path](const YAML::Node& n, const std::string& key) {
      const std::string v = n.IsScalar() ? n.as<std::string>() : std::string();
      if (v.empty()) fail(path, n, "'" + key + "' must be a non-empty string");
      if (!allowed.empty() && std::find(allowed.begin(), allowed.end(), v) == allowed.end()) {
        std::string list;
        for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
        fail(path, n, "'" + key + "' = '" + v + "' is not one of: " + list);
      }
      *field = v;
    };
  };
  auto bool_key = [&](bool* field) -> Setter {
    return [=, &path](const YAML::Node& n, const std::string& key) {
      try {
        *field = n.as<bool>();
      } catch (const YAML::Exception&) {
        fail(path, n, "'" + key + "' must be true or false");
      }
    };
  };
  auto free_key = [&](std::string* field) -> Setter {
    return [=](const YAML::Node& n, const std::string&) { *field = n.as<std::string>(); };
  };
  // A list of group names, each once; the required groups (base) must be there, so
  // that a configuration cannot leave out what every program needs by accident.
  auto groups_key = [&](uint32_t* field) -> Setter {
    return [=, &path](const YAML::Node& n, const std::string& key) {
      if (!n.IsSequence())
        fail(path, n, "'" + key + "' must be a list of extension groups, such as [base, fp32]");
      uint32_t mask = 0;
      for (const YAML::Node& g : n) {
        const isa::GroupInfo* gi = g.IsScalar() ? isa::find_group(g.Scalar()) : nullptr;
        if (!gi) {
          std::string known;
          for (const isa::GroupInfo& k : isa::kGroups)
            known += (known.empty() ? "" : ", ") + std::string(k.name);
          fail(path, g,
               "'" + key + "': '" + (g.IsScalar() ? g.Scalar() : std::string("?")) +
                   "' is not an extension group (isa/isa.yaml has: " + known + ")");
        }
        const unsigned bit = unsigned(gi - isa::kGroups);
        if ((mask >> bit) & 1u) fail(path, g, "'" + key + "' names group '" + gi->name + "' twice");
        mask |= 1u << bit;
      }
      for (unsigned b = 0; b < isa::kNumGroups; ++b)
        if (isa::kGroups[b].required && !((mask >> b) & 1u))
          fail(path, n,
               "'" + key + "' lacks group '" + isa::kGroups[b].name +
                   "', which every configuration has (isa/isa.yaml)");
      *field = mask;
    };
  };
  // Every key, its type and range: isa/config_keys.yaml, through umbra-configgen.
  const std::map<std::string, Setter> keys = {
#include "config_keys_gen.inc"
  };
  try {
    walk(path, root, "", keys);
  } catch (const YAML::Exception& e) {  // a value of the wrong shape (`name: {a: 1}`)
    throw ConfigError(path + ":" + std::to_string(e.mark.line + 1) + ": error: a value of the wrong form (" +
                      e.msg + ")");
  }
  // Reported at the key the file says (execute_stages when it deepens the default
  // core past the default thread count, else threads).
  if (c.threads < c.pipeline_depth()) {
    const YAML::Node core = root["core"];
    const bool at_stages = core && core["execute_stages"] && !core["threads"];
    fail(path, at_stages ? core["execute_stages"] : core["threads"],
         "'core.threads' = " + std::to_string(c.threads) + " is below the pipeline depth " +
             std::to_string(c.pipeline_depth()) + " ('core.execute_stages' = " +
             std::to_string(c.execute_stages) + " + " + std::to_string(uarch::kFetchToX1 + 1) +
             "): a thread's next instruction would meet its previous one in flight "
             "(docs/microarchitecture.md)");
  }
  auto pow2 = [](uint64_t v) { return v && !(v & (v - 1)); };
  auto need_pow2 = [&](const char* section, const char* key, uint64_t v) {
    if (!pow2(v))
      fail(path, root[section][key],
           std::string("'") + section + "." + key + "' = " + std::to_string(v) + " must be a power of two");
  };
  need_pow2("dram", "banks", c.dram_banks);
  need_pow2("dram", "row_bytes", c.dram_row_bytes);
  if (c.cache_bytes == 0) {
    // No data cache: a load is a fill of its one word, so the line is a word.  Ways and
    // a line size would describe a cache there is not; saying them is a mistake.
    for (const char* key : {"ways", "line_bytes", "line_port"})
      if (root["cache"][key])
        fail(path, root["cache"][key],
             std::string("'cache.") + key + "' has no meaning with 'cache.bytes' = 0 (no data cache)");
    c.cache_ways = 1;
    c.cache_line_bytes = 4;
  }
  need_pow2("cache", "bytes", c.cache_bytes ? c.cache_bytes : 1);
  need_pow2("cache", "ways", c.cache_ways);
  need_pow2("cache", "line_bytes", c.cache_line_bytes);
  if (c.cache_bytes && c.cache_bytes < uint64_t(c.cache_ways) * c.cache_line_bytes)
    fail(path, root["cache"],
         "the cache ('cache.bytes' = " + std::to_string(c.cache_bytes) +
             ") is smaller than one set of 'cache.ways' lines of 'cache.line_bytes'");
  if (c.dram_row_bytes < c.cache_line_bytes)
    fail(path, root["dram"]["row_bytes"], "'dram.row_bytes' is smaller than a cache line");
  if (c.mem_bytes % 4) fail(path, root["memory"]["bytes"], "'memory.bytes' must be a multiple of 4");
  if (c.data_base % 4 || c.data_base >= c.mem_bytes)
    fail(path, root["memory"]["data_base"] ? root["memory"]["data_base"] : root["memory"],
         "'memory.data_base' = " + std::to_string(c.data_base) + " must be a multiple of 4 inside the " +
             std::to_string(c.mem_bytes) + " bytes of data memory");
  // The HX8K has no DSP blocks; an FPGA section needs its device to mean anything.
  if (c.fpga_dsp && c.fpga_device != "up5k" && c.fpga_device != "lfe5u-85f")
    fail(path, root["fpga"]["dsp"], "'fpga.dsp' needs a device with DSP blocks (up5k, lfe5u-85f)");
  if (root["fpga"] && c.fpga_device.empty())
    fail(path, root["fpga"], "the 'fpga' section needs 'fpga.device'");
  // The iCEBreaker carries an iCE40UP5K in the SG48 package.
  if (c.fpga_board == "icebreaker" && (c.fpga_device != "up5k" || c.fpga_package != "sg48"))
    fail(path, root["fpga"]["board"],
         "'fpga.board' = 'icebreaker' needs 'fpga.device' up5k and 'fpga.package' sg48");
  // The iCE40-HX8K breakout board carries an iCE40HX8K in the CT256 package.
  if (c.fpga_board == "hx8k_breakout" && (c.fpga_device != "hx8k" || c.fpga_package != "ct256"))
    fail(path, root["fpga"]["board"],
         "'fpga.board' = 'hx8k_breakout' needs 'fpga.device' hx8k and 'fpga.package' ct256");
  // The ULX3S carries an ECP5 LFE5U-85F in the CABGA381 package.
  if (c.fpga_board == "ulx3s" && (c.fpga_device != "lfe5u-85f" || c.fpga_package != "CABGA381"))
    fail(path, root["fpga"]["board"],
         "'fpga.board' = 'ulx3s' needs 'fpga.device' lfe5u-85f and 'fpga.package' CABGA381");
  if (c.fpga_board == "ulx3s" && c.fpga_board_clock_mhz && !ecp5_pll(kUlx3sOscMhz, c.fpga_board_clock_mhz))
    fail(path, root["fpga"]["board_clock_mhz"],
         "'fpga.board_clock_mhz' = " + std::to_string(c.fpga_board_clock_mhz) +
             " cannot be made exactly from the ULX3S's 25 MHz by the ECP5 PLL");
  if (!c.fpga_board.empty() && c.fpga_board_clock_mhz == 0)
    fail(path, root["fpga"]["board"],
         "'fpga.board' needs 'fpga.board_clock_mhz', the board top's core clock");
  if (c.fpga_board.empty() && c.fpga_board_target_mhz)
    fail(path, root["fpga"]["board_target_mhz"], "'fpga.board_target_mhz' needs 'fpga.board'");
  // The synthesis top's target is for the clock it is placed at (fpga/build.sh builds a
  // synthesis top only where fpga.clock_mhz is given).
  if (!c.fpga_clock_mhz && c.fpga_target_mhz)
    fail(path, root["fpga"]["target_mhz"], "'fpga.target_mhz' needs 'fpga.clock_mhz'");
  return c;
}

}  // namespace umbra
