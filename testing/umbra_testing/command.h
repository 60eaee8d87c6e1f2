// umbra_testing/command.h: running a built tool from a test the way its users run it
// (through the shell, stdin closed) and keeping its exit code and both outputs.
//
// The CLI tests of umbra-sim, umbra-config, umbra-as and the other tools all need the
// same three things: a scratch directory of their own per test case (ctest runs cases
// as parallel processes), a command run with its output captured, and the exit code
// as the user's shell sees it.  Header-only, GoogleTest and the C++ library only, so
// every test binary (umbra_add_gtest puts this directory on its include path) can use
// it without linking anything.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace umbra::testkit {

struct Outcome {
  int rc = -1;  // the exit code; -1 when the process did not exit (a signal)
  std::string out, err;
};

inline std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

inline bool has(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

// Runs `cmd` through /bin/sh with stdin from /dev/null; stdout and stderr go through
// the files `out_file` and `err_file` (the caller's own, so parallel cases do not mix).
inline Outcome run_command(const std::string& cmd, const std::string& out_file, const std::string& err_file) {
  const int status = std::system((cmd + " >'" + out_file + "' 2>'" + err_file + "' </dev/null").c_str());
  Outcome o;
  o.rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  o.out = slurp(out_file);
  o.err = slurp(err_file);
  return o;
}

// A fixture whose every case has an empty scratch directory of its own,
// TempDir()/<suite>_<case>, for its input files and the outputs of the commands it runs.
class ScratchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = ::testing::TempDir() + info->test_suite_name() + "_" + info->name();
    ASSERT_EQ(std::system(("rm -rf '" + dir_ + "' && mkdir -p '" + dir_ + "'").c_str()), 0);
  }
  std::string path(const std::string& name) const { return dir_ + "/" + name; }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(path(name), std::ios::binary) << text;
    return path(name);
  }
  Outcome run_command(const std::string& cmd) const {
    return testkit::run_command(cmd, path("stdout"), path("stderr"));
  }
  std::string dir_;
};

}  // namespace umbra::testkit
