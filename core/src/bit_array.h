// A fixed-size array of bits in 64-bit words: the control arrays of the
// pipeline (columns, diagonals) cost one bit per line, so a 10^8-row board
// keeps them in a few tens of megabytes.
#ifndef NQUEENS_SRC_BIT_ARRAY_H_
#define NQUEENS_SRC_BIT_ARRAY_H_

#include <cstddef>
#include <algorithm>
#include <cstdint>
#include <vector>

#include "huge_pages.h"

namespace nqueens::internal {

class BitArray {
 public:
  BitArray() = default;
  explicit BitArray(size_t size) {
    ReserveHuge(words_, (size + 63) / 64);
    words_.assign((size + 63) / 64, 0);
  }

  bool Test(size_t i) const { return (words_[i >> 6] >> (i & 63)) & 1; }
  void Set(size_t i) { words_[i >> 6] |= uint64_t{1} << (i & 63); }
  // Set(i) when `value`, without a branch.
  void SetIf(size_t i, bool value) { words_[i >> 6] |= uint64_t{value} << (i & 63); }
  void Clear(size_t i) { words_[i >> 6] &= ~(uint64_t{1} << (i & 63)); }
  void ClearAll() { std::fill(words_.begin(), words_.end(), 0); }
  void Prefetch(size_t i) const { __builtin_prefetch(&words_[i >> 6]); }

 private:
  std::vector<uint64_t> words_;
};

}  // namespace nqueens::internal

#endif  // NQUEENS_SRC_BIT_ARRAY_H_
