// The exact search's one depth-first driver, which the three engines
// (search_engines.h) share: the path of nodes with their children, the node
// budget, stop polling, the explored-share estimate, the placement found and
// the certificate's placements. An engine is a policy that keeps the board
// of the current node and answers four questions about it:
//
//   using Cell = ...;                    how a child (a cell) is stored
//   static uint32_t Row(Cell);           its free row and free column
//   static uint32_t Column(Cell);
//   bool Solved() const;                 whether every free row has a queen
//   uint32_t Branch(Cell* children);     the node's children in the order to
//                                        try them, at most the free rows; 0
//                                        at a dead end
//   void Place(Cell);                    moves to a child ...
//   void Lift(Cell);                     ... and back to its parent
//   uint64_t StepsPerNode() const;       a node's cost in StopPoller steps
//
// So the engines visit one tree by construction wherever their Branch
// agrees, and the accounting exists once.
#ifndef NQUEENS_EXACT_SEARCH_DRIVER_H_
#define NQUEENS_EXACT_SEARCH_DRIVER_H_

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "base/stop_poller.h"
#include "exact/certificate.h"
#include "exact/free_board.h"

namespace nqueens::internal {

struct SearchOutcome {
  // Solutions found: 0 or 1, or up to one per thread when several threads
  // search the tree (parallel_search.h).
  uint64_t solutions = 0;
  uint64_t nodes = 0;  // cells tried
  bool budget_exhausted = false;
  // The share of the tree searched: 1 when the search ran to its end, else
  // an estimate from the path where it stopped (each node's children taken
  // as equal parts of it).
  double explored = 0;
  // The free column of each free row in the solution found.
  std::vector<uint32_t> placement;
};

// Nodes a search may still visit, shared by the searches of several threads
// (`shared` set) or a search's own.
class NodeAllowance {
 public:
  explicit NodeAllowance(uint64_t budget, std::atomic<uint64_t>* shared = nullptr)
      : budget_(budget), shared_(shared), granted_(shared == nullptr ? budget : 0) {}

  // Whether one more node may be visited (counted if so).
  bool Take() {
    if (used_ == granted_ && !Grant()) return false;
    ++used_;
    return true;
  }
  // The nodes taken so far.
  uint64_t used() const { return used_; }

 private:
  // Nodes taken from a shared budget at a time: few enough to spend the
  // budget evenly, many enough to keep the atomic cold.
  static constexpr uint64_t kGrant = 1024;
  bool Grant();

  const uint64_t budget_;
  std::atomic<uint64_t>* const shared_;
  uint64_t granted_, used_ = 0;
};

template <typename Cell>
class SearchDriver {
 public:
  // For a board of `free_rows` rows; `certificate` (null: none) records
  // every placement, the engine the rest of the tree.
  SearchDriver(uint32_t free_rows, StopPoller& stop, CertificateWriter* certificate = nullptr)
      : free_rows_(free_rows),
        stop_(stop),
        certificate_(certificate),
        frames_(size_t{free_rows} + 1),
        // A node has at most one child per unplaced row, so a path holds at
        // most d (d + 1) / 2 cells: all at once for the boards that fit in
        // cache, grown on demand beyond.
        cells_(std::min(size_t{free_rows} * (free_rows + 1) / 2 + free_rows, kCellsAtOnce)),
        placement_(free_rows, kNone) {}

  // Records a queen the engine placed before the search started (a search
  // below a prefix of placements).
  void PlacedAbove(uint32_t a, uint32_t b) { placement_[a] = b; }

  // Searches the subtree of the engine's current node until a solution, the
  // end of `allowance` or a stop; outcome.nodes counts the nodes below it,
  // outcome.placement is the whole board's. The caller reads the stop's
  // status.
  template <typename Engine>
  SearchOutcome Search(Engine& engine, NodeAllowance& allowance) {
    SearchOutcome outcome;
    // Building the board took O(n) or more: a stop may already be due.
    if (stop_.CheckNow()) return outcome;
    const uint64_t used_before = allowance.used();
    if (Explore(engine, allowance, outcome)) outcome.explored = 1.0;
    outcome.nodes = allowance.used() - used_before;
    if (outcome.solutions > 0) outcome.placement = placement_;
    return outcome;
  }

 private:
  static constexpr size_t kCellsAtOnce = size_t{1} << 20;

  // A node of the path: its children cells_[first, first + count), of which
  // those before `next` were taken; `share` of the whole tree, as in
  // SearchOutcome::explored.
  struct Frame {
    size_t first = 0;
    uint32_t count = 0, next = 0;
    double share = 0;
  };

  // True when the whole subtree was searched without a solution.
  template <typename Engine>
  bool Explore(Engine& engine, NodeAllowance& allowance, SearchOutcome& outcome) {
    uint32_t k = 0;  // depth below the start
    frames_[0] = {0, 0, 0, 1.0};
    bool entering = true;
    for (;;) {
      Frame& frame = frames_[k];
      if (entering) {
        if (engine.Solved()) {
          ++outcome.solutions;
          return Unwind(k, outcome);
        }
        if (cells_.size() < frame.first + free_rows_) cells_.resize(frame.first + free_rows_);
        frame.count = engine.Branch(cells_.data() + frame.first);
        if (certificate_ != nullptr) ListChildren<Engine>(frame);
        frame.next = 0;
        entering = false;
      }
      if (frame.next == frame.count) {
        if (k == 0) return true;
        --k;
        engine.Lift(cells_[frames_[k].first + frames_[k].next - 1]);
        continue;
      }
      const Cell cell = cells_[frame.first + frame.next++];
      if (!allowance.Take()) {
        outcome.budget_exhausted = true;
        return Unwind(k + 1, outcome);
      }
      if (stop_.ShouldStop(engine.StepsPerNode())) return Unwind(k + 1, outcome);
      engine.Place(cell);
      placement_[Engine::Row(cell)] = Engine::Column(cell);
      if (certificate_ != nullptr) certificate_->Place(Engine::Row(cell), Engine::Column(cell));
      frames_[k + 1].first = frame.first + frame.count;
      frames_[k + 1].share = frame.share / frame.count;
      ++k;
      entering = true;
    }
  }

  // Tells the certificate the cells of the branch just written.
  template <typename Engine>
  void ListChildren(const Frame& frame) {
    for (uint32_t i = 0; i < frame.count; ++i) {
      const Cell cell = cells_[frame.first + i];
      certificate_->Child(Engine::Row(cell), Engine::Column(cell));
    }
  }

  // Adds the share of the children done before the one in progress at each
  // of the first `depths` depths; false, for the search ended early.
  bool Unwind(uint32_t depths, SearchOutcome& outcome) const {
    for (uint32_t k = 0; k < depths; ++k) {
      const Frame& frame = frames_[k];
      outcome.explored += frame.share * (frame.next - 1) / frame.count;
    }
    return false;
  }

  const uint32_t free_rows_;
  StopPoller& stop_;
  CertificateWriter* const certificate_;
  std::vector<Frame> frames_;
  std::vector<Cell> cells_;
  std::vector<uint32_t> placement_;  // per free row, along the path
};

}  // namespace nqueens::internal

#endif  // NQUEENS_EXACT_SEARCH_DRIVER_H_
