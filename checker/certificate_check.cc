#include "checker/certificate_check.h"

#include <algorithm>
#include <string>
#include <utility>

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

class Checker {
 public:
  // `board` holds the composition's queens.
  Checker(Board& board, absl::string_view certificate)
      : board_(board), lines_(absl::StrSplit(certificate, '\n')) {
    // A final newline leaves one empty piece.
    if (!lines_.empty() && lines_.back().empty()) lines_.pop_back();
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
    if (absl::Status s = Expect({"proof"}); !s.ok()) return s;
    if (absl::Status s = Node(); !s.ok()) return s;
    if (absl::Status s = Expect({"end"}); !s.ok()) return s;
    if (next_ != lines_.size()) return Error("text after `end`");
    return absl::OkStatus();
  }

 private:
  absl::Status Error(absl::string_view what) const {
    return absl::InvalidArgumentError(absl::StrCat("certificate line ", next_, ": ", what));
  }

  // The next line's tokens; false at the end of the text.
  bool Next(std::vector<absl::string_view>& tokens) {
    if (next_ == lines_.size()) return false;
    tokens = absl::StrSplit(lines_[next_++], ' ');
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

  absl::Status Node() {
    std::vector<absl::string_view> tokens;
    if (!Next(tokens)) return Error("missing node");
    if (tokens[0] == "b" && tokens.size() == 4) return Branch(tokens);
    if (tokens[0] == "e" && tokens.size() == 3) return Empty(tokens);
    if (tokens[0] == "h") return Hall(tokens);
    return Error("expected a node: `b`, `e` or `h`");
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
      absl::Status status = Node();
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

  Board& board_;
  std::vector<uint64_t> free_rows_, free_columns_;  // ascending
  std::vector<absl::string_view> lines_;
  size_t next_ = 0;
};

}  // namespace

absl::Status CheckCertificate(const std::vector<uint32_t>& columns, absl::string_view certificate) {
  Board board(columns.size());
  uint64_t given = 0;
  for (uint64_t row = 1; row <= columns.size(); ++row) {
    const uint64_t column = columns[row - 1];
    if (column == 0) continue;
    if (!board.InRange(column) || !board.Place(row, column)) {
      return absl::InvalidArgumentError(
          absl::StrCat("the composition's queen of row ", row, " is off the board or attacked"));
    }
    ++given;
  }
  return Checker(board, certificate).Run(given);
}

}  // namespace nqueens::checker
