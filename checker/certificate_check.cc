#include "checker/certificate_check.h"

#include <algorithm>
#include <string>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace nqueens::checker {
namespace {

// The board as the checker sees it at one node: which rows, columns and
// diagonals hold a queen.
class Board {
 public:
  explicit Board(uint64_t n)
      : n_(n), row_(n + 1), column_(n + 1), down_(2 * n + 1), up_(2 * n + 2) {}

  uint64_t n() const { return n_; }
  bool InRange(uint64_t x) const { return x >= 1 && x <= n_; }
  bool RowTaken(uint64_t row) const { return row_[row]; }
  bool ColumnTaken(uint64_t column) const { return column_[column]; }
  bool Open(uint64_t row, uint64_t column) const {
    return !row_[row] && !column_[column] && !down_[row + n_ - column] && !up_[row + column];
  }
  // False if the queen attacks one already there.
  bool Place(uint64_t row, uint64_t column) {
    if (!Open(row, column)) return false;
    Set(row, column, true);
    return true;
  }
  void Remove(uint64_t row, uint64_t column) { Set(row, column, false); }

 private:
  void Set(uint64_t row, uint64_t column, bool value) {
    row_[row] = column_[column] = down_[row + n_ - column] = up_[row + column] = value;
  }

  uint64_t n_;
  std::vector<bool> row_, column_, down_, up_;
};

// The nodes of a set's `x` leaves, each by its queens (row << 32 | column,
// sorted), with where it first appears and whether a subtree without `x`
// leaves proves it.
class OtherLeaves {
 public:
  using Queens = std::vector<uint64_t>;

  bool empty() const { return leaves_.empty(); }
  void Add(Queens queens, size_t certificate, size_t line) {
    depths_.insert(queens.size());
    leaves_.try_emplace(std::move(queens), Leaf{certificate, line, false});
  }
  bool Holds(const Queens& queens) const { return leaves_.contains(queens); }
  // Whether a node of `depth` queens may be one of them: most nodes are not
  // looked up.
  bool MayHold(size_t depth) const { return depths_.contains(depth); }
  void Proved(const Queens& queens) {
    if (auto leaf = leaves_.find(queens); leaf != leaves_.end()) leaf->second.proved = true;
  }
  // The first leaf that nothing proves, in the order of the certificates and
  // their lines.
  SetVerdict FirstUnproved() const {
    const Leaf* first = nullptr;
    for (const auto& [queens, leaf] : leaves_) {
      if (!leaf.proved &&
          (first == nullptr || std::make_pair(leaf.certificate, leaf.line) <
                                   std::make_pair(first->certificate, first->line))) {
        first = &leaf;
      }
    }
    if (first == nullptr) return {};
    return {absl::InvalidArgumentError(
                absl::StrCat("certificate line ", first->line,
                             ": `x`: no other certificate of the set proves this subtree")),
            first->certificate};
  }

 private:
  struct Leaf {
    size_t certificate, line;
    bool proved;
  };
  absl::flat_hash_map<Queens, Leaf> leaves_;
  absl::flat_hash_set<size_t> depths_;
};

// What a reading of a set's certificate does with its `x` leaves: collects
// them, or looks for the nodes that prove them.
enum class Pass { kCollect, kProve };

class Checker {
 public:
  // `board` holds the composition's queens; `certificate` is the set's
  // certificate number `index`, read for `pass`.
  Checker(Board& board, absl::string_view certificate, size_t index, Pass pass, OtherLeaves& leaves)
      : board_(board),
        rest_(certificate),
        size_(certificate.size()),
        index_(index),
        pass_(pass),
        leaves_(leaves) {
    // Only the composition's free lines can ever hold an open cell.
    for (uint64_t x = 1; x <= board.n(); ++x) {
      if (!board.RowTaken(x)) free_rows_.push_back(x);
      if (!board.ColumnTaken(x)) free_columns_.push_back(x);
    }
  }

  absl::Status Run(uint64_t given) {
    if (absl::Status s = Expect({"nqueens-certificate", "1"}); !s.ok()) return s;
    if (absl::Status s = Expect({"n", std::to_string(board_.n())}); !s.ok()) return s;
    if (absl::Status s = Expect({"given", std::to_string(given)}); !s.ok()) return s;
    if (absl::Status s = PartLine(); !s.ok()) return s;
    if (absl::Status s = Expect({"proof"}); !s.ok()) return s;
    in_tree_ = true;
    if (absl::Status s = Node(); !s.ok()) return s;
    in_tree_ = false;
    if (absl::Status s = Expect({"end"}); !s.ok()) return s;
    if (!rest_.empty()) return Error("text after `end`");
    return absl::OkStatus();
  }

 private:
  // Names the line by its number and byte offset, and, in the tree, the
  // node by its path: the queens placed from the root down to it.
  absl::Status Error(absl::string_view what) const {
    return absl::InvalidArgumentError(
        absl::StrCat("certificate line ", line_, " (byte ", line_offset_, PathText(), "): ", what));
  }

  // "; at the root", "; path (5, 2) (7, 5)": the first and last few queens
  // of a long path.
  std::string PathText() const {
    if (!in_tree_) return "";
    if (path_.empty()) return "; at the root";
    constexpr size_t kEnds = 6;
    std::string text = "; path";
    for (size_t i = 0; i < path_.size(); ++i) {
      if (path_.size() > 2 * kEnds && i == kEnds) {
        absl::StrAppend(&text, " ... ", path_.size() - 2 * kEnds, " more ...");
        i = path_.size() - kEnds;
      }
      absl::StrAppend(&text, " (", path_[i] >> 32, ", ", path_[i] & 0xffffffffu, ")");
    }
    return text;
  }

  // The next line's tokens; false at the end of the text (a final newline
  // ends the last line). Lines are cut one at a time: a certificate may
  // hold tens of millions.
  bool Next(std::vector<absl::string_view>& tokens) {
    if (rest_.empty()) return false;
    line_offset_ = size_ - rest_.size();
    const size_t end = rest_.find('\n');
    tokens = absl::StrSplit(rest_.substr(0, end), ' ');
    rest_ = end == absl::string_view::npos ? absl::string_view() : rest_.substr(end + 1);
    ++line_;
    return true;
  }

  absl::Status Expect(const std::vector<std::string>& wanted) {
    std::vector<absl::string_view> tokens;
    if (!Next(tokens)) return Error(absl::StrCat("missing `", absl::StrJoin(wanted, " "), "`"));
    if (tokens.size() != wanted.size() ||
        !std::equal(tokens.begin(), tokens.end(), wanted.begin())) {
      return Error(absl::StrCat("expected `", absl::StrJoin(wanted, " "), "`"));
    }
    return absl::OkStatus();
  }

  // The optional `part <i> <k>` line, which allows `x` leaves.
  absl::Status PartLine() {
    if (!absl::StartsWith(rest_, "part ")) return absl::OkStatus();
    std::vector<absl::string_view> tokens;
    Next(tokens);
    uint64_t index = 0, count = 0;
    if (tokens.size() != 3 || !absl::SimpleAtoi(tokens[1], &index) ||
        !absl::SimpleAtoi(tokens[2], &count) || count < 2 || index >= count) {
      return Error("expected `part <i> <k>` with 0 <= i < k and k >= 2");
    }
    part_ = true;
    return absl::OkStatus();
  }

  // Token i of `tokens` as a board coordinate, or 0.
  uint64_t Coordinate(const std::vector<absl::string_view>& tokens, size_t i) const {
    uint64_t x = 0;
    if (i >= tokens.size() || !absl::SimpleAtoi(tokens[i], &x) || !board_.InRange(x)) return 0;
    return x;
  }

  // The open cells of an unplaced row (by_row) or column, as the other
  // coordinate.
  std::vector<uint64_t> OpenCells(bool by_row, uint64_t line) const {
    std::vector<uint64_t> cells;
    for (uint64_t other : by_row ? free_columns_ : free_rows_) {
      if (by_row ? board_.Open(line, other) : board_.Open(other, line)) cells.push_back(other);
    }
    return cells;
  }

  bool Unplaced(bool row, uint64_t line) const {
    return line != 0 && !(row ? board_.RowTaken(line) : board_.ColumnTaken(line));
  }

  // The queens placed on the path, as OtherLeaves keys them.
  OtherLeaves::Queens PathQueens() const {
    OtherLeaves::Queens queens = path_;
    std::sort(queens.begin(), queens.end());
    return queens;
  }

  // A node and its subtree; in the proving pass, a subtree without `x`
  // leaves proves the `x` leaves of its node.
  absl::Status Node() {
    const uint64_t x_leaves_before = x_leaves_;
    absl::Status status = Subtree();
    if (status.ok() && pass_ == Pass::kProve && x_leaves_ == x_leaves_before &&
        leaves_.MayHold(path_.size())) {
      leaves_.Proved(PathQueens());
    }
    return status;
  }

  absl::Status Subtree() {
    std::vector<absl::string_view> tokens;
    if (!Next(tokens)) return Error("missing node");
    if (tokens[0] == "b" && tokens.size() == 4) return Branch(tokens);
    if (tokens[0] == "e" && tokens.size() == 3) return Empty(tokens);
    if (tokens[0] == "h") return Hall(tokens);
    if (tokens[0] == "x" && tokens.size() == 1 && part_) return Other();
    return Error(part_ ? "expected a node: `b`, `e`, `h` or `x`"
                       : "expected a node: `b`, `e` or `h`");
  }

  absl::Status Branch(const std::vector<absl::string_view>& tokens) {
    const bool by_row = tokens[1] == "r";
    if (!by_row && tokens[1] != "c") return Error("a branch is on `r` or `c`");
    const uint64_t line = Coordinate(tokens, 2);
    if (!Unplaced(by_row, line)) return Error("the branch's line is not an unplaced one");
    uint64_t children = 0;
    if (!absl::SimpleAtoi(tokens[3], &children)) return Error("bad child count");
    const std::vector<uint64_t> open = OpenCells(by_row, line);
    if (children != open.size()) {
      return Error(absl::StrCat("the line has ", open.size(), " open cells, not ", children));
    }
    std::vector<bool> done(open.size());
    for (uint64_t child = 0; child < children; ++child) {
      std::vector<absl::string_view> place;
      if (!Next(place) || place.size() != 3 || place[0] != "p") return Error("expected `p`");
      const uint64_t row = Coordinate(place, 1), column = Coordinate(place, 2);
      if ((by_row ? row : column) != line) return Error("the queen is not on the branch's line");
      const uint64_t other = by_row ? column : row;
      const auto at = std::lower_bound(open.begin(), open.end(), other);
      if (at == open.end() || *at != other) return Error("the queen is not on an open cell");
      if (done[at - open.begin()]) return Error("the cell is placed twice");
      done[at - open.begin()] = true;
      board_.Place(row, column);
      path_.push_back(row << 32 | column);
      absl::Status status = Node();
      path_.pop_back();
      board_.Remove(row, column);
      if (!status.ok()) return status;
    }
    return absl::OkStatus();
  }

  absl::Status Empty(const std::vector<absl::string_view>& tokens) {
    const bool row = tokens[1] == "r";
    if (!row && tokens[1] != "c") return Error("an empty line is `r` or `c`");
    const uint64_t line = Coordinate(tokens, 2);
    if (!Unplaced(row, line)) return Error("not an unplaced line");
    if (!OpenCells(row, line).empty()) return Error("the line has open cells");
    return absl::OkStatus();
  }

  absl::Status Hall(const std::vector<absl::string_view>& tokens) {
    uint64_t count = 0;
    if (tokens.size() < 2 || !absl::SimpleAtoi(tokens[1], &count) || count + 2 != tokens.size()) {
      return Error("`h` needs its row count and that many rows");
    }
    std::vector<uint64_t> rows, columns;
    for (size_t i = 2; i < tokens.size(); ++i) {
      const uint64_t row = Coordinate(tokens, i);
      if (!Unplaced(true, row)) return Error("not an unplaced row");
      rows.push_back(row);
      for (uint64_t column : OpenCells(true, row)) columns.push_back(column);
    }
    std::sort(rows.begin(), rows.end());
    if (std::adjacent_find(rows.begin(), rows.end()) != rows.end()) return Error("a row twice");
    std::sort(columns.begin(), columns.end());
    columns.erase(std::unique(columns.begin(), columns.end()), columns.end());
    if (columns.size() >= rows.size()) {
      return Error(absl::StrCat("the rows have open cells in ", columns.size(), " columns"));
    }
    return absl::OkStatus();
  }

  // An `x` leaf: proved elsewhere, which the set's check makes sure of.
  absl::Status Other() {
    ++x_leaves_;
    if (pass_ == Pass::kCollect) {
      leaves_.Add(PathQueens(), index_, line_);
    } else if (!leaves_.Holds(PathQueens())) {
      return Error("`x`: not there on the first reading (the certificate changed)");
    }
    return absl::OkStatus();
  }

  Board& board_;
  std::vector<uint64_t> free_rows_, free_columns_;  // ascending
  absl::string_view rest_;                          // the lines not read yet
  const size_t size_;                               // of the whole text
  size_t line_ = 0, line_offset_ = 0;               // of the last line read
  bool in_tree_ = false;                            // between `proof` and `end`
  const size_t index_;
  const Pass pass_;
  OtherLeaves& leaves_;
  bool part_ = false;           // whether the certificate has a `part` line
  std::vector<uint64_t> path_;  // the queens placed, row << 32 | column
  uint64_t x_leaves_ = 0;       // read so far
};

// The board with the composition's queens, and their number in `given`.
absl::StatusOr<Board> ComposedBoard(const std::vector<uint32_t>& columns, uint64_t& given) {
  Board board(columns.size());
  for (uint64_t row = 1; row <= columns.size(); ++row) {
    const uint64_t column = columns[row - 1];
    if (column == 0) continue;
    if (!board.InRange(column) || !board.Place(row, column)) {
      return absl::InvalidArgumentError(
          absl::StrCat("the composition's queen of row ", row, " is off the board or attacked"));
    }
    ++given;
  }
  return board;
}

// Reads each certificate of the set for `pass`; an error names its
// certificate.
SetVerdict ReadSet(Board& board, uint64_t given, size_t count, const CertificateReader& read,
                   Pass pass, OtherLeaves& leaves) {
  for (size_t i = 0; i < count; ++i) {
    absl::StatusOr<absl::string_view> text = read(i);
    if (!text.ok()) return {text.status(), i};
    if (absl::Status status = Checker(board, *text, i, pass, leaves).Run(given); !status.ok()) {
      return {status, i};
    }
  }
  return {};
}

}  // namespace

absl::Status CheckCertificate(const std::vector<uint32_t>& columns, absl::string_view certificate) {
  return CheckCertificateSet(columns, 1, [certificate](size_t) { return certificate; }).status;
}

// The second reading checks each certificate again, and its `x` leaves
// against the first reading's, so that a text changed between the readings
// proves nothing.
SetVerdict CheckCertificateSet(const std::vector<uint32_t>& columns, size_t count,
                               const CertificateReader& read) {
  uint64_t given = 0;
  absl::StatusOr<Board> board = ComposedBoard(columns, given);
  if (!board.ok()) return {board.status(), 0};
  OtherLeaves leaves;
  if (SetVerdict collected = ReadSet(*board, given, count, read, Pass::kCollect, leaves);
      !collected.status.ok() || leaves.empty()) {
    return collected;
  }
  if (SetVerdict proving = ReadSet(*board, given, count, read, Pass::kProve, leaves);
      !proving.status.ok()) {
    return proving;
  }
  return leaves.FirstUnproved();
}

}  // namespace nqueens::checker
