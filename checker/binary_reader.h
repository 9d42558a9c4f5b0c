// The reader of the binary format, version 2 (docs/reference/certificates.md):
// the header in the clear, then the tree stream of the zlib frames, free
// indices. Its errors name the byte: in the header the certificate's, in the
// tree the tree stream's (and the frame it came from, by the certificate's
// byte offset of its length), with the node's path from the root.
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

  absl::Status ReadNode(Node* node) {
    item_ = tree_.offset();
    uint8_t tag;
    if (!tree_.Next(&tag)) return StreamError("the tree stream ends where a node should start");
    item_frame_ = tree_.frame();
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
      default:
        return Error(absl::StrCat("tag ", tag, " is no node's (0 to 6)"));
    }
  }

  // A child of a branch whose line has `cells_left` open cells that no
  // earlier child took: the index of its cell among them, which the last
  // one does not write.
  absl::Status ReadChild(bool, uint32_t, uint64_t cells_left, ChildCell* child) {
    item_ = tree_.offset();
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
  // The end of the tree stream right after the tree's last node, the end
  // marker, and nothing after it.
  absl::Status ReadEnd();
  // INVALID_ARGUMENT: `what`, at the item read last.
  absl::Status Error(absl::string_view what) const;
  // Where the node read last is: its tree stream offset.
  uint64_t position() const { return item_; }

 private:
  enum Tag : uint8_t { kDead, kHall, kOther, kRanked, kBranch, kRowBranch, kColumnBranch };

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
  enum class Stage { kHeader, kTree, kAfter } stage_ = Stage::kHeader;
  uint64_t header_at_ = 0;                      // the header field read last
  uint64_t item_ = 0;                           // the tree's item read last
  uint64_t item_frame_ = TreeStream::kNoFrame;  // the frame of its first byte
  std::vector<uint8_t> hall_bits_;
  const std::vector<uint32_t> no_rows_;
};

}  // namespace nqueens::checker

#endif  // NQUEENS_CHECKER_BINARY_READER_H_
