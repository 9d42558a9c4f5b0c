// The messages of the streaming methods, one at a time, for the reactors
// that move them: a request stream (a header, then the board in chunks unless
// the header carried it sparse) read into a board, and a result (a header,
// then the board in chunks) cut into response messages. Templates because
// the streams share the header/chunk shape but not a type.
#ifndef NQUEENS_SERVER_STREAM_IO_H_
#define NQUEENS_SERVER_STREAM_IO_H_

#include <grpcpp/grpcpp.h>
#include <grpcpp/impl/codegen/proto_utils.h>

#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "nqueens/board.h"
#include "nqueens/solver.h"
#include "server/call.h"
#include "server/memory_estimate.h"
#include "server/parsed_size.h"
#include "wire/chunk_message.h"
#include "wire/chunks.h"
#include "wire/convert.h"

namespace nqueens::server {

// Parses `bytes` as a `Message`: INVALID_ARGUMENT naming `what` otherwise.
template <typename Message>
absl::Status ParseMessage(grpc::ByteBuffer& bytes, const std::string& what, Message* message) {
  if (grpc::SerializationTraits<Message>::Deserialize(&bytes, message).ok()) {
    return absl::OkStatus();
  }
  return absl::InvalidArgumentError(absl::StrCat(what, " could not be parsed as a ",
                                                 Message::descriptor()->full_name(), " message"));
}

// What a request message holds in memory while it is parsed and after: its
// bytes as received and what parsing them makes (see parsed_size.h), to be
// reserved before it is parsed. INVALID_ARGUMENT, naming `what`, for bytes
// the parser would refuse.
template <typename Message>
absl::StatusOr<uint64_t> ParsingBytes(const grpc::ByteBuffer& bytes, const std::string& what) {
  absl::StatusOr<uint64_t> parsed = ParsedBytesBound(bytes, *Message::descriptor(), what);
  if (!parsed.ok()) return parsed.status();
  return bytes.Length() + *parsed;
}

template <typename Message>
grpc::ByteBuffer SerializeMessage(const Message& message) {
  grpc::ByteBuffer bytes;
  bool own_buffer = false;
  grpc::SerializationTraits<Message>::Serialize(message, &bytes, &own_buffer);
  return bytes;
}

// Reads one request stream. Memory: until the whole board is in, the call
// holds only what the stream has brought (the header's queens, the rows
// received: the board's n rows are reserved at the header, but only in
// address space, its pages touched as rows arrive) and the message being
// parsed; then its full estimated peak (see memory_estimate.h) before any
// work starts.
template <typename Request>
class RequestStreamReader {
 public:
  using Header = std::decay_t<decltype(std::declval<Request>().header())>;

  RequestStreamReader(Call& call, Work work) : call_(call), work_(work) {}

  // The next message: OK to read on, or the error that ends the call.
  absl::Status Add(grpc::ByteBuffer& bytes) {
    ++messages_;
    progressed_ = false;
    if (header_.has_value() && header_->queens().empty()) {
      if (std::optional<wire::SerializedChunk> chunk = wire::SerializedChunk::Find(bytes)) {
        return AddSerializedChunk(*chunk, bytes.Length());
      }
    }
    const std::string what = absl::StrCat("message ", messages_, " of the stream");
    // Held apart while the message lives: what it brings is counted in
    // HeldBytes() once it is taken apart.
    absl::StatusOr<uint64_t> parsing = ParsingBytes<Request>(bytes, what);
    if (!parsing.ok()) return parsing.status();
    absl::StatusOr<MemoryBudget::Reservation> memory = call_.ReserveApart(*parsing, HeldBytes());
    if (!memory.ok()) return memory.status();
    Request message;
    if (absl::Status parsed = ParseMessage(bytes, what, &message); !parsed.ok()) return parsed;
    if (!header_.has_value()) return AddHeader(message);
    if (message.has_header()) {
      return absl::InvalidArgumentError(
          "a second header; a stream carries one header, then chunks");
    }
    if (!message.has_chunk()) {
      return absl::InvalidArgumentError("a message carries neither a header nor a chunk");
    }
    return AddChunk(message.chunk());
  }

  // Whether the last message moved the stream on (a header, or a chunk with
  // rows): empty chunks do not keep a stream alive.
  bool progressed() const { return progressed_; }

  // The client has sent its last message: the board, with the call's full
  // memory reserved.
  absl::StatusOr<Columns> Finish() {
    if (!header_.has_value())
      return absl::InvalidArgumentError("the first message must be a header");
    if (absl::Status memory = call_.ReserveMemory(PeakBytes()); !memory.ok()) return memory;
    const uint64_t n = header_->n();
    if (!header_->queens().empty()) return wire::BoardFromQueens(n, header_->queens());
    if (!assembler_->received_any()) return MakeEmptyBoard(n);
    return std::move(*assembler_).Finish();
  }

  const Header& header() const { return *header_; }

 private:
  absl::Status AddHeader(Request& message) {
    if (!message.has_header())
      return absl::InvalidArgumentError("the first message must be a header");
    const uint64_t n = message.header().n();
    if (absl::Status size = call_.CheckSize(n); !size.ok()) return size;
    header_ = std::move(*message.mutable_header());
    progressed_ = true;
    if (absl::Status fits = call_.CheckFits(PeakBytes()); !fits.ok()) return fits;
    assembler_.emplace(n);
    // One allocation, no copies as the board grows; n passed CheckFits.
    if (header_->queens().empty()) assembler_->ReserveAllRows();
    return call_.ReserveMemory(HeaderBytes());
  }

  absl::Status AddChunk(const v1::BoardChunk& chunk) {
    if (!header_->queens().empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("chunk at offset ", chunk.offset(),
                       ": the header carried sparse queens, so no chunks may follow"));
    }
    rows_ += static_cast<uint64_t>(chunk.columns_size());
    if (absl::Status memory = call_.ReserveMemory(HeldBytes()); !memory.ok()) return memory;
    if (absl::Status added = assembler_->Add(chunk); !added.ok()) return added;
    progressed_ = chunk.columns_size() > 0;
    return absl::OkStatus();
  }

  // A chunk decoded where it lies, into the board: the message is held
  // apart only as the bytes received.
  absl::Status AddSerializedChunk(const wire::SerializedChunk& chunk, uint64_t message_bytes) {
    absl::StatusOr<MemoryBudget::Reservation> memory =
        call_.ReserveApart(message_bytes, HeldBytes());
    if (!memory.ok()) return memory.status();
    rows_ += chunk.size();
    if (absl::Status held = call_.ReserveMemory(HeldBytes()); !held.ok()) return held;
    if (absl::Status added = assembler_->Add(chunk); !added.ok()) return added;
    progressed_ = chunk.size() > 0;
    return absl::OkStatus();
  }

  // What the stream has brought so far: the header, and the rows received.
  uint64_t HeldBytes() const {
    return header_.has_value() ? HeaderBytes() + sizeof(uint32_t) * rows_ : 0;
  }
  uint64_t HeaderBytes() const {
    // The chunks' board is the work's own input, counted there.
    return PeakCallBytes(work_, 0, RequestBoard{0, static_cast<uint64_t>(header_->queens_size())},
                         ResponseBoard::kNoneOrChunked);
  }
  uint64_t PeakBytes() const {
    return PeakCallBytes(work_, header_->n(),
                         RequestBoard{0, static_cast<uint64_t>(header_->queens_size())},
                         ResponseBoard::kNoneOrChunked);
  }

  Call& call_;
  const Work work_;
  uint64_t messages_ = 0;
  uint64_t rows_ = 0;
  bool progressed_ = false;
  std::optional<Header> header_;
  std::optional<wire::ChunkAssembler> assembler_;
};

// Everything of a completion result but the board (which a stream sends
// apart), for a response or a stream's result header.
template <typename Message>
void SetResultHeader(uint64_t n, const CompletionResult& result,
                     const std::vector<std::string>& lowered_limits, Message* message) {
  message->set_n(n);
  message->set_outcome(wire::OutcomeToProto(result.outcome));
  *message->mutable_stats() = wire::StatsToProto(result.stats);
  for (const std::string& limit : lowered_limits)
    message->mutable_stats()->add_lowered_limits(limit);
  // Solve's answers carry no certificate.
  if constexpr (!std::is_same_v<Message, v1::SolveResponse>) {
    if (result.certificate.has_value()) message->set_certificate(*result.certificate);
    message->set_certificate_missing(result.certificate_missing);
  }
}

// A result as response messages: the header, then the board in chunks (none
// unless solved).
template <typename Response>
class ResultStreamWriter {
 public:
  ResultStreamWriter(uint64_t n, CompletionResult result, uint32_t chunk_size,
                     const std::vector<std::string>& lowered_limits)
      : n_(n),
        result_(std::move(result)),
        chunk_size_(wire::EffectiveChunkSize(chunk_size)),
        lowered_limits_(lowered_limits) {}

  // The next message, serialized; nullopt after the last.
  std::optional<grpc::ByteBuffer> Next() {
    if (!header_sent_) {
      header_sent_ = true;
      Response message;
      SetResultHeader(n_, result_, lowered_limits_, message.mutable_header());
      return SerializeMessage(message);
    }
    if (offset_ >= result_.columns.size()) return std::nullopt;
    const absl::Span<const uint32_t> part =
        absl::MakeConstSpan(result_.columns).subspan(offset_, chunk_size_);
    grpc::ByteBuffer chunk = wire::SerializeChunkMessage(offset_, part);
    offset_ += part.size();
    return chunk;
  }

 private:
  const uint64_t n_;
  const CompletionResult result_;
  const uint32_t chunk_size_;
  const std::vector<std::string> lowered_limits_;
  bool header_sent_ = false;
  size_t offset_ = 0;
};

}  // namespace nqueens::server

#endif  // NQUEENS_SERVER_STREAM_IO_H_
