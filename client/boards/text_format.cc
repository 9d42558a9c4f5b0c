#include <algorithm>
#include <limits>
#include <optional>

#include "client/boards/board_formats.h"

namespace nqueens::client::formats {

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

absl::Status NotANumber(uint64_t line, absl::string_view token) {
  return LineError(line, "expected a number, found \"", token, "\"");
}

absl::Status NoBoard() { return absl::InvalidArgumentError("the input holds no board"); }

uint64_t CountCells(absl::string_view line) {
  return static_cast<uint64_t>(
      std::count_if(line.begin(), line.end(), [](char c) { return !IsSpace(c); }));
}

}  // namespace nqueens::client::formats
