#include "server/byte_size.h"

#include <array>
#include <limits>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace nqueens::server {
namespace {

// Suffix letters by power of 1024: "" (bytes), K, M, G, T.
constexpr std::array<char, 5> kSuffixes = {'\0', 'K', 'M', 'G', 'T'};

// The power of 1024 a suffix stands for ("" -> 0, "G" / "Gi" / "GB" -> 3).
std::optional<int> SuffixPower(absl::string_view suffix) {
  if (absl::EndsWithIgnoreCase(suffix, "b")) suffix.remove_suffix(1);
  if (suffix.empty()) return 0;
  if (suffix.size() == 2 && absl::ascii_tolower(suffix[1]) == 'i') suffix.remove_suffix(1);
  if (suffix.size() != 1) return std::nullopt;
  const char letter = absl::ascii_toupper(suffix[0]);
  for (int power = 1; power < static_cast<int>(kSuffixes.size()); ++power) {
    if (kSuffixes[power] == letter) return power;
  }
  return std::nullopt;
}

}  // namespace

std::optional<uint64_t> ParseByteSize(absl::string_view text) {
  text = absl::StripAsciiWhitespace(text);
  size_t digits = 0;
  while (digits < text.size() && absl::ascii_isdigit(text[digits])) ++digits;
  uint64_t value = 0;
  if (digits == 0 || !absl::SimpleAtoi(text.substr(0, digits), &value)) return std::nullopt;
  const std::optional<int> power = SuffixPower(text.substr(digits));
  if (!power.has_value()) return std::nullopt;
  for (int i = 0; i < *power; ++i) {
    if (value > std::numeric_limits<uint64_t>::max() / 1024) return std::nullopt;
    value *= 1024;
  }
  return value;
}

std::string ByteSizeFlagText(uint64_t bytes) {
  int power = 0;
  while (bytes != 0 && bytes % 1024 == 0 && power + 1 < static_cast<int>(kSuffixes.size())) {
    bytes /= 1024;
    ++power;
  }
  if (power == 0) return absl::StrCat(bytes);
  return absl::StrCat(bytes, std::string(1, kSuffixes[power]));
}

std::string HumanBytes(uint64_t bytes) {
  if (bytes < 1024) return absl::StrCat(bytes, " B");
  constexpr std::array<const char*, 4> kUnits = {"KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes) / 1024;
  size_t unit = 0;
  while (value >= 1024 && unit + 1 < kUnits.size()) {
    value /= 1024;
    ++unit;
  }
  return absl::StrFormat("%.1f %s", value, kUnits[unit]);
}

}  // namespace nqueens::server
