// libFuzzer target for the configuration loader (configs/*.yaml): the bytes are the
// file's text, given to umbra::parse_config, which is what umbra::load_config runs on
// a file once it has read it (reading the file itself, directories and devices
// included, is the unit tests' part: isa/tests/config_test.cpp).  The loader may refuse
// a text only by throwing a ConfigError whose message starts with the file's name; any
// other exception (a yaml-cpp conversion error escaping, std::bad_alloc), crash, leak
// or hang is a finding.  A text it accepts must describe a machine the loader's own
// rules allow, so a few of them are checked again here.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "umbra/config.h"

namespace {

// The name the messages must start with.
const std::string& path() {
  static const std::string p = "fuzz_config.yaml";
  return p;
}

[[noreturn]] void finding(const char* what, const std::string& detail) {
  std::fprintf(stderr, "fuzz_config: %s: %s\n", what, detail.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const umbra::Config c =
        umbra::parse_config(std::string(reinterpret_cast<const char*>(data), size), path());
    if (c.threads < c.pipeline_depth()) finding("accepted", "threads below the pipeline depth");
    if (c.execute_stages < umbra::uarch::kMinExecuteStages ||
        c.execute_stages > umbra::uarch::kMaxExecuteStages)
      finding("accepted", "execute_stages outside isa/uarch.yaml's limits");
    if (c.data_base % 4 || c.data_base >= c.mem_bytes) finding("accepted", "data_base outside memory");
    if (c.cache_bytes && c.cache_bytes < uint64_t(c.cache_ways) * c.cache_line_bytes)
      finding("accepted", "a cache smaller than one set");
  } catch (const umbra::ConfigError& e) {
    if (std::strncmp(e.what(), path().c_str(), path().size()) != 0)
      finding("a ConfigError that does not start with the file name", e.what());
  } catch (const std::exception& e) {
    finding("an exception other than ConfigError", e.what());
  }
  return 0;
}
