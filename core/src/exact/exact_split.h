// How the exact search of a composition is cut into the parts of a
// PartSelector (nqueens/parts.h), which other machines may search: the top
// of a search tree, expanded breadth first by a fixed rule (the search's own
// tie-breaks are drawn at random), down to the first level with enough live
// nodes, which are dealt out to the parts in turn. The split depends only on
// the composition and the part count, so that every server cuts alike;
// docs/parts.md describes it and tests/core/exact_parts_test.cc fixes it.
#ifndef NQUEENS_EXACT_EXACT_SPLIT_H_
#define NQUEENS_EXACT_EXACT_SPLIT_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "base/stop_poller.h"
#include "exact/certificate.h"
#include "exact/free_board.h"

namespace nqueens::internal {

// The split's level is the first with this many live nodes per part (so
// that dealing them out in turn balances the parts), or kMaxSplitNodes.
inline constexpr uint64_t kSplitNodesPerPart = 16;
inline constexpr uint64_t kMaxSplitNodes = uint64_t{1} << 16;

class ExactSplit {
 public:
  // The split of the tree of `board` (a composition's free board) into
  // `part_count` parts, 2 or more. Polled: the poller's status once it fires.
  // `reserve`, if set, is asked for each level's nodes (kNodeBytes each)
  // before they are made: a level may hold up to kMaxSplitNodes times the
  // free rows, gigabytes on large boards. Its error ends the split.
  static constexpr uint64_t kNodeBytes = 28;  // a node of the split's tree
  static absl::StatusOr<ExactSplit> Make(
      const FreeBoard& board, uint64_t part_count, StopPoller& stop,
      const std::function<absl::Status(uint64_t bytes)>& reserve = {});

  // The live nodes of the split's level, numbered 0, 1, ... in breadth-first
  // order; node i belongs to part i mod part_count.
  uint64_t node_count() const { return live_.size(); }
  // The queens that node i adds to the composition, from the root down (on
  // the board the split was made of).
  std::vector<FreeQueen> Prefix(uint64_t node) const;

  // Writes the top tree into `writer` (certificate.h; of the split's
  // board) as a proof tree: in preorder, each dead node as its line without
  // open cells and each live node i of the split's level by subtree(i,
  // writer). The tree's depth, a few levels, is the recursion's.
  void WriteTree(
      CertificateWriter& writer,
      const std::function<void(uint64_t node, CertificateWriter& writer)>& subtree) const;

 private:
  // A node of the top tree, with the queen its parent placed (on free row a
  // and free column b) and the line it branches on: the unplaced row or
  // column with the fewest open cells, whose `open` cells are its children.
  // A node with a line of no open cells is a dead leaf; one with no unplaced
  // line left (kNone) a full placement.
  struct Node {
    uint32_t parent = kNone;  // in the level above
    uint32_t a = kNone, b = kNone;
    bool by_row = true;
    uint32_t line = kNone;
    uint32_t open = 0;
    uint32_t first_child = 0;  // in the level below, once expanded
    bool live() const { return open > 0 || line == kNone; }
  };

  // The open cells of the lines below a path of queens (exact_split.cc).
  class PathCounts;

  ExactSplit() = default;

  // The queens of node `index` of `level`, from the root down.
  std::vector<FreeQueen> Queens(size_t level, uint32_t index) const;
  void WriteNode(size_t level, uint32_t index, CertificateWriter& writer,
                 const std::function<void(uint64_t, CertificateWriter&)>& subtree,
                 uint64_t& next_live) const;

  // Level by level from the root; a level's nodes are the children of the
  // live nodes of the level above, in order. Those are fewer than
  // kMaxSplitNodes, each with a child per free row at most (65,536 at most:
  // PipelineParams::exact_max_free_rows), so uint32_t indices do.
  std::vector<std::vector<Node>> levels_;
  std::vector<uint32_t> live_;  // the last level's live nodes
};

}  // namespace nqueens::internal

#endif  // NQUEENS_EXACT_EXACT_SPLIT_H_
