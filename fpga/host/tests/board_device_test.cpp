// The host API's board backend (fpga/host/board_device.h) against a fake board
// (fake_board.h: the UART protocol answered from a memory array, `fence` commands
// carried out on DOORBELL).  What a user of umbra-load relies on, without a board: the staged words and the
// data image reach the board's memory, the doorbell carries the buffer's address, a fault, a run that does
// not end and a board without a command processor are reported as such, memory is read back only where asked,
// and the allocator keeps to the board's window.
#include "board_device.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "fake_board.h"
#include "umbra/asm.h"
#include "umbra/commands_gen.h"
#include "umbra/examples_device.h"

namespace umbra::board {
namespace {

constexpr const char* kKernel = R"(
        .text
main:   rdsr    r1, lx
        shli    r4, r1, 2
        la      r5, out
        add     r5, r5, r4
        stw     r1, 0(r5)
        exit
        .data
scale:  .word   7, 8, 9
out:    .space  64
)";

Program kernel() {
  as::Options o;
  o.data_base = 0x10000;
  as::Result r = as::assemble_string(kKernel, "kernel.s", o);
  EXPECT_TRUE(r.ok());
  return r.program;
}

TEST(BoardBackend, ARunWritesTheStagedWordsRingsWithTheBufferAndReadsBackOnlyWhatIsAsked) {
  FakeBoard board;
  Link link(board, 100);
  const BoardInfo info = link.info();
  host::Device dev = open_board(link, info, 1000, 1);
  EXPECT_EQ(dev.backend_name(), "board on /dev/fake");
  const Program p = kernel();
  const host::ProgramImage img = dev.load(p, "kernel.s");
  const uint32_t args = dev.alloc(8), fence = dev.alloc(4, 256);
  dev.write(args, {11, 12});
  dev.write(fence, {0});
  host::CommandBuffer cb;
  cb.program(img.src, img.words, img.dest).args(args).domain(4).run(img.entry).wait().fence(fence, 0xf00d);
  dev.submit(cb);
  EXPECT_EQ(board.doorbells, 0u) << "nothing is sent before wait()";
  const models::Result& r = dev.wait();
  ASSERT_EQ(r.run.status, umbra::RunResult::Status::Exited) << r.run.message;
  EXPECT_EQ(r.instructions, board.issued);
  EXPECT_EQ(r.run.cycles, board.cycles);
  EXPECT_TRUE(r.run.memory.empty()) << "a board's memory stays on the board";
  EXPECT_EQ(board.resets, 1u);
  EXPECT_EQ(board.doorbell_addr, dev.last_buffer());
  // The data image, the text, the inputs and the buffer (with its `end`) are in the
  // board's memory; nothing else was written.
  const uint32_t data_words = uint32_t(p.data.size() + 3) / 4;
  for (uint32_t i = 0; i < 3; ++i) EXPECT_EQ(board.word(*p.symbol("scale") + 4 * i), 7 + i);
  EXPECT_EQ(board.word(*p.symbol("out")), 0u) << "the data image's zeros are written too";
  for (uint32_t i = 0; i < img.words; ++i) EXPECT_EQ(board.word(img.src + 4 * i), p.text[i]);
  EXPECT_EQ(board.word(args), 11u);
  EXPECT_EQ(board.word(args + 4), 12u);
  for (size_t i = 0; i < cb.words().size(); ++i)
    EXPECT_EQ(board.word(dev.last_buffer() + 4 * uint32_t(i)), cb.words()[i]);
  EXPECT_EQ(board.word(dev.last_buffer() + 4 * uint32_t(cb.words().size())), 0u);
  EXPECT_EQ(board.words_written, data_words + img.words + 2 + 1 + cb.words().size() + 1);
  // Reads: the fence the board's processor wrote, one word over the link; the host's
  // own words since the run come from the host.
  EXPECT_EQ(dev.read(fence, 1), std::vector<uint32_t>{0xf00d});
  EXPECT_EQ(board.words_read, 1u);
  dev.write(args, {99});
  EXPECT_EQ(dev.read(args, 2), (std::vector<uint32_t>{99, 12}));
  EXPECT_EQ(board.words_read, 3u) << "the span is read once, the host's word laid over it";
}

TEST(BoardBackend, ASecondRunSendsOnlyWhatTheHostWroteSinceAndNotTheDataAgain) {
  FakeBoard board;
  Link link(board, 100);
  host::Device dev = open_board(link, link.info(), 1000, 1);
  const Program p = kernel();
  const host::ProgramImage img = dev.load(p, "kernel.s");
  host::CommandBuffer cb;
  cb.program(img.src, img.words, img.dest).domain(4).run(img.entry).wait();
  dev.submit(cb);
  ASSERT_EQ(dev.wait().run.status, umbra::RunResult::Status::Exited);
  const uint64_t first = board.words_written;
  const uint32_t arg = dev.alloc(4);
  dev.write(arg, {5});
  host::CommandBuffer again;
  again.args(arg).domain(2).run(img.entry);
  dev.submit(again);
  ASSERT_EQ(dev.wait().run.status, umbra::RunResult::Status::Exited);
  EXPECT_EQ(board.words_written - first, 1 + again.words().size() + 1);
  EXPECT_EQ(board.resets, 2u) << "each run starts from a reset: no stale cache line";
  EXPECT_EQ(board.doorbells, 2u);
}

TEST(BoardBackend, TheAllocatorKeepsToTheBoardsWindow) {
  FakeBoard board(4096);
  Link link(board, 100);
  host::Device dev = open_board(link, link.info(), 1000, 1);
  try {
    dev.alloc(5000);
    FAIL() << "no error";
  } catch (const host::DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("does not fit in device memory of 4096 bytes"), std::string::npos)
        << e.what();
  }
  // The kernel's data at 0x10000 is beyond a 4 KiB board: refused before anything is sent.
  try {
    dev.load(kernel(), "kernel.s");
    FAIL() << "no error";
  } catch (const host::DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("does not fit in device memory of 4096 bytes"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(board.words_written, 0u);
}

// Memory beyond the first 128 KiB (protocol version 3): a transfer across a window's
// end is split there, WINDOW precedes the first frame of each window the board is not
// already in, and every word lands at its own address.
TEST(Link, TransfersCrossWindowsAndEachWordLandsAtItsAddress) {
  FakeBoard board(0x100000);  // 1 MiB: eight windows
  Link link(board, 100);
  std::vector<uint32_t> words(600);
  for (uint32_t i = 0; i < words.size(); ++i) words[i] = 0x1000 + i;
  const uint32_t base = kWindowBytes - 4 * 300;
  link.write_mem(base, words);
  for (uint32_t i = 0; i < words.size(); ++i) ASSERT_EQ(board.word(base + 4 * i), words[i]) << i;
  EXPECT_EQ(board.windows, 2u) << "window 0 (not known to be set), then window 1";
  EXPECT_EQ(link.read_mem(base, 600), words);
  EXPECT_EQ(board.windows, 4u) << "back to window 0, then window 1 again";
  link.write_mem(0xffffc, {0xdeadbeef});  // the last word, in the last window
  EXPECT_EQ(board.word(0xffffc), 0xdeadbeefu);
  EXPECT_EQ(board.word(kWindowBytes - 4), words[299]) << "the same index of window 0 is untouched";
  EXPECT_EQ(link.read_mem(0xffffc, 1), std::vector<uint32_t>{0xdeadbeef});
  EXPECT_EQ(board.windows, 5u) << "a frame in the window already set sends no WINDOW";
  const uint64_t written = board.words_written;
  try {
    link.write_mem(0x100000, {1});
    FAIL() << "no error";
  } catch (const LinkError& e) {
    EXPECT_EQ(std::string(e.what()),
              "WRITE_MEM: address 0x00100000 is beyond the board's 1048576 bytes of memory");
  }
  EXPECT_EQ(board.words_written, written);
}

// A board of one window (the iCE40s: 128 KiB or less) has no WINDOW command and
// never receives one.
TEST(Link, ABoardOfOneWindowIsNeverSentWindow) {
  FakeBoard board(0x20000);
  Link link(board, 100);
  link.write_mem(0x1fffc, {7});
  EXPECT_EQ(link.read_mem(0x1fffc, 1), std::vector<uint32_t>{7});
  EXPECT_EQ(board.windows, 0u);
  EXPECT_THROW(link.read_mem(0x20000, 1), LinkError);
}

TEST(BoardBackend, AFaultAndARunThatDoesNotEndAreTheResultsStatus) {
  {
    FakeBoard board;
    board.fault = true;
    Link link(board, 100);
    host::Device dev = open_board(link, link.info(), 1000, 1);
    dev.submit(host::CommandBuffer().wait());
    const models::Result& r = dev.wait();
    EXPECT_EQ(r.run.status, umbra::RunResult::Status::Fault);
    EXPECT_EQ(r.run.fault_thread, 3u);
    EXPECT_EQ(r.run.fault_pc, 0x40u);
    EXPECT_NE(r.run.message.find("board: halted"), std::string::npos) << r.run.message;
    EXPECT_NE(r.run.message.find("fault: thread 3 at pc 0x00000040"), std::string::npos) << r.run.message;
  }
  {
    FakeBoard board;
    board.busy_ms = 1000000;
    Link link(board, 100);
    host::Device dev = open_board(link, link.info(), 50, 5);
    dev.submit(host::CommandBuffer().wait());
    const models::Result& r = dev.wait();
    EXPECT_EQ(r.run.status, umbra::RunResult::Status::CycleLimit);
    EXPECT_EQ(r.run.message, "board: still running after 50 ms (running)");
  }
}

TEST(BoardBackend, ABoardWithoutACommandProcessorRefusesTheDoorbell) {
  FakeBoard board;
  board.has_doorbell = false;
  Link link(board, 100);
  host::Device dev = open_board(link, link.info(), 1000, 1);
  dev.submit(host::CommandBuffer().wait());
  try {
    dev.wait();
    FAIL() << "no error";
  } catch (const LinkError& e) {
    EXPECT_EQ(e.code(), int(Code::Unknown));
    EXPECT_STREQ(e.what(), "DOORBELL: board says: unknown command");
  }
}

// Link::run_domain is a host API buffer on the board: program, domain, run, wait and a
// fence it checks, the data image left as the caller wrote it.
TEST(BoardBackend, RunDomainBuildsItsBufferThroughTheDeviceAndChecksTheFence) {
  FakeBoard board;
  Link link(board, 100);
  const BoardInfo info = link.info();
  const Program p = kernel();
  const Status s = link.run_domain(p, info, 96, 72, 1000, 1);
  EXPECT_TRUE(s.finished() && !s.any_fault()) << s.describe();
  EXPECT_EQ(s.issued, board.issued);
  EXPECT_NE(board.word(*p.symbol("scale")), 7u) << "run_domain does not write the data image";
  const uint32_t b = board.doorbell_addr;
  using commands::Opcode;
  ASSERT_EQ(board.fences_seen.size(), 1u);
  const uint32_t src = board.word(b + 4);
  const std::vector<uint32_t> want = {uint32_t(Opcode::Program),
                                      src,
                                      uint32_t(p.text.size()),
                                      p.text_base,
                                      uint32_t(Opcode::Domain),
                                      96,
                                      72,
                                      uint32_t(Opcode::Run),
                                      p.entry,
                                      uint32_t(Opcode::Wait),
                                      uint32_t(Opcode::Fence),
                                      board.fences_seen[0],
                                      0x600d600d,
                                      uint32_t(Opcode::End)};
  for (size_t i = 0; i < want.size(); ++i)
    EXPECT_EQ(board.word(b + 4 * uint32_t(i)), want[i]) << "word " << i;
  for (uint32_t i = 0; i < p.text.size(); ++i) EXPECT_EQ(board.word(src + 4 * i), p.text[i]);
  EXPECT_EQ(board.fences_seen[0] % 256, 0u) << "the fence has a 256-byte block of its own";

  FakeBoard early;
  early.obey_fences = false;
  Link early_link(early, 100);
  try {
    early_link.run_domain(p, early_link.info(), 4, 1, 1000, 1);
    FAIL() << "no error";
  } catch (const LinkError& e) {
    EXPECT_EQ(e.code(), -2);
    EXPECT_NE(std::string(e.what()).find("without its fence"), std::string::npos) << e.what();
  }

  FakeBoard small(4096);
  Link small_link(small, 100);
  try {
    small_link.run_domain(p, small_link.info(), 4, 1, 1000, 1);
    FAIL() << "no error";
  } catch (const LinkError& e) {
    EXPECT_EQ(e.code(), -2);
    EXPECT_NE(std::string(e.what()).find("device memory of 4096 bytes"), std::string::npos) << e.what();
  }
  EXPECT_EQ(small.words_written, 0u) << "refused before anything is sent";
}

// The board's cores, from INFO, are the examples' machine: a thread launch's threads
// start on every core, so the harness checks the run as that many more threads.
TEST(BoardBackend, BoardModelIsAMachineOfTheBoardsCores) {
  FakeBoard board;
  board.cores = 4;
  Link link(board, 100);
  const BoardInfo info = link.info();
  EXPECT_EQ(info.cores, 4u);
  EXPECT_EQ(board_model(link, info, 1000).cores, 4u);

  FakeBoard none;
  none.cores = 0;
  Link none_link(none, 100);
  try {
    none_link.info();
    FAIL() << "a board of no cores accepted";
  } catch (const LinkError& e) {
    EXPECT_NE(std::string(e.what()).find("INFO: the board says it has no cores"), std::string::npos) << e.what();
  }
}

// A manifest's `commands:` run through board_model: the same steps as on a model
// (examples::run_commands), the checked regions read back over the link; on a board
// without a command processor the refusal reaches the caller (umbra-load skips).
TEST(BoardBackend, BoardModelRunsACommandListAndReadsTheCheckedRegions) {
  const Program p = kernel();
  examples::ModelJob job;
  job.program = &p;
  job.source = "kernel.s";
  job.manifest = "kernel.yaml";
  job.threads = 0;
  job.commands = YAML::Load("[program, {domain: [4, 1]}, run, wait, {fence: [scale, 42]}]");
  job.writes = {{*p.symbol("out"), {1, 2}}};
  job.reads = {{"scale", *p.symbol("scale"), 3}, {"out", *p.symbol("out"), 2}};
  FakeBoard board;
  Link link(board, 100);
  const BoardInfo info = link.info();
  const examples::ModelOutcome out = board_model(link, info, 1000).run(job);
  EXPECT_TRUE(out.all_exited) << out.fault;
  EXPECT_EQ(out.fault, "");
  EXPECT_EQ(out.instructions, board.issued);
  ASSERT_EQ(out.reads.size(), 2u);
  EXPECT_EQ(out.reads[0], (std::vector<uint32_t>{42, 8, 9})) << "the fence the processor wrote";
  EXPECT_EQ(out.reads[1], (std::vector<uint32_t>{1, 2})) << "the inputs";
  EXPECT_EQ(board.doorbells, 1u);

  job.commands = YAML::Load("[program, {domain: [4, 1]}, {run: nowhere}]");
  const examples::ModelOutcome bad = board_model(link, info, 1000).run(job);
  EXPECT_FALSE(bad.all_exited);
  EXPECT_NE(bad.fault.find("'nowhere' is neither a number nor a symbol"), std::string::npos) << bad.fault;

  FakeBoard ice40;
  ice40.has_doorbell = false;
  Link ice40_link(ice40, 100);
  job.commands = YAML::Load("[program, {domain: [4, 1]}, run]");
  try {
    board_model(ice40_link, ice40_link.info(), 1000).run(job);
    FAIL() << "no error";
  } catch (const LinkError& e) {
    EXPECT_EQ(e.code(), int(Code::Unknown));
  }
}

}  // namespace
}  // namespace umbra::board
