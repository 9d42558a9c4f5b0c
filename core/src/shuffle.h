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

// Random bucket numbers of `bits` bits each, several from one step of `rng`.
class BucketDraws {
 public:
  BucketDraws(Rng& rng, int bits) : rng_(rng), bits_(bits) {}
  size_t Next() {
    if (left_ < bits_) {
      word_ = rng_.Next();
      left_ = 64;
    }
    const size_t bucket = static_cast<size_t>(word_ >> (64 - bits_));
    word_ <<= bits_;
    left_ -= bits_;
    return bucket;
  }

 private:
  Rng& rng_;
  int bits_;
  uint64_t word_ = 0;
  int left_ = 0;
};

// When a list is dealt into buckets, and how big they are.
struct ShuffleSizes {
  // Up to 4 MiB of values a plain Fisher-Yates is faster: its swaps hit the
  // cache (1.4 against 2.7 ns per value at 8 * 10^5 values; the two are even
  // at 3 * 10^6).
  size_t plain_up_to = size_t{1} << 20;
  size_t bucket = size_t{1} << 15;  // 128 KiB of uint32: in L2
  // But at most 2^9 buckets: dealing into more streams costs more than the
  // bigger buckets' Fisher-Yates (8.3 * 10^7 values: 2.6 ns per value with
  // 512 buckets, 4.5 with 4,096).
  int max_bucket_bits = 9;
};

// Fills `out` with the `count` values that `visit` yields, in uniformly random
// order. visit(emit) must call emit(value) for the same values in the same
// order each time (it is called twice) and stop early when emit returns
// false. should_stop() is polled every few thousand values; returns false
// when it fired (`out` is then unspecified).
template <typename Visit, typename StopFn>
bool ShuffledCopy(size_t count, Visit visit, Rng& rng, StopFn should_stop,
                  HugeVector<uint32_t>& out, ShuffleSizes sizes = {}) {
  if (out.capacity() < count) {
    out = {};  // nothing to copy over
    out.reserve(count);
  }
  out.resize(count);
  int bits = 0;
  while (count > sizes.plain_up_to && (count >> bits) > sizes.bucket &&
         bits < sizes.max_bucket_bits) {
    ++bits;
  }
  size_t seen = 0;
  bool stopped = false;
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
  Rng replay = rng;
  BucketDraws sizing(rng, bits), dealing(replay, bits);
  std::vector<size_t> start((size_t{1} << bits) + 1, 0);
  visit([&](uint32_t) {
    ++start[sizing.Next() + 1];
    return poll();
  });
  if (stopped) return false;
  for (size_t b = 1; b < start.size(); ++b) start[b] += start[b - 1];
  std::vector<size_t> next(start.begin(), start.end() - 1);
  visit([&](uint32_t value) {
    out[next[dealing.Next()]++] = value;
    return poll();
  });
  if (stopped) return false;
  for (size_t b = 0; b + 1 < start.size(); ++b) {
    // Read the bucket in order first: the swaps below touch it at random,
    // which the hardware prefetcher cannot follow when it comes from memory.
    uint32_t touched = 0;
    for (size_t i = start[b]; i < start[b + 1]; i += 16) touched |= out[i];
    asm volatile("" : : "r"(touched));
    if (!rng.Shuffle(out.begin() + start[b], out.begin() + start[b + 1], should_stop)) return false;
  }
  return true;
}

// The values of `in`, in uniformly random order, into `out`.
template <typename StopFn>
bool ShuffledCopy(const HugeVector<uint32_t>& in, Rng& rng, StopFn should_stop,
                  HugeVector<uint32_t>& out, ShuffleSizes sizes = {}) {
  const auto visit = [&in](auto emit) {
    for (uint32_t value : in) {
      if (!emit(value)) return;
    }
  };
  return ShuffledCopy(in.size(), visit, rng, should_stop, out, sizes);
}

}  // namespace nqueens::internal

#endif  // NQUEENS_SRC_SHUFFLE_H_
