// The pipeline's random source: xoshiro256** seeded through splitmix64, with
// Lemire's unbiased bounded integers. Written out rather than taken from
// <random> because std::uniform_int_distribution and std::shuffle are
// implementation-defined: the same seed must give the same board everywhere.
#ifndef NQUEENS_BASE_RNG_H_
#define NQUEENS_BASE_RNG_H_

#include <cstdint>
#include <utility>

namespace nqueens::internal {

class Rng {
 public:
  explicit Rng(uint64_t seed) {
    for (uint64_t& word : state_) word = SplitMix64(seed);
  }

  uint64_t Next() {
    const uint64_t result = Rotl(state_[1] * 5, 7) * 9;
    const uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = Rotl(state_[3], 45);
    return result;
  }

  // 32 random bits: the halves of one Next() in turn, so that the small
  // bounded draws of the shuffles cost half a generator step each.
  uint32_t Next32() {
    if (has_half_) {
      has_half_ = false;
      return half_;
    }
    const uint64_t word = Next();
    half_ = static_cast<uint32_t>(word);
    has_half_ = true;
    return static_cast<uint32_t>(word >> 32);
  }

  // Uniform in [0, bound); bound > 0.
  uint32_t Below(uint32_t bound) {
    uint64_t product = uint64_t{Next32()} * bound;
    uint32_t low = static_cast<uint32_t>(product);
    if (low < bound) {
      const uint32_t threshold = static_cast<uint32_t>(-bound) % bound;
      while (low < threshold) {
        product = uint64_t{Next32()} * bound;
        low = static_cast<uint32_t>(product);
      }
    }
    return static_cast<uint32_t>(product >> 32);
  }

  // Fisher-Yates over [first, last). Calls should_stop() every few thousand
  // swaps (a shuffle of 10^8 elements takes seconds) and returns false,
  // leaving the range partly shuffled, when it says so.
  template <typename It, typename StopFn>
  bool Shuffle(It first, It last, StopFn&& should_stop) {
    // On a copy: the swaps write through `first`, which the compiler must
    // otherwise assume may alias half_, and so keep the state in memory.
    Rng local = *this;
    bool done = true;
    for (auto i = last - first; i > 1; --i) {
      if ((i & 0x3fff) == 0 && should_stop()) {
        done = false;
        break;
      }
      std::swap(first[i - 1], first[local.Below(static_cast<uint32_t>(i))]);
    }
    *this = local;
    return done;
  }
  template <typename It>
  void Shuffle(It first, It last) {
    Shuffle(first, last, [] { return false; });
  }

 private:
  static uint64_t SplitMix64(uint64_t& x) {
    uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  static uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

  uint64_t state_[4];
  uint32_t half_ = 0;  // the unused half of the last Next(), for Next32
  bool has_half_ = false;
};

}  // namespace nqueens::internal

#endif  // NQUEENS_BASE_RNG_H_
