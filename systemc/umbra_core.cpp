// umbra_core top (umbra_core.h): configuration checks and the wiring.
#include "umbra_core.h"

#include <cstdio>

namespace umbra::scm {

BlockParams umbra_core::checked(const Config& cfg, unsigned core_id, bool dispatch, EventOrder* events) {
  if (cfg.execute_stages < uarch::kMinExecuteStages || cfg.execute_stages > uarch::kMaxExecuteStages)
    throw CoreConfigError("umbra_core: " + std::to_string(cfg.execute_stages) +
                          " execute stages is outside " + std::to_string(uarch::kMinExecuteStages) + ".." +
                          std::to_string(uarch::kMaxExecuteStages) + " (isa/uarch.yaml)");
  if (cfg.threads < cfg.pipeline_depth())
    throw CoreConfigError(
        "umbra_core: " + std::to_string(cfg.threads) + " threads is below the pipeline depth " +
        std::to_string(cfg.pipeline_depth()) + " (" + std::to_string(cfg.execute_stages) +
        " execute stages): a thread's next instruction would meet its previous one in flight, "
        "and the core has no forwarding or interlock (docs/microarchitecture.md)");
  // The limits are isa/uarch.yaml's, shared with the loader and the RTL.
  if (cfg.threads > uarch::kMaxThreads)
    throw CoreConfigError("umbra_core: " + std::to_string(cfg.threads) +
                          " threads do not fit the 8-bit memory tag (at most " +
                          std::to_string(uarch::kMaxThreads) + ")");
  if (cfg.registers < uarch::kMinRegisters || cfg.registers > uarch::kMaxRegisters)
    throw CoreConfigError("umbra_core: " + std::to_string(cfg.registers) +
                          " registers per thread is outside " + std::to_string(uarch::kMinRegisters) + ".." +
                          std::to_string(uarch::kMaxRegisters));
  if (cfg.imem_words < 1 || cfg.imem_words > uarch::kMaxImemWords)
    throw CoreConfigError("umbra_core: an instruction store of " + std::to_string(cfg.imem_words) +
                          " words is outside 1.." + std::to_string(uarch::kMaxImemWords));
  auto pow2 = [](uint64_t v) { return v && !(v & (v - 1)); };
  // cache_bytes 0: no cache, and one-word fills (Config's loader sets ways 1, line 4).
  const bool no_cache = cfg.cache_bytes == 0;
  if (no_cache ? (cfg.cache_ways != 1 || cfg.cache_line_bytes != 4)
               : (!pow2(cfg.cache_bytes) || !pow2(cfg.cache_ways) || !pow2(cfg.cache_line_bytes)))
    throw CoreConfigError("umbra_core: cache size " + std::to_string(cfg.cache_bytes) + ", ways " +
                          std::to_string(cfg.cache_ways) + " and line size " +
                          std::to_string(cfg.cache_line_bytes) +
                          " must be powers of two, or 0, 1 and 4 for no cache");
  if (!no_cache &&
      (cfg.cache_line_bytes < 8 || cfg.cache_bytes < uint64_t(cfg.cache_ways) * cfg.cache_line_bytes))
    throw CoreConfigError("umbra_core: a cache line of " + std::to_string(cfg.cache_line_bytes) +
                          " bytes (at least 8) times " + std::to_string(cfg.cache_ways) +
                          " ways must fit in the cache of " + std::to_string(cfg.cache_bytes) + " bytes");
  if (cfg.cache_request_queue < 4)
    throw CoreConfigError(
        "umbra_core: a request queue of " + std::to_string(cfg.cache_request_queue) +
        " is below 4: a pushing instruction needs three places besides the two ahead of it");
  if (cfg.cache_line_port && (no_cache || cfg.cache_line_bytes > 4 * PortLine::kMaxWords))
    throw CoreConfigError("umbra_core: the line port needs a data cache with lines of at most " +
                          std::to_string(4 * PortLine::kMaxWords) + " bytes");
  BlockParams p;
  p.threads = cfg.threads;
  p.cache_line_port = cfg.cache_line_port;
  p.execute_stages = cfg.execute_stages;
  p.cache_bytes = cfg.cache_bytes;
  p.cache_ways = cfg.cache_ways;
  p.cache_line_bytes = cfg.cache_line_bytes;
  p.cache_request_queue = cfg.cache_request_queue;
  p.registers = cfg.registers;
  p.groups = cfg.groups;
  p.imem_words = cfg.imem_words;
  p.core_id = core_id;
  p.dispatch = dispatch;
  p.events = events;
  return p;
}

umbra_core::umbra_core(sc_module_name name, const Config& cfg, unsigned core_id, Clocking clocking,
                       bool dispatch)
    : sc_module(name),
      cfg_(cfg),
      p_(checked(cfg, core_id, dispatch, &events_)),
      rb_valid("rb_valid"),
      rb_data("rb_data"),
      fetch_("fetch", p_),
      decode_("decode", p_),
      regfile_("regfile", p_),
      execute_("execute", p_),
      dcache_("dcache", p_),
      lsu_("load_store_unit", p_),
      writeback_("writeback", p_) {
  events_.set_core(uint8_t(core_id));
  rb_valid.init(cfg.threads, [this](const char* n, size_t) { return new wire<bool>(n, wires_); });
  rb_data.init(cfg.threads, [this](const char* n, size_t) { return new wire<uint32_t>(n, wires_); });
  fetch& f = fetch_;
  f.x2_upd_valid(x2_upd_valid);
  f.x2_upd_thread(x2_upd_thread);
  f.x2_upd_pc(x2_upd_pc);
  f.x2_upd_state(x2_upd_state);
  f.wake_valid(wake_valid);
  f.wake_thread(wake_thread);
  f.lsu_busy(lsu_busy);
  f.d_valid(d_valid);
  f.d_thread(d_thread);
  f.d_pc(d_pc);
  f.d_word(d_word);
  f.d_reason(d_reason);
  f.clock(clock);
  f.domw(domw);
  f.lx0(lx0);
  f.domh(domh);
  f.items(items);
  f.item_we(item_we);
  f.item_thread(item_thread);
  f.item_lx(item_lx);
  f.item_ly(item_ly);
  f.f_busy(f_busy);

  decode& d = decode_;
  d.d_valid(d_valid);
  d.d_thread(d_thread);
  d.d_pc(d_pc);
  d.d_word(d_word);
  d.d_reason(d_reason);
  d.r_valid(r_valid);
  d.r_sleep(r_sleep);
  d.r_thread(r_thread);
  d.r_pc(r_pc);
  d.r_illegal(r_illegal);
  d.r_flush(r_flush);
  d.r_inst(r_inst);
  d.r_ra(r_ra);
  d.r_rb(r_rb);
  d.r_rc(r_rc);

  regfile& rf = regfile_;
  rf.r_thread(r_thread);
  rf.r_ra(r_ra);
  rf.r_rb(r_rb);
  rf.r_rc(r_rc);
  rf.rf_we(rf_we);
  rf.rf_wthread(rf_wthread);
  rf.rf_wreg(rf_wreg);
  rf.rf_wdata(rf_wdata);
  rf.rf_a(rf_a);
  rf.rf_b(rf_b);
  rf.rf_c(rf_c);

  execute& x = execute_;
  x.r_valid(r_valid);
  x.r_sleep(r_sleep);
  x.r_thread(r_thread);
  x.r_pc(r_pc);
  x.r_illegal(r_illegal);
  x.r_flush(r_flush);
  x.lsu_room(lsu_room);
  x.r_inst(r_inst);
  x.rf_a(rf_a);
  x.rf_b(rf_b);
  x.rf_c(rf_c);
  x.clock(clock);
  x.domw(domw);
  x.lx0(lx0);
  x.domh(domh);
  x.items(items);
  x.item_we(item_we);
  x.item_thread(item_thread);
  x.item_lx(item_lx);
  x.item_ly(item_ly);
  x.x2_upd_valid(x2_upd_valid);
  x.x2_upd_thread(x2_upd_thread);
  x.x2_upd_pc(x2_upd_pc);
  x.x2_upd_state(x2_upd_state);
  x.x2_mem_valid(x2_mem_valid);
  x.x2_mem_op(x2_mem_op);
  x.x2_mem_addr(x2_mem_addr);
  x.x2_mem_data(x2_mem_data);
  x.x2_mem_cmp(x2_mem_cmp);
  x.x2_mem_tag(x2_mem_tag);
  x.w_valid(w_valid);
  x.w_sleep(w_sleep);
  x.w_thread(w_thread);
  x.w_pc(w_pc);
  x.w_we(w_we);
  x.w_load(w_load);
  x.w_flush(w_flush);
  x.w_rd(w_rd);
  x.w_result(w_result);
  x.fault(fault_q);
  x.fault_thread(fault_thread_q);
  x.fault_pc(fault_pc_q);

  dcache& c = dcache_;
  c.x2_mem_valid(x2_mem_valid);
  c.x2_mem_op(x2_mem_op);
  c.x2_mem_addr(x2_mem_addr);
  c.x2_mem_data(x2_mem_data);
  c.x2_mem_cmp(x2_mem_cmp);
  c.x2_mem_tag(x2_mem_tag);
  c.wake_valid(wake_valid);
  c.wake_thread(wake_thread);
  c.lsu_flush_valid(lsu_flush_valid);
  c.lsu_flush_thread(lsu_flush_thread);
  c.clock(clock);
  c.c2_push_valid(c2_push_valid);
  c.c2_push_op(c2_push_op);
  c.c2_push_addr(c2_push_addr);
  c.c2_push_data(c2_push_data);
  c.c2_push_cmp(c2_push_cmp);
  c.c2_push_tag(c2_push_tag);
  bind_all(c.rb_valid, rb_valid);
  bind_all(c.rb_data, rb_data);

  if (p_.cache_line_port) execute_.lsu = &lsu_;
  load_store_unit& l = lsu_;
  l.c2_push_valid(c2_push_valid);
  l.c2_push_op(c2_push_op);
  l.c2_push_addr(c2_push_addr);
  l.c2_push_data(c2_push_data);
  l.c2_push_cmp(c2_push_cmp);
  l.c2_push_tag(c2_push_tag);
  l.mem_req_valid(mem_req_valid_q);
  l.mem_req_op(mem_req_op_q);
  l.mem_req_addr(mem_req_addr_q);
  l.mem_req_data(mem_req_data_q);
  l.mem_req_cmp(mem_req_cmp_q);
  l.mem_req_tag(mem_req_tag_q);
  l.mem_req_mask(mem_req_mask_q);
  l.mem_req_line(mem_req_line_q);
  l.lsu_room(lsu_room);
  l.lsu_flush_valid(lsu_flush_valid);
  l.lsu_flush_thread(lsu_flush_thread);
  l.lsu_busy(lsu_busy);
  l.clock(clock);

  writeback& w = writeback_;
  w.w_valid(w_valid);
  w.w_sleep(w_sleep);
  w.w_thread(w_thread);
  w.w_pc(w_pc);
  w.w_we(w_we);
  w.w_load(w_load);
  w.w_flush(w_flush);
  w.w_rd(w_rd);
  w.w_result(w_result);
  bind_all(w.rb_valid, rb_valid);
  bind_all(w.rb_data, rb_data);
  w.clock(clock);
  w.rf_we(rf_we);
  w.rf_wthread(rf_wthread);
  w.rf_wreg(rf_wreg);
  w.rf_wdata(rf_wdata);
  w.wake_valid(wake_valid);
  w.wake_thread(wake_thread);

  if (clocking == Clocking::OwnMethod) {
    SC_METHOD(tick);
    sensitive << clk.pos();
    dont_initialize();
  }
}

// The core's input ports go to the blocks as references to the values of the signals
// they are bound to (sc_signal's read() returns its current value by reference, and
// the kernel changes it only in the update phase), so a tick reads them as a method
// on clk.pos() would, with no call through the port per read.  The ports are bound
// by now, not yet when the constructor ran.
void umbra_core::end_of_elaboration() {
  if (plain_) return;
  bind_inputs(rst.read(), host_imem_we.read(), host_imem_addr.read(), host_imem_data.read(),
              launch_valid.read(), launch_count.read(), launch_entry.read(), launch_lx0.read(),
              launch_domw.read(), ncore.read(), mem_req_ready.read(), mem_resp_valid.read(),
              mem_resp_data.read(), mem_resp_tag.read(), mem_resp_line.read());
  bind_domain_inputs(domain_valid.read(), domain_w.read(), domain_h.read(), start_valid.read(),
                     start_lx.read(), start_ly.read());
  bind_command_inputs(args.read(), inval_all.read());
}

void umbra_core::bind_plain(const Inputs& in) {
  plain_ = true;
  bind_inputs(in.rst, in.host_imem_we, in.host_imem_addr, in.host_imem_data, in.launch_valid, in.launch_count,
              in.launch_entry, in.launch_lx0, in.launch_domw, in.ncore, in.mem_req_ready, in.mem_resp_valid,
              in.mem_resp_data, in.mem_resp_tag, in.mem_resp_line);
  bind_domain_inputs(in.domain_valid, in.domain_w, in.domain_h, in.start_valid, in.start_lx, in.start_ly);
  bind_command_inputs(in.args, in.inval_all);
}

void umbra_core::bind_command_inputs(const uint32_t& args_in, const bool& inval) {
  execute_.args(args_in);
  dcache_.inval_all(inval);
}

void umbra_core::bind_domain_inputs(const bool& domain, const uint32_t& w, const uint32_t& h,
                                    const bool& start, const uint32_t& lx, const uint32_t& ly) {
  fetch& f = fetch_;
  f.domain_valid(domain);
  f.domain_w(w);
  f.domain_h(h);
  f.start_valid(start);
  f.start_lx(lx);
  f.start_ly(ly);
}

void umbra_core::bind_inputs(const bool& rst_v, const bool& imem_we, const uint32_t& imem_addr,
                             const uint32_t& imem_data, const bool& launch, const uint32_t& count,
                             const uint32_t& entry, const uint32_t& lx0_in, const uint32_t& domw_in,
                             const uint32_t& ncores, const bool& req_ready, const bool& resp_valid,
                             const uint32_t& resp_data, const uint32_t& resp_tag, const PortLine& resp_line) {
  fetch& f = fetch_;
  f.rst(rst_v);
  f.host_imem_we(imem_we);
  f.host_imem_addr(imem_addr);
  f.host_imem_data(imem_data);
  f.launch_valid(launch);
  f.launch_count(count);
  f.launch_entry(entry);
  f.launch_lx0(lx0_in);
  f.launch_domw(domw_in);
  decode_.rst(rst_v);
  execute_.rst(rst_v);
  execute_.ncore(ncores);
  dcache& c = dcache_;
  c.rst(rst_v);
  c.mem_resp_valid(resp_valid);
  c.mem_resp_data(resp_data);
  c.mem_resp_tag(resp_tag);
  c.mem_resp_line(resp_line);
  load_store_unit& l = lsu_;
  l.rst(rst_v);
  l.mem_req_ready(req_ready);
  l.mem_resp_valid(resp_valid);
  l.mem_resp_data(resp_data);
  l.mem_resp_tag(resp_tag);
  l.mem_resp_line(resp_line);
  writeback_.rst(rst_v);
}

MemStats umbra_core::mem_stats() const {
  MemStats s;
  s.cache_hits = dcache_.hits();
  s.cache_misses = dcache_.misses();
  s.cache_merges = dcache_.merges();
  s.replays = execute_.replays();
  s.load_latency = writeback_.load_latency();
  return s;
}

void umbra_core::tick() {
  cycle();
}

void umbra_core::cycle() {
  // Every block reads only what was committed at the previous edge and the input
  // ports, so the order below is the pipeline's for reading, not for meaning.
  fetch_.tick();
  decode_.tick();
  regfile_.tick();
  execute_.tick();
  dcache_.tick();
  lsu_.tick();
  writeback_.tick();
  wires_.commit();
  // busy = f_busy | lsu_busy: an OR of two registers, as in umbra_core.v.
  drive(plain_, busy, driven_.busy, f_busy.now() || lsu_busy.now());
  drive(plain_, can_start, driven_.can_start, fetch_.can_start());
  drive(plain_, fault, driven_.fault, fault_q.now());
  drive(plain_, fault_thread, driven_.fault_thread, fault_thread_q.now());
  drive(plain_, fault_pc, driven_.fault_pc, fault_pc_q.now());
  drive(plain_, mem_req_valid, driven_.mem_req_valid, mem_req_valid_q.now());
  drive(plain_, mem_req_op, driven_.mem_req_op, mem_req_op_q.now());
  drive(plain_, mem_req_addr, driven_.mem_req_addr, mem_req_addr_q.now());
  drive(plain_, mem_req_data, driven_.mem_req_data, mem_req_data_q.now());
  drive(plain_, mem_req_cmp, driven_.mem_req_cmp, mem_req_cmp_q.now());
  drive(plain_, mem_req_tag, driven_.mem_req_tag, mem_req_tag_q.now());
  drive(plain_, mem_req_mask, driven_.mem_req_mask, mem_req_mask_q.now());
  drive(plain_, mem_req_line, driven_.mem_req_line, mem_req_line_q.now());
}

}  // namespace umbra::scm

// libsystemc.so refers to sc_main even when a program drives SystemC itself (the
// runner library, the tests).  This weak definition satisfies the link; a program
// with its own sc_main (the cosimulation) overrides it.
extern "C" __attribute__((weak)) int sc_main(int, char**) {
  std::fprintf(stderr, "umbra: this program has no sc_main of its own\n");
  return 2;
}
