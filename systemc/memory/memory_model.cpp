// The memory-model registry and factory (memory_model.h).  The table is a function
// static, so registrations from other files' static initialisers find it built
// whatever order the linker put them in.
#include "memory_model.h"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace umbra::scm {

namespace {

std::map<std::string, MemoryModelInfo>& table() {
  static std::map<std::string, MemoryModelInfo> t;
  return t;
}

}  // namespace

bool register_memory_model(MemoryModelInfo info) {
  const std::string name = info.name;
  if (!table().emplace(name, std::move(info)).second)
    throw std::logic_error("memory model '" + name + "' is registered twice");
  return true;
}

std::vector<MemoryModelInfo> memory_models() {
  std::vector<MemoryModelInfo> v;
  for (const auto& [name, info] : table()) v.push_back(info);
  return v;
}

std::unique_ptr<memory_model> make_memory(sc_module_name name, const Config& cfg) {
  const auto it = table().find(cfg.mem_model);
  if (it == table().end()) {
    std::string known;
    for (const auto& [n, info] : table()) known += (known.empty() ? "" : ", ") + n;
    throw std::invalid_argument("memory.model '" + cfg.mem_model + "' is not a memory model (" + known + ")");
  }
  return it->second.make(name, cfg);
}

}  // namespace umbra::scm
