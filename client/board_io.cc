#include "board_io.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <utility>

#include "absl/base/config.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"

namespace nqueens::client {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

bool IsBlank(absl::string_view line) { return std::all_of(line.begin(), line.end(), IsSpace); }

// Walks the lines of a text that carry content: comments are cut off, blank
// lines skipped. Lines are numbered from 1 as in the file, blank ones included.
class ContentLines {
 public:
  explicit ContentLines(absl::string_view text) : rest_(text) {}

  // Moves to the next content line; false at the end of the text.
  bool Next() {
    while (!rest_.empty()) {
      const size_t end = rest_.find('\n');
      absl::string_view line = rest_.substr(0, end);
      rest_.remove_prefix(end == absl::string_view::npos ? rest_.size() : end + 1);
      ++number_;
      line = line.substr(0, line.find('#'));
      if (!IsBlank(line)) {
        line_ = line;
        return true;
      }
    }
    return false;
  }

  absl::string_view line() const { return line_; }
  uint64_t number() const { return number_; }

 private:
  absl::string_view rest_;
  absl::string_view line_;
  uint64_t number_ = 0;
};

// Splits one line at whitespace.
class Tokens {
 public:
  explicit Tokens(absl::string_view line) : rest_(line) {}

  bool Next(absl::string_view* token) {
    size_t begin = 0;
    while (begin < rest_.size() && IsSpace(rest_[begin])) ++begin;
    if (begin == rest_.size()) return false;
    size_t end = begin;
    while (end < rest_.size() && !IsSpace(rest_[end])) ++end;
    *token = rest_.substr(begin, end - begin);
    rest_.remove_prefix(end);
    return true;
  }

 private:
  absl::string_view rest_;
};

// Up to `max` tokens of `line` into `out`; returns how many the line has,
// counting at most max + 1 so that callers can tell "too many".
size_t SplitTokens(absl::string_view line, absl::string_view* out, size_t max) {
  Tokens tokens(line);
  absl::string_view token;
  size_t count = 0;
  while (count <= max && tokens.Next(&token)) {
    if (count < max) out[count] = token;
    ++count;
  }
  return count;
}

// A decimal number; values too large for uint64_t saturate (every caller
// rejects them as out of range). nullopt when `token` is not all digits.
std::optional<uint64_t> ParseNumber(absl::string_view token) {
  constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
  uint64_t value = 0;
  for (char c : token) {
    if (c < '0' || c > '9') return std::nullopt;
    const uint64_t digit = static_cast<uint64_t>(c - '0');
    value = value > (kMax - digit) / 10 ? kMax : value * 10 + digit;
  }
  return value;
}

template <typename... Parts>
absl::Status LineError(uint64_t line, const Parts&... parts) {
  return absl::InvalidArgumentError(absl::StrCat("line ", line, ": ", parts...));
}

absl::Status NotANumber(uint64_t line, absl::string_view token) {
  return LineError(line, "expected a number, found \"", token, "\"");
}

absl::Status NoBoard() { return absl::InvalidArgumentError("the input holds no board"); }

// The line holding the index-th value of a Q array; for error messages only.
uint64_t LineOfValue(absl::string_view text, uint64_t index) {
  ContentLines lines(text);
  uint64_t seen = 0;
  while (lines.Next()) {
    Tokens tokens(lines.line());
    absl::string_view token;
    while (tokens.Next(&token)) {
      if (seen++ == index) return lines.number();
    }
  }
  return lines.number();
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Where a token of a Q array ends: at whitespace, a line break, a comment.
bool EndsToken(char c) { return IsSpace(c) || c == '\n' || c == '#'; }

uint64_t LineAt(absl::string_view text, const char* position) {
  return 1 + static_cast<uint64_t>(std::count(text.data(), position, '\n'));
}

// The whole token starting at `begin`, for an error message.
absl::string_view TokenAt(absl::string_view text, const char* begin) {
  const char* end = begin;
  while (end != text.data() + text.size() && !EndsToken(*end)) ++end;
  return absl::string_view(begin, static_cast<size_t>(end - begin));
}

// Reads the Q array in one pass over the characters rather than line by line
// and token by token: at 10^8 values this is the bulk of reading a board.
// Line numbers are counted only for an error message.
absl::StatusOr<Board> ParseQArray(absl::string_view text) {
  Board board;
  // Every value takes at least two characters (a digit and a separator), so
  // this never reallocates; the part never written costs address space only.
  board.columns.reserve(std::min<uint64_t>(text.size() / 2 + 1, kMaxBoardSize));
  const char* p = text.data();
  const char* const end = p + text.size();
  while (p != end) {
    if (IsDigit(*p)) {
      const char* const token = p;
      while (p != end && *p == '0') ++p;
      // Past 10 significant digits the value may wrap around, but it is too
      // large for a column anyway (kMaxBoardSize has 10 digits).
      const char* const significant = p;
      uint64_t column = 0;
      for (; p != end && IsDigit(*p); ++p) {
        column = column * 10 + static_cast<uint64_t>(*p - '0');
      }
      if (p != end && !EndsToken(*p)) {
        return NotANumber(LineAt(text, token), TokenAt(text, token));
      }
      if (p - significant > 10 || column > kMaxBoardSize) {
        return LineError(LineAt(text, token), "row ", board.columns.size() + 1, ": column ",
                         TokenAt(text, token), " is too large");
      }
      if (board.columns.size() == kMaxBoardSize) {
        return LineError(LineAt(text, token), "more than ", kMaxBoardSize,
                         " rows, the largest board");
      }
      board.columns.push_back(static_cast<uint32_t>(column));
    } else if (*p == '#') {
      const void* line_end = std::memchr(p, '\n', static_cast<size_t>(end - p));
      p = line_end == nullptr ? end : static_cast<const char*>(line_end);
    } else if (EndsToken(*p)) {
      ++p;
    } else {
      return NotANumber(LineAt(text, p), TokenAt(text, p));
    }
  }
  if (board.columns.empty()) return NoBoard();
  board.n = board.columns.size();
  // Whether a column is above n is known only once n is, so the line of an
  // offending value is looked up afterwards.
  for (uint64_t row = 0; row < board.n; ++row) {
    if (board.columns[row] > board.n) {
      return LineError(LineOfValue(text, row), "row ", row + 1, ": column ", board.columns[row],
                       " is larger than n = ", board.n);
    }
  }
  return board;
}

// One matrix line: the column of its queen (0 for none), checking the cells.
absl::StatusOr<uint32_t> ParseMatrixRow(absl::string_view line, uint64_t line_number, uint64_t row,
                                        uint64_t n) {
  uint64_t cells = 0;
  uint64_t queen_column = 0;
  for (char cell : line) {
    if (IsSpace(cell)) continue;
    ++cells;
    if (cell == '0' || cell == '.') continue;
    if (cell != '1' && cell != 'Q') {
      return LineError(line_number, "row ", row, ", column ", cells, ": unexpected '",
                       absl::string_view(&cell, 1), "' (cells are 0, 1, . or Q)");
    }
    if (queen_column != 0) {
      return LineError(line_number, "row ", row, " has more than one queen (columns ", queen_column,
                       " and ", cells, ")");
    }
    queen_column = cells;
  }
  if (cells != n) {
    return LineError(line_number, "row ", row, " has ", cells, " cells, expected ", n);
  }
  return static_cast<uint32_t>(queen_column);
}

uint64_t CountCells(absl::string_view line) {
  return static_cast<uint64_t>(
      std::count_if(line.begin(), line.end(), [](char c) { return !IsSpace(c); }));
}

absl::StatusOr<Board> ParseMatrix(absl::string_view text) {
  ContentLines lines(text);
  if (!lines.Next()) return NoBoard();
  Board board;
  board.n = CountCells(lines.line());
  if (board.n > kMaxBoardSize) {
    return LineError(lines.number(), "rows of ", board.n,
                     " cells are longer than the largest board, ", kMaxBoardSize);
  }
  board.columns.reserve(board.n);
  do {
    const uint64_t row = board.columns.size() + 1;
    if (row > board.n) {
      return LineError(lines.number(), "more than ", board.n, " rows in a matrix of ", board.n,
                       " columns");
    }
    absl::StatusOr<uint32_t> column = ParseMatrixRow(lines.line(), lines.number(), row, board.n);
    if (!column.ok()) return column.status();
    board.columns.push_back(*column);
  } while (lines.Next());
  if (board.columns.size() < board.n) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the matrix has ", board.columns.size(), " rows, expected ", board.n, " (one per column)"));
  }
  return board;
}

absl::StatusOr<uint64_t> ParseSparseSize(const ContentLines& lines) {
  absl::string_view tokens[1];
  const std::optional<uint64_t> n =
      SplitTokens(lines.line(), tokens, 1) == 1 ? ParseNumber(tokens[0]) : std::nullopt;
  if (!n) {
    return LineError(lines.number(), "expected the board size n alone on the first line");
  }
  if (*n == 0) return LineError(lines.number(), "n must be at least 1");
  if (*n > kMaxBoardSize) {
    return LineError(lines.number(), "n = ", tokens[0], " is larger than the largest board, ",
                     kMaxBoardSize);
  }
  return *n;
}

absl::StatusOr<Queen> ParseSparseQueen(const ContentLines& lines, uint64_t n) {
  absl::string_view tokens[2];
  if (SplitTokens(lines.line(), tokens, 2) != 2) {
    return LineError(lines.number(), "expected \"row column\"");
  }
  uint64_t values[2];
  const char* names[2] = {"row", "column"};
  for (int i = 0; i < 2; ++i) {
    const std::optional<uint64_t> value = ParseNumber(tokens[i]);
    if (!value) return NotANumber(lines.number(), tokens[i]);
    if (*value < 1 || *value > n) {
      return LineError(lines.number(), names[i], " ", tokens[i], " is outside 1..", n);
    }
    values[i] = *value;
  }
  return Queen{static_cast<uint32_t>(values[0]), static_cast<uint32_t>(values[1])};
}

// The error for a row given twice in a sparse file, naming the first two
// lines that give it; looked up only when the error is found.
absl::Status RepeatedRow(absl::string_view text, uint32_t row) {
  ContentLines lines(text);
  lines.Next();  // n
  uint64_t first_line = 0;
  while (lines.Next()) {
    absl::string_view tokens[1];
    SplitTokens(lines.line(), tokens, 1);
    if (ParseNumber(tokens[0]) != row) continue;
    if (first_line != 0) {
      return LineError(lines.number(), "row ", row, " already has a queen (line ", first_line, ")");
    }
    first_line = lines.number();
  }
  return absl::InternalError("repeated row not found");
}

absl::StatusOr<Board> ParseSparse(absl::string_view text) {
  ContentLines lines(text);
  if (!lines.Next()) return NoBoard();
  Board board;
  absl::StatusOr<uint64_t> n = ParseSparseSize(lines);
  if (!n.ok()) return n.status();
  board.n = *n;
  while (lines.Next()) {
    absl::StatusOr<Queen> queen = ParseSparseQueen(lines, board.n);
    if (!queen.ok()) return queen.status();
    board.queens.push_back(*queen);
  }
  const auto by_row = [](const Queen& a, const Queen& b) { return a.row < b.row; };
  if (!std::is_sorted(board.queens.begin(), board.queens.end(), by_row)) {
    std::sort(board.queens.begin(), board.queens.end(), by_row);
  }
  const auto repeat =
      std::adjacent_find(board.queens.begin(), board.queens.end(),
                         [](const Queen& a, const Queen& b) { return a.row == b.row; });
  if (repeat != board.queens.end()) return RepeatedRow(text, repeat->row);
  return board;
}

// The number of cells of a line made only of `0`/`1` cells, else 0.
uint64_t BinaryCellCount(absl::string_view line) {
  for (char c : line) {
    if (!IsSpace(c) && c != '0' && c != '1') return 0;
  }
  return CountCells(line);
}

// Whether `line` is exactly `count` (at most 2) numbers. Looks at no more
// than count + 1 tokens, however long the line.
bool HoldsNumbers(absl::string_view line, size_t count) {
  absl::string_view tokens[2];
  if (SplitTokens(line, tokens, count) != count) return false;
  return std::all_of(tokens, tokens + count,
                     [](absl::string_view token) { return ParseNumber(token).has_value(); });
}

#ifdef ABSL_IS_BIG_ENDIAN
constexpr bool kLittleEndianHost = false;
#else
constexpr bool kLittleEndianHost = true;
#endif

// Binary boards are little-endian: on a big-endian host every value is
// byte-swapped (its own inverse, so this serves reading and writing).
void SwapToOrFromLittleEndian(absl::Span<uint32_t> values) {
  if (kLittleEndianHost) return;
  for (uint32_t& value : values) value = __builtin_bswap32(value);
}

// Collects text output in a buffer and hands it to a sink in large pieces.
// Numbers are formatted straight into the buffer.
class BufferedSink {
 public:
  explicit BufferedSink(absl::FunctionRef<void(absl::string_view)> sink)
      : sink_(sink), buffer_(new char[kPieceSize + kSlack]) {}
  ~BufferedSink() { Flush(); }

  void Append(char c) {
    buffer_[used_] = c;
    Advance(1);
  }
  void AppendNumber(uint64_t value) {
    char* const begin = buffer_.get() + used_;
    const char* const end = std::to_chars(begin, begin + kSlack, value).ptr;
    Advance(static_cast<size_t>(end - begin));
  }

 private:
  static constexpr size_t kPieceSize = size_t{1} << 20;
  static constexpr size_t kSlack = 32;  // room for one number past a piece

  void Advance(size_t count) {
    used_ += count;
    if (used_ >= kPieceSize) Flush();
  }
  void Flush() {
    if (used_ > 0) sink_(absl::string_view(buffer_.get(), used_));
    used_ = 0;
  }

  absl::FunctionRef<void(absl::string_view)> sink_;
  std::unique_ptr<char[]> buffer_;
  size_t used_ = 0;
};

void WriteQArray(absl::Span<const uint32_t> columns,
                 absl::FunctionRef<void(absl::string_view)> sink) {
  BufferedSink out(sink);
  for (size_t row = 0; row < columns.size(); ++row) {
    out.AppendNumber(columns[row]);
    out.Append(row + 1 < columns.size() ? ' ' : '\n');
  }
}

void WriteMatrix(absl::Span<const uint32_t> columns,
                 absl::FunctionRef<void(absl::string_view)> sink) {
  BufferedSink out(sink);
  for (uint32_t queen_column : columns) {
    for (uint64_t column = 1; column <= columns.size(); ++column) {
      if (column > 1) out.Append(' ');
      out.Append(column == queen_column ? '1' : '0');
    }
    out.Append('\n');
  }
}

void WriteSparse(absl::Span<const uint32_t> columns,
                 absl::FunctionRef<void(absl::string_view)> sink) {
  BufferedSink out(sink);
  out.AppendNumber(columns.size());
  out.Append('\n');
  for (size_t row = 0; row < columns.size(); ++row) {
    if (columns[row] == kEmptyRow) continue;
    out.AppendNumber(row + 1);
    out.Append(' ');
    out.AppendNumber(columns[row]);
    out.Append('\n');
  }
}

// The values' own bytes on a little-endian host; swapped copies otherwise.
void WriteBinary(absl::Span<const uint32_t> columns,
                 absl::FunctionRef<void(absl::string_view)> sink) {
  constexpr size_t kPieceValues = size_t{1} << 22;  // 16 MiB
  Columns swapped;
  for (size_t offset = 0; offset < columns.size(); offset += kPieceValues) {
    absl::Span<const uint32_t> piece = columns.subspan(offset, kPieceValues);
    if (!kLittleEndianHost) {
      swapped.assign(piece.begin(), piece.end());
      SwapToOrFromLittleEndian(absl::MakeSpan(swapped));
      piece = swapped;
    }
    sink(absl::string_view(reinterpret_cast<const char*>(piece.data()),
                           piece.size() * sizeof(uint32_t)));
  }
}

}  // namespace

absl::StatusOr<BoardFormat> ParseBoardFormat(absl::string_view name) {
  if (name == "auto") return BoardFormat::kAuto;
  if (name == "q") return BoardFormat::kQArray;
  if (name == "matrix") return BoardFormat::kMatrix;
  if (name == "sparse") return BoardFormat::kSparse;
  if (name == "binary") return BoardFormat::kBinary;
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown board format \"", name, "\" (expected auto, q, matrix, sparse or binary)"));
}

BoardFormat FormatFromPath(absl::string_view path) {
  return absl::EndsWith(path, ".bin") || absl::EndsWith(path, ".u32") ? BoardFormat::kBinary
                                                                      : BoardFormat::kAuto;
}

uint64_t Board::queen_count() const {
  if (is_sparse()) return queens.size();
  return static_cast<uint64_t>(std::count_if(columns.begin(), columns.end(),
                                             [](uint32_t column) { return column != kEmptyRow; }));
}

absl::Status MakeDense(Board& board) {
  if (!board.is_sparse()) return absl::OkStatus();
  absl::StatusOr<Columns> columns = DenseFromQueens(board.n, board.queens);
  if (!columns.ok()) return columns.status();
  board.columns = *std::move(columns);
  board.queens = {};
  return absl::OkStatus();
}

void MakeSparse(Board& board) {
  if (board.is_sparse()) return;
  board.queens = QueensFromDense(board.columns);
  board.columns = {};
}

BoardFormat DetectFormat(absl::string_view text) {
  constexpr size_t kBinarySniffSize = 4096;  // rule 0 at the top of board_io.h
  if (text.substr(0, kBinarySniffSize).find('\0') != absl::string_view::npos) {
    return BoardFormat::kBinary;
  }
  ContentLines lines(text);
  if (!lines.Next()) return BoardFormat::kQArray;
  const absl::string_view first = lines.line();
  if (first.find('.') != absl::string_view::npos || first.find('Q') != absl::string_view::npos) {
    return BoardFormat::kMatrix;
  }
  const bool has_second = lines.Next();
  if (has_second) {
    const uint64_t cells = BinaryCellCount(first);
    if (cells >= 2 && cells == BinaryCellCount(lines.line())) {
      return BoardFormat::kMatrix;
    }
  }
  if (HoldsNumbers(first, 1) && (!has_second || HoldsNumbers(lines.line(), 2))) {
    return BoardFormat::kSparse;
  }
  return BoardFormat::kQArray;
}

absl::StatusOr<Board> ParseBinaryBoard(Columns values, uint64_t size) {
  if (size == 0) return NoBoard();
  if (size % sizeof(uint32_t) != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("a binary board holds 4 bytes per row, but the input "
                     "has ",
                     size, " bytes, not a multiple of 4"));
  }
  Board board;
  board.n = size / sizeof(uint32_t);
  if (board.n > kMaxBoardSize) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the binary board has ", board.n, " rows, more than the largest board, ", kMaxBoardSize));
  }
  values.resize(board.n);
  SwapToOrFromLittleEndian(absl::MakeSpan(values));
  for (uint64_t row = 0; row < board.n; ++row) {
    if (values[row] > board.n) {
      return absl::InvalidArgumentError(
          absl::StrCat("row ", row + 1, ": column ", values[row], " is larger than n = ", board.n));
    }
  }
  board.columns = std::move(values);
  return board;
}

absl::StatusOr<Board> ParseBoard(absl::string_view text, BoardFormat format) {
  // Editors on some systems start UTF-8 text with a byte-order mark; it is
  // no part of a text board (and invisible in an error message).
  absl::string_view unmarked = text;
  absl::ConsumePrefix(&unmarked, "\xEF\xBB\xBF");
  if (format == BoardFormat::kAuto) format = DetectFormat(unmarked);
  if (format != BoardFormat::kBinary) text = unmarked;
  switch (format) {
    case BoardFormat::kMatrix:
      return ParseMatrix(text);
    case BoardFormat::kSparse:
      return ParseSparse(text);
    case BoardFormat::kBinary: {
      Columns values((text.size() + 3) / 4);
      if (!text.empty()) std::memcpy(values.data(), text.data(), text.size());
      return ParseBinaryBoard(std::move(values), text.size());
    }
    case BoardFormat::kQArray:
    case BoardFormat::kAuto:
      break;
  }
  return ParseQArray(text);
}

absl::Status CheckOutputFormat(uint64_t n, BoardFormat format) {
  if (format == BoardFormat::kAuto) {
    return absl::InvalidArgumentError("the output format must be q, matrix, sparse or binary");
  }
  if (format == BoardFormat::kMatrix && n > kMaxMatrixOutputSize) {
    return absl::InvalidArgumentError(
        absl::StrCat("matrix output is limited to n <= ", kMaxMatrixOutputSize, " (n = ", n,
                     "); use --output-format q, sparse or binary"));
  }
  return absl::OkStatus();
}

void WriteBoard(absl::Span<const uint32_t> columns, BoardFormat format,
                absl::FunctionRef<void(absl::string_view)> sink) {
  switch (format) {
    case BoardFormat::kMatrix:
      return WriteMatrix(columns, sink);
    case BoardFormat::kSparse:
      return WriteSparse(columns, sink);
    case BoardFormat::kBinary:
      return WriteBinary(columns, sink);
    case BoardFormat::kQArray:
    case BoardFormat::kAuto:
      return WriteQArray(columns, sink);
  }
}

std::string FormatBoard(absl::Span<const uint32_t> columns, BoardFormat format) {
  std::string text;
  WriteBoard(columns, format,
             [&text](absl::string_view piece) { text.append(piece.data(), piece.size()); });
  return text;
}

}  // namespace nqueens::client
