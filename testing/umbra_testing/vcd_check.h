// A VCD file read the way a waveform viewer reads it, for the tests of the waveforms'
// window and size limit (issue 37): a whole header, then only timestamps, value
// changes and $dumpvars blocks, every line ended, every identifier declared, the times
// rising.  Header-only; the tests say what the times must be.
#pragma once
#include <cstdint>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace umbra::testkit {

struct VcdCheck {
  std::string problem;          // empty: a valid VCD
  std::vector<uint64_t> times;  // every #time, in order
  bool valid() const { return problem.empty(); }
};

inline VcdCheck check_vcd(const std::string& text) {
  VcdCheck r;
  if (text.empty() || text.back() != '\n') {
    r.problem = "does not end with a whole line";
    return r;
  }
  const auto defs = text.find("$enddefinitions");
  if (defs == std::string::npos) {
    r.problem = "no $enddefinitions";
    return r;
  }
  // Identifiers: "$var <type> <width> <id> <name> ... $end".
  std::set<std::string> ids;
  std::istringstream head(text.substr(0, defs));
  for (std::string word; head >> word;)
    if (word == "$var") {
      std::string type, width, id;
      head >> type >> width >> id;
      ids.insert(id);
    }
  std::istringstream body(text.substr(text.find('\n', defs) + 1));
  size_t n = 0;
  for (std::string line; std::getline(body, line);) {
    ++n;
    const auto bad = [&](const std::string& why) {
      r.problem = "line " + std::to_string(n) + " after the header, '" + line + "': " + why;
      return r;
    };
    if (line.empty() || line == "$dumpvars" || line == "$end" || line == "$dumpall") continue;
    if (line[0] == '#') {
      if (line.size() < 2 || line.find_first_not_of("0123456789", 1) != std::string::npos) return bad("time");
      const uint64_t t = std::stoull(line.substr(1));
      if (!r.times.empty() && t < r.times.back()) return bad("time goes back");
      r.times.push_back(t);
      continue;
    }
    std::string id;
    if (line[0] == 'b' || line[0] == 'r') {
      const auto sp = line.find(' ');
      if (sp == std::string::npos) return bad("vector without identifier");
      id = line.substr(sp + 1);
    } else if (std::string("01xzXZ").find(line[0]) != std::string::npos) {
      id = line.substr(1);
    } else {
      return bad("not a VCD line");
    }
    if (!ids.count(id)) return bad("undeclared identifier");
    if (r.times.empty()) return bad("a value before any time");
  }
  return r;
}

}  // namespace umbra::testkit
