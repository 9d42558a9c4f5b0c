#include "nqueens/board.h"

namespace nqueens {

absl::StatusOr<Columns> ApplySymmetry(absl::Span<const uint32_t>, uint32_t) {
  return absl::UnimplementedError("symmetries are not implemented yet");
}

}  // namespace nqueens
