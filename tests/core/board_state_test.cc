#include "pipeline/board_state.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/bit_array.h"
#include "base/huge_pages.h"
#include "base/stop_poller.h"
#include "gtest/gtest.h"
#include "nqueens/solver.h"
#include "nqueens/threads.h"
#include "test_boards.h"

namespace nqueens::internal {
namespace {

// For the calls that take a poller: one whose condition never fires.
StopPoller& NeverStop() {
  static const StopCondition never;
  static StopPoller poller(never);
  return poller;
}

// Boards of 5,000 rows cross PlaceGivenQueens' blocks of 4,096 rows.
constexpr uint32_t kSizes[] = {1, 5, 64, 1000, 5000};

Columns SubCompositionOf(uint32_t n, uint32_t k, uint64_t seed) {
  const Columns solution = test_boards::RandomSolution(n, seed);
  return test_boards::RandomSubComposition(solution, k, seed + 1);
}

TEST(BoardStateTest, FreeLinesAreThoseOfTheComposition) {
  for (uint32_t n : kSizes) {
    for (uint32_t k : {0u, n / 3, n - n / 4, n}) {
      const Columns composition = SubCompositionOf(n, k, n + k);
      std::vector<uint32_t> expected_rows;
      std::vector<bool> column_used(n + 1, false);
      for (uint32_t row = 1; row <= n; ++row) {
        if (composition[row - 1] == kEmptyRow) expected_rows.push_back(row);
        column_used[composition[row - 1]] = true;
      }
      std::vector<uint32_t> expected_columns;
      for (uint32_t column = 1; column <= n; ++column) {
        if (!column_used[column]) expected_columns.push_back(column);
      }
      absl::StatusOr<BoardState> state = BoardState::Create(composition, NeverStop());
      ASSERT_TRUE(state.ok()) << state.status();
      EXPECT_EQ(state->queens(), n - expected_rows.size());
      HugeVector<uint32_t> rows, columns;
      ASSERT_TRUE(state->FreeRows(rows, NeverStop()));
      ASSERT_TRUE(state->FreeColumns(columns, NeverStop()));
      EXPECT_EQ(std::vector<uint32_t>(rows.begin(), rows.end()), expected_rows) << n << " " << k;
      EXPECT_EQ(std::vector<uint32_t>(columns.begin(), columns.end()), expected_columns)
          << n << " " << k;
      // One allocation of the list's size: grown by doubling, it would take
      // up to three times that at its peak.
      EXPECT_EQ(columns.capacity(), expected_columns.size()) << n << " " << k;
    }
  }
}

TEST(BoardStateTest, RejectsAttackingQueensNamingTheirRows) {
  Columns composition(5000, kEmptyRow);
  composition[4499] = 7;  // rows 4500 and 4502 share a diagonal
  composition[4501] = 9;
  const absl::StatusOr<BoardState> state = BoardState::Create(composition, NeverStop());
  ASSERT_EQ(state.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(state.status().message().find("4500"), std::string::npos) << state.status();
  EXPECT_NE(state.status().message().find("4502"), std::string::npos) << state.status();
}

TEST(BoardStateTest, RejectsAColumnOffTheBoard) {
  Columns composition(100, kEmptyRow);
  composition[41] = 101;
  const absl::StatusOr<BoardState> state = BoardState::Create(composition, NeverStop());
  ASSERT_EQ(state.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(state.status().message().find("42"), std::string::npos) << state.status();
}

// Boards from this size on are placed on two threads when the call has them.
constexpr uint32_t kTwoThreadRows = (uint32_t{1} << 20) + 3;

SearchThreads TwoThreads() {
  SearchThreads threads;
  threads.count = 2;
  return threads;
}

// `other` holds what `state` holds: the board, its queens, its free lines
// and the diagonals through a spread of free cells.
void ExpectSameState(const BoardState& other, const BoardState& state) {
  EXPECT_EQ(other.queens(), state.queens());
  EXPECT_EQ(other.columns(), state.columns());
  HugeVector<uint32_t> rows, other_rows, columns, other_columns;
  ASSERT_TRUE(state.FreeRows(rows, NeverStop()) && other.FreeRows(other_rows, NeverStop()));
  ASSERT_TRUE(state.FreeColumns(columns, NeverStop()) &&
              other.FreeColumns(other_columns, NeverStop()));
  EXPECT_EQ(other_rows, rows);
  EXPECT_EQ(other_columns, columns);
  for (size_t i = 0; i < rows.size(); i += 97) {
    const uint32_t column = columns[(i * 7919) % columns.size()];
    EXPECT_EQ(other.DiagonalsFree(rows[i], column), state.DiagonalsFree(rows[i], column));
  }
}

TEST(BoardStateTest, TwoThreadsPlaceTheGivenQueensAsOneDoes) {
  // From the explicit construction: a random solution this large takes the
  // tests' simple solver too long.
  const std::optional<Columns> solution = ConstructSolution(kTwoThreadRows);
  ASSERT_TRUE(solution.has_value());
  const Columns composition = test_boards::RandomSubComposition(*solution, kTwoThreadRows / 2, 11);
  absl::StatusOr<BoardState> one = BoardState::Create(composition, NeverStop());
  absl::StatusOr<BoardState> two = BoardState::Create(composition, NeverStop(), TwoThreads());
  ASSERT_TRUE(one.ok()) << one.status();
  ASSERT_TRUE(two.ok()) << two.status();
  EXPECT_EQ(two->columns(), composition);
  ExpectSameState(*two, *one);
}

TEST(BoardStateTest, RowsPlacedAsTheyArriveGiveTheStateCreateGives) {
  for (uint32_t n : kSizes) {
    for (uint32_t k : {0u, n / 3, n}) {
      const Columns composition = SubCompositionOf(n, k, n + k);
      absl::StatusOr<BoardState> created = BoardState::Create(composition, NeverStop());
      ASSERT_TRUE(created.ok()) << created.status();
      // Pieces of 999 rows, across the blocks of 4,096; Adopt places the
      // last third.
      BoardState incoming = BoardState::Incoming(n);
      const uint32_t placed = n - n / 3;
      for (uint32_t first = 1; first <= placed; first += 999) {
        ASSERT_TRUE(incoming.PlaceRows(composition.data(), first, std::min(placed, first + 998)));
      }
      absl::StatusOr<BoardState> adopted =
          BoardState::Adopt(std::move(incoming), placed, composition, NeverStop());
      ASSERT_TRUE(adopted.ok()) << adopted.status();
      ExpectSameState(*adopted, *created);
    }
  }
}

TEST(BoardStateTest, RowsPlacedAsTheyArriveRefuseAttacks) {
  Columns composition(5000, kEmptyRow);
  composition[4499] = 7;  // rows 4500 and 4502 share a diagonal
  composition[4501] = 9;
  BoardState incoming = BoardState::Incoming(5000);
  EXPECT_TRUE(incoming.PlaceRows(composition.data(), 1, 4500));
  EXPECT_FALSE(incoming.PlaceRows(composition.data(), 4501, 5000));
  // Adopt places rows 4501 on by itself, and names the rows.
  BoardState half = BoardState::Incoming(5000);
  ASSERT_TRUE(half.PlaceRows(composition.data(), 1, 4500));
  const absl::StatusOr<BoardState> adopted =
      BoardState::Adopt(std::move(half), 4500, composition, NeverStop());
  ASSERT_EQ(adopted.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(adopted.status().message().find("4500"), std::string::npos) << adopted.status();
  EXPECT_NE(adopted.status().message().find("4502"), std::string::npos) << adopted.status();
  EXPECT_EQ(BoardState::Adopt(BoardState::Incoming(10), 0, Columns(9, kEmptyRow), NeverStop())
                .status()
                .code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(BoardStateTest, TwoThreadsRejectAttacksNamingTheRows) {
  // Rows 700000 and 900000 share column 5; rows 800000 and 800002 a
  // diagonal; row 1000000 stands off the board.
  const std::vector<std::vector<std::pair<uint32_t, uint32_t>>> cases = {
      {{700000, 5}, {900000, 5}},
      {{800000, 7}, {800002, 9}},
      {{1000000, kTwoThreadRows + 1}},
  };
  for (const auto& queens : cases) {
    Columns composition(kTwoThreadRows, kEmptyRow);
    for (const auto& [row, column] : queens) composition[row - 1] = column;
    const absl::StatusOr<BoardState> state =
        BoardState::Create(composition, NeverStop(), TwoThreads());
    ASSERT_EQ(state.status().code(), absl::StatusCode::kInvalidArgument);
    for (const auto& [row, column] : queens) {
      EXPECT_NE(state.status().message().find(std::to_string(row)), std::string::npos)
          << state.status();
    }
  }
}

TEST(BoardStateTest, TryClaimDiagonalsClaimsOnlyFreeCells) {
  absl::StatusOr<BoardState> state = BoardState::Create(Columns(8, kEmptyRow), NeverStop());
  ASSERT_TRUE(state.ok());
  EXPECT_TRUE(state->TryClaimDiagonals(1, 1));   // claims the main diagonal
  EXPECT_FALSE(state->TryClaimDiagonals(5, 5));  // on it
  EXPECT_FALSE(state->TryClaimDiagonals(2, 2));  // on it
  EXPECT_TRUE(state->TryClaimDiagonals(2, 4));
  EXPECT_FALSE(state->TryClaimDiagonals(3, 3));  // anti-diagonal of (2, 4)
  EXPECT_TRUE(state->DiagonalsFree(3, 6));
  EXPECT_FALSE(state->DiagonalsFree(2, 4));
}

TEST(BoardStateTest, RestoreGoesBackToTheInput) {
  const Columns composition = SubCompositionOf(1000, 400, 3);
  absl::StatusOr<BoardState> state = BoardState::Create(composition, NeverStop());
  ASSERT_TRUE(state.ok());
  HugeVector<uint32_t> rows, columns;
  ASSERT_TRUE(state->FreeRows(rows, NeverStop()));
  ASSERT_TRUE(state->FreeColumns(columns, NeverStop()));
  for (size_t i = 0; i < rows.size(); ++i) {
    if (state->DiagonalsFree(rows[i], columns[i])) state->Place(rows[i], columns[i]);
  }
  ASSERT_GT(state->queens(), 400u);
  ASSERT_TRUE(state->Restore(NeverStop()));
  EXPECT_EQ(state->queens(), 400u);
  EXPECT_EQ(state->columns(), composition);
  HugeVector<uint32_t> rows_again;
  ASSERT_TRUE(state->FreeRows(rows_again, NeverStop()));
  EXPECT_EQ(rows_again, rows);
}

TEST(BitArrayTest, ForEachClearVisitsTheClearBitsOfARange) {
  BitArray bits(300);
  std::vector<bool> set(300, false);
  for (size_t i : {0, 1, 63, 64, 65, 127, 128, 200, 255, 256, 299}) {
    bits.Set(i);
    set[i] = true;
  }
  for (auto [first, last] : {std::pair<size_t, size_t>{0, 300},
                             {1, 64},
                             {63, 66},
                             {64, 128},
                             {70, 70},
                             {100, 257},
                             {255, 300}}) {
    std::vector<size_t> expected, visited;
    for (size_t i = first; i < last; ++i) {
      if (!set[i]) expected.push_back(i);
    }
    bits.ForEachClear(first, last, [&visited](size_t i) {
      visited.push_back(i);
      return true;
    });
    EXPECT_EQ(visited, expected) << first << ".." << last;
  }
  size_t calls = 0;
  bits.ForEachClear(0, 300, [&calls](size_t) { return ++calls < 3; });
  EXPECT_EQ(calls, 3u);  // stops when told
}

TEST(HugePagesTest, LargeArraysAreAlignedToHugePagesAndUsable) {
  for (size_t count : {size_t{10}, size_t{1} << 18, size_t{3} << 20}) {
    HugeVector<uint32_t> values(count, 7);
    if (count * sizeof(uint32_t) >= (size_t{2} << 20)) {
      EXPECT_EQ(reinterpret_cast<uintptr_t>(values.data()) % (size_t{2} << 20), 0u) << count;
    }
    values.back() = 9;
    EXPECT_EQ(values.front() + values.back(), 16u);
  }
}

}  // namespace
}  // namespace nqueens::internal
