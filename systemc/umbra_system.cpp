// umbra_system (umbra_system.h): the core, the reorder queue and the routing between
// them and the DRAM port, as rtl/umbra_system.v has it.
#include "umbra_system.h"

namespace umbra::scm {

umbra_system::umbra_system(sc_module_name name, const Config& cfg, unsigned core_id)
    : sc_module(name), core_id_(core_id), core_("core", cfg, core_id), queue_("queue", cfg) {
  forward_.core = &core_;
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

  queue_.clk(clk);
  queue_.rst(rst);
  queue_.mem_req_valid(q_req_valid);
  queue_.mem_req_ready(q_req_ready);
  queue_.mem_req_op(c_req_op);
  queue_.mem_req_addr(c_req_addr);
  queue_.mem_req_data(c_req_data);
  queue_.mem_req_cmp(c_req_cmp);
  queue_.mem_req_tag(q_req_tag);
  queue_.mem_resp_valid(q_resp_valid);
  queue_.mem_resp_data(q_resp_data);
  queue_.mem_resp_tag(q_resp_tag);
  queue_.dram_req_valid(q_dram_valid);
  queue_.dram_req_ready(q_dram_ready);
  queue_.dram_req_op(q_dram_op);
  queue_.dram_req_addr(q_dram_addr);
  queue_.dram_req_data(q_dram_data);
  queue_.dram_req_cmp(q_dram_cmp);
  queue_.dram_req_tag(q_dram_tag);
  queue_.dram_resp_valid(mem_resp_valid);
  queue_.dram_resp_data(mem_resp_data);
  queue_.dram_resp_tag(mem_resp_tag);

  SC_METHOD(route);
  sensitive << bypass_queue << c_req_valid << c_req_op << c_req_addr << c_req_data << c_req_cmp << c_req_tag
            << mem_req_ready << mem_resp_valid << mem_resp_data << mem_resp_tag << q_req_ready << q_resp_valid
            << q_resp_data << q_resp_tag << q_dram_valid << q_dram_op << q_dram_addr << q_dram_data
            << q_dram_cmp << q_dram_tag;
  SC_METHOD(drive_busy);
  sensitive << bypass_queue << core_busy << q_dram_valid;
}

void umbra_system::set_event_sink(EventSink* sink) {
  core_.set_event_sink(sink);
  queue_.set_event_sink(sink ? &forward_ : nullptr);
}

void umbra_system::route() {
  const bool bypass = bypass_queue.read();
  const uint32_t wide_tag = (core_id_ & 0xffu) << 8 | (c_req_tag.read() & 0xffu);
  q_req_valid.write(c_req_valid.read() && !bypass);
  q_req_tag.write(wide_tag);
  q_dram_ready.write(mem_req_ready.read() && !bypass);
  c_req_ready.write(bypass ? mem_req_ready.read() : q_req_ready.read());
  c_resp_valid.write(bypass ? mem_resp_valid.read() : q_resp_valid.read());
  c_resp_data.write(bypass ? mem_resp_data.read() : q_resp_data.read());
  c_resp_tag.write((bypass ? mem_resp_tag.read() : q_resp_tag.read()) & 0xffu);
  mem_req_valid.write(bypass ? c_req_valid.read() : q_dram_valid.read());
  mem_req_op.write(bypass ? c_req_op.read() : q_dram_op.read());
  mem_req_addr.write(bypass ? c_req_addr.read() : q_dram_addr.read());
  mem_req_data.write(bypass ? c_req_data.read() : q_dram_data.read());
  mem_req_cmp.write(bypass ? c_req_cmp.read() : q_dram_cmp.read());
  mem_req_tag.write(bypass ? wide_tag : q_dram_tag.read());
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

void umbra_system::drive_busy() {
  busy.write(core_busy.read() || (!bypass_queue.read() && q_dram_valid.read()));
}

}  // namespace umbra::scm
