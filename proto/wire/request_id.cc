#include "wire/request_id.h"

#include <algorithm>
#include <cstdint>
#include <random>

#include "absl/strings/str_cat.h"

namespace nqueens::wire {
namespace {

// Ids must be unique, not secret: an engine seeded once per thread from the
// system's entropy makes one without a system call.
std::mt19937_64 SeededEngine() {
  std::random_device device;
  std::seed_seq seed{device(), device(), device(), device(), device(), device()};
  return std::mt19937_64(seed);
}

}  // namespace

bool IsUsableRequestId(absl::string_view id) {
  return !id.empty() && id.size() <= kMaxRequestIdLength &&
         std::all_of(id.begin(), id.end(), [](char c) { return c >= '!' && c <= '~'; });
}

std::string NewRequestId() {
  thread_local std::mt19937_64 engine = SeededEngine();
  const uint64_t high = engine();
  const uint64_t low = engine();
  return absl::StrCat(absl::Hex(high, absl::kZeroPad16), absl::Hex(low, absl::kZeroPad16));
}

}  // namespace nqueens::wire
