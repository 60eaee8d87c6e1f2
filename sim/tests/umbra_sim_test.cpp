// umbra-sim as its users run it: the built binary (UMBRA_SIM_PATH) on small programs
// written to a scratch directory.  What is checked is what scripts rely on: the exact
// --dump-mem and --trace formats (docs/simulator.md), which stream carries what, the
// exit codes, and that bad input is named in the message.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "program_builder.h"
#include "umbra/asm.h"
#include "umbra/program.h"
#include "umbra_testing/command.h"

namespace {

using umbra::testkit::has;
using umbra::testkit::Outcome;
using umbra::testkit::slurp;

using umbra::test::enc;

constexpr int kOk = 0, kBadInput = 1, kFault = 2, kLimit = 3;  // docs/simulator.md

class UmbraSim : public umbra::testkit::ScratchTest {
 protected:
  Outcome run(const std::string& args) const { return run_command(std::string(UMBRA_SIM_PATH) + " " + args); }
};

// Stores 0xdeadbeef over the second of ten words 1..10 at `out` (the start of .data,
// 0x10000), in thread 0 only.
const char* kStoreProgram = R"(
        .text
_start: rdsr    r1, tid
        bnz     r1, done
        la      r2, out
        li      r3, 0xdeadbeef
        stw     r3, 4(r2)
done:   exit
        .data
out:    .word   1, 2, 3, 4, 5, 6, 7, 8, 9, 10
)";

TEST_F(UmbraSim, DumpMemPrintsEightWordsPerLineAfterTheAddress) {
  const std::string prog = write("store.s", kStoreProgram);
  const Outcome o = run(prog + " --dump-mem out:40 --dump-mem 0x10020:8 --dump-mem 65536:4");
  EXPECT_EQ(o.rc, kOk) << o.err;
  EXPECT_EQ(o.out,
            "00010000: 00000001 deadbeef 00000003 00000004 00000005 00000006 00000007 00000008\n"
            "00010020: 00000009 0000000a\n"
            "00010020: 00000009 0000000a\n"
            "00010000: 00000001\n");
}

TEST_F(UmbraSim, DumpMemToAFileKeepsStdoutClean) {
  const std::string prog = write("store.s", kStoreProgram);
  const Outcome o = run(prog + " --dump-mem out:12:" + path("mem.txt"));
  EXPECT_EQ(o.rc, kOk) << o.err;
  EXPECT_EQ(o.out, "");
  EXPECT_EQ(slurp(path("mem.txt")), "00010000: 00000001 deadbeef 00000003\n");
  // The summary goes to stderr: one line per thread with its retired count.
  EXPECT_TRUE(has(o.err, "     0            8  exited at pc 0000001c")) << o.err;
  EXPECT_TRUE(has(o.err, "     7            3  exited at pc 0000001c")) << o.err;
}

TEST_F(UmbraSim, BadDumpMemSpecsAreRejectedBeforeRunning) {
  const std::string prog = write("store.s", kStoreProgram);
  struct {
    const char* spec;
    const char* says;
  } bad[] = {
      {"0x10000", "missing ':LENGTH'"},
      {"nosuch:4", "'nosuch' is neither a number nor a symbol"},
      {"0x10000:6", "multiple of 4"},
      {"0x10002:4", "is not a multiple of 4"},
      {"0x10000:zz", "LENGTH 'zz' is not a number"},
      {"0xffffc:8", "beyond data memory"},
      {"0x10000:4:", "empty FILE"},
  };
  for (const auto& b : bad) {
    const Outcome o = run(prog + " --dump-mem " + b.spec);
    EXPECT_EQ(o.rc, kBadInput) << b.spec;
    EXPECT_TRUE(has(o.err, std::string("--dump-mem '") + b.spec + "'")) << o.err;
    EXPECT_TRUE(has(o.err, b.says)) << o.err;
    EXPECT_EQ(o.out, "") << b.spec;
  }
}

std::string trace_row(unsigned t, uint32_t pc, uint32_t word, const std::string& dis,
                      const std::string& eff) {
  char buf[200];
  std::snprintf(buf, sizeof buf, "%4u %08x %08x %-30s", t, pc, word, dis.c_str());
  std::string s = buf;
  if (!eff.empty()) s += " " + eff;
  while (s.back() == ' ') s.pop_back();
  return s + "\n";
}

TEST_F(UmbraSim, TraceShowsEveryInstructionInIssueOrder) {
  const std::string prog = write("trace.s", R"(
_start: rdsr     r1, tid
        la       r2, cell
        atom.add r3, r2, r1
        stw      r1, 4(r2)
        ldw      r4, 4(r2)
        beq      r1, r0, done
        nop
done:   exit
        .data
cell:   .word    5, 0
)");
  const Outcome o = run("--threads 2 --trace - " + prog);  // `--trace -`: trace to stdout
  EXPECT_EQ(o.rc, kOk) << o.err;
  const uint32_t rdsr = enc("rdsr", {1, umbra::isa::find_sreg("tid")->number}), movi = enc("movi", {2, 0}),
                 movhi = enc("movhi", {2, 1}), atom = enc("atom.add", {3, 2, 1}), stw = enc("stw", {1, 4}, 2),
                 ldw = enc("ldw", {4, 4}, 2), beq = enc("beq", {1, 0, 2}), nop = enc("nop", {}),
                 ex = enc("exit", {});
  const std::string expect =
      "#thr pc       word     instruction                    effects\n" +
      trace_row(0, 0x00, rdsr, "rdsr r1, tid", "r1=00000000") +
      trace_row(1, 0x00, rdsr, "rdsr r1, tid", "r1=00000001") +
      trace_row(0, 0x04, movi, "movi r2, 0", "r2=00000000") +
      trace_row(1, 0x04, movi, "movi r2, 0", "r2=00000000") +
      trace_row(0, 0x08, movhi, "movhi r2, 1", "r2=00010000") +
      trace_row(1, 0x08, movhi, "movhi r2, 1", "r2=00010000") +
      trace_row(0, 0x0c, atom, "atom.add r3, r2, r1", "r3=00000005 at[00010000]=00000005->00000005") +
      trace_row(1, 0x0c, atom, "atom.add r3, r2, r1", "r3=00000005 at[00010000]=00000005->00000006") +
      trace_row(0, 0x10, stw, "stw r1, 4(r2)", "st[00010004]=00000000") +
      trace_row(1, 0x10, stw, "stw r1, 4(r2)", "st[00010004]=00000001") +
      trace_row(0, 0x14, ldw, "ldw r4, 4(r2)", "r4=00000001 ld[00010004]=00000001") +
      trace_row(1, 0x14, ldw, "ldw r4, 4(r2)", "r4=00000001 ld[00010004]=00000001") +
      trace_row(0, 0x18, beq, "beq r1, r0, done", "") + trace_row(1, 0x18, beq, "beq r1, r0, done", "") +
      trace_row(0, 0x20, ex, "exit", "") + trace_row(1, 0x1c, nop, "nop", "") +
      trace_row(1, 0x20, ex, "exit", "");
  EXPECT_EQ(o.out, expect);

  // To a file, the same lines; stdout stays empty.
  const Outcome f = run("--threads 2 --trace " + path("t.txt") + " " + prog);
  EXPECT_EQ(f.rc, kOk) << f.err;
  EXPECT_EQ(f.out, "");
  EXPECT_EQ(slurp(path("t.txt")), expect);
}

TEST_F(UmbraSim, TraceShowsTheFaultingInstruction) {
  const std::string prog = write("mis.s", "movi r1, 6\nldw r2, 0(r1)\nexit\n");
  const Outcome o = run("--threads 1 --trace - " + prog);
  EXPECT_EQ(o.rc, kFault);
  EXPECT_TRUE(has(o.out, trace_row(0, 4, enc("ldw", {2, 0}, 1), "ldw r2, 0(r1)",
                                   "FAULT misaligned access: ldw address 0x00000006 is not a multiple of 4")))
      << o.out;
}

TEST_F(UmbraSim, RegsPrintsNonZeroRegistersPerThread) {
  const std::string prog = write("regs.s", "rdsr r1, tid\nli r9, 0x12345678\nli r200, -1\nexit\n");
  const Outcome o = run("--threads 2 --regs " + prog);
  EXPECT_EQ(o.rc, kOk) << o.err;
  EXPECT_EQ(o.out,
            "thread 0 pc 00000010 exited\n"
            "     r9=12345678  r200=ffffffff\n"
            "thread 1 pc 00000010 exited\n"
            "     r1=00000001    r9=12345678  r200=ffffffff\n");
}

TEST_F(UmbraSim, FaultExitCodeAndMessageNameThreadPcAndInstruction) {
  const std::string prog = write("fault.s", R"(
_start: rdsr r1, tid
        movi r2, 3
        bne  r1, r2, out
        stw  r1, 2(r0)
out:    exit
)");
  // stw's offset must be a multiple of 4, so the assembler refuses 2(r0): that is an
  // input error, not a fault.
  Outcome o = run(prog);
  EXPECT_EQ(o.rc, kBadInput);
  EXPECT_TRUE(has(o.err, "fault.s:5:")) << o.err;

  write("fault.s", R"(
_start: rdsr r1, tid
        movi r2, 3
        bne  r1, r2, out
        movi r4, 2
        stw  r1, 0(r4)
out:    exit
)");
  o = run(prog);
  EXPECT_EQ(o.rc, kFault);
  EXPECT_TRUE(has(o.err, "fault: thread 3, pc 0x00000010 (stw r1, 0(r4)): misaligned access")) << o.err;
  EXPECT_TRUE(has(o.err, "     3            4  faulted at pc 00000010")) << o.err;
  // The others took the branch and exited in the round before.
  EXPECT_TRUE(has(o.err, "     4            4  exited at pc 00000014")) << o.err;
}

TEST_F(UmbraSim, OutOfRangeFollowsMemSize) {
  const std::string prog = write("far.s", "li r1, 0x1000\nstw r1, 0(r1)\nexit\n");
  EXPECT_EQ(run("--threads 1 " + prog).rc, kOk);
  const Outcome o = run("--threads 1 --mem-size 4K " + prog);
  EXPECT_EQ(o.rc, kFault);
  EXPECT_TRUE(has(o.err, "out-of-range access: stw address 0x00001000 is beyond data memory")) << o.err;
  EXPECT_EQ(run("--threads 1 --mem-size 0x1004 " + prog).rc, kOk);
  const Outcome bad = run("--mem-size 4097 " + prog);
  EXPECT_EQ(bad.rc, kBadInput);
  EXPECT_TRUE(has(bad.err, "--mem-size '4097'")) << bad.err;
}

TEST_F(UmbraSim, InstructionLimitHasItsOwnExitCode) {
  const std::string prog = write("spin.s", "top: j top\n");
  const Outcome o = run("--max-instructions 1000 " + prog);
  EXPECT_EQ(o.rc, kLimit);
  EXPECT_TRUE(has(o.err, "stopped: thread 0, pc 0x00000000 (j top): instruction limit")) << o.err;
  EXPECT_TRUE(has(o.err, "total 1000 instructions")) << o.err;
  EXPECT_EQ(run("--max-instructions 0 " + prog).rc, kBadInput);
}

TEST_F(UmbraSim, AssemblerErrorsAreAllPrinted) {
  const std::string prog = write("bad.s", "frob r1\nnop\nadd r1, r2\n");
  const Outcome o = run(prog);
  EXPECT_EQ(o.rc, kBadInput);
  EXPECT_TRUE(has(o.err, prog + ":1:1: error:")) << o.err;
  EXPECT_TRUE(has(o.err, prog + ":3:1: error:")) << o.err;
  EXPECT_TRUE(has(o.err, "2 errors in assembly")) << o.err;
  EXPECT_EQ(o.out, "");
}

TEST_F(UmbraSim, ConfigSetsTheRegisterLimitAndThreadCount) {
  const std::string cfg = write("small.yaml", "name: small\ncore:\n  threads: 16\n  registers: 32\n");
  const std::string prog = write("r.s", "add r40, r1, r1\nexit\n");
  Outcome o = run("--config " + cfg + " " + prog);
  EXPECT_EQ(o.rc, kBadInput);
  EXPECT_TRUE(has(o.err, prog + ":1:5: error:")) << o.err;
  EXPECT_TRUE(has(o.err, "r40")) << o.err;

  write("r.s", "exit\n");
  o = run("--config " + cfg + " " + prog);
  EXPECT_EQ(o.rc, kOk) << o.err;
  EXPECT_TRUE(has(o.err, "configuration 'small' (T=16, 32 registers), 16 threads")) << o.err;
  o = run("--config " + cfg + " --threads 17 " + prog);
  EXPECT_EQ(o.rc, kBadInput);
  EXPECT_TRUE(has(o.err, "--threads 17: configuration 'small' has 16 thread contexts")) << o.err;

  const std::string broken = write("broken.yaml", "core:\n  threds: 8\n");
  o = run("--config " + broken + " " + prog);
  EXPECT_EQ(o.rc, kBadInput);
  EXPECT_TRUE(has(o.err, broken + ":2: error: unknown configuration key 'core.threds'")) << o.err;
}

TEST_F(UmbraSim, BinaryRunsWithoutTheRegisterCheckOfTheAssemblerButStillFaults) {
  // A raw image made for 256 registers on a 32-register configuration.
  const uint32_t words[] = {enc("add", {40, 0, 0}), enc("exit", {})};
  std::string bytes;
  for (uint32_t w : words)
    for (int i = 0; i < 4; ++i) bytes += char(w >> (8 * i));
  const std::string bin = write("p.bin", bytes);
  const std::string cfg = write("small.yaml", "core:\n  registers: 32\n");
  EXPECT_EQ(run(bin).rc, kOk);
  const Outcome o = run("--config " + cfg + " " + bin);
  EXPECT_EQ(o.rc, kFault);
  EXPECT_TRUE(has(o.err, "illegal instruction: r40 does not exist")) << o.err;
}

TEST_F(UmbraSim, ElfAndHexImagesRunLikeTheSource) {
  // The object writers are umbra_asm's; here only that umbra-sim reads what they write.
  const std::string src = write("store.s", kStoreProgram);
  umbra::as::Result r = umbra::as::assemble_file(src);
  ASSERT_TRUE(r.ok());
  const auto elf = umbra::obj::write_elf(r.program);
  write("store.elf", std::string(elf.begin(), elf.end()));
  write("store.hex", umbra::obj::write_hex_text(r.program));
  write("store.hex.data.hex", umbra::obj::write_hex_data(r.program));
  const std::string want = "00010000: 00000001 deadbeef\n";
  for (const char* f : {"store.s", "store.elf"}) {
    const Outcome o = run(path(f) + " --dump-mem out:8");
    EXPECT_EQ(o.rc, kOk) << f << ": " << o.err;
    EXPECT_EQ(o.out, want) << f;
  }
  // A hex image carries no symbols, so `out` means nothing for it.
  const Outcome nosym = run(path("store.hex") + " --dump-mem out:8");
  EXPECT_EQ(nosym.rc, kBadInput);
  EXPECT_TRUE(has(nosym.err, "'out' is neither a number nor a symbol")) << nosym.err;
  const Outcome h = run(path("store.hex") + " --dump-mem 0x10000:8");
  EXPECT_EQ(h.rc, kOk) << h.err;
  EXPECT_EQ(h.out, want);
}

TEST_F(UmbraSim, BadInputFilesAreNamed) {
  Outcome o = run(path("missing.s"));
  EXPECT_EQ(o.rc, kBadInput);
  EXPECT_TRUE(has(o.err, path("missing.s") + ": error: cannot open")) << o.err;
  o = run(path("missing.elf"));
  EXPECT_EQ(o.rc, kBadInput);
  EXPECT_TRUE(has(o.err, path("missing.elf"))) << o.err;

  const std::string elf = write("corrupt.elf", std::string("\x7f"
                                                           "ELF",
                                                           4) +
                                                   std::string(60, '\x01'));
  o = run(elf);
  EXPECT_EQ(o.rc, kBadInput);
  EXPECT_TRUE(has(o.err, elf + ":")) << o.err;
  EXPECT_EQ(o.out, "");

  const std::string odd = write("odd.bin", "abcdef");  // not whole words
  o = run(odd);
  EXPECT_EQ(o.rc, kBadInput);
  EXPECT_TRUE(has(o.err, odd)) << o.err;

  // A program that does not fit the instruction store.
  const std::string cfg = write("tiny.yaml", "core:\n  imem_words: 2\n");
  const std::string prog = write("three.s", "nop\nnop\nexit\n");
  o = run("--config " + cfg + " " + prog);
  EXPECT_EQ(o.rc, kBadInput);
  EXPECT_TRUE(
      has(o.err, prog + ": text (3 words at 0x00000000) does not fit in the instruction store of 2 words"))
      << o.err;

  o = run("");
  EXPECT_EQ(o.rc, kBadInput);
  EXPECT_TRUE(has(o.err, "no input program")) << o.err;
}

// The cycle models themselves are exercised in umbra_sim_models_test (integration).
TEST_F(UmbraSim, ModelIsAChoice) {
  const std::string prog = write("e.s", "exit\n");
  EXPECT_EQ(run("--model iss " + prog).rc, kOk);
  const Outcome o = run("--model gpu " + prog);
  EXPECT_EQ(o.rc, kBadInput);
  EXPECT_TRUE(has(o.err, "gpu")) << o.err;
  EXPECT_EQ(run("--help").rc, kOk);
}

// --commands on the reference simulator: the kernel runs over the buffer's domain with
// its argument block, the fence lands, and every mistake in the file names the file,
// the line and the command.
const char* kArgKernel = R"(
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
flag:   .word   0
out:    .space  64
)";

TEST_F(UmbraSim, CommandFileRunsTheKernelThroughTheHostApi) {
  const std::string prog = write("k.s", kArgKernel);
  const std::string cmds =
      write("k.yaml", "- program\n- args: scale\n- domain: 5\n- run\n- fence: [flag, 1]\n");
  const Outcome o = run(prog + " --commands " + cmds + " --dump-mem out:24 --dump-mem flag:4");
  ASSERT_EQ(o.rc, kOk) << o.err;
  EXPECT_EQ(o.out,
            "00010008: 00000000 00000007 0000000e 00000015 0000001c 00000000\n"
            "00010004: 00000001\n");
  EXPECT_TRUE(has(o.err, "command buffer " + cmds + " (15 words at ")) << o.err;
}

TEST_F(UmbraSim, CommandFileMistakesNameTheFileAndLine) {
  const std::string prog = write("k.s", kArgKernel);
  struct {
    const char* text;
    const char* says;
  } bad[] = {
      {"- program\n- launch: 4\n", ":2: no command 'launch'"},
      {"- program\n- args: nowhere\n",
       ":2: command `args`, argument `addr`: 'nowhere' is neither a number nor a symbol"},
      {"- domain: [1, 2, 3]\n", ":1: command `domain` takes 2 arguments (w, h), not 3"},
      {"program\n", ":1: expected a list of commands"},
  };
  for (const auto& b : bad) {
    const std::string cmds = write("bad.yaml", b.text);
    const Outcome o = run(prog + " --commands " + cmds);
    EXPECT_EQ(o.rc, kBadInput) << b.text;
    EXPECT_TRUE(has(o.err, "umbra-sim: " + cmds + b.says)) << o.err;
  }
  const Outcome missing = run(prog + " --commands " + path("none.yaml"));
  EXPECT_EQ(missing.rc, kBadInput);
  EXPECT_TRUE(has(missing.err, path("none.yaml") + ": cannot read the command file")) << missing.err;
  const std::string cmds = write("ok.yaml", "- run\n");
  for (const char* opt : {"--threads 2", "--domain 4"}) {
    const Outcome o = run(prog + " --commands " + cmds + " " + opt);
    EXPECT_EQ(o.rc, kBadInput) << opt;
    EXPECT_TRUE(has(o.err, "excludes")) << o.err;
  }
  for (const std::string opt : {"--trace", "--regs"}) {
    const Outcome o = run(prog + " --commands " + cmds + " " + opt + (opt == "--trace" ? " -" : ""));
    EXPECT_EQ(o.rc, kBadInput) << opt;
    EXPECT_TRUE(has(o.err, opt + ": not with --commands")) << o.err;
  }
}

TEST_F(UmbraSim, ACommandFaultExitsAsAFaultNamingTheCommand) {
  const std::string prog = write("k.s", kArgKernel);
  // `run` with no domain set: refused at the `run`, the buffer's second command.
  const std::string cmds = write("k.yaml", "- program\n- run\n");
  const Outcome o = run(prog + " --commands " + cmds);
  EXPECT_EQ(o.rc, kFault) << o.err;
  EXPECT_TRUE(has(
      o.err, "umbra-sim: fault: command processor: `run` with a domain that has a zero side (command at "))
      << o.err;
}

}  // namespace
