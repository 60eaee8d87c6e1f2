// dispatcher (dispatcher.h).
#include "dispatcher.h"

namespace umbra::scm {

Dispatcher::Grant Dispatcher::grant(const std::vector<bool>& can_start) const {
  Grant g;
  if (!have_) return g;
  for (unsigned k = 0, c = first_; k < cores_; ++k, c = c + 1 == cores_ ? 0 : c + 1)
    if (can_start[c]) return {true, c, x_, y_};
  return g;
}

void Dispatcher::clock(bool rst, bool domain_valid, uint32_t domain_w, uint32_t domain_h,
                       const std::vector<bool>& can_start) {
  if (rst) {
    *this = Dispatcher(cores_);
    return;
  }
  if (domain_valid) {
    w_ = domain_w;
    h_ = domain_h;
    x_ = y_ = 0;
    have_ = w_ != 0 && h_ != 0;
    return;
  }
  const Grant g = grant(can_start);
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
