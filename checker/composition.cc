#include "checker/composition.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace nqueens::checker {

Composition::Composition(uint64_t n) : n_(n), down_(2 * n + 1), up_(2 * n + 1) {}

absl::StatusOr<Composition> Composition::Make(const std::vector<uint32_t>& columns) {
  Composition composition(columns.size());
  const uint64_t n = composition.n_;
  std::vector<bool> column_taken(n + 1);
  for (uint64_t row = 1; row <= n; ++row) {
    const uint64_t column = columns[row - 1];
    if (column == 0) continue;
    if (column > n || column_taken[column] || composition.Attacked(row, column)) {
      return absl::InvalidArgumentError(
          absl::StrCat("the composition's queen of row ", row, " is off the board or attacked"));
    }
    column_taken[column] = true;
    composition.down_[composition.Down(row, column)] = true;
    composition.up_[row + column] = true;
    ++composition.given_;
  }
  for (uint64_t x = 1; x <= n; ++x) {
    if (columns[x - 1] == 0) {
      composition.free_row_[x] = static_cast<uint32_t>(composition.rows_.size());
      composition.rows_.push_back(static_cast<uint32_t>(x));
    }
    if (!column_taken[x]) {
      composition.free_column_[x] = static_cast<uint32_t>(composition.columns_.size());
      composition.columns_.push_back(static_cast<uint32_t>(x));
    }
  }
  return composition;
}

}  // namespace nqueens::checker
