// The configuration loader as users meet it: every shipped configs/*.yaml loads, the
// memory-system keys have the brief's defaults, and a bad value names its file, line
// and what is wrong (a typo must never fall back to a default silently).
#include "umbra/config.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "umbra_testing/config_cases.h"

namespace {

namespace fs = std::filesystem;

// This process's scratch directory, with a trailing '/'.
std::string scratch_dir() {
  const fs::path dir = fs::temp_directory_path() / ("umbra_config_test_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir.string() + "/";
}

std::string write(const std::string& name, const std::string& text) {
  const std::string p = scratch_dir() + name;
  std::ofstream(p) << text;
  return p;
}

TEST(Config, EveryShippedConfigurationLoads) {
  int n = 0;
  for (const auto& e : fs::directory_iterator(fs::path(UMBRA_SOURCE_DIR) / "configs")) {
    if (e.path().extension() != ".yaml") continue;
    ++n;
    EXPECT_NO_THROW(umbra::load_config(e.path().string())) << e.path();
  }
  EXPECT_GE(n, 3);
}

TEST(Config, MemorySystemDefaultsAreTheBriefs) {
  const umbra::Config c = umbra::load_config(write("empty.yaml", "name: x\n"));
  EXPECT_EQ(c.mem_model, "dram");
  EXPECT_EQ(c.cache_line_bytes, 32u);
  EXPECT_EQ(c.queue_mode, "reorder");
  EXPECT_EQ(c.queue_open_rows, 4u);
  EXPECT_EQ(c.dram_tRCD, 11u);
  EXPECT_EQ(c.dram_tRP, 11u);
  EXPECT_EQ(c.dram_CL, 11u);
  EXPECT_EQ(c.dram_tRAS, 28u);
  EXPECT_EQ(c.dram_burst, 8u);
  EXPECT_EQ(c.dram_bus_bytes, 8u);
  EXPECT_EQ(c.dram_banks, 8u);
  EXPECT_EQ(c.dram_row_bytes, 2048u);
  EXPECT_EQ(c.data_base, 0x10000u);
}

TEST(Config, MemorySystemKeysAreRead) {
  const umbra::Config c = umbra::load_config(
      write("mem.yaml",
            "memory:\n  model: fixed\n  data_base: 0x400\n  bytes: 8192\n"
            "cache:\n  bytes: 1024\n  ways: 4\n  line_bytes: 16\n  request_queue: 6\n"
            "queue:\n  mode: fcfs\n  depth: 8\n  open_rows: 2\n  max_passes: 5\n"
            "dram:\n  banks: 4\n  row_bytes: 1024\n  tRCD: 9\n  tRP: 8\n  CL: 7\n  tRAS: 20\n"));
  EXPECT_EQ(c.mem_model, "fixed");
  EXPECT_EQ(c.data_base, 0x400u);
  EXPECT_EQ(c.cache_bytes, 1024u);
  EXPECT_EQ(c.cache_ways, 4u);
  EXPECT_EQ(c.cache_line_bytes, 16u);
  EXPECT_EQ(c.cache_request_queue, 6u);
  EXPECT_EQ(c.queue_mode, "fcfs");
  EXPECT_EQ(c.queue_depth, 8u);
  EXPECT_EQ(c.queue_open_rows, 2u);
  EXPECT_EQ(c.queue_max_passes, 5u);
  EXPECT_EQ(c.dram_banks, 4u);
  EXPECT_EQ(c.dram_row_bytes, 1024u);
  EXPECT_EQ(c.dram_tRCD, 9u);
  EXPECT_EQ(c.dram_tRP, 8u);
  EXPECT_EQ(c.dram_CL, 7u);
  EXPECT_EQ(c.dram_tRAS, 20u);
}

// No cache: a load reads its one word, so the port's fill is a word long.
TEST(Config, CacheBytesZeroMeansNoCacheAndOneWordFills) {
  const umbra::Config c =
      umbra::load_config(write("nocache.yaml", "cache:\n  bytes: 0\n  request_queue: 6\n"));
  EXPECT_EQ(c.cache_bytes, 0u);
  EXPECT_EQ(c.cache_ways, 1u);
  EXPECT_EQ(c.cache_line_bytes, 4u);
  EXPECT_EQ(c.cache_request_queue, 6u);
}

TEST(Config, BadMemorySystemValuesNameLineAndReason) {
  umbra::testkit::expect_refused(
      scratch_dir(),
      {
          {"cache:\n  ways: 3\n", ":2: error: 'cache.ways' = 3 must be a power of two"},
          {"cache:\n  line_bytes: 48\n", ":2: error: 'cache.line_bytes' = 48 must be a power of two"},
          {"cache:\n  line_bytes: 4\n", ":2: error: 'cache.line_bytes' = 4 is out of range 8..128"},
          {"cache:\n  bytes: 64\n  ways: 4\n", "is smaller than one set of 'cache.ways' lines"},
          {"queue:\n  mode: lifo\n", ":2: error: 'queue.mode' = 'lifo' is not one of: reorder, fcfs"},
          {"dram:\n  banks: 6\n", ":2: error: 'dram.banks' = 6 must be a power of two"},
          {"dram:\n  row_bytes: 64\ncache:\n  line_bytes: 128\n", ":2: error: 'dram.row_bytes' is smaller"},
          {"memory:\n  model: sram\n", ":2: error: 'memory.model' = 'sram' is not one of: dram, fixed"},
          {"memory:\n  bytes: 8192\n",
           ":2: error: 'memory.data_base' = 65536 must be a multiple of 4 inside"},
          {"memory:\n  data_base: 6\n", ":2: error: 'memory.data_base' = 6 must be a multiple of 4"},
          {"cache:\n  size: 4096\n", ":2: error: unknown configuration key 'cache.size'"},
          {"cache:\n  bytes: 0\n  line_bytes: 16\n",
           ":3: error: 'cache.line_bytes' has no meaning with 'cache.bytes' = 0"},
          {"cache:\n  bytes: 0\n  ways: 2\n",
           ":3: error: 'cache.ways' has no meaning with 'cache.bytes' = 0"},
          {"cache:\n  bytes: 0\n  line_port: true\n",
           ":3: error: 'cache.line_port' has no meaning with 'cache.bytes' = 0"},
          {"cache:\n  line_port: 2\n", ":2: error: 'cache.line_port' must be true or false"},
          {"cache:\n  bytes: 24\n", ":2: error: 'cache.bytes' = 24 must be a power of two"},
      });
}

// core.groups: names from isa.yaml, each once, the required base always there.
TEST(Config, GroupsAreIsaYamlsNamesWithBase) {
  EXPECT_EQ(umbra::Config{}.groups, umbra::isa::kAllGroups);
  const umbra::Config c =
      umbra::parse_config("core:\n  groups: [base, atomic, mulh]\n", scratch_dir() + "groups.yaml");
  namespace g = umbra::isa::group;
  EXPECT_EQ(c.groups, (1u << g::BASE) | (1u << g::ATOMIC) | (1u << g::MULH));
  EXPECT_EQ(umbra::group_names(c.groups), "base, mulh, atomic");
  EXPECT_TRUE(c.has(*umbra::isa::find_name("atom.add")));
  EXPECT_FALSE(c.has(*umbra::isa::find_name("fadd")));
  EXPECT_FALSE(c.has_group(g::FP32CVT));
  umbra::testkit::expect_refused(
      scratch_dir(),
      {
          {"core:\n  groups: [base, fp64]\n",
           ":2: error: 'core.groups': 'fp64' is not an extension group (isa/isa.yaml has: base, mulh"},
          {"core:\n  groups: [fp32]\n", ":2: error: 'core.groups' lacks group 'base'"},
          {"core:\n  groups:\n    - base\n    - fp32\n    - fp32\n",
           ":5: error: 'core.groups' names group 'fp32' twice"},
          {"core:\n  groups: base\n", ":2: error: 'core.groups' must be a list of extension groups"},
      });
}

// The message a bad file gives, or "" if it was accepted.
std::string load_error(const std::string& p) {
  try {
    umbra::load_config(p);
  } catch (const umbra::ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(Config, ADuplicateKeyIsRefusedNamingBothLines) {
  const std::string p = write("dup.yaml", "core:\n  threads: 8\n  registers: 32\n  threads: 16\n");
  EXPECT_EQ(load_error(p), p + ":4: error: duplicate key 'core.threads' (lines 2 and 4)");
  const std::string top = write("dup_top.yaml", "name: a\ncore:\n  threads: 8\nname: b\n");
  EXPECT_EQ(load_error(top), top + ":4: error: duplicate key 'name' (lines 1 and 4)");
  // A section written twice is a duplicate too, even when its keys differ.
  const std::string sec = write("dup_sec.yaml", "core:\n  threads: 8\ncore:\n  registers: 32\n");
  EXPECT_EQ(load_error(sec), sec + ":3: error: duplicate key 'core' (lines 1 and 3)");
  // The same key in two sections is not a duplicate.
  EXPECT_EQ(load_error(write("same_leaf.yaml", "cache:\n  bytes: 4096\nmemory:\n  bytes: 1048576\n")), "");
}

TEST(Config, AnEmptyFileIsRefused) {
  for (const std::string text : {"", "# only a comment\n", "\n\n"}) {
    const std::string p = write("empty.yaml", text);
    const std::string e = load_error(p);
    EXPECT_EQ(e.rfind(p + ": error: the configuration is empty", 0), 0u) << "'" << text << "': " << e;
  }
}

TEST(Config, ADirectoryOrADeviceIsNamedAsSuch) {
  const std::string dir = fs::path(write("x.yaml", "")).parent_path().string();
  EXPECT_EQ(load_error(dir), dir + ": error: is a directory, not a configuration file");
  // yaml-cpp would read /dev/zero forever.
  EXPECT_EQ(load_error("/dev/zero"),
            "/dev/zero: error: is not a regular file (a configuration is a YAML file)");
}

// parse_config is load_config after it has read the file (fuzz/fuzz_config.cpp runs it
// on text in memory): the same configuration, and the same refusal, naming the path.
TEST(Config, ParseConfigIsLoadConfigOnTheFilesText) {
  for (const auto& e : fs::directory_iterator(fs::path(UMBRA_SOURCE_DIR) / "configs")) {
    if (e.path().extension() != ".yaml") continue;
    std::ifstream f(e.path());
    const std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    const umbra::Config a = umbra::load_config(e.path().string()), b = umbra::parse_config(text, "x.yaml");
    EXPECT_EQ(a.name, b.name) << e.path();
    EXPECT_EQ(a.threads, b.threads) << e.path();
    EXPECT_EQ(a.imem_words, b.imem_words) << e.path();
    EXPECT_EQ(a.mem_bytes, b.mem_bytes) << e.path();
    EXPECT_EQ(a.data_base, b.data_base) << e.path();
    EXPECT_EQ(a.cache_bytes, b.cache_bytes) << e.path();
    EXPECT_EQ(a.fpga_device, b.fpga_device) << e.path();
  }
  for (const std::string text :
       {"core:\n  threads: 8\n  threads: 16\n", "", "cores: [1\n", "cache:\n  ways: 3\n"}) {
    const std::string p = write("parse.yaml", text);
    std::string from_text;
    try {
      umbra::parse_config(text, p);
    } catch (const umbra::ConfigError& e) {
      from_text = e.what();
    }
    EXPECT_NE(from_text, "") << text;
    EXPECT_EQ(from_text, load_error(p)) << text;
  }
}

// Found by fuzz/fuzz_config.cpp: yaml-cpp's conversion errors escaped as a
// non-ConfigError exception without the file's name.
TEST(Config, KeysAndValuesOfTheWrongFormNameFileAndLine) {
  const std::string key = write("list_key.yaml", "core:\n  threads: 8\n[x]: 1\n");
  EXPECT_EQ(load_error(key), key + ":3: error: a configuration key must be a name, not a list or a mapping");
  const std::string value = write("map_value.yaml", "cores: 1\nname: {a: 1}\n");
  EXPECT_EQ(load_error(value).rfind(value + ":2: error: a value of the wrong form", 0), 0u)
      << load_error(value);
}

}  // namespace

// The core's limits are isa/uarch.yaml's, the same numbers the SystemC model and the
// RTL check: the largest value is accepted and the next one is refused with its line.
TEST(Config, CoreLimitsAreTheMicroarchitecturesOnes) {
  const umbra::Config c = umbra::load_config(
      write("max.yaml", "core:\n  threads: " + std::to_string(umbra::uarch::kMaxThreads) +
                            "\n  imem_words: " + std::to_string(umbra::uarch::kMaxImemWords) +
                            "\n  registers: " + std::to_string(umbra::uarch::kMinRegisters) + "\n"));
  EXPECT_EQ(c.threads, umbra::uarch::kMaxThreads);
  EXPECT_EQ(c.imem_words, umbra::uarch::kMaxImemWords);
  EXPECT_EQ(c.registers, umbra::uarch::kMinRegisters);
  const struct {
    std::string text, says;
  } bad[] = {
      {"core:\n  threads: " + std::to_string(umbra::uarch::kMaxThreads + 1) + "\n", "'core.threads'"},
      {"core:\n  imem_words: " + std::to_string(umbra::uarch::kMaxImemWords + 1) + "\n", "'core.imem_words'"},
      {"core:\n  registers: " + std::to_string(umbra::uarch::kMinRegisters - 1) + "\n", "'core.registers'"},
      {"core:\n  threads: " + std::to_string(umbra::uarch::kMinThreads - 1) + "\n", "pipeline depth"},
  };
  for (const auto& b : bad) {
    try {
      umbra::load_config(write("bad_limit.yaml", b.text));
      ADD_FAILURE() << "accepted:\n" << b.text;
    } catch (const umbra::ConfigError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("bad_limit.yaml:2: error:"), std::string::npos) << what;
      EXPECT_NE(what.find(b.says), std::string::npos) << what;
    }
  }
}

// core.execute_stages: isa/uarch.yaml's range, and a depth (fetch_to_x1 + L + 1) no
// larger than the thread count; the error names the file, the line of the key that
// broke the rule and both numbers.
TEST(Config, ExecuteStagesWithinTheLimitsAndTheThreads) {
  using umbra::uarch::kFetchToX1;
  EXPECT_EQ(umbra::Config{}.execute_stages, 4u) << "the default core is today's: X1 -> W = 4";
  EXPECT_EQ(umbra::Config{}.pipeline_depth(), 8u);
  // The deepest pipeline the threads allow: depth == threads.
  const umbra::Config deep =
      umbra::load_config(write("deep.yaml", "core:\n  threads: 16\n  execute_stages: 12\n"));
  EXPECT_EQ(deep.execute_stages, 12u);
  EXPECT_EQ(deep.pipeline_depth(), 16u);
  const umbra::Config top = umbra::load_config(
      write("top.yaml", "core:\n  threads: " + std::to_string(umbra::uarch::kMaxPipelineDepth) +
                            "\n  execute_stages: " + std::to_string(umbra::uarch::kMaxExecuteStages) + "\n"));
  EXPECT_EQ(top.pipeline_depth(), umbra::uarch::kMaxPipelineDepth);
  const struct {
    std::string text;
    int line;
    std::string says;
  } bad[] = {
      {"core:\n  threads: 64\n  execute_stages: " + std::to_string(umbra::uarch::kMinExecuteStages - 1) +
           "\n",
       3, "'core.execute_stages' = 3 is out of range 4.." + std::to_string(umbra::uarch::kMaxExecuteStages)},
      {"core:\n  threads: 64\n  execute_stages: " + std::to_string(umbra::uarch::kMaxExecuteStages + 1) +
           "\n",
       3, "'core.execute_stages' = 17 is out of range"},
      // One stage too deep for the threads: at the threads key when the file gives it.
      {"core:\n  threads: 12\n  execute_stages: 9\n", 2,
       "'core.threads' = 12 is below the pipeline depth 13 ('core.execute_stages' = 9 + 4)"},
      // The default 8 threads under a deeper execute: at the key that deepened it.
      {"name: x\ncore:\n  execute_stages: 5\n", 3, "'core.threads' = 8 is below the pipeline depth 9"},
  };
  for (const auto& b : bad) {
    try {
      umbra::load_config(write("bad_stages.yaml", b.text));
      ADD_FAILURE() << "accepted:\n" << b.text;
    } catch (const umbra::ConfigError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("bad_stages.yaml:" + std::to_string(b.line) + ": error:"), std::string::npos)
          << what;
      EXPECT_NE(what.find(b.says), std::string::npos) << what;
    }
  }
  static_assert(kFetchToX1 == 3, "the messages above count F, D, R and W: 3 + 1");
}

// The generated helpers, as compiled into this build: the depth and the stage names
// follow L, and today's default is the eight-stage core.
TEST(Uarch, DepthHelpersFollowTheExecuteStages) {
  using namespace umbra::uarch;
  static_assert(pipeline_depth(kDefaultExecuteStages) == 8, "the default core is F D R X1 X2 X3 X4 W");
  EXPECT_EQ(pipeline_depth(4), 8u);
  EXPECT_EQ(pipeline_depth(12), 16u);
  EXPECT_EQ(fetch_to_w(8), 11u);
  EXPECT_EQ(kMinThreads, pipeline_depth(kMinExecuteStages));
  EXPECT_STREQ(stage_name(0, 4), "F");
  EXPECT_STREQ(stage_name(3, 4), "X1");
  EXPECT_STREQ(stage_name(6, 4), "X4");
  EXPECT_STREQ(stage_name(7, 4), "W");
  EXPECT_STREQ(stage_name(7, 8), "X5");
  EXPECT_STREQ(stage_name(11, 8), "W");
  EXPECT_STREQ(stage_name(12, 8), "?");
  EXPECT_STREQ(stage_name(fetch_to_w(kMaxExecuteStages) - 1, kMaxExecuteStages),
               ("X" + std::to_string(kMaxExecuteStages)).c_str());
}
