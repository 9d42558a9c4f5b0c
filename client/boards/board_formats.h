// What the text formats share (board_io.cc, q_array_format.cc,
// matrix_format.cc, sparse_format.cc): walking content lines and tokens,
// numbers, errors that name the line, and buffered output; and each format's
// reader and writer, which board_io.cc dispatches to.
#ifndef NQUEENS_CLIENT_BOARDS_BOARD_FORMATS_H_
#define NQUEENS_CLIENT_BOARDS_BOARD_FORMATS_H_

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <memory>
#include <optional>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "client/boards/board_io.h"

namespace nqueens::client::formats {

inline bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

inline bool IsBlank(absl::string_view line) {
  return std::all_of(line.begin(), line.end(), IsSpace);
}

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
size_t SplitTokens(absl::string_view line, absl::string_view* out, size_t max);

// A decimal number; values too large for uint64_t saturate (every caller
// rejects them as out of range). nullopt when `token` is not all digits.
std::optional<uint64_t> ParseNumber(absl::string_view token);

template <typename... Parts>
absl::Status LineError(uint64_t line, const Parts&... parts) {
  return absl::InvalidArgumentError(absl::StrCat("line ", line, ": ", parts...));
}

absl::Status NotANumber(uint64_t line, absl::string_view token);

absl::Status NoBoard();

// The cells of a matrix line: its characters but spaces.
uint64_t CountCells(absl::string_view line);

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

// --- The formats (board_io.h describes them). ---

absl::StatusOr<Board> ParseQArray(absl::string_view text);
absl::StatusOr<Board> ParseMatrix(absl::string_view text);
absl::StatusOr<Board> ParseSparse(absl::string_view text);
void WriteQArray(absl::Span<const uint32_t> columns,
                 absl::FunctionRef<void(absl::string_view)> sink);
void WriteMatrix(absl::Span<const uint32_t> columns,
                 absl::FunctionRef<void(absl::string_view)> sink);
void WriteSparse(absl::Span<const uint32_t> columns,
                 absl::FunctionRef<void(absl::string_view)> sink);
void WriteBinary(absl::Span<const uint32_t> columns,
                 absl::FunctionRef<void(absl::string_view)> sink);

}  // namespace nqueens::client::formats

#endif  // NQUEENS_CLIENT_BOARDS_BOARD_FORMATS_H_
