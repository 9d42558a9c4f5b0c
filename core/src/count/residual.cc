#include "count/residual.h"

#include <algorithm>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "nqueens/count.h"
#include "nqueens/validate.h"

namespace nqueens::internal {
namespace {

constexpr uint8_t kNoColumn = 64;

// Marks the free cells that lie on a given queen's diagonal. Only the
// diagonals through free cells (at most 2 * 64 * 64) are looked for, in one
// pass over the queens, so that a board of many rows and few free ones needs
// no per-diagonal arrays.
std::vector<uint64_t> OpenCells(const Residual& residual) {
  const size_t levels = residual.rows.size();
  absl::flat_hash_set<int64_t> diagonals, anti_diagonals;  // row - column, row + column
  for (uint64_t row : residual.rows) {
    for (uint64_t column : residual.columns) {
      diagonals.insert(static_cast<int64_t>(row) - static_cast<int64_t>(column));
      anti_diagonals.insert(static_cast<int64_t>(row + column));
    }
  }
  absl::flat_hash_set<int64_t> hit_diagonals, hit_anti_diagonals;
  for (uint64_t row = 0; row < residual.composition.size(); ++row) {
    if (residual.composition[row] == kEmptyRow) continue;
    const uint64_t column = residual.composition[row] - 1;
    const int64_t diagonal = static_cast<int64_t>(row) - static_cast<int64_t>(column);
    const auto anti_diagonal = static_cast<int64_t>(row + column);
    if (diagonals.contains(diagonal)) hit_diagonals.insert(diagonal);
    if (anti_diagonals.contains(anti_diagonal)) hit_anti_diagonals.insert(anti_diagonal);
  }
  std::vector<uint64_t> open(levels, 0);
  for (size_t level = 0; level < levels; ++level) {
    const auto row = static_cast<int64_t>(residual.rows[level]);
    for (size_t a = 0; a < residual.columns.size(); ++a) {
      const auto column = static_cast<int64_t>(residual.columns[a]);
      if (!hit_diagonals.contains(row - column) && !hit_anti_diagonals.contains(row + column)) {
        open[level] |= uint64_t{1} << a;
      }
    }
  }
  return open;
}

}  // namespace

absl::StatusOr<Residual> MakeResidual(Columns composition) {
  if (absl::Status status = CheckComposition(composition); !status.ok()) return status;
  const auto free_rows =
      static_cast<uint64_t>(std::count(composition.begin(), composition.end(), kEmptyRow));
  if (free_rows > kCountMaxFreeRows) {
    // A limit of the counters' bitboards that no server can lift: the
    // request is refused as one no build of this code answers.
    return absl::InvalidArgumentError(
        absl::StrCat("counting and enumerating take boards of at most ", kCountMaxFreeRows,
                     " free rows (rows without a queen); this board has ", free_rows));
  }
  return ResidualOf(std::move(composition));
}

Residual ResidualOf(Columns composition) {
  const uint64_t n = composition.size();
  Residual residual;
  std::vector<bool> column_taken(n, false);
  for (uint64_t row = 0; row < n; ++row) {
    if (composition[row] == kEmptyRow) {
      residual.rows.push_back(row);
    } else {
      column_taken[composition[row] - 1] = true;
    }
  }
  for (uint64_t column = 0; column < n; ++column) {
    if (!column_taken[column]) residual.columns.push_back(column);
  }
  residual.composition = std::move(composition);
  return residual;
}

ShiftGeometry::ShiftGeometry(const Residual& residual) {
  const size_t levels = residual.rows.size();
  const auto n = static_cast<int64_t>(residual.composition.size());
  blocked_.resize(levels);
  gap_.resize(levels, 0);
  uint64_t open = 0;  // the free columns
  for (uint64_t column : residual.columns) open |= uint64_t{1} << column;
  for (size_t level = 0; level < levels; ++level) {
    const auto row = static_cast<int64_t>(residual.rows[level]);
    uint64_t diagonals = 0;
    for (int64_t given = 0; given < n; ++given) {
      if (residual.composition[given] == kEmptyRow) continue;
      const int64_t column = residual.composition[given] - 1;
      for (const int64_t hit : {column + (row - given), column - (row - given)}) {
        if (hit >= 0 && hit < n) diagonals |= uint64_t{1} << hit;
      }
    }
    blocked_[level] = ~open | diagonals;
    if (level + 1 < levels) {
      gap_[level] = static_cast<uint32_t>(residual.rows[level + 1] - residual.rows[level]);
    }
  }
}

TableGeometry::TableGeometry(const Residual& residual)
    : levels_(residual.rows.size()), open_(OpenCells(residual)), columns_(residual.columns) {
  attacks_.assign(levels_ * levels_ * levels_, {kNoColumn, kNoColumn});
  auto index_of = [this](int64_t column) {
    if (column < 0) return kNoColumn;
    auto it = std::lower_bound(columns_.begin(), columns_.end(), static_cast<uint64_t>(column));
    if (it == columns_.end() || *it != static_cast<uint64_t>(column)) return kNoColumn;
    return static_cast<uint8_t>(it - columns_.begin());
  };
  for (size_t above = 0; above < levels_; ++above) {
    for (size_t level = above + 1; level < levels_; ++level) {
      const auto gap = static_cast<int64_t>(residual.rows[level] - residual.rows[above]);
      for (size_t a = 0; a < levels_; ++a) {
        const auto column = static_cast<int64_t>(columns_[a]);
        attacks_[(above * levels_ + level) * levels_ + a] = {index_of(column - gap),
                                                             index_of(column + gap)};
      }
    }
  }
}

uint64_t TableGeometry::Open(const Frame& frame, size_t level, const uint64_t* placed) const {
  // Index kNoColumn (64) maps to no bit.
  static constexpr auto kBit = [] {
    std::array<uint64_t, kNoColumn + 1> bits{};
    for (uint8_t a = 0; a < kNoColumn; ++a) bits[a] = uint64_t{1} << a;
    return bits;
  }();
  uint64_t open = open_[level] & ~frame.down;
  for (size_t above = 0; above < level; ++above) {
    const std::array<uint8_t, 2>& attacked =
        attacks_[(above * levels_ + level) * levels_ + absl::countr_zero(placed[above])];
    open &= ~(kBit[attacked[0]] | kBit[attacked[1]]);
  }
  return open;
}

Geometry MakeGeometry(const Residual& residual) {
  if (residual.composition.size() <= 64) return ShiftGeometry(residual);
  return TableGeometry(residual);
}

}  // namespace nqueens::internal
