#include "server/base/byte_size.h"

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
  while (digits < text.size() && (absl::ascii_isdigit(text[digits]) || text[digits] == '.')) {
    ++digits;
  }
  // "1.5G": a fraction of the unit, rounded down to whole bytes.
  const absl::string_view number = text.substr(0, digits);
  const size_t point = number.find('.');
  const absl::string_view whole = number.substr(0, point);
  const absl::string_view fraction =
      point == absl::string_view::npos ? "" : number.substr(point + 1);
  uint64_t value = 0;
  if (whole.empty() || !absl::SimpleAtoi(whole, &value)) return std::nullopt;
  if (point != absl::string_view::npos &&
      (fraction.empty() || fraction.size() > 6 || fraction.find('.') != absl::string_view::npos)) {
    return std::nullopt;
  }
  const std::optional<int> power = SuffixPower(text.substr(digits));
  if (!power.has_value() || (*power == 0 && !fraction.empty())) return std::nullopt;
  uint64_t numerator = 0;  // the fraction's digits, over 10^fraction.size()
  uint64_t denominator = 1;
  for (const char digit : fraction) {
    numerator = numerator * 10 + static_cast<uint64_t>(digit - '0');
    denominator *= 10;
  }
  for (int i = 0; i < *power; ++i) {
    if (value > std::numeric_limits<uint64_t>::max() / 1024) return std::nullopt;
    value *= 1024;
    numerator *= 1024;  // below 10^6 * 1024^4 < 2^64
  }
  const uint64_t part = numerator / denominator;
  if (value > std::numeric_limits<uint64_t>::max() - part) return std::nullopt;
  return value + part;
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
