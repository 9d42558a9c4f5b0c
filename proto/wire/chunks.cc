#include "wire/chunks.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace nqueens::wire {

uint32_t EffectiveChunkSize(uint32_t requested) {
  return requested == 0 ? kMaxChunkSize : std::min(requested, kMaxChunkSize);
}

bool ForEachChunk(absl::Span<const uint32_t> columns, uint32_t chunk_size,
                  const std::function<bool(const nqueens::v1::BoardChunk&)>& emit) {
  const size_t size = EffectiveChunkSize(chunk_size);
  nqueens::v1::BoardChunk chunk;
  for (size_t offset = 0; offset < columns.size(); offset += size) {
    const absl::Span<const uint32_t> part = columns.subspan(offset, size);
    chunk.set_offset(offset);
    chunk.mutable_columns()->Assign(part.begin(), part.end());
    if (!emit(chunk)) return false;
  }
  return true;
}

ChunkAssembler::ChunkAssembler(uint64_t n) : n_(n) {}

absl::Status ChunkAssembler::Add(const nqueens::v1::BoardChunk& chunk) {
  const uint64_t offset = chunk.offset();
  const uint64_t size = static_cast<uint64_t>(chunk.columns_size());
  if (offset != next_offset_) {
    return absl::InvalidArgumentError(
        absl::StrCat("chunk at offset ", offset, ": expected offset ", next_offset_,
                     " (chunks must be in row order without gaps or overlaps)"));
  }
  if (size > kMaxChunkSize) {
    return absl::InvalidArgumentError(absl::StrCat("chunk at offset ", offset, " holds ", size,
                                                   " values; at most ", kMaxChunkSize,
                                                   " are allowed"));
  }
  if (size > n_ - offset) {
    return absl::InvalidArgumentError(
        absl::StrCat("chunk at offset ", offset, " with ", size, " values runs past row n = ", n_));
  }
  for (uint64_t i = 0; i < size; ++i) {
    if (chunk.columns(static_cast<int>(i)) > n_) {
      return absl::InvalidArgumentError(absl::StrCat("row ", offset + i + 1, " has column ",
                                                     chunk.columns(static_cast<int>(i)),
                                                     ", but the board has only ", n_, " columns"));
    }
  }
  GrowFor(size);
  columns_.insert(columns_.end(), chunk.columns().begin(), chunk.columns().end());
  next_offset_ += size;
  return absl::OkStatus();
}

// Grows with the data actually received, not with the n the header claims:
// by doubling, never past n, on the core's board allocation (nqueens/board.h)
// so that the finished board is n rows exactly, in pages a stopped call
// frees quickly.
void ChunkAssembler::GrowFor(uint64_t rows) {
  const uint64_t needed = columns_.size() + rows;
  if (needed <= columns_.capacity()) return;
  const uint64_t capacity =
      std::min<uint64_t>(n_, std::max<uint64_t>(needed, 2 * columns_.capacity()));
  Columns grown = MakeEmptyBoard(capacity);
  grown.assign(columns_.begin(), columns_.end());
  columns_ = std::move(grown);
}

void ChunkAssembler::ReserveAllRows() { GrowFor(n_ - columns_.size()); }

absl::StatusOr<Columns> ChunkAssembler::Finish() && {
  if (next_offset_ != n_) {
    return absl::InvalidArgumentError(absl::StrCat("the board ended after row ", next_offset_,
                                                   " of n = ", n_, "; rows ", next_offset_ + 1,
                                                   "..", n_, " are missing"));
  }
  return std::move(columns_);
}

}  // namespace nqueens::wire
