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
      dispatcher_(cfg.cores, cfg.dispatch_registered_start),
      cp_(cfg.cores, cfg.cache_line_bytes, cfg.imem_words, cfg.cache_line_port),
      can_start_(cfg.cores, false),
      issued_(cfg.cores, false),
      resp_register_(cfg.mem_response_register),
      resp_q_(cfg.cores),
      req_register_(cfg.mem_request_register),
      req_q_(cfg.cores),
      reg_signal_("reg_signal"),
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
    k.host_imem_we(k_imem_we);
    k.host_imem_addr(k_imem_addr);
    k.host_imem_data(k_imem_data);
    k.launch_valid(launch_valid);
    k.launch_count(launch_count);
    k.launch_entry(k_entry);
    k.launch_lx0(c_lx0[c]);
    k.launch_domw(c_domw);
    k.ncore(ncore);
    k.domain_valid(k_domain_valid);
    k.domain_w(k_domain_w);
    k.domain_h(k_domain_h);
    k.args(k_args);
    k.inval_all(k_inval);
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
            << mem_resp_line << q_req_ready << launch_count << first_signal_ << dispatch_signal_
            << host_imem_we << host_imem_addr << host_imem_data << launch_entry << domain_valid << domain_w
            << domain_h << reg_signal_;
  for (auto& v : c_req_valid) sensitive << v;
  for (auto& v : c_can_start) sensitive << v;
}

// As the cores read their inputs: by reference to the bound signals' current values.
void umbra_system::end_of_elaboration() {
  bypass_ = &bypass_queue.read();
  rst_ = &rst.read();
  mem_req_ready_ = &mem_req_ready.read();
  mem_resp_valid_ = &mem_resp_valid.read();
  mem_resp_data_ = &mem_resp_data.read();
  mem_resp_tag_ = &mem_resp_tag.read();
  mem_resp_line_ = &mem_resp_line.read();
  doorbell_valid_ = &doorbell_valid.read();
  doorbell_addr_ = &doorbell_addr.read();
  domain_valid_ = &domain_valid.read();
  domain_w_ = &domain_w.read();
  domain_h_ = &domain_h.read();
}

void umbra_system::bind_plain() {
  plain_ = true;
  bypass_ = &in_.bypass_queue;
  rst_ = &in_.rst;
  mem_req_ready_ = &in_.mem_req_ready;
  mem_resp_valid_ = &in_.mem_resp_valid;
  mem_resp_data_ = &in_.mem_resp_data;
  mem_resp_tag_ = &in_.mem_resp_tag;
  mem_resp_line_ = &in_.mem_resp_line;
  doorbell_valid_ = &in_.doorbell_valid;
  doorbell_addr_ = &in_.doorbell_addr;
  domain_valid_ = &in_.domain_valid;
  domain_w_ = &in_.domain_w;
  domain_h_ = &in_.domain_h;
  for (unsigned c = 0; c < cores(); ++c) cores_[c].bind_plain(core_in_[c]);
}

const umbra_core::PortValues& umbra_system::offered(unsigned c) const {
  if (!req_register_) return cores_[c].port_values();
  return req_q_[c].entry[0];
}

bool umbra_system::core_ready(unsigned c, const Grant& g, bool down_ready) const {
  if (req_register_) return req_q_[c].count < RequestRegister::kDepth;
  return down_ready && !g.cp && g.core == c;
}

bool umbra_system::req_waiting() const {
  for (const RequestRegister& r : req_q_)
    if (r.count) return true;
  return false;
}

umbra_system::Grant umbra_system::arbitrate(const CommandProcessor::Outputs& cp) const {
  if (cp.req_valid) return Grant{true, true, 0};
  const unsigned c = round_robin(first_, cores(), [this](unsigned i) { return offered(i).mem_req_valid; });
  return c < cores() ? Grant{true, false, c} : Grant{};
}

bool umbra_system::system_busy(bool bypass) const {
  for (const umbra_core& k : cores_)
    if (k.port_values().busy) return true;
  return req_waiting() || dispatcher_.busy() || (!bypass && queue_.holding());
}

CommandProcessor::Outputs umbra_system::command_outputs(bool bypass) const {
  return cp_.outputs(system_busy(bypass), dispatcher_.busy());
}

Dispatcher::Grant umbra_system::dispatch() const {
  return dispatcher_.start(can_start_);
}

unsigned umbra_system::faulting_core() const {
  for (unsigned c = 0; c < cores(); ++c)
    if (cores_[c].port_values().fault) return c;
  return cores();
}

// The core a response's tag names (one core: the high byte carries nothing but the
// command processor's mark), or cores() for none.
namespace {
unsigned response_core(uint32_t tag, unsigned first_id, unsigned cores) {
  const unsigned id = (tag >> 8) & 0xffu;
  if (id == CommandProcessor::kTag >> 8) return cores;
  if (cores == 1) return 0;
  return id >= first_id && id - first_id < cores ? id - first_id : cores;
}
}  // namespace

// The response the port carries this cycle as core c's port would take it: valid when
// its tag names c, the tag cut to the thread's 8 bits.
umbra_system::Response umbra_system::routed_response(unsigned c) const {
  const bool mine = *mem_resp_valid_ && response_core(*mem_resp_tag_, first_id_, cores()) == c;
  return Response{mine, *mem_resp_data_, *mem_resp_tag_ & 0xffu, *mem_resp_line_};
}

// What core c sees this cycle: its register's response, or the routed one itself.
umbra_system::Response umbra_system::core_response(unsigned c) const {
  return resp_register_ ? resp_q_[c] : routed_response(c);
}

// route_responses, onto the cores' plain inputs (and the host's inputs passed through).
void umbra_system::settle() {
  const CommandProcessor::Outputs cp = command_outputs(in_.bypass_queue);
  const Grant g = arbitrate(cp);
  const bool down_ready = in_.bypass_queue ? in_.mem_req_ready : queue_.req_ready();
  const Dispatcher::Grant d = dispatch();
  for (unsigned c = 0; c < cores(); ++c) {
    umbra_core::Inputs& k = core_in_[c];
    k = in_;  // the core's part of the system's inputs, then what the system routes
    k.host_imem_we = in_.host_imem_we || cp.imem_we;
    if (cp.imem_we) {
      k.host_imem_addr = cp.imem_addr;
      k.host_imem_data = cp.imem_data;
    }
    k.domain_valid = in_.domain_valid || cp.domain_valid;
    if (cp.domain_valid) {
      k.domain_w = cp.domain_w;
      k.domain_h = cp.domain_h;
      k.launch_entry = cp.entry;
    }
    k.args = cp.args;
    k.inval_all = cp.inval_all;
    k.mem_req_ready = core_ready(c, g, down_ready);
    const Response r = core_response(c);
    k.mem_resp_valid = r.valid;
    k.mem_resp_data = r.data;
    k.mem_resp_tag = r.tag;
    k.mem_resp_line = r.line;
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
  const CommandProcessor::Outputs cp = command_outputs(bypass_queue.read());
  const Grant g = arbitrate(cp);
  const bool down_ready = bypass_queue.read() ? mem_req_ready.read() : q_req_ready.read();
  const uint32_t count = launch_count.read();
  const Dispatcher::Grant d = dispatch();
  start_lx.write(d.lx);
  start_ly.write(d.ly);
  for (unsigned c = 0; c < cores(); ++c) {
    c_start[c].write(d.valid && d.core == c);
    c_req_ready[c].write(core_ready(c, g, down_ready));
    const Response r = core_response(c);
    c_resp_valid[c].write(r.valid);
    c_resp_data[c].write(r.data);
    c_resp_tag[c].write(r.tag);
    c_resp_line[c].write(r.line);
    c_lx0[c].write(count * c);
  }
  c_domw.write(count * cores());
  k_imem_we.write(host_imem_we.read() || cp.imem_we);
  k_imem_addr.write(cp.imem_we ? cp.imem_addr : host_imem_addr.read());
  k_imem_data.write(cp.imem_we ? cp.imem_data : host_imem_data.read());
  k_domain_valid.write(domain_valid.read() || cp.domain_valid);
  k_domain_w.write(cp.domain_valid ? cp.domain_w : domain_w.read());
  k_domain_h.write(cp.domain_valid ? cp.domain_h : domain_h.read());
  k_entry.write(cp.domain_valid ? cp.entry : launch_entry.read());
  k_args.write(cp.args);
  k_inval.write(cp.inval_all);
}

void umbra_system::tick() {
  const bool bypass = *bypass_;
  // The command processor's view of the cycle that ends (registers only).
  const bool sys_busy = system_busy(bypass), disp_busy = dispatcher_.busy();
  const CommandProcessor::Outputs cp = cp_.outputs(sys_busy, disp_busy);
  const bool cp_was_busy = cp_.busy();
  const uint64_t cycle = queue_cycle_;
  // The queue's edge first: it takes the request the arbiter granted in the cycle that
  // ends, which the cores' edges below replace.
  const Grant g = arbitrate(cp);
  const umbra_core::PortValues& c = offered(g.core);
  const uint32_t wide_tag =
      g.cp ? CommandProcessor::kTag : ((first_id_ + g.core) & 0xffu) << 8 | (c.mem_req_tag & 0xffu);
  bool cp_granted = false;
  if (*rst_) {
    queue_.reset();
    queue_cycle_ = 0;
    first_ = 0;
    for (RequestRegister& r : req_q_) {
      if (r.count) ++reg_changes_;
      r = RequestRegister{};
    }
  } else {
    const bool down_ready = bypass ? *mem_req_ready_ : queue_.req_ready();
    cp_granted = g.cp && down_ready;
    if (g.any && !g.cp && down_ready) first_ = g.core + 1 == cores() ? 0 : g.core + 1;
    const QueueRequest out = queue_.dram_req();
    const QueueRequest in = g.cp ? QueueRequest{cp.req_op, cp.req_addr, cp.req_data, 0, wide_tag, 0, {}}
                                 : QueueRequest{c.mem_req_op, c.mem_req_addr, c.mem_req_data, c.mem_req_cmp,
                                                wide_tag,     c.mem_req_mask, c.mem_req_line};
    const bool sent = queue_.clock(g.any && !bypass, in, *mem_req_ready_ && !bypass);
    // The request registers' edge: the head the arbiter passed on leaves, and each
    // core's request goes in if its register had room (its ready this cycle).
    if (req_register_) {
      for (unsigned k = 0; k < cores(); ++k) {
        RequestRegister& r = req_q_[k];
        const bool pop = r.count && g.any && !g.cp && g.core == k && down_ready;
        const umbra_core::PortValues& req = cores_[k].port_values();
        const bool push = req.mem_req_valid && r.count < RequestRegister::kDepth;
        if (!pop && !push) continue;
        if (pop) {
          r.entry[0] = r.entry[1];
          r.entry[1].mem_req_valid = false;
          --r.count;
        }
        if (push) r.entry[r.count++] = req;
        ++reg_changes_;
      }
    }
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
  const bool launch = *domain_valid_ || cp.domain_valid;
  const bool dispatching = *rst_ || launch || dispatch().valid || dispatcher_.grant(can_start_).valid;
  dispatcher_.clock(*rst_, launch, cp.domain_valid ? cp.domain_w : *domain_w_,
                    cp.domain_valid ? cp.domain_h : *domain_h_, can_start_);
  if (dispatching) ++dispatch_changes_;
  for (umbra_core& k : cores_) k.cycle();
  for (unsigned c = 0; c < cores(); ++c) {
    can_start_[c] = cores_[c].port_values().can_start;
    issued_[c] = cores_[c].issued();
  }
  // The response registers take the cycle's response (the cores' edges above read
  // what they held).
  if (resp_register_) {
    for (unsigned c = 0; c < cores(); ++c) {
      Response& r = resp_q_[c];
      const Response n = routed_response(c);
      if (!n.valid && !r.valid) continue;
      if (n.valid) r = n;  // the fields only with a response, as the RTL's enable
      r.valid = n.valid && !*rst_;
      ++reg_changes_;
    }
  }
  // The command processor's edge: its grant, a response beat, the cores' issues.
  cp_.clock(*rst_, *doorbell_valid_, *doorbell_addr_, sys_busy, disp_busy, cp_granted, *mem_resp_valid_,
            *mem_resp_data_, *mem_resp_tag_, *mem_resp_line_, issued_);
  if (cp_was_busy || cp_.busy() || *doorbell_valid_ || *rst_) ++dispatch_changes_;
  if (cp.started && events_ && !*rst_) {
    Event e;
    e.cycle = cycle;
    e.kind = EventKind::Command;
    e.op = uint8_t(cp.cmd_op);
    e.addr = cp.cmd_addr;
    cores_[0].emit_event(e);
  }

  // The DRAM port: the granted request itself when the queue is bypassed, else the
  // queue's selection.
  const CommandProcessor::Outputs ncp = command_outputs(bypass);
  const Grant a = arbitrate(ncp);
  const umbra_core::PortValues& n = offered(a.core);
  const QueueRequest& q = queue_.dram_req();
  const QueueRequest direct =
      a.cp ? QueueRequest{ncp.req_op, ncp.req_addr, ncp.req_data, 0, CommandProcessor::kTag, 0, {}}
           : QueueRequest{n.mem_req_op,
                          n.mem_req_addr,
                          n.mem_req_data,
                          n.mem_req_cmp,
                          ((first_id_ + a.core) & 0xffu) << 8 | (n.mem_req_tag & 0xffu),
                          n.mem_req_mask,
                          n.mem_req_line};
  Outputs& d = driven_;
  drive(plain_, mem_req_valid, d.mem_req_valid, bypass ? a.any : queue_.dram_valid());
  drive(plain_, mem_req_op, d.mem_req_op, bypass ? direct.op : q.op);
  drive(plain_, mem_req_addr, d.mem_req_addr, bypass ? direct.addr : q.addr);
  drive(plain_, mem_req_data, d.mem_req_data, bypass ? direct.data : q.data);
  drive(plain_, mem_req_cmp, d.mem_req_cmp, bypass ? direct.cmp : q.cmp);
  drive(plain_, mem_req_tag, d.mem_req_tag, bypass ? direct.tag : q.tag);
  drive(plain_, mem_req_mask, d.mem_req_mask, bypass ? direct.mask : q.mask);
  drive(plain_, mem_req_line, d.mem_req_line, bypass ? direct.line : q.line);
  drive(plain_, busy, d.busy, system_busy(bypass) || cp_.busy());
  drive(plain_, cmd_fault, d.cmd_fault, uint32_t(ncp.fault));
  drive(plain_, cmd_fault_addr, d.cmd_fault_addr, ncp.fault == commands::Fault::None ? 0u : ncp.fault_addr);
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
    if (reg_changes_ != reg_signal_.read()) reg_signal_.write(reg_changes_);
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
