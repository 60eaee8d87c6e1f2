// umbra-systemc-run as its users run it: the built binary, through its path.  Exit
// codes per outcome, the JSON summary's numbers agreeing with each other, the event
// file, the memory dump, and clear errors (not crashes) for bad input.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

namespace {

struct Outcome {
  int code = -1;
  std::string out, err;
};

std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "umbra_systemc_run_" + std::to_string(getpid()) + "_" + name;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

Outcome run(const std::string& args) {
  const std::string out = temp_path("stdout"), err = temp_path("stderr");
  const std::string cmd = std::string(UMBRA_SYSTEMC_RUN) + " " + args + " >" + out + " 2>" + err;
  const int status = std::system(cmd.c_str());
  Outcome o;
  o.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  o.out = slurp(out);
  o.err = slurp(err);
  std::remove(out.c_str());
  std::remove(err.c_str());
  return o;
}

std::string write_file(const std::string& name, const std::string& text) {
  const std::string path = temp_path(name);
  std::ofstream(path) << text;
  return path;
}

TEST(UmbraSystemcRun, JsonSummaryOfAnExitedRun) {
  const Outcome o = run("examples/sum.s --threads 3 --json --registers");
  ASSERT_EQ(o.code, 0) << o.err;
  const auto j = nlohmann::json::parse(o.out);
  EXPECT_EQ(j["status"], "exited");
  const uint64_t cycles = j["cycles"];
  EXPECT_EQ(cycles, uint64_t(j["end_cycle"]) - uint64_t(j["launch_cycle"]) - 1);
  ASSERT_EQ(j["issued"].size(), 8u);
  uint64_t issued = 0;
  for (unsigned t = 0; t < 8; ++t) {
    uint64_t slots = j["issued"][t];
    issued += slots;
    for (const char* why : {"idle", "memory", "exited"}) slots += uint64_t(j["bubbles"][why][t]);
    EXPECT_NEAR(double(slots), double(cycles) / 8, 1.0);
  }
  EXPECT_DOUBLE_EQ(double(j["ipc"]), double(issued) / double(cycles));
  ASSERT_EQ(j["registers"].size(), 3u);
  EXPECT_EQ(j["registers"][2][1], 2) << "r1 holds the launch index (rdsr r1, lx)";
  EXPECT_NE(o.err.find("exited"), std::string::npos);
}

TEST(UmbraSystemcRun, EventsAndMemoryDump) {
  const std::string events = temp_path("events"), mem = temp_path("mem");
  const Outcome o = run("examples/sum.s --threads 1 --events " + events + " --memory-out " + mem);
  ASSERT_EQ(o.code, 0) << o.err;
  const std::string ev = slurp(events);
  EXPECT_EQ(ev.rfind("0 bubble t0 idle\n", 0), 0u) << "cycle 0 comes first";
  EXPECT_NE(ev.find(" issue t0 pc=0x00000000\n"), std::string::npos);
  EXPECT_NE(ev.find(" memresp t0 data="), std::string::npos);
  EXPECT_EQ(slurp(mem).size(), 1u << 20) << "the default configuration's data memory";
  std::remove(events.c_str());
  std::remove(mem.c_str());
}

// --events is bounded as umbra-cosim's is: whole cycles up to --events-limit, a
// warning, the exit status as without a limit; a limit without --events is refused.
TEST(UmbraSystemcRun, AnEventsLimitStopsAtAWholeCycle) {
  const std::string events = temp_path("limited.events");
  const Outcome o = run("examples/sum.s --threads 2 --events " + events + " --events-limit 2K");
  EXPECT_EQ(o.code, 0) << o.err;
  const std::string text = slurp(events);
  EXPECT_LE(text.size(), 2048u);
  EXPECT_GT(text.size(), 1024u);
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text.back(), '\n');
  EXPECT_NE(o.err.find("umbra-systemc-run: warning: --events '" + events +
                       "' reached its size limit of 2 KiB at cycle "),
            std::string::npos)
      << o.err;
  const Outcome whole = run("examples/sum.s --threads 2 --events " + events);
  EXPECT_EQ(whole.code, 0) << whole.err;
  EXPECT_EQ(slurp(events).rfind(text, 0), 0u) << "the cut file is the whole file's beginning";
  EXPECT_EQ(whole.err.find("warning"), std::string::npos) << whole.err;
  const Outcome alone = run("examples/sum.s --events-limit 2K");
  EXPECT_EQ(alone.code, 1);
  EXPECT_NE(alone.err.find("--events-limit: bounds the file of --events"), std::string::npos) << alone.err;
  std::remove(events.c_str());
}

TEST(UmbraSystemcRun, ExitCodesForFaultAndLimit) {
  const std::string bad = write_file("bad.s", "movi r1, 2\nldw r2, 0(r1)\nexit\n");
  const Outcome f = run(bad + " --threads 1");
  EXPECT_EQ(f.code, 2) << f.err;
  EXPECT_NE(f.err.find("misaligned"), std::string::npos) << f.err;
  const std::string loop = write_file("loop.s", "l: j l\n");
  const Outcome l = run(loop + " --threads 1 --max-cycles 500");
  EXPECT_EQ(l.code, 3) << l.err;
  std::remove(bad.c_str());
  std::remove(loop.c_str());
}

TEST(UmbraSystemcRun, BadInputIsAClearErrorWithStatusOne) {
  const Outcome missing = run("no/such/file.s");
  EXPECT_EQ(missing.code, 1);
  EXPECT_NE(missing.err.find("error"), std::string::npos) << missing.err;

  const std::string cfg = write_file("t4.yaml", "core:\n  threads: 4\n");
  const Outcome small = run("examples/sum.s --config " + cfg);
  EXPECT_EQ(small.code, 1);
  EXPECT_NE(small.err.find("pipeline depth"), std::string::npos) << small.err;

  const Outcome many = run("examples/sum.s --threads 9");
  EXPECT_EQ(many.code, 1);
  EXPECT_NE(many.err.find("9 threads"), std::string::npos) << many.err;
  std::remove(cfg.c_str());
}

}  // namespace
