// The frontier counter (core/src/count/frontier_count.h) against a plain
// depth-first count of the same residual board, under every way of cutting
// its work: from no level to every level breadth first, batches and
// frontiers from a single try up, below prefixes; and its stops.
#include "count/frontier_count.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "count/residual.h"
#include "count/residual_search.h"
#include "counting_stop.h"
#include "gtest/gtest.h"
#include "test_boards.h"

namespace nqueens::internal {
namespace {

uint64_t DepthFirstCount(const ShiftGeometry& geometry, size_t levels,
                         absl::Span<const uint64_t> prefix) {
  const StopCondition never;
  StopPoller stop(never);
  Dfs<ShiftGeometry> dfs(geometry, levels, prefix);
  uint64_t leaves = 0;
  dfs.Search(
      [&leaves](const uint64_t*) {
        ++leaves;
        return true;
      },
      [](uint64_t) {}, stop);
  return leaves;
}

uint64_t FrontierCount(const ShiftGeometry& geometry, size_t levels,
                       absl::Span<const uint64_t> prefix, const FrontierOptions& options) {
  const StopCondition never;
  StopPoller stop(never);
  absl::StatusOr<CountPart> part = CountByFrontiers(geometry, levels, prefix, stop, options);
  EXPECT_TRUE(part.ok()) << part.status();
  return part.ok() ? part->solutions : UINT64_MAX;
}

// Sub-compositions of random solutions (which extend) and random
// compositions (which mostly do not), 4 to 13 free rows.
std::vector<Columns> Compositions() {
  std::vector<Columns> compositions = {Columns(12, kEmptyRow), Columns(13, kEmptyRow)};
  for (uint64_t seed = 1; seed <= 16; ++seed) {
    const auto n = static_cast<uint32_t>(8 + seed % 10);
    const auto free_rows = std::min(n, static_cast<uint32_t>(4 + seed % 9));
    const Columns solution = test_boards::RandomSolution(n, seed);
    compositions.push_back(test_boards::RandomSubComposition(solution, n - free_rows, seed));
    compositions.push_back(test_boards::RandomComposition(n, n - free_rows, seed));
  }
  return compositions;
}

std::vector<FrontierOptions> EveryCut() {
  std::vector<FrontierOptions> cuts;
  for (size_t breadth : {0, 1, 3, 5, 64}) {
    for (uint64_t batch : {1, 7, 1024}) {
      for (uint64_t most : {1, 9, 16384}) cuts.push_back({breadth, batch, most});
    }
  }
  return cuts;
}

TEST(FrontierCountTest, CountsWhatADepthFirstSearchCounts) {
  for (const Columns& composition : Compositions()) {
    const Residual residual = ResidualOf(composition);
    const ShiftGeometry geometry(residual);
    const size_t levels = residual.rows.size();
    if (levels < 3) continue;
    const uint64_t expected = DepthFirstCount(geometry, levels, {});
    for (const FrontierOptions& cut : EveryCut()) {
      EXPECT_EQ(FrontierCount(geometry, levels, {}, cut), expected)
          << "n = " << composition.size() << ", " << levels << " free rows, breadth "
          << cut.breadth_levels << ", batch " << cut.batch_tries << ", frontier "
          << cut.max_frontier_tries;
    }
  }
}

TEST(FrontierCountTest, CountsBelowEachPrefix) {
  for (const Columns& composition : Compositions()) {
    const Residual residual = ResidualOf(composition);
    const ShiftGeometry geometry(residual);
    const size_t levels = residual.rows.size();
    if (levels < 5) continue;
    const uint64_t first_open = ~geometry.blocked(0);
    for (uint64_t open = first_open; open != 0; open &= open - 1) {
      const uint64_t first = open & (~open + 1);
      const uint64_t second_open =
          ~((first << geometry.gap(0)) | first | (first >> geometry.gap(0)) | geometry.blocked(1));
      for (uint64_t rest = second_open; rest != 0; rest &= rest - 1) {
        const std::vector<uint64_t> prefix = {first, rest & (~rest + 1)};
        const uint64_t expected = DepthFirstCount(geometry, levels, prefix);
        for (const FrontierOptions& cut : {FrontierOptions{}, FrontierOptions{1, 1, 1}}) {
          EXPECT_EQ(FrontierCount(geometry, levels, prefix, cut), expected)
              << "n = " << composition.size() << ", prefix " << first << " " << prefix[1];
        }
      }
    }
  }
}

TEST(FrontierCountTest, StopsAtAnyPoll) {
  const Residual residual = ResidualOf(Columns(13, kEmptyRow));
  const ShiftGeometry geometry(residual);
  const size_t levels = residual.rows.size();
  test_stop::CountingStop never;
  {
    StopPoller stop(never.condition());
    ASSERT_TRUE(CountByFrontiers(geometry, levels, {}, stop).ok());
  }
  // A poll at least every StopPoller::kStride tries and every frontier.
  ASSERT_GE(never.polls(), 10u);
  for (const uint64_t stop_at : {uint64_t{1}, never.polls() / 2, never.polls()}) {
    test_stop::CountingStop stopping(stop_at);
    StopPoller stop(stopping.condition());
    const absl::StatusOr<CountPart> part = CountByFrontiers(geometry, levels, {}, stop);
    EXPECT_FALSE(part.ok()) << "stopped at poll " << stop_at;
    EXPECT_EQ(stopping.polls(), stop_at);
  }
}

}  // namespace
}  // namespace nqueens::internal
