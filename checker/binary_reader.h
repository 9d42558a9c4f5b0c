// The reader of the binary format, versions 2 and 3
// (docs/reference/certificates.md): the header in the clear, then the tree
// stream of the zlib frames, free indices; in version 3 also `packed`
// subtrees, a bit a node, and `framed` ones, a run of frames each. Its
// errors name the byte: in the header the certificate's, in the tree the
// tree stream's (in a packed subtree the bit too, from the lowest) and the
// frame it came from (by the certificate's byte offset of its length), with
// the node's path from the root.
#ifndef NQUEENS_CHECKER_BINARY_READER_H_
#define NQUEENS_CHECKER_BINARY_READER_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "checker/byte_input.h"
#include "checker/composition.h"
#include "checker/tree_items.h"

namespace nqueens::checker {

// The first bytes of a binary certificate.
inline constexpr absl::string_view kBinaryMagic = "NQCERT\r\n";

class BinaryReader {
 public:
  // How errors name an other leaf, and where one is.
  static constexpr absl::string_view kOtherLeaf = "`other`";
  static constexpr absl::string_view kPositionName = "certificate tree byte ";

  // `input` stands at the certificate's first byte; `path` is the walk's.
  BinaryReader(ByteInput& input, const Composition& composition, const Path& path)
      : input_(input), tree_(input), composition_(composition), path_(path), d_(composition.d()) {}

  // The magic and the header, checked against the composition.
  absl::Status ReadHeader(Header* header);

  // The next node; in a packed subtree a bit: a dead leaf or a branch on the
  // line the ranks choose.
  absl::Status ReadNode(Node* node) {
    if (packed_) return ReadBitNode(node);
    item_ = tree_.offset();
    item_bit_ = kNoBit;
    uint8_t tag;
    const bool read = tree_.Next(&tag);
    // Without a byte, the frame of the last one (the same whether or not the
    // subtrees before were read past, as other walks check them).
    item_frame_ = tree_.frame();
    if (!read) return StreamError("the tree stream ends where a node should start");
    switch (tag) {
      case kDead:
        node->kind = Node::Kind::kDead;
        return absl::OkStatus();
      case kHall:
        return ReadHall(node);
      case kOther:
        if (!part_) return Error("an `other` leaf in the certificate of a whole search");
        node->kind = Node::Kind::kOther;
        return absl::OkStatus();
      case kRanked:
        node->kind = Node::Kind::kRanked;
        return absl::OkStatus();
      case kBranch:
        node->kind = Node::Kind::kRankedBranch;
        return absl::OkStatus();
      case kRowBranch:
      case kColumnBranch:
        node->kind = Node::Kind::kBranch;
        node->by_row = tag == kRowBranch;
        node->children = Node::kImplied;
        return FreeIndex(&node->line);
      case kPacked:
        if (version_ == 2) return NoSuchTag(tag);
        packed_ = true;
        node->kind = Node::Kind::kPacked;
        return absl::OkStatus();
      case kFramed:
        if (version_ == 2) return NoSuchTag(tag);
        return ReadFramed(node);
      default:
        return NoSuchTag(tag);
    }
  }

  // A child of a branch whose line has `cells_left` open cells that no
  // earlier child took: the index of its cell among them, which the last
  // one does not write.
  absl::Status ReadChild(bool, uint32_t, uint64_t cells_left, ChildCell* child) {
    if (packed_) return ReadBitChild(cells_left, child);
    item_ = tree_.offset();
    item_bit_ = kNoBit;
    if (cells_left == 1) {
      child->index = 0;
      return absl::OkStatus();
    }
    VarintRead how;
    if (!tree_.Varint(&child->index, &how)) return VarintError(how);
    item_frame_ = tree_.frame();
    return absl::OkStatus();
  }
  // The text format's Hall rows: never read here.
  const std::vector<uint32_t>& hall_rows() const { return no_rows_; }
  // The Hall leaf read last: a bit per unplaced row of its node.
  const std::vector<uint8_t>& hall_bits() const { return hall_bits_; }
  // A `ranked` node's lines (kNone: not a free line).
  absl::Status ReadRanks(Ranks* ranks);
  // After a packed subtree's last node: the rest of its byte must be 0 bits,
  // and the byte grammar goes on at the next byte.
  absl::Status EndPacked() {
    packed_ = false;
    if (bits_ == 0) {
      bit_count_ = 0;
      return absl::OkStatus();
    }
    item_ = tree_.offset() - 1;
    item_bit_ = 8 - bit_count_ + __builtin_ctz(bits_);
    item_frame_ = tree_.frame();
    return Error("a 1 bit after the packed subtree's last node");
  }
  // After a framed subtree's last node: its frames must end there.
  absl::Status EndFramed();
  // Right after a `framed` node: reads past its subtree's frames, which
  // another walk checks; CANCELLED when they are broken, which that walk
  // names.
  absl::Status SkipFramed();
  // The end of the tree stream right after the tree's last node, the end
  // marker, and nothing after it.
  absl::Status ReadEnd();
  // INVALID_ARGUMENT: `what`, at the item read last.
  absl::Status Error(absl::string_view what) const;
  // Where the node read last is: its tree stream offset.
  uint64_t position() const { return item_; }

 private:
  enum Tag : uint8_t {
    kDead,
    kHall,
    kOther,
    kRanked,
    kBranch,
    kRowBranch,
    kColumnBranch,
    kPacked,
    kFramed
  };
  static constexpr int kNoBit = -1;

  // A framed node's subtree: the `count` frames after the one it ends, from
  // certificate byte `first`, which the tree stream is limited to while it
  // is read. (A checker on threads would hand them to a reader of its own.)
  struct Framed {
    uint64_t first, count;
    uint64_t outer_limit;  // the tree stream's before it
  };

  absl::Status NoSuchTag(uint8_t tag) const {
    return Error(absl::StrCat("tag ", tag, " is no node's",
                              version_ == 2 ? " in version 2 (0 to 6)" : " (0 to 8)"));
  }
  absl::Status ReadFramed(Node* node);

  // Packed subtrees: bits are read from each byte's lowest up. The item read
  // is the next bit, its byte read if need be.
  absl::Status BitItem() {
    if (bit_count_ == 0) {
      item_ = tree_.offset();
      item_bit_ = 0;
      uint8_t byte;
      if (!tree_.Next(&byte)) return StreamError("the tree stream ends inside a packed subtree");
      bits_ = byte;
      bit_count_ = 8;
    }
    item_ = tree_.offset() - 1;
    item_bit_ = 8 - bit_count_;
    item_frame_ = tree_.frame();
    return absl::OkStatus();
  }
  // The next `width` bits, lowest first: at most 8 more than are held.
  bool Bits(int width, uint64_t* value) {
    if (bit_count_ < width) {
      uint8_t byte;
      if (!tree_.Next(&byte)) return false;
      bits_ |= uint32_t{byte} << bit_count_;
      bit_count_ += 8;
    }
    *value = bits_ & ((1u << width) - 1);
    bits_ >>= width;
    bit_count_ -= width;
    return true;
  }
  absl::Status ReadBitNode(Node* node) {
    if (absl::Status s = BitItem(); !s.ok()) return s;
    uint64_t bit = 0;
    Bits(1, &bit);  // held since BitItem()
    node->kind = bit == 0 ? Node::Kind::kPackedDead : Node::Kind::kRankedBranch;
    return absl::OkStatus();
  }
  // A child's index in ceil(log2 k) bits for the k cells left (none for the
  // last).
  absl::Status ReadBitChild(uint64_t cells_left, ChildCell* child) {
    child->index = 0;
    if (cells_left == 1) return absl::OkStatus();
    if (absl::Status s = BitItem(); !s.ok()) return s;
    const int width = 64 - __builtin_clzll(cells_left - 1);
    if (!Bits(width, &child->index)) {
      return StreamError("the tree stream ends inside a packed subtree");
    }
    return absl::OkStatus();
  }

  absl::Status FreeIndex(uint32_t* index) {
    uint64_t value = 0;
    VarintRead how;
    if (!tree_.Varint(&value, &how)) return VarintError(how);
    *index = value < d_ ? static_cast<uint32_t>(value) : kNone;
    return absl::OkStatus();
  }
  absl::Status VarintError(VarintRead how) const;
  // Why the tree stream gave no byte: the source's error, the frames', or
  // its end, where `ended` is what is wrong.
  absl::Status StreamError(absl::string_view ended) const;
  absl::Status ReadHall(Node* node);
  absl::Status HeaderVarint(absl::string_view name, uint64_t* value);

  ByteInput& input_;
  TreeStream tree_;
  const Composition& composition_;
  const Path& path_;
  const uint32_t d_;
  bool part_ = false;
  uint64_t version_ = 0;
  enum class Stage { kHeader, kTree, kAfter } stage_ = Stage::kHeader;
  uint64_t header_at_ = 0;                      // the header field read last
  uint64_t item_ = 0;                           // the tree's item read last
  int item_bit_ = kNoBit;                       // in a packed subtree, its first bit
  uint64_t item_frame_ = TreeStream::kNoFrame;  // the frame of its first byte
  bool packed_ = false;                         // in a packed subtree
  uint32_t bits_ = 0;                           // of the byte read last, not read yet
  int bit_count_ = 0;                           // in bits_
  std::vector<Framed> framed_;                  // on the path, the innermost last
  std::vector<uint8_t> hall_bits_;
  const std::vector<uint32_t> no_rows_;
};

}  // namespace nqueens::checker

#endif  // NQUEENS_CHECKER_BINARY_READER_H_
