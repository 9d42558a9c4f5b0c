// The sizes the server and the client agree on, in one place: how large a
// message may be, how a board is cut into chunks, and when the client
// switches to the streaming RPCs or sends a board sparse.
#ifndef NQUEENS_WIRE_LIMITS_H_
#define NQUEENS_WIRE_LIMITS_H_

#include <cstdint>

namespace nqueens::wire {

// The largest message the server receives (and the client accepts). A column
// takes at most 4 bytes on the wire for n < 2^28, so 64 MiB holds unary
// boards of 10^7 rows; larger ones go through the streams. The server lowers
// it to a quarter of its memory budget.
inline constexpr uint64_t kMaxMessageBytes = uint64_t{64} << 20;

// The longest UNSOLVABLE certificate a response carries: one message, with
// room for the rest of it. A longer one is dropped (certificate_missing).
inline constexpr uint64_t kMaxCertificateBytes = uint64_t{48} << 20;

// What a gRPC client receives in one message unless configured otherwise.
// The server refuses a unary call whose answer would not fit it, unless the
// client says how much it takes in the request header kMaxResponseBytesKey.
inline constexpr uint64_t kDefaultClientReceiveBytes = uint64_t{4} << 20;
inline constexpr char kMaxResponseBytesKey[] = "nqueens-max-response-bytes";
// A SolveResponse or CompleteResponse without its columns: outcome, stats
// (lowered limits, block times) and framing, with room to spare.
inline constexpr uint64_t kResponseOverheadBytes = 4096;

// Values in one BoardChunk.
inline constexpr uint32_t kMaxChunkSize = 65536;

// Boards of more rows go through the streaming RPCs (client).
inline constexpr uint64_t kStreamingThreshold = 65536;

// The queens of a sparse board travel in one message (a stream's header),
// which must stay well below kMaxMessageBytes: a queen takes at most 14 bytes
// there.
inline constexpr uint64_t kMaxSparseQueens = uint64_t{1} << 20;

}  // namespace nqueens::wire

#endif  // NQUEENS_WIRE_LIMITS_H_
