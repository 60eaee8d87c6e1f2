// verilated_line: a Verilated model's line-wide port (LINE_BYTES * 8 bits: a VlWide of
// 32-bit words, or an integer for a 4- or 8-byte line) as the memory models' PortLine
// and back, for every model the cosimulation steps (umbra_system's memory port, the
// SDRAM controller's DRAM port).  Header-only templates: the port's type is the
// generated model's.
#pragma once
#include <cstddef>
#include <cstdint>

#include "umbra/port_line.h"
#include "verilated.h"

namespace umbra::cosim {

template <std::size_t N>
PortLine port_line(const VlWide<N>& port) {
  PortLine l;
  for (std::size_t i = 0; i < N && i < PortLine::kMaxWords; ++i) l.w[i] = port[i];
  return l;
}
template <class Port>
PortLine port_line(const Port& port) {
  PortLine l;
  l.w[0] = uint32_t(port);
  if (sizeof(Port) > 4) l.w[1] = uint32_t(uint64_t(port) >> 32);
  return l;
}

// Sets the words the port has from `l`; whether any changed (a bench evaluates the
// model again only then).
template <std::size_t N>
bool set_line(VlWide<N>& port, const PortLine& l) {
  bool changed = false;
  for (std::size_t i = 0; i < N && i < PortLine::kMaxWords; ++i) {
    changed |= port[i] != l.w[i];
    port[i] = l.w[i];
  }
  return changed;
}
template <class Port>
bool set_line(Port& port, const PortLine& l) {
  uint64_t v = l.w[0];
  if (sizeof(Port) > 4) v |= uint64_t(l.w[1]) << 32;
  const bool changed = port != Port(v);
  port = Port(v);
  return changed;
}

}  // namespace umbra::cosim
