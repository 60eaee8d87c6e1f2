// The reference simulator's command processor (Simulator::run_commands): what each
// command of docs/commands.md does to the instruction store, the argument register,
// memory and the counters, and every fault, with the reason text and the command's
// address the cycle models report.  Buffers are raw words built from the generated
// opcodes, as the command processor reads them.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "umbra/asm.h"
#include "umbra/commands_gen.h"
#include "umbra/format.h"
#include "umbra/iss.h"
#include "umbra_testing/grid_kernel.h"

namespace umbra {
namespace {

using commands::Opcode;

// Every work item stores index * scale at out[index], index = ly * domw + lx, where
// scale is the first word of the argument block (`rdsr arg`).
const std::string kKernel = std::string(umbra::testkit::kArgKernelText) + R"(
        .data
params: .word   3
other:  .word   5
out:    .space  1024
)";

Config cfg_with(unsigned cores = 1, uint32_t imem_words = 1024, uint32_t mem_bytes = 1u << 20) {
  Config c;
  c.name = "test";
  c.cores = cores;
  c.threads = 8;
  c.imem_words = imem_words;
  c.mem_bytes = mem_bytes;
  return c;
}

Program kernel() {
  as::Result r = as::assemble_string(kKernel, "kernel.s");
  EXPECT_TRUE(r.ok());
  return r.program;
}

uint32_t op(Opcode o) {
  return uint32_t(o);
}

constexpr uint32_t kText = 0x1000, kBuffer = 0x2000;

// A simulator with the kernel's data loaded, its text at kText in data memory and
// `buffer` at kBuffer.
struct Machine {
  explicit Machine(const std::vector<uint32_t>& buffer, const Config& c = cfg_with()) : sim(c) {
    p = kernel();
    sim.load_data(p);
    for (size_t i = 0; i < p.text.size(); ++i) sim.memory().store32(kText + uint32_t(4 * i), p.text[i]);
    for (size_t i = 0; i < buffer.size(); ++i) sim.memory().store32(kBuffer + uint32_t(4 * i), buffer[i]);
  }
  uint32_t sym(const char* name) const { return *p.symbol(name); }
  uint32_t words() const { return uint32_t(p.text.size()); }
  iss::CommandsResult run(uint32_t at = kBuffer, uint64_t limit = 1'000'000) {
    return sim.run_commands(at, limit);
  }
  Program p;
  iss::Simulator sim;
};

TEST(IssCommands, ProgramArgsDomainRunFenceEnd) {
  Machine m({});
  const uint32_t params = m.sym("params"), out = m.sym("out"), fence = out + 1000;
  const std::vector<uint32_t> buf = {op(Opcode::Program), kText,  m.words(), 0,  //
                                     op(Opcode::Args),    params,                //
                                     op(Opcode::Domain),  5,      3,             //
                                     op(Opcode::Run),     0,                     //
                                     op(Opcode::Wait),                           //
                                     op(Opcode::Fence),   fence,  0xfeedu,       //
                                     op(Opcode::End)};
  Machine mm(buf);
  const iss::CommandsResult r = mm.run();
  ASSERT_TRUE(r.ended()) << (r.command_fault ? r.command_fault->message() : r.run.fault->message());
  EXPECT_EQ(r.runs, 1u);
  EXPECT_EQ(r.end_addr, kBuffer + 4 * uint32_t(buf.size() - 1));
  for (uint32_t i = 0; i < 15; ++i) EXPECT_EQ(mm.sim.memory().peek32(out + 4 * i), 3 * i) << "item " << i;
  EXPECT_EQ(mm.sim.memory().peek32(out + 4 * 15), 0u);  // the domain has 15 items
  EXPECT_EQ(mm.sim.memory().peek32(fence), 0xfeedu);
  EXPECT_EQ(r.run.retired, 15u * mm.words());  // straight-line: every word once an item
  EXPECT_TRUE(r.counters.empty());
}

TEST(IssCommands, ArgsChangesEveryThreadsArgumentBetweenRuns) {
  Machine m({});
  const uint32_t out = m.sym("out");
  Machine mm({op(Opcode::Program), kText, m.words(), 0, op(Opcode::Domain), 4, 1,  //
              op(Opcode::Args), m.sym("params"), op(Opcode::Run), 0,               //
              op(Opcode::Args), m.sym("other"), op(Opcode::Domain), 2, 1, op(Opcode::Run), 0,
              op(Opcode::End)});
  const iss::CommandsResult r = mm.run();
  ASSERT_TRUE(r.ended());
  EXPECT_EQ(r.runs, 2u);
  // The second run (scale 5, two items) overwrote items 0 and 1 of the first (scale 3).
  const std::vector<uint32_t> want = {0, 5, 6, 9};
  for (uint32_t i = 0; i < 4; ++i) EXPECT_EQ(mm.sim.memory().peek32(out + 4 * i), want[i]) << "item " << i;
}

TEST(IssCommands, ProgramCopiesToItsDestinationAndLeavesTheRestOfTheStore) {
  Machine m({});
  const uint32_t dest = 0x100;
  Machine mm({op(Opcode::Program), kText, m.words(), dest, op(Opcode::End)});
  ASSERT_TRUE(mm.run().ended());
  for (uint32_t i = 0; i < m.words(); ++i)
    EXPECT_EQ(mm.sim.imem()[dest / 4 + i], m.p.text[i]) << "word " << i;
  EXPECT_EQ(mm.sim.imem()[0], 0u);  // load_data left the store empty
  EXPECT_EQ(mm.sim.imem()[dest / 4 + m.words()], 0u);
}

TEST(IssCommands, RunAtTheCopiesPc) {
  Machine m({});
  Machine mm({op(Opcode::Program), kText, m.words(), 0x100, op(Opcode::Args), m.sym("params"),  //
              op(Opcode::Domain), 2, 1, op(Opcode::Run), 0x100, op(Opcode::End)});
  ASSERT_TRUE(mm.run().ended());
  EXPECT_EQ(mm.sim.memory().peek32(m.sym("out") + 4), 3u);
}

TEST(IssCommands, InvalidateAndWaitChangeNothing) {
  Machine mm({op(Opcode::Invalidate), op(Opcode::Wait), op(Opcode::End)});
  const std::vector<uint8_t> before = mm.sim.memory().bytes();
  const iss::CommandsResult r = mm.run();
  ASSERT_TRUE(r.ended());
  EXPECT_EQ(r.runs, 0u);
  EXPECT_EQ(mm.sim.memory().bytes(), before);
}

TEST(IssCommands, WithoutProgramTheStoreIsEmptyAndARunFaults) {
  Machine mm({op(Opcode::Domain), 1, 1, op(Opcode::Run), 0, op(Opcode::End)});
  const iss::CommandsResult r = mm.run();
  ASSERT_TRUE(r.run.fault);
  EXPECT_EQ(r.run.fault->fault, Fault::IllegalInstruction);
  EXPECT_FALSE(r.command_fault);
}

TEST(IssCommands, CountersWriteSlotsAndInstructionsPerCoreSinceTheReset) {
  Machine m({});
  const uint32_t block = 0x3000, block2 = 0x3100;
  Machine mm({op(Opcode::Program), kText, m.words(), 0, op(Opcode::Args), m.sym("params"),  //
              op(Opcode::Domain), 24, 1, op(Opcode::Run), 0,                                //
              op(Opcode::Counters), block,                                                  //
              op(Opcode::CountersReset), op(Opcode::Counters), block2, op(Opcode::End)},
             cfg_with(2));
  const iss::CommandsResult r = mm.run();
  ASSERT_TRUE(r.ended());
  ASSERT_EQ(commands::counter_words(2), 4u);
  ASSERT_EQ(r.counters.size(), 2u);
  EXPECT_EQ(r.counters[0].addr, block);
  EXPECT_EQ(r.counters[0].words, 4u);
  // 24 items over 2 cores x 8 threads, every item the kernel's words once.
  const auto w = [&](uint32_t a, unsigned i) { return mm.sim.memory().peek32(a + 4 * i); };
  EXPECT_EQ(w(block, 0), uint32_t(r.run.rounds * 8));
  EXPECT_EQ(w(block, 1), uint32_t(r.run.rounds * 8));
  EXPECT_EQ(w(block, 2) + w(block, 3), 24u * m.words());
  EXPECT_EQ(w(block, 2) % m.words(), 0u);
  EXPECT_GT(w(block, 3), 0u);
  for (unsigned i = 0; i < 4; ++i) EXPECT_EQ(w(block2, i), 0u) << "word " << i << " after counters_reset";
}

// A fault: the command processor's reason (commands::fault_text) and the command's address.
void expect_fault(const iss::CommandsResult& r, commands::Fault f, uint32_t at) {
  ASSERT_TRUE(r.command_fault) << "no command fault";
  EXPECT_EQ(r.command_fault->fault, f);
  EXPECT_EQ(r.command_fault->addr, at);
  const std::string text =
      "command processor: " + std::string(commands::fault_text(f)) + " (command at " + hex8(at) + ")";
  EXPECT_EQ(r.command_fault->message().rfind(text, 0), 0u) << r.command_fault->message();
}

TEST(IssCommandFaults, UnknownOpcode) {
  Machine mm({op(Opcode::Wait), 0x77, op(Opcode::End)});
  expect_fault(mm.run(), commands::Fault::BadOpcode, kBuffer + 4);
}

TEST(IssCommandFaults, MisalignedBuffer) {
  Machine mm({op(Opcode::End)});
  expect_fault(mm.run(kBuffer + 2), commands::Fault::Misaligned, kBuffer + 2);
}

TEST(IssCommandFaults, MisalignedAddresses) {
  Machine m({});
  expect_fault(Machine({op(Opcode::Wait), op(Opcode::Program), kText + 2, 4, 0, op(Opcode::End)}).run(),
               commands::Fault::Misaligned, kBuffer + 4);
  expect_fault(Machine({op(Opcode::Program), kText, 4, 6, op(Opcode::End)}).run(),
               commands::Fault::Misaligned, kBuffer);
  expect_fault(Machine({op(Opcode::Fence), 0x3001, 1, op(Opcode::End)}).run(), commands::Fault::Misaligned,
               kBuffer);
  expect_fault(Machine({op(Opcode::Counters), 0x3002, op(Opcode::End)}).run(), commands::Fault::Misaligned,
               kBuffer);
  expect_fault(Machine({op(Opcode::Program), kText, m.words(), 0, op(Opcode::Domain), 1, 1, op(Opcode::Run),
                        2, op(Opcode::End)})
                   .run(),
               commands::Fault::Misaligned, kBuffer + 4 * 7);
}

TEST(IssCommandFaults, ZeroDomainSideAtRun) {
  // No domain yet, then a zero width, then a zero height: each refused at its `run`.
  expect_fault(Machine({op(Opcode::Run), 0, op(Opcode::End)}).run(), commands::Fault::BadDomain, kBuffer);
  expect_fault(Machine({op(Opcode::Domain), 0, 4, op(Opcode::Run), 0, op(Opcode::End)}).run(),
               commands::Fault::BadDomain, kBuffer + 12);
  const iss::CommandsResult r =
      Machine({op(Opcode::Domain), 4, 0, op(Opcode::Wait), op(Opcode::Run), 0}).run();
  expect_fault(r, commands::Fault::BadDomain, kBuffer + 16);
  EXPECT_EQ(r.runs, 0u);
}

TEST(IssCommandFaults, ProgramPastTheInstructionStore) {
  // A 64-word store: 60 words at word 8 end at 68.
  Machine mm({op(Opcode::Program), kText, 60, 32, op(Opcode::End)}, cfg_with(1, 64));
  expect_fault(mm.run(), commands::Fault::BadProgram, kBuffer);
  // Exactly full is fine.
  Machine ok({op(Opcode::Program), kText, 56, 32, op(Opcode::End)}, cfg_with(1, 64));
  EXPECT_TRUE(ok.run().ended());
}

TEST(IssCommandFaults, ReadsOutsideMemoryAreTheMemorysFault) {
  const uint32_t mem = 1u << 20;
  Machine mm({op(Opcode::Fence), mem, 1, op(Opcode::End)});
  const iss::CommandsResult r = mm.run();
  ASSERT_TRUE(r.command_fault);
  EXPECT_EQ(r.command_fault->memory, Fault::OutOfRange);
  EXPECT_EQ(r.command_fault->addr, mem);
  // A buffer that runs off the end of memory without `end`.
  const iss::CommandsResult r2 = Machine({}).run(mem - 4);  // a zero word there: `end`
  EXPECT_TRUE(r2.ended());
  Machine off({});
  off.sim.memory().store32(mem - 4, op(Opcode::Wait));
  const iss::CommandsResult r3 = off.run(mem - 4);
  ASSERT_TRUE(r3.command_fault);
  EXPECT_EQ(r3.command_fault->memory, Fault::OutOfRange);
  EXPECT_NE(r3.command_fault->message().find("outside data memory"), std::string::npos)
      << r3.command_fault->message();
}

TEST(IssCommandFaults, AKernelFaultStopsTheBufferBeforeTheFence) {
  Machine m({});
  // No `args`: arg is 0 and the kernel's ldw reads word 0, which is fine; a misaligned
  // argument block makes it fault.
  Machine mm({op(Opcode::Program), kText, m.words(), 0, op(Opcode::Args), 2, op(Opcode::Domain), 2, 1,
              op(Opcode::Run), 0, op(Opcode::Fence), 0x3000, 1, op(Opcode::End)});
  const iss::CommandsResult r = mm.run();
  ASSERT_TRUE(r.run.fault);
  EXPECT_EQ(r.run.fault->fault, Fault::Misaligned);
  EXPECT_EQ(mm.sim.memory().peek32(0x3000), 0u);
}

TEST(IssCommandFaults, TheInstructionLimitCountsEveryRun) {
  Machine m({});
  Machine mm({op(Opcode::Program), kText, m.words(), 0, op(Opcode::Args), m.sym("params"),  //
              op(Opcode::Domain), 2, 1, op(Opcode::Run), 0, op(Opcode::Run), 0, op(Opcode::End)});
  const iss::CommandsResult r = mm.run(kBuffer, 30);  // one run is 2 x words() > 15
  ASSERT_TRUE(r.run.fault);
  EXPECT_EQ(r.run.fault->fault, Fault::InstructionLimit);
  EXPECT_EQ(r.run.retired, 30u);
  EXPECT_NE(r.run.fault->detail.find("30 instructions"), std::string::npos) << r.run.fault->detail;
}

}  // namespace
}  // namespace umbra
