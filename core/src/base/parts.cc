#include "nqueens/parts.h"

#include "absl/strings/str_cat.h"

namespace nqueens {

absl::Status CheckPartSelector(const PartSelector& part) {
  if (part.count < 1 || part.count > kMaxPartCount) {
    return absl::InvalidArgumentError(
        absl::StrCat("part_count must be 1 .. ", kMaxPartCount, ", not ", part.count));
  }
  if (part.index >= part.count) {
    return absl::InvalidArgumentError(
        absl::StrCat("part_index must be below part_count (", part.count, "), not ", part.index));
  }
  return absl::OkStatus();
}

}  // namespace nqueens
