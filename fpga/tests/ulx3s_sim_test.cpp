// ulx3s_sim_test: the ULX3S board top (fpga/ulx3s_top.v, through the simulation
// wrapper fpga/sim/ulx3s_bench.v) Verilated with configs/ecp5-ulx3s.yaml's
// parameters, its SDRAM pins on the chip's cycle model (systemc/memory/sdram_chip.h,
// the suite's judge of every SDRAM rule) and its UART driven bit by bit by the
// protocol library umbra-load uses (fpga/host/board_link.h).  What a user of the board
// relies on: the link describes the board, host writes and reads reach the SDRAM
// (across rows and banks), and mandelbrot, loaded, run on every core and read back
// over the UART, is the reference simulator's image -- launched by threads, and as a
// 2D domain from a command buffer the host writes and rings the doorbell for
// (mandelbrot2d, through Link::run_domain and so the host API's device on the board),
// and as the example manifest's own `commands:` run, made and checked exactly as
// umbra-load --manifest makes and checks it -- with no SDRAM rule broken.
//
// The bench drives clk_25mhz at the core clock (the PLL's simulation form is the pin
// itself, fpga/ecp5_clock.v), so every timing that follows CLK_HZ -- the SDRAM's
// clocks, the refresh interval, the 100 us power-up -- is the board's; only the UART
// is faster (ULX3S_CLKS_PER_BIT clocks a bit) and the quiet time shorter, as on the
// iCE40 benches.  Every ULX3S_* value comes from fpga/tests/CMakeLists.txt, which has
// it from the configuration.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>

#include "Vulx3s_bench.h"
#include "board_link.h"
#include "harness.h"
#include "reference.h"
#include "sdram_chip.h"
#include "uart_line.h"
#include "umbra/asm.h"
#include "umbra/config.h"
#include "umbra/iss.h"
#include "verilated.h"

using namespace umbra;

namespace {

constexpr uint64_t kClkHz = ULX3S_CLK_HZ;

const Config& board_config() {
  static const Config c = load_config(ULX3S_CONFIG);
  return c;
}

// The word at a byte address as the chip holds it, read past the controller: two
// 16-bit columns of a row of a bank ({row, bank, column} from the address's top).
uint32_t chip_word(const scm::SdramChip& chip, uint32_t addr) {
  const unsigned col_bits = unsigned(std::log2(board_config().dram_row_bytes / 2));
  const unsigned bank_bits = unsigned(std::log2(board_config().dram_banks));
  auto half = [&](uint32_t a) {
    return uint32_t(chip.peek((a >> (col_bits + 1)) & ((1u << bank_bits) - 1),
                              a >> (col_bits + 1 + bank_bits), (a >> 1) & ((1u << col_bits) - 1)));
  };
  return half(addr) | half(addr + 2) << 16;
}

scm::SdramTiming chip_timing() {
  return scm::SdramTiming::from(scm::SdramPart::mt48lc16m16a2_6a(), double(kClkHz) / 1e6);
}

// The board: the Verilated top, the SDRAM chip on its pins, the host's end of the UART.
// The clock runs only inside read() and pause(), when a host would be waiting.
class Ulx3sBoard : public board::Transport {
 public:
  Ulx3sBoard() : top_(std::make_unique<Vulx3s_bench>()), chip_(chip_timing()), uart_(ULX3S_CLKS_PER_BIT) {
    top_->ftdi_txd = 1;
    top_->btn = 0;
    top_->chip_dq_oe = 0;
    top_->clk_25mhz = 0;
    top_->eval();
    // Past the chip's power-up wait and its init sequence: led[2] is the controller's
    // init_done.  The chip's own power-up is 100 us of board time.
    const uint64_t limit = chip_timing().power_up * 2 + 1000;
    while (!(top_->led & 4) && cycle_ < limit) tick();
  }

  void write(const std::vector<uint8_t>& bytes) override {
    for (uint8_t b : bytes) uart_.send(b);
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
  void pause(unsigned ms) override { run(ms * kClkHz / 1000); }

  void run(uint64_t cycles) {
    for (uint64_t i = 0; i < cycles; ++i) tick();
  }
  const Vulx3s_bench& top() const { return *top_; }
  const scm::SdramChip& chip() const { return chip_; }
  uint64_t cycle() const { return cycle_; }

  // The chip's violations, one a line (empty: none).
  std::string violations() const {
    std::string s;
    for (const scm::SdramViolation& v : chip_.violations()) s += v.text() + "\n";
    return s;
  }

 private:
  void tick() {
    top_->ftdi_txd = uart_.rx_level();
    top_->chip_dq = chip_.dq_out();
    top_->chip_dq_oe = chip_.dq_drive();
    top_->clk_25mhz = 0;
    top_->eval();
    // The pins as the chip samples them at this rising edge (the controller's
    // registered outputs), then the edge.
    scm::SdramPins p;
    p.cke = top_->sdram_cke;
    p.cs_n = top_->sdram_csn;
    p.ras_n = top_->sdram_rasn;
    p.cas_n = top_->sdram_casn;
    p.we_n = top_->sdram_wen;
    p.ba = top_->sdram_ba;
    p.a = top_->sdram_a;
    p.dqm = top_->sdram_dqm;
    p.dq = top_->sdram_dq;
    p.dq_oe = top_->sdram_dq_oe;
    top_->clk_25mhz = 1;
    top_->eval();
    chip_.clock(p);
    ++cycle_;
    uart_.sample_tx(top_->ftdi_rxd);
  }

  std::unique_ptr<Vulx3s_bench> top_;
  scm::SdramChip chip_;
  board::UartLine uart_;
  uint64_t cycle_ = 0;
};

Program assemble_example(const examples::Manifest& m) {
  as::Options o;
  o.apply(board_config());
  o.include_dirs.push_back(m.source.substr(0, m.source.find_last_of('/')));
  as::Result r = as::assemble_file(m.source, o);
  std::string msg;
  for (const auto& d : r.errors) msg += d.render();
  EXPECT_TRUE(r.ok()) << msg;
  return std::move(r.program);
}

// Reply timeout in board time: far above the quiet time before an error reply.
constexpr unsigned kTimeoutMs = 20;

TEST(Ulx3sBoard, InitializesTheSdramAndDescribesItself) {
  Ulx3sBoard sim;
  ASSERT_TRUE(sim.top().led & 4) << "the SDRAM controller never finished its init";
  EXPECT_TRUE(sim.chip().initialized());
  EXPECT_EQ(sim.chip().cas_latency(), kClkHz <= 133333333 ? 2u : 3u);
  board::Link link(sim, kTimeoutMs);
  const board::BoardInfo i = link.info();
  EXPECT_EQ(i.version, board::kVersion);
  EXPECT_EQ(i.threads, unsigned(board_config().threads));
  EXPECT_EQ(i.regs, unsigned(board_config().registers));
  EXPECT_EQ(i.imem_words, uint32_t(board_config().imem_words));
  // The whole SDRAM, in windows of 128 KiB (WINDOW).
  EXPECT_EQ(i.mem_bytes, board_config().mem_bytes);
  EXPECT_EQ(i.line_bytes, unsigned(board_config().cache_line_bytes));
  EXPECT_EQ(i.clk_hz, kClkHz);
  EXPECT_EQ(i.cores, unsigned(board_config().cores));  // LAUNCH starts i.threads on each
  EXPECT_FALSE(link.status().any_fault());
  EXPECT_EQ(sim.violations(), "");
}

// Host writes and reads go through the mux in front of the controller: words across
// a row boundary (1024 bytes) and a bank boundary (4 KiB: the bank bits sit above the
// column's), a single word over the middle, the memory's last word, and words across
// the host's first window (WINDOW, 128 KiB), each checked in the chip itself.
TEST(Ulx3sBoard, MemoryWritesReadBackAcrossRowsAndBanks) {
  Ulx3sBoard sim;
  board::Link link(sim, kTimeoutMs);
  const uint32_t end = link.info().mem_bytes;
  std::mt19937 rng(7);
  std::vector<uint32_t> words(600);
  for (uint32_t& w : words) w = rng();
  const uint32_t base = 4096 - 4 * 300;
  link.write_mem(base, words);
  EXPECT_EQ(link.read_mem(base, 600), words);
  link.write_mem(end - 4, {0xdeadbeef});
  link.write_mem(base + 4 * 10, {0x12345678});
  words[10] = 0x12345678;
  EXPECT_EQ(link.read_mem(end - 4, 1), std::vector<uint32_t>{0xdeadbeef});
  EXPECT_EQ(link.read_mem(base, 600), words);
  EXPECT_GT(sim.chip().count(scm::SdramChip::Cmd::Active), 2u) << "rows of more than one bank were opened";
  // In the chip at their own addresses, whatever window the host went through: the
  // first window's, the last one's, and a transfer across the end of the first.
  EXPECT_EQ(chip_word(sim.chip(), base + 4 * 10), 0x12345678u);
  EXPECT_EQ(chip_word(sim.chip(), end - 4), 0xdeadbeefu);
  EXPECT_NE(chip_word(sim.chip(), board::kWindowBytes - 4), 0xdeadbeefu)
      << "the last window is not the first";
  const uint32_t across = board::kWindowBytes - 4 * 3;
  link.write_mem(across, {1, 2, 3, 4, 5, 6});
  for (uint32_t k = 0; k < 6; ++k) EXPECT_EQ(chip_word(sim.chip(), across + 4 * k), k + 1) << k;
  EXPECT_EQ(link.read_mem(across, 6), (std::vector<uint32_t>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(sim.violations(), "");
}

// WINDOW takes the first byte address of a 128 KiB window inside the memory; anything
// else is refused (after the quiet time, as every error) and leaves the window as it was.
TEST(Ulx3sBoard, WindowRefusesAnAddressOffAWindowOrPastTheMemory) {
  Ulx3sBoard sim;
  board::Link link(sim, kTimeoutMs);
  const uint32_t end = link.info().mem_bytes;
  auto window = [&](uint32_t addr) {
    sim.write(board::frame_window(addr));
    uint8_t b = 0xff;
    EXPECT_EQ(sim.read(&b, 1, kTimeoutMs), 1u) << "no reply to WINDOW " << addr;
    return b;
  };
  EXPECT_EQ(window(end - board::kWindowBytes), uint8_t(board::Code::Ok));
  for (uint32_t bad : {board::kWindowBytes / 2, end, 0x80000000u})
    EXPECT_EQ(window(bad), uint8_t(board::Code::Range)) << bad;
  // Still the last window: a word at index 0 lands at its first byte.
  sim.write(board::frame(board::Cmd::WriteMem, 0, 1, {0x600dcafe}));
  uint8_t b = 0xff;
  ASSERT_EQ(sim.read(&b, 1, kTimeoutMs), 1u);
  EXPECT_EQ(b, uint8_t(board::Code::Ok));
  EXPECT_EQ(chip_word(sim.chip(), end - board::kWindowBytes), 0x600dcafeu);
  EXPECT_EQ(sim.violations(), "");
}

// mandelbrot (examples/mandelbrot.s) on every core of the board: `threads` threads a
// core, core c's thread t drawing pixels c * threads + t + k * cores * threads.  The
// framebuffer read back over the UART must be the reference simulator's (the ISS with
// the board's configuration) and the example's reference image, and the chip must
// have seen no rule broken, refreshes included (a run is milliseconds of board time).
TEST(Ulx3sBoard, MandelbrotMatchesTheIssOnEveryCore) {
  const examples::Manifest m = examples::load_manifest(std::string(UMBRA_EXAMPLES_DIR) + "/mandelbrot.yaml");
  const Program p = assemble_example(m);
  ASSERT_FALSE(p.text.empty());
  const unsigned threads = m.runs.at(0).threads;
  const uint32_t fb = *p.symbol("fb");
  const uint32_t pixels = m.checks.at(0).words;

  iss::Simulator iss(board_config());
  iss.load(p, m.source);
  const iss::IssResult ir = iss.run(threads, m.max_instructions);
  ASSERT_TRUE(ir.all_exited());
  std::vector<uint32_t> want(pixels);
  for (uint32_t i = 0; i < pixels; ++i) want[i] = iss.memory().load32(fb + 4 * i);

  Ulx3sBoard sim;
  board::Link link(sim, kTimeoutMs);
  const board::BoardInfo info = link.info();
  link.load(p, info);
  link.launch(threads, p.entry);
  const unsigned run_ms = unsigned(m.max_instructions * 4 * 1000 / kClkHz) + 10;
  const board::Status s = link.wait(run_ms, 1);  // polled every ms of board time
  ASSERT_TRUE(s.finished() && !s.any_fault()) << s.describe();
  // Issued counts a memory instruction again when it replays; the ISS retires it once.
  EXPECT_GE(s.issued, ir.retired);
  const std::vector<uint32_t> got = link.read_mem(fb, pixels);
  size_t wrong = 0;
  for (uint32_t i = 0; i < pixels; ++i) wrong += got[i] != want[i];
  EXPECT_EQ(wrong, 0u) << "pixels differing from the ISS's";
  // The example's own reference image (examples/reference.cpp) agrees too.
  const examples::Reference* ref = examples::find_reference(m.name);
  ASSERT_NE(ref, nullptr);
  examples::Image img(p, threads);
  (*ref)(img);
  for (uint32_t i = 0; i < pixels; ++i)
    if (img.at("fb", i) != got[i]) {
      ADD_FAILURE() << "pixel " << i << ": board " << std::hex << got[i] << ", reference " << img.at("fb", i);
      break;
    }
  EXPECT_GT(sim.chip().refreshes(), 0u);
  EXPECT_EQ(sim.violations(), "");
  std::printf(
      "mandelbrot on %u cores x %u threads: %llu cycles busy, %llu issued; %llu board cycles in all, "
      "%llu refreshes (ISS: %llu retired)\n",
      unsigned(board_config().cores), threads, (unsigned long long)s.cycles, (unsigned long long)s.issued,
      (unsigned long long)sim.cycle(), (unsigned long long)sim.chip().refreshes(),
      (unsigned long long)ir.retired);
}

// mandelbrot2d (examples/mandelbrot2d.s) as the host API runs it (docs/commands.md):
// the host writes the program's text, its data and a command buffer into the SDRAM
// -- program (the text into every core's instruction store), domain 256 x 256, run,
// wait, fence -- and rings the command processor's doorbell (the DOORBELL command);
// the dispatcher hands each of the 65536 work items to a free thread of any core, the
// 96 x 72 inside the image drawing their pixel and the rest exiting at once (issue
// 33's 256 x 256 domain on the simulated board).  The image must be the ISS's domain
// launch's; Link::run_domain (a host API device on the board, board_device.h, with the
// data image left as written here) checks that the fence is in memory.
TEST(Ulx3sBoard, Mandelbrot2dOverA256x256DomainFromACommandBufferMatchesTheIss) {
  const examples::Manifest m =
      examples::load_manifest(std::string(UMBRA_EXAMPLES_DIR) + "/mandelbrot2d.yaml");
  const Program p = assemble_example(m);
  ASSERT_FALSE(p.text.empty());
  const uint32_t fb = *p.symbol("fb");
  const uint32_t pixels = m.checks.at(0).words;
  const uint32_t w = 256, h = 256;  // the image is 96 x 72 (mandelbrot_data.inc)
  // The manifest's budget is for its 100 x 80 domain; every item outside the image
  // still runs the setup (about 20 instructions), 58624 of them here.
  const uint64_t budget = 4 * m.max_instructions;

  iss::Simulator iss(board_config());
  iss.load(p, m.source);
  const iss::IssResult ir = iss.run_domain(w, h, budget);
  ASSERT_TRUE(ir.all_exited()) << (ir.fault ? ir.fault->message() : "livelock");

  Ulx3sBoard sim;
  board::Link link(sim, kTimeoutMs);
  const board::BoardInfo info = link.info();
  // The data image where the program expects it; the text, the buffer and the fence
  // in the free memory after it (the host's window ends at info.mem_bytes).
  link.reset();
  std::vector<uint32_t> data((p.data.size() + 3) / 4, 0);
  for (size_t i = 0; i < p.data.size(); ++i) data[i / 4] |= uint32_t(p.data[i]) << (8 * (i % 4));
  // Not the framebuffer's zeros (27 KiB, 2.2 M clocks of UART): the kernel writes
  // every pixel, and a pixel it missed would read as the chip's 0, which no pixel is
  // (alpha is 0xff in every colour).
  const uint32_t fb_first = (fb - p.data_base) / 4, fb_end = fb_first + pixels;
  ASSERT_LE(fb_end, data.size());
  if (fb_first > 0) link.write_mem(p.data_base, std::vector<uint32_t>(data.begin(), data.begin() + fb_first));
  link.write_mem(p.data_base + 4 * fb_end, std::vector<uint32_t>(data.begin() + fb_end, data.end()));
  // umbra-load's own way (Link::run_domain, as its --manifest runs a domain): the text,
  // a fence word and the buffer after the data image, then DOORBELL.
  const unsigned run_ms = unsigned(budget * 4 * 1000 / kClkHz) + 10;
  const board::Status s = link.run_domain(p, info, w, h, run_ms, 1);  // polled every ms of board time
  ASSERT_TRUE(s.finished() && !s.any_fault()) << s.describe();
  EXPECT_EQ(sim.top().led & 2, 0) << "the fault light (the command processor's faults too)";
  EXPECT_GE(s.issued, ir.retired);
  const std::vector<uint32_t> got = link.read_mem(fb, pixels);
  size_t wrong = 0;
  for (uint32_t i = 0; i < pixels; ++i) wrong += got[i] != iss.memory().load32(fb + 4 * i);
  // And the example's own image, as the manifest checks it.
  const examples::Reference* ref = examples::find_reference(m.name);
  ASSERT_NE(ref, nullptr);
  examples::Image img(p, 0);
  (*ref)(img);
  for (uint32_t i = 0; i < pixels; ++i) wrong += img.at("fb", i) != got[i];
  EXPECT_EQ(wrong, 0u) << "pixels differing from the ISS's";
  EXPECT_EQ(sim.violations(), "");
  std::printf(
      "mandelbrot2d (%ux%u domain, command buffer) on %u cores: %llu cycles busy, %llu issued; "
      "%llu board cycles in all (ISS: %llu retired)\n",
      w, h, unsigned(board_config().cores), (unsigned long long)s.cycles, (unsigned long long)s.issued,
      (unsigned long long)sim.cycle(), (unsigned long long)ir.retired);
}

// mandelbrot2d's `commands:` run (program, domain 96 x 72, run, wait) as umbra-load
// --manifest runs it: the program assembled as umbra-load assembles it, the board as
// the harness's model (board::board_model: a host API device on the board writes the
// program's data image, its text and the manifest's buffer over the UART, rings
// DOORBELL and polls STATUS), checked by examples::run_and_check against the example's
// reference with the same steps and checks as on every model
// (host/src/examples_device.cpp).
TEST(Ulx3sBoard, Mandelbrot2dManifestCommandRunAsUmbraLoadMakesItPassesItsReference) {
  const examples::Manifest m =
      examples::load_manifest(std::string(UMBRA_EXAMPLES_DIR) + "/mandelbrot2d.yaml");
  const Program p = examples::assemble(m);
  const examples::Reference* ref = examples::find_reference(m.name);
  ASSERT_NE(ref, nullptr);
  const auto run = std::find_if(m.runs.begin(), m.runs.end(), [](const auto& r) { return r.command_run(); });
  ASSERT_NE(run, m.runs.end()) << "mandelbrot2d.yaml has no `commands:` run";

  Ulx3sBoard sim;
  board::Link link(sim, kTimeoutMs);
  const board::BoardInfo info = link.info();
  const unsigned run_ms = unsigned(m.max_instructions * 4 * 1000 / kClkHz) + 10;
  const examples::Model model = board::board_model(link, info, run_ms);
  const examples::Verdict v = examples::run_and_check(m, *run, p, model, *ref);
  EXPECT_TRUE(v.passed) << v.summary();
  EXPECT_GT(v.instructions, 0u);
  EXPECT_EQ(sim.top().led & 2, 0) << "the fault light";
  EXPECT_EQ(sim.violations(), "");
  std::printf(
      "mandelbrot2d %s (the manifest's command list) on %u cores: %llu instructions issued, %llu board "
      "cycles in all\n",
      run->name.c_str(), unsigned(board_config().cores), (unsigned long long)v.instructions,
      (unsigned long long)sim.cycle());
}

}  // namespace
