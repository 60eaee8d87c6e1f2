// The SDRAM memory model (sdram.h) behind the whole SystemC system: the factory builds
// it by name, and a program whose threads store across the chip's banks and rows, read
// back through the cache and accumulate with atomics leaves the reference simulator's
// memory behind, the queue in front picking by the chip's own banks and rows.  Its
// cycle-exactness against rtl/sdram_controller.v is testbench/sdram's.
#include "sdram.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "memory_model.h"
#include "umbra/asm.h"
#include "umbra/iss.h"
#include "umbra/systemc_run.h"

namespace umbra::scm {
namespace {

// Thread t writes words t*4 + i*1028 for i < 16 (1028 = a row of 1024 bytes and a
// word further: every store a new bank or row), reads them back, sums them and
// adds the sum to a shared word with atom.add (what it returns depends on the threads'
// order, so only the sum is kept: the thread still waits for the returned word).
const char* kProgram = R"(
        rdsr    r1, tid
        shli    r2, r1, 2
        la      r3, area
        add     r3, r3, r2
        li      r11, 1028
        li      r4, 16
        mov     r8, r3
fill:   stw     r4, 0(r8)
        add     r8, r8, r11
        addi    r4, r4, -1
        bnz     r4, fill
        li      r4, 16
        li      r5, 0
        mov     r8, r3
sum:    ldw     r6, 0(r8)
        add     r5, r5, r6
        add     r8, r8, r11
        addi    r4, r4, -1
        bnz     r4, sum
        la      r7, total
        atom.add r9, r7, r5
        la      r10, olds
        add     r10, r10, r2
        stw     r5, 0(r10)
        exit
        .data
        .align  32
total:  .word   0
        .align  32
olds:   .space  4 * 16
        .align  32
area:   .space  16 * 1028 + 64
)";

Config config() {
  Config c;
  c.mem_model = "sdram";
  c.dram_banks = 4;  // the chip's geometry, for the queue's choice of rows
  c.dram_row_bytes = 1024;
  return c;
}

TEST(SdramMemory, TheFactoryBuildsIt) {
  const auto models = memory_models();
  EXPECT_TRUE(
      std::any_of(models.begin(), models.end(), [](const MemoryModelInfo& m) { return m.name == "sdram"; }));
  const auto m = make_memory("m", config());
  ASSERT_NE(dynamic_cast<sdram*>(m.get()), nullptr);
  EXPECT_EQ(m->bytes().size(), config().mem_bytes);
}

TEST(SdramMemory, AProgramLeavesTheReferenceSimulatorsMemory) {
  const Config cfg = config();
  as::Options o;
  o.registers = cfg.registers;
  const as::Result a = as::assemble_string(kProgram, "sdram_test.s", o);
  std::string diags;
  for (const auto& d : a.errors) diags += d.render();
  ASSERT_TRUE(a.ok()) << diags;
  iss::Simulator iss(cfg);
  iss.load(a.program);
  ASSERT_TRUE(iss.run(cfg.threads, 1'000'000).all_exited());
  const umbra::RunResult r = harness::run_systemc(a.program, cfg, cfg.threads, 1'000'000, nullptr, {});
  ASSERT_EQ(r.status, umbra::RunResult::Status::Exited) << r.message;
  ASSERT_EQ(r.memory.size(), iss.memory().bytes().size());
  for (size_t i = 0; i < r.memory.size(); i += 4)
    for (size_t k = 0; k < 4; ++k)
      if (r.memory[i + k] != iss.memory().bytes()[i + k]) {
        ADD_FAILURE() << "word at " << i << " differs from the reference simulator's";
        break;
      }
  // The controller initializes the chip first (100 us at 100 MHz) before any access.
  EXPECT_GT(r.cycles, SdramControllerParams{}.INIT_WAIT);
}

}  // namespace
}  // namespace umbra::scm
