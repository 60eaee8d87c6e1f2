// The inter-block wires of the SystemC core and the block ports that read and drive
// them, without the SystemC kernel in the cycle.  The blocks of umbra_core (fetch,
// decode, regfile, execute, dcache, load_store_unit, writeback) are not processes of
// their own: the core's one clocked method calls every block's tick() and then
// commits every wire, so a block reads the value its neighbour registered at the end
// of the previous cycle and what it writes is seen from the next one — the semantics
// of an sc_signal written by a method on clk.pos(), at the cost of a copy per wire and
// cycle instead of an update request, an event and a process wake-up per change.
//
// A named wire (`wire<T>`) is an sc_signal<T> object in the core's object tree that the
// kernel never updates: its values live in the WireSet and the core's commit copies
// them, so a waveform that traces the core's signals by name (harness/cosim) still
// finds them and sees their values (through read()), while the cycle pays nothing to
// the kernel.  Nothing may call sc_signal's own write() on one (it would change a value
// nobody reads); the blocks only reach a wire through in<>/out<>.  A
// `port_reg<T>` is the same thing without a name, for the registers behind the core's
// output ports (they appear in waveforms as the ports' signals).
#pragma once
#include <systemc.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace umbra::scm {

// The storage of one clock domain's wires: every wire's current and next value, each
// in one block of memory at the same offset, so that the commit (current = next for
// every wire, once a cycle, after every block has ticked) is one memcpy.  The blocks
// are sized when the core is built and never move: ports and waveforms hold pointers
// into them.
class WireSet {
 public:
  explicit WireSet(size_t bytes) : cur_(words(bytes)), next_(words(bytes)), capacity_(words(bytes) * kWord) {}
  WireSet(const WireSet&) = delete;
  WireSet& operator=(const WireSet&) = delete;

  // A new wire's {current, next}, both value-initialised.
  template <class T>
  std::pair<T*, T*> slot() {
    static_assert(std::is_trivially_copyable_v<T> && alignof(T) <= kWord, "a wire is copied as bytes");
    used_ = (used_ + alignof(T) - 1) / alignof(T) * alignof(T);
    if (used_ + sizeof(T) > capacity_)
      throw std::logic_error("umbra SystemC model: the core's wires need more than the " +
                             std::to_string(capacity_) + " bytes reserved for them");
    T* c = new (bytes(cur_) + used_) T{};
    T* n = new (bytes(next_) + used_) T{};
    used_ += sizeof(T);
    return {c, n};
  }
  void commit() { std::memcpy(bytes(cur_), bytes(next_), used_); }

 private:
  static constexpr size_t kWord = sizeof(uint64_t);
  static size_t words(size_t bytes) { return (bytes + kWord - 1) / kWord; }
  static unsigned char* bytes(std::vector<uint64_t>& v) { return reinterpret_cast<unsigned char*>(v.data()); }
  std::vector<uint64_t> cur_, next_;
  size_t capacity_, used_ = 0;
};

// A named inter-block wire (see above).  Its values live in the WireSet; read() (what
// sc_trace and anyone holding the signal interface call) returns the current one.
template <class T>
class wire final : public sc_core::sc_signal<T> {
 public:
  wire(const char* name, WireSet& set) : sc_core::sc_signal<T>(name) {
    std::tie(cur_, next_) = set.slot<T>();
  }
  const T& read() const override { return *cur_; }
  const T& now() const { return *cur_; }
  T& next() { return *next_; }

 private:
  T* cur_;
  T* next_;
};

// An unnamed register with the same current/next/commit semantics.
template <class T>
class port_reg {
 public:
  explicit port_reg(WireSet& set) { std::tie(cur_, next_) = set.slot<T>(); }
  port_reg(const port_reg&) = delete;
  port_reg& operator=(const port_reg&) = delete;
  const T& now() const { return *cur_; }
  T& next() { return *next_; }

 private:
  T* cur_;
  T* next_;
};

// A block's input: the current value of a wire, of a register, or of a value the core
// samples from one of its input ports at the clock edge.
template <class T>
class in {
 public:
  void operator()(const wire<T>& w) { v_ = &w.now(); }
  void operator()(const port_reg<T>& r) { v_ = &r.now(); }
  void operator()(const T& sampled) { v_ = &sampled; }
  const T& read() const { return *v_; }

 private:
  const T* v_ = nullptr;
};

// A block's output: the next value of a wire or register; unwritten, it holds.
template <class T>
class out {
 public:
  void operator()(wire<T>& w) { v_ = &w.next(); }
  void operator()(port_reg<T>& r) { v_ = &r.next(); }
  void write(const T& v) { *v_ = v; }

 private:
  T* v_ = nullptr;
};

// Per-thread ports (the return buffers), bound element by element.
template <class Port, class Wires>
void bind_all(std::vector<Port>& ports, Wires& wires) {
  for (size_t i = 0; i < ports.size(); ++i) ports[i](wires[i]);
}

// An output port written only when its value changes (`driven` remembers the last
// value written): an unchanged port costs no update request and no event.
template <class T>
void drive(sc_out<T>& port, T& driven, const T& value) {
  if (value == driven) return;
  driven = value;
  port.write(value);
}

// The same for a module that may be stepped without the SystemC kernel (bind_plain):
// then only `driven` is kept and the port, never bound, is left alone.
template <class T>
void drive(bool plain, sc_out<T>& port, T& driven, const T& value) {
  if (plain)
    driven = value;
  else
    drive(port, driven, value);
}

}  // namespace umbra::scm
