// The binary format: the array Q as 32-bit little-endian integers.
#include <utility>

#include "absl/base/config.h"
#include "client/boards/board_formats.h"

namespace nqueens::client {
namespace {

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

}  // namespace

absl::StatusOr<Board> ParseBinaryBoard(Columns values, uint64_t size) {
  if (size == 0) return formats::NoBoard();
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

namespace formats {

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

}  // namespace formats
}  // namespace nqueens::client
