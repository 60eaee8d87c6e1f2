// SystemcWaveform (systemc_waveform.h).
#include "systemc_waveform.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>

#include "run_result.h"
#include "umbra/commands_gen.h"

namespace umbra::cosim {

namespace {
// The RTL's instance of core c inside umbra_system, as Verilator names its scope.
std::string core_scope(unsigned c) {
  return "g_core[" + std::to_string(c) + "].u_core";
}
}  // namespace

SystemcWaveform::SystemcWaveform(const std::string& path, const scm::umbra_system& sys, unsigned threads,
                                 const umbra::WaveBounds& bounds)
    : WaveFile(path, bounds), path_(path), out_(std::fopen(path.c_str(), "w")) {
  if (!out_) throw umbra::RunError("waveform '" + path + "': cannot open: " + std::strerror(errno));
  unsigned tw = 1;
  while ((1u << tw) < threads) ++tw;
  const std::map<std::string, unsigned> widths = {
      {"d_thread", tw},   {"r_thread", tw},    {"x2_upd_thread", tw}, {"w_thread", tw},
      {"rf_wthread", tw}, {"wake_thread", tw}, {"d_reason", 2},       {"x2_upd_state", 2},
      {"r_ra", 8},        {"r_rb", 8},         {"r_rc", 8},           {"rf_wreg", 8},
      {"w_rd", 8},        {"x2_mem_op", 8},    {"x2_mem_tag", 8},     {"fault_thread", 8},
      {"mem_req_op", 8},  {"mem_req_tag", 8},  {"mem_resp_tag", 8},   {"cmd_fault", commands::kFaultBits}};
  const auto width = [&](const std::string& name) {
    const auto it = widths.find(name);
    return it == widths.end() ? 32u : it->second;
  };
  // Each core's wires, whose values stay where the core keeps them (wire.h), in the
  // scope of the RTL's core instance.
  for (unsigned c = 0; c < sys.cores(); ++c) {
    scope_ = core_scope(c);
    for (const sc_object* o : sys.core(c).get_child_objects()) {
      const std::string base = o->basename();
      if (auto* b = dynamic_cast<const sc_signal<bool>*>(o))
        add(base, 1, [b] { return b->read(); });
      else if (auto* w = dynamic_cast<const sc_signal<uint32_t>*>(o))
        add(base, width(base), [w] { return w->read(); });
      else if (auto* d = dynamic_cast<const sc_signal<uint64_t>*>(o))
        add(base, 64, [d] { return d->read(); });
      else if (auto* i = dynamic_cast<const sc_signal<scm::DecodedInstr>*>(o))
        add("r_word", 32, [i] { return i->read().d.word; });
    }
  }
  scope_.clear();
  // The system's ports: the inputs the bench gave it, the outputs of its last edge.
  const scm::umbra_system::Inputs& in = sys.inputs();
  const auto out = [&sys] { return sys.outputs(); };
  add("clk", 1, [this] { return clk_; });
  add("rst", 1, [&in] { return in.rst; });
  add("host_imem_we", 1, [&in] { return in.host_imem_we; });
  add("launch_valid", 1, [&in] { return in.launch_valid; });
  add("domain_valid", 1, [&in] { return in.domain_valid; });
  add("doorbell_valid", 1, [&in] { return in.doorbell_valid; });
  add("busy", 1, [out] { return out().busy; });
  add("fault", 1, [out] { return out().fault; });
  add("mem_req_valid", 1, [out] { return out().mem_req_valid; });
  add("mem_req_ready", 1, [&in] { return in.mem_req_ready; });
  add("mem_resp_valid", 1, [&in] { return in.mem_resp_valid; });
  add("host_imem_addr", 32, [&in] { return in.host_imem_addr; });
  add("host_imem_data", 32, [&in] { return in.host_imem_data; });
  add("launch_count", 32, [&in] { return in.launch_count; });
  add("launch_entry", 32, [&in] { return in.launch_entry; });
  add("domain_w", 32, [&in] { return in.domain_w; });
  add("domain_h", 32, [&in] { return in.domain_h; });
  add("ncore", 32, [&in] { return in.ncore; });
  add("doorbell_addr", 32, [&in] { return in.doorbell_addr; });
  add("cmd_fault", width("cmd_fault"), [out] { return out().cmd_fault; });
  add("cmd_fault_addr", 32, [out] { return out().cmd_fault_addr; });
  add("fault_thread", width("fault_thread"), [out] { return out().fault_thread; });
  add("fault_pc", 32, [out] { return out().fault_pc; });
  add("mem_req_op", width("mem_req_op"), [out] { return out().mem_req_op; });
  add("mem_req_addr", 32, [out] { return out().mem_req_addr; });
  add("mem_req_data", 32, [out] { return out().mem_req_data; });
  add("mem_req_cmp", 32, [out] { return out().mem_req_cmp; });
  add("mem_req_tag", width("mem_req_tag"), [out] { return out().mem_req_tag; });
  add("mem_resp_data", 32, [&in] { return in.mem_resp_data; });
  add("mem_resp_tag", width("mem_resp_tag"), [&in] { return in.mem_resp_tag; });

  // The header, kept whatever the limit.
  pending_ += "$version umbra-cosim, the SystemC model $end\n$timescale 1 ps $end\n";
  pending_ += "$scope module SystemC $end\n";
  std::string open;  // the core scope the last signal was in
  for (const Signal& s : signals_) {
    if (s.scope != open) {  // scopes nest at each '.'
      if (!open.empty())
        for (size_t i = 0; i <= size_t(std::count(open.begin(), open.end(), '.')); ++i)
          pending_ += "$upscope $end\n";
      for (size_t at = 0; at < s.scope.size();) {
        const size_t dot = std::min(s.scope.find('.', at), s.scope.size());
        pending_ += "$scope module " + s.scope.substr(at, dot - at) + " $end\n";
        at = dot + 1;
      }
      open = s.scope;
    }
    if (s.width == 1)
      pending_ += "$var wire 1 " + s.id + " " + s.name + " $end\n";
    else
      pending_ += "$var wire " + std::to_string(s.width) + " " + s.id + " " + s.name + " [" +
                  std::to_string(s.width - 1) + ":0] $end\n";
  }
  if (!open.empty())
    for (size_t i = 0; i <= size_t(std::count(open.begin(), open.end(), '.')); ++i)
      pending_ += "$upscope $end\n";
  pending_ += "$upscope $end\n$enddefinitions $end\n";
  keep();
}

SystemcWaveform::~SystemcWaveform() {
  if (out_) std::fclose(out_);
}

void SystemcWaveform::close() {
  if (!out_) return;
  pending_.clear();           // nothing after the last cycle kept
  const int earlier = errno;  // a failed fwrite left its errno
  errno = 0;
  const bool flushed = std::fflush(out_) == 0;
  int err = !flushed ? errno : std::ferror(out_) ? (earlier ? earlier : EIO) : 0;
  errno = 0;
  if (std::fclose(out_) != 0 && !err) err = errno ? errno : EIO;
  out_ = nullptr;
  if (!err) return;
  std::error_code ec;
  const bool regular = std::filesystem::is_regular_file(path_, ec) && std::remove(path_.c_str()) == 0;
  throw umbra::RunError("waveform '" + path_ + "': cannot write: " + std::strerror(err) +
                        (regular ? " (the partial file was removed)" : ""));
}

void SystemcWaveform::add(const std::string& name, unsigned width, std::function<uint64_t()> value) {
  // Identifiers: printable ASCII from '!' on, in base 94.
  std::string id;
  for (size_t n = signals_.size();; n = n / 94 - 1) {
    id += char('!' + n % 94);
    if (n < 94) break;
  }
  signals_.push_back({scope_, name, width, std::move(value), id});
}

void SystemcWaveform::keep() {
  if (!pending_.empty() && std::fwrite(pending_.data(), 1, pending_.size(), out_) == pending_.size())
    kept_ += pending_.size();
  pending_.clear();  // a failed write: the stream's error, reported by close()
}

void SystemcWaveform::write_value(const Signal& s, uint64_t v) {
  if (s.width == 1) {
    pending_ += v ? '1' : '0';
    pending_ += s.id;
    pending_ += '\n';
    return;
  }
  char bits[65];
  int n = 0;
  for (int b = int(s.width) - 1; b >= 0; --b)
    if (n || (v >> b & 1) || b == 0) bits[n++] = char('0' + (v >> b & 1));
  bits[n] = 0;
  pending_ += 'b';
  pending_ += bits;
  pending_ += ' ';
  pending_ += s.id;
  pending_ += '\n';
}

void SystemcWaveform::dump(uint64_t t, bool clk) {
  clk_ = clk;
  bool stamped = false;
  for (Signal& s : signals_) {
    uint64_t v = s.value();
    if (s.width < 64) v &= (uint64_t(1) << s.width) - 1;
    if (started_ && v == s.last) continue;
    if (!stamped) {
      pending_ += "#" + std::to_string(t) + (started_ ? "\n" : "\n$dumpvars\n");
      stamped = true;
    }
    write_value(s, v);
    s.last = v;
  }
  if (!started_) pending_ += "$end\n";
  started_ = true;
}

}  // namespace umbra::cosim
