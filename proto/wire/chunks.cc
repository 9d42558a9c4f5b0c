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

ChunkAssembler::ChunkAssembler(uint64_t n, Columns storage) : n_(n), columns_(std::move(storage)) {
  columns_.clear();
}

absl::Status ChunkAssembler::Add(const nqueens::v1::BoardChunk& chunk) {
  const uint64_t size = static_cast<uint64_t>(chunk.columns_size());
  if (absl::Status next = CheckNext(chunk.offset(), size); !next.ok()) return next;
  for (uint64_t i = 0; i < size; ++i) {
    const uint32_t column = chunk.columns(static_cast<int>(i));
    if (column > n_) return ColumnAboveN(next_offset_ + i + 1, column);
  }
  GrowFor(size);
  columns_.insert(columns_.end(), chunk.columns().begin(), chunk.columns().end());
  next_offset_ += size;
  return absl::OkStatus();
}

absl::Status ChunkAssembler::Add(const SerializedChunk& chunk) {
  const uint64_t size = chunk.size();
  if (absl::Status next = CheckNext(chunk.offset(), size); !next.ok()) return next;
  GrowFor(size);
  const size_t start = columns_.size();
  columns_.resize(start + size);
  uint64_t bad = 0;
  // Every uint32_t fits a board of UINT32_MAX columns or more.
  const SerializedChunk::Decoded decoded = chunk.Decode(
      columns_.data() + start, static_cast<uint32_t>(std::min<uint64_t>(n_, UINT32_MAX)), &bad);
  if (decoded != SerializedChunk::Decoded::kOk) {
    const uint32_t column = columns_[start + bad];
    columns_.resize(start);
    if (decoded == SerializedChunk::Decoded::kAboveMax) {
      return ColumnAboveN(next_offset_ + bad + 1, column);
    }
    return absl::InvalidArgumentError(absl::StrCat("chunk at offset ", next_offset_, ": value ",
                                                   bad + 1, " is not a valid varint"));
  }
  next_offset_ += size;
  return absl::OkStatus();
}

absl::Status ChunkAssembler::CheckNext(uint64_t offset, uint64_t size) const {
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
  return absl::OkStatus();
}

absl::Status ChunkAssembler::ColumnAboveN(uint64_t row, uint32_t column) const {
  return absl::InvalidArgumentError(absl::StrCat("row ", row, " has column ", column,
                                                 ", but the board has only ", n_, " columns"));
}

// Grows with the data actually received, not with the n the header claims:
// by doubling, never past n.
void ChunkAssembler::GrowFor(uint64_t rows) {
  const uint64_t needed = columns_.size() + rows;
  if (needed <= columns_.capacity()) return;
  Regrow(std::min<uint64_t>(n_, std::max<uint64_t>(needed, 2 * columns_.capacity())));
}

void ChunkAssembler::ReserveAllRows() {
  if (columns_.capacity() < n_) Regrow(n_);
}

// Room for `capacity` rows, untouched until rows arrive, advised to use huge
// pages as the core's boards are (nqueens/board.h), so that the finished
// board is n rows exactly, in pages a stopped call frees quickly.
void ChunkAssembler::Regrow(uint64_t capacity) {
  Columns grown = ReserveBoard(capacity);
  grown.assign(columns_.begin(), columns_.end());
  columns_ = std::move(grown);
}

absl::StatusOr<Columns> ChunkAssembler::Finish() && {
  if (next_offset_ != n_) {
    return absl::InvalidArgumentError(absl::StrCat("the board ended after row ", next_offset_,
                                                   " of n = ", n_, "; rows ", next_offset_ + 1,
                                                   "..", n_, " are missing"));
  }
  return std::move(columns_);
}

}  // namespace nqueens::wire
