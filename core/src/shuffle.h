// Uniform shuffling of lists far bigger than the cache (Sanders 1998, "Random
// permutations on distributed, external and hierarchical memory"): deal the
// values at random into buckets of a few ten thousand, each filled
// sequentially, then Fisher-Yates inside each bucket while it sits in cache.
// A uniformly random split followed by uniform shuffles of the parts is a
// uniformly random permutation; a plain Fisher-Yates over 10^8 values instead
// pays a cache miss per swap (about 20 s).
#ifndef NQUEENS_SRC_SHUFFLE_H_
#define NQUEENS_SRC_SHUFFLE_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "huge_pages.h"
#include "rng.h"

namespace nqueens::internal {

// Fills `out` with the values that `visit` yields, in uniformly random order.
// visit(emit) must call emit(value) for the same values in the same order
// each time (it is called twice) and stop early when emit returns false.
// should_stop() is polled every few thousand values; returns false when it
// fired (`out` is then unspecified).
template <typename Visit, typename StopFn>
bool ShuffledCopy(size_t count, Visit visit, Rng& rng, StopFn should_stop,
                  std::vector<uint32_t>& out) {
  if (out.capacity() < count) {
    out = {};
    ReserveHuge(out, count);
  }
  out.resize(count);
  constexpr size_t kBucketSize = size_t{1} << 15;  // 128 KiB of uint32: in L2
  int bits = 0;
  while ((count >> bits) > kBucketSize) ++bits;
  bool stopped = false;
  size_t seen = 0;
  const auto poll = [&] {
    if ((++seen & 0xffff) == 0 && should_stop()) stopped = true;
    return !stopped;
  };
  if (bits == 0) {
    size_t next = 0;
    visit([&](uint32_t value) {
      out[next++] = value;
      return poll();
    });
    return !stopped && rng.Shuffle(out.begin(), out.end(), should_stop);
  }
  // Draw each value's bucket twice from the same random stream: once to size
  // the buckets, once to deal, so no per-value bucket array is needed.
  const Rng replay = rng;
  const auto bucket_of = [bits](Rng& r) { return static_cast<size_t>(r.Next() >> (64 - bits)); };
  std::vector<size_t> start((size_t{1} << bits) + 1, 0);
  visit([&](uint32_t) {
    ++start[bucket_of(rng) + 1];
    return poll();
  });
  if (stopped) return false;
  for (size_t b = 1; b < start.size(); ++b) start[b] += start[b - 1];
  std::vector<size_t> next(start.begin(), start.end() - 1);
  Rng dealer = replay;
  visit([&](uint32_t value) {
    out[next[bucket_of(dealer)]++] = value;
    return poll();
  });
  if (stopped) return false;
  for (size_t b = 0; b + 1 < start.size(); ++b) {
    if (!rng.Shuffle(out.begin() + start[b], out.begin() + start[b + 1], should_stop)) return false;
  }
  return true;
}

}  // namespace nqueens::internal

#endif  // NQUEENS_SRC_SHUFFLE_H_
