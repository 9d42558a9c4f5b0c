#include "base/huge_pages.h"

#include <sys/mman.h>

#include <cstdint>
#include <new>

namespace nqueens::internal {
namespace {

constexpr size_t kHugePage = size_t{2} << 20;
constexpr size_t kFromKernel = kHugePage / 2;

size_t RoundUpToHugePage(size_t bytes) { return (bytes + kHugePage - 1) & ~(kHugePage - 1); }

}  // namespace

void AdviseHugePages(const void* data, size_t bytes) {
  if (bytes < 2 * kHugePage) return;  // too small to hold an aligned huge page
  const uintptr_t begin = (reinterpret_cast<uintptr_t>(data) + kHugePage - 1) & ~(kHugePage - 1);
  const uintptr_t end = (reinterpret_cast<uintptr_t>(data) + bytes) & ~(kHugePage - 1);
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
}

void* AllocateHuge(size_t bytes) {
  if (bytes < kFromKernel) return ::operator new(bytes);
  // Map a huge page more than needed and cut the ends off: mmap aligns to
  // 4 KiB only.
  const size_t size = RoundUpToHugePage(bytes);
  void* mapped =
      mmap(nullptr, size + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapped == MAP_FAILED) throw std::bad_alloc();
  const uintptr_t start = reinterpret_cast<uintptr_t>(mapped);
  const uintptr_t aligned = (start + kHugePage - 1) & ~(kHugePage - 1);
  if (aligned > start) munmap(mapped, aligned - start);
  const uintptr_t tail = aligned + size;
  const uintptr_t mapped_end = start + size + kHugePage;
  if (mapped_end > tail) munmap(reinterpret_cast<void*>(tail), mapped_end - tail);
  madvise(reinterpret_cast<void*>(aligned), size, MADV_HUGEPAGE);
  return reinterpret_cast<void*>(aligned);
}

void FreeHuge(void* memory, size_t bytes) {
  if (bytes < kFromKernel) {
    ::operator delete(memory);
    return;
  }
  munmap(memory, RoundUpToHugePage(bytes));
}

}  // namespace nqueens::internal
