// The host API (umbra/device.h): command buffers encoded from the generated table,
// and a device whose memory is a staged image that each run starts from.  A run is
// made from the image's words that differ from what the backend would start with
// anyway (the program's data image, zeros elsewhere), so a run of a small buffer on a
// large memory carries only the words the host wrote or an earlier run left.
#include "umbra/device.h"

#include <algorithm>

#include "umbra/format.h"

namespace umbra::host {

namespace {

const commands::CommandDef& def_of(commands::Opcode op) {
  const commands::CommandDef* d = commands::find(uint32_t(op));
  if (!d) throw DeviceError("opcode " + hex8(uint32_t(op)) + " is not in the command table");
  return *d;
}

uint32_t peek(const std::vector<uint8_t>& m, uint32_t a) {
  return uint32_t(m[a]) | uint32_t(m[a + 1]) << 8 | uint32_t(m[a + 2]) << 16 | uint32_t(m[a + 3]) << 24;
}

void poke(std::vector<uint8_t>& m, uint32_t a, uint32_t v) {
  for (unsigned i = 0; i < 4; ++i) m[a + i] = uint8_t(v >> (8 * i));
}

}  // namespace

CommandBuffer& CommandBuffer::append(commands::Opcode op, const std::vector<uint32_t>& args) {
  const commands::CommandDef& d = def_of(op);
  if (args.size() != d.nargs)
    throw DeviceError(std::string("command `") + d.name + "` takes " + std::to_string(d.nargs) + " argument" +
                      (d.nargs == 1 ? "" : "s") + ", not " + std::to_string(args.size()));
  words_.push_back(uint32_t(op));
  words_.insert(words_.end(), args.begin(), args.end());
  last_ = op;
  return *this;
}

CommandBuffer& CommandBuffer::append(commands::Opcode op, std::initializer_list<uint32_t> args) {
  return append(op, std::vector<uint32_t>(args));
}

using commands::Opcode;
CommandBuffer& CommandBuffer::program(uint32_t src, uint32_t words, uint32_t dest) {
  return append(Opcode::Program, {src, words, dest});
}
CommandBuffer& CommandBuffer::args(uint32_t addr) {
  return append(Opcode::Args, {addr});
}
CommandBuffer& CommandBuffer::domain(uint32_t w, uint32_t h) {
  return append(Opcode::Domain, {w, h});
}
CommandBuffer& CommandBuffer::run(uint32_t entry) {
  return append(Opcode::Run, {entry});
}
CommandBuffer& CommandBuffer::invalidate() {
  return append(Opcode::Invalidate, {});
}
CommandBuffer& CommandBuffer::wait() {
  return append(Opcode::Wait, {});
}
CommandBuffer& CommandBuffer::fence(uint32_t addr, uint32_t value) {
  return append(Opcode::Fence, {addr, value});
}
CommandBuffer& CommandBuffer::counters_reset() {
  return append(Opcode::CountersReset, {});
}
CommandBuffer& CommandBuffer::counters(uint32_t addr) {
  return append(Opcode::Counters, {addr});
}
CommandBuffer& CommandBuffer::end() {
  return append(Opcode::End, {});
}

models::Result ModelBackend::run(const Submission& s, const RunOptions& o) {
  models::Job job;
  job.program = s.program;
  job.source = s.source;
  job.threads = cfg_.threads;
  job.doorbell = s.doorbell;
  job.writes = s.writes;
  job.max_instructions = o.max_instructions;
  job.max_cycles = o.max_cycles;
  job.sink = o.sink;
  job.isolation = o.isolation;
  job.vcd = o.vcd;
  job.fst = o.fst;
  job.repro = o.repro;
  return run_(cfg_, job);
}

Device Device::open(const std::string& model, const Config& cfg, RunOptions options) {
  return Device(std::make_unique<ModelBackend>(models::find(model), cfg), cfg, std::move(options));
}

Device::Device(std::unique_ptr<Backend> backend, const Config& cfg, RunOptions options)
    : backend_(std::move(backend)),
      cfg_(cfg),
      options_(std::move(options)),
      image_(cfg.mem_bytes, 0),
      base_(cfg.mem_bytes, 0) {
  // No program yet: an empty one whose data image is empty (Job needs a program).
  program_.data.clear();
}

uint32_t Device::alloc(uint32_t bytes, uint32_t align) {
  if (align == 0 || (align & (align - 1)))
    throw DeviceError("alloc(" + std::to_string(bytes) + ", " + std::to_string(align) +
                      "): the alignment must be a power of two");
  const uint64_t size = std::max<uint64_t>(bytes, 1);
  uint64_t at = (uint64_t(bump_) + align - 1) & ~uint64_t(align - 1);
  // Past every reserved span it would overlap (they are few: the program's data).
  for (bool moved = true; moved;) {
    moved = false;
    for (const auto& [b, e] : reserved_)
      if (at < e && at + size > b) {
        at = (uint64_t(e) + align - 1) & ~uint64_t(align - 1);
        moved = true;
      }
  }
  if (at + size > image_.size())
    throw DeviceError("alloc(" + std::to_string(bytes) + " bytes, align " + std::to_string(align) +
                      "): does not fit in device memory of " + std::to_string(image_.size()) + " bytes (" +
                      std::to_string(image_.size() - std::min<uint64_t>(image_.size(), bump_)) +
                      " bytes free above " + hex8(bump_) + ")");
  bump_ = uint32_t(at + size);
  return uint32_t(at);
}

void Device::check_span(const char* what, uint32_t addr, uint64_t words) const {
  if (addr % 4)
    throw DeviceError(std::string(what) + " at " + hex8(addr) + ": the address is not a multiple of 4");
  if (uint64_t(addr) + 4 * words > image_.size())
    throw DeviceError(std::string(what) + " of " + std::to_string(words) + " words at " + hex8(addr) +
                      " leaves device memory of " + std::to_string(image_.size()) + " bytes");
}

void Device::write(uint32_t addr, const std::vector<uint32_t>& words) {
  check_span("write", addr, words.size());
  for (size_t i = 0; i < words.size(); ++i) poke(image_, addr + uint32_t(4 * i), words[i]);
}

std::vector<uint32_t> Device::read(uint32_t addr, uint32_t n) const {
  check_span("read", addr, n);
  std::vector<uint32_t> out(n);
  for (uint32_t i = 0; i < n; ++i) out[i] = peek(image_, addr + 4 * i);
  return out;
}

ProgramImage Device::load(const Program& p, const std::string& name) {
  if (loaded_)
    throw DeviceError(name + ": a program is already loaded on this device (" + program_name_ + ")");
  const uint64_t data_end = uint64_t(p.data_base) + p.data.size();
  if (!p.data.empty()) {
    if (data_end > image_.size())
      throw DeviceError(name + ": data (" + std::to_string(p.data.size()) + " bytes at " + hex8(p.data_base) +
                        ") does not fit in device memory of " + std::to_string(image_.size()) + " bytes");
    if (p.data_base < bump_)
      throw DeviceError(name + ": data at " + hex8(p.data_base) +
                        " overlaps memory already allocated (up to " + hex8(bump_) +
                        "); load the program before allocating");
    reserved_.push_back({p.data_base, uint32_t(data_end)});
    std::copy(p.data.begin(), p.data.end(), image_.begin() + p.data_base);
    std::copy(p.data.begin(), p.data.end(), base_.begin() + p.data_base);
  }
  program_ = p;
  program_name_ = name;
  loaded_ = true;
  ProgramImage img;
  img.words = uint32_t(p.text.size());
  img.dest = p.text_base;
  img.entry = p.entry;
  img.src = alloc(uint32_t(4 * p.text.size()), 4);
  write(img.src, p.text);
  return img;
}

void Device::submit(const CommandBuffer& cb) {
  if (pending_) throw DeviceError("submit: the previous buffer was not waited for");
  CommandBuffer b = cb;
  if (!b.ended()) b.end();
  buffer_addr_ = alloc(b.bytes(), 4);
  write(buffer_addr_, b.words());
  pending_ = true;
}

const models::Result& Device::wait() {
  if (!pending_) throw DeviceError("wait: nothing was submitted");
  pending_ = false;
  Submission s;
  s.program = &program_;
  s.source = program_name_;
  s.doorbell.ring = true;
  s.doorbell.addr = buffer_addr_;
  // The image's words that differ from what the run starts with, as contiguous spans.
  for (uint32_t a = 0; a + 4 <= image_.size(); a += 4) {
    const uint32_t v = peek(image_, a);
    if (v == peek(base_, a)) continue;
    if (s.writes.empty() || s.writes.back().first + 4 * s.writes.back().second.size() != a)
      s.writes.push_back({a, {}});
    s.writes.back().second.push_back(v);
  }
  result_ = backend_->run(s, options_);
  if (result_.run.memory.size() == image_.size()) image_ = result_.run.memory;
  return result_;
}

}  // namespace umbra::host
