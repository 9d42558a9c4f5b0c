#include "nqueens/seed.h"

#include <cstdint>
#include <set>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace nqueens {
namespace {

// Seeds from several threads at once never repeat, and consecutive ones
// share no pattern of bits (each differs from the last in about half of them).
TEST(FreshSeedTest, SeedsFromManyThreadsAreDistinctAndUnrelated) {
  constexpr int kThreads = 4;
  constexpr int kSeedsEach = 10'000;
  std::vector<std::vector<uint64_t>> seeds(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&seeds, t] {
      for (int i = 0; i < kSeedsEach; ++i) seeds[t].push_back(FreshSeed());
    });
  }
  for (std::thread& thread : threads) thread.join();
  std::set<uint64_t> distinct;
  uint64_t differing_bits = 0;
  for (const std::vector<uint64_t>& own : seeds) {
    distinct.insert(own.begin(), own.end());
    for (size_t i = 1; i < own.size(); ++i) {
      differing_bits += static_cast<uint64_t>(__builtin_popcountll(own[i] ^ own[i - 1]));
    }
  }
  EXPECT_EQ(distinct.size(), static_cast<size_t>(kThreads * kSeedsEach));
  const double mean = static_cast<double>(differing_bits) / (kThreads * (kSeedsEach - 1));
  EXPECT_GT(mean, 30.0);
  EXPECT_LT(mean, 34.0);
}

}  // namespace
}  // namespace nqueens
