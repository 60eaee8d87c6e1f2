// umbra-sim's report (sim_report.h).
#include "sim_report.h"

#include <cstdio>

#include "umbra/format.h"

namespace umbra::simreport {

using umbra::BubbleReason;
using umbra::kBubbleReasons;

void write_regs(std::ostream& os, const Outcome& o, unsigned registers) {
  for (unsigned t = 0; t < o.threads.size(); ++t) {
    const ThreadEnd& th = o.threads[t];
    os << "thread " << t << " pc " << hex8_bare(th.pc) << ' ' << th.state << '\n';
    unsigned on_line = 0;
    for (unsigned r = 1; r < registers && r < th.regs.size(); ++r) {
      if (th.regs[r] == 0) continue;
      char buf[32];
      std::snprintf(buf, sizeof buf, "%5s=%08x", ("r" + std::to_string(r)).c_str(), th.regs[r]);
      os << (on_line ? " " : "  ") << buf;
      if (++on_line == 8) {
        os << '\n';
        on_line = 0;
      }
    }
    if (on_line) os << '\n';
  }
}

std::string plural(uint64_t n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

namespace {

using umbra::rate_text;

nlohmann::json per_thread(const std::vector<uint64_t>& v) {
  uint64_t total = 0;
  for (uint64_t x : v) total += x;
  return {{"per_thread", v}, {"total", total}};
}

double share(uint64_t part, uint64_t whole) {
  return whole ? double(part) / double(whole) : 0.0;
}

// The memory system's lines of the human summary (docs/memory-system.md, "Events and
// statistics"): the cache, load latency, the reorder queue and the DRAM, each when the
// model measured it.
void memory_summary(std::ostream& os, const umbra::MemoryStats& m, const umbra::CoreStats& s) {
  char buf[256];
  const uint64_t loads = m.cache_hits + m.cache_misses + m.cache_merges;
  std::snprintf(buf, sizeof buf,
                "cache: %llu loads: %llu hits, %llu misses, %llu merged (hit rate %.1f%%); replays %s; "
                "slots asleep %llu\n",
                static_cast<unsigned long long>(loads), static_cast<unsigned long long>(m.cache_hits),
                static_cast<unsigned long long>(m.cache_misses),
                static_cast<unsigned long long>(m.cache_merges), 100 * share(m.cache_hits, loads),
                m.replays_measured ? std::to_string(m.replays).c_str() : "not measured on the RTL alone",
                static_cast<unsigned long long>(s.total_bubbles(BubbleReason::Memory)));
  os << buf;
  if (m.load_count) {
    std::snprintf(buf, sizeof buf,
                  "load latency (X1 to wake): mean %.1f, max %llu cycles over %llu loads; histogram "
                  "(%llu-cycle buckets):",
                  m.load_mean(), static_cast<unsigned long long>(m.load_max),
                  static_cast<unsigned long long>(m.load_count),
                  static_cast<unsigned long long>(m.load_bucket_width));
    os << buf;
    for (uint64_t b : m.load_buckets) os << ' ' << b;
    os << '\n';
  }
  if (m.queue) {
    std::snprintf(
        buf, sizeof buf,
        "reorder queue: occupancy mean %.2f, max %llu; %llu requests sent, %llu passed over, longest "
        "wait %llu cycles\n",
        share(m.queue_occupancy_sum, m.queue_cycles), static_cast<unsigned long long>(m.queue_occupancy_max),
        static_cast<unsigned long long>(m.queue_sent), static_cast<unsigned long long>(m.queue_passed_over),
        static_cast<unsigned long long>(m.queue_longest_wait));
    os << buf;
  }
  if (m.dram) {
    const uint64_t acc = m.row_hits + m.row_misses + m.row_conflicts;
    std::snprintf(
        buf, sizeof buf,
        "dram: %llu accesses: %llu row hits, %llu misses, %llu conflicts (hit rate %.1f%%); data bus busy "
        "%llu of %llu cycles (%.1f%%)\n",
        static_cast<unsigned long long>(acc), static_cast<unsigned long long>(m.row_hits),
        static_cast<unsigned long long>(m.row_misses), static_cast<unsigned long long>(m.row_conflicts),
        100 * share(m.row_hits, acc), static_cast<unsigned long long>(m.bus_busy_cycles),
        static_cast<unsigned long long>(m.dram_cycles), 100 * share(m.bus_busy_cycles, m.dram_cycles));
    os << buf;
  }
}

nlohmann::json memory_json(const umbra::MemoryStats& m, const umbra::CoreStats& s) {
  nlohmann::json j;
  const uint64_t loads = m.cache_hits + m.cache_misses + m.cache_merges;
  std::vector<uint64_t> asleep;
  for (const auto& b : s.bubbles) asleep.push_back(b[unsigned(BubbleReason::Memory)]);
  j["cache"] = {{"loads", loads},
                {"hits", m.cache_hits},
                {"misses", m.cache_misses},
                {"merges", m.cache_merges},
                {"hit_rate", share(m.cache_hits, loads)}};
  j["replays"] = m.replays_measured ? nlohmann::json(m.replays) : nlohmann::json(nullptr);
  j["slots_asleep"] = per_thread(asleep);
  if (m.load_count)
    j["load_latency"] = {{"count", m.load_count},
                         {"mean", m.load_mean()},
                         {"max", m.load_max},
                         {"bucket_width", m.load_bucket_width},
                         {"histogram", m.load_buckets}};
  else
    j["load_latency"] = nullptr;
  if (m.queue)
    j["queue"] = {{"cycles", m.queue_cycles},
                  {"mean_occupancy", share(m.queue_occupancy_sum, m.queue_cycles)},
                  {"max_occupancy", m.queue_occupancy_max},
                  {"sent", m.queue_sent},
                  {"passed_over", m.queue_passed_over},
                  {"longest_wait", m.queue_longest_wait}};
  else
    j["queue"] = nullptr;
  if (m.dram) {
    const uint64_t acc = m.row_hits + m.row_misses + m.row_conflicts;
    j["dram"] = {{"cycles", m.dram_cycles},
                 {"accesses", acc},
                 {"row_hits", m.row_hits},
                 {"row_misses", m.row_misses},
                 {"row_conflicts", m.row_conflicts},
                 {"row_hit_rate", share(m.row_hits, acc)},
                 {"bus_busy_cycles", m.bus_busy_cycles},
                 {"bus_utilisation", share(m.bus_busy_cycles, m.dram_cycles)},
                 {"bytes", m.dram_bytes}};
  } else {
    j["dram"] = nullptr;
  }
  return j;
}

}  // namespace

void write_summary(std::ostream& os, const Outcome& o, const umbra::Config& cfg) {
  os << "umbra-sim: " << o.model << ", configuration '" << cfg.name << "' (T=" << cfg.threads << ", "
     << cfg.registers << " registers), ";
  if (!o.commands.empty())
    os << "command buffer " << o.commands << " (" << plural(o.command_words, "word") << " at "
       << umbra::hex8(o.command_addr) << ")\n";
  else if (o.domain.launch())
    os << "domain " << o.domain.w << "x" << o.domain.h << " (" << plural(o.domain.items(), "work item")
       << ") on ";
  if (o.commands.empty()) os << plural(o.threads.size(), "thread") << '\n';
  if (!o.has_cycles) {
    if (!o.threads.empty()) os << "thread      retired  state\n";
    for (unsigned t = 0; t < o.threads.size(); ++t) {
      char buf[96];
      std::snprintf(buf, sizeof buf, "%6u %12llu  %s at pc %08x", t,
                    static_cast<unsigned long long>(o.threads[t].count), o.threads[t].state.c_str(),
                    o.threads[t].pc);
      os << buf << '\n';
    }
    os << "total " << plural(o.iss_retired, "instruction") << " in " << plural(o.iss_rounds, "round") << '\n';
    return;
  }
  const umbra::CoreStats& s = o.cyc.stats;
  if (!o.threads.empty()) os << "thread       issued  bubbles:  memory    exited      idle  state\n";
  // Rows are work items (core c's thread t is c * n + t); the statistics are per slot.
  const unsigned n = unsigned(o.threads.size()) / cfg.cores;
  for (unsigned t = 0; t < o.threads.size(); ++t) {
    const unsigned slot = n ? t / n * cfg.threads + t % n : t;
    const auto b = slot < s.bubbles.size() ? s.bubbles[slot] : std::array<uint64_t, kBubbleReasons>{};
    char buf[160];
    std::snprintf(buf, sizeof buf, "%6u %12llu  %16llu %9llu %9llu  %s", t,
                  static_cast<unsigned long long>(o.threads[t].count),
                  static_cast<unsigned long long>(b[unsigned(BubbleReason::Memory)]),
                  static_cast<unsigned long long>(b[unsigned(BubbleReason::Exited)]),
                  static_cast<unsigned long long>(b[unsigned(BubbleReason::Idle)]),
                  o.threads[t].state.c_str());
    os << buf << " at pc " << hex8_bare(o.threads[t].pc) << '\n';
  }
  char buf[256];
  std::snprintf(
      buf, sizeof buf,
      "total %llu instructions in %llu cycles, IPC %.3f; bubbles: memory %llu, exited %llu, idle %llu\n",
      static_cast<unsigned long long>(s.total_issued()), static_cast<unsigned long long>(s.cycles), s.ipc(),
      static_cast<unsigned long long>(s.total_bubbles(BubbleReason::Memory)),
      static_cast<unsigned long long>(s.total_bubbles(BubbleReason::Exited)),
      static_cast<unsigned long long>(s.total_bubbles(BubbleReason::Idle)));
  os << buf;
  if (s.cores() > 1)
    for (unsigned c = 0; c < s.cores(); ++c) {
      std::snprintf(buf, sizeof buf, "core %u: %llu cycles, IPC %.3f\n", c,
                    static_cast<unsigned long long>(s.cycles_of(c)), s.core_ipc(c));
      os << buf;
    }
  memory_summary(os, o.cyc.mem, s);
  os << "simulated " << (o.cyc.end_cycle + 1) << " cycles (launch in cycle " << o.cyc.launch_cycle << ") in ";
  std::snprintf(buf, sizeof buf, "%.2f s, %scycles/s\n", o.cyc.wall_seconds,
                rate_text(o.cyc.cycles_per_second()).c_str());
  os << buf;
  if (o.cosim)
    os << "cosim: " << o.events_compared << " events compared, "
       << (o.mismatch_report.empty() && o.iss_problems.empty() ? "SystemC and RTL agree, both match the ISS"
                                                               : "MISMATCH")
       << '\n';
}

nlohmann::json stats_json(const Outcome& o, const umbra::Config& cfg, const std::string& input) {
  nlohmann::json j;
  j["model"] = o.model;
  j["program"] = input;
  j["configuration"] = cfg.name;
  j["contexts"] = cfg.threads;
  j["threads"] = o.threads.size();
  j["domain"] = o.domain.launch() ? nlohmann::json{{"w", o.domain.w}, {"h", o.domain.h}} : nlohmann::json();
  j["commands"] =
      o.commands.empty()
          ? nlohmann::json()
          : nlohmann::json{{"file", o.commands}, {"words", o.command_words}, {"address", o.command_addr}};
  j["status"] = o.status;
  j["message"] = o.stop_line;
  nlohmann::json threads = nlohmann::json::array();
  for (const ThreadEnd& t : o.threads) {
    threads.push_back({{"state", t.state}, {"pc", t.pc}});
  }
  j["thread_state"] = threads;
  if (!o.has_cycles) {
    j["has_cycles"] = false;
    j["cycles"] = nullptr;
    j["note"] =
        "the reference simulator has no timing: it counts retired instructions and issue rounds "
        "(one instruction per running thread per round), not cycles; no bubbles, no IPC";
    std::vector<uint64_t> retired;
    for (const ThreadEnd& t : o.threads) retired.push_back(t.count);
    j["instructions"] = per_thread(retired);
    j["rounds"] = o.iss_rounds;
    return j;
  }
  const umbra::CoreStats& s = o.cyc.stats;
  j["has_cycles"] = true;
  j["cycles"] = s.cycles;
  j["note"] =
      "cycles: the cycles with busy high after the launch (several cores: the longest core's; each "
      "core's in core_cycles); per-thread arrays cover all T contexts of every core, core after core "
      "(issued + bubbles = its core's cycles / T for each, +-1)";
  j["launch_cycle"] = o.cyc.launch_cycle;
  j["end_cycle"] = o.cyc.end_cycle;
  j["issued"] = per_thread(s.issued);
  if (s.cores() > 1) {  // per core: its busy cycles and instructions per cycle
    std::vector<uint64_t> cycles;
    std::vector<double> ipc;
    for (unsigned c = 0; c < s.cores(); ++c) {
      cycles.push_back(s.cycles_of(c));
      ipc.push_back(s.core_ipc(c));
    }
    j["core_cycles"] = cycles;
    j["core_ipc"] = ipc;
  }
  nlohmann::json bubbles;
  std::vector<uint64_t> all(s.bubbles.size());
  for (unsigned k = 0; k < kBubbleReasons; ++k) {
    std::vector<uint64_t> v;
    for (size_t t = 0; t < s.bubbles.size(); ++t) {
      v.push_back(s.bubbles[t][k]);
      all[t] += s.bubbles[t][k];
    }
    bubbles[umbra::bubble_reason_name(BubbleReason(k))] = per_thread(v);
  }
  bubbles["all"] = per_thread(all);
  j["bubbles"] = bubbles;
  j["ipc"] = s.ipc();
  j["memory"] = memory_json(o.cyc.mem, s);
  j["wall_seconds"] = o.cyc.wall_seconds;
  j["cycles_per_second"] = o.cyc.cycles_per_second();
  if (o.cosim) {
    j["cosim"] = {{"events_compared", o.events_compared},
                  {"agree", o.mismatch_report.empty() && o.iss_problems.empty()},
                  {"mismatch", o.mismatch_report},
                  {"iss_problems", o.iss_problems},
                  {"iss_notes", o.iss_notes}};
  }
  return j;
}

}  // namespace umbra::simreport
