// The data cache on its own (systemc/dcache.{h,cpp}, docs/memory-system.md "The cache
// pipeline inside the core" and "Fills and the line buffer"): a bench drives its C1
// request, response beats and wake-ups cycle by cycle (calling its tick as umbra_core
// does) and checks its pushes, return buffers and counters.  The cache is a named
// SystemC module, and one process builds one design, so each test runs its bench in
// a forked child and reports the number of failed checks as its exit code.
#include "dcache.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <deque>
#include <functional>
#include <string>
#include <vector>

#include "umbra/isa.h"

namespace umbra::scm {
namespace {

constexpr unsigned kThreads = 8;
constexpr uint32_t kLine = 0x10040;  // a line-aligned address

uint8_t opcode(isa::Op op) {
  return isa::info(op).opcode;
}

// The bench: the cache, its inputs as plain values, its outputs as registers that
// commit after each tick, as the core's wires do.
struct Bench {
  bool rst = false, x2_mem_valid = false, mem_resp_valid = false, wake_valid = false, lsu_flush_valid = false,
       inval_all = false;
  uint32_t x2_mem_op = 0, x2_mem_addr = 0, x2_mem_data = 0, x2_mem_cmp = 0, x2_mem_tag = 0, mem_resp_data = 0,
           mem_resp_tag = 0, wake_thread = 0, lsu_flush_thread = 0;
  PortLine mem_resp_line;
  uint64_t clock = 0;
  WireSet wires{1024};
  port_reg<bool> c2_push_valid{wires};
  port_reg<uint32_t> c2_push_op{wires}, c2_push_addr{wires}, c2_push_data{wires}, c2_push_cmp{wires},
      c2_push_tag{wires};
  std::deque<port_reg<bool>> rb_valid;
  std::deque<port_reg<uint32_t>> rb_data;
  EventOrder events;
  dcache cache;

  // A 1 KiB two-way cache of 32-byte lines, or none (cache_bytes 0: one-word fills).
  static BlockParams params(EventOrder* e, uint32_t cache_bytes) {
    BlockParams p;
    p.threads = kThreads;
    p.cache_bytes = cache_bytes;
    p.cache_ways = cache_bytes ? 2 : 1;
    p.cache_line_bytes = cache_bytes ? 32 : 4;
    p.events = e;
    return p;
  }
  explicit Bench(uint32_t cache_bytes) : cache("dcache", params(&events, cache_bytes)) {
    for (unsigned t = 0; t < kThreads; ++t) {
      rb_valid.emplace_back(wires);
      rb_data.emplace_back(wires);
    }
    cache.rst(rst);
    cache.x2_mem_valid(x2_mem_valid);
    cache.x2_mem_op(x2_mem_op);
    cache.x2_mem_addr(x2_mem_addr);
    cache.x2_mem_data(x2_mem_data);
    cache.x2_mem_cmp(x2_mem_cmp);
    cache.x2_mem_tag(x2_mem_tag);
    cache.mem_resp_valid(mem_resp_valid);
    cache.mem_resp_data(mem_resp_data);
    cache.mem_resp_tag(mem_resp_tag);
    cache.mem_resp_line(mem_resp_line);
    cache.wake_valid(wake_valid);
    cache.wake_thread(wake_thread);
    cache.lsu_flush_valid(lsu_flush_valid);
    cache.inval_all(inval_all);
    cache.lsu_flush_thread(lsu_flush_thread);
    cache.clock(clock);
    cache.c2_push_valid(c2_push_valid);
    cache.c2_push_op(c2_push_op);
    cache.c2_push_addr(c2_push_addr);
    cache.c2_push_data(c2_push_data);
    cache.c2_push_cmp(c2_push_cmp);
    cache.c2_push_tag(c2_push_tag);
    bind_all(cache.rb_valid, rb_valid);
    bind_all(cache.rb_data, rb_data);
  }

  // One cycle with these inputs (they hold from just after one rising edge to the next).
  void cycle() {
    cache.tick();
    wires.commit();
    x2_mem_valid = false;
    mem_resp_valid = false;
    wake_valid = false;
    lsu_flush_valid = false;
  }
  void request(isa::Op op, uint32_t addr, unsigned thread, uint32_t data = 0) {
    x2_mem_valid = true;
    x2_mem_op = opcode(op);
    x2_mem_addr = addr;
    x2_mem_data = data;
    x2_mem_tag = thread;
  }
  void beat(unsigned tag, uint32_t data) {
    mem_resp_valid = true;
    mem_resp_tag = tag;
    mem_resp_data = data;
  }
};

uint32_t word_of(uint32_t addr) {
  return addr * 7 + 1;
}

// Runs `body` on a fresh bench in a child; the child's exit code is its failure count.
void in_child(const std::function<int(Bench&)>& body, uint32_t cache_bytes = 1024) {
  std::fflush(nullptr);
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
    auto* b = new Bench(cache_bytes);  // never destroyed: SystemC keeps pointers into it
    b->rst = true;
    b->cycle();
    b->rst = false;
    const int failures = body(*b);
    std::fflush(nullptr);
    _exit(failures > 100 ? 100 : failures);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status)) << "the bench crashed";
  EXPECT_EQ(WEXITSTATUS(status), 0) << "failed checks in the bench (printed above)";
}

#define CHECK(cond)                                                                 \
  do {                                                                              \
    if (!(cond)) {                                                                  \
      std::fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                                   \
    }                                                                               \
  } while (0)

TEST(Dcache, MissMergeFillHitAndStoreInvalidate) {
  in_child([](Bench& b) {
    int failures = 0;
    // Thread 0 misses on word 1 of the line: C2 (the next cycle) pushes a fill of the
    // whole line, tagged 0.
    b.request(isa::Op::LDW, kLine + 4, 0);
    b.cycle();
    CHECK(b.c2_push_valid.now());
    CHECK(b.c2_push_op.now() == isa::kPortOpFill);
    CHECK(b.c2_push_addr.now() == kLine);
    CHECK(b.c2_push_tag.now() == 0u);
    b.cycle();
    // Thread 1 asks for word 6 of the same line while the fill is in flight: a merge,
    // nothing pushed.
    b.request(isa::Op::LDW, kLine + 24, 1);
    b.cycle();
    CHECK(!b.c2_push_valid.now());
    b.cycle();
    // The fill's eight beats; nobody is answered before the last.
    for (unsigned i = 0; i < 8; ++i) {
      b.beat(0, word_of(kLine + 4 * i));
      b.cycle();
      if (i < 7) CHECK(!b.rb_valid[0].now() && !b.rb_valid[1].now());
    }
    // The completion answers both, each with its own word.
    CHECK(b.rb_valid[0].now() && b.rb_data[0].now() == word_of(kLine + 4));
    CHECK(b.rb_valid[1].now() && b.rb_data[1].now() == word_of(kLine + 24));
    // Thread 2 now hits: no push, its word in its return buffer.
    b.request(isa::Op::LDW, kLine + 8, 2);
    b.cycle();
    CHECK(!b.c2_push_valid.now());
    b.cycle();
    CHECK(b.rb_valid[2].now() && b.rb_data[2].now() == word_of(kLine + 8));
    CHECK(b.cache.line_valid(kLine));
    // A store to the line goes out and invalidates it (write-through, no allocate).
    b.request(isa::Op::STW, kLine + 12, 3, 0xabcd);
    b.cycle();
    CHECK(b.c2_push_valid.now() && b.c2_push_op.now() == opcode(isa::Op::STW));
    CHECK(b.c2_push_addr.now() == kLine + 12 && b.c2_push_data.now() == 0xabcdu);
    b.cycle();
    CHECK(!b.cache.line_valid(kLine));
    // So the next load misses again.
    b.request(isa::Op::LDW, kLine, 4);
    b.cycle();
    CHECK(b.c2_push_valid.now() && b.c2_push_op.now() == isa::kPortOpFill && b.c2_push_tag.now() == 4u);
    b.cycle();  // the outcome is counted at the end of C2
    CHECK(b.cache.misses() == 2 && b.cache.merges() == 1 && b.cache.hits() == 1);
    CHECK(b.cache.protocol_error().empty());
    return failures;
  });
}

TEST(Dcache, AStoreDuringAFillKeepsTheLineInvalid) {
  in_child([](Bench& b) {
    int failures = 0;
    b.request(isa::Op::LDW, kLine, 0);
    b.cycle();
    b.cycle();
    // A store to the line while its fill is in flight marks the fill no-allocate.
    b.request(isa::Op::STW, kLine + 16, 5, 1);
    b.cycle();
    b.cycle();
    // A load after the store must not join the stale fill: it starts its own.
    b.request(isa::Op::LDW, kLine + 16, 6);
    b.cycle();
    CHECK(b.c2_push_valid.now() && b.c2_push_op.now() == isa::kPortOpFill && b.c2_push_tag.now() == 6u);
    b.cycle();
    for (unsigned i = 0; i < 8; ++i) {
      b.beat(0, word_of(kLine + 4 * i));
      b.cycle();
    }
    // Thread 0 is answered (its load came before the store) but the line stays invalid.
    CHECK(b.rb_valid[0].now() && b.rb_data[0].now() == word_of(kLine));
    CHECK(!b.rb_valid[6].now());
    CHECK(!b.cache.line_valid(kLine));
    return failures;
  });
}

TEST(Dcache, DinvAndDinvallDropLines) {
  in_child([](Bench& b) {
    int failures = 0;
    for (uint32_t line : {kLine, kLine + 32}) {
      b.request(isa::Op::LDW, line, 0);
      b.cycle();
      b.cycle();
      for (unsigned i = 0; i < 8; ++i) {
        b.beat(0, word_of(line + 4 * i));
        b.cycle();
      }
      b.wake_valid = true;
      b.wake_thread = 0;
      b.cycle();
    }
    CHECK(b.cache.line_valid(kLine) && b.cache.line_valid(kLine + 32));
    b.request(isa::Op::DINV, kLine + 8, 1);
    b.cycle();
    CHECK(!b.c2_push_valid.now());
    b.cycle();
    CHECK(!b.cache.line_valid(kLine) && b.cache.line_valid(kLine + 32));
    b.request(isa::Op::DINVALL, 0, 1);
    b.cycle();
    b.cycle();
    CHECK(!b.cache.line_valid(kLine + 32));
    return failures;
  });
}

// No cache (cache_bytes 0): every ldw pushes a fill of its own word, even one the
// last load just read; the one beat answers it; stores and dinvall keep nothing.
TEST(Dcache, WithoutACacheEveryLoadIsAOneWordFill) {
  in_child(
      [](Bench& b) {
        int failures = 0;
        for (unsigned round = 0; round < 2; ++round) {
          b.request(isa::Op::LDW, kLine + 12, 3);
          b.cycle();
          CHECK(b.c2_push_valid.now() && b.c2_push_op.now() == isa::kPortOpFill);
          CHECK(b.c2_push_addr.now() == kLine + 12 && b.c2_push_tag.now() == 3u);
          b.cycle();
          // Another thread's load of the same word does not merge: it has its own fill.
          b.request(isa::Op::LDW, kLine + 12, 4);
          b.cycle();
          CHECK(b.c2_push_valid.now() && b.c2_push_tag.now() == 4u);
          b.cycle();
          b.beat(3, 0x1000 + round);
          b.cycle();
          CHECK(b.rb_valid[3].now() && b.rb_data[3].now() == 0x1000u + round);
          CHECK(!b.rb_valid[4].now());
          b.beat(4, 0x2000 + round);
          b.cycle();
          CHECK(b.rb_valid[4].now() && b.rb_data[4].now() == 0x2000u + round);
          CHECK(!b.cache.line_valid(kLine + 12));
          b.wake_valid = true;
          b.wake_thread = 3;
          b.cycle();
          b.wake_valid = true;
          b.wake_thread = 4;
          b.cycle();
          b.request(isa::Op::DINVALL, 0, 5);
          b.cycle();
          CHECK(!b.c2_push_valid.now());
          b.cycle();
        }
        CHECK(b.cache.misses() == 4 && b.cache.hits() == 0 && b.cache.merges() == 0);
        CHECK(b.cache.protocol_error().empty());
        return failures;
      },
      0);
}

}  // namespace
}  // namespace umbra::scm

// libsystemc refers to sc_main; this test drives the kernel itself.
int sc_main(int, char**) {
  return 1;
}
