#include "nqueens/validate.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/base/attributes.h"
#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "base/bit_array.h"
#include "base/validation.h"

namespace nqueens {
namespace {

constexpr std::array<AttackLine, 3> kLines = {AttackLine::kColumn, AttackLine::kDiagonal,
                                              AttackLine::kAntiDiagonal};

// The index of the line of kind `line` through (row, column) of an n x n
// board: the column j, the diagonal r = n + j - i or the anti-diagonal
// t = i + j (paper section 3). Diagonal indices stay below 2n + 1 <= 2^32.
uint64_t LineIndex(AttackLine line, uint64_t n, uint64_t row, uint64_t column) {
  switch (line) {
    case AttackLine::kColumn:
      return column;
    case AttackLine::kDiagonal:
      return n + column - row;
    case AttackLine::kAntiDiagonal:
      return row + column;
  }
  return 0;
}

// One key per line of the board, for the sparse maps below.
uint64_t LineKey(AttackLine line, uint64_t index) {
  return (static_cast<uint64_t>(line) << 32) | index;
}

// Fills in `first` (the topmost queen of the conflict's line) of every
// conflict, in a second pass over the rows that stops once all are found.
// `line_keys[c]` is the line of conflicts[c].
// False once `stop` fires.
bool FindFirstQueens(absl::Span<const uint32_t> columns, const std::vector<uint64_t>& line_keys,
                     std::vector<Conflict>& conflicts, internal::StopPoller& stop) {
  absl::flat_hash_map<uint64_t, Queen> topmost;
  for (uint64_t key : line_keys) topmost.try_emplace(key, Queen{});
  const uint64_t n = columns.size();
  size_t found = 0;
  for (uint64_t i = 0; i < n && found < topmost.size(); ++i) {
    // Polled like the first pass, but this one ends at the last conflict.
    if (i % internal::StopPoller::kRowsPerPoll == 0 && stop.CheckNow()) return false;
    if (columns[i] == kEmptyRow) continue;
    const Queen queen{static_cast<uint32_t>(i + 1), columns[i]};
    for (AttackLine line : kLines) {
      auto it = topmost.find(LineKey(line, LineIndex(line, n, queen.row, queen.column)));
      if (it != topmost.end() && it->second.row == 0) {
        it->second = queen;
        ++found;
      }
    }
  }
  for (size_t c = 0; c < conflicts.size(); ++c) conflicts[c].first = topmost[line_keys[c]];
  return true;
}

const char* LineName(AttackLine line) {
  switch (line) {
    case AttackLine::kColumn:
      return "a column";
    case AttackLine::kDiagonal:
      return "a diagonal";
    case AttackLine::kAntiDiagonal:
      return "an anti-diagonal";
  }
  return "a line";
}

}  // namespace

namespace internal {
namespace {

// One bit per line (5n bits in all): what keeps n = 10^8 well under a byte
// per row. Indexed by AttackLine.
using OccupiedLines = std::array<BitArray, 3>;

struct CrowdedLines {
  // Queens so far on each line holding two or more: most boards have few
  // such lines, so this stays far smaller than per-line counters would be.
  absl::flat_hash_map<uint64_t, uint64_t> queens;
  std::vector<uint64_t> of_conflicts;  // the line of each report.conflicts
};

// `queen` joins line `index` of kind `line`, which holds a queen already:
// the rare case, out of the row loop.
ABSL_ATTRIBUTE_NOINLINE void AddAttacks(const Queen& queen, AttackLine line, uint64_t index,
                                        size_t max_conflicts, CrowdedLines& crowded,
                                        ValidationReport& report) {
  const uint64_t key = LineKey(line, index);
  // A queen joining a line that holds c queens adds c attacking pairs.
  uint64_t& queens_on_line = crowded.queens.try_emplace(key, 1).first->second;
  report.attacking_pairs += queens_on_line++;
  if (report.conflicts.size() < max_conflicts) {
    report.conflicts.push_back({Queen{}, queen, line});
    crowded.of_conflicts.push_back(key);
  }
}

// Puts `queen` on its three lines, counting the pairs it attacks. The three
// indices are written out, not LineIndex in a loop over kLines, and the rare
// case is out of line: fewer instructions a row than that loop
// (docs/constants.md, AddQueen).
void AddQueen(const Queen& queen, uint64_t n, size_t max_conflicts, OccupiedLines& occupied,
              CrowdedLines& crowded, ValidationReport& report) {
  ++report.queen_count;
  const std::array<uint64_t, 3> indices = {uint64_t{queen.column}, n + queen.column - queen.row,
                                           uint64_t{queen.row} + queen.column};
  for (size_t line = 0; line < kLines.size(); ++line) {
    BitArray& taken = occupied[line];
    if (!taken.Test(indices[line])) {
      taken.Set(indices[line]);
    } else {
      AddAttacks(queen, kLines[line], indices[line], max_conflicts, crowded, report);
    }
  }
}

// The pass over the rows, polled; INVALID_ARGUMENT for a column off the board.
absl::Status ScanRows(absl::Span<const uint32_t> columns, size_t max_conflicts,
                      OccupiedLines& occupied, CrowdedLines& crowded, ValidationReport& report,
                      StopPoller& stop) {
  const uint64_t n = columns.size();
  for (uint64_t first = 0; first < n; first += StopPoller::kRowsPerPoll) {
    if (stop.CheckNow()) return stop.status();
    const uint64_t last = std::min<uint64_t>(n, first + StopPoller::kRowsPerPoll);
    for (uint64_t i = first; i < last; ++i) {
      const uint32_t column = columns[i];
      if (column == kEmptyRow) continue;
      if (column > n) {
        return absl::InvalidArgumentError(absl::StrCat("row ", i + 1, " has column ", column,
                                                       ", but the board has only ", n, " columns"));
      }
      AddQueen(Queen{static_cast<uint32_t>(i + 1), column}, n, max_conflicts, occupied, crowded,
               report);
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<ValidationReport> Validate(absl::Span<const uint32_t> columns,
                                          const ValidateOptions& options, StopPoller& stop) {
  const uint64_t n = columns.size();
  if (n == 0) return absl::InvalidArgumentError("n must be at least 1");
  ValidationReport report;
  report.n = n;
  OccupiedLines occupied;
  if (!occupied[0].Reset(n + 1, stop) || !occupied[1].Reset(2 * n + 1, stop) ||
      !occupied[2].Reset(2 * n + 1, stop)) {
    return stop.status();
  }
  CrowdedLines crowded;
  if (absl::Status status =
          ScanRows(columns, options.max_conflicts, occupied, crowded, report, stop);
      !status.ok()) {
    return status;
  }
  if (!report.conflicts.empty() &&
      !FindFirstQueens(columns, crowded.of_conflicts, report.conflicts, stop)) {
    return stop.status();
  }
  report.valid = report.attacking_pairs == 0;
  report.complete = report.valid && report.queen_count == n;
  return report;
}

absl::Status CheckComposition(absl::Span<const uint32_t> columns, StopPoller& stop) {
  ValidateOptions options;
  options.max_conflicts = 1;
  absl::StatusOr<ValidationReport> report = Validate(columns, options, stop);
  if (!report.ok()) return report.status();
  if (report->valid) return absl::OkStatus();
  if (report->attacking_pairs == 1) {
    return absl::InvalidArgumentError(absl::StrCat("two queens attack each other: ",
                                                   DescribeConflict(report->conflicts.front())));
  }
  return absl::InvalidArgumentError(
      absl::StrCat("the queens attack each other: ", DescribeConflict(report->conflicts.front()),
                   " (", report->attacking_pairs, " attacking pairs in all)"));
}

}  // namespace internal

absl::StatusOr<ValidationReport> Validate(absl::Span<const uint32_t> columns,
                                          const ValidateOptions& options) {
  internal::StopPoller stop(options.stop);
  return internal::Validate(columns, options, stop);
}

absl::Status CheckComposition(absl::Span<const uint32_t> columns) {
  const StopCondition never;
  internal::StopPoller stop(never);
  return internal::CheckComposition(columns, stop);
}

std::string DescribeConflict(const Conflict& conflict) {
  return absl::StrCat("queens at (row ", conflict.first.row, ", column ", conflict.first.column,
                      ") and (row ", conflict.second.row, ", column ", conflict.second.column,
                      ") share ", LineName(conflict.line));
}

}  // namespace nqueens
