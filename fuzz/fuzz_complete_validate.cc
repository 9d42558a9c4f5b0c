// The core's Validate and Complete (core/include/nqueens/validate.h,
// solver.h) on small boards derived from the bytes, checked against code
// written here: an O(n^2) count of attacking pairs and, for n <= 10, a
// brute-force search for an extension.
//
// Input:
//   byte 0      n = byte % 33 (0..32; 0 must be rejected)
//   byte 1      flags: bit 0 keeps only the queens that do not attack an
//               earlier one (so that most inputs are compositions and
//               Complete gets to search); bit 1 lets columns reach n + 1
//               (out of range, must be rejected)
//   bytes 2-9   the seed of Complete, little-endian
//   then        one byte per row: its column, modulo n + 1 (or n + 2)
// Missing bytes read as 0 (an empty row).
//
// Invariants: Validate's queen count, attacking pairs, valid and complete
// agree with the harness's count, and every reported conflict names two
// queens of the board on the line it says, the first the topmost there.
// Complete rejects every non-composition with INVALID_ARGUMENT; on a
// composition SOLVED returns a full solution keeping every given queen, and
// for n <= 10 SOLVED and UNSOLVABLE agree with the brute force. Small
// search limits keep each input to milliseconds; UNDECIDED claims nothing.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "fuzz_check.h"
#include "nqueens/board.h"
#include "nqueens/solver.h"
#include "nqueens/validate.h"

namespace {

constexpr uint32_t kMaxN = 32;
constexpr uint32_t kMaxBruteForceN = 10;

bool Attack(uint64_t row_a, uint64_t column_a, uint64_t row_b, uint64_t column_b) {
  const uint64_t rows = row_a > row_b ? row_a - row_b : row_b - row_a;
  const uint64_t columns = column_a > column_b ? column_a - column_b : column_b - column_a;
  return columns == 0 || rows == columns;
}

// Whether the cell (row, column) lies on the line of kind `line` through
// `queen`.
bool OnLine(nqueens::AttackLine line, const nqueens::Queen& queen, uint64_t row, uint64_t column) {
  switch (line) {
    case nqueens::AttackLine::kColumn:
      return column == queen.column;
    case nqueens::AttackLine::kDiagonal:
      return column + queen.row == queen.column + row;
    case nqueens::AttackLine::kAntiDiagonal:
      return row + column == uint64_t{queen.row} + queen.column;
  }
  return false;
}

uint64_t CountAttackingPairs(const std::vector<uint32_t>& q) {
  uint64_t pairs = 0;
  for (size_t a = 0; a < q.size(); ++a) {
    for (size_t b = a + 1; b < q.size(); ++b) {
      if (q[a] != 0 && q[b] != 0 && Attack(a, q[a], b, q[b])) ++pairs;
    }
  }
  return pairs;
}

// Fills the empty rows of `q` (a composition) from `row` on, by trying every
// column; true when a full solution exists.
bool BruteForceExtends(std::vector<uint32_t>& q, size_t row) {
  if (row == q.size()) return true;
  if (q[row] != 0) return BruteForceExtends(q, row + 1);
  for (uint32_t column = 1; column <= q.size(); ++column) {
    bool free = true;
    for (size_t other = 0; other < q.size() && free; ++other) {
      if (q[other] != 0 && Attack(row, column, other, q[other])) free = false;
    }
    if (!free) continue;
    q[row] = column;
    if (BruteForceExtends(q, row + 1)) {
      q[row] = 0;
      return true;
    }
    q[row] = 0;
  }
  return false;
}

void CheckValidate(const std::vector<uint32_t>& q, bool in_range) {
  nqueens::ValidateOptions options;
  options.max_conflicts = 4;
  absl::StatusOr<nqueens::ValidationReport> report = nqueens::Validate(q, options);
  if (q.empty() || !in_range) {
    FUZZ_CHECK(report.status().code() == absl::StatusCode::kInvalidArgument,
               "Validate accepted n = %zu or a column above n", q.size());
    return;
  }
  FUZZ_CHECK(report.ok(), "Validate: %s", report.status().ToString().c_str());
  uint64_t queens = 0;
  for (uint32_t column : q) queens += column != 0;
  const uint64_t pairs = CountAttackingPairs(q);
  FUZZ_CHECK(report->n == q.size(), "n");
  FUZZ_CHECK(report->queen_count == queens, "queen_count %llu, expected %llu",
             static_cast<unsigned long long>(report->queen_count),
             static_cast<unsigned long long>(queens));
  FUZZ_CHECK(report->attacking_pairs == pairs, "attacking_pairs %llu, expected %llu",
             static_cast<unsigned long long>(report->attacking_pairs),
             static_cast<unsigned long long>(pairs));
  FUZZ_CHECK(report->valid == (pairs == 0), "valid");
  FUZZ_CHECK(report->complete == (pairs == 0 && queens == q.size()), "complete");
  FUZZ_CHECK(report->conflicts.size() <= options.max_conflicts, "too many conflicts");
  FUZZ_CHECK(report->conflicts.empty() == (pairs == 0), "conflicts without pairs or back");
  for (const nqueens::Conflict& conflict : report->conflicts) {
    const nqueens::Queen& first = conflict.first;
    const nqueens::Queen& second = conflict.second;
    FUZZ_CHECK(first.row >= 1 && first.row < second.row && second.row <= q.size(),
               "conflict rows %u, %u", first.row, second.row);
    FUZZ_CHECK(q[first.row - 1] == first.column && q[second.row - 1] == second.column,
               "conflict names queens not on the board");
    FUZZ_CHECK(OnLine(conflict.line, first, second.row, second.column),
               "conflict's queens are not on its line");
    for (uint32_t row = 1; row < first.row; ++row) {
      FUZZ_CHECK(q[row - 1] == 0 || !OnLine(conflict.line, first, row, q[row - 1]),
                 "conflict's first queen is not the topmost of its line");
    }
  }
}

void CheckComplete(const std::vector<uint32_t>& q, bool in_range, uint64_t seed) {
  const bool composition = !q.empty() && in_range && CountAttackingPairs(q) == 0;
  nqueens::CompleteOptions options;
  options.seed = seed;
  // Limits that keep an input to milliseconds. No deadline: a wall-clock
  // stop would turn a starved process (a busy machine) into a false finding;
  // the fuzzer's -timeout reports a hang.
  options.params.tot_sim_bound = 200;
  options.params.max_restarts = 2;
  options.params.exact_node_budget = 100000;
  absl::StatusOr<nqueens::CompletionResult> result = nqueens::Complete(q, options);
  if (!composition) {
    FUZZ_CHECK(result.status().code() == absl::StatusCode::kInvalidArgument,
               "Complete on a non-composition: %s", result.status().ToString().c_str());
    return;
  }
  FUZZ_CHECK(result.ok(), "Complete: %s", result.status().ToString().c_str());
  std::vector<uint32_t> scratch = q;
  const bool brute_force = q.size() <= kMaxBruteForceN;
  const bool extends = brute_force && BruteForceExtends(scratch, 0);
  switch (result->outcome) {
    case nqueens::Outcome::kSolved: {
      const std::vector<uint32_t>& solution = result->columns;
      FUZZ_CHECK(solution.size() == q.size(), "SOLVED with %zu rows", solution.size());
      for (size_t row = 0; row < q.size(); ++row) {
        FUZZ_CHECK(solution[row] >= 1 && solution[row] <= q.size(), "row %zu empty", row + 1);
        FUZZ_CHECK(q[row] == 0 || solution[row] == q[row], "row %zu: given queen moved", row + 1);
      }
      FUZZ_CHECK(CountAttackingPairs(solution) == 0, "SOLVED board has attacks");
      absl::StatusOr<nqueens::ValidationReport> report = nqueens::Validate(solution);
      FUZZ_CHECK(report.ok() && report->complete, "SOLVED board does not validate");
      FUZZ_CHECK(!brute_force || extends, "SOLVED where brute force finds nothing");
      break;
    }
    case nqueens::Outcome::kUnsolvable:
      FUZZ_CHECK(result->columns.empty(), "UNSOLVABLE with a board");
      FUZZ_CHECK(!brute_force || !extends, "UNSOLVABLE but brute force extends it");
      break;
    case nqueens::Outcome::kUndecided:
      FUZZ_CHECK(result->columns.empty(), "UNDECIDED with a board");
      break;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  size_t position = 0;
  const auto next = [&]() -> uint8_t { return position < size ? data[position++] : 0; };
  const uint32_t n = next() % (kMaxN + 1);
  const uint8_t flags = next();
  uint64_t seed = 0;
  for (int i = 0; i < 8; ++i) seed |= uint64_t{next()} << (8 * i);

  std::vector<uint32_t> q(n, 0);
  bool in_range = true;
  for (uint32_t row = 0; row < n; ++row) {
    const uint32_t column = next() % (n + ((flags & 2) ? 2 : 1));
    if (column > n) in_range = false;
    q[row] = column;
    if ((flags & 1) && column != 0 && column <= n) {
      for (uint32_t earlier = 0; earlier < row; ++earlier) {
        if (q[earlier] != 0 && q[earlier] <= n && Attack(earlier, q[earlier], row, column)) {
          q[row] = 0;
          break;
        }
      }
    }
  }
  CheckValidate(q, in_range);
  CheckComplete(q, in_range, seed);
  return 0;
}
