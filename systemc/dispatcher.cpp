// dispatcher (dispatcher.h).
#include "dispatcher.h"

#include "round_robin.h"

namespace umbra::scm {

Dispatcher::Grant Dispatcher::grant(const std::vector<bool>& can_start) const {
  if (!have_) return {};
  const unsigned c = round_robin(first_, cores_, [this, &can_start](unsigned i) {
    return can_start[i] && !(start_q_.valid && start_q_.core == i);
  });
  return c < cores_ ? Grant{true, c, x_, y_} : Grant{};
}

void Dispatcher::clock(bool rst, bool domain_valid, uint32_t domain_w, uint32_t domain_h,
                       const std::vector<bool>& can_start) {
  if (rst) {
    *this = Dispatcher(cores_, registered_);
    return;
  }
  const Grant g = grant(can_start);
  if (registered_) {
    // As rtl/dispatcher.v: the start registers take the grant (its item even in a
    // launch's cycle, whose grant starts nothing).
    if (g.valid) start_q_ = g;
    start_q_.valid = g.valid && !domain_valid;
  }
  if (domain_valid) {
    w_ = domain_w;
    h_ = domain_h;
    x_ = y_ = 0;
    have_ = w_ != 0 && h_ != 0;
    return;
  }
  if (!g.valid) return;
  first_ = g.core + 1 == cores_ ? 0 : g.core + 1;
  if (x_ + 1 == w_) {
    x_ = 0;
    ++y_;
    have_ = y_ != h_;
  } else {
    ++x_;
  }
}

}  // namespace umbra::scm
