// Reading a board from a request stream (CompleteStream, ValidateStream):
// one header first, then the board in chunks unless the header carried it
// sparse. Templates because both streams share the header/chunk oneof shape
// but not a type.
#ifndef NQUEENS_SERVER_REQUEST_STREAM_H_
#define NQUEENS_SERVER_REQUEST_STREAM_H_

#include <cstdint>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "convert.h"
#include "nqueens/board.h"
#include "wire/chunks.h"

namespace nqueens::server {

// The stream's first message, which must carry the header.
template <typename Request, typename Reader>
absl::StatusOr<Request> ReadHeaderMessage(Reader* reader) {
  Request message;
  if (!reader->Read(&message) || !message.has_header()) {
    return absl::InvalidArgumentError("the first message must be a header");
  }
  return message;
}

// The rest of the stream: the board of n rows (n already checked). With
// sparse queens in the header no chunks may follow; with neither queens nor
// chunks the board is empty.
template <typename Request, typename Reader>
absl::StatusOr<Columns> ReadBoardAfterHeader(Reader* reader, uint64_t n,
                                             const ProtoQueens& header_queens) {
  wire::ChunkAssembler assembler(n);
  Request message;
  while (reader->Read(&message)) {
    if (message.has_header()) {
      return absl::InvalidArgumentError(
          "a second header; a stream carries one header, then chunks");
    }
    if (!message.has_chunk()) {
      return absl::InvalidArgumentError("a message carries neither a header nor a chunk");
    }
    if (!header_queens.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("chunk at offset ", message.chunk().offset(),
                       ": the header carried sparse queens, so no chunks may follow"));
    }
    // The call has reserved memory for n rows (see memory_budget.h), and
    // this first chunk shows that they come dense.
    if (!assembler.received_any()) assembler.ReserveAllRows();
    if (absl::Status added = assembler.Add(message.chunk()); !added.ok()) return added;
  }
  if (!header_queens.empty()) return BoardFromQueens(n, header_queens);
  if (!assembler.received_any()) return Columns(n, kEmptyRow);
  return std::move(assembler).Finish();
}

}  // namespace nqueens::server

#endif  // NQUEENS_SERVER_REQUEST_STREAM_H_
