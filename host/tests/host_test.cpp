// The host API (umbra/device.h, umbra/command_file.h) as a program uses it: the words
// a CommandBuffer makes are the generated table's, the allocator refuses what does not
// fit and says why, host copies stay inside memory, a submitted buffer runs on the
// reference simulator and its results read back, a backend that keeps its memory (a
// board's kind) gets only the words written since the last run and is asked to read
// only what the host reads, and a command file's mistakes name the file and the line.
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <string>

#include "umbra/asm.h"
#include "umbra/command_file.h"
#include "umbra/device.h"
#include "umbra/format.h"

namespace umbra::host {
namespace {

uint32_t opcode_of(const char* name) {
  return uint32_t(commands::find(std::string_view(name))->opcode);
}

TEST(CommandBuffer, EveryTypedCommandIsItsTableEntry) {
  // One call per command of the table: a command the table gains without a method here
  // fails the count check below.
  const std::map<std::string, std::function<void(CommandBuffer&)>> calls = {
      {"end", [](CommandBuffer& b) { b.end(); }},
      {"program", [](CommandBuffer& b) { b.program(11, 12, 13); }},
      {"args", [](CommandBuffer& b) { b.args(11); }},
      {"domain", [](CommandBuffer& b) { b.domain(11, 12); }},
      {"run", [](CommandBuffer& b) { b.run(11); }},
      {"invalidate", [](CommandBuffer& b) { b.invalidate(); }},
      {"wait", [](CommandBuffer& b) { b.wait(); }},
      {"fence", [](CommandBuffer& b) { b.fence(11, 12); }},
      {"counters_reset", [](CommandBuffer& b) { b.counters_reset(); }},
      {"counters", [](CommandBuffer& b) { b.counters(11); }},
  };
  ASSERT_EQ(calls.size(), std::size(commands::kCommands));
  for (const commands::CommandDef& d : commands::kCommands) {
    ASSERT_TRUE(calls.count(d.name)) << d.name;
    CommandBuffer b;
    calls.at(d.name)(b);
    std::vector<uint32_t> want = {uint32_t(d.opcode)};
    for (unsigned i = 0; i < d.nargs; ++i) want.push_back(11 + i);
    EXPECT_EQ(b.words(), want) << d.name;
    EXPECT_EQ(b.bytes(), 4 * want.size());
  }
}

TEST(CommandBuffer, CommandsFollowEachOtherAndEndIsOpcodeZero) {
  CommandBuffer b;
  b.domain(64).run(0x20).wait().end();
  EXPECT_EQ(b.words(), (std::vector<uint32_t>{opcode_of("domain"), 64, 1, opcode_of("run"), 0x20,
                                              opcode_of("wait"), 0}));
  EXPECT_TRUE(b.ended());
  EXPECT_EQ(opcode_of("end"), 0u);
}

TEST(CommandBuffer, WrongArgumentCountIsRefusedByName) {
  CommandBuffer b;
  try {
    b.append(commands::Opcode::Fence, {1});
    FAIL() << "no error";
  } catch (const DeviceError& e) {
    EXPECT_STREQ(e.what(), "command `fence` takes 2 arguments, not 1");
  }
  EXPECT_TRUE(b.words().empty());
}

Config small(uint32_t mem = 4096) {
  Config c;
  c.name = "small";
  c.mem_bytes = mem;
  c.data_base = 0x800;
  return c;
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const DeviceError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(DeviceMemory, AllocAlignsAndBumps) {
  Device d = Device::open("iss", small());
  EXPECT_EQ(d.alloc(6), 0u);
  EXPECT_EQ(d.alloc(4), 8u);
  EXPECT_EQ(d.alloc(32, 64), 64u);
  EXPECT_EQ(d.alloc(4, 4), 96u);
}

TEST(DeviceMemory, AllocRefusesWhatDoesNotFitNamingTheSizes) {
  Device d = Device::open("iss", small());
  d.alloc(4000);
  EXPECT_EQ(error_of([&] { d.alloc(100); }),
            "alloc(100 bytes, align 4): does not fit in device memory of 4096 bytes (96 bytes free above "
            "0x00000fa0)");
  EXPECT_EQ(d.alloc(96), 4000u);  // exactly what is left
  EXPECT_NE(error_of([&] { d.alloc(1); }).find("does not fit"), std::string::npos);
  EXPECT_EQ(error_of([&] { Device::open("iss", small()).alloc(8, 6); }),
            "alloc(8, 6): the alignment must be a power of two");
  EXPECT_NE(error_of([&] { Device::open("iss", small()).alloc(0xffffffffu); }).find("does not fit"),
            std::string::npos);
}

TEST(DeviceMemory, CopiesOutsideMemoryOrMisalignedAreRefused) {
  Device d = Device::open("iss", small());
  EXPECT_EQ(error_of([&] { d.write(4094, {1}); }), "write at 0x00000ffe: the address is not a multiple of 4");
  EXPECT_EQ(error_of([&] {
              d.write(4092, {1, 2});
            }),
            "write of 2 words at 0x00000ffc leaves device memory of 4096 bytes");
  EXPECT_EQ(error_of([&] { d.read(4096, 1); }),
            "read of 1 words at 0x00001000 leaves device memory of 4096 bytes");
  d.write(16, {7, 8});
  EXPECT_EQ(d.read(16, 3), (std::vector<uint32_t>{7, 8, 0}));
}

constexpr const char* kKernel = R"(
        .text
main:   rdsr    r1, lx
        rdsr    r10, arg
        ldw     r11, 0(r10)
        mul     r6, r1, r11
        shli    r4, r1, 2
        la      r5, out
        add     r5, r5, r4
        stw     r6, 0(r5)
        exit
        .data
scale:  .word   7
out:    .space  256
)";

Program kernel(uint32_t data_base) {
  as::Options o;
  o.data_base = data_base;
  as::Result r = as::assemble_string(kKernel, "kernel.s", o);
  EXPECT_TRUE(r.ok());
  return r.program;
}

TEST(DeviceMemory, TheProgramsDataIsReservedAndLoadComesFirst) {
  Device d = Device::open("iss", small(8192));
  const Program p = kernel(0x800);
  const ProgramImage img = d.load(p, "kernel.s");
  EXPECT_EQ(img.src, 0u);  // below the data at 0x800
  EXPECT_EQ(img.words, p.text.size());
  EXPECT_EQ(d.read(0, 1)[0], p.text[0]);
  // What is left below the data is skipped when it is too small.
  const uint32_t a = d.alloc(0x800);
  EXPECT_EQ(a, (0x800u + uint32_t(p.data.size()) + 3) & ~3u);
  Device late = Device::open("iss", small());
  late.alloc(0x900);
  EXPECT_EQ(error_of([&] { late.load(p, "kernel.s"); }),
            "kernel.s: data at 0x00000800 overlaps memory already allocated (up to 0x00000900); load the "
            "program before allocating");
}

TEST(Device, ABufferRunsOnTheReferenceSimulatorAndReadsBack) {
  Config c;
  c.name = "test";
  c.cores = 2;
  Device d = Device::open("iss", c);
  const Program p = kernel(c.data_base);
  const ProgramImage img = d.load(p, "kernel.s");
  const uint32_t args = d.alloc(4), fence = d.alloc(4), counters = d.alloc(4 * commands::counter_words(2));
  d.write(args, {5});  // the argument block: the kernel's scale
  CommandBuffer b;
  b.program(img.src, img.words, img.dest)
      .args(args)
      .domain(40)
      .run(img.entry)
      .fence(fence, 0xf00d)
      .counters(counters);
  d.submit(b);
  EXPECT_NE(error_of([&] { d.submit(b); }).find("not waited for"), std::string::npos);
  const models::Result& r = d.wait();
  ASSERT_EQ(r.run.status, umbra::RunResult::Status::Exited) << r.run.message;
  const std::vector<uint32_t> out = d.read(*p.symbol("out"), 41);
  for (uint32_t i = 0; i < 40; ++i) EXPECT_EQ(out[i], 5 * i) << "item " << i;
  EXPECT_EQ(out[40], 0u);
  EXPECT_EQ(d.read(fence, 1)[0], 0xf00du);
  const std::vector<uint32_t> cnt = d.read(counters, 4);
  EXPECT_EQ(cnt[2] + cnt[3], 40 * img.words);
  EXPECT_EQ(r.instructions, 40 * img.words);
  // The buffer sits where the device put it, `end` appended.
  const std::vector<uint32_t> words = d.read(d.last_buffer(), uint32_t(b.words().size()) + 1);
  EXPECT_EQ(std::vector<uint32_t>(words.begin(), words.end() - 1), b.words());
  EXPECT_EQ(words.back(), 0u);
  EXPECT_NE(error_of([&] { d.wait(); }).find("nothing was submitted"), std::string::npos);
}

TEST(Device, ASecondSubmitStartsFromTheFirstsMemory) {
  Device d = Device::open("iss", Config{});
  const Program p = kernel(Config{}.data_base);
  const ProgramImage img = d.load(p, "kernel.s");
  CommandBuffer first;
  first.program(img.src, img.words, img.dest).args(*p.symbol("scale")).domain(4).run(img.entry);
  d.submit(first);
  ASSERT_EQ(d.wait().run.status, umbra::RunResult::Status::Exited);
  // The second run's kernel reads its scale from out[3] (21) that the first left.
  CommandBuffer second;
  second.program(img.src, img.words, img.dest).args(*p.symbol("out") + 12).domain(2).run(img.entry);
  d.submit(second);
  ASSERT_EQ(d.wait().run.status, umbra::RunResult::Status::Exited);
  EXPECT_EQ(d.read(*p.symbol("out"), 4), (std::vector<uint32_t>{0, 21, 14, 21}));
}

TEST(Device, ACommandFaultIsTheRunsFaultWithTheCommandsAddress) {
  Device d = Device::open("iss", Config{});
  CommandBuffer b;
  b.wait().run(0);  // no domain
  d.submit(b);
  const models::Result& r = d.wait();
  EXPECT_EQ(r.run.status, umbra::RunResult::Status::Fault);
  EXPECT_EQ(r.run.fault_addr, d.last_buffer() + 4);
  EXPECT_EQ(r.run.message,
            "command processor: " + std::string(commands::fault_text(commands::Fault::BadDomain)) +
                " (command at " + hex8(d.last_buffer() + 4) + ")");
}

// A backend that keeps its memory between runs, as a board does, and records what the
// device asks of it: each submission carries only the words the host wrote since the
// previous run, and a read after a run asks the backend for just the words it names.
class RecordingBackend final : public Backend {
 public:
  explicit RecordingBackend(uint32_t mem) : mem_(mem / 4, 0) {}
  std::vector<Submission> runs;
  std::vector<std::pair<uint32_t, uint32_t>> reads;  // address, words
  std::string name() const override { return "recording"; }
  uint32_t mem_bytes() const override { return uint32_t(4 * mem_.size()); }
  models::Result run(const Submission& s, const RunOptions&) override {
    runs.push_back(s);
    for (const auto& [a, w] : s.writes)
      for (size_t i = 0; i < w.size(); ++i) mem_[a / 4 + i] = w[i];
    // "The run": the word after the buffer's `end` gets the run's number.
    mem_[s.doorbell.addr / 4 + 2] = uint32_t(runs.size());
    return {};
  }
  std::vector<uint32_t> read(uint32_t addr, uint32_t n) override {
    reads.push_back({addr, n});
    return std::vector<uint32_t>(mem_.begin() + addr / 4, mem_.begin() + addr / 4 + n);
  }

 private:
  std::vector<uint32_t> mem_;
};

TEST(Device, RunsSendOnlyTheWordsWrittenSinceAndReadsAskTheBackendForWhatTheyName) {
  auto owned = std::make_unique<RecordingBackend>(1024);
  RecordingBackend& be = *owned;
  Device d(std::move(owned), small());
  EXPECT_NE(error_of([&] { d.alloc(2048); }).find("does not fit in device memory of 1024 bytes"),
            std::string::npos)
      << "the backend's memory, not the configuration's 4096 bytes";
  const uint32_t a = d.alloc(16);
  d.write(a, {1, 2, 3, 4});
  d.submit(CommandBuffer().wait());  // wait, end: 2 words; the run writes the word after
  const uint32_t first_buffer = d.last_buffer();
  d.wait();
  ASSERT_EQ(be.runs.size(), 1u);
  using Writes = std::vector<std::pair<uint32_t, std::vector<uint32_t>>>;
  // One span: the words and the buffer right after them.
  EXPECT_EQ(be.runs[0].writes, (Writes{{a, {1, 2, 3, 4, opcode_of("wait"), 0}}}));
  EXPECT_TRUE(be.runs[0].doorbell.ring);
  EXPECT_EQ(be.runs[0].doorbell.addr, first_buffer);
  EXPECT_TRUE(be.reads.empty()) << "nothing is read back unasked";
  EXPECT_EQ(d.read(first_buffer + 8, 1), std::vector<uint32_t>{1u}) << "what the run left";
  EXPECT_EQ(be.reads, (std::vector<std::pair<uint32_t, uint32_t>>{{first_buffer + 8, 1}}));
  d.write(a + 4, {20});
  EXPECT_EQ(d.read(a, 3), (std::vector<uint32_t>{1, 20, 3})) << "the host's later write on top";
  d.submit(CommandBuffer().wait());
  d.wait();
  ASSERT_EQ(be.runs.size(), 2u);
  EXPECT_EQ(be.runs[1].writes, (Writes{{a + 4, {20}}, {d.last_buffer(), {opcode_of("wait"), 0}}}));
  EXPECT_EQ(error_of([&] { d.load(kernel(0x100), "late.s"); }),
            "late.s: load the program before the device's first run");
}

TEST(Device, UnknownModelIsNamed) {
  try {
    Device::open("nosuch", Config{});
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("no model 'nosuch'"), std::string::npos);
  }
}

// --- command files ---

struct FileCase : ::testing::Test {
  Program p = kernel(Config{}.data_base);
  ProgramImage img{0x40, 9, 0, 0};
  CommandBuffer parse(const std::string& text) { return parse_commands(text, "cmds.yaml", p, img); }
  std::string error(const std::string& text) {
    try {
      parse(text);
    } catch (const CommandFileError& e) {
      return e.what();
    }
    return "(no error)";
  }
};

TEST_F(FileCase, DefaultsNumbersSymbolsListsAndMaps) {
  const CommandBuffer b = parse(R"(
# a comment
- program
- args: scale
- domain: [16, 8]
- domain: {h: 2, w: 3}
- domain: 64
- run
- run: main
- invalidate
- wait
- fence: [out, 0x10]
- counters_reset
- counters: 0x200
- end
)");
  CommandBuffer want;
  want.program(0x40, 9, 0).args(*p.symbol("scale")).domain(16, 8).domain(3, 2).domain(64, 1).run(0).run(0);
  want.invalidate().wait().fence(*p.symbol("out"), 16).counters_reset().counters(0x200).end();
  EXPECT_EQ(b.words(), want.words());
}

TEST_F(FileCase, MistakesNameTheFileTheLineAndTheCommand) {
  EXPECT_EQ(
      error("- wait\n- launch\n"),
      "cmds.yaml:2: no command 'launch' (commands: end, program, args, domain, run, invalidate, wait, fence, "
      "counters_reset, counters)");
  EXPECT_EQ(
      error("- wait\n- fence: nowhere\n"),
      "cmds.yaml:2: command `fence`, argument `addr`: 'nowhere' is neither a number nor a symbol of the "
      "program");
  EXPECT_EQ(error("- wait\n\n- fence: out\n"),
            "cmds.yaml:3: command `fence` takes 2 arguments (addr, value), not 1");
  EXPECT_EQ(error("- counters: 0x100000000\n"),
            "cmds.yaml:1: command `counters`, argument `addr`: 0x100000000 does not fit in 32 bits");
  EXPECT_EQ(error("- domain: {w: 3, depth: 2}\n"), "cmds.yaml:1: command `domain` has no argument `depth`");
  EXPECT_EQ(error("- domain: {w: 3}\n"), "cmds.yaml:1: command `domain`: argument `h` missing");
  EXPECT_EQ(error("- wait\n- {run: 0, wait: ~}\n"),
            "cmds.yaml:2: expected a command: its name, or `name: arguments` (one a list item)");
  EXPECT_EQ(error("run: 0\n"), "cmds.yaml:1: expected a list of commands (e.g. `- run`), one a line");
  EXPECT_EQ(error(""), "cmds.yaml:1: expected a list of commands (e.g. `- run`), one a line");
  EXPECT_EQ(error("- [unclosed\n").rfind("cmds.yaml:", 0), 0u);
  EXPECT_EQ(error("- wait: [1]\n"), "cmds.yaml:1: command `wait` takes 0 arguments, not 1");
}

TEST(CommandFile, AMissingFileIsNamed) {
  const Program p;
  try {
    parse_command_file("/nonexistent/cmds.yaml", p, ProgramImage{});
    FAIL();
  } catch (const CommandFileError& e) {
    EXPECT_STREQ(e.what(), "/nonexistent/cmds.yaml: cannot read the command file");
  }
}

}  // namespace
}  // namespace umbra::host
