#include "exact/exact_split.h"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"

namespace nqueens::internal {

// The open cells of every line below a path of queens, counted, without a
// copy of the board: a cell is open when it was open at the root and no
// queen of the path shares its row, its column or a diagonal. A placement
// costs O(d (k + log d)) for d free rows and k queens on the path.
class ExactSplit::PathCounts {
 public:
  explicit PathCounts(const FreeBoard& board)
      : board_(board), row_placed_(board.size()), column_placed_(board.size()) {
    const uint32_t d = board.size();
    std::vector<uint32_t> counts(size_t{2} * d);
    for (uint32_t a = 0; a < d; ++a) {
      ForEachBit(board.open().Row(a), board.open().words_per_row(), [&](uint32_t b) {
        ++counts[a];
        ++counts[d + b];
      });
    }
    counts_.push_back(std::move(counts));
  }

  // Moves to the node of `queens` (from the root down), keeping what the
  // current path shares with it.
  void MoveTo(const std::vector<FreeQueen>& queens) {
    size_t shared = 0;
    while (shared < path_.size() && shared < queens.size() && path_[shared] == queens[shared]) {
      ++shared;
    }
    while (path_.size() > shared) Pop();
    for (size_t i = shared; i < queens.size(); ++i) Push(queens[i]);
  }

  void Push(FreeQueen queen) {
    std::vector<uint32_t> counts = counts_.back();
    ForEachBit(board_.open().Row(queen.a), board_.open().words_per_row(),
               [&](uint32_t b) { Close(queen.a, b, counts); });
    const int64_t column = board_.column(queen.b);
    for (uint32_t a = 0; a < board_.size(); ++a) {
      if (a == queen.a || row_placed_[a]) continue;
      Close(a, queen.b, counts);
      const int64_t offset = int64_t{board_.row(a)} - board_.row(queen.a);
      for (const int64_t diagonal : {column + offset, column - offset}) {
        if (const uint32_t b = FreeColumn(diagonal); b != kNone) Close(a, b, counts);
      }
    }
    row_placed_[queen.a] = column_placed_[queen.b] = true;
    path_.push_back(queen);
    counts_.push_back(std::move(counts));
  }

  void Pop() {
    row_placed_[path_.back().a] = column_placed_[path_.back().b] = false;
    path_.pop_back();
    counts_.pop_back();
  }

  // The node's branching line in `node`: the unplaced line with the fewest
  // open cells, rows before columns on a tie, then the lowest; none (kNone)
  // when every line has its queen.
  void Branch(Node& node) const {
    const uint32_t d = board_.size();
    const std::vector<uint32_t>& counts = counts_.back();
    node.line = kNone;
    for (uint32_t x = 0; x < 2 * d; ++x) {
      const bool by_row = x < d;
      const uint32_t line = by_row ? x : x - d;
      if ((by_row ? row_placed_[line] : column_placed_[line]) ||
          (node.line != kNone && counts[x] >= node.open)) {
        continue;
      }
      node.by_row = by_row;
      node.line = line;
      node.open = counts[x];
    }
  }

  // The open cells of the node's line, as the other coordinate, increasing.
  std::vector<uint32_t> OpenCells(const Node& node) const {
    std::vector<uint32_t> cells;
    if (node.by_row) {
      ForEachBit(board_.open().Row(node.line), board_.open().words_per_row(), [&](uint32_t b) {
        if (Open(node.line, b)) cells.push_back(b);
      });
      return cells;
    }
    for (uint32_t a = 0; a < board_.size(); ++a) {
      if (Open(a, node.line)) cells.push_back(a);
    }
    return cells;
  }

 private:
  bool Open(uint32_t a, uint32_t b) const {
    if (row_placed_[a] || column_placed_[b] || !board_.open().Test(a, b)) return false;
    return std::none_of(path_.begin(), path_.end(), [&](FreeQueen queen) {
      const int64_t rows = int64_t{board_.row(a)} - board_.row(queen.a);
      const int64_t columns = int64_t{board_.column(b)} - board_.column(queen.b);
      return rows == columns || rows == -columns;
    });
  }

  // The free column on board column `column`, or kNone.
  uint32_t FreeColumn(int64_t column) const {
    const absl::Span<const uint32_t> columns = board_.columns();
    const auto at = std::lower_bound(columns.begin(), columns.end(), column);
    return at != columns.end() && *at == column ? static_cast<uint32_t>(at - columns.begin())
                                                : kNone;
  }

  // Counts cell (a, b) closed if it is open: called once for each cell the
  // next queen closes.
  void Close(uint32_t a, uint32_t b, std::vector<uint32_t>& counts) const {
    if (!Open(a, b)) return;
    --counts[a];
    --counts[board_.size() + b];
  }

  const FreeBoard& board_;
  std::vector<FreeQueen> path_;
  // Per depth of the path: each row's open cells, then each column's.
  std::vector<std::vector<uint32_t>> counts_;
  std::vector<bool> row_placed_, column_placed_;
};

absl::StatusOr<ExactSplit> ExactSplit::Make(
    const FreeBoard& board, uint64_t part_count, StopPoller& stop,
    const std::function<absl::Status(uint64_t bytes)>& reserve) {
  static_assert(sizeof(Node) == kNodeBytes);
  const uint64_t wanted = std::min(kSplitNodesPerPart * part_count, kMaxSplitNodes);
  ExactSplit split;
  PathCounts path(board);
  Node root;
  path.Branch(root);
  split.levels_.push_back({root});
  for (uint32_t depth = 0; depth < board.size(); ++depth) {
    std::vector<Node>& level = split.levels_.back();
    const auto live =
        std::count_if(level.begin(), level.end(), [](const Node& node) { return node.live(); });
    if (live == 0 || static_cast<uint64_t>(live) >= wanted) break;
    if (reserve) {
      uint64_t children = 0;
      for (const Node& node : level) children += node.open;
      if (absl::Status reserved = reserve(children * kNodeBytes); !reserved.ok()) {
        return absl::Status(
            reserved.code(),
            absl::StrCat("the split into parts (", children, " nodes of ", kNodeBytes,
                         " bytes at depth ", depth + 1, "): ", reserved.message()));
      }
    }
    std::vector<Node> next;
    for (uint32_t i = 0; i < level.size(); ++i) {
      if (!level[i].live()) continue;
      level[i].first_child = static_cast<uint32_t>(next.size());
      path.MoveTo(split.Queens(depth, i));
      for (const uint32_t other : path.OpenCells(level[i])) {
        Node child;
        child.parent = i;
        child.a = level[i].by_row ? level[i].line : other;
        child.b = level[i].by_row ? other : level[i].line;
        path.Push({child.a, child.b});
        path.Branch(child);
        path.Pop();
        next.push_back(child);
        if (stop.ShouldStop(board.size())) return stop.status();
      }
    }
    split.levels_.push_back(std::move(next));
  }
  const std::vector<Node>& last = split.levels_.back();
  for (uint32_t i = 0; i < last.size(); ++i) {
    if (last[i].live()) split.live_.push_back(i);
  }
  return split;
}

std::vector<FreeQueen> ExactSplit::Queens(size_t level, uint32_t index) const {
  std::vector<FreeQueen> queens(level);
  for (size_t depth = level; depth > 0; --depth) {
    const Node& node = levels_[depth][index];
    queens[depth - 1] = {node.a, node.b};
    index = node.parent;
  }
  return queens;
}

std::vector<FreeQueen> ExactSplit::Prefix(uint64_t node) const {
  return Queens(levels_.size() - 1, live_[node]);
}

void ExactSplit::WriteTree(
    CertificateWriter& writer,
    const std::function<void(uint64_t node, CertificateWriter& writer)>& subtree) const {
  uint64_t next_live = 0;
  WriteNode(0, 0, writer, subtree, next_live);
}

// Preorder visits the last level's nodes in their order, so `next_live`
// counts them as the split numbers them.
void ExactSplit::WriteNode(size_t level, uint32_t index, CertificateWriter& writer,
                           const std::function<void(uint64_t, CertificateWriter&)>& subtree,
                           uint64_t& next_live) const {
  const Node& node = levels_[level][index];
  if (!node.live()) {
    writer.Empty(node.by_row, node.line);
  } else if (level + 1 == levels_.size()) {
    subtree(next_live++, writer);
  } else {
    writer.Branch(node.by_row, node.line, node.open);
    for (uint32_t child = node.first_child; child < node.first_child + node.open; ++child) {
      writer.Child(levels_[level + 1][child].a, levels_[level + 1][child].b);
    }
    for (uint32_t child = node.first_child; child < node.first_child + node.open; ++child) {
      writer.Place(levels_[level + 1][child].a, levels_[level + 1][child].b);
      WriteNode(level + 1, child, writer, subtree, next_live);
    }
  }
}

}  // namespace nqueens::internal
