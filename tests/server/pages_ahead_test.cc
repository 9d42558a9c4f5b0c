// PagesAhead puts in the pages of a window past the rows reached, and none
// further; mincore() tells which pages are in. Waits are bounded polls of
// its progress, no sleeps standing in for an order of events.
#include "server/base/pages_ahead.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <vector>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"
#include "test_constants.h"

namespace nqueens::server {
namespace {

using testing::kMiB;
constexpr uint64_t kBytes = 64 * kMiB;
using testing::kPatience;

// kBytes of fresh memory, 2 MiB aligned (as a board's room is in practice).
class FreshMemory {
 public:
  FreshMemory() {
    void* mapped = mmap(nullptr, kBytes + 2 * kMiB, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    EXPECT_NE(mapped, MAP_FAILED);
    mapped_ = static_cast<char*>(mapped);
    const uintptr_t start = reinterpret_cast<uintptr_t>(mapped_);
    memory_ = reinterpret_cast<char*>((start + 2 * kMiB - 1) & ~(2 * kMiB - 1));
  }
  ~FreshMemory() { munmap(mapped_, kBytes + 2 * kMiB); }
  FreshMemory(const FreshMemory&) = delete;
  FreshMemory& operator=(const FreshMemory&) = delete;

  char* get() const { return memory_; }

  // The pages of [from, to) in memory.
  uint64_t ResidentBytes(uint64_t from, uint64_t to) const {
    const auto page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
    std::vector<unsigned char> in((to - from) / page);
    EXPECT_EQ(mincore(memory_ + from, to - from, in.data()), 0);
    uint64_t resident = 0;
    for (const unsigned char flags : in) resident += (flags & 1) != 0 ? page : 0;
    return resident;
  }

 private:
  char* mapped_ = nullptr;
  char* memory_ = nullptr;
};

bool KernelPopulatesAhead() {
  FreshMemory probe;
  return madvise(probe.get(), 2 * kMiB, MADV_POPULATE_WRITE) == 0;
}

// Waits, bounded, until `ahead` has put in `bytes`.
bool WaitForPopulated(const PagesAhead& ahead, uint64_t bytes) {
  const absl::Time give_up = absl::Now() + kPatience;
  while (ahead.populated() < bytes && absl::Now() < give_up) absl::SleepFor(absl::Milliseconds(1));
  return ahead.populated() == bytes;
}

TEST(PagesAheadTest, StaysAWindowAheadOfTheRows) {
  if (!KernelPopulatesAhead()) GTEST_SKIP() << "this kernel lacks MADV_POPULATE_WRITE";
  FreshMemory memory;
  PagesAhead ahead(memory.get(), kBytes, 8 * kMiB);
  ASSERT_TRUE(WaitForPopulated(ahead, 8 * kMiB));
  EXPECT_EQ(memory.ResidentBytes(0, 8 * kMiB), 8 * kMiB);
  EXPECT_EQ(memory.ResidentBytes(8 * kMiB, kBytes), 0u);

  ahead.Reached(40 * kMiB + 12345);  // within a page: the window ends on a whole one
  ASSERT_TRUE(WaitForPopulated(ahead, 48 * kMiB));
  EXPECT_EQ(memory.ResidentBytes(0, 48 * kMiB), 48 * kMiB);
  EXPECT_EQ(memory.ResidentBytes(48 * kMiB, kBytes), 0u);

  ahead.Reached(kBytes);
  EXPECT_TRUE(WaitForPopulated(ahead, kBytes));
}

TEST(PagesAheadTest, StopsWhileWaitingForRows) {
  if (!KernelPopulatesAhead()) GTEST_SKIP() << "this kernel lacks MADV_POPULATE_WRITE";
  FreshMemory memory;
  {
    PagesAhead ahead(memory.get(), kBytes, 2 * kMiB);
    ASSERT_TRUE(WaitForPopulated(ahead, 2 * kMiB));
  }
  EXPECT_EQ(memory.ResidentBytes(2 * kMiB, kBytes), 0u);
}

}  // namespace
}  // namespace nqueens::server
