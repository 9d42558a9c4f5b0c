#include "nqueens/validate.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "bit_array.h"

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
void FindFirstQueens(absl::Span<const uint32_t> columns, const std::vector<uint64_t>& line_keys,
                     std::vector<Conflict>& conflicts) {
  absl::flat_hash_map<uint64_t, Queen> topmost;
  for (uint64_t key : line_keys) topmost.try_emplace(key, Queen{});
  const uint64_t n = columns.size();
  size_t found = 0;
  for (uint64_t i = 0; i < n && found < topmost.size(); ++i) {
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

absl::StatusOr<ValidationReport> Validate(absl::Span<const uint32_t> columns,
                                          const ValidateOptions& options) {
  const uint64_t n = columns.size();
  if (n == 0) return absl::InvalidArgumentError("n must be at least 1");
  ValidationReport report;
  report.n = n;
  // One bit per line (5n bits in all): what keeps n = 10^8 well under a byte
  // per row. Indexed by AttackLine.
  std::array<internal::BitArray, 3> occupied = {
      internal::BitArray(n + 1), internal::BitArray(2 * n + 1), internal::BitArray(2 * n + 1)};
  // Queens so far on each line holding two or more: most boards have few such
  // lines, so this stays far smaller than per-line counters would be.
  absl::flat_hash_map<uint64_t, uint64_t> crowded_lines;
  std::vector<uint64_t> conflict_lines;  // the line of each report.conflicts
  for (uint64_t i = 0; i < n; ++i) {
    const uint32_t column = columns[i];
    if (column == kEmptyRow) continue;
    if (column > n) {
      return absl::InvalidArgumentError(absl::StrCat("row ", i + 1, " has column ", column,
                                                     ", but the board has only ", n, " columns"));
    }
    ++report.queen_count;
    const Queen queen{static_cast<uint32_t>(i + 1), column};
    for (AttackLine line : kLines) {
      const uint64_t index = LineIndex(line, n, queen.row, queen.column);
      internal::BitArray& taken = occupied[static_cast<int>(line)];
      if (!taken.Test(index)) {
        taken.Set(index);
        continue;
      }
      const uint64_t key = LineKey(line, index);
      // A queen joining a line that holds c queens adds c attacking pairs.
      uint64_t& queens_on_line = crowded_lines.try_emplace(key, 1).first->second;
      report.attacking_pairs += queens_on_line++;
      if (report.conflicts.size() < options.max_conflicts) {
        report.conflicts.push_back({Queen{}, queen, line});
        conflict_lines.push_back(key);
      }
    }
  }
  if (!report.conflicts.empty()) FindFirstQueens(columns, conflict_lines, report.conflicts);
  report.valid = report.attacking_pairs == 0;
  report.complete = report.valid && report.queen_count == n;
  return report;
}

absl::Status CheckComposition(absl::Span<const uint32_t> columns) {
  ValidateOptions options;
  options.max_conflicts = 1;
  absl::StatusOr<ValidationReport> report = Validate(columns, options);
  if (!report.ok()) return report.status();
  if (report->valid) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("the queens attack each other: ", DescribeConflict(report->conflicts.front()),
                   " (", report->attacking_pairs, " attacking pairs in all)"));
}

std::string DescribeConflict(const Conflict& conflict) {
  return absl::StrCat("queens at (row ", conflict.first.row, ", column ", conflict.first.column,
                      ") and (row ", conflict.second.row, ", column ", conflict.second.column,
                      ") share ", LineName(conflict.line));
}

}  // namespace nqueens
