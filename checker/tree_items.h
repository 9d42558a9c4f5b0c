// What the readers of the two formats (text_reader.h, binary_reader.h) give
// the tree walk (tree_walk.h): a certificate's header, its nodes one at a
// time, and the path from the root that their errors name.
#ifndef NQUEENS_CHECKER_TREE_ITEMS_H_
#define NQUEENS_CHECKER_TREE_ITEMS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "checker/composition.h"

namespace nqueens::checker {

struct Header {
  uint64_t part_index = 0;
  uint64_t part_count = 0;  // >= 2 in the certificate of a part, else 0 or 1
};

// A node's record, before its children (if any). Lines are free indices,
// kNone for a coordinate that names no free line.
struct Node {
  enum class Kind : uint8_t {
    kDead,          // binary `dead`: an empty line, or the diagonal sums fail
    kEmptyLine,     // text `e`: line has no open cell
    kSums,          // text `s`: the diagonal sums fail
    kHall,          // text `h`: the reader's hall_rows()
    kHallSet,       // binary `hall`: the reader's hall_bits() over the unplaced rows
    kOther,         // proved by another part's certificate
    kRanked,        // ranks (the reader's ReadRanks), then one node
    kRankedBranch,  // binary `branch`: on the line the ranks choose
    kBranch,        // on line, with `children` (kImplied: as many as open cells)
    kPackedDead,    // a packed subtree's 0 bit: an empty line, the sums, or Hall's condition
    kPacked,        // binary: the next node and its subtree in bits
    kFramed,        // binary: the next node and its subtree are the next frames
  };
  static constexpr uint64_t kImplied = UINT64_MAX;
  static constexpr uint64_t kBadCount = UINT64_MAX - 1;  // text: not a number

  Kind kind = Kind::kDead;
  bool by_row = true;
  uint32_t line = kNone;
  uint64_t children = kImplied;
};

// A child of a branch as a reader gives it: the free index across the line
// of its cell (text), or the cell's index among the line's open cells that
// no earlier child took, in the order of that free index (binary).
struct ChildCell {
  static constexpr uint64_t kNoIndex = UINT64_MAX;
  uint32_t other = kNone;
  uint64_t index = kNoIndex;
};

// The lines in order of rank, as a `ranked` node gives them, and each
// line's rank.
struct Ranks {
  std::vector<uint32_t> rows, columns;
  std::vector<uint32_t> row_rank, column_rank;
};

// The queens placed from the root down to the node being read, in board
// coordinates.
class Path {
 public:
  void Push(uint32_t row, uint32_t column) { queens_.push_back(uint64_t{row} << 32 | column); }
  void Pop() { queens_.pop_back(); }
  void Clear() { queens_.clear(); }
  size_t size() const { return queens_.size(); }
  // "; at the root", "; path (5, 2) (7, 5)": the first and last few queens
  // of a long path.
  std::string Text() const;
  // The queens as a set (row << 32 | column, ascending), which alone decides
  // what is open at the node.
  std::vector<uint64_t> Sorted() const;

 private:
  std::vector<uint64_t> queens_;
};

}  // namespace nqueens::checker

#endif  // NQUEENS_CHECKER_TREE_ITEMS_H_
