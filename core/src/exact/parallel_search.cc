#include "exact/parallel_search.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "base/parallel_parts.h"

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

// The top of the tree below `root`, down to the first depth with `wanted`
// nodes (or full placements), in the order the search visits it; none when
// every node there is a dead end. Counts the nodes it creates in `outcome`,
// and the shares of the dead ends in its `explored`.
std::vector<Subtree> Subtrees(WordSearch& top, Prefix root, uint32_t size, size_t wanted,
                              uint64_t node_budget, SearchOutcome& outcome) {
  std::vector<Subtree> level = {{std::move(root)}};
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

// Writes the top of the tree below `prefix` down to `depth` (that of the
// subtrees), each subtree a slot of `certificate`: the slots, in the
// subtrees' order.
void WriteTop(WordSearch& search, Prefix& prefix, size_t depth, CertificateWriter& certificate,
              std::vector<size_t>& slots) {
  if (prefix.size() == depth) {
    slots.push_back(certificate.Slot());
    return;
  }
  const std::vector<WordCell> children = search.Children(prefix);  // which writes the node
  for (const WordCell child : children) certificate.Child(child >> 8, child & 0xff);
  for (const WordCell child : children) {
    certificate.Place(child >> 8, child & 0xff);
    prefix.push_back(child);
    WriteTop(search, prefix, depth, certificate, slots);
    prefix.pop_back();
  }
}

// The subtrees' outcomes added up, by whichever thread searched them.
class SubtreeOutcomes {
 public:
  // Adds one subtree's outcome (of the subtree with `share` of the tree);
  // false when nothing more is worth searching.
  bool Add(SearchOutcome outcome, double share, bool stopped) {
    absl::MutexLock lock(&mutex_);
    total_.nodes += outcome.nodes;
    total_.solutions += outcome.solutions;
    total_.explored += share * outcome.explored;
    if (outcome.solutions > 0 && total_.placement.empty()) {
      total_.placement = std::move(outcome.placement);
    }
    total_.budget_exhausted = total_.budget_exhausted || outcome.budget_exhausted;
    // A subtree cut short leaves no proof.
    return !(outcome.budget_exhausted || stopped || outcome.solutions > 0);
  }

  SearchOutcome Take() {
    absl::MutexLock lock(&mutex_);
    return std::move(total_);
  }

 private:
  absl::Mutex mutex_;
  SearchOutcome total_ ABSL_GUARDED_BY(mutex_);
};

// One thread's search of subtrees: its own stop, engine, node allowance and,
// when the search writes a certificate, writer of the subtrees' proofs.
struct SubtreeSearcher {
  SubtreeSearcher(const WordBoard& board, StopCondition stop_condition, uint64_t tie_seed,
                  uint64_t node_budget, std::atomic<uint64_t>* nodes_used,
                  const CertificateWriter* top)
      : condition(std::move(stop_condition)),
        stop(condition),
        writer(top == nullptr ? std::nullopt : std::optional(top->SlotWriter())),
        search(board, stop, tie_seed, {writer.has_value() ? &*writer : nullptr}),
        allowance(node_budget, nodes_used) {}

  // Searches `subtree`, and keeps its proof in `proof` when writing one.
  SearchOutcome Search(const Subtree& subtree, std::optional<std::string>& proof) {
    if (writer.has_value()) writer->Restart();
    SearchOutcome outcome = search.Search(subtree.prefix, allowance);
    if (writer.has_value()) proof = writer->Finish();
    return outcome;
  }

  const StopCondition condition;  // `stop` refers to it
  StopPoller stop;
  std::optional<CertificateWriter> writer;
  WordSearch search;
  NodeAllowance allowance;
};

}  // namespace

SearchOutcome RunParallelWordSearch(const WordBoard& board, uint64_t node_budget, StopPoller& stop,
                                    uint64_t tie_seed, const SearchThreads& threads,
                                    absl::Span<const FreeQueen> prefix,
                                    CertificateWriter* certificate) {
  SearchOutcome top_outcome;
  WordSearch top(board, stop, tie_seed);
  std::vector<Subtree> subtrees =
      Subtrees(top, WordCells(prefix), board.size(),
               kSubtreesPerThread * std::max(threads.count, 1), node_budget, top_outcome);
  if (top_outcome.budget_exhausted || stop.CheckNow()) return top_outcome;
  std::vector<size_t> slots;
  if (certificate != nullptr) {
    WordSearch top_writer(board, stop, tie_seed, {certificate});
    Prefix root = WordCells(prefix);
    const size_t depth = subtrees.empty() ? board.size() + 1 : subtrees.front().prefix.size();
    certificate->Packing(false);
    WriteTop(top_writer, root, depth, *certificate, slots);
    certificate->Packing(true);
  }
  std::vector<std::optional<std::string>> proofs(subtrees.size());
  std::atomic<bool> abandoned{false};
  std::atomic<uint64_t> nodes_used{top_outcome.nodes};
  SubtreeOutcomes outcomes;
  PartsJob job;
  job.parts = subtrees.size();
  job.start_thread = [&](bool on_caller) -> PartRunner {
    // Helpers follow the abandonment alone; the calling thread its own stop
    // too.
    StopCondition condition;
    condition.cancelled = [&abandoned, &stop, on_caller] {
      return abandoned.load() || (on_caller && stop.CheckNow());
    };
    auto searcher = std::make_shared<SubtreeSearcher>(board, condition, tie_seed, node_budget,
                                                      &nodes_used, certificate);
    return [&, searcher](size_t index) {
      SearchOutcome outcome = searcher->Search(subtrees[index], proofs[index]);
      return outcomes.Add(std::move(outcome), subtrees[index].share, !searcher->stop.status().ok());
    };
  };
  job.keep_going = [&stop] { return !stop.CheckNow(); };
  RunParts(job, threads, abandoned);
  SearchOutcome outcome = outcomes.Take();
  for (size_t i = 0; i < slots.size(); ++i) certificate->FillSlot(slots[i], std::move(proofs[i]));
  outcome.nodes += top_outcome.nodes;
  // The shares are products of fractions: a whole tree may add up to a hair
  // off 1.
  outcome.explored = std::min(1.0, outcome.explored + top_outcome.explored);
  return outcome;
}

}  // namespace nqueens::internal
