// umbra_testing/config_cases.h: the one check that a bad configuration file is
// refused with its file, line and reason, for every test that lists such files.
//
// The loader's own tests (isa/tests/config_test.cpp) and the FPGA section's
// (fpga/tests/fpga_config_test.cpp) each keep a table of bad YAML and the message it
// must give; the loop that writes each one, loads it and checks the message is this.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <initializer_list>
#include <string>

#include "umbra/config.h"

namespace umbra::testkit {

struct BadConfig {
  const char* yaml;
  // What the message must contain.  One that starts with ':' (":3: error: ...") must
  // follow the file's path directly: it names the line.  Every message must start
  // with the path.
  const char* message;
};

// Writes each case to `file_prefix` + "badN.yaml" and loads it.
inline void expect_refused(const std::string& file_prefix, std::initializer_list<BadConfig> cases) {
  int i = 0;
  for (const auto& tc : cases) {
    const std::string p = file_prefix + "bad" + std::to_string(i++) + ".yaml";
    std::ofstream(p, std::ios::binary) << tc.yaml;
    try {
      umbra::load_config(p);
      ADD_FAILURE() << "accepted:\n" << tc.yaml;
    } catch (const umbra::ConfigError& e) {
      const std::string what = e.what();
      const std::string want = tc.message[0] == ':' ? p + tc.message : tc.message;
      EXPECT_NE(what.find(want), std::string::npos) << "got: " << what << "\nwanted: " << want;
      EXPECT_EQ(what.rfind(p + ":", 0), 0u) << what;
    }
  }
}

}  // namespace umbra::testkit
