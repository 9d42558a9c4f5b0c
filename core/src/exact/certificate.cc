#include "exact/certificate.h"

#include <zlib.h>

#include <algorithm>
#include <utility>

#include "absl/numeric/bits.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace nqueens::internal {
namespace {

// The binary format's tags (docs/reference/certificates.md).
enum Tag : uint8_t {
  kDead = 0,
  kHall = 1,
  kOther = 2,
  kRanked = 3,
  kBranch = 4,
  kBranchOnRow = 5,
  kBranchOnColumn = 6,
  kPacked = 7,
  kFramed = 8,
};

// The binary format's version.
constexpr uint64_t kVersion = 3;

// Raw bytes per compressed frame: large enough that a frame's header and
// zlib's own (a dozen bytes) do not count, small enough to keep the raw
// buffer in cache.
constexpr size_t kFrameBytes = size_t{1} << 20;

void AppendVarint(std::string& out, uint64_t value) {
  for (; value >= 0x80; value >>= 7) out.push_back(static_cast<char>(value | 0x80));
  out.push_back(static_cast<char>(value));
}

// Appends `raw` to `out` as a frame; false when zlib runs out of memory.
// Huffman coding alone: the tree stream has few repeated strings for
// zlib's matches to find, and without them it compresses both smaller and
// faster (docs/benchmarks.md, "Certificates").
bool AppendFrame(absl::string_view raw, std::string& out) {
  z_stream stream{};
  if (deflateInit2(&stream, Z_BEST_SPEED, Z_DEFLATED, MAX_WBITS, 8, Z_HUFFMAN_ONLY) != Z_OK) {
    return false;
  }
  std::string frame(deflateBound(&stream, raw.size()), '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(raw.data()));
  stream.avail_in = static_cast<uInt>(raw.size());
  stream.next_out = reinterpret_cast<Bytef*>(frame.data());
  stream.avail_out = static_cast<uInt>(frame.size());
  const bool done = deflate(&stream, Z_FINISH) == Z_STREAM_END;
  const size_t length = stream.total_out;
  deflateEnd(&stream);
  if (!done) return false;
  AppendVarint(out, length);
  out.append(frame, 0, length);
  return true;
}

// The frames of a tree written in the binary format.
uint64_t CountFrames(absl::string_view tree) {
  uint64_t frames = 0;
  while (!tree.empty()) {
    uint64_t length = 0;
    int shift = 0;
    size_t i = 0;
    do {
      length |= uint64_t{static_cast<uint8_t>(tree[i]) & 0x7fu} << shift;
      shift += 7;
    } while ((static_cast<uint8_t>(tree[i++]) & 0x80) != 0);
    tree.remove_prefix(i + length);
    ++frames;
  }
  return frames;
}

// Free lines in rank order, rank 0 first: the inverse of `ranks`.
std::vector<uint32_t> LinesByRank(absl::Span<const uint32_t> ranks) {
  std::vector<uint32_t> lines(ranks.size());
  for (uint32_t x = 0; x < ranks.size(); ++x) lines[ranks[x]] = x;
  return lines;
}

}  // namespace

bool CertificateMemory::Hold(uint64_t bytes) {
  if (!reserve_) return true;
  absl::MutexLock lock(&mutex_);
  if (!refused_status_.ok()) return false;
  held_ += bytes;
  if (held_ <= reserved_) return true;
  const uint64_t step = std::max({held_ - reserved_, kMinStep, reserved_ / 4});
  if (absl::Status reserved = reserve_(step); !reserved.ok()) {
    refused_status_ = std::move(reserved);
    refused_.store(true, std::memory_order_relaxed);
    return false;
  }
  reserved_ += step;
  return true;
}

void CertificateMemory::Release(uint64_t bytes) {
  absl::MutexLock lock(&mutex_);
  held_ -= std::min(held_, bytes);
}

std::string CertificateMemory::WhyDropped(size_t max_bytes) const {
  if (!refused()) return absl::StrCat("the certificate outgrew its limit of ", max_bytes, " bytes");
  absl::MutexLock lock(&mutex_);
  return absl::StrCat("the certificate did not fit in memory: ", refused_status_.message());
}

CertificateWriter::CertificateWriter(CertificateFormat format, absl::Span<const uint32_t> rows,
                                     absl::Span<const uint32_t> columns, size_t max_bytes,
                                     CertificateMemory* memory)
    : format_(format),
      rows_(rows),
      columns_(columns),
      max_bytes_(max_bytes),
      memory_(memory),
      word_lines_(rows.size() <= 64),
      pieces_(1) {}

void CertificateWriter::Restart() {
  overflowed_ = false;
  std::string().swap(raw_);
  pieces_.assign(1, std::string());
  bytes_ = 0;
  Release(held_);
  held_ = 0;
  branches_.clear();
  cells_left_.clear();
  in_bits_ = false;
  bits_ = 0;
  bit_count_ = 0;
}

bool CertificateWriter::InBits() {
  if (in_bits_) return true;
  if (!ranked_ || !packing_ || !word_lines_) return false;
  Tag(kPacked);
  in_bits_ = true;
  bits_above_ = branches_.size();
  return true;
}

void CertificateWriter::Bits(uint64_t value, int count) {
  bits_ |= value << bit_count_;
  for (bit_count_ += count; bit_count_ >= 8; bit_count_ -= 8) {
    raw_.push_back(static_cast<char>(bits_));
    bits_ >>= 8;
  }
}

void CertificateWriter::LeafDone() {
  // A branch leaves branches_ once its last child is placed, so the packed
  // subtree's last leaf is the one written with none of its branches open.
  if (in_bits_ && branches_.size() == bits_above_) {
    if (bit_count_ > 0) raw_.push_back(static_cast<char>(bits_));
    in_bits_ = false;
    bits_ = 0;
    bit_count_ = 0;
  }
  MaybeFlush();
}

void CertificateWriter::Varint(uint64_t value) {
  if (value < 0x80) {  // most are: a child's index, a Hall leaf's gap
    raw_.push_back(static_cast<char>(value));
    return;
  }
  AppendVarint(raw_, value);
}

template <typename... Pieces>
void CertificateWriter::Text(const Pieces&... pieces) {
  absl::StrAppend(&raw_, pieces...);
}

void CertificateWriter::Ranked(absl::Span<const uint32_t> row_ranks,
                               absl::Span<const uint32_t> column_ranks) {
  ranked_ = true;
  if (overflowed_ || format_ == CertificateFormat::kText) return;
  Tag(kRanked);
  for (const uint32_t a : LinesByRank(row_ranks)) Varint(a);
  for (const uint32_t b : LinesByRank(column_ranks)) Varint(b);
}

void CertificateWriter::Branch(bool by_row, uint32_t line, uint32_t children) {
  if (overflowed_) return;
  if (format_ == CertificateFormat::kText) {
    Text("b ", by_row ? "r " : "c ", by_row ? rows_[line] : columns_[line], " ", children, "\n");
  } else if (InBits()) {
    Bits(children == 0 ? 0 : 1, 1);
  } else if (ranked_) {
    Tag(kBranch);
  } else {
    Tag(by_row ? kBranchOnRow : kBranchOnColumn);
    Varint(line);
  }
  if (children == 0) {  // a leaf
    LeafDone();
    return;
  }
  // Field by field: a temporary's store and reload stalled on this, the
  // writer's busiest line.
  OpenBranch& branch = branches_.emplace_back();
  branch.cells_left = 0;
  branch.first = cells_left_.size();
  branch.children_left = children;
  branch.by_row = by_row;
}

void CertificateWriter::Child(uint32_t a, uint32_t b) {
  if (overflowed_ || format_ == CertificateFormat::kText) return;
  OpenBranch& branch = branches_.back();
  const uint32_t other = branch.by_row ? b : a;
  if (word_lines_) {
    branch.cells_left |= uint64_t{1} << other;
    return;
  }
  // Lines have few open cells where the search branches: insertion is cheap.
  cells_left_.insert(std::upper_bound(cells_left_.begin() + branch.first, cells_left_.end(), other),
                     other);
}

uint32_t CertificateWriter::TakeCell(OpenBranch& branch, uint32_t other) {
  if (word_lines_) {
    const uint64_t bit = uint64_t{1} << other;
    branch.cells_left &= ~bit;
    return absl::popcount(branch.cells_left & (bit - 1));
  }
  const auto left = cells_left_.begin() + branch.first;
  const auto cell = std::lower_bound(left, left + branch.children_left, other);
  cells_left_.erase(cell);
  return cell - left;
}

void CertificateWriter::Place(uint32_t a, uint32_t b) {
  if (overflowed_) return;
  OpenBranch& branch = branches_.back();
  if (format_ == CertificateFormat::kText) {
    Text("p ", rows_[a], " ", columns_[b], "\n");
  } else {
    const uint32_t index = TakeCell(branch, branch.by_row ? b : a);
    // The last one left needs none.
    if (branch.children_left > 1 && in_bits_) {
      Bits(index, absl::bit_width(branch.children_left - 1));
    } else if (branch.children_left > 1) {
      Varint(index);
    }
  }
  // The last child's subtree needs nothing of its branch.
  if (--branch.children_left == 0) branches_.pop_back();
}

template <typename... Pieces>
void CertificateWriter::Leaf(uint8_t tag, const Pieces&... text) {
  if (overflowed_) return;
  if (format_ == CertificateFormat::kText) {
    Text(text...);
  } else if (tag == kDead && InBits()) {
    Bits(0, 1);
  } else {
    Tag(tag);
  }
  LeafDone();
}

void CertificateWriter::Empty(bool row, uint32_t line) {
  Leaf(kDead, "e ", row ? "r " : "c ", row ? rows_[line] : columns_[line], "\n");
}

void CertificateWriter::DiagonalSums() { Leaf(kDead, "s\n"); }

void CertificateWriter::Hall(uint64_t rows, uint64_t unplaced) {
  if (format_ == CertificateFormat::kText) {
    std::vector<uint32_t> listed;
    for (; rows != 0; rows &= rows - 1) listed.push_back(absl::countr_zero(rows));
    Hall(listed, {});
    return;
  }
  // A leaf in four of the word engine's: written without lists, or as a
  // dead leaf's bit, whose rows a checker finds itself.
  if (InBits()) return Leaf(kDead);
  if (overflowed_) return;
  Tag(kHall);
  // The rows' bits gathered at their places among the unplaced (without a
  // branch per row: whether a row is in is a coin toss to the processor).
  uint64_t bits = 0;
  int count = 0;
  for (; unplaced != 0; unplaced &= unplaced - 1, ++count) {
    bits |= uint64_t{(rows & unplaced & -unplaced) != 0} << count;
  }
  for (int byte = 0; byte * 8 < count; ++byte) raw_.push_back(static_cast<char>(bits >> 8 * byte));
  MaybeFlush();
}

void CertificateWriter::Hall(absl::Span<const uint32_t> rows, absl::Span<const uint32_t> unplaced) {
  if (overflowed_) return;
  if (format_ == CertificateFormat::kText) {
    Text("h ", rows.size());
    for (const uint32_t a : rows) Text(" ", rows_[a]);
    Text("\n");
  } else if (InBits()) {
    Bits(0, 1);
  } else {
    std::vector<uint32_t> ascending(unplaced.begin(), unplaced.end());
    std::sort(ascending.begin(), ascending.end());
    std::string bits((ascending.size() + 7) / 8, '\0');
    for (const uint32_t a : rows) {
      const size_t i = std::lower_bound(ascending.begin(), ascending.end(), a) - ascending.begin();
      bits[i / 8] = static_cast<char>(bits[i / 8] | 1 << (i % 8));
    }
    Tag(kHall);
    raw_ += bits;
  }
  LeafDone();
}

void CertificateWriter::Other() { Leaf(kOther, "x\n"); }

size_t CertificateWriter::Slot() {
  Flush();
  const size_t slot = pieces_.size();
  pieces_.emplace_back();  // the slot
  pieces_.emplace_back();  // what follows it
  return slot;
}

void CertificateWriter::FillSlot(size_t slot, std::optional<std::string> subtree) {
  if (overflowed_) return;
  if (!subtree.has_value()) {
    Overflow();
    return;
  }
  std::string& piece = pieces_[slot];
  if (format_ == CertificateFormat::kBinary) {
    // A frame of its own says how many follow: a checker may hand them to
    // another thread.
    std::string framed(1, static_cast<char>(kFramed));
    AppendVarint(framed, CountFrames(*subtree));
    if (!AppendFrame(framed, piece)) {
      Overflow();
      return;
    }
  }
  // The subtree's writer held its bytes: this one takes them over. The
  // append copies them: until the subtree goes, the memory holds them twice.
  const size_t copied = subtree->size();
  if (!Hold(copied)) {
    Overflow();
    return;
  }
  Count(piece.size() + copied, copied);
  if (!overflowed_) piece += *subtree;
  subtree.reset();
  Release(copied);
}

CertificateWriter CertificateWriter::SlotWriter() const {
  CertificateWriter writer(format_, rows_, columns_, max_bytes_, memory_);
  writer.ranked_ = ranked_;
  return writer;
}

std::optional<std::string> CertificateWriter::Finish(absl::string_view header,
                                                     absl::string_view end) {
  Flush();
  if (overflowed_) return std::nullopt;
  const size_t bytes = header.size() + bytes_ + end.size();
  if (!Hold(bytes)) {
    Overflow();
    return std::nullopt;
  }
  std::string tree;
  tree.reserve(bytes);
  tree.append(header.data(), header.size());
  for (std::string& piece : pieces_) {
    tree += piece;
    std::string().swap(piece);
  }
  tree.append(end.data(), end.size());
  Release(held_);  // the pieces are gone
  held_ = 0;       // the caller holds the tree now
  return tree;
}

void CertificateWriter::MaybeFlush() {
  if (raw_.size() >= kFrameBytes) Flush();
}

void CertificateWriter::Flush() {
  if (overflowed_ || raw_.empty()) return;
  std::string& piece = pieces_.back();
  const size_t before = piece.size();
  if (format_ == CertificateFormat::kText) {
    piece += raw_;
  } else if (!AppendFrame(raw_, piece)) {
    Overflow();  // zlib ran out of memory: no certificate either
    return;
  }
  raw_.clear();
  Count(piece.size() - before);
}

void CertificateWriter::Count(size_t bytes, size_t taken_over) {
  bytes_ += bytes;
  held_ += bytes;
  if (bytes_ <= max_bytes_ && Hold(bytes - taken_over)) return;
  Overflow();
}

void CertificateWriter::Overflow() {
  Release(held_);
  held_ = 0;
  overflowed_ = true;
  std::string().swap(raw_);
  pieces_.assign(1, std::string());
  branches_.clear();
}

std::string CertificateHeader(CertificateFormat format, uint64_t n, uint64_t given,
                              const PartSelector& part) {
  if (format == CertificateFormat::kBinary) {
    std::string header = "NQCERT\r\n";
    for (const uint64_t value : {kVersion, n, given, part.index, part.count}) {
      AppendVarint(header, value);
    }
    return header;
  }
  const std::string part_line =
      part.whole() ? "" : absl::StrCat("part ", part.index, " ", part.count, "\n");
  return absl::StrCat("nqueens-certificate 1\nn ", n, "\ngiven ", given, "\n", part_line,
                      "proof\n");
}

std::string CertificateEnd(CertificateFormat format) {
  return format == CertificateFormat::kBinary ? std::string(1, '\0') : "end\n";
}

}  // namespace nqueens::internal
