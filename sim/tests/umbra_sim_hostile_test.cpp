// umbra-sim against hostile input (issue 15): each case is the command a user might
// type, the exit code and message docs/simulator.md promises, the files it must not
// touch, and a bound on the time it may take.  The built binary (UMBRA_SIM_PATH) is
// run through the shell so that stdout can be pointed at /dev/full like a user's can.
// The cycle-model cases are short (a livelock is stopped within a second of
// simulation), so they live here with the rest rather than in the slower suite.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace {

constexpr int kOk = 0, kBadInput = 1, kLivelock = 5;  // docs/simulator.md, Exit codes

struct Outcome {
  int rc = -1;
  std::string out, err;
  double seconds = 0;
};

std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

bool has(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

const char* kProgram = R"(
_start: li   r1, 5
        exit
        .data
cell:   .word 7
)";

class UmbraSimHostile : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = ::testing::TempDir() + "umbra_sim_hostile_" + info->name();
    ASSERT_EQ(std::system(("rm -rf '" + dir_ + "' && mkdir -p '" + dir_ + "'").c_str()), 0);
  }
  std::string path(const std::string& name) const { return dir_ + "/" + name; }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(path(name), std::ios::binary) << text;
    return path(name);
  }
  // `args` may end in its own stdout redirection, which then wins over the default.
  Outcome run(const std::string& args, const std::string& stdout_to = "") const {
    const std::string out = stdout_to.empty() ? "'" + path("stdout") + "'" : stdout_to;
    const std::string cmd = std::string(UMBRA_SIM_PATH) + " --no-progress " + args + " >" + out + " 2>'" +
                            path("stderr") + "' </dev/null";
    const auto t0 = std::chrono::steady_clock::now();
    const int status = std::system(cmd.c_str());
    Outcome o;
    o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    o.rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    o.out = stdout_to.empty() ? slurp(path("stdout")) : "";
    o.err = slurp(path("stderr"));
    return o;
  }
  std::string dir_;
};

// Item 1: an endless input is refused at the loader's bound, not read until memory
// runs out (which used to be blamed on --mem-size).
TEST_F(UmbraSimHostile, EndlessInputIsRefusedAtTheImageBound) {
  const Outcome o = run("/dev/zero");
  EXPECT_EQ(o.rc, kBadInput);
  EXPECT_TRUE(has(o.err, "/dev/zero: error: longer than")) << o.err;
  EXPECT_FALSE(has(o.err, "out of memory")) << o.err;
  EXPECT_LT(o.seconds, 10.0);
}

// Item 7: a directory is named as one, whatever its name looks like.
TEST_F(UmbraSimHostile, DirectoryInputIsNamedADirectory) {
  for (const std::string name : {"dir", "dir.s", "dir.hex"}) {
    ASSERT_EQ(std::system(("mkdir -p '" + path(name) + "'").c_str()), 0);
    const Outcome o = run("'" + path(name) + "'");
    EXPECT_EQ(o.rc, kBadInput) << name;
    EXPECT_TRUE(has(o.err, path(name) + ": error: is a directory, not a program")) << o.err;
    EXPECT_FALSE(has(o.err, "basic_filebuf")) << o.err;
  }
}

// Item 2: no output option may replace the program it runs; the program is intact
// and nothing ran.
TEST_F(UmbraSimHostile, OutputsThatWouldOverwriteTheInputAreRefused) {
  const std::string prog = write("p.s", kProgram);
  const std::string rel = "'" + dir_ + "/./p.s'";  // another spelling of the same file
  struct {
    std::string args, option;
  } cases[] = {
      {"--trace " + prog + " " + prog, "--trace"},
      {prog + " --stats-json " + rel, "--stats-json"},
      {prog + " --dump-mem cell:4:" + prog, "--dump-mem"},
      {prog + " --dump-image cell:1x1:" + rel, "--dump-image"},
      {"--model systemc " + prog + " --trace " + prog, "--trace"},
      {"--model systemc " + prog + " --timeline " + prog, "--timeline"},
  };
  for (const auto& c : cases) {
    const Outcome o = run(c.args);
    EXPECT_EQ(o.rc, kBadInput) << c.args;
    EXPECT_TRUE(has(o.err, c.option + " '")) << o.err;
    EXPECT_TRUE(has(o.err, "is the program '")) << o.err;
    EXPECT_TRUE(has(o.err, "refusing to overwrite it")) << o.err;
    EXPECT_EQ(slurp(prog), kProgram) << c.args;
    EXPECT_EQ(o.out, "") << c.args;
  }
  // Two outputs into one file would leave only the last.
  const Outcome o = run(prog + " --dump-mem cell:4:" + path("m") + " --stats-json " + path("m"));
  EXPECT_EQ(o.rc, kBadInput);
  EXPECT_TRUE(has(o.err, "are the same file")) << o.err;
}

// Item 3: a file or stdout that cannot be written is an error, not a silent loss.
TEST_F(UmbraSimHostile, WriteErrorsAreReported) {
  const std::string prog = write("p.s", kProgram);
  struct {
    std::string args, stdout_to, says;
  } cases[] = {
      {prog + " --trace /dev/full", "", "--trace '/dev/full': cannot write: No space left on device"},
      {"--model systemc " + prog + " --trace /dev/full", "",
       "--trace '/dev/full': cannot write: No space left on device"},
      {prog + " --dump-mem cell:4:/dev/full", "",
       "--dump-mem '/dev/full': cannot write: No space left on device"},
      {prog + " --stats-json /dev/full", "",
       "--stats-json '/dev/full': cannot write: No space left on device"},
      {prog + " --regs", "/dev/full", "standard output: cannot write: No space left on device"},
      {prog + " --trace -", "/dev/full", "standard output: cannot write: No space left on device"},
      {prog + " --dump-mem cell:4", "/dev/full", "standard output: cannot write: No space left on device"},
  };
  for (const auto& c : cases) {
    const Outcome o = run(c.args, c.stdout_to);
    EXPECT_EQ(o.rc, kBadInput) << c.args << " >" << c.stdout_to;
    EXPECT_TRUE(has(o.err, c.says)) << c.args << "\n" << o.err;
    EXPECT_TRUE(has(o.err, "No space left on device")) << o.err;
  }
  // The same commands into writable places succeed: the error is the device's.
  const Outcome ok = run(prog + " --regs --trace " + path("t") + " --dump-mem cell:4:" + path("m"));
  EXPECT_EQ(ok.rc, kOk) << ok.err;
  EXPECT_TRUE(has(ok.out, "r1=00000005")) << ok.out;
}

// Item 4: a waveform whose directory is missing is refused before the run, naming
// the option and the directory, on every model that writes one.
TEST_F(UmbraSimHostile, WaveformIntoAMissingDirectoryIsRefusedBeforeTheRun) {
  const std::string prog = write("p.s", kProgram);
  for (const std::string model : {"rtl", "cosim"})
    for (const std::string option : {"--vcd", "--fst"}) {
      const Outcome o = run("--model " + model + " " + prog + " " + option + " /nonexistent/dir/w");
      EXPECT_EQ(o.rc, kBadInput) << model << " " << option;
      EXPECT_TRUE(has(o.err, option + " '/nonexistent/dir/w': directory '/nonexistent/dir' does not exist"))
          << o.err;
      EXPECT_FALSE(has(o.err, "sc_trace_file_base")) << o.err;
      EXPECT_FALSE(has(o.err, "gtkwave")) << o.err;
      EXPECT_FALSE(has(o.err, "thread ")) << "ran anyway: " << o.err;
    }
  // A file where the directory should be.
  const Outcome o = run("--model rtl " + prog + " --vcd " + prog + "/w");
  EXPECT_EQ(o.rc, kBadInput);
  EXPECT_TRUE(has(o.err, "directory '" + prog + "' is not a directory")) << o.err;
}

// Item 5: a program that forgot `exit` is stopped as a livelock, on every model,
// within seconds, with its own exit code.
TEST_F(UmbraSimHostile, LivelockIsStoppedOnEveryModel) {
  const std::string prog = write("spin.s", "_start: j _start\n");
  for (const std::string model : {"iss", "systemc", "rtl", "cosim"}) {
    const Outcome o = run("--model " + model + " " + prog);
    EXPECT_EQ(o.rc, kLivelock) << model << "\n" << o.err;
    EXPECT_TRUE(has(o.err, "umbra-sim: livelock: every running thread at pc 0x00000000 for ")) << o.err;
    EXPECT_TRUE(has(o.err, "with no register or memory change; did the program forget `exit`?")) << o.err;
    EXPECT_LT(o.seconds, 20.0) << model;
  }
  // One thread exits, the other spins after changing a register: only the spinner is
  // named, and its pc is the spin's.
  const std::string half = write("half.s", R"(
_start: rdsr r1, tid
        bnz  r1, other
        exit
other:  li   r2, 3
spin:   j    spin
)");
  for (const std::string model : {"iss", "systemc"}) {
    const Outcome o = run("--model " + model + " --threads 2 " + half);
    EXPECT_EQ(o.rc, kLivelock) << model << "\n" << o.err;
    EXPECT_TRUE(has(o.err, "livelock: thread 1 at pc 0x00000010 for ")) << o.err;
  }
}

// A thread that waits for another (spinning on a load) is making memory traffic, and
// one counting down changes a register: neither is a livelock, however long it takes.
TEST_F(UmbraSimHostile, WaitingIsNotALivelock) {
  const std::string prog = write("wait.s", R"(
_start: rdsr  r1, tid
        la    r2, flag
        bnz   r1, count
poll:   ldw   r3, 0(r2)
        bz    r3, poll
        exit
count:  li    r4, 30000
down:   addi  r4, r4, -1
        bnz   r4, down
        li    r5, 1
        stw   r5, 0(r2)
        exit
        .data
flag:   .word 0
)");
  for (const std::string model : {"iss", "systemc"}) {
    const Outcome o = run("--model " + model + " --threads 2 " + prog);
    EXPECT_EQ(o.rc, kOk) << model << "\n" << o.err;
    EXPECT_FALSE(has(o.err, "livelock")) << o.err;
  }
}

// Item 6: a misaligned access names the pc and the instruction on every model and
// memory (the memory refuses it knowing only the thread and the address), with the
// word rule (4) and no internal word ("fill"); a posted store under DRAM is blamed on
// the store, not on the instruction its thread issued next.
TEST_F(UmbraSimHostile, MisalignedAccessNamesThePcAndTheInstructionOnEveryModel) {
  const std::string load = write("load.s", R"(
_start: la   r2, buf
        addi r2, r2, 2
        ldw  r1, 0(r2)
        exit
        .data
buf:    .word 1, 2
)");
  const std::string store = write("store.s", R"(
_start: la   r2, buf
        addi r2, r2, 2
        li   r1, 3
        stw  r1, 0(r2)
        exit
        .data
buf:    .word 1, 2
)");
  struct {
    std::string prog, says, at;
  } cases[] = {
      {load, "fault: thread 0, pc 0x0000000c (ldw r1, 0(r2)): misaligned access: ", "faulted at pc 0000000c"},
      {store,
       "fault: thread 0, pc 0x00000010 (stw r1, 0(r2)): misaligned access: ", "faulted at pc 00000010"},
  };
  for (const auto& c : cases)
    for (const std::string model : {"iss", "systemc", "rtl", "cosim"})
      for (const std::string config : {"default", "fixed-memory"}) {
        const Outcome o = run("--model " + model + " --config " + UMBRA_CONFIGS + "/" + config +
                              ".yaml --threads 1 " + c.prog);
        const std::string what = c.prog + " " + model + " " + config + "\n" + o.err;
        EXPECT_EQ(o.rc, 2) << what;
        EXPECT_TRUE(has(o.err, c.says)) << what;
        EXPECT_TRUE(has(o.err, "address 0x00010002 is not a multiple of 4")) << what;
        EXPECT_FALSE(has(o.err, "fill")) << what;
        EXPECT_TRUE(has(o.err, c.at)) << what;
      }
}

// The default limits are said where a user looks for them.
TEST_F(UmbraSimHostile, HelpStatesTheDefaultLimits) {
  const Outcome o = run("--help");
  EXPECT_EQ(o.rc, kOk);
  EXPECT_TRUE(has(o.out, "default 100000000")) << o.out;
  EXPECT_TRUE(has(o.out, "default 10000000:")) << o.out;
  EXPECT_TRUE(has(o.out, "livelock")) << o.out;
}

}  // namespace
