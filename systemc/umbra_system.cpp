// umbra_system (umbra_system.h): the core, the reorder queue and the routing between
// them and the DRAM port, as rtl/umbra_system.v has it.
#include "umbra_system.h"

namespace umbra::scm {

umbra_system::umbra_system(sc_module_name name, const Config& cfg, unsigned core_id)
    : sc_module(name),
      q_req_ready("q_req_ready"),
      core_id_(core_id),
      core_("core", cfg, core_id, umbra_core::Clocking::ByParent),
      queue_(QueueParams::from(cfg)) {
  q_req_ready.write(queue_.req_ready());
  core_.clk(clk);
  core_.rst(rst);
  core_.host_imem_we(host_imem_we);
  core_.host_imem_addr(host_imem_addr);
  core_.host_imem_data(host_imem_data);
  core_.launch_valid(launch_valid);
  core_.launch_count(launch_count);
  core_.launch_entry(launch_entry);
  core_.ncore(ncore);
  core_.busy(core_busy);
  core_.fault(fault);
  core_.fault_thread(fault_thread);
  core_.fault_pc(fault_pc);
  core_.mem_req_valid(c_req_valid);
  core_.mem_req_ready(c_req_ready);
  core_.mem_req_op(c_req_op);
  core_.mem_req_addr(c_req_addr);
  core_.mem_req_data(c_req_data);
  core_.mem_req_cmp(c_req_cmp);
  core_.mem_req_tag(c_req_tag);
  core_.mem_resp_valid(c_resp_valid);
  core_.mem_resp_data(c_resp_data);
  core_.mem_resp_tag(c_resp_tag);

  SC_METHOD(tick);
  sensitive << clk.pos();
  dont_initialize();
  SC_METHOD(route_responses);
  sensitive << bypass_queue << mem_req_ready << mem_resp_valid << mem_resp_data << mem_resp_tag
            << q_req_ready;
}

// As the core reads its inputs: by reference to the bound signals' current values.
void umbra_system::end_of_elaboration() {
  bypass_ = &bypass_queue.read();
  rst_ = &rst.read();
  mem_req_ready_ = &mem_req_ready.read();
}

void umbra_system::bind_plain() {
  plain_ = true;
  bypass_ = &in_.bypass_queue;
  rst_ = &in_.rst;
  mem_req_ready_ = &in_.mem_req_ready;
  core_.bind_plain(core_in_);
}

// route_responses, onto the core's plain inputs (and the host's inputs passed through).
void umbra_system::settle() {
  umbra_core::Inputs& c = core_in_;
  c = in_;  // the core's part of the system's inputs, then what the system routes
  c.mem_req_ready = in_.bypass_queue ? in_.mem_req_ready : queue_.req_ready();
  c.mem_resp_tag = in_.mem_resp_tag & 0xffu;
}

umbra_system::Outputs umbra_system::outputs() const {
  Outputs o = core_.port_values();  // fault, fault_thread, fault_pc: the core's own
  const Driven& d = driven_;
  o.busy = d.busy;
  o.mem_req_valid = d.mem_req_valid;
  o.mem_req_op = d.mem_req_op;
  o.mem_req_addr = d.mem_req_addr;
  o.mem_req_data = d.mem_req_data;
  o.mem_req_cmp = d.mem_req_cmp;
  o.mem_req_tag = d.mem_req_tag;
  return o;
}

void umbra_system::set_event_sink(EventSink* sink) {
  core_.set_event_sink(sink);
  events_ = sink != nullptr;
}

// The inputs the core sees in the current cycle.  The queue passes responses straight
// through (its tag is the 16-bit one; the core's is the thread's 8 bits).
void umbra_system::route_responses() {
  c_req_ready.write(bypass_queue.read() ? mem_req_ready.read() : q_req_ready.read());
  c_resp_valid.write(mem_resp_valid.read());
  c_resp_data.write(mem_resp_data.read());
  c_resp_tag.write(mem_resp_tag.read() & 0xffu);
}

void umbra_system::tick() {
  const bool bypass = *bypass_;
  // The queue's edge first: it takes the core's request as the core presented it in
  // the cycle that ends, which the core's edge below replaces.
  const umbra_core::PortValues& c = core_.port_values();
  const uint32_t wide_tag = (core_id_ & 0xffu) << 8 | (c.mem_req_tag & 0xffu);
  if (*rst_) {
    queue_.reset();
    queue_cycle_ = 0;
  } else {
    const QueueRequest out = queue_.dram_req();
    const QueueRequest in{c.mem_req_op, c.mem_req_addr, c.mem_req_data, c.mem_req_cmp, wide_tag & 0xffffu};
    const bool sent = queue_.clock(c.mem_req_valid && !bypass, in, *mem_req_ready_ && !bypass);
    if (sent && events_) {
      Event e;
      e.cycle = queue_cycle_;
      e.kind = EventKind::Dram;
      e.thread = out.tag;
      e.op = uint8_t(out.op);
      e.addr = out.addr;
      e.data = out.data;
      e.cmp = out.cmp;
      core_.emit_event(e);
    }
    ++queue_cycle_;
  }
  core_.cycle();

  // The DRAM port: the core's request itself when the queue is bypassed, else the
  // queue's selection.
  const umbra_core::PortValues& n = core_.port_values();
  const QueueRequest& q = queue_.dram_req();
  drive(plain_, mem_req_valid, driven_.mem_req_valid, bypass ? n.mem_req_valid : queue_.dram_valid());
  drive(plain_, mem_req_op, driven_.mem_req_op, bypass ? n.mem_req_op : q.op);
  drive(plain_, mem_req_addr, driven_.mem_req_addr, bypass ? n.mem_req_addr : q.addr);
  drive(plain_, mem_req_data, driven_.mem_req_data, bypass ? n.mem_req_data : q.data);
  drive(plain_, mem_req_cmp, driven_.mem_req_cmp, bypass ? n.mem_req_cmp : q.cmp);
  drive(plain_, mem_req_tag, driven_.mem_req_tag,
        bypass ? (core_id_ & 0xffu) << 8 | (n.mem_req_tag & 0xffu) : q.tag);
  drive(plain_, busy, driven_.busy, n.busy || (!bypass && queue_.dram_valid()));
  if (!plain_ && queue_.req_ready() != q_req_ready.read()) q_req_ready.write(queue_.req_ready());
}

MemoryStats memory_stats(const MemStats& core, const QueueStats* queue) {
  MemoryStats m;
  m.cache_hits = core.cache_hits;
  m.cache_misses = core.cache_misses;
  m.cache_merges = core.cache_merges;
  m.replays = core.total_replays();
  m.load_count = core.load_latency.count;
  m.load_sum = core.load_latency.sum;
  m.load_max = core.load_latency.max;
  m.load_bucket_width = core.load_latency.bucket_width;
  m.load_buckets = core.load_latency.buckets;
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

}  // namespace umbra::scm
