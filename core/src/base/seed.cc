#include "nqueens/seed.h"

#include <atomic>
#include <random>

namespace nqueens {
namespace {

uint64_t SeedFromSystem() {
  std::random_device device;
  return (uint64_t{device()} << 32) | device();
}

// SplitMix64's finaliser: consecutive inputs, unrelated outputs.
uint64_t Mix(uint64_t x) {
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9;
  x = (x ^ (x >> 27)) * 0x94d049bb133111eb;
  return x ^ (x >> 31);
}

}  // namespace

uint64_t FreshSeed() {
  static const uint64_t base = SeedFromSystem();
  static std::atomic<uint64_t> calls{0};
  return Mix(base + 0x9e3779b97f4a7c15 * calls.fetch_add(1, std::memory_order_relaxed));
}

}  // namespace nqueens
