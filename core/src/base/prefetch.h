// Asking the memory system for a whole range ahead of its use: block 1 pairs
// chunks of the board in random order, and a chunk pair's bits and rows are
// a few KiB that are not in cache yet; fetched while the previous pair is
// worked on, they arrive in time instead of stalling every store.
#ifndef NQUEENS_BASE_PREFETCH_H_
#define NQUEENS_BASE_PREFETCH_H_

#include <cstddef>
#include <cstdint>

namespace nqueens::internal {

// Asks for the cache line holding `address`, to be written when `write`.
// GCC takes __builtin_prefetch for an operation without side effects: a loop
// of nothing but prefetches, or a function that only prefetches and is not
// inlined, is deleted as dead code (at -O3 it dropped two of the three
// ranges of BoardState::PrefetchRegion, and every prefetch of the single-
// thread placement of the given queens). An asm statement marked volatile
// is never deleted. x86-64's baseline has no write hint (PREFETCHW is an
// extension), which is what GCC emits for one there too.
inline void PrefetchLine(const void* address, bool write = false) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  (void)write;
  __asm__ volatile("prefetcht0 %0" : : "m"(*static_cast<const char*>(address)));
#else
  if (write) {
    __builtin_prefetch(address, 1);
  } else {
    __builtin_prefetch(address, 0);
  }
#endif
}

// Ranges larger than this are left to the hardware prefetcher: they would
// push out of cache what the current work uses.
inline constexpr size_t kPrefetchMaxBytes = size_t{64} << 10;

// Prefetches the cache lines of [begin, end), to be written when `write`,
// unless the range is larger than kPrefetchMaxBytes.
inline void PrefetchRange(const void* begin, const void* end, bool write = false) {
  constexpr uintptr_t kLine = 64;
  const uintptr_t first = reinterpret_cast<uintptr_t>(begin) & ~(kLine - 1);
  const auto last = reinterpret_cast<uintptr_t>(end);
  if (last <= first || last - first > kPrefetchMaxBytes) return;
  for (uintptr_t line = first; line < last; line += kLine) {
    PrefetchLine(reinterpret_cast<const void*>(line), write);
  }
}

}  // namespace nqueens::internal

#endif  // NQUEENS_BASE_PREFETCH_H_
