// board_sim_test: a board top Verilated and driven only through its UART pins, bit by
// bit, by
// the same host protocol library umbra-load uses (fpga/host/board_link.h).  What a
// user relies on: a program and its data load, run and read back correctly (the
// example programs against their references, atomics included, which execute in the
// board's memory controller); the status counters follow the pipeline contract; a
// fault is reported with its thread and pc and lights the red LED; every kind of bad
// frame is refused with its own error and leaves the link usable.
//
// Built twice (fpga/tests/CMakeLists.txt), once per board top, each Verilated with its
// configuration's parameters under the class name Vboard_top:
//   fpga_board_sim       fpga/icebreaker_top.v (SPRAM simulation model), UP5K
//                        configuration, BOARD_ICEBREAKER;
//   fpga_board_sim_hx8k  fpga/hx8k_breakout_top.v (block RAM), HX8K configuration.
// Programs are assembled for the board's configuration (BOARD_CONFIG: its registers,
// stores and .data origin), as umbra-as --config does.
//
// The board is Verilated with BAUD = CLK_HZ / 8 (8 clocks per bit) and a quiet time
// of 2000 clocks, so a byte costs 80 simulated cycles instead of 1040.
#include <gtest/gtest.h>

#include <memory>
#include <random>

#include "Vboard_top.h"
#include "board_link.h"
#include "harness.h"
#include "reference.h"
#include "uart_line.h"
#include "umbra/asm.h"
#include "umbra/config.h"
#include "verilated.h"

using namespace umbra;
using board::Code;
using board::LinkError;

namespace {

constexpr uint64_t kClkHz = BOARD_CLK_HZ;
constexpr unsigned kClksPerBit = BOARD_CLKS_PER_BIT;

// The board's LEDs: the iCEBreaker's green and red are active low; the HX8K breakout's
// D2 (running/halted) and D3 (fault) are LED[0] and LED[1], active high.
bool green_on(const Vboard_top& t) {
#ifdef BOARD_ICEBREAKER
  return t.LEDG_N == 0;
#else
  return (t.LED & 1) != 0;
#endif
}
bool red_on(const Vboard_top& t) {
#ifdef BOARD_ICEBREAKER
  return t.LEDR_N == 0;
#else
  return (t.LED & 2) != 0;
#endif
}

// The board's configuration, for the assembler's limits and .data origin.
const Config& board_config() {
  static const Config c = load_config(BOARD_CONFIG);
  return c;
}

// The board behind its two UART pins (fpga/tests/uart_line.h: 8N1 frames onto RX,
// TX sampled in each bit's middle).  The clock runs only inside read() and pause(),
// which is when a host would be waiting on the board.
class SimBoard : public board::Transport {
 public:
  SimBoard() : top_(std::make_unique<Vboard_top>()), uart_(kClksPerBit) {
    top_->RX = 1;
#ifdef BOARD_ICEBREAKER
    top_->BTN_N = 1;
#endif
    top_->CLK = 0;
    top_->eval();
    run(64);  // past the power-on reset
  }

  void write(const std::vector<uint8_t>& bytes) override {
    for (uint8_t b : bytes) send_frame(b, true);
  }
  // One 8N1 frame; stop = false sends a low stop bit (a framing error at the board).
  void send_frame(uint8_t b, bool stop) {
    uart_.send(b, stop);
  }

  size_t read(uint8_t* out, size_t n, unsigned timeout_ms) override {
    const uint64_t limit = cycle_ + timeout_ms * kClkHz / 1000;
    while (uart_.received.size() < n && cycle_ < limit) tick();
    const size_t got = std::min(n, uart_.received.size());
    for (size_t i = 0; i < got; ++i) {
      out[i] = uart_.received.front();
      uart_.received.pop_front();
    }
    return got;
  }
  void pause(unsigned ms) override {
    run(ms * kClkHz / 1000);
  }

  void run(uint64_t cycles) {
    for (uint64_t i = 0; i < cycles; ++i) tick();
  }
  // Runs until every queued byte is on the line and the line has been idle a while.
  void drain() {
    while (!uart_.idle()) tick();
  }
  Vboard_top& top() {
    return *top_;
  }
  uint64_t cycle() const {
    return cycle_;
  }
  unsigned framing_errors_seen() const {
    return uart_.framing_errors;
  }

 private:
  void tick() {
    top_->RX = uart_.rx_level();
    top_->CLK = 1;
    top_->eval();
    top_->CLK = 0;
    top_->eval();
    ++cycle_;
    uart_.sample_tx(top_->TX);
  }

  std::unique_ptr<Vboard_top> top_;
  board::UartLine uart_;
  uint64_t cycle_ = 0;
};

// Reply timeout in board time: far above the 2000-clock quiet time before an error
// reply, far below the host's 2 s default, so a silent board fails a test quickly.
constexpr unsigned kTimeoutMs = 20;

Program assemble_or_die(const std::string& src) {
  as::Options o;
  o.apply(board_config());
  as::Result r = as::assemble_string(src, "test.s", o);
  std::string msg;
  for (const auto& d : r.errors) msg += d.render();
  EXPECT_TRUE(r.ok()) << msg;
  return r.program;
}

class BoardSim : public ::testing::Test {
 protected:
  SimBoard sim;
  board::Link link{sim, kTimeoutMs};

  // Expects the command to be refused with `code` (the board's, or the host's -2),
  // then the link to answer INFO.
  template <typename F>
  void expect_refused(F f, int code) {
    try {
      f();
      ADD_FAILURE() << "expected a refusal with code " << code;
    } catch (const LinkError& e) {
      EXPECT_EQ(e.code(), code) << e.what();
    }
    EXPECT_EQ(link.info().version, board::kVersion) << "the link must recover after an error";
  }
  template <typename F>
  void expect_refused(F f, Code code) {
    expect_refused(f, int(code));
  }
};

TEST_F(BoardSim, InfoDescribesTheVerilatedBoard) {
  const board::BoardInfo i = link.info();
  EXPECT_EQ(i.version, board::kVersion);
  EXPECT_EQ(i.threads, BOARD_THREADS);
  EXPECT_EQ(i.regs, BOARD_REGS);
  EXPECT_EQ(i.imem_words, uint32_t(BOARD_IMEM_WORDS));
  EXPECT_EQ(i.mem_bytes, uint32_t(BOARD_MEM_WORDS) * 4);
  EXPECT_EQ(i.line_bytes, 4u);  // neither board configuration has a cache: a fill is a word
  EXPECT_EQ(i.clk_hz, kClkHz);
  EXPECT_EQ(i.cores, 1u);
  const board::Status s = link.status();
  EXPECT_FALSE(s.busy || s.launched || s.any_fault()) << s.describe();
}

TEST_F(BoardSim, MemoryWritesReadBackAcrossItsMiddle) {
  std::mt19937 rng(7);
  std::vector<uint32_t> words(300);
  for (uint32_t& w : words) w = rng();
  // The middle of the memory: on the iCEBreaker (0x10000, word 16384) the boundary
  // between the two SPRAM banks; on the HX8K inside its block RAMs.
  const uint32_t base = BOARD_MEM_WORDS * 2 - 4 * 150;
  link.write_mem(base, words);
  EXPECT_EQ(link.read_mem(base, 300), words);
  // The very last word, and a single word written over the middle of the block.
  link.write_mem(BOARD_MEM_WORDS * 4 - 4, {0xdeadbeef});
  link.write_mem(base + 4 * 10, {0x12345678});
  words[10] = 0x12345678;
  EXPECT_EQ(link.read_mem(BOARD_MEM_WORDS * 4 - 4, 1), std::vector<uint32_t>{0xdeadbeef});
  EXPECT_EQ(link.read_mem(base, 300), words);
}

TEST_F(BoardSim, BadFramesAreRefusedAndTheLinkRecovers) {
  expect_refused(
      [&] {
        sim.write({0x7e});
        link.status();
      },
      Code::Unknown);
  expect_refused([&] { link.read_mem(BOARD_MEM_WORDS * 4 - 4, 2); }, Code::Range);
  expect_refused([&] { link.write_mem(BOARD_MEM_WORDS * 4 - 4, {1, 2}); }, Code::Range);
  expect_refused([&] { link.write_imem(BOARD_IMEM_WORDS - 1, {0, 0}); }, Code::Range);
  expect_refused([&] { link.launch(1, BOARD_IMEM_WORDS * 4); }, Code::Range);
  // A start beyond the store, whatever the count: the board's sum of the two is checked.
  expect_refused(
      [&] {
        sim.write(board::frame(board::Cmd::ReadMem, 0xffff, 2));
        link.status();
      },
      Code::Range);
  // What the protocol cannot say (a misaligned address: the wire carries word indices)
  // the host refuses before sending anything.
  expect_refused([&] { link.write_mem(0x102, {1, 2}); }, -2);
  expect_refused([&] { link.launch(1, 2); }, -2);
  // A low stop bit inside a frame, then the rest of that frame.
  expect_refused(
      [&] {
        sim.send_frame(uint8_t(board::Cmd::ReadMem), true);
        sim.send_frame(0x00, false);
        sim.write({0, 1, 0});
        uint8_t b = 0xff;
        ASSERT_EQ(sim.read(&b, 1, kTimeoutMs), 1u);
        throw LinkError(b, "reply");
      },
      Code::Framing);
  // Half a LAUNCH frame, then silence.
  expect_refused(
      [&] {
        sim.write({uint8_t(board::Cmd::Launch), 1, 0});
        link.status();
      },
      Code::Incomplete);
  // Nothing of the refused commands reached the memory.
  EXPECT_FALSE(link.status().launched);
}

TEST_F(BoardSim, StatusCountsTheContractsRunLength) {
  // docs/microarchitecture.md: `busy` is high from the cycle after the launch until
  // the exit's update reaches fetch, 4 cycles after the exit issues.  Thread 0 first
  // issues within T cycles of the launch (its slot), then one instruction per round
  // of T slots: k instructions and an exit are busy for k*T + 5 .. k*T + 4 + T cycles.
  const unsigned k = 10;
  std::string src = "        .text\n_start:\n";
  for (unsigned i = 0; i < k; ++i) src += "        movi r1, " + std::to_string(i) + "\n";
  src += "        exit\n";
  const Program p = assemble_or_die(src);
  const board::BoardInfo i = link.info();
  link.load(p, i);
  link.launch(1, p.entry);
  const board::Status s = link.wait(kTimeoutMs);
  EXPECT_TRUE(s.finished()) << s.describe();
  EXPECT_FALSE(s.any_fault()) << s.describe();
  EXPECT_GE(s.cycles, k * BOARD_THREADS + 5);
  EXPECT_LE(s.cycles, k * BOARD_THREADS + 4 + BOARD_THREADS);
  EXPECT_EQ(s.issued, k + 1);
}

// FP32 add, subtract, multiply and multiply-add on every thread, with operands whose
// results are exact, so the board's FPU is run even where its configuration lacks the
// groups the float examples also need (the iCEBreaker's core.groups: base, fp32).
TEST_F(BoardSim, Fp32ArithmeticOnEveryThread) {
  const std::string out_bytes = std::to_string(16 * BOARD_THREADS);
  const Program p = assemble_or_die(R"(
        .text
_start: rdsr    r1, tid
        shli    r1, r1, 4
        la      r2, out
        add     r2, r2, r1
        la      r3, in
        ldw     r4, 0(r3)               # 1.5
        ldw     r5, 4(r3)               # 2.0
        ldw     r6, 8(r3)               # 0.25
        fmul    r7, r4, r5
        fadd    r8, r4, r5
        fsub    r9, r4, r5
        fmadd   r6, r4, r5
        stw     r7, 0(r2)
        stw     r8, 4(r2)
        stw     r9, 8(r2)
        stw     r6, 12(r2)
        exit
        .data
in:     .float  1.5, 2.0, 0.25
out:    .space  )" + out_bytes + "\n");
  const board::BoardInfo i = link.info();
  link.load(p, i);
  link.launch(BOARD_THREADS, p.entry);
  const board::Status s = link.wait(kTimeoutMs);
  ASSERT_TRUE(s.finished()) << s.describe();
  EXPECT_FALSE(s.any_fault()) << s.describe();
  const std::vector<uint32_t> got = link.read_mem(*p.symbol("out"), 4 * BOARD_THREADS);
  for (unsigned t = 0; t < BOARD_THREADS; ++t) {
    EXPECT_EQ(got[4 * t + 0], 0x40400000u) << "thread " << t << ": 1.5 * 2 = 3";
    EXPECT_EQ(got[4 * t + 1], 0x40600000u) << "thread " << t << ": 1.5 + 2 = 3.5";
    EXPECT_EQ(got[4 * t + 2], 0xbf000000u) << "thread " << t << ": 1.5 - 2 = -0.5";
    EXPECT_EQ(got[4 * t + 3], 0x40500000u) << "thread " << t << ": 1.5 * 2 + 0.25 = 3.25";
  }
}

TEST_F(BoardSim, RunningBoardRefusesLaunchAndStoreWritesAndShowsItsLeds) {
  // Thread 0 counts down long enough to be polled while it runs.
  const Program p = assemble_or_die(R"(
        .text
_start: movi    r1, 30000
loop:   addi    r1, r1, -1
        bnz     r1, loop
        la      r2, out
        movi    r3, 7
        stw     r3, 0(r2)
        exit
        .data
out:    .word 0
)");
  const board::BoardInfo i = link.info();
  link.load(p, i);
  EXPECT_FALSE(green_on(sim.top())) << "green is off before the first launch";
  link.launch(1, p.entry);
  const board::Status running = link.status();
  EXPECT_TRUE(running.busy && running.launched) << running.describe();
  // A running board's counters would be torn by a carry while their bytes go out, so
  // it sends them as zero; they are exact once the run has ended.
  EXPECT_EQ(running.cycles, 0u);
  EXPECT_EQ(running.issued, 0u);
  EXPECT_TRUE(green_on(sim.top())) << "green is on while running";
  EXPECT_FALSE(red_on(sim.top()));
  expect_refused([&] { link.launch(1, p.entry); }, Code::Busy);
  expect_refused([&] { link.write_imem(0, {0}); }, Code::Busy);
  const board::Status done = link.wait(1000);
  ASSERT_TRUE(done.finished()) << done.describe();
  EXPECT_GT(done.cycles, 30000u * 2 * BOARD_THREADS) << "two instructions a round for 30000 rounds";
  EXPECT_EQ(link.read_mem(*p.symbol("out"), 1), std::vector<uint32_t>{7});
  // Halted: green blinks (bit 21 of a free-running counter), so it is not steady.
  EXPECT_FALSE(red_on(sim.top()));
}

TEST_F(BoardSim, FaultsAreReportedWithThreadAndPcAndLightRed) {
  const board::BoardInfo i = link.info();
  // Thread 1 jumps outside the instruction store; thread 0 exits.
  const Program bad_jump = assemble_or_die(R"(
        .text
_start: rdsr    r1, tid
        bz      r1, done
        movi    r2, 0x7ffc
        jalr    r0, r2
done:   exit
)");
  link.load(bad_jump, i);
  link.launch(2, bad_jump.entry);
  board::Status s = link.wait(kTimeoutMs);
  EXPECT_TRUE(s.fault) << s.describe();
  EXPECT_EQ(s.fault_thread, 1u);
  EXPECT_EQ(s.fault_pc, 12u) << "the jalr's own pc";
  sim.run(4);
  EXPECT_TRUE(red_on(sim.top())) << "red is on after a fault";

  // A store beyond memory: the memory refuses it and reports the address.  RESET
  // (inside load) clears the earlier fault first.
  const Program bad_store = assemble_or_die(R"(
        .text
_start: movi    r1, 0
        movhi   r1, 0x7
        stw     r1, 0(r1)
        exit
)");
  link.load(bad_store, i);
  EXPECT_FALSE(link.status().any_fault()) << "RESET clears faults";
  link.launch(1, bad_store.entry);
  s = link.wait(kTimeoutMs);
  EXPECT_TRUE(s.mem_fault) << s.describe();
  EXPECT_EQ(s.mem_fault_addr, 0x70000u);
}

// Every example with a reference, every run of its manifest, on the board through the
// examples harness: the program's result read back over the UART must be the
// reference's.
class BoardExamples : public ::testing::TestWithParam<std::string> {};

TEST_P(BoardExamples, MatchesReference) {
  const examples::Manifest m =
      examples::load_manifest(std::string(UMBRA_EXAMPLES_DIR) + "/" + GetParam() + ".yaml");
  const examples::Reference* ref = examples::find_reference(m.name);
  ASSERT_NE(ref, nullptr);
  // As examples::assemble does, but for the board's configuration.
  as::Options o;
  o.apply(board_config());
  o.include_dirs.push_back(m.source.substr(0, m.source.find_last_of('/')));
  as::Result r = as::assemble_file(m.source, o);
  // A board whose core lacks an extension group (core.groups) cannot run an example
  // that uses it: skipped, saying which instruction and group.
  if (const as::Diagnostic* d = as::absent_group_error(r))
    GTEST_SKIP() << m.name << " skipped: " << d->file << ":" << d->line << ": " << d->message;
  std::string msg;
  for (const auto& d : r.errors) msg += d.render();
  ASSERT_TRUE(r.ok()) << msg;
  const Program p = std::move(r.program);
  SimBoard sim;
  board::Link link(sim, kTimeoutMs);
  const board::BoardInfo info = link.info();
  // Board time for a run: the instruction budget, every instruction a full round of
  // slots plus a memory wait, at the board's clock.
  const unsigned run_ms = unsigned((m.max_instructions * BOARD_THREADS * 4 + 100000) * 1000 / kClkHz) + 1;
  const examples::Model model = board::board_model(link, info, run_ms);
  for (const examples::RunSpec& run : m.runs) {
    // The iCE40 boards have no dispatcher and no command processor: DOORBELL is refused
    // (umbra-load reports such runs skipped).
    if (run.domain() || run.command_run()) continue;
    const examples::Verdict v = examples::run_and_check(m, run, p, model, *ref);
    EXPECT_TRUE(v.passed) << m.name << " " << run.name << ":\n" << v.summary();
  }
}

INSTANTIATE_TEST_SUITE_P(Examples, BoardExamples, ::testing::Values(BOARD_EXAMPLES),
                         [](const auto& info) { return info.param; });

}  // namespace
