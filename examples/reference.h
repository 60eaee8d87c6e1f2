// Independent C++ references for the example programs: each computes, from the memory
// the program starts with, the memory it must leave behind (harness.h, Image).  They
// are written from each example's specification (the comment at the top of its .s),
// not from the simulator; the float ones use umbra::fp32 in the program's order of
// operations, so the bits match on every model.
#pragma once
#include <string>
#include <vector>

#include "harness.h"

namespace umbra::examples {

// The reference for the example of this name, or nullptr.
const Reference* find_reference(const std::string& name);
// Names of every example that has a reference.
std::vector<std::string> reference_names();

}  // namespace umbra::examples
