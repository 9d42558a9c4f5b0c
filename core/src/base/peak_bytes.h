// The units of the peak-memory model behind nqueens/memory.h: arrays sized
// as their allocator sizes them. Each method states its own peak in these
// (its *PeakBytes function, next to the arrays it allocates).
#ifndef NQUEENS_BASE_PEAK_BYTES_H_
#define NQUEENS_BASE_PEAK_BYTES_H_

#include <cstdint>

namespace nqueens::internal {

inline constexpr uint64_t kMiB = uint64_t{1} << 20;
inline constexpr uint64_t kHugePage = 2 * kMiB;

// Whatever n is: stacks, code and small tables (under 1 MiB), and the boards
// that malloc maps (the input, the result, a copy): their header may spill
// them into one more page, a 2 MiB one where transparent huge pages are on
// for all memory ("always"), up to three boards at once.
inline constexpr uint64_t kFixedPeakBytes = 8 * kMiB;

// What the pipeline's allocator takes for an array (huge_pages.h): from
// 1 MiB on, whole 2 MiB pages, which transparent huge pages fault in whole.
inline uint64_t HugeArray(uint64_t bytes) {
  if (bytes < kMiB) return bytes;
  return (bytes + kHugePage - 1) / kHugePage * kHugePage;
}

inline uint64_t Bits(uint64_t bits) { return HugeArray((bits + 63) / 64 * 8); }

// A board of n rows, 4 bytes each: the input, the result, or a copy.
inline uint64_t Board(uint64_t n) { return HugeArray(4 * n); }

// One bit per column and two per diagonal of each kind (2n of each), as
// BoardState, Validate and the exact search keep them.
inline uint64_t LineBits(uint64_t n) { return Bits(n + 1) + 2 * Bits(2 * n + 1); }

}  // namespace nqueens::internal

#endif  // NQUEENS_BASE_PEAK_BYTES_H_
