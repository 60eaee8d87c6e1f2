// Manifest loading and the run-and-check loop shared by every model (harness.h).
// Manifests are strict: an unknown key, a missing field or a number out of range is an
// error naming the file, so a typo cannot silently drop a check.
#include "harness.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <sstream>

#include "umbra/asm.h"
#include "umbra/format.h"

namespace umbra::examples {
namespace fs = std::filesystem;

namespace {

[[noreturn]] void fail(const std::string& path, const YAML::Node& n, const std::string& what) {
  std::ostringstream os;
  os << path;
  if (n.IsDefined() && n.Mark().line >= 0) os << ":" << n.Mark().line + 1;
  os << ": " << what;
  throw ManifestError(os.str());
}

void only_keys(const std::string& path, const YAML::Node& map, const std::set<std::string>& allowed,
               const char* where) {
  if (!map.IsMap()) fail(path, map, std::string(where) + " must be a mapping");
  for (const auto& kv : map) {
    const auto key = kv.first.as<std::string>();
    if (!allowed.count(key)) fail(path, kv.first, "unknown key '" + key + "' in " + where);
  }
}

// An integer scalar: decimal (optionally negative) or 0x hex; range [lo, hi].
int64_t integer(const std::string& path, const YAML::Node& n, int64_t lo, int64_t hi, const char* what) {
  if (!n.IsScalar()) fail(path, n, std::string(what) + " must be a number");
  const std::string s = n.Scalar();
  const char* p = s.c_str();
  bool neg = false;
  if (*p == '-') {
    neg = true;
    ++p;
  }
  int base = 10;
  if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
    base = 16;
    p += 2;
  }
  if (*p == '\0') fail(path, n, std::string(what) + ": '" + s + "' is not a number");
  char* end = nullptr;
  errno = 0;
  const unsigned long long mag = std::strtoull(p, &end, base);
  if (*end != '\0' || errno == ERANGE || mag > (1ull << 33))
    fail(path, n, std::string(what) + ": '" + s + "' is not a number in range");
  const int64_t v = neg ? -int64_t(mag) : int64_t(mag);
  if (v < lo || v > hi)
    fail(path, n,
         std::string(what) + " " + s + " is outside " + std::to_string(lo) + ".." + std::to_string(hi));
  return v;
}

Region region(const std::string& path, const YAML::Node& n, const std::set<std::string>& extra,
              const char* where) {
  std::set<std::string> keys = {"symbol", "address", "offset", "words"};
  keys.insert(extra.begin(), extra.end());
  only_keys(path, n, keys, where);
  Region r;
  if (n["symbol"] && n["address"]) fail(path, n, std::string(where) + ": give symbol or address, not both");
  if (n["symbol"]) {
    r.symbol = n["symbol"].as<std::string>();
    if (n["offset"]) r.offset = uint32_t(integer(path, n["offset"], -(1ll << 31), (1ll << 32) - 1, "offset"));
  } else if (n["address"]) {
    if (n["offset"]) fail(path, n, std::string(where) + ": offset goes with symbol");
    r.offset = uint32_t(integer(path, n["address"], 0, (1ll << 32) - 4, "address"));
  } else {
    fail(path, n, std::string(where) + " needs a symbol or an address");
  }
  if (r.offset % 4) fail(path, n, std::string(where) + ": addresses are word aligned");
  if (n["words"]) r.words = uint32_t(integer(path, n["words"], 1, 1 << 22, "words"));
  return r;
}

}  // namespace

Manifest load_manifest(const std::string& path) {
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::Exception& e) {
    throw ManifestError(path + ": " + e.what());
  }
  only_keys(path, root, {"name", "source", "description", "max_instructions", "runs", "checks"}, "manifest");
  Manifest m;
  m.path = path;
  for (const char* key : {"name", "source", "max_instructions", "runs", "checks"})
    if (!root[key]) fail(path, root, std::string("missing '") + key + "'");
  m.name = root["name"].as<std::string>();
  const fs::path dir = fs::path(path).parent_path();
  m.source = (dir / root["source"].as<std::string>()).lexically_normal().string();
  if (root["description"]) m.description = root["description"].as<std::string>();
  m.max_instructions = uint64_t(integer(path, root["max_instructions"], 1, 1ll << 32, "max_instructions"));

  const YAML::Node runs = root["runs"];
  if (!runs.IsSequence() || runs.size() == 0) fail(path, runs, "'runs' must be a non-empty list");
  for (const auto& rn : runs) {
    only_keys(path, rn, {"name", "threads", "domain", "commands", "inputs"}, "a run");
    if (bool(rn["threads"]) + bool(rn["domain"]) + bool(rn["commands"]) != 1)
      fail(path, rn, "a run needs 'threads', 'domain' or 'commands' (one of them)");
    RunSpec run;
    std::string launch;
    if (rn["threads"]) {
      run.threads = unsigned(integer(path, rn["threads"], 1, 256, "threads"));
      launch = "threads=" + std::to_string(run.threads);
    } else if (rn["commands"]) {
      // Checked against the program when the run is made (the arguments may be its
      // symbols): here only the shape.
      if (!rn["commands"].IsSequence() || rn["commands"].size() == 0)
        fail(path, rn["commands"], "'commands' must be a non-empty list of commands (docs/commands.md)");
      run.threads = 0;
      run.commands = rn["commands"];
      launch = "commands";
    } else {
      const YAML::Node d = rn["domain"];
      if (!d.IsSequence() || d.size() < 1 || d.size() > 2)
        fail(path, d, "'domain' must be [W] or [W, H], the work items' width and height");
      run.threads = 0;
      run.domain_w = uint32_t(integer(path, d[0], 1, (1ll << 32) - 1, "domain width"));
      run.domain_h = d.size() == 2 ? uint32_t(integer(path, d[1], 1, (1ll << 32) - 1, "domain height")) : 1;
      if (uint64_t(run.domain_w) * run.domain_h > 0xffffffffull)
        fail(path, d, "a domain of more than 2^32 - 1 work items");
      launch = "domain=" + std::to_string(run.domain_w) + "x" + std::to_string(run.domain_h);
    }
    run.name = rn["name"] ? rn["name"].as<std::string>() : launch;
    if (rn["inputs"]) {
      if (!rn["inputs"].IsSequence()) fail(path, rn["inputs"], "'inputs' must be a list");
      for (const auto& in : rn["inputs"]) {
        Input input;
        input.at = region(path, in, {"values"}, "an input");
        const YAML::Node vals = in["values"];
        if (!vals || !vals.IsSequence() || vals.size() == 0)
          fail(path, in, "an input needs a list of 'values'");
        for (const auto& v : vals)
          input.values.push_back(uint32_t(integer(path, v, -(1ll << 31), (1ll << 32) - 1, "value")));
        if (in["words"] && input.at.words != input.values.size())
          fail(path, in, "'words' does not match the number of values");
        input.at.words = uint32_t(input.values.size());
        run.inputs.push_back(std::move(input));
      }
    }
    m.runs.push_back(std::move(run));
  }

  const YAML::Node checks = root["checks"];
  if (!checks.IsSequence() || checks.size() == 0) fail(path, checks, "'checks' must be a non-empty list");
  for (const auto& c : checks) {
    Region r = region(path, c, {}, "a check");
    if (r.words == 0) fail(path, c, "a check needs 'words'");
    m.checks.push_back(r);
  }
  return m;
}

std::vector<std::string> find_manifests(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file() && e.path().extension() == ".yaml") out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

Program assemble(const Manifest& m) {
  as::Options opts;
  opts.include_dirs.push_back(fs::path(m.source).parent_path().string());
  as::Result r = as::assemble_file(m.source, opts);
  if (!r.ok()) {
    std::string msg = m.source + " does not assemble:\n";
    for (const auto& d : r.errors) msg += d.render();
    throw std::runtime_error(msg);
  }
  return std::move(r.program);
}

std::string absent_group(const Manifest& m, const Config& cfg) {
  as::Options opts;
  opts.include_dirs.push_back(fs::path(m.source).parent_path().string());
  opts.groups = cfg.groups;
  opts.config = "'" + cfg.name + "'";
  const as::Result r = as::assemble_file(m.source, opts);
  const as::Diagnostic* d = as::absent_group_error(r);
  return d ? d->file + ":" + std::to_string(d->line) + ": " + d->message : std::string();
}

Span resolve(const Region& r, const Program& p, const std::string& manifest_path) {
  Span s;
  s.words = r.words;
  if (r.symbol.empty()) {
    s.address = r.offset;
    s.label = hex8(s.address);
    return s;
  }
  const auto v = p.symbol(r.symbol);
  if (!v) throw ManifestError(manifest_path + ": the program has no symbol '" + r.symbol + "'");
  s.address = *v + r.offset;
  s.label = r.symbol;
  if (r.offset) s.label += "+" + hex(r.offset);
  return s;
}

Image::Image(const Program& p, unsigned threads) : program_(&p), threads_(threads) {
  for (size_t i = 0; i < p.data.size(); i += 4) {
    uint32_t w = 0;
    for (size_t b = 0; b < 4 && i + b < p.data.size(); ++b) w |= uint32_t(p.data[i + b]) << (8 * b);
    if (w) words_[p.data_base + uint32_t(i)] = w;
  }
}

uint32_t Image::sym(const std::string& name) const {
  const auto v = program_->symbol(name);
  if (!v) throw std::runtime_error("reference: the program has no symbol '" + name + "'");
  return *v;
}

uint32_t Image::load(uint32_t addr) const {
  const auto it = words_.find(addr);
  return it == words_.end() ? 0 : it->second;
}

void Image::store(uint32_t addr, uint32_t value) {
  words_[addr] = value;
}

std::string Verdict::summary() const {
  std::string s;
  for (const auto& p : problems) s += p + "\n";
  return s;
}

Verdict run_and_check(const Manifest& m, const RunSpec& run, const Program& p, const Model& model,
                      const Reference& reference, unsigned max_mismatches) {
  Verdict v;
  const std::string who = m.name + " (" + run.name + ")";

  ModelJob job;
  job.program = &p;
  job.source = m.source;
  job.threads = run.threads;
  job.domain_w = run.domain_w;
  job.domain_h = run.domain_h;
  job.commands = run.commands;
  job.manifest = m.path;
  // A thread launch's threads run on every core: that many more threads share the work.
  const unsigned cores = run.threads ? std::max(model.cores, 1u) : 1u;
  job.max_instructions = m.max_instructions * cores;
  Image expected(p, run.threads * cores);
  for (const auto& in : run.inputs) {
    const Span s = resolve(in.at, p, m.path);
    job.writes.emplace_back(s.address, in.values);
    for (uint32_t i = 0; i < in.values.size(); ++i) expected.store(s.address + 4 * i, in.values[i]);
  }
  for (const auto& c : m.checks) job.reads.push_back(resolve(c, p, m.path));

  reference(expected);
  const ModelOutcome out = model.run(job);
  v.instructions = out.instructions;

  if (!out.fault.empty()) v.problems.push_back(who + ": fault: " + out.fault);
  if (!out.all_exited) v.problems.push_back(who + ": not every thread exited");
  if (out.instructions > job.max_instructions)
    v.problems.push_back(who + ": " + std::to_string(out.instructions) + " instructions, more than the " +
                         std::to_string(job.max_instructions) + " allowed");
  if (out.reads.size() != job.reads.size()) {
    v.problems.push_back(who + ": the model returned " + std::to_string(out.reads.size()) + " regions, not " +
                         std::to_string(job.reads.size()));
  } else {
    unsigned differing = 0;
    for (size_t r = 0; r < job.reads.size(); ++r) {
      const Span& s = job.reads[r];
      if (out.reads[r].size() != s.words) {
        v.problems.push_back(who + ": region " + s.label + " came back with " +
                             std::to_string(out.reads[r].size()) + " words, not " + std::to_string(s.words));
        continue;
      }
      for (uint32_t i = 0; i < s.words; ++i) {
        const uint32_t want = expected.load(s.address + 4 * i), got = out.reads[r][i];
        if (want == got) continue;
        if (++differing > max_mismatches) continue;
        char buf[160];
        std::snprintf(buf, sizeof buf, ": %s word %u (0x%08x): expected 0x%08x, got 0x%08x", s.label.c_str(),
                      i, s.address + 4 * i, want, got);
        v.problems.push_back(who + buf);
      }
    }
    if (differing > max_mismatches)
      v.problems.push_back(who + ": ... " + std::to_string(differing - max_mismatches) +
                           " more words differ");
  }
  v.passed = v.problems.empty();
  return v;
}

}  // namespace umbra::examples
