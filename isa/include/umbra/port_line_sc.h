// PortLine (port_line.h) as a SystemC signal's value: the sc_trace overload that
// sc_signal<PortLine> needs.  A waveform shows the line's first word; the line's whole
// content is in the memory and the port's events.  For SystemC code only (the ISA
// library itself does not link SystemC).
#pragma once
#include <systemc.h>

#include <string>

#include "umbra/port_line.h"

namespace umbra {

inline void sc_trace(sc_core::sc_trace_file* tf, const PortLine& v, const std::string& name) {
  sc_core::sc_trace(tf, v.w[0], name);
}

}  // namespace umbra
