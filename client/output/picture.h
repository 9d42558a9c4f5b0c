// --picture FILE.svg: the board as an SVG image. Given queens (the input of
// complete) and placed ones have different colours; for validate, queens in
// the report's conflicts are red and each conflicting pair is joined by a
// line. Boards of up to kMaxPictureSize rows; readable up to about 1,000.
#ifndef NQUEENS_CLIENT_OUTPUT_PICTURE_H_
#define NQUEENS_CLIENT_OUTPUT_PICTURE_H_

#include <cstdint>
#include <string>

#include "absl/types/span.h"
#include "nqueens/validate.h"

namespace nqueens::client {

// Above this a picture would be large and unreadable anyway.
inline constexpr uint64_t kMaxPictureSize = 10'000;

// `columns` (0: an empty row) drawn on its n x n board. `given`, empty or of
// the same size, holds the queens that were given (drawn darker); `conflicts`
// the pairs to mark.
std::string BoardSvg(absl::Span<const uint32_t> columns, absl::Span<const uint32_t> given,
                     absl::Span<const Conflict> conflicts);

}  // namespace nqueens::client

#endif  // NQUEENS_CLIENT_OUTPUT_PICTURE_H_
