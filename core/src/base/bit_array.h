// A fixed-size array of bits in 64-bit words: the control arrays of the
// pipeline (columns, diagonals) cost one bit per line, so a 10^8-row board
// keeps them in a few tens of megabytes.
#ifndef NQUEENS_BASE_BIT_ARRAY_H_
#define NQUEENS_BASE_BIT_ARRAY_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "base/huge_pages.h"
#include "base/prefetch.h"
#include "base/stop_poller.h"

namespace nqueens::internal {

class BitArray {
 public:
  BitArray() = default;
  explicit BitArray(size_t size) { words_.assign(WordsFor(size), 0); }

  // What an array of `size` bits holds.
  static size_t BytesFor(size_t size) { return sizeof(uint64_t) * WordsFor(size); }

  // Makes this `size` clear bits, zeroing them in stretches polled by `stop`:
  // 2n bits are 250 MB at n = 10^9. False once stopped, leaving the array
  // unusable.
  bool Reset(size_t size, StopPoller& stop) {
    words_.clear();
    return AppendPolled(words_, WordsFor(size), 0, stop);
  }

  bool Test(size_t i) const { return (words_[i >> 6] >> (i & 63)) & 1; }
  void Set(size_t i) { words_[i >> 6] |= uint64_t{1} << (i & 63); }
  // Set(i) when `value`, without a branch.
  void SetIf(size_t i, bool value) { words_[i >> 6] |= uint64_t{value} << (i & 63); }
  void Clear(size_t i) { words_[i >> 6] &= ~(uint64_t{1} << (i & 63)); }
  // Clears every bit, in polled stretches; false once stopped, with part
  // cleared.
  bool ClearAll(StopPoller& stop) {
    return RunInStretches(0, words_.size(), stop, [this](size_t first, size_t last) {
      std::fill(words_.begin() + first, words_.begin() + last, 0);
    });
  }
  void Prefetch(size_t i) const { PrefetchLine(&words_[i >> 6]); }
  // Prefetches the words of bits [first, last), to be written when `write`
  // (base/prefetch.h).
  void PrefetchRange(size_t first, size_t last, bool write = false) const {
    if (first < last) {
      internal::PrefetchRange(&words_[first >> 6], &words_[(last - 1) >> 6] + 1, write);
    }
  }

  // Calls emit(i) for each clear bit i in [first, last), ascending, while emit
  // returns true. A word at a time: a branch per bit would be a coin toss.
  template <typename Emit>
  void ForEachClear(size_t first, size_t last, Emit emit) const {
    for (size_t word = first >> 6; word << 6 < last; ++word) {
      for (uint64_t clear = ClearIn(word, first, last); clear != 0; clear &= clear - 1) {
        if (!emit((word << 6) + static_cast<size_t>(__builtin_ctzll(clear)))) return;
      }
    }
  }
  // The number of clear bits in [first, last).
  size_t CountClear(size_t first, size_t last) const {
    size_t count = 0;
    for (size_t word = first >> 6; word << 6 < last; ++word) {
      count += static_cast<size_t>(__builtin_popcountll(ClearIn(word, first, last)));
    }
    return count;
  }

  // The clear bits of word `word` (bits 64 * word ...) that lie in
  // [first, last), as set bits.
  uint64_t ClearIn(size_t word, size_t first, size_t last) const {
    uint64_t clear = ~words_[word];
    if (word == first >> 6) clear &= ~uint64_t{0} << (first & 63);
    if ((word + 1) << 6 > last) clear &= ~uint64_t{0} >> (64 - (last & 63));
    return clear;
  }

 private:
  static size_t WordsFor(size_t size) { return (size + 63) / 64; }

  HugeVector<uint64_t> words_;
};

}  // namespace nqueens::internal

#endif  // NQUEENS_BASE_BIT_ARRAY_H_
