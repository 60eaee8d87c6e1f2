// round_robin: the first of n requesters for which req(i) holds, counting from `first`
// and wrapping; n when none holds.  rtl/round_robin.v is the same choice; the system's
// memory arbiter and the domain dispatcher both pick a core so.
#pragma once

namespace umbra::scm {

template <class Req>
unsigned round_robin(unsigned first, unsigned n, const Req& req) {
  for (unsigned k = 0, i = first; k < n; ++k, i = i + 1 == n ? 0 : i + 1)
    if (req(i)) return i;
  return n;
}

}  // namespace umbra::scm
