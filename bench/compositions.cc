#include "bench/compositions.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"

namespace nqueens::bench {

std::vector<uint32_t> ParseSizes(const std::vector<std::string>& texts) {
  std::vector<uint32_t> sizes;
  for (const std::string& text : texts) {
    uint32_t n = 0;
    if (!absl::SimpleAtoi(text, &n)) {
      std::fprintf(stderr, "not a board size: %s\n", text.c_str());
      std::exit(2);
    }
    sizes.push_back(n);
  }
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

// Gent et al.'s Excluded Diagonals generator (queens-diag-gen.py, every row
// and column allowed): the sum and the difference diagonals each in random
// order, a random kind drawn each time; a diagonal is excluded unless that
// leaves a row or column with min_open open cells or fewer. The first
// `count` exclusions form the instance (fewer if the board runs out).
std::vector<Diagonal> ExcludedDiagonals(uint32_t m, uint32_t count, uint32_t min_open,
                                        Random& random) {
  std::vector<Diagonal> sums, differences;
  for (int32_t v = 0; v + 1 < 2 * int32_t(m); ++v) {
    sums.push_back({true, v});
    differences.push_back({false, v - int32_t(m) + 1});
  }
  std::shuffle(sums.begin(), sums.end(), random);
  std::shuffle(differences.begin(), differences.end(), random);
  std::vector<uint32_t> open_in_row(m, m), open_in_column(m, m);
  std::vector<Diagonal> excluded;
  auto is_excluded = [&excluded](bool sum, int32_t value) {
    return std::any_of(excluded.begin(), excluded.end(),
                       [&](const Diagonal& e) { return e.sum == sum && e.value == value; });
  };
  while (excluded.size() < count && !(sums.empty() && differences.empty())) {
    const bool sum = differences.empty() || (!sums.empty() && Below(2, random) == 0);
    std::vector<Diagonal>& pool = sum ? sums : differences;
    const Diagonal diagonal = pool.back();
    pool.pop_back();
    // The still open cells on it.
    std::vector<std::pair<uint32_t, uint32_t>> cells;
    for (int32_t r = 0; r < int32_t(m); ++r) {
      const int32_t c = sum ? diagonal.value - r : r - diagonal.value;
      if (c < 0 || c >= int32_t(m) || is_excluded(!sum, sum ? r - c : r + c)) continue;
      cells.emplace_back(r, c);
    }
    const bool leaves_too_few = std::any_of(cells.begin(), cells.end(), [&](const auto& cell) {
      return open_in_row[cell.first] <= min_open || open_in_column[cell.second] <= min_open;
    });
    if (leaves_too_few) continue;
    for (const auto& [r, c] : cells) {
      --open_in_row[r];
      --open_in_column[c];
    }
    excluded.push_back(diagonal);
  }
  return excluded;
}

namespace {

// A queen of the reduction, 0-based: x becomes the row, y the column.
struct Cell {
  uint64_t x = 0, y = 0;
};

}  // namespace

// Gent et al.'s reduction (their NP-completeness construction, as in
// CSPLib's diagtoqueens.py) from Excluded Diagonals on the m x m board to
// n-Queens Completion, in two steps.
//  1. On a board of n3 = 7m - 3, the m x m board sits at x = 3m-2.., y = 0..;
//     each excluded diagonal gets a queen on it outside that square. Now the
//     queens to add must use the square's rows and columns.
//  2. Those allowed lines are embedded in a board of 19 n' + m3 (n' = 2 n3
//     +- 1, prime to 6; m3 = queens of step 1 plus m): a 20 x 20 pattern of
//     n' x n' blocks, each filled with the modular solution (i, 2i mod n') or
//     its transpose, except that block 19 in each direction is a strip of m3
//     lines holding queens that steer every line but the allowed ones.
// The completions correspond one to one to the solutions of the m x m
// problem; the m free rows are x = 3m-2 .. 4m-3.
Columns ExcludedDiagonalsAsCompletion(uint32_t m, const std::vector<Diagonal>& excluded) {
  const uint64_t n3 = 7 * uint64_t{m} - 3;
  std::vector<Cell> placed;  // step 1's queens
  for (const Diagonal& d : excluded) {
    const int64_t v = d.value;
    placed.push_back(d.sum ? Cell{uint64_t(2 * m - 2 - v), uint64_t(m + 2 * v)}
                           : Cell{uint64_t(6 * m - 3 - v), uint64_t(3 * m - 1 - 2 * v)});
  }
  // The lines step 2 must leave open: the allowed ones and step 1's.
  std::vector<uint64_t> open_x, open_y;
  for (uint32_t i = 0; i < m; ++i) {
    open_x.push_back(3 * uint64_t{m} - 2 + i);
    open_y.push_back(i);
  }
  for (const Cell& q : placed) {
    open_x.push_back(q.x);
    open_y.push_back(q.y);
  }
  std::sort(open_x.begin(), open_x.end());
  std::sort(open_y.begin(), open_y.end());
  const uint64_t m3 = open_x.size();
  const uint64_t block = n3 % 3 == 2 ? 2 * n3 + 1 : 2 * n3 - 1;
  const uint64_t n = 19 * block + m3;
  // The pattern: block (bx, kRestBlockY[bx]) holds the modular solution for
  // bx = 1..18 except 17; blocks (0, 8) and (17, 0) hold it (transposed for
  // the latter) minus the lines left open, which the strips fill.
  constexpr int kRestBlockY[19] = {-1, 12, 17, 7, 10, 15, 1,  16, 13, 2,
                                   6,  18, 3,  5, 11, 9,  14, -1, 4};
  auto add_modular = [&](uint64_t bx, uint64_t by, bool transposed, auto keep) {
    for (uint64_t i = 0; i < block; ++i) {
      const uint64_t a = i, b = 2 * i % block;
      const Cell q = transposed ? Cell{b, a} : Cell{a, b};
      if (keep(q)) placed.push_back({bx * block + q.x, by * block + q.y});
    }
  };
  auto all = [](const Cell&) { return true; };
  auto not_in = [](const std::vector<uint64_t>& lines, bool use_x) {
    return [&lines, use_x](const Cell& q) {
      return !std::binary_search(lines.begin(), lines.end(), use_x ? q.x : q.y);
    };
  };
  add_modular(0, 8, false, not_in(open_x, true));
  add_modular(17, 0, true, not_in(open_y, false));
  for (uint64_t bx = 1; bx <= 18; ++bx) {
    if (kRestBlockY[bx] >= 0) add_modular(bx, kRestBlockY[bx], false, all);
  }
  for (uint64_t i = 0; i < m3; ++i) {
    placed.push_back({19 * block + i, 8 * block + 2 * open_x[i]});
    placed.push_back({17 * block + 2 * open_y[i], 19 * block + i});
  }
  Columns composition(n, kEmptyRow);
  for (const Cell& q : placed) composition[q.x] = static_cast<uint32_t>(q.y + 1);
  return composition;
}

}  // namespace nqueens::bench
