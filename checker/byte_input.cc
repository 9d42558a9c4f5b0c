#include "checker/byte_input.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"

namespace nqueens::checker {

bool ByteInput::Fill() {
  if (ended_) return false;
  absl::StatusOr<absl::string_view> next = source_();
  if (!next.ok()) {
    status_ = next.status();
    ended_ = true;
    return false;
  }
  if (next->empty()) {
    ended_ = true;
    return false;
  }
  chunk_offset_ += chunk_.size();
  chunk_ = *next;
  at_ = 0;
  return true;
}

absl::string_view ByteInput::Take(uint64_t max) {
  if (at_ == chunk_.size() && !Fill()) return {};
  const size_t size = static_cast<size_t>(std::min<uint64_t>(max, chunk_.size() - at_));
  const absl::string_view piece = chunk_.substr(at_, size);
  at_ += size;
  return piece;
}

absl::string_view ByteInput::TakeUntil(char delimiter) {
  if (at_ == chunk_.size() && !Fill()) return {};
  const size_t end = chunk_.find(delimiter, at_);
  const size_t size = end == absl::string_view::npos ? chunk_.size() - at_ : end + 1 - at_;
  const absl::string_view piece = chunk_.substr(at_, size);
  at_ += size;
  return piece;
}

TreeStream::TreeStream(ByteInput& input)
    : input_(input),
      buffer_(new uint8_t[kBufferBytes]),
      next_(buffer_.get()),
      end_(buffer_.get()) {}

TreeStream::~TreeStream() {
  if (zlib_ready_) inflateEnd(&zlib_);
}

bool TreeStream::Fail(std::string error) {
  error_ = std::move(error);
  return false;
}

// Each fill holds bytes of one frame, so that frame() names it.
bool TreeStream::Refill() {
  if (!error_.empty() || ended_) return false;
  while (true) {
    if (!in_frame_ && (frames_ == limit_ || !StartFrame())) return false;
    if (FillFromFrame()) return true;
    if (!error_.empty()) return false;
  }
}

bool TreeStream::FillFromFrame() {
  buffer_offset_ += static_cast<uint64_t>(end_ - buffer_.get());
  next_ = end_ = buffer_.get();
  uint64_t produced = 0;
  if (!Inflate(&produced) || produced == 0) return false;
  end_ = buffer_.get() + produced;
  buffer_frame_ = frame_start_;
  return true;
}

bool TreeStream::FrameEnded() {
  if (next_ != end_) return false;
  return !in_frame_ || (!FillFromFrame() && error_.empty());
}

bool TreeStream::StartFrame() {
  frame_start_ = input_.offset();
  uint64_t length = 0;
  VarintRead how;
  if (!input_.Varint(&length, &how)) {
    if (how == VarintRead::kTooLong) {
      return Fail(absl::StrCat("the frame length at byte ", frame_start_, " has over 64 bits"));
    }
    if (input_.offset() == frame_start_) {
      return Fail(
          absl::StrCat("the certificate ends at byte ", frame_start_, " without its end marker"));
    }
    return Fail(absl::StrCat("the certificate ends at byte ", input_.offset(),
                             " inside the length of a frame"));
  }
  if (length == 0) {
    ended_ = true;
    return false;
  }
  if (!zlib_ready_) {
    if (inflateInit(&zlib_) != Z_OK) return Fail("zlib cannot start");
    zlib_ready_ = true;
  } else {
    inflateReset(&zlib_);
  }
  frame_length_ = frame_left_ = length;
  in_frame_ = true;
  ++frames_;
  return true;
}

bool TreeStream::Inflate(uint64_t* produced) {
  zlib_.next_out = buffer_.get();
  zlib_.avail_out = kBufferBytes;
  // Until the buffer has a byte or the frame ends: some input inflates to
  // nothing (zlib's header, empty blocks).
  while (zlib_.avail_out == kBufferBytes && in_frame_) {
    if (zlib_.avail_in == 0 && frame_left_ > 0) {
      // zlib counts its input in 32 bits.
      const absl::string_view piece = input_.Take(std::min<uint64_t>(frame_left_, 1u << 30));
      if (piece.empty()) {
        return Fail(absl::StrCat("the certificate ends at byte ", input_.offset(),
                                 ", inside the frame of ", frame_length_, " bytes at byte ",
                                 frame_start_));
      }
      zlib_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(piece.data()));
      zlib_.avail_in = static_cast<uInt>(piece.size());
      frame_left_ -= piece.size();
    }
    const int result = inflate(&zlib_, Z_NO_FLUSH);
    if (result == Z_STREAM_END) {
      if (zlib_.avail_in > 0 || frame_left_ > 0) {
        return Fail(absl::StrCat("the zlib stream of the frame at byte ", frame_start_, " ends ",
                                 zlib_.avail_in + frame_left_, " bytes before the frame"));
      }
      in_frame_ = false;
    } else if (result == Z_BUF_ERROR && zlib_.avail_in == 0 && frame_left_ == 0) {
      return Fail(absl::StrCat("the frame of ", frame_length_, " bytes at byte ", frame_start_,
                               " ends inside its zlib stream"));
    } else if (result == Z_NEED_DICT) {
      return Fail(absl::StrCat("the zlib stream of the frame at byte ", frame_start_,
                               " asks for a preset dictionary"));
    } else if (result != Z_OK && result != Z_BUF_ERROR) {
      return Fail(absl::StrCat("the zlib stream of the frame at byte ", frame_start_,
                               " is corrupt (", zlib_.msg != nullptr ? zlib_.msg : "no message",
                               ")"));
    }
  }
  *produced = kBufferBytes - zlib_.avail_out;
  return true;
}

std::string TreeStream::Finish() {
  if (next_ != end_ || Refill()) return "bytes after the tree's last node";
  if (!error_.empty()) return error_;
  uint8_t extra;
  if (input_.Next(&extra)) {
    return absl::StrCat("bytes after the end marker, from byte ", input_.offset() - 1);
  }
  return "";
}

}  // namespace nqueens::checker
