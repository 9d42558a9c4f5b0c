#include "checker/wide_board.h"

#include <algorithm>

namespace nqueens::checker {
namespace {

// Whether q queens, on q distinct diagonals out of `values` (ascending,
// distinct), cannot add up to `total`: fewer than q diagonals, or a total
// below the q least or above the q greatest.
bool OutsideDiagonals(const std::vector<int64_t>& values, uint64_t q, int64_t total) {
  if (values.size() < q) return true;
  int64_t least = 0, greatest = 0;
  for (uint64_t i = 0; i < q; ++i) {
    least += values[i];
    greatest += values[values.size() - 1 - i];
  }
  return total < least || total > greatest;
}

}  // namespace

WideBoard::WideBoard(const Composition& composition)
    : composition_(composition),
      row_placed_(composition.d()),
      column_placed_(composition.d()),
      down_(composition.down()),
      up_(composition.up()),
      row_open_(composition.d()),
      column_open_(composition.d()),
      column_seen_(composition.d()) {
  for (uint32_t a = 0; a < d(); ++a) {
    for (uint32_t b = 0; b < d(); ++b) {
      if (!Open(a, b)) continue;
      ++row_open_[a];
      ++column_open_[b];
    }
  }
}

void WideBoard::Mark(uint32_t a, uint32_t b, bool queen) {
  const uint64_t r = composition_.Row(a), c = composition_.Column(b);
  row_placed_[a] = column_placed_[b] = queen ? 1 : 0;
  down_[composition_.Down(r, c)] = queen;
  up_[r + c] = queen;
}

// The queen's lines meet only at its cell: its row is visited whole, then,
// in every other row, the cell of its column and those of its diagonals.
void WideBoard::Recount(uint32_t a, uint32_t b, int delta) {
  const auto count = [&](uint32_t y, uint32_t x) {
    if (!Open(y, x)) return;
    row_open_[y] += static_cast<uint32_t>(delta);
    column_open_[x] += static_cast<uint32_t>(delta);
  };
  for (uint32_t x = 0; x < d(); ++x) count(a, x);
  const int64_t n = static_cast<int64_t>(composition_.n());
  const int64_t row = composition_.Row(a), column = composition_.Column(b);
  for (uint32_t y = 0; y < d(); ++y) {
    if (y == a) continue;
    count(y, b);
    const int64_t rise = composition_.Row(y) - row;
    for (const int64_t c : {column + rise, column - rise}) {
      if (c < 1 || c > n) continue;
      if (const uint32_t x = composition_.FreeColumn(static_cast<uint64_t>(c)); x != kNone) {
        count(y, x);
      }
    }
  }
}

uint64_t WideBoard::OpenWord(bool row, uint32_t line) const {
  uint64_t word = 0;
  for (uint32_t x = 0; x < d() && x < 64; ++x) {
    if (row ? Open(line, x) : Open(x, line)) word |= uint64_t{1} << x;
  }
  return word;
}

bool WideBoard::Choose(const Ranks& ranks, bool* by_row, uint32_t* line) const {
  uint32_t best[2] = {kNone, kNone}, fewest[2] = {UINT32_MAX, UINT32_MAX};
  for (int kind = 0; kind < 2; ++kind) {
    const bool rows = kind == 0;
    for (const uint32_t x : rows ? ranks.rows : ranks.columns) {
      if (!Unplaced(rows, x) || OpenCount(rows, x) >= fewest[kind]) continue;
      fewest[kind] = OpenCount(rows, x);
      best[kind] = x;
    }
  }
  if (best[0] == kNone) return false;
  *by_row = fewest[0] <= fewest[1];
  *line = *by_row ? best[0] : best[1];
  return true;
}

bool WideBoard::EmptyLine(bool* row, uint32_t* line) const {
  for (const bool rows : {true, false}) {
    for (uint32_t x = 0; x < d(); ++x) {
      if (Unplaced(rows, x) && OpenCount(rows, x) == 0) {
        *row = rows;
        *line = x;
        return true;
      }
    }
  }
  return false;
}

bool WideBoard::SumsFail() const {
  int64_t row_total = 0, column_total = 0;
  sums_.clear();
  differences_.clear();
  for (uint32_t x = 0; x < d(); ++x) {
    if (Unplaced(false, x)) column_total += composition_.Column(x);
  }
  for (uint32_t a = 0; a < d(); ++a) {
    if (!Unplaced(true, a)) continue;
    const int64_t r = composition_.Row(a);
    row_total += r;
    for (uint32_t b = 0; b < d(); ++b) {
      if (!Open(a, b)) continue;
      sums_.push_back(r + composition_.Column(b));
      differences_.push_back(r - composition_.Column(b));
    }
  }
  for (std::vector<int64_t>* values : {&sums_, &differences_}) {
    std::sort(values->begin(), values->end());
    values->erase(std::unique(values->begin(), values->end()), values->end());
  }
  const uint64_t q = d() - placed_.size();
  return OutsideDiagonals(sums_, q, row_total + column_total) ||
         OutsideDiagonals(differences_, q, row_total - column_total);
}

uint32_t WideBoard::UnionColumns(const std::vector<uint32_t>& rows) const {
  ++seen_stamp_;
  uint32_t columns = 0;
  for (const uint32_t a : rows) {
    for (uint32_t b = 0; b < d(); ++b) {
      if (!Open(a, b) || column_seen_[b] == seen_stamp_) continue;
      column_seen_[b] = seen_stamp_;
      ++columns;
    }
  }
  return columns;
}

}  // namespace nqueens::checker
