#include "exact/search_driver.h"

#include <algorithm>
#include <cstdint>

namespace nqueens::internal {

bool NodeAllowance::Grant() {
  if (shared_ == nullptr) return false;
  const uint64_t before = shared_->fetch_add(kGrant);
  if (before >= budget_) return false;
  granted_ += std::min(kGrant, budget_ - before);
  return true;
}

}  // namespace nqueens::internal
