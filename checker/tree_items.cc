#include "checker/tree_items.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace nqueens::checker {

std::string Path::Text() const {
  if (queens_.empty()) return "; at the root";
  constexpr size_t kEnds = 6;
  std::string text = "; path";
  for (size_t i = 0; i < queens_.size(); ++i) {
    if (queens_.size() > 2 * kEnds && i == kEnds) {
      absl::StrAppend(&text, " ... ", queens_.size() - 2 * kEnds, " more ...");
      i = queens_.size() - kEnds;
    }
    absl::StrAppend(&text, " (", queens_[i] >> 32, ", ", queens_[i] & 0xffffffffu, ")");
  }
  return text;
}

std::vector<uint64_t> Path::Sorted() const {
  std::vector<uint64_t> queens = queens_;
  std::sort(queens.begin(), queens.end());
  return queens;
}

}  // namespace nqueens::checker
