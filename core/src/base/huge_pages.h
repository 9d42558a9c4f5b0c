// Backing big arrays with 2 MiB pages where the kernel allows it
// (transparent huge pages in "madvise" mode, Debian's default). Random
// accesses over hundreds of megabytes miss the TLB on 4 KiB pages, which
// slows block 1's pairing loop (docs/constants.md, AllocateHuge). Only
// advice: where huge pages are unavailable nothing changes.
#ifndef NQUEENS_BASE_HUGE_PAGES_H_
#define NQUEENS_BASE_HUGE_PAGES_H_

#include <cstddef>
#include <vector>

namespace nqueens::internal {

// Memory for an array of `bytes`: from 1 MiB on, mapped straight from the
// kernel, 2 MiB aligned and advised to use huge pages, and unmapped by
// FreeHuge. Fresh 4 KiB pages cost more than they hold here: they are much
// slower to fault in than huge pages (docs/constants.md, AllocateHuge); and
// through malloc such arrays would raise its mmap threshold and stay in its
// heap once freed, adding to the next request's peak.
// Throws std::bad_alloc when there is no memory, like operator new.
void* AllocateHuge(size_t bytes);
void FreeHuge(void* memory, size_t bytes);

// The allocator of the pipeline's big arrays (free-line lists, control bits).
template <typename T>
struct HugePageAllocator {
  using value_type = T;
  HugePageAllocator() = default;
  template <typename U>
  HugePageAllocator(const HugePageAllocator<U>&) {}
  T* allocate(size_t count) { return static_cast<T*>(AllocateHuge(count * sizeof(T))); }
  void deallocate(T* memory, size_t count) { FreeHuge(memory, count * sizeof(T)); }
  template <typename U>
  bool operator==(const HugePageAllocator<U>&) const {
    return true;
  }
  template <typename U>
  bool operator!=(const HugePageAllocator<U>&) const {
    return false;
  }
};

template <typename T>
using HugeVector = std::vector<T, HugePageAllocator<T>>;

// Advises huge pages for the room of `count` values reserved in `values`;
// for the public Columns, which keep the standard allocator.
void AdviseHugePages(const void* data, size_t bytes);
template <typename T>
void ReserveHuge(std::vector<T>& values, size_t count) {
  values.reserve(count);
  AdviseHugePages(values.data(), count * sizeof(T));
}

}  // namespace nqueens::internal

#endif  // NQUEENS_BASE_HUGE_PAGES_H_
