// The composition a certificate is checked against, as the checker sees it:
// its free rows and free columns, numbered 0 .. d-1 in board order, and the
// diagonals its queens hold. Both board representations (word_board.h,
// wide_board.h) and the text format's coordinates start from it.
#ifndef NQUEENS_CHECKER_COMPOSITION_H_
#define NQUEENS_CHECKER_COMPOSITION_H_

#include <cstdint>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"

namespace nqueens::checker {

// No free line: a board coordinate outside the free rows (or columns), or a
// free index read from a certificate that is not below d.
inline constexpr uint32_t kNone = UINT32_MAX;

class Composition {
 public:
  // `columns`: the column of each row's queen, 1-based, 0 for an empty row.
  // INVALID_ARGUMENT when a queen is off the board or attacks another.
  static absl::StatusOr<Composition> Make(const std::vector<uint32_t>& columns);

  uint64_t n() const { return n_; }
  uint64_t given() const { return given_; }
  uint32_t d() const { return static_cast<uint32_t>(rows_.size()); }
  // Board coordinates (1-based) of free row a and free column b.
  uint32_t Row(uint32_t a) const { return rows_[a]; }
  uint32_t Column(uint32_t b) const { return columns_[b]; }
  // The free index of board row r (column c), or kNone.
  uint32_t FreeRow(uint64_t r) const { return Find(free_row_, r); }
  uint32_t FreeColumn(uint64_t c) const { return Find(free_column_, c); }
  // Whether a queen of the composition shares a diagonal with board cell
  // (r, c) (1-based).
  bool Attacked(uint64_t r, uint64_t c) const { return down_[Down(r, c)] || up_[r + c]; }
  // The diagonals' indices, 0 .. 2n, which `down()` and `up()` flag.
  uint64_t Down(uint64_t r, uint64_t c) const { return r + n_ - c; }
  const std::vector<bool>& down() const { return down_; }
  const std::vector<bool>& up() const { return up_; }

 private:
  explicit Composition(uint64_t n);
  using FreeIndex = absl::flat_hash_map<uint64_t, uint32_t>;
  static uint32_t Find(const FreeIndex& lines, uint64_t x) {
    const auto found = lines.find(x);
    return found == lines.end() ? kNone : found->second;
  }

  uint64_t n_;
  uint64_t given_ = 0;
  std::vector<uint32_t> rows_, columns_;  // free lines, ascending
  FreeIndex free_row_, free_column_;      // by board coordinate: O(d) memory
  std::vector<bool> down_, up_;           // by Down(r, c), r + c
};

}  // namespace nqueens::checker

#endif  // NQUEENS_CHECKER_COMPOSITION_H_
