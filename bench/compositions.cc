#include "compositions.h"

#include <algorithm>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

namespace nqueens::bench {

std::vector<uint32_t> ParseSizes(const std::vector<std::string>& texts) {
  std::vector<uint32_t> sizes;
  for (const std::string& text : texts) sizes.push_back(static_cast<uint32_t>(std::stoul(text)));
  return sizes;
}

uint32_t Below(uint32_t bound, Random& random) {
  return std::uniform_int_distribution<uint32_t>(0, bound - 1)(random);
}

NaturalDraw::NaturalDraw(uint32_t n)
    : n_(n),
      composition_(n, kEmptyRow),
      free_rows_(n),
      free_columns_(n),
      difference_taken_(2 * size_t{n}),
      sum_taken_(2 * size_t{n}) {
  std::iota(free_rows_.begin(), free_rows_.end(), 0u);
  std::iota(free_columns_.begin(), free_columns_.end(), 0u);
}

bool NaturalDraw::PlaceUntil(uint32_t free_lines, Random& random) {
  const uint64_t max_draws = uint64_t{n_} * n_;
  while (free_rows_.size() > free_lines) {
    if (draws_ == max_draws) return false;
    ++draws_;
    const uint32_t left = static_cast<uint32_t>(free_rows_.size());
    const uint32_t i = Below(left, random), j = Below(left, random);
    const uint32_t row = free_rows_[i], column = free_columns_[j];
    if (!Allowed(row, column)) continue;
    difference_taken_[n_ + column - row] = sum_taken_[row + column] = true;
    composition_[row] = column + 1;
    free_rows_[i] = free_rows_.back();
    free_rows_.pop_back();
    free_columns_[j] = free_columns_.back();
    free_columns_.pop_back();
  }
  return true;
}

bool NaturalDraw::HasDeadLine() const {
  std::vector<bool> column_live(free_columns_.size());
  for (uint32_t row : free_rows_) {
    bool row_live = false;
    for (size_t j = 0; j < free_columns_.size(); ++j) {
      if (Allowed(row, free_columns_[j])) row_live = column_live[j] = true;
    }
    if (!row_live) return true;
  }
  return std::find(column_live.begin(), column_live.end(), false) != column_live.end();
}

Columns KeepRandomRows(const Columns& solution, uint32_t k, Random& random) {
  std::vector<uint32_t> rows(solution.size());
  std::iota(rows.begin(), rows.end(), 0u);
  // Partial Fisher-Yates: only the k kept rows need drawing.
  for (uint32_t i = 0; i < k; ++i) {
    std::swap(rows[i], rows[std::uniform_int_distribution<uint32_t>(i, rows.size() - 1)(random)]);
  }
  Columns composition(solution.size(), nqueens::kEmptyRow);
  for (uint32_t i = 0; i < k; ++i) composition[rows[i]] = solution[rows[i]];
  return composition;
}

}  // namespace nqueens::bench
