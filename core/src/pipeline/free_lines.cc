#include "pipeline/free_lines.h"

#include <algorithm>

namespace nqueens::internal {

bool FreeLines::Cut(size_t free, size_t chunks, StopPoller& stop) {
  free_ = free;
  chunks_ = std::max<size_t>(chunks, 1);
  bounds_.clear();
  // One chunk a pass (boards below pairing_chunks_from_n) lists the lines
  // from the start: a list of n lines costs little there, and reading its
  // lines in their kept order costs less than shuffling them again.
  if (listed_ || free * kListBelow < n_ || chunks_ == 1) {
    return UpdateList(free, stop) && CutList(stop);
  }
  return CutBits(free, stop);
}

bool FreeLines::CutBits(size_t free, StopPoller& stop) {
  // Chunk k starts at the free line numbered k * free / chunks (from 0), as
  // the list would be cut; a word's count of free lines says whether a start
  // falls in it, and only then are its bits looked at one by one.
  const size_t end = size_t{n_} + 1;
  bounds_.push_back(1);
  size_t seen = 0;  // free lines before `word`
  size_t next = 1;  // the chunk whose first line comes next
  size_t wanted = free / chunks_;
  for (size_t word = 0; word << 6 < end; ++word) {
    // A word costs a nanosecond or two: poll as a pass over rows does.
    if (word % StopPoller::kRowsPerPoll == 0 && stop.CheckNow()) return false;
    const uint64_t clear = used_.ClearIn(word, 1, end);
    const auto count = static_cast<size_t>(__builtin_popcountll(clear));
    while (next < chunks_ && seen + count > wanted) {
      uint64_t bits = clear;
      for (size_t skip = wanted - seen; skip > 0; --skip) bits &= bits - 1;
      bounds_.push_back(static_cast<uint32_t>((word << 6) + __builtin_ctzll(bits)));
      ++next;
      wanted = next * free / chunks_;
    }
    seen += count;
  }
  bounds_.push_back(static_cast<uint32_t>(end));
  return true;
}

bool FreeLines::CutList(StopPoller& stop) {
  const size_t free = list_.size();
  first_.clear();
  last_.clear();
  for (size_t chunk = 0; chunk <= chunks_; ++chunk) {
    if (chunk % StopPoller::kRowsPerPoll == 0 && stop.CheckNow()) return false;
    bounds_.push_back(static_cast<uint32_t>(chunk * free / chunks_));
  }
  // Each chunk's range, for the threads' order and the prefetches: plain
  // min and max, which the compiler vectorizes. One chunk spans the board.
  if (chunks_ == 1) {
    first_.push_back(1);
    last_.push_back(n_);
    return true;
  }
  for (size_t chunk = 0; chunk < chunks_; ++chunk) {
    if (stop.ShouldStop(Count(chunk))) return false;
    uint32_t low = n_, high = 0;
    for (uint32_t i = bounds_[chunk]; i < bounds_[chunk + 1]; ++i) {
      low = std::min(low, list_[i]);
      high = std::max(high, list_[i]);
    }
    first_.push_back(low);
    last_.push_back(high);
  }
  return true;
}

bool FreeLines::UpdateList(size_t free, StopPoller& stop) {
  if (!listed_) {
    listed_ = true;
    random_order_ = false;
    list_.clear();
    list_.reserve(free);
    return RunInStretches(1, size_t{n_} + 1, stop, [this](size_t first, size_t last) {
      used_.ForEachClear(first, last, [this](size_t line) {
        list_.push_back(static_cast<uint32_t>(line));
        return true;
      });
    });
  }
  // Branch-free: whether a line was placed is a coin toss.
  size_t kept = 0;
  const bool done = RunInStretches(0, list_.size(), stop, [this, &kept](size_t first, size_t last) {
    for (size_t i = first; i < last; ++i) {
      const uint32_t line = list_[i];
      list_[kept] = line;
      kept += line != kTaken;
    }
  });
  list_.resize(kept);
  return done;
}

void FreeLines::Prefetch(size_t chunk) const {
  if (listed_) {
    PrefetchRange(list_.data() + bounds_[chunk], list_.data() + bounds_[chunk + 1]);
    return;
  }
  used_.PrefetchRange(bounds_[chunk], bounds_[chunk + 1]);
}

absl::Span<uint32_t> FreeLines::ReadShuffled(size_t chunk, Rng& rng,
                                             std::vector<uint32_t>& buffer) const {
  buffer.resize(Count(chunk));
  // On a copy, as in Rng::Shuffle: the writes to buffer[] would otherwise
  // keep the generator's state in memory.
  Rng local = rng;
  uint32_t* const lines = buffer.data();
  uint32_t count = 0;
  const size_t first = bounds_[chunk], last = bounds_[chunk + 1];
  for (size_t word = first >> 6; word << 6 < last; ++word) {
    for (uint64_t clear = used_.ClearIn(word, first, last); clear != 0; clear &= clear - 1) {
      // Inside-out Fisher-Yates: the new line takes a uniformly random place
      // among the first count + 1, and the line it displaces moves to the end.
      const uint32_t place = local.Below(count + 1);
      lines[count] = lines[place];
      lines[place] = static_cast<uint32_t>((word << 6) + __builtin_ctzll(clear));
      ++count;
    }
  }
  rng = local;
  return absl::MakeSpan(lines, count);
}

}  // namespace nqueens::internal
