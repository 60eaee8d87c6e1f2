// libFuzzer target for umbra-sim's program loader: what `umbra-sim p.elf` / `p.hex` /
// `p.bin` does before its model runs.  The bytes are an image under a name (an ELF, a
// $readmemh text image with its `.data.hex` companion, or a raw binary: the first
// byte picks which), read by obj::read_file's own steps (detect_format, read_image,
// read_hex_data for the companion) in memory rather than through a file, and loaded
// into the reference simulator (iss::Simulator::load) on the default machine or on a
// small one (4 KiB of memory, as the HX8K board has), then run for a few hundred
// instructions.  Unlike fuzz_dis, which hands the bytes to each reader in turn, this
// goes through the format detection by magic and name, the companion, and the
// simulator's own bounds.  Reading the files themselves (the size bound, directories,
// devices, a missing companion) is left to the unit tests (asm/tests), because a file
// written and read back per input cost this fuzzer most of its time.
//
// Findings: a crash, leak or hang; a refusal by anything but an ObjectError (reading)
// or LoadError (loading) that names the file; a load decision that differs from the
// rules written out again below (alignment, instruction store, entry point, data
// memory); an accepted image the simulator does not hold word for word.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "umbra/config.h"
#include "umbra/iss.h"
#include "umbra/program.h"

namespace {

[[noreturn]] void finding(const char* what, const std::string& detail) {
  std::fprintf(stderr, "fuzz_load: %s: %s\n", what, detail.c_str());
  std::abort();
}

// The machines the image is loaded on: the default build and one as small as the HX8K
// board's (data at 0, so the data-memory bound is what most images meet).
const umbra::Config& machine(bool small) {
  static const umbra::Config big{};
  static const umbra::Config tiny = [] {
    umbra::Config c;
    c.name = "fuzz-small";
    c.imem_words = 1024;
    c.mem_bytes = 4096;
    c.data_base = 0;
    return c;
  }();
  return small ? tiny : big;
}

// One simulator per machine, reused, with its data memory cleared to what a fresh one
// holds.  Constructing one per input (as umbra-sim does once per run) cost this fuzzer
// half its time: under ASan each 1 MiB memory is a fresh mmap, faulted in page by
// page and unmapped again.  Nothing else in a Simulator outlives an input: load()
// rewrites the whole instruction store, the entry point and the symbols before they
// are read, and a run starts from fresh registers.
umbra::iss::Simulator& simulator(bool small) {
  static umbra::iss::Simulator big(machine(false)), tiny(machine(true));
  umbra::iss::Simulator& sim = small ? tiny : big;
  std::vector<uint8_t>& mem = sim.memory().bytes();
  std::fill(mem.begin(), mem.end(), uint8_t(0));
  return sim;
}

// The simulator's load rules, restated from iss.h's contract rather than from its code.
std::string expected_refusal(const umbra::Program& p, const umbra::Config& c) {
  const uint64_t imem_bytes = uint64_t(c.imem_words) * 4;
  if (p.text_base % 4) return "text base";
  if (p.text_base + 4 * uint64_t(p.text.size()) > imem_bytes) return "text";
  if (p.entry % 4 || p.entry >= imem_bytes) return "entry point";
  if (!p.data.empty() && uint64_t(p.data_base) + p.data.size() > c.mem_bytes) return "data";
  return "";
}

void check_loaded(const umbra::iss::Simulator& sim, const umbra::Program& p, const std::string& path) {
  const std::vector<uint32_t>& imem = sim.imem();
  for (size_t i = 0; i < imem.size(); ++i) {
    const uint64_t k = i - p.text_base / 4;  // wraps for words below the text: then >= size
    const uint32_t want = i >= p.text_base / 4 && k < p.text.size() ? p.text[k] : 0;
    if (imem[i] != want)
      finding("instruction store differs from the image", path + " word " + std::to_string(i));
  }
  const std::vector<uint8_t>& mem = sim.memory().bytes();
  for (size_t i = 0; i < p.data.size(); ++i)
    if (mem[p.data_base + i] != p.data[i])
      finding("data memory differs from the image", path + " byte " + std::to_string(p.data_base + i));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const uint8_t kind = data[0] % 4, knobs = data[1];
  data += 2;
  size -= 2;
  // The names decide the format as umbra-sim's auto-detection does: ELF magic first,
  // then a `.hex` name, else a raw binary; kind 3 forces the ELF reader on any bytes.
  static const char* const names[] = {"p.elf", "p.hex", "p.bin", "p.img"};
  const std::string path = names[kind];
  const umbra::obj::Format fmt = kind == 3 ? umbra::obj::Format::Elf : umbra::obj::Format::Auto;
  // A hex text image and its data companion, split at the first NUL (neither format
  // has one), so the seeds stay readable text; other kinds have no companion.
  const uint8_t* nul = kind == 1 ? static_cast<const uint8_t*>(std::memchr(data, 0, size)) : nullptr;
  const std::vector<uint8_t> bytes(data, nul ? nul : data + size);

  umbra::Program p;
  try {
    // obj::read_file's steps after it has read the file (and the companion, if any).
    const umbra::obj::Format is = umbra::obj::detect_format(bytes, path, fmt);
    p = umbra::obj::read_image(bytes, path, is);
    if (is == umbra::obj::Format::Hex && nul)
      umbra::obj::read_hex_data(p, std::string(nul + 1, data + size), path + ".data.hex");
  } catch (const umbra::ObjectError& e) {
    if (!std::strstr(e.what(), path.c_str())) finding("a read error does not name the file", e.what());
    return 0;
  }

  const umbra::Config& cfg = machine(knobs & 1);
  const std::string refusal = expected_refusal(p, cfg);
  umbra::iss::Simulator& sim = simulator(knobs & 1);
  try {
    sim.load(p, path);
  } catch (const umbra::iss::LoadError& e) {
    if (!std::strstr(e.what(), path.c_str())) finding("a load error does not name the file", e.what());
    if (refusal.empty()) finding("an image that fits was refused", e.what());
    return 0;
  }
  if (!refusal.empty()) finding("an image that does not fit was loaded", path + ": " + refusal);
  check_loaded(sim, p, path);

  // A short run, as umbra-sim would start one: whatever the words are, the simulator
  // must stop on its own (exit, fault or the limit) without a crash.
  const unsigned threads = 1 + (knobs >> 1) % cfg.threads;
  const umbra::iss::IssResult r = sim.run(threads, 256);
  if (r.threads.size() != threads) finding("run", "result has the wrong number of threads");
  return 0;
}
