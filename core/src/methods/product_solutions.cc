#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "base/huge_pages.h"
#include "base/stop_poller.h"
#include "base/validation.h"
#include "methods/known_solutions.h"
#include "methods/modular_fit.h"
#include "nqueens/solver.h"

namespace nqueens::internal {
namespace {

constexpr uint32_t kNoColumn = UINT32_MAX;
// Shift parts whose base queens are completed, at most, per inner size: a
// few suffice in practice, and they bound what an input that is no shifted
// product costs.
constexpr int kMaxShiftTries = 8;

// The inner sizes N of the products of the n x n board: divisors of n with
// modular placements (N >= 5, prime to 6) and a base M = n / N >= 4.
std::vector<uint32_t> InnerSizes(uint32_t n) {
  std::vector<uint32_t> sizes;
  for (uint64_t d = 1; d * d <= n; ++d) {
    if (n % d != 0) continue;
    for (const uint64_t inner : {d, n / d}) {
      if (inner >= 5 && inner % 2 != 0 && inner % 3 != 0 && n / inner >= 4 &&
          (sizes.empty() || sizes.back() != inner)) {
        sizes.push_back(static_cast<uint32_t>(inner));
      }
    }
  }
  return sizes;
}

// The queens of one block of N rows (one base row) by the block's column
// (column / N): at most two, since a shift's carry adds one to some of them.
// Per block column, the least and the greatest inner column u = column % N.
class BlockQueens {
 public:
  // False at a third block column.
  bool Add(uint32_t block_column, uint32_t u) {
    for (Group& group : groups_) {
      if (group.block_column == kNoColumn) group = {block_column, u, u};
      if (group.block_column != block_column) continue;
      group.least_u = std::min(group.least_u, u);
      group.greatest_u = std::max(group.greatest_u, u);
      return true;
    }
    return false;
  }

  // Narrows [lowest, highest], the shift's inner part r that a block with two
  // block columns allows: those of the carried one (one more, mod M) have
  // u < r, the others u >= r. False when neither is one more.
  bool BoundShift(uint32_t base_size, uint32_t& lowest, uint32_t& highest) const {
    if (groups_[1].block_column == kNoColumn) return true;
    for (const int carried : {0, 1}) {
      const Group& high = groups_[carried];
      const Group& low = groups_[1 - carried];
      if (high.block_column != (low.block_column + 1) % base_size) continue;
      lowest = std::max(lowest, high.greatest_u + 1);
      highest = std::min(highest, low.least_u);
      return true;
    }
    return false;
  }

  bool empty() const { return groups_[0].block_column == kNoColumn; }

  // Marks the shift parts where one of the block's groups changes from not
  // carried to carried: its least u and one past its greatest.
  void MarkBounds(std::vector<bool>& bounds) const {
    for (const Group& group : groups_) {
      if (group.block_column == kNoColumn) break;
      bounds[group.least_u] = bounds[group.greatest_u + 1] = true;
    }
  }

  // The base row's column - 1 for shift part r, or kNoColumn when the queens
  // disagree on it.
  uint32_t BaseColumn(uint32_t base_size, uint32_t r) const {
    uint32_t base = kNoColumn;
    for (const Group& group : groups_) {
      if (group.block_column == kNoColumn) break;
      uint32_t column;
      if (r <= group.least_u) {
        column = group.block_column;
      } else if (r > group.greatest_u) {
        column = (group.block_column + base_size - 1) % base_size;
      } else {
        return kNoColumn;
      }
      if (base != kNoColumn && base != column) return kNoColumn;
      base = column;
    }
    return base;
  }

 private:
  struct Group {
    uint32_t block_column = kNoColumn, least_u = 0, greatest_u = 0;
  };
  std::array<Group, 2> groups_;
};

// What the queens say of a product with inner size N whose columns are
// shifted cyclically by s = q N + r (some such shifts of a solution are
// solutions, and users shift solutions): row (i - 1) N + j holds column
// N ((A[i] - 1 + q + [u_j < r]) mod M) + u_j + 1, u_j = (B[j] - 1 + r) mod N,
// itself a modular placement. The blocks' queens, and the fit of the inner
// ones.
struct ProductFit {
  std::vector<BlockQueens> blocks;
  ModularFit inner;
};

// Calls add(row, column) for each queen, 0-based, transposed if asked, until
// it returns false; false then, or the poller's status once it fires.
template <typename Add>
absl::StatusOr<bool> ForEachQueen(const Columns& composition, bool transposed, StopPoller& stop,
                                  Add add) {
  const auto n = static_cast<uint32_t>(composition.size());
  for (size_t first = 0; first < n; first += StopPoller::kRowsPerPoll) {
    if (stop.CheckNow()) return stop.status();
    const size_t last = std::min<size_t>(n, first + StopPoller::kRowsPerPoll);
    for (size_t given_row = first; given_row < last; ++given_row) {
      if (composition[given_row] == kEmptyRow) continue;
      const auto given_column = composition[given_row] - 1;
      const auto row = static_cast<uint32_t>(transposed ? given_column : given_row);
      const auto column = static_cast<uint32_t>(transposed ? given_row : given_column);
      if (!add(row, column)) return false;
    }
  }
  return true;
}

// Nullopt once two queens contradict a product with inner size N, shifted as
// above; `transposed`: the composition's transpose (queen (r, c) read as
// (c, r)), which covers the products' row shifts. The inner placement is
// fitted first: most inputs fail it within a few queens, before the blocks'
// 24 bytes each are allocated.
absl::StatusOr<std::optional<ProductFit>> Fit(const Columns& composition, uint32_t inner,
                                              bool transposed, StopPoller& stop) {
  const auto n = static_cast<uint32_t>(composition.size());
  ModularFit inner_fit(inner);
  absl::StatusOr<bool> fits =
      ForEachQueen(composition, transposed, stop, [&](uint32_t row, uint32_t column) {
        return inner_fit.Add(row % inner + 1, column % inner + 1);
      });
  if (!fits.ok()) return fits.status();
  if (!*fits) return std::nullopt;
  // n / inner blocks, fresh memory: hundreds of MB at n = 10^8, made in polled
  // stretches (docs/constants.md, Fit).
  ProductFit fit{{}, std::move(inner_fit)};
  if (!AppendPolled(fit.blocks, n / inner, BlockQueens(), stop)) return stop.status();
  fits = ForEachQueen(composition, transposed, stop, [&](uint32_t row, uint32_t column) {
    return fit.blocks[row / inner].Add(column / inner, column % inner);
  });
  if (!fits.ok()) return fits.status();
  if (!*fits) return std::nullopt;
  return fit;
}

// The shift parts r worth trying, in increasing order: those within the
// bounds that the blocks with two groups set, where the carry of some group
// changes (between two of them every group is carried alike). Without such
// blocks 0, no carry, comes first: the plain product.
absl::StatusOr<std::vector<uint32_t>> ShiftCandidates(const ProductFit& fit, uint32_t inner,
                                                      StopPoller& stop) {
  const auto base_size = static_cast<uint32_t>(fit.blocks.size());
  uint32_t lowest = 0, highest = inner - 1;
  // A bit per value of u and one past the last: O(M + N), no sort.
  std::vector<bool> bounds(inner + 1);
  for (uint32_t i = 0; i < base_size; ++i) {
    if (i % StopPoller::kRowsPerPoll == 0 && stop.CheckNow()) return stop.status();
    const BlockQueens& block = fit.blocks[i];
    if (!block.BoundShift(base_size, lowest, highest) || lowest > highest) {
      return std::vector<uint32_t>();
    }
    block.MarkBounds(bounds);
  }
  std::vector<uint32_t> candidates = {lowest};
  for (uint32_t r = lowest + 1; r <= highest; ++r) {
    if (bounds[r]) candidates.push_back(r);
  }
  return candidates;
}

// The base's queens (1-based columns) for shift part r, or nullopt when a
// block's queens disagree on theirs or two of them attack each other.
absl::StatusOr<std::optional<Columns>> BaseQueens(const ProductFit& fit, uint32_t r,
                                                  StopPoller& stop) {
  const auto base_size = static_cast<uint32_t>(fit.blocks.size());
  Columns base;
  if (!AppendPolled(base, base_size, kEmptyRow, stop)) return stop.status();
  std::vector<bool> column_taken(base_size), sum_taken(size_t{2} * base_size),
      difference_taken(size_t{2} * base_size);
  for (uint32_t i = 0; i < base_size; ++i) {
    if (i % StopPoller::kRowsPerPoll == 0 && stop.CheckNow()) return stop.status();
    if (fit.blocks[i].empty()) continue;  // its base row stays free
    const uint32_t column = fit.blocks[i].BaseColumn(base_size, r);
    if (column == kNoColumn || column_taken[column] || sum_taken[i + column] ||
        difference_taken[base_size + i - column]) {
      return std::nullopt;
    }
    column_taken[column] = sum_taken[i + column] = difference_taken[base_size + i - column] = true;
    base[i] = column + 1;
  }
  return std::optional<Columns>(std::move(base));
}

// The product of base solution A and inner placement B, its columns shifted
// by r as above (q is in A already), transposed if asked, in polled
// stretches.
absl::StatusOr<Columns> Product(const Columns& base, const Modular& inner, uint32_t size,
                                uint32_t r, bool transposed, StopPoller& stop) {
  const auto base_size = static_cast<uint32_t>(base.size());
  const auto n = static_cast<uint32_t>(base_size * size);
  Columns board;
  ReserveHuge(board, n);
  board.resize(n);
  const bool done = RunInStretches(0, n, stop, [&](size_t first, size_t last) {
    for (size_t row = first; row < last; ++row) {
      const uint32_t u = inner.Column(row % size + 1, size) - 1;
      const uint32_t block_column = (base[row / size] - 1 + (u < r)) % base_size;
      const uint32_t column = size * block_column + u;
      if (transposed) {
        board[column] = static_cast<uint32_t>(row + 1);
      } else {
        board[row] = column + 1;
      }
    }
  });
  if (!done) return stop.status();
  return board;
}

// The board for shift part r from the base's queens for it, or nullopt when
// they do not complete or the shifted product is no solution.
absl::StatusOr<std::optional<Columns>> CompleteShifted(Columns base_queens, uint32_t inner,
                                                       const Modular& placement, uint32_t r,
                                                       bool transposed, StopPoller& stop) {
  // Any solution of the base will do for a product: complete its queens as
  // a board of its own.
  CompleteOptions options;
  options.stop = stop.condition();
  absl::StatusOr<CompletionResult> base = Complete(std::move(base_queens), options);
  // BaseQueens let no two queens attack; the check stays cheap insurance.
  if (!base.ok() && !stop.CheckNow() &&
      base.status().code() == absl::StatusCode::kInvalidArgument) {
    return std::nullopt;
  }
  if (!base.ok()) return base.status();
  if (base->outcome != Outcome::kSolved) return std::nullopt;
  absl::StatusOr<Columns> board = Product(base->columns, placement, inner, r, transposed, stop);
  if (!board.ok()) return board.status();
  if (r == 0) return *std::move(board);
  // A shifted product is a solution for some bases only: this one is
  // checked, and a board that fails is not the answer.
  absl::StatusOr<ValidationReport> report = Validate(*board, ValidateOptions{}, stop);
  if (!report.ok()) return report.status();
  if (!report->complete) return std::nullopt;
  return *std::move(board);
}

}  // namespace

absl::StatusOr<std::optional<Columns>> CompleteFromProduct(const Columns& composition,
                                                           StopPoller& stop) {
  const auto n = static_cast<uint32_t>(composition.size());
  for (const bool transposed : {false, true}) {
    for (const uint32_t inner : InnerSizes(n)) {
      absl::StatusOr<std::optional<ProductFit>> fit = Fit(composition, inner, transposed, stop);
      if (!fit.ok()) return fit.status();
      if (!fit->has_value()) continue;
      const std::optional<Modular> placement = (*fit)->inner.Solution();
      if (!placement.has_value()) continue;
      absl::StatusOr<std::vector<uint32_t>> candidates = ShiftCandidates(**fit, inner, stop);
      if (!candidates.ok()) return candidates.status();
      int tries = 0;
      for (const uint32_t r : *candidates) {
        absl::StatusOr<std::optional<Columns>> base_queens = BaseQueens(**fit, r, stop);
        if (!base_queens.ok()) return base_queens.status();
        if (!base_queens->has_value()) continue;
        absl::StatusOr<std::optional<Columns>> board =
            CompleteShifted(**std::move(base_queens), inner, *placement, r, transposed, stop);
        if (!board.ok() || board->has_value()) return board;
        if (++tries == kMaxShiftTries) break;
      }
    }
  }
  return std::nullopt;
}

}  // namespace nqueens::internal
