// umbra_system (umbra_system.h): the cores, the arbiter, the reorder queue and the
// routing between them and the DRAM port, as rtl/umbra_system.v has it.
#include "umbra_system.h"

#include "round_robin.h"

namespace umbra::scm {

umbra_system::umbra_system(sc_module_name name, const Config& cfg, unsigned first_core_id)
    : sc_module(name),
      c_req_valid("c_req_valid", cfg.cores),
      c_req_ready("c_req_ready", cfg.cores),
      c_resp_valid("c_resp_valid", cfg.cores),
      c_busy("c_busy", cfg.cores),
      c_fault("c_fault", cfg.cores),
      c_can_start("c_can_start", cfg.cores),
      c_start("c_start", cfg.cores),
      c_req_op("c_req_op", cfg.cores),
      c_req_addr("c_req_addr", cfg.cores),
      c_req_data("c_req_data", cfg.cores),
      c_req_cmp("c_req_cmp", cfg.cores),
      c_req_tag("c_req_tag", cfg.cores),
      c_resp_data("c_resp_data", cfg.cores),
      c_resp_tag("c_resp_tag", cfg.cores),
      c_fault_thread("c_fault_thread", cfg.cores),
      c_fault_pc("c_fault_pc", cfg.cores),
      c_lx0("c_lx0", cfg.cores),
      c_req_mask("c_req_mask", cfg.cores),
      c_req_line("c_req_line", cfg.cores),
      c_resp_line("c_resp_line", cfg.cores),
      q_req_ready("q_req_ready"),
      first_signal_("first_signal"),
      first_id_(first_core_id),
      cores_("core"),
      queue_(QueueParams::from(cfg)),
      dispatcher_(cfg.cores),
      can_start_(cfg.cores, false),
      core_in_(cfg.cores) {
  if (cfg.cores < 1 || cfg.cores > uarch::kMaxCores)
    throw CoreConfigError("cores = " + std::to_string(cfg.cores) + ": a system has 1.." +
                          std::to_string(uarch::kMaxCores));
  cores_.init(cfg.cores, [&](const char* n, size_t c) {
    return new umbra_core(n, cfg, first_core_id + unsigned(c), umbra_core::Clocking::ByParent, true);
  });
  q_req_ready.write(queue_.req_ready());
  for (unsigned c = 0; c < cores(); ++c) {
    umbra_core& k = cores_[c];
    k.clk(clk);
    k.rst(rst);
    k.host_imem_we(host_imem_we);
    k.host_imem_addr(host_imem_addr);
    k.host_imem_data(host_imem_data);
    k.launch_valid(launch_valid);
    k.launch_count(launch_count);
    k.launch_entry(launch_entry);
    k.launch_lx0(c_lx0[c]);
    k.launch_domw(c_domw);
    k.ncore(ncore);
    k.domain_valid(domain_valid);
    k.domain_w(domain_w);
    k.domain_h(domain_h);
    k.start_valid(c_start[c]);
    k.start_lx(start_lx);
    k.start_ly(start_ly);
    k.can_start(c_can_start[c]);
    k.busy(c_busy[c]);
    k.fault(c_fault[c]);
    k.fault_thread(c_fault_thread[c]);
    k.fault_pc(c_fault_pc[c]);
    k.mem_req_valid(c_req_valid[c]);
    k.mem_req_ready(c_req_ready[c]);
    k.mem_req_op(c_req_op[c]);
    k.mem_req_addr(c_req_addr[c]);
    k.mem_req_data(c_req_data[c]);
    k.mem_req_cmp(c_req_cmp[c]);
    k.mem_req_tag(c_req_tag[c]);
    k.mem_resp_valid(c_resp_valid[c]);
    k.mem_resp_data(c_resp_data[c]);
    k.mem_resp_tag(c_resp_tag[c]);
    k.mem_req_mask(c_req_mask[c]);
    k.mem_req_line(c_req_line[c]);
    k.mem_resp_line(c_resp_line[c]);
  }

  SC_METHOD(tick);
  sensitive << clk.pos();
  dont_initialize();
  SC_METHOD(route_responses);
  sensitive << bypass_queue << mem_req_ready << mem_resp_valid << mem_resp_data << mem_resp_tag
            << mem_resp_line << q_req_ready << launch_count << first_signal_ << dispatch_signal_;
  for (auto& v : c_req_valid) sensitive << v;
  for (auto& v : c_can_start) sensitive << v;
}

// As the cores read their inputs: by reference to the bound signals' current values.
void umbra_system::end_of_elaboration() {
  bypass_ = &bypass_queue.read();
  rst_ = &rst.read();
  mem_req_ready_ = &mem_req_ready.read();
  domain_valid_ = &domain_valid.read();
  domain_w_ = &domain_w.read();
  domain_h_ = &domain_h.read();
}

void umbra_system::bind_plain() {
  plain_ = true;
  bypass_ = &in_.bypass_queue;
  rst_ = &in_.rst;
  mem_req_ready_ = &in_.mem_req_ready;
  domain_valid_ = &in_.domain_valid;
  domain_w_ = &in_.domain_w;
  domain_h_ = &in_.domain_h;
  for (unsigned c = 0; c < cores(); ++c) cores_[c].bind_plain(core_in_[c]);
}

umbra_system::Grant umbra_system::arbitrate() const {
  const unsigned c =
      round_robin(first_, cores(), [this](unsigned i) { return cores_[i].port_values().mem_req_valid; });
  return c < cores() ? Grant{true, c} : Grant{};
}

Dispatcher::Grant umbra_system::dispatch() const {
  return dispatcher_.grant(can_start_);
}

unsigned umbra_system::faulting_core() const {
  for (unsigned c = 0; c < cores(); ++c)
    if (cores_[c].port_values().fault) return c;
  return cores();
}

// The core a response's tag names (one core: the high byte carries nothing), or
// cores() for none.
namespace {
unsigned response_core(uint32_t tag, unsigned first_id, unsigned cores) {
  if (cores == 1) return 0;
  const unsigned id = (tag >> 8) & 0xffu;
  return id >= first_id && id - first_id < cores ? id - first_id : cores;
}
}  // namespace

// route_responses, onto the cores' plain inputs (and the host's inputs passed through).
void umbra_system::settle() {
  const Grant g = arbitrate();
  const bool down_ready = in_.bypass_queue ? in_.mem_req_ready : queue_.req_ready();
  const unsigned to = response_core(in_.mem_resp_tag, first_id_, cores());
  const Dispatcher::Grant d = dispatch();
  for (unsigned c = 0; c < cores(); ++c) {
    umbra_core::Inputs& k = core_in_[c];
    k = in_;  // the core's part of the system's inputs, then what the system routes
    k.mem_req_ready = down_ready && g.core == c;
    k.mem_resp_valid = in_.mem_resp_valid && to == c;
    k.mem_resp_tag = in_.mem_resp_tag & 0xffu;
    k.launch_lx0 = in_.launch_count * c;
    k.launch_domw = in_.launch_count * cores();
    k.start_valid = d.valid && d.core == c;
    k.start_lx = d.lx;
    k.start_ly = d.ly;
  }
}

umbra_system::Outputs umbra_system::outputs() const {
  return driven_;
}

void umbra_system::set_event_sink(EventSink* sink) {
  for (umbra_core& k : cores_) k.set_event_sink(sink);
  events_ = sink != nullptr;
}

void umbra_system::flush_events() {
  for (umbra_core& k : cores_) k.flush_events();
}

// The inputs the cores see in the current cycle.  The queue passes responses straight
// through (its tag is the 16-bit one; a core's is the thread's 8 bits).
void umbra_system::route_responses() {
  const Grant g = arbitrate();
  const bool down_ready = bypass_queue.read() ? mem_req_ready.read() : q_req_ready.read();
  const unsigned to = response_core(mem_resp_tag.read(), first_id_, cores());
  const uint32_t count = launch_count.read();
  const Dispatcher::Grant d = dispatch();
  start_lx.write(d.lx);
  start_ly.write(d.ly);
  for (unsigned c = 0; c < cores(); ++c) {
    c_start[c].write(d.valid && d.core == c);
    c_req_ready[c].write(down_ready && g.core == c);
    c_resp_valid[c].write(mem_resp_valid.read() && to == c);
    c_resp_data[c].write(mem_resp_data.read());
    c_resp_tag[c].write(mem_resp_tag.read() & 0xffu);
    c_resp_line[c].write(mem_resp_line.read());
    c_lx0[c].write(count * c);
  }
  c_domw.write(count * cores());
}

void umbra_system::tick() {
  const bool bypass = *bypass_;
  // The queue's edge first: it takes the request the arbiter granted in the cycle that
  // ends, which the cores' edges below replace.
  const Grant g = arbitrate();
  const umbra_core::PortValues& c = cores_[g.core].port_values();
  const uint32_t wide_tag = ((first_id_ + g.core) & 0xffu) << 8 | (c.mem_req_tag & 0xffu);
  if (*rst_) {
    queue_.reset();
    queue_cycle_ = 0;
    first_ = 0;
  } else {
    const bool down_ready = bypass ? *mem_req_ready_ : queue_.req_ready();
    if (g.any && down_ready) first_ = g.core + 1 == cores() ? 0 : g.core + 1;
    const QueueRequest out = queue_.dram_req();
    const QueueRequest in{c.mem_req_op, c.mem_req_addr, c.mem_req_data, c.mem_req_cmp,
                          wide_tag,     c.mem_req_mask, c.mem_req_line};
    const bool sent = queue_.clock(g.any && !bypass, in, *mem_req_ready_ && !bypass);
    if (sent && events_) {
      Event e;
      e.cycle = queue_cycle_;
      e.kind = EventKind::Dram;
      e.thread = out.tag;
      e.op = uint8_t(out.op);
      e.addr = out.addr;
      e.data = out.data;
      e.cmp = out.cmp;
      if (out.op == isa::kPortOpWline) {  // as the mem event shows it
        e.data = out.mask;
        e.cmp = out.line.fold(queue_.params().line_bytes / 4, out.mask);
      }
      cores_[0].emit_event(e);
    }
    ++queue_cycle_;
  }
  // The dispatcher's edge, with the cores' thread states of the cycle that ends.
  const bool dispatching = *rst_ || *domain_valid_ || dispatch().valid;
  dispatcher_.clock(*rst_, *domain_valid_, *domain_w_, *domain_h_, can_start_);
  if (dispatching) ++dispatch_changes_;
  for (umbra_core& k : cores_) k.cycle();
  for (unsigned c = 0; c < cores(); ++c) can_start_[c] = cores_[c].port_values().can_start;

  // The DRAM port: the granted core's request itself when the queue is bypassed, else
  // the queue's selection.
  const Grant a = arbitrate();
  const umbra_core::PortValues& n = cores_[a.core].port_values();
  const QueueRequest& q = queue_.dram_req();
  Outputs& d = driven_;
  drive(plain_, mem_req_valid, d.mem_req_valid, bypass ? a.any : queue_.dram_valid());
  drive(plain_, mem_req_op, d.mem_req_op, bypass ? n.mem_req_op : q.op);
  drive(plain_, mem_req_addr, d.mem_req_addr, bypass ? n.mem_req_addr : q.addr);
  drive(plain_, mem_req_data, d.mem_req_data, bypass ? n.mem_req_data : q.data);
  drive(plain_, mem_req_cmp, d.mem_req_cmp, bypass ? n.mem_req_cmp : q.cmp);
  drive(plain_, mem_req_tag, d.mem_req_tag,
        bypass ? ((first_id_ + a.core) & 0xffu) << 8 | (n.mem_req_tag & 0xffu) : q.tag);
  drive(plain_, mem_req_mask, d.mem_req_mask, bypass ? n.mem_req_mask : q.mask);
  drive(plain_, mem_req_line, d.mem_req_line, bypass ? n.mem_req_line : q.line);
  bool any_busy = false;
  for (const umbra_core& k : cores_) any_busy |= k.port_values().busy;
  drive(plain_, busy, d.busy, any_busy || dispatcher_.busy() || (!bypass && queue_.dram_valid()));
  const unsigned f = faulting_core();
  const umbra_core::PortValues none{};
  const umbra_core::PortValues& fv = f < cores() ? cores_[f].port_values() : none;
  drive(plain_, fault, d.fault, fv.fault);
  drive(plain_, fault_core, d.fault_core, f < cores() ? f : 0u);
  drive(plain_, fault_thread, d.fault_thread, fv.fault_thread);
  drive(plain_, fault_pc, d.fault_pc, fv.fault_pc);
  if (!plain_) {
    if (queue_.req_ready() != q_req_ready.read()) q_req_ready.write(queue_.req_ready());
    if (first_ != first_signal_.read()) first_signal_.write(first_);
    if (dispatch_changes_ != dispatch_signal_.read()) dispatch_signal_.write(dispatch_changes_);
  }
}

MemoryStats memory_stats(const std::vector<MemStats>& cores, const QueueStats* queue) {
  MemoryStats m;
  for (const MemStats& core : cores) {
    m.cache_hits += core.cache_hits;
    m.cache_misses += core.cache_misses;
    m.cache_merges += core.cache_merges;
    m.replays += core.total_replays();
    m.load_count += core.load_latency.count;
    m.load_sum += core.load_latency.sum;
    m.load_max = std::max(m.load_max, core.load_latency.max);
    m.load_bucket_width = core.load_latency.bucket_width;
    if (m.load_buckets.size() < core.load_latency.buckets.size())
      m.load_buckets.resize(core.load_latency.buckets.size());
    for (size_t i = 0; i < core.load_latency.buckets.size(); ++i)
      m.load_buckets[i] += core.load_latency.buckets[i];
  }
  if (queue) {
    m.queue = true;
    m.queue_cycles = queue->cycles;
    m.queue_occupancy_sum = queue->occupancy_sum;
    m.queue_occupancy_max = queue->occupancy_max;
    m.queue_sent = queue->sent;
    m.queue_passed_over = queue->passed_over;
    m.queue_longest_wait = queue->longest_wait;
  }
  return m;
}

MemoryStats memory_stats(const umbra_system& sys, bool queue) {
  std::vector<MemStats> cores;
  for (unsigned c = 0; c < sys.cores(); ++c) cores.push_back(sys.core(c).mem_stats());
  return memory_stats(cores, queue ? &sys.queue_stats() : nullptr);
}

}  // namespace umbra::scm
