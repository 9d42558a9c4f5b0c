#include "checker/binary_reader.h"

#include <string>

namespace nqueens::checker {

absl::Status BinaryReader::HeaderVarint(absl::string_view name, uint64_t* value) {
  header_at_ = input_.offset();
  VarintRead how;
  if (input_.Varint(value, &how)) return absl::OkStatus();
  if (!input_.status().ok()) return input_.status();
  return Error(how == VarintRead::kTooLong
                   ? absl::StrCat("the header's ", name, " has over 64 bits")
                   : absl::StrCat("the certificate ends inside its header, at its ", name));
}

absl::Status BinaryReader::ReadHeader(Header* header) {
  for (const char expected : kBinaryMagic) {
    uint8_t byte;
    if (!input_.Next(&byte) || byte != static_cast<uint8_t>(expected)) {
      if (!input_.status().ok()) return input_.status();
      return Error("expected the binary format's magic \"NQCERT\\r\\n\"");
    }
  }
  uint64_t version = 0, n = 0, given = 0;
  if (absl::Status s = HeaderVarint("version", &version); !s.ok()) return s;
  if (version != 2 && version != 3) {
    return Error(absl::StrCat("version ", version, ": this checker reads 2 and 3"));
  }
  version_ = version;
  if (absl::Status s = HeaderVarint("n", &n); !s.ok()) return s;
  if (n != composition_.n()) {
    return Error(absl::StrCat("n ", n, ", not the board's ", composition_.n()));
  }
  if (absl::Status s = HeaderVarint("given", &given); !s.ok()) return s;
  if (given != composition_.given()) {
    return Error(
        absl::StrCat("given ", given, ", not the composition's ", composition_.given(), " queens"));
  }
  if (absl::Status s = HeaderVarint("part_index", &header->part_index); !s.ok()) return s;
  if (absl::Status s = HeaderVarint("part_count", &header->part_count); !s.ok()) return s;
  part_ = header->part_count >= 2;
  if (part_ ? header->part_index >= header->part_count : header->part_index != 0) {
    return Error(absl::StrCat("part ", header->part_index, " of ", header->part_count,
                              ": expected 0 <= part_index < part_count >= 2, or part 0 of 0 or 1"));
  }
  stage_ = Stage::kTree;
  return absl::OkStatus();
}

// A bit per unplaced row: as many as the free rows less the queens placed.
absl::Status BinaryReader::ReadHall(Node* node) {
  hall_bits_.resize((d_ - path_.size() + 7) / 8);
  for (uint8_t& byte : hall_bits_) {
    if (!tree_.Next(&byte)) return StreamError("the tree stream ends inside a node");
  }
  node->kind = Node::Kind::kHallSet;
  return absl::OkStatus();
}

absl::Status BinaryReader::ReadRanks(Ranks* ranks) {
  for (std::vector<uint32_t>* lines : {&ranks->rows, &ranks->columns}) {
    lines->resize(d_);
    for (uint32_t& line : *lines) {
      if (absl::Status s = FreeIndex(&line); !s.ok()) return s;
    }
  }
  return absl::OkStatus();
}

// The count, and the end of the frame: the subtree starts at the next one.
absl::Status BinaryReader::ReadFramed(Node* node) {
  uint64_t count = 0;
  VarintRead how;
  if (!tree_.Varint(&count, &how)) return VarintError(how);
  if (count == 0) return Error("a `framed` node of no frame");
  if (count > tree_.limit() - tree_.frames()) {
    return Error(absl::StrCat("a `framed` node of ", count, " frames: more than can follow"));
  }
  if (!tree_.FrameEnded()) {
    return StreamError("a `framed` node that is not the last bytes of its frame");
  }
  framed_.push_back({input_.offset(), count, tree_.limit()});
  tree_.Limit(tree_.frames() + count);
  node->kind = Node::Kind::kFramed;
  return absl::OkStatus();
}

absl::Status BinaryReader::EndFramed() {
  const Framed framed = framed_.back();
  framed_.pop_back();
  item_ = tree_.offset();
  item_bit_ = kNoBit;
  const std::string ends_before =
      absl::StrCat("the framed subtree in the ", framed.count, " frames from byte ", framed.first,
                   " ends before them");
  uint8_t byte;
  if (tree_.Next(&byte)) {
    item_frame_ = tree_.frame();
    return Error(ends_before);
  }
  if (!tree_.AtLimit()) return StreamError(ends_before);
  tree_.Limit(framed.outer_limit);
  return absl::OkStatus();
}

absl::Status BinaryReader::SkipFramed() {
  uint8_t byte;
  while (tree_.Next(&byte)) {
  }
  if (!tree_.AtLimit()) return absl::CancelledError("broken frames, which another walk names");
  tree_.Limit(framed_.back().outer_limit);
  framed_.pop_back();
  return absl::OkStatus();
}

absl::Status BinaryReader::ReadEnd() {
  stage_ = Stage::kAfter;
  item_ = tree_.offset();
  const std::string error = tree_.Finish();
  if (!input_.status().ok()) return input_.status();
  return error.empty() ? absl::OkStatus() : Error(error);
}

absl::Status BinaryReader::VarintError(VarintRead how) const {
  if (how == VarintRead::kTooLong) return Error("a varint of over 64 bits");
  return StreamError("the tree stream ends inside a node");
}

absl::Status BinaryReader::StreamError(absl::string_view ended) const {
  if (!input_.status().ok()) return input_.status();
  if (!tree_.error().empty()) return Error(tree_.error());
  if (tree_.AtLimit()) {
    const Framed& framed = framed_.back();
    return Error(absl::StrCat("the framed subtree in the ", framed.count, " frames from byte ",
                              framed.first, " goes on past them"));
  }
  return Error(ended);
}

absl::Status BinaryReader::Error(absl::string_view what) const {
  switch (stage_) {
    case Stage::kHeader:
      return absl::InvalidArgumentError(absl::StrCat("certificate byte ", header_at_, ": ", what));
    case Stage::kTree: {
      // Before the first byte of the tree stream, no frame is named.
      const std::string path = path_.Text();
      return absl::InvalidArgumentError(absl::StrCat(
          "certificate tree byte ", item_,
          item_bit_ == kNoBit ? "" : absl::StrCat(" bit ", item_bit_), " (",
          item_frame_ == TreeStream::kNoFrame ? absl::string_view(path).substr(2)
                                              : absl::StrCat("frame at byte ", item_frame_, path),
          "): ", what));
    }
    case Stage::kAfter:
      break;
  }
  return absl::InvalidArgumentError(absl::StrCat("certificate tree byte ", item_, ": ", what));
}

}  // namespace nqueens::checker
