// The Q array: whitespace-separated columns, 0 for an empty row.
#include <algorithm>
#include <cstring>

#include "client/boards/board_formats.h"

namespace nqueens::client::formats {
namespace {

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

}  // namespace

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

void WriteQArray(absl::Span<const uint32_t> columns,
                 absl::FunctionRef<void(absl::string_view)> sink) {
  BufferedSink out(sink);
  for (size_t row = 0; row < columns.size(); ++row) {
    out.AppendNumber(columns[row]);
    out.Append(row + 1 < columns.size() ? ' ' : '\n');
  }
}

}  // namespace nqueens::client::formats
