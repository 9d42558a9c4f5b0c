#include "server/limits/memory_budget.h"

#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "server/base/idle_heap_trim.h"

namespace nqueens::server {

MemoryBudget::Reservation::Reservation(Reservation&& other) noexcept
    : budget_(std::exchange(other.budget_, nullptr)), bytes_(other.bytes_) {}

MemoryBudget::Reservation& MemoryBudget::Reservation::operator=(Reservation&& other) noexcept {
  if (this != &other) {
    if (budget_ != nullptr) budget_->Release(bytes_);
    budget_ = std::exchange(other.budget_, nullptr);
    bytes_ = other.bytes_;
  }
  return *this;
}

void MemoryBudget::Reservation::Absorb(Reservation&& other) {
  bytes_ += other.bytes_;
  other.budget_ = nullptr;
}

MemoryBudget::Reservation::~Reservation() {
  if (budget_ != nullptr) budget_->Release(bytes_);
}

namespace {

// Reservations from this size on trim the heap when they are made and when
// they end (see TrimHeap): completions from about 3 million rows on (other
// calls from 12 million), which take far longer than a trim
// (docs/constants.md, kTrimFromBytes).
constexpr uint64_t kTrimFromBytes = uint64_t{64} << 20;

// TrimHeap() (base/idle_heap_trim.h) here: a streamed board's chunks and gRPC's
// buffers are smaller than the mmap threshold, and glibc kept what they
// freed, on top of the next call's peak (docs/constants.md, kTrimFromBytes).

}  // namespace

std::optional<MemoryBudget::Reservation> MemoryBudget::Reserve(uint64_t bytes) {
  if (bytes >= kTrimFromBytes) TrimHeap();  // what earlier calls left behind
  absl::MutexLock lock(&mutex_);
  if (bytes > capacity_ - in_use_) return std::nullopt;
  in_use_ += bytes;
  return Reservation(this, bytes);
}

uint64_t MemoryBudget::in_use() const {
  absl::MutexLock lock(&mutex_);
  return in_use_;
}

uint64_t MemoryBudget::available() const {
  absl::MutexLock lock(&mutex_);
  return capacity_ - in_use_;
}

bool MemoryBudget::AwaitInUse(uint64_t bytes, absl::Time deadline) const {
  absl::MutexLock lock(&mutex_);
  const auto reached = [this, bytes] { return in_use_ == bytes; };  // under mutex_
  return mutex_.AwaitWithDeadline(absl::Condition(&reached), deadline);
}

void MemoryBudget::Release(uint64_t bytes) {
  {
    absl::MutexLock lock(&mutex_);
    in_use_ -= bytes;
  }
  if (bytes >= kTrimFromBytes) TrimHeap();
}

namespace {

constexpr uint64_t kDefaultPercent = 75;

uint64_t PhysicalMemory() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_size <= 0) return 0;
  return static_cast<uint64_t>(pages) * static_cast<uint64_t>(page_size);
}

std::optional<uint64_t> CgroupMemoryLimit() {
  // cgroup v2 (what Kubernetes and Docker use today), then v1.
  for (const char* path :
       {"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"}) {
    std::ifstream file(path);
    if (!file) continue;
    std::stringstream contents;
    contents << file.rdbuf();
    return ParseCgroupMemoryLimit(contents.str());
  }
  return std::nullopt;
}

}  // namespace

std::optional<uint64_t> ParseCgroupMemoryLimit(absl::string_view contents) {
  uint64_t limit = 0;
  if (!absl::SimpleAtoi(absl::StripAsciiWhitespace(contents), &limit)) return std::nullopt;
  return limit;
}

uint64_t DefaultMemoryBudget() {
  uint64_t usable = PhysicalMemory();
  // cgroup v1 reports "no limit" as a huge number; min() takes care of it.
  if (const std::optional<uint64_t> limit = CgroupMemoryLimit(); limit.has_value()) {
    usable = usable == 0 ? *limit : std::min(usable, *limit);
  }
  return usable / 100 * kDefaultPercent;
}

void ReturnLargeFreedBuffersToTheKernel() {
#ifdef __GLIBC__
  mallopt(M_MMAP_THRESHOLD, 1 << 20);
  mallopt(M_TRIM_THRESHOLD, 4 << 20);
  // One arena: our hot loops do not allocate, so more arenas buy no speed,
  // and malloc_trim() gives back the free top of the main arena only: a
  // second one kept free memory resident after a load run
  // (docs/constants.md, ReturnLargeFreedBuffersToTheKernel).
  mallopt(M_ARENA_MAX, 1);
#endif
}

}  // namespace nqueens::server
