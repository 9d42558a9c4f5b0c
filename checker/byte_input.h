// A certificate's bytes as its ByteSource gives them, in chunks: read one at
// a time or in pieces, with their offset; and, for the binary format, the
// tree stream its zlib frames inflate to (docs/reference/certificates.md),
// through an output buffer of a fixed size. Neither holds more than one
// chunk of the source and one buffer: a certificate of any size streams.
#ifndef NQUEENS_CHECKER_BYTE_INPUT_H_
#define NQUEENS_CHECKER_BYTE_INPUT_H_

#include <zlib.h>

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "checker/certificate_check.h"

namespace nqueens::checker {

// How reading a varint (7 bits a byte, low bits first, at most 10 bytes)
// ended.
enum class VarintRead { kOk, kEnd, kTooLong };

// Reads a varint through next_byte (bool(uint8_t*), false at the end).
template <typename NextByte>
VarintRead ReadVarint(NextByte&& next_byte, uint64_t* value) {
  uint64_t result = 0;
  for (int shift = 0;; shift += 7) {
    uint8_t byte;
    if (!next_byte(&byte)) return VarintRead::kEnd;
    // The tenth byte holds bit 63 alone.
    if (shift == 63 && byte > 1) return VarintRead::kTooLong;
    result |= uint64_t{byte & 0x7fu} << shift;
    if (byte < 0x80) {
      *value = result;
      return VarintRead::kOk;
    }
  }
}

class ByteInput {
 public:
  explicit ByteInput(ByteSource source) : source_(std::move(source)) {}

  // The next byte; false at the end of the certificate or on the source's
  // error (status()).
  bool Next(uint8_t* byte) {
    if (at_ == chunk_.size() && !Fill()) return false;
    *byte = static_cast<uint8_t>(chunk_[at_++]);
    return true;
  }
  // The next byte without reading it.
  bool Peek(uint8_t* byte) {
    if (at_ == chunk_.size() && !Fill()) return false;
    *byte = static_cast<uint8_t>(chunk_[at_]);
    return true;
  }
  // The next bytes, at most `max` of them, at least one unless at the end;
  // valid until the next call.
  absl::string_view Take(uint64_t max);
  // The next bytes up to the first `delimiter` (included) or the end of the
  // source's chunk, at least one unless at the end; valid until the next
  // call.
  absl::string_view TakeUntil(char delimiter);
  bool Varint(uint64_t* value, VarintRead* how) {
    *how = ReadVarint([this](uint8_t* byte) { return Next(byte); }, value);
    return *how == VarintRead::kOk;
  }
  // The offset of the next byte: the bytes read so far.
  uint64_t offset() const { return chunk_offset_ + at_; }
  // OK, or the source's error, which ended the input.
  const absl::Status& status() const { return status_; }

 private:
  bool Fill();

  ByteSource source_;
  absl::string_view chunk_;
  size_t at_ = 0;
  uint64_t chunk_offset_ = 0;  // of chunk_
  bool ended_ = false;
  absl::Status status_;
};

// The tree stream of a binary certificate whose header `input` has read:
// the contents of its frames, inflated in turn, up to its end marker.
class TreeStream {
 public:
  explicit TreeStream(ByteInput& input);
  ~TreeStream();
  TreeStream(const TreeStream&) = delete;
  TreeStream& operator=(const TreeStream&) = delete;

  // The next byte of the tree stream; false at its end (after the end
  // marker) or on an error (error()).
  bool Next(uint8_t* byte) {
    if (next_ == end_ && !Refill()) return false;
    *byte = *next_++;
    return true;
  }
  bool Varint(uint64_t* value, VarintRead* how) {
    *how = ReadVarint([this](uint8_t* byte) { return Next(byte); }, value);
    return *how == VarintRead::kOk;
  }
  // The offset in the tree stream of the next byte.
  uint64_t offset() const { return buffer_offset_ + static_cast<uint64_t>(next_ - buffer_.get()); }
  // The offset in the certificate of the frame (its length) that the last
  // byte read came from; kNoFrame before the first.
  static constexpr uint64_t kNoFrame = UINT64_MAX;
  uint64_t frame() const { return buffer_frame_; }
  // The frames begun so far (those of length >= 1).
  uint64_t frames() const { return frames_; }
  // Whether the frame of the last byte read has no byte left, inflating what
  // is left of it if need be; false on an error too (error()). Then the
  // certificate's offset of the next frame is input's offset().
  bool FrameEnded();
  // A framed subtree's frames: from now on Next() gives no byte of the
  // frames after the certificate's first `limit` (kNoLimit: gives them all).
  static constexpr uint64_t kNoLimit = UINT64_MAX;
  void Limit(uint64_t limit) { limit_ = limit; }
  uint64_t limit() const { return limit_; }
  // Whether Next() returned false at the limit: every byte of its frames is
  // read.
  bool AtLimit() const { return next_ == end_ && !in_frame_ && frames_ == limit_; }
  // Why Next() returned false: "" at the end of the tree stream, else what
  // is wrong with the frames (the source's own error is input's status()).
  const std::string& error() const { return error_; }
  // After the tree's last node: "" when the tree stream ends there and
  // nothing follows the end marker, else what is wrong.
  std::string Finish();

 private:
  bool Refill();
  // Inflates what is left of the frame into the buffer, after the bytes read;
  // false when nothing is (its end or an error).
  bool FillFromFrame();
  // Reads the next frame's length; false at the end marker or an error.
  bool StartFrame();
  // Inflates what the frame has left into the buffer; false on an error.
  bool Inflate(uint64_t* produced);
  bool Fail(std::string error);

  static constexpr size_t kBufferBytes = size_t{64} << 10;

  ByteInput& input_;
  z_stream zlib_{};
  bool zlib_ready_ = false;
  std::unique_ptr<uint8_t[]> buffer_;
  const uint8_t* next_;
  const uint8_t* end_;
  uint64_t buffer_offset_ = 0;  // the tree stream's offset of buffer_[0]
  uint64_t buffer_frame_ = kNoFrame;
  bool in_frame_ = false, ended_ = false;
  uint64_t frame_start_ = 0, frame_length_ = 0;
  uint64_t frame_left_ = 0;  // compressed bytes not given to zlib yet
  uint64_t frames_ = 0, limit_ = kNoLimit;
  std::string error_;
};

}  // namespace nqueens::checker

#endif  // NQUEENS_CHECKER_BYTE_INPUT_H_
