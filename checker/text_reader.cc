#include "checker/text_reader.h"

#include <algorithm>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace nqueens::checker {

// The longest line is a Hall leaf's, of at most d rows of at most 10 digits;
// the bound leaves room for leading zeros.
TextReader::TextReader(ByteInput& input, const Composition& composition, const Path& path)
    : input_(input),
      composition_(composition),
      path_(path),
      max_line_(64 + 24 * (uint64_t{composition.d()} + 1)) {}

bool TextReader::Next() {
  uint8_t byte;
  if (!input_.Peek(&byte)) return false;
  line_offset_ = input_.offset();
  ++line_;
  text_.clear();
  while (true) {
    const absl::string_view piece = input_.TakeUntil('\n');
    if (piece.empty()) break;
    if (text_.size() + piece.size() > max_line_ + 1) {
      too_long_ = true;
      return false;
    }
    text_.append(piece.data(), piece.size());
    if (text_.back() == '\n') {
      text_.pop_back();
      break;
    }
  }
  if (!input_.status().ok()) return false;
  tokens_.clear();
  const absl::string_view text = text_;
  for (size_t start = 0;;) {
    const size_t space = text.find(' ', start);
    tokens_.push_back(text.substr(start, space - start));
    if (space == absl::string_view::npos) break;
    start = space + 1;
  }
  return true;
}

absl::Status TextReader::Missing(absl::string_view what) const {
  if (!input_.status().ok()) return input_.status();
  if (too_long_) return Error(absl::StrCat("the line is longer than ", max_line_, " bytes"));
  return Error(absl::StrCat("missing ", what));
}

absl::Status TextReader::Matches(const std::vector<std::string>& wanted) const {
  if (tokens_.size() != wanted.size() ||
      !std::equal(tokens_.begin(), tokens_.end(), wanted.begin())) {
    return Error(absl::StrCat("expected `", absl::StrJoin(wanted, " "), "`"));
  }
  return absl::OkStatus();
}

absl::Status TextReader::Expect(const std::vector<std::string>& wanted) {
  if (!Next()) return Missing(absl::StrCat("`", absl::StrJoin(wanted, " "), "`"));
  return Matches(wanted);
}

absl::Status TextReader::ReadHeader(Header* header) {
  if (absl::Status s = Expect({"nqueens-certificate", "1"}); !s.ok()) return s;
  if (absl::Status s = Expect({"n", absl::StrCat(composition_.n())}); !s.ok()) return s;
  if (absl::Status s = Expect({"given", absl::StrCat(composition_.given())}); !s.ok()) return s;
  if (!Next()) return Missing("`proof`");
  // The optional `part <i> <k>` line, which allows `x` leaves.
  if (absl::StartsWith(text_, "part ")) {
    if (absl::Status s = PartLine(header); !s.ok()) return s;
    if (absl::Status s = Expect({"proof"}); !s.ok()) return s;
  } else if (absl::Status s = Matches({"proof"}); !s.ok()) {
    return s;
  }
  in_tree_ = true;
  return absl::OkStatus();
}

absl::Status TextReader::PartLine(Header* header) {
  if (tokens_.size() != 3 || !absl::SimpleAtoi(tokens_[1], &header->part_index) ||
      !absl::SimpleAtoi(tokens_[2], &header->part_count) || header->part_count < 2 ||
      header->part_index >= header->part_count) {
    return Error("expected `part <i> <k>` with 0 <= i < k and k >= 2");
  }
  part_ = true;
  return absl::OkStatus();
}

uint64_t TextReader::Coordinate(size_t i) const {
  uint64_t x = 0;
  if (i >= tokens_.size() || !absl::SimpleAtoi(tokens_[i], &x) || x > composition_.n()) return 0;
  return x;
}

absl::Status TextReader::ReadNode(Node* node) {
  if (!Next()) return Missing("node");
  const absl::string_view kind = tokens_[0];
  if (kind == "b" && tokens_.size() == 4) {
    if (tokens_[1] != "r" && tokens_[1] != "c") return Error("a branch is on `r` or `c`");
    node->kind = Node::Kind::kBranch;
    node->by_row = tokens_[1] == "r";
    node->line = FreeLine(node->by_row, 2);
    uint64_t children = 0;
    node->children = absl::SimpleAtoi(tokens_[3], &children) && children < Node::kBadCount
                         ? children
                         : Node::kBadCount;
    return absl::OkStatus();
  }
  if (kind == "e" && tokens_.size() == 3) {
    if (tokens_[1] != "r" && tokens_[1] != "c") return Error("an empty line is `r` or `c`");
    node->kind = Node::Kind::kEmptyLine;
    node->by_row = tokens_[1] == "r";
    node->line = FreeLine(node->by_row, 2);
    return absl::OkStatus();
  }
  if (kind == "s" && tokens_.size() == 1) {
    node->kind = Node::Kind::kSums;
    return absl::OkStatus();
  }
  if (kind == "h") return ReadHall(node);
  if (kind == "x" && tokens_.size() == 1 && part_) {
    node->kind = Node::Kind::kOther;
    return absl::OkStatus();
  }
  return Error(part_ ? "expected a node: `b`, `e`, `h`, `s` or `x`"
                     : "expected a node: `b`, `e`, `h` or `s`");
}

absl::Status TextReader::ReadHall(Node* node) {
  uint64_t count = 0;
  if (tokens_.size() < 2 || !absl::SimpleAtoi(tokens_[1], &count) || count != tokens_.size() - 2) {
    return Error("`h` needs its row count and that many rows");
  }
  hall_rows_.clear();
  for (size_t i = 2; i < tokens_.size(); ++i) hall_rows_.push_back(FreeLine(true, i));
  node->kind = Node::Kind::kHall;
  return absl::OkStatus();
}

absl::Status TextReader::ReadChild(bool by_row, uint32_t line, uint64_t, ChildCell* child) {
  if (!Next()) {
    if (!input_.status().ok() || too_long_) return Missing("`p`");
    return Error("expected `p`");
  }
  if (tokens_.size() != 3 || tokens_[0] != "p") return Error("expected `p`");
  const uint64_t row = Coordinate(1), column = Coordinate(2);
  const uint64_t on_line = by_row ? composition_.Row(line) : composition_.Column(line);
  if ((by_row ? row : column) != on_line) return Error("the queen is not on the branch's line");
  child->other = by_row ? composition_.FreeColumn(column) : composition_.FreeRow(row);
  return absl::OkStatus();
}

absl::Status TextReader::ReadEnd() {
  in_tree_ = false;
  if (absl::Status s = Expect({"end"}); !s.ok()) return s;
  uint8_t byte;
  if (input_.Peek(&byte)) return Error("text after `end`");
  return input_.status();
}

absl::Status TextReader::Error(absl::string_view what) const {
  return absl::InvalidArgumentError(absl::StrCat("certificate line ", line_, " (byte ",
                                                 line_offset_, in_tree_ ? path_.Text() : "",
                                                 "): ", what));
}

}  // namespace nqueens::checker
