// The messages of the streaming methods, one at a time, for the reactors
// that move them: a request stream (a header, then the board in chunks unless
// the header carried it sparse) read into a board, and a result (a header,
// then the board in chunks) cut into response messages. Templates because
// the streams share the header/chunk shape but not a type. Each message
// goes through the codec of message_codec.h.
#ifndef NQUEENS_SERVER_RPC_STREAM_IO_H_
#define NQUEENS_SERVER_RPC_STREAM_IO_H_

#include <grpcpp/grpcpp.h>

#include <algorithm>
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
#include "server/base/pages_ahead.h"
#include "server/limits/memory_estimate.h"
#include "server/rpc/call.h"
#include "server/rpc/message_codec.h"
#include "wire/certificate_chunks.h"
#include "wire/chunk_message.h"
#include "wire/chunks.h"
#include "wire/convert.h"

namespace nqueens::server {

// A board of this many bytes or more has its pages faulted in ahead of the
// rows (base/pages_ahead.h), at most kPagesAheadWindow bytes past them: 16 huge
// pages, 128 chunks of the most rows (docs/constants.md, PagesAhead).
inline constexpr uint64_t kPagesAheadFrom = uint64_t{64} << 20;
inline constexpr uint64_t kPagesAheadWindow = uint64_t{32} << 20;

// A completion's board of this many rows or more has its given queens
// placed as its rows arrive (IncomingComposition), while the client still
// sends: at 10^8 rows that placement takes 0.3-0.8 s once the board is in.
// Below, it takes a few milliseconds at most.
inline constexpr uint64_t kPlaceWhileReadingFrom = uint64_t{1} << 20;

// Reads one request stream. Memory: until the whole board is in, the call
// holds only what the stream has brought (the header's queens, the rows
// received: the board's n rows are reserved at the header, but only in
// address space, its pages touched as rows arrive, or a window ahead of
// them on a large board) and the message being parsed; then its full
// estimated peak (see limits/memory_estimate.h) before any work starts.
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
  // memory reserved. A completion's large board comes with its queens
  // placed as it arrived (TakeIncoming).
  absl::StatusOr<Columns> Finish() {
    pages_ahead_.reset();
    if (!header_.has_value())
      return absl::InvalidArgumentError("the first message must be a header");
    if (absl::Status memory = call_.ReserveMemory(PeakBytes()); !memory.ok()) return memory;
    const uint64_t n = header_->n();
    if (!header_->queens().empty()) return wire::BoardFromQueens(n, header_->queens());
    if (!assembler_->received_any()) return MakeEmptyBoard(n);
    return std::move(*assembler_).Finish();
  }

  const Header& header() const { return *header_; }
  std::optional<IncomingComposition> TakeIncoming() { return std::exchange(incoming_, {}); }

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
    if (header_->queens().empty()) {
      // One allocation, no copies as the board grows; n passed CheckFits.
      assembler_->ReserveAllRows();
      if (BoardBytes() >= kPagesAheadFrom) ahead_ = kPagesAheadWindow;
      // CheckSize() bounds n by kMaxBoardSize, which fits in uint32_t.
      if (work_.kind == Work::Kind::kCompletion && n >= kPlaceWhileReadingFrom) {
        incoming_.emplace(static_cast<uint32_t>(n));
      }
    }
    if (absl::Status memory = call_.ReserveMemory(HeldBytes()); !memory.ok()) return memory;
    if (ahead_ > 0) pages_ahead_.emplace(assembler_->data(), BoardBytes(), ahead_);
    return absl::OkStatus();
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
    RowsReached();
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
    RowsReached();
    progressed_ = chunk.size() > 0;
    return absl::OkStatus();
  }

  void RowsReached() {
    if (pages_ahead_.has_value()) pages_ahead_->Reached(sizeof(uint32_t) * rows_);
    // Chunks come in order, so the rows received are the first rows_.
    if (incoming_.has_value()) incoming_->Place(assembler_->data(), static_cast<uint32_t>(rows_));
  }

  // What the stream has brought so far: the header, the rows received with
  // the window of pages ahead of them, and the placed queens' control bits.
  uint64_t HeldBytes() const {
    if (!header_.has_value()) return 0;
    const uint64_t placing = incoming_.has_value() ? IncomingComposition::Bytes(header_->n()) : 0;
    return HeaderBytes() + std::min(BoardBytes(), sizeof(uint32_t) * rows_ + ahead_) + placing;
  }
  uint64_t BoardBytes() const { return sizeof(uint32_t) * header_->n(); }
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
  uint64_t ahead_ = 0;  // the window of pages ahead, when there is one
  // After the assembler, whose memory it touches: destroyed before it.
  std::optional<PagesAhead> pages_ahead_;
  std::optional<IncomingComposition> incoming_;
};

// Everything of a completion result but the board (which a stream sends
// apart), for a response or a stream's result header; the certificate's
// bytes too unless they follow in chunks (`certificate_follows`).
template <typename Message>
void SetResultHeader(uint64_t n, const CompletionResult& result, Message* message,
                     bool certificate_follows = false) {
  message->set_n(n);
  message->set_outcome(wire::OutcomeToProto(result.outcome));
  *message->mutable_stats() = wire::StatsToProto(result.stats);
  // Solve's answers carry no certificate.
  if constexpr (!std::is_same_v<Message, v1::SolveResponse>) {
    if (result.certificate.has_value() && !certificate_follows) {
      message->set_certificate(*result.certificate);
    }
    message->set_certificate_missing(result.certificate_missing);
  }
  if constexpr (std::is_same_v<Message, v1::ResultHeader>) {
    message->set_certificate_size(result.certificate.has_value() ? result.certificate->size() : 0);
  }
}

// A result as response messages: the header, then the board in chunks (none
// unless solved), or with `chunk_certificate` a certificate longer than one
// chunk in CertificateChunks (CompleteStreamResponse only).
template <typename Response>
class ResultStreamWriter {
 public:
  ResultStreamWriter(uint64_t n, CompletionResult result, uint32_t chunk_size,
                     bool chunk_certificate)
      : n_(n),
        result_(std::move(result)),
        chunk_size_(wire::EffectiveChunkSize(chunk_size)),
        certificate_chunk_bytes_(wire::CertificateChunkBytes(chunk_size)),
        certificate_in_chunks_(chunk_certificate && result_.certificate.has_value() &&
                               result_.certificate->size() > certificate_chunk_bytes_) {}

  // The next message, serialized; nullopt after the last.
  std::optional<grpc::ByteBuffer> Next() {
    if (!header_sent_) {
      header_sent_ = true;
      Response message;
      SetResultHeader(n_, result_, message.mutable_header(), certificate_in_chunks_);
      return SerializeMessage(message);
    }
    if (certificate_in_chunks_) return NextCertificateChunk();
    if (offset_ >= result_.columns.size()) return std::nullopt;
    const absl::Span<const uint32_t> part =
        absl::MakeConstSpan(result_.columns).subspan(offset_, chunk_size_);
    grpc::ByteBuffer chunk = wire::SerializeChunkMessage(offset_, part);
    offset_ += part.size();
    return chunk;
  }

 private:
  std::optional<grpc::ByteBuffer> NextCertificateChunk() {
    if constexpr (std::is_same_v<Response, v1::CompleteStreamResponse>) {
      const std::string& certificate = *result_.certificate;
      if (offset_ >= certificate.size()) return std::nullopt;
      const size_t size = std::min<size_t>(certificate_chunk_bytes_, certificate.size() - offset_);
      Response message;
      message.mutable_certificate()->set_offset(offset_);
      message.mutable_certificate()->set_data(certificate.data() + offset_, size);
      offset_ += size;
      return SerializeMessage(message);
    } else {
      return std::nullopt;  // Solve's results carry no certificate
    }
  }

  const uint64_t n_;
  const CompletionResult result_;
  const uint32_t chunk_size_;
  const uint64_t certificate_chunk_bytes_;
  const bool certificate_in_chunks_;
  bool header_sent_ = false;
  size_t offset_ = 0;  // of the board, or of the certificate in chunks
};

}  // namespace nqueens::server

#endif  // NQUEENS_SERVER_RPC_STREAM_IO_H_
