// The memory budget's parts without a server: byte sizes as flags take them,
// reservations, the default budget and the per-call estimates.
#include "server/limits/memory_budget.h"

#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "nqueens/memory.h"
#include "server/base/byte_size.h"
#include "server/limits/memory_estimate.h"
#include "test_constants.h"

namespace nqueens::server {
namespace {

using testing::kMiB;
constexpr uint64_t kGiB = uint64_t{1} << 30;

TEST(ByteSizeTest, ParsesSuffixesAsPowersOf1024) {
  EXPECT_EQ(ParseByteSize("1048576"), 1048576u);
  EXPECT_EQ(ParseByteSize("2k"), 2048u);
  EXPECT_EQ(ParseByteSize("512M"), 512 * kMiB);
  EXPECT_EQ(ParseByteSize("512Mi"), 512 * kMiB);
  EXPECT_EQ(ParseByteSize("512MiB"), 512 * kMiB);
  EXPECT_EQ(ParseByteSize("4G"), 4 * kGiB);
  EXPECT_EQ(ParseByteSize("4gb"), 4 * kGiB);
  EXPECT_EQ(ParseByteSize("1T"), 1024 * kGiB);
  EXPECT_EQ(ParseByteSize("100B"), 100u);
}

TEST(ByteSizeTest, TakesAFractionOfAUnitRoundedDownToBytes) {
  EXPECT_EQ(ParseByteSize("1.5G"), 1536 * kMiB);
  EXPECT_EQ(ParseByteSize("0.5Gi"), 512 * kMiB);
  EXPECT_EQ(ParseByteSize("2.25M"), 2304u * 1024);
  EXPECT_EQ(ParseByteSize("1.1K"), 1126u);  // 1126.4 bytes
  EXPECT_EQ(ParseByteSize("0.000001T"), 1099511u);
}

TEST(ByteSizeTest, RejectsAnythingElse) {
  for (const char* text : {"", "G", "-1", "4X", "1.5", "1.G", ".5G", "1.2.3G", "1.0000001G", "4 G",
                           "4iB", "4GG", "auto", "99999999999999999999", "16777216T"}) {
    EXPECT_EQ(ParseByteSize(text), std::nullopt) << text;
  }
}

TEST(ByteSizeTest, FlagTextIsExactAndReadsBack) {
  EXPECT_EQ(ByteSizeFlagText(4 * kGiB), "4G");
  EXPECT_EQ(ByteSizeFlagText(1536 * kMiB), "1536M");
  EXPECT_EQ(ByteSizeFlagText(1000), "1000");
  for (uint64_t bytes : {uint64_t{1}, 1000 * kMiB + 1, 3 * kGiB, 2048 * kGiB}) {
    EXPECT_EQ(ParseByteSize(ByteSizeFlagText(bytes)), bytes);
  }
}

TEST(ByteSizeTest, HumanBytes) {
  EXPECT_EQ(HumanBytes(900), "900 B");
  EXPECT_EQ(HumanBytes(512 * kMiB), "512.0 MiB");
  EXPECT_EQ(HumanBytes(3 * kGiB / 2), "1.5 GiB");
}

TEST(MemoryBudgetTest, ReservesWhatFitsAndReleasesOnDestruction) {
  MemoryBudget budget(100);
  {
    std::optional<MemoryBudget::Reservation> first = budget.Reserve(60);
    ASSERT_TRUE(first.has_value());
    EXPECT_EQ(first->bytes(), 60u);
    EXPECT_EQ(budget.in_use(), 60u);
    EXPECT_EQ(budget.available(), 40u);
    EXPECT_FALSE(budget.Reserve(41).has_value());
    EXPECT_EQ(budget.in_use(), 60u);
    std::optional<MemoryBudget::Reservation> second = budget.Reserve(40);
    ASSERT_TRUE(second.has_value());
    EXPECT_EQ(budget.available(), 0u);
  }
  EXPECT_EQ(budget.in_use(), 0u);
  EXPECT_FALSE(budget.Reserve(101).has_value());
}

TEST(MemoryBudgetTest, AMovedReservationReleasesOnce) {
  MemoryBudget budget(100);
  std::optional<MemoryBudget::Reservation> reserved = budget.Reserve(30);
  ASSERT_TRUE(reserved.has_value());
  {
    MemoryBudget::Reservation moved = *std::move(reserved);
    reserved.reset();  // the moved-from one gives nothing back
    EXPECT_EQ(budget.in_use(), 30u);
    std::optional<MemoryBudget::Reservation> other = budget.Reserve(50);
    ASSERT_TRUE(other.has_value());
    moved = *std::move(other);  // gives back the 30 it held
    EXPECT_EQ(budget.in_use(), 50u);
  }
  EXPECT_EQ(budget.in_use(), 0u);
}

TEST(MemoryBudgetTest, AwaitInUseSeesTheCurrentValue) {
  MemoryBudget budget(100);
  std::optional<MemoryBudget::Reservation> reserved = budget.Reserve(30);
  EXPECT_TRUE(budget.AwaitInUse(30, absl::InfinitePast()));
  EXPECT_FALSE(budget.AwaitInUse(0, absl::InfinitePast()));
  reserved.reset();
  EXPECT_TRUE(budget.AwaitInUse(0, absl::InfinitePast()));
}

// Calls reserve and release from many threads at once (labelled
// `concurrency`: ThreadSanitizer runs this). Each thread holds a reservation
// while it checks that the budget is never overdrawn.
TEST(MemoryBudgetTest, ThreadsNeverOverdrawTheBudget) {
  constexpr int kThreads = 4;
  constexpr int kRounds = 2000;
  constexpr uint64_t kCapacity = 100;
  MemoryBudget budget(kCapacity);
  std::atomic<int> granted{0};
  std::atomic<bool> overdrawn{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&budget, &granted, &overdrawn, t] {
      for (int round = 0; round < kRounds; ++round) {
        // 30 to 50 bytes: two fit, three do not.
        std::optional<MemoryBudget::Reservation> reserved =
            budget.Reserve(30 + static_cast<uint64_t>((t + round) % 3) * 10);
        if (!reserved) continue;
        ++granted;
        if (budget.in_use() > kCapacity || budget.available() > kCapacity) overdrawn = true;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_FALSE(overdrawn);
  EXPECT_GT(granted.load(), 0);
  EXPECT_EQ(budget.in_use(), 0u);
  EXPECT_TRUE(budget.AwaitInUse(0, absl::InfinitePast()));
}

TEST(MemoryBudgetTest, CgroupLimitFiles) {
  EXPECT_EQ(ParseCgroupMemoryLimit("max\n"), std::nullopt);
  EXPECT_EQ(ParseCgroupMemoryLimit("2147483648\n"), 2 * kGiB);
  EXPECT_EQ(ParseCgroupMemoryLimit(""), std::nullopt);
}

TEST(MemoryBudgetTest, DefaultIsAtMostThreeQuartersOfPhysicalMemory) {
  const uint64_t physical = static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) *
                            static_cast<uint64_t>(sysconf(_SC_PAGE_SIZE));
  const uint64_t budget = DefaultMemoryBudget();
  EXPECT_GT(budget, 0u);
  EXPECT_LE(budget, physical / 4 * 3 + 100);
}

// One request's peak stays within 24 bytes per row (plus the fixed part) for
// a streamed completion of the largest default board.
TEST(MemoryEstimateTest, StreamedCompletionStaysWithin24BytesPerRow) {
  constexpr uint64_t kN = 100'000'000;
  const uint64_t streamed = PeakCallBytes(kCompletionWork, kN, {}, ResponseBoard::kNoneOrChunked);
  EXPECT_LE(streamed, kFixedCallBytes + 24 * kN);
}

// The server's estimate, with its worker's fixed part, covers the core's
// own peak for every kind of call, at every size and number of queens given.
TEST(MemoryEstimateTest, CoversTheCoresPeak) {
  for (uint64_t n : {uint64_t{1}, uint64_t{1'000}, uint64_t{1'000'000}, uint64_t{100'000'000},
                     uint64_t{1'000'000'000}}) {
    SCOPED_TRACE(n);
    const uint64_t completion =
        kFixedCallBytes + PeakCallBytes(kCompletionWork, n, {}, ResponseBoard::kNoneOrChunked);
    for (uint64_t given :
         {uint64_t{0}, uint64_t{1}, n / 2, n - std::min<uint64_t>(n, 1024), n - 1}) {
      EXPECT_GE(completion, CompletePeakBytes(n, given)) << given << " queens given";
    }
    for (const SolveMethodInfo& method : SolveMethods()) {
      for (uint32_t symmetry : {0u, 1u}) {
        const Work solve{Work::Kind::kSolve, method.method, symmetry};
        EXPECT_GE(kFixedCallBytes + PeakCallBytes(solve, n, {}, ResponseBoard::kNoneOrChunked),
                  SolvePeakBytes(n, method.method, symmetry))
            << method.name << " symmetry " << symmetry;
      }
    }
    EXPECT_GE(
        kFixedCallBytes + PeakCallBytes(kValidationWork, n, {}, ResponseBoard::kNoneOrChunked),
        ValidatePeakBytes(n));
  }
}

TEST(MemoryEstimateTest, CountsWhatTheRequestAndResponseHold) {
  const Work construction{Work::Kind::kSolve, SolveMethod::kConstructive};
  constexpr uint64_t kN = 1'000'000;
  const uint64_t sparse = PeakCallBytes(kCompletionWork, kN, {0, 10}, ResponseBoard::kOneMessage);
  const uint64_t dense = PeakCallBytes(kCompletionWork, kN, {kN, 0}, ResponseBoard::kOneMessage);
  EXPECT_GT(dense, sparse);
  EXPECT_GT(sparse, PeakCallBytes(kCompletionWork, kN, {}, ResponseBoard::kOneMessage));
  // Construction needs the board only; sending it whole costs a copy or two.
  EXPECT_GT(PeakCallBytes(construction, kN, {}, ResponseBoard::kOneMessage),
            PeakCallBytes(construction, kN, {}, ResponseBoard::kNoneOrChunked));
}

}  // namespace
}  // namespace nqueens::server
