#include "pipeline/chunk_pair_order.h"

#include <algorithm>
#include <utility>

namespace nqueens::internal {

ChunkPairWords WordsOf(uint32_t n, uint32_t first_row, uint32_t last_row, uint32_t first_column,
                       uint32_t last_column) {
  const auto word = [](uint64_t bit) { return bit >> 6; };
  return {{word(first_row), word(first_column), word(uint64_t{n} + first_column - last_row),
           word(uint64_t{first_row} + first_column)},
          {word(last_row), word(last_column), word(uint64_t{n} + last_column - first_row),
           word(uint64_t{last_row} + last_column)}};
}

std::optional<size_t> ChunkPairOrder::Take() {
  absl::MutexLock lock(&mutex_);
  if (next_ >= end_) return std::nullopt;
  const size_t pair = next_++;
  const ChunkPairWords words = words_(pair);
  // Every pair under way came earlier: pairs are taken in order.
  std::vector<size_t> blockers;
  for (const Running& running : running_) {
    if (running.words.Overlaps(words)) blockers.push_back(running.pair);
  }
  running_.push_back({pair, words});
  if (!blockers.empty()) {
    const auto blocked = [this, &blockers]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
      return std::any_of(running_.begin(), running_.end(), [&blockers](const Running& running) {
        return std::find(blockers.begin(), blockers.end(), running.pair) != blockers.end();
      });
    };
    mutex_.Await(absl::Condition(
        +[](decltype(blocked)* is_blocked) { return !(*is_blocked)(); }, &blocked));
  }
  return pair;
}

void ChunkPairOrder::Done(size_t pair) {
  absl::MutexLock lock(&mutex_);
  running_.erase(std::find_if(running_.begin(), running_.end(),
                              [pair](const Running& running) { return running.pair == pair; }));
}

}  // namespace nqueens::internal
