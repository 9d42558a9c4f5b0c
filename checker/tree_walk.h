// The walk of one certificate's tree, shared by both formats' readers
// (text_reader.h, binary_reader.h) and both board representations
// (word_board.h, wide_board.h): it reads the nodes in preorder and checks
// each against the board at its node. Iterative, with an explicit stack of
// the branches in progress (the path may be d deep): a certificate of any
// size checks in O(d) frames besides the board, and, on boards of more than
// 64 free rows, a mark per child done along the path. A `packed` or `framed`
// node (binary, version 3) only says how the node after it is written: the
// walk reads that node in its place and tells the reader where its subtree
// ends.
#ifndef NQUEENS_CHECKER_TREE_WALK_H_
#define NQUEENS_CHECKER_TREE_WALK_H_

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "checker/composition.h"
#include "checker/other_leaves.h"
#include "checker/row_matching.h"
#include "checker/text_writer.h"
#include "checker/tree_items.h"

namespace nqueens::checker {

// What a reading of a set's certificate does with its other leaves: collects
// them, or looks for the nodes that prove them.
enum class Pass { kCollect, kProve };

// The framed subtrees of one certificate, when several walks read it on
// threads of their own: each walk checks the framed subtrees (outside any
// other) that it claims, and reads past the others. A walk claims the next
// one it comes to that no walk has claimed, so the walks share them out as
// they go, whatever their sizes.
struct FramedShare {
  std::atomic<uint64_t> claimed{0};  // framed subtrees, in the stream's order
  // The tree stream offset of the first error found, once one is: a walk
  // past it stops (kNoError: none).
  static constexpr uint64_t kNoError = UINT64_MAX;
  std::atomic<uint64_t> first_error{kNoError};
};

// What the walk of one certificate of a set shares with the set's check.
struct SetReading {
  Pass pass = Pass::kCollect;
  size_t index = 0;  // of the certificate in the set
  OtherLeaves* leaves = nullptr;
  TextWriter* text = nullptr;    // writes the tree as it is checked, if set
  FramedShare* share = nullptr;  // when other walks read the certificate too
};

template <typename Board, typename Reader>
class TreeWalk {
 public:
  // `board` holds no queen of a path; the reader stands at the certificate's
  // first byte.
  TreeWalk(Board& board, Reader& reader, Path& path, const Composition& composition,
           const SetReading& set)
      : board_(board),
        reader_(reader),
        path_(path),
        composition_(composition),
        set_(set),
        done_by_{std::vector<uint32_t>(board.d()), std::vector<uint32_t>(board.d())},
        seen_(board.d()) {}

  // OK when the certificate checks (its other leaves aside, which the set's
  // check proves); else the reader's error naming the first wrong item.
  absl::Status Run() {
    Header header;
    if (absl::Status s = reader_.ReadHeader(&header); !s.ok()) return s;
    if (set_.text != nullptr) set_.text->Header(header);
    if (absl::Status s = Walk(); !s.ok()) return s;
    if (absl::Status s = reader_.ReadEnd(); !s.ok()) return s;
    if (set_.text != nullptr) set_.text->End();
    return absl::OkStatus();
  }

  // The stream offset of the item read last (that of an error).
  uint64_t position() const { return reader_.position(); }

 private:
  // Rankings on one path: the search writes one per subtree that another
  // search proved, so a few. The bound keeps their memory O(d).
  static constexpr size_t kMaxNestedRanks = 64;
  // Framed subtrees on one path: the search writes one per subtree that one
  // of its threads searched, so a few. The bound keeps the framed subtrees'
  // bookkeeping (here and in the reader) O(1), where a chain of framed nodes
  // at one node would grow it with the file.
  static constexpr size_t kMaxNestedFramed = 64;
  // Packed subtrees need each row's open cells in a word (row_matching.h).
  static constexpr uint32_t kMaxPackedRows = 64;
  static constexpr size_t kNotPacked = SIZE_MAX;

  // A node whose children are being read: a branch, or a `ranked` node (one
  // child, no queen).
  struct Frame {
    bool ranked = false;
    bool by_row = true;
    bool placed = false;  // the queen of the child being read is on the board
    uint32_t line = kNone;
    uint64_t children = 0, done = 0;
    uint64_t other_leaves_before = 0;  // read before the node
    uint64_t done_below_64 = 0;        // the children done across lines 0 .. 63
    size_t trail = 0;                  // done_trail_'s size at the node
  };

  // A frame made in place (a copy costs a stall on every node).
  Frame& PushFrame(uint64_t other_leaves_before) {
    Frame& frame = frames_.emplace_back();
    frame.other_leaves_before = other_leaves_before;
    frame.trail = done_trail_.size();
    return frame;
  }

  absl::Status Fail(absl::string_view what) const { return reader_.Error(what); }
  bool Unplaced(bool row, uint32_t line) const {
    return line != kNone && board_.Unplaced(row, line);
  }
  uint64_t NextStamp() { return ++stamp_; }

  absl::Status Walk() {
    if (absl::Status s = Enter(); !s.ok()) return s;
    while (!frames_.empty()) {
      Frame& frame = frames_.back();
      if (frame.placed) {
        board_.Undo();
        path_.Pop();
        frame.placed = false;
      }
      if (frame.done == frame.children) {
        Leave();
        if (absl::Status s = Closed(); !s.ok()) return s;
        continue;
      }
      ++frame.done;
      if (!frame.ranked) {
        if (absl::Status s = Child(frame); !s.ok()) return s;
      }
      if (absl::Status s = Enter(); !s.ok()) return s;
    }
    return absl::OkStatus();
  }

  // Reads a node: checks a leaf, or starts a frame. A `packed` or `framed`
  // node is read past, in a loop: framed nodes may follow one another.
  absl::Status Enter() {
    const uint64_t other_leaves_before = other_leaves_;
    Node node;
    absl::Status status;
    while (true) {
      if (absl::Status s = reader_.ReadNode(&node); !s.ok()) return s;
      switch (node.kind) {
        case Node::Kind::kPacked:
          if (absl::Status s = StartPacked(); !s.ok()) return s;
          continue;
        case Node::Kind::kFramed: {
          const absl::StatusOr<bool> reads = Framed();
          if (!reads.ok()) return reads.status();
          if (!*reads) return Closed();
          continue;
        }
        case Node::Kind::kDead:
          status = Dead();
          break;
        case Node::Kind::kPackedDead:
          status = PackedDead();
          break;
        case Node::Kind::kEmptyLine:
          status = EmptyLine(node.by_row, node.line);
          break;
        case Node::Kind::kSums:
          if (!board_.SumsFail()) return Fail("the diagonal sums fit");
          if (set_.text != nullptr) set_.text->Sums();
          break;
        case Node::Kind::kHall:
          status = Hall();
          break;
        case Node::Kind::kHallSet:
          status = HallSet();
          break;
        case Node::Kind::kOther:
          status = Other();
          break;
        case Node::Kind::kRanked:
          return Ranked(other_leaves_before);
        case Node::Kind::kRankedBranch:
          return RankedBranch(other_leaves_before);
        case Node::Kind::kBranch:
          if (!Unplaced(node.by_row, node.line)) {
            return Fail("the branch's line is not an unplaced one");
          }
          if (node.children == Node::kBadCount) return Fail("bad child count");
          return Branch(node.by_row, node.line, node.children, other_leaves_before);
      }
      break;
    }
    if (!status.ok()) return status;
    Finished(other_leaves_before);
    return Closed();
  }

  // At a framed node: whether this walk reads its subtree, or has read past
  // it for another walk to check.
  absl::StatusOr<bool> Framed() {
    if (framed_bases_.size() == kMaxNestedFramed) {
      return Fail(absl::StrCat("more than ", kMaxNestedFramed, " `framed` nodes on one path"));
    }
    if (framed_bases_.empty() && set_.share != nullptr) {
      // Past an error another walk found, nothing can come first.
      if (set_.share->first_error.load() < reader_.position()) {
        return absl::CancelledError("an earlier error");
      }
      if (!Claim()) {
        if (absl::Status s = reader_.SkipFramed(); !s.ok()) return s;
        return false;
      }
    }
    framed_bases_.push_back(frames_.size());
    return true;
  }

  // Whether this walk checks the framed subtree it has come to (the
  // framed_seen_-th): the next one that no walk claimed (every one before
  // it was, by induction).
  bool Claim() {
    const uint64_t number = framed_seen_++;
    uint64_t expected = number;
    return set_.share->claimed.compare_exchange_strong(expected, number + 1);
  }

  // A packed subtree stands where a `branch` may; its dead leaves' Hall rows
  // are found by a matching on words.
  absl::Status StartPacked() {
    if (active_ranks_ == 0) return Fail("a `packed` node outside any `ranked` node");
    if (board_.d() > kMaxPackedRows) {
      return Fail(
          absl::StrCat("a `packed` node on a board of more than ", kMaxPackedRows, " free rows"));
    }
    packed_base_ = frames_.size();
    return absl::OkStatus();
  }

  // After a node and its subtree: the packed and framed subtrees that end
  // with it, those whose node was read with as many frames_ as now.
  absl::Status Closed() {
    if (packed_base_ == frames_.size()) {
      packed_base_ = kNotPacked;
      if (absl::Status s = reader_.EndPacked(); !s.ok()) return s;
    }
    while (!framed_bases_.empty() && framed_bases_.back() == frames_.size()) {
      framed_bases_.pop_back();
      if (absl::Status s = reader_.EndFramed(); !s.ok()) return s;
    }
    return absl::OkStatus();
  }

  // A node and its subtree are checked; in the proving pass, a subtree
  // without other leaves proves the other leaves of its node.
  void Finished(uint64_t other_leaves_before) {
    if (set_.pass == Pass::kProve && other_leaves_ == other_leaves_before &&
        set_.leaves->MayHold(path_.size())) {
      set_.leaves->Proved(path_.Sorted());
    }
  }

  // A `branch`, or a packed subtree's 1 bit: on the line the ranks choose.
  absl::Status RankedBranch(uint64_t other_leaves_before) {
    if (active_ranks_ == 0) return Fail("a `branch` outside any `ranked` node");
    bool by_row;
    uint32_t line;
    if (!board_.Choose(ranks_[active_ranks_ - 1], &by_row, &line)) {
      return Fail("a branch where every line holds a queen");
    }
    return Branch(by_row, line, Node::kImplied, other_leaves_before);
  }

  absl::Status Branch(bool by_row, uint32_t line, uint64_t stated, uint64_t other_leaves_before) {
    const uint64_t open = board_.OpenCount(by_row, line);
    if (stated != Node::kImplied && stated != open) {
      return Fail(absl::StrCat("the line has ", open, " open cells, not ", stated));
    }
    if (set_.text != nullptr) set_.text->Branch(by_row, line, open);
    Frame& frame = PushFrame(other_leaves_before);
    frame.by_row = by_row;
    frame.line = line;
    frame.children = open;
    return absl::OkStatus();
  }

  // The next child of the branch `frame` (counted in frame.done): its queen
  // is placed.
  absl::Status Child(Frame& frame) {
    const uint64_t cells_left = frame.children - frame.done + 1;
    ChildCell child;
    if (absl::Status s = reader_.ReadChild(frame.by_row, frame.line, cells_left, &child); !s.ok()) {
      return s;
    }
    if (child.index != ChildCell::kNoIndex) {
      if (child.index >= cells_left) {
        return Fail(absl::StrCat("child ", child.index, " of the ", cells_left, " cells left"));
      }
      child.other = NthLeft(frame, child.index);
    }
    const uint32_t other = child.other;
    const uint32_t a = frame.by_row ? frame.line : other, b = frame.by_row ? other : frame.line;
    if (other == kNone || !board_.Open(a, b)) return Fail("the queen is not on an open cell");
    if (!MarkDone(frame, other)) return Fail("the cell is placed twice");
    board_.Place(a, b);
    path_.Push(composition_.Row(a), composition_.Column(b));
    frame.placed = true;
    if (set_.text != nullptr) set_.text->Place(a, b);
    return absl::OkStatus();
  }

  // The cell `index` among the open cells of the frame's line that no child
  // took, in the order of the other free index, as that index; kNone if
  // there are not as many (the count of cells left says there are).
  uint32_t NthLeft(const Frame& frame, uint64_t index) const {
    uint64_t word = board_.OpenWord(frame.by_row, frame.line) & ~frame.done_below_64;
    const uint64_t in_word = static_cast<uint64_t>(__builtin_popcountll(word));
    if (index < in_word) {
      for (; index > 0; --index) word &= word - 1;
      return static_cast<uint32_t>(__builtin_ctzll(word));
    }
    index -= in_word;
    const std::vector<uint32_t>& marks = done_by_[frame.by_row ? 0 : 1];
    const uint32_t number = static_cast<uint32_t>(frames_.size());
    for (uint32_t x = 64; x < board_.d(); ++x) {
      const bool open = frame.by_row ? board_.Open(frame.line, x) : board_.Open(x, frame.line);
      if (!open || marks[x] == number) continue;
      if (index-- == 0) return x;
    }
    return kNone;
  }

  // Marks a child done; false if it was. Lines 0 .. 63 in the frame's word;
  // others in done_by_ with the frame's number, a deeper frame that marks
  // the same line keeping the mark it replaces on done_trail_.
  bool MarkDone(Frame& frame, uint32_t other) {
    if (other < 64) {
      const uint64_t bit = uint64_t{1} << other;
      if ((frame.done_below_64 & bit) != 0) return false;
      frame.done_below_64 |= bit;
      return true;
    }
    uint32_t& mark = done_by_[frame.by_row ? 0 : 1][other];
    const uint32_t number = static_cast<uint32_t>(frames_.size());
    if (mark == number) return false;
    done_trail_.emplace_back(other, mark);
    mark = number;
    return true;
  }

  void Leave() {
    const Frame& frame = frames_.back();
    if (frame.ranked && --active_ranks_ > 0) board_.RankBy(ranks_[active_ranks_ - 1]);
    std::vector<uint32_t>& marks = done_by_[frame.by_row ? 0 : 1];
    while (done_trail_.size() > frame.trail) {
      marks[done_trail_.back().first] = done_trail_.back().second;
      done_trail_.pop_back();
    }
    const uint64_t other_leaves_before = frame.other_leaves_before;
    frames_.pop_back();
    Finished(other_leaves_before);
  }

  // The reasons of a dead leaf found in O(d): an empty line, else the
  // diagonal sums. Whether one holds (its text written).
  bool LineOrSums() {
    bool by_row;
    uint32_t line;
    if (board_.EmptyLine(&by_row, &line)) {
      if (set_.text != nullptr) set_.text->Empty(by_row, line);
      return true;
    }
    if (!board_.SumsFail()) return false;
    if (set_.text != nullptr) set_.text->Sums();
    return true;
  }

  absl::Status Dead() {
    if (LineOrSums()) return absl::OkStatus();
    return Fail("not a dead leaf: every unplaced line has an open cell and the diagonal sums fit");
  }

  // A packed subtree's dead leaf may also be a Hall leaf: when the unplaced
  // rows match no distinct columns, the rows the matching reached are
  // checked as a `hall` leaf's would be.
  absl::Status PackedDead() {
    if (LineOrSums()) return absl::OkStatus();
    uint64_t rows = 0, hall = 0;
    board_.ForEachUnplacedRow([&](uint32_t a) {
      rows |= uint64_t{1} << a;
      open_rows_[a] = board_.OpenWord(true, a);
    });
    if (RowsMatch(rows, open_rows_.data(), &hall)) {
      return Fail(
          "not a dead leaf: every unplaced line has an open cell, the diagonal sums fit and the "
          "unplaced rows match distinct columns");
    }
    hall_rows_.clear();
    for (; hall != 0; hall &= hall - 1) {
      hall_rows_.push_back(static_cast<uint32_t>(__builtin_ctzll(hall)));
    }
    return HallHolds(hall_rows_);
  }

  absl::Status EmptyLine(bool by_row, uint32_t line) {
    if (!Unplaced(by_row, line)) return Fail("not an unplaced line");
    if (board_.OpenCount(by_row, line) != 0) return Fail("the line has open cells");
    if (set_.text != nullptr) set_.text->Empty(by_row, line);
    return absl::OkStatus();
  }

  // A Hall leaf listing its rows (text).
  absl::Status Hall() {
    const std::vector<uint32_t>& rows = reader_.hall_rows();
    const uint64_t stamp = NextStamp();
    for (const uint32_t a : rows) {
      if (!Unplaced(true, a)) return Fail("not an unplaced row");
      if (seen_[a] == stamp) return Fail("a row twice");
      seen_[a] = stamp;
    }
    return HallHolds(rows);
  }

  // A Hall leaf as a set of the node's unplaced rows (binary): bit i for the
  // i-th of them in order.
  absl::Status HallSet() {
    const std::vector<uint8_t>& bits = reader_.hall_bits();
    hall_rows_.clear();
    uint64_t i = 0;
    board_.ForEachUnplacedRow([&](uint32_t a) {
      if ((bits[i / 8] >> (i % 8) & 1) != 0) hall_rows_.push_back(a);
      ++i;
    });
    if (i % 8 != 0 && (bits.back() >> (i % 8)) != 0) {
      return Fail(absl::StrCat("a Hall leaf with bits past the node's ", i, " unplaced rows"));
    }
    if (hall_rows_.empty()) return Fail("a Hall leaf of no row");
    return HallHolds(hall_rows_);
  }

  // Whether these distinct unplaced rows fail Hall's condition.
  absl::Status HallHolds(const std::vector<uint32_t>& rows) {
    const uint32_t columns = board_.UnionColumns(rows);
    if (columns >= rows.size()) {
      return Fail(absl::StrCat("the rows have open cells in ", columns, " columns"));
    }
    if (set_.text != nullptr) set_.text->Hall(rows);
    return absl::OkStatus();
  }

  // An other leaf: proved elsewhere, which the set's check makes sure of.
  absl::Status Other() {
    // A framed subtree is checked on its own (certificates.md).
    if (!framed_bases_.empty()) return Fail("an `other` leaf in a framed subtree");
    ++other_leaves_;
    OtherLeaves::Queens queens = path_.Sorted();
    if (set_.pass == Pass::kCollect) {
      set_.leaves->Add(std::move(queens),
                       {set_.index, Reader::kPositionName, reader_.position(), Reader::kOtherLeaf});
    } else if (!set_.leaves->Holds(queens)) {
      return Fail(absl::StrCat(Reader::kOtherLeaf,
                               ": not there on the first reading (the certificate changed)"));
    }
    if (set_.text != nullptr) set_.text->Other();
    return absl::OkStatus();
  }

  absl::Status Ranked(uint64_t other_leaves_before) {
    if (active_ranks_ == kMaxNestedRanks) {
      return Fail(absl::StrCat("more than ", kMaxNestedRanks, " `ranked` nodes on one path"));
    }
    if (ranks_.size() == active_ranks_) ranks_.emplace_back();
    Ranks& ranks = ranks_[active_ranks_];
    if (absl::Status s = reader_.ReadRanks(&ranks); !s.ok()) return s;
    if (!Rank(ranks.rows, &ranks.row_rank)) {
      return Fail("the ranked rows are not each free row once");
    }
    if (!Rank(ranks.columns, &ranks.column_rank)) {
      return Fail("the ranked columns are not each free column once");
    }
    ++active_ranks_;
    board_.RankBy(ranks);
    Frame& frame = PushFrame(other_leaves_before);
    frame.ranked = true;
    frame.children = 1;
    return absl::OkStatus();
  }

  // Whether d lines, in order of rank, are each free line once; and each
  // line's rank.
  bool Rank(const std::vector<uint32_t>& lines, std::vector<uint32_t>* rank) {
    const uint64_t stamp = NextStamp();
    rank->resize(lines.size());
    for (uint32_t i = 0; i < lines.size(); ++i) {
      const uint32_t x = lines[i];
      if (x == kNone || seen_[x] == stamp) return false;
      seen_[x] = stamp;
      (*rank)[x] = i;
    }
    return true;
  }

  Board& board_;
  Reader& reader_;
  Path& path_;
  const Composition& composition_;
  const SetReading set_;
  std::vector<Frame> frames_;
  // Per free column (a row's branch's children), then per free row: the
  // number of the frame that placed a child there, or 0.
  std::vector<uint32_t> done_by_[2];
  std::vector<std::pair<uint32_t, uint32_t>> done_trail_;  // line, mark replaced
  std::vector<Ranks> ranks_;  // the first active_ranks_ are on the path
  size_t active_ranks_ = 0;
  std::vector<uint64_t> seen_;       // per free line: the last stamp it was seen with
  std::vector<uint32_t> hall_rows_;  // of HallSet and PackedDead
  std::array<uint64_t, kMaxPackedRows> open_rows_;  // of PackedDead: per unplaced row
  // frames_'s size at the node of the packed subtree being read, and at
  // those of the framed subtrees on the path.
  size_t packed_base_ = kNotPacked;
  std::vector<size_t> framed_bases_;
  uint64_t framed_seen_ = 0;  // outside any other, by this walk
  uint64_t stamp_ = 0;
  uint64_t other_leaves_ = 0;  // read so far
};

}  // namespace nqueens::checker

#endif  // NQUEENS_CHECKER_TREE_WALK_H_
