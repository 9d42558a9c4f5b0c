#include "count/frontier_count.h"

#include <algorithm>
#include <vector>

#include "absl/numeric/bits.h"
#include "count/residual_search.h"

namespace nqueens::internal {
namespace {

// A node of the search at some level: the classic masks of the columns that
// the queens above attack there (along the two diagonals and downwards), and
// its open cells not yet tried.
struct Node {
  uint64_t left = 0, down = 0, right = 0;
  uint64_t open = 0;
};

// What placing a queen in a level needs to know about the levels below it.
struct LevelStep {
  uint32_t gap = 0;      // rows down to the next level
  uint64_t blocked = 0;  // the next level's cells closed by the given queens
  // A child is kept only if the two levels after it still have an open cell
  // under its masks alone: rows from the next level down to them, and their
  // closed cells.
  uint32_t ahead[2] = {0, 0};
  uint64_t ahead_blocked[2] = {0, 0};
};

uint64_t Tries(absl::Span<const Node> nodes) {
  uint64_t tries = 0;
  for (const Node& node : nodes) tries += absl::popcount(node.open);
  return tries;
}

// Walks the open cells of a run of nodes, lowest first, without a branch:
// after a node's last cell it moves on to the next node, so the node after
// the run must be readable.
struct Cursor {
  const Node* node;
  uint64_t open;
  Node* out;  // where the next kept child goes

  template <typename Visit>
  void Step(Visit& visit) {
    const uint64_t cell = open & (~open + 1);
    visit(*node, cell, out);
    open ^= cell;
    const uint64_t done = open == 0;
    node += done;
    open |= node->open & (0 - done);
  }
};

// The two walks of ForEachTry, and where the second began writing.
struct Walks {
  Cursor a, b;
  Node* b_out;
};

// Calls visit(node, cell, out) for every open cell of every node, with
// cursor a over the first half of `nodes` and b over the second, writing
// from out and from out + (the first half's tries) unless out is null.
// Two walks in one loop: each step waits on the load of its node, and the
// other walk's step fills that wait (docs/constants.md, ForEachTry).
template <typename Visit>
Walks ForEachTry(absl::Span<const Node> nodes, uint64_t tries, Node* out, Visit visit) {
  const size_t half = nodes.size() / 2;
  const uint64_t tries_a = Tries(nodes.first(half)), tries_b = tries - tries_a;
  Node* const b_out = out == nullptr ? nullptr : out + tries_a;
  Walks walks{{nodes.data(), nodes.data()->open, out},
              {nodes.data() + half, nodes.data()[half].open, b_out},
              b_out};
  const uint64_t both = std::min(tries_a, tries_b);
  for (uint64_t step = 0; step < both; ++step) {
    walks.a.Step(visit);
    walks.b.Step(visit);
  }
  for (uint64_t step = both; step < tries_a; ++step) walks.a.Step(visit);
  for (uint64_t step = both; step < tries_b; ++step) walks.b.Step(visit);
  return walks;
}

// The children of `nodes` (of the level of `step`) that its look-ahead
// keeps, written to `children` (room for a child per try, and one more);
// returns how many.
size_t Expand(const LevelStep& step, absl::Span<const Node> nodes, uint64_t tries, Node* children) {
  const uint32_t gap = step.gap, ahead0 = step.ahead[0], ahead1 = step.ahead[1];
  const uint64_t blocked = step.blocked, blocked0 = step.ahead_blocked[0],
                 blocked1 = step.ahead_blocked[1];
  const Walks walks =
      ForEachTry(nodes, tries, children, [&](const Node& node, uint64_t cell, Node*& out) {
        const uint64_t left = (node.left | cell) << gap, down = node.down | cell,
                       right = (node.right | cell) >> gap;
        const uint64_t open = ~(left | down | right | blocked);
        const bool kept =
            (open != 0) &
            (((left << ahead0) | down | (right >> ahead0) | blocked0) != ~uint64_t{0}) &
            (((left << ahead1) | down | (right >> ahead1) | blocked1) != ~uint64_t{0});
        *out = {left, down, right, open};
        out += kept;
      });
  // The second walk wrote after room for the first's tries: close the gap.
  const Node* const end = std::copy(walks.b_out, walks.b.out, walks.a.out);
  return static_cast<size_t>(end - children);
}

// The last three levels: rows between them and their closed cells.
struct LastLevels {
  uint32_t third_gap = 0, second_gap = 0;
  uint64_t second_blocked = 0, last_blocked = 0;
};

// The completions of the last two levels below masks of the second last:
// with B the open cells of the last level before the second last's queen
// is placed, a queen at bit a leaves B minus a and its two diagonal bits
// there (three distinct bits, as gap >= 1), so the sum over a in `open` is
// popcount(open) * popcount(B) minus the three overlaps below.
uint64_t CountLastTwo(uint64_t open, uint64_t left, uint64_t down, uint64_t right, uint32_t gap,
                      uint64_t blocked_last) {
  const uint64_t last = ~((left << gap) | down | (right >> gap) | blocked_last);
  return absl::popcount(open) * absl::popcount(last) - absl::popcount(open & last) -
         absl::popcount((open << gap) & last) - absl::popcount((open >> gap) & last);
}

// The completions of `nodes`, of the third last level.
uint64_t CountLastThree(const LastLevels& last, absl::Span<const Node> nodes, uint64_t tries) {
  uint64_t solutions = 0;
  ForEachTry(nodes, tries, nullptr, [&](const Node& node, uint64_t cell, Node*&) {
    const uint64_t left = (node.left | cell) << last.third_gap, down = node.down | cell,
                   right = (node.right | cell) >> last.third_gap;
    solutions += CountLastTwo(~(left | down | right | last.second_blocked), left, down, right,
                              last.second_gap, last.last_blocked);
  });
  return solutions;
}

// Counts below the nodes handed to Add, all of level `first`: they are
// expanded level by level once they have options.batch_tries tries.
class FrontierCounter {
 public:
  FrontierCounter(const ShiftGeometry& geometry, size_t levels, size_t first,
                  const FrontierOptions& options, StopPoller& stop)
      : first_(first),
        third_last_(levels - 3),
        batch_tries_limit_(options.batch_tries),
        max_tries_(options.max_frontier_tries),
        stop_(stop) {
    for (size_t level = first; level < third_last_; ++level) {
      LevelStep& step = steps_[level];
      step.gap = geometry.gap(level);
      step.blocked = geometry.blocked(level + 1);
      uint32_t rows = 0;
      for (size_t k = 0; k < 2; ++k) {
        rows += geometry.gap(level + 1 + k);
        step.ahead[k] = rows;
        step.ahead_blocked[k] = geometry.blocked(level + 2 + k);
      }
    }
    last_ = {geometry.gap(levels - 3), geometry.gap(levels - 2), geometry.blocked(levels - 2),
             geometry.blocked(levels - 1)};
    // A buffer per level, grown to a child per try and the cursor's spare
    // node. Kept by the thread: a count has thousands of parts, each with
    // its own FrontierCounter.
    thread_local std::vector<std::vector<Node>> buffers;
    if (buffers.size() < levels - first + 1) buffers.resize(levels - first + 1);
    if (buffers[0].size() < batch_tries_limit_ + 1) buffers[0].resize(batch_tries_limit_ + 1);
    buffers_ = &buffers;
  }

  // False once the stop fired.
  bool Add(const Node& node) {
    std::vector<Node>& batch = (*buffers_)[0];
    batch[batch_size_++] = node;
    batch_tries_ += absl::popcount(node.open);
    if (batch_tries_ < batch_tries_limit_) return true;
    return Flush();
  }

  bool Flush() {
    const bool ok = Descend(first_, absl::MakeConstSpan((*buffers_)[0].data(), batch_size_));
    batch_size_ = 0;
    batch_tries_ = 0;
    return ok;
  }

  uint64_t solutions() const { return solutions_; }
  uint64_t nodes() const { return nodes_; }

 private:
  bool Descend(size_t level, absl::Span<const Node> nodes) {
    const uint64_t tries = Tries(nodes);
    if (tries > max_tries_ && nodes.size() > 1) {
      const size_t half = nodes.size() / 2;
      return Descend(level, nodes.first(half)) && Descend(level, nodes.subspan(half));
    }
    if (level == third_last_) {
      solutions_ += CountLastThree(last_, nodes, tries);
      return !stop_.ShouldStop(tries);
    }
    nodes_ += tries;
    std::vector<Node>& children = (*buffers_)[level + 1 - first_];
    if (children.size() < tries + 1) children.resize(tries + 1);
    const size_t kept = Expand(steps_[level], nodes, tries, children.data());
    return !stop_.ShouldStop(tries) &&
           Descend(level + 1, absl::MakeConstSpan(children.data(), kept));
  }

  size_t first_, third_last_;
  uint64_t batch_tries_limit_, max_tries_;
  StopPoller& stop_;
  std::array<LevelStep, 64> steps_;
  LastLevels last_;
  std::vector<std::vector<Node>>* buffers_;
  size_t batch_size_ = 0;
  uint64_t batch_tries_ = 0;
  uint64_t solutions_ = 0, nodes_ = 0;
};

// The node of `level` below the placements placed[0, level).
Node NodeAt(const ShiftGeometry& geometry, const uint64_t* placed, size_t level) {
  ShiftGeometry::Frame frame = geometry.Root();
  for (size_t above = 0; above < level; ++above) {
    frame = geometry.Child(frame, above, placed[above]);
  }
  return {frame.left, frame.down, frame.right, geometry.Open(frame, level, placed)};
}

}  // namespace

absl::StatusOr<CountPart> CountByFrontiers(const ShiftGeometry& geometry, size_t levels,
                                           absl::Span<const uint64_t> prefix, StopPoller& stop,
                                           const FrontierOptions& options) {
  const size_t base = prefix.size();
  const size_t first = std::max(base, levels - 3 - std::min(levels - 3, options.breadth_levels));
  FrontierCounter counter(geometry, levels, first, options, stop);
  uint64_t depth_first_nodes = 0;
  if (first == base) {
    if (!counter.Add(NodeAt(geometry, prefix.data(), base)) || !counter.Flush()) {
      return stop.status();
    }
  } else {
    // Depth first down to `first`: each leaf of this search is a node there.
    Dfs<ShiftGeometry> dfs(geometry, first, prefix);
    const auto run = dfs.Search(
        [&](const uint64_t* placed) {
          const Node node = NodeAt(geometry, placed, first);
          return node.open == 0 || counter.Add(node);
        },
        [](uint64_t) {}, stop);
    if (run != Dfs<ShiftGeometry>::Run::kDone || !counter.Flush()) return stop.status();
    depth_first_nodes = dfs.nodes();
  }
  return CountPart{counter.solutions(), 0, depth_first_nodes + counter.nodes()};
}

}  // namespace nqueens::internal
