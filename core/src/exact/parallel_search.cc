#include "exact/parallel_search.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <thread>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"

namespace nqueens::internal {
namespace {

// Subtrees per thread: enough that one deep subtree rarely leaves the other
// threads idle for long, few enough that expanding the top stays cheap.
constexpr size_t kSubtreesPerThread = 16;

using Prefix = std::vector<WordCell>;

// A subtree to search: its cells from the root, and its share of the whole
// tree by the estimate of SearchOutcome::explored (the product of 1 /
// children along the path), which weighs what the subtree's search explored.
struct Subtree {
  Prefix prefix;
  double share = 1.0;
};

// The top of the tree, down to the first depth with `wanted` nodes (or full
// placements), in the order the search visits it; none when every node
// there is a dead end. Counts the nodes it creates in `outcome`, and the
// shares of the dead ends in its `explored`.
std::vector<Subtree> Subtrees(WordSearch& top, uint32_t size, size_t wanted, uint64_t node_budget,
                              SearchOutcome& outcome) {
  std::vector<Subtree> level = {{}};
  while (!level.empty() && level.size() < wanted && level.front().prefix.size() < size) {
    std::vector<Subtree> next;
    for (const Subtree& parent : level) {
      const std::vector<WordCell> children = top.Children(parent.prefix);
      if (children.empty()) outcome.explored += parent.share;
      for (const WordCell child : children) {
        next.push_back({parent.prefix, parent.share / static_cast<double>(children.size())});
        next.back().prefix.push_back(child);
      }
    }
    outcome.nodes += next.size();
    if (outcome.nodes > node_budget) {
      outcome.nodes = node_budget;
      outcome.budget_exhausted = true;
      return {};
    }
    level = std::move(next);
  }
  return level;
}

// What the calling thread and its helpers share. Helpers hold it by
// shared_ptr: a helper may start after the search has ended, and must then
// leave `board` alone.
class SharedSearch {
 public:
  SharedSearch(const WordBoard& board, SearchMode mode, uint64_t node_budget, uint64_t nodes_used,
               uint64_t tie_seed, std::vector<Subtree> subtrees)
      : board_(board),
        mode_(mode),
        node_budget_(node_budget),
        tie_seed_(tie_seed),
        nodes_used_(nodes_used),
        subtrees_(std::move(subtrees)) {}

  // Searches subtrees until none is left or the search is abandoned.
  void TakeSubtrees(const StopCondition& condition) {
    {
      absl::MutexLock lock(&mutex_);
      if (closed_) return;
      ++searching_;
    }
    StopPoller stop(condition);
    WordSearch search(board_, mode_, stop, tie_seed_);
    NodeAllowance allowance(node_budget_, &nodes_used_);
    for (size_t index; (index = next_.fetch_add(1)) < subtrees_.size() && !abandoned_.load();) {
      SearchOutcome outcome = search.Search(subtrees_[index].prefix, allowance);
      absl::MutexLock lock(&mutex_);
      Absorb(std::move(outcome), subtrees_[index].share, !stop.status().ok());
    }
    absl::MutexLock lock(&mutex_);
    --searching_;
  }

  // A stop for helpers: the abandonment only, as the caller's condition may
  // refer to a call that has ended.
  static StopCondition HelperStop(const std::shared_ptr<SharedSearch>& self) {
    StopCondition stop;
    stop.cancelled = [self] { return self->abandoned_.load(); };
    return stop;
  }

  bool abandoned() const { return abandoned_.load(); }
  void Abandon() { abandoned_.store(true); }

  // Waits until no helper searches, abandoning the search once `stop`
  // fires; then no helper starts any more.
  SearchOutcome Finish(StopPoller& stop) {
    absl::MutexLock lock(&mutex_);
    const absl::Condition idle(
        +[](int* searching) { return *searching == 0; }, &searching_);
    while (!mutex_.AwaitWithDeadline(idle, absl::Now() + kStopPollInterval)) {
      if (stop.CheckNow()) Abandon();
    }
    closed_ = true;
    outcome_.budget_exhausted = exhausted_;
    outcome_.explored = explored_;
    return std::move(outcome_);
  }

 private:
  // How often the calling thread looks at its stop while helpers search.
  static constexpr absl::Duration kStopPollInterval = absl::Milliseconds(20);

  void Absorb(SearchOutcome outcome, double share, bool stopped)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    outcome_.nodes += outcome.nodes;
    outcome_.solutions += outcome.solutions;
    explored_ += share * outcome.explored;
    if (outcome.solutions > 0 && outcome_.placement.empty()) {
      outcome_.placement = std::move(outcome.placement);
    }
    exhausted_ = exhausted_ || outcome.budget_exhausted;
    // A subtree cut short leaves no proof: nothing more is worth searching.
    if (outcome.budget_exhausted || stopped ||
        (mode_ == SearchMode::kFirstSolution && outcome.solutions > 0)) {
      Abandon();
    }
  }

  const WordBoard& board_;
  const SearchMode mode_;
  const uint64_t node_budget_, tie_seed_;
  std::atomic<uint64_t> nodes_used_;
  const std::vector<Subtree> subtrees_;
  std::atomic<size_t> next_{0};
  std::atomic<bool> abandoned_{false};
  absl::Mutex mutex_;
  int searching_ ABSL_GUARDED_BY(mutex_) = 0;
  bool closed_ ABSL_GUARDED_BY(mutex_) = false;
  bool exhausted_ ABSL_GUARDED_BY(mutex_) = false;
  double explored_ ABSL_GUARDED_BY(mutex_) = 0;  // the subtrees' shares searched
  SearchOutcome outcome_ ABSL_GUARDED_BY(mutex_);
};

}  // namespace

SearchOutcome RunParallelWordSearch(const WordBoard& board, SearchMode mode, uint64_t node_budget,
                                    StopPoller& stop, uint64_t tie_seed,
                                    const SearchThreads& threads) {
  SearchOutcome top_outcome;
  WordSearch top(board, mode, stop, tie_seed);
  std::vector<Subtree> subtrees = Subtrees(
      top, board.size(), kSubtreesPerThread * std::max(threads.count, 1), node_budget, top_outcome);
  if (top_outcome.budget_exhausted || stop.CheckNow()) return top_outcome;
  auto shared = std::make_shared<SharedSearch>(board, mode, node_budget, top_outcome.nodes,
                                               tie_seed, std::move(subtrees));
  const StopCondition helper_stop = SharedSearch::HelperStop(shared);
  std::vector<std::thread> own_threads;
  for (int helper = 1; helper < threads.count; ++helper) {
    auto job = [shared, helper_stop] { shared->TakeSubtrees(helper_stop); };
    if (!threads.run) {
      own_threads.emplace_back(std::move(job));
    } else if (!threads.run(std::move(job))) {
      break;  // fewer helpers, not an error
    }
  }
  // The calling thread follows its own stop too.
  StopCondition caller_stop;
  caller_stop.cancelled = [&stop, &shared] { return shared->abandoned() || stop.CheckNow(); };
  shared->TakeSubtrees(caller_stop);
  SearchOutcome outcome = shared->Finish(stop);
  for (std::thread& thread : own_threads) thread.join();
  outcome.nodes += top_outcome.nodes;
  // The shares are products of fractions: a whole tree may add up to a hair
  // off 1.
  outcome.explored = std::min(1.0, outcome.explored + top_outcome.explored);
  return outcome;
}

}  // namespace nqueens::internal
