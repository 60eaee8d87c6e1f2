// The data cache on its own (systemc/dcache.{h,cpp}, docs/memory-system.md "The cache
// pipeline inside the core" and "Fills and the line buffer"): a bench drives its C1
// request, response beats and wake-ups cycle by cycle and checks its pushes, return
// buffers and counters.  SystemC elaborates one design per process, so each test runs
// its bench in a forked child and reports the number of failed checks as its exit code.
#include "dcache.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
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

// The bench: the cache, its input signals, and a recorder of its outputs per cycle.
struct Bench {
  sc_clock clk{"clk", 1, SC_NS};
  sc_signal<bool> rst{"rst"}, x2_mem_valid{"x2_mem_valid"}, mem_resp_valid{"mem_resp_valid"},
      wake_valid{"wake_valid"}, lsu_flush_valid{"lsu_flush_valid"}, c2_push_valid{"c2_push_valid"};
  sc_signal<uint32_t> x2_mem_op{"x2_mem_op"}, x2_mem_addr{"x2_mem_addr"}, x2_mem_data{"x2_mem_data"},
      x2_mem_cmp{"x2_mem_cmp"}, x2_mem_tag{"x2_mem_tag"}, mem_resp_data{"mem_resp_data"},
      mem_resp_tag{"mem_resp_tag"}, wake_thread{"wake_thread"}, lsu_flush_thread{"lsu_flush_thread"},
      c2_push_op{"c2_push_op"}, c2_push_addr{"c2_push_addr"}, c2_push_data{"c2_push_data"},
      c2_push_cmp{"c2_push_cmp"}, c2_push_tag{"c2_push_tag"};
  sc_signal<uint64_t> clock{"clock"};
  sc_vector<sc_signal<bool>> rb_valid{"rb_valid", kThreads};
  sc_vector<sc_signal<uint32_t>> rb_data{"rb_data", kThreads};
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
    cache.clk(clk);
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
    cache.wake_valid(wake_valid);
    cache.wake_thread(wake_thread);
    cache.lsu_flush_valid(lsu_flush_valid);
    cache.lsu_flush_thread(lsu_flush_thread);
    cache.clock(clock);
    cache.c2_push_valid(c2_push_valid);
    cache.c2_push_op(c2_push_op);
    cache.c2_push_addr(c2_push_addr);
    cache.c2_push_data(c2_push_data);
    cache.c2_push_cmp(c2_push_cmp);
    cache.c2_push_tag(c2_push_tag);
    cache.rb_valid(rb_valid);
    cache.rb_data(rb_data);
  }

  // One cycle with these inputs (they hold from just after one rising edge to the next).
  void cycle() {
    sc_start(1, SC_NS);
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
    sc_start(SC_ZERO_TIME);
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
    CHECK(b.c2_push_valid.read());
    CHECK(b.c2_push_op.read() == isa::kPortOpFill);
    CHECK(b.c2_push_addr.read() == kLine);
    CHECK(b.c2_push_tag.read() == 0u);
    b.cycle();
    // Thread 1 asks for word 6 of the same line while the fill is in flight: a merge,
    // nothing pushed.
    b.request(isa::Op::LDW, kLine + 24, 1);
    b.cycle();
    CHECK(!b.c2_push_valid.read());
    b.cycle();
    // The fill's eight beats; nobody is answered before the last.
    for (unsigned i = 0; i < 8; ++i) {
      b.beat(0, word_of(kLine + 4 * i));
      b.cycle();
      if (i < 7) CHECK(!b.rb_valid[0].read() && !b.rb_valid[1].read());
    }
    // The completion answers both, each with its own word.
    CHECK(b.rb_valid[0].read() && b.rb_data[0].read() == word_of(kLine + 4));
    CHECK(b.rb_valid[1].read() && b.rb_data[1].read() == word_of(kLine + 24));
    // Thread 2 now hits: no push, its word in its return buffer.
    b.request(isa::Op::LDW, kLine + 8, 2);
    b.cycle();
    CHECK(!b.c2_push_valid.read());
    b.cycle();
    CHECK(b.rb_valid[2].read() && b.rb_data[2].read() == word_of(kLine + 8));
    CHECK(b.cache.line_valid(kLine));
    // A store to the line goes out and invalidates it (write-through, no allocate).
    b.request(isa::Op::STW, kLine + 12, 3, 0xabcd);
    b.cycle();
    CHECK(b.c2_push_valid.read() && b.c2_push_op.read() == opcode(isa::Op::STW));
    CHECK(b.c2_push_addr.read() == kLine + 12 && b.c2_push_data.read() == 0xabcdu);
    b.cycle();
    CHECK(!b.cache.line_valid(kLine));
    // So the next load misses again.
    b.request(isa::Op::LDW, kLine, 4);
    b.cycle();
    CHECK(b.c2_push_valid.read() && b.c2_push_op.read() == isa::kPortOpFill && b.c2_push_tag.read() == 4u);
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
    CHECK(b.c2_push_valid.read() && b.c2_push_op.read() == isa::kPortOpFill && b.c2_push_tag.read() == 6u);
    b.cycle();
    for (unsigned i = 0; i < 8; ++i) {
      b.beat(0, word_of(kLine + 4 * i));
      b.cycle();
    }
    // Thread 0 is answered (its load came before the store) but the line stays invalid.
    CHECK(b.rb_valid[0].read() && b.rb_data[0].read() == word_of(kLine));
    CHECK(!b.rb_valid[6].read());
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
    CHECK(!b.c2_push_valid.read());
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
          CHECK(b.c2_push_valid.read() && b.c2_push_op.read() == isa::kPortOpFill);
          CHECK(b.c2_push_addr.read() == kLine + 12 && b.c2_push_tag.read() == 3u);
          b.cycle();
          // Another thread's load of the same word does not merge: it has its own fill.
          b.request(isa::Op::LDW, kLine + 12, 4);
          b.cycle();
          CHECK(b.c2_push_valid.read() && b.c2_push_tag.read() == 4u);
          b.cycle();
          b.beat(3, 0x1000 + round);
          b.cycle();
          CHECK(b.rb_valid[3].read() && b.rb_data[3].read() == 0x1000u + round);
          CHECK(!b.rb_valid[4].read());
          b.beat(4, 0x2000 + round);
          b.cycle();
          CHECK(b.rb_valid[4].read() && b.rb_data[4].read() == 0x2000u + round);
          CHECK(!b.cache.line_valid(kLine + 12));
          b.wake_valid = true;
          b.wake_thread = 3;
          b.cycle();
          b.wake_valid = true;
          b.wake_thread = 4;
          b.cycle();
          b.request(isa::Op::DINVALL, 0, 5);
          b.cycle();
          CHECK(!b.c2_push_valid.read());
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
