// The residual board of a composition, shared by counting and enumerating:
// its free rows ("levels", top to bottom) and free columns, and which the
// given queens' diagonals leave open in each free row. The depth-first
// search over the levels is in residual_search.h.
//
// Two geometries carry a search from one level to the next:
// - ShiftGeometry (n <= 64): masks over the board's columns; a queen's
//   diagonals move one column per row, so between free rows `gap` apart the
//   left and right masks shift by `gap` (the classic left/down/right masks,
//   generalised to rows that are not consecutive).
// - TableGeometry (n > 64, at most 64 free rows): masks over the free
//   columns' indices, where diagonals are not shifts; each level's open
//   columns are recomputed from the queens placed above it through a table
//   of which free column a queen attacks in which later free row.
#ifndef NQUEENS_COUNT_RESIDUAL_H_
#define NQUEENS_COUNT_RESIDUAL_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <variant>
#include <vector>

#include "absl/numeric/bits.h"
#include "absl/status/statusor.h"
#include "nqueens/board.h"

namespace nqueens::internal {

struct Residual {
  Columns composition;
  std::vector<uint64_t> rows;     // free rows, 0-based, ascending
  std::vector<uint64_t> columns;  // free columns, 0-based, ascending
};

// Validates `composition` (INVALID_ARGUMENT for a malformed board, attacking
// queens, or more than kCountMaxFreeRows free rows) and builds its residual.
absl::StatusOr<Residual> MakeResidual(Columns composition);
// The residual of a composition known to be valid, with at most
// kCountMaxFreeRows free rows.
Residual ResidualOf(Columns composition);

class ShiftGeometry {
 public:
  struct Frame {
    uint64_t left = 0, down = 0, right = 0;
  };
  explicit ShiftGeometry(const Residual& residual);

  Frame Root() const { return {}; }
  uint64_t Open(const Frame& frame, size_t level, const uint64_t* /*placed*/) const {
    return ~(frame.left | frame.down | frame.right | blocked_[level]);
  }
  Frame Child(const Frame& frame, size_t level, uint64_t bit) const {
    const uint32_t gap = gap_[level];
    return {(frame.left | bit) << gap, frame.down | bit, (frame.right | bit) >> gap};
  }
  uint64_t blocked(size_t level) const { return blocked_[level]; }
  uint32_t gap(size_t level) const { return gap_[level]; }
  // The 0-based board column of a placed bit.
  uint64_t Column(size_t /*level*/, uint64_t bit) const { return absl::countr_zero(bit); }

 private:
  std::vector<uint64_t> blocked_;  // per level: the columns closed by the given queens
  std::vector<uint32_t> gap_;      // per level: rows down to the next level
};

class TableGeometry {
 public:
  struct Frame {
    uint64_t down = 0;  // free column indices taken
  };
  explicit TableGeometry(const Residual& residual);

  Frame Root() const { return {}; }
  uint64_t Open(const Frame& frame, size_t level, const uint64_t* placed) const;
  Frame Child(const Frame& frame, size_t /*level*/, uint64_t bit) const {
    return {frame.down | bit};
  }
  uint64_t Column(size_t /*level*/, uint64_t bit) const { return columns_[absl::countr_zero(bit)]; }

 private:
  size_t levels_;
  // Per level: bit a set when free column `columns_[a]` is on no given
  // queen's diagonal there.
  std::vector<uint64_t> open_;
  std::vector<uint64_t> columns_;
  // attacks_[(above * levels_ + level) * levels_ + a]: the free column
  // indices (64: none) on the diagonals, in `level`, of a queen on free
  // column a in the level `above`.
  std::vector<std::array<uint8_t, 2>> attacks_;
};

using Geometry = std::variant<ShiftGeometry, TableGeometry>;
Geometry MakeGeometry(const Residual& residual);

}  // namespace nqueens::internal

#endif  // NQUEENS_COUNT_RESIDUAL_H_
