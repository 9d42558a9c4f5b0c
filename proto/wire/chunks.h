// Moving a board through the streaming RPCs: splitting it into BoardChunks
// and reassembling it with the ordering rules of the API (chunks in row
// order, no gaps, no overlaps, at most kMaxChunkSize values each).
#ifndef NQUEENS_WIRE_CHUNKS_H_
#define NQUEENS_WIRE_CHUNKS_H_

#include <cstdint>
#include <functional>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "nqueens/board.h"
#include "nqueens/v1/nqueens.pb.h"
#include "wire/chunk_message.h"
#include "wire/limits.h"

namespace nqueens::wire {

// 0 means kMaxChunkSize; larger values are clamped to it.
uint32_t EffectiveChunkSize(uint32_t requested);

// Calls `emit` for consecutive chunks covering `columns`; stops at the first
// false return (the peer went away) and returns false then.
bool ForEachChunk(absl::Span<const uint32_t> columns, uint32_t chunk_size,
                  const std::function<bool(const nqueens::v1::BoardChunk&)>& emit);

// Rebuilds a dense board of n rows from chunks.
class ChunkAssembler {
 public:
  explicit ChunkAssembler(uint64_t n);
  // The same, building the board in `storage`'s memory (its values are
  // dropped): a caller done with a board of n rows, such as the request whose
  // answer this is, saves the cost of fresh pages.
  ChunkAssembler(uint64_t n, Columns storage);
  // INVALID_ARGUMENT when the chunk does not start where the previous one
  // ended (naming both offsets), is larger than kMaxChunkSize, runs past row
  // n, or holds a column above n (naming the row).
  absl::Status Add(const nqueens::v1::BoardChunk& chunk);
  // The same for a chunk still serialized, decoded straight into the board;
  // INVALID_ARGUMENT too for a value protobuf would not parse.
  absl::Status Add(const SerializedChunk& chunk);
  bool received_any() const { return next_offset_ > 0; }
  // The rows received so far.
  uint64_t rows() const { return next_offset_; }
  // Reserves room for all n rows now, in address space only: pages are
  // touched as rows arrive, as 2 MiB pages where the kernel allows it (see
  // MakeEmptyBoard). Otherwise the board grows by doubling with the rows
  // received (so that a header claiming a huge n costs nothing by itself).
  // For callers that have budgeted memory for n rows: one allocation, no
  // regrowth copies.
  void ReserveAllRows();
  // The board's memory: the room ReserveAllRows made, for instance.
  const uint32_t* data() const { return columns_.data(); }
  // INVALID_ARGUMENT unless chunks covered all n rows.
  absl::StatusOr<Columns> Finish() &&;

 private:
  absl::Status CheckNext(uint64_t offset, uint64_t size) const;
  absl::Status ColumnAboveN(uint64_t row, uint32_t column) const;
  void GrowFor(uint64_t rows);
  void Regrow(uint64_t capacity);

  uint64_t n_;
  uint64_t next_offset_ = 0;
  Columns columns_;
};

}  // namespace nqueens::wire

#endif  // NQUEENS_WIRE_CHUNKS_H_
