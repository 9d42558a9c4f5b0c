// The reader of the text format (docs/reference/certificates.md, "Text
// format"): one record per line, board coordinates. Its errors name the
// line, its byte offset and, in the tree, the node's path from the root.
#ifndef NQUEENS_CHECKER_TEXT_READER_H_
#define NQUEENS_CHECKER_TEXT_READER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "checker/byte_input.h"
#include "checker/composition.h"
#include "checker/tree_items.h"

namespace nqueens::checker {

class TextReader {
 public:
  // How errors name an other leaf, and where one is.
  static constexpr absl::string_view kOtherLeaf = "`x`";
  static constexpr absl::string_view kPositionName = "certificate line ";

  // `input` stands at the certificate's first byte; `path` is the walk's.
  TextReader(ByteInput& input, const Composition& composition, const Path& path);

  // The lines up to `proof`, checked against the composition.
  absl::Status ReadHeader(Header* header);
  absl::Status ReadNode(Node* node);
  // A child of a branch on `line`: its free index across the line, or kNone
  // when the queen's other coordinate is not a free line.
  absl::Status ReadChild(bool by_row, uint32_t line, uint64_t cells_left, ChildCell* child);
  // The rows of the Hall leaf read last (kNone: not a free row).
  const std::vector<uint32_t>& hall_rows() const { return hall_rows_; }
  // The binary format's Hall bits: never read here.
  const std::vector<uint8_t>& hall_bits() const { return no_bits_; }
  // The text format has no `ranked` node: never called.
  absl::Status ReadRanks(Ranks*) { return Error("no ranks in the text format"); }
  // Nor packed or framed subtrees: never called.
  absl::Status EndPacked() { return Error("no packed subtree in the text format"); }
  absl::Status EndFramed() { return Error("no framed subtree in the text format"); }
  absl::Status SkipFramed() { return EndFramed(); }
  // `end`, and nothing after it.
  absl::Status ReadEnd();
  // INVALID_ARGUMENT: `what`, at the line read last.
  absl::Status Error(absl::string_view what) const;
  // Where the node read last is: its line.
  uint64_t position() const { return line_; }

 private:
  // Reads the next line's tokens; false at the end of the input, on the
  // source's error or at a line longer than any of a certificate of the
  // board (Missing() tells).
  bool Next();
  absl::Status Missing(absl::string_view what) const;
  absl::Status Expect(const std::vector<std::string>& wanted);
  absl::Status Matches(const std::vector<std::string>& wanted) const;
  absl::Status PartLine(Header* header);
  // Token i as a board coordinate 1 .. n, or 0.
  uint64_t Coordinate(size_t i) const;
  uint32_t FreeLine(bool row, size_t i) const {
    const uint64_t x = Coordinate(i);
    return row ? composition_.FreeRow(x) : composition_.FreeColumn(x);
  }
  absl::Status ReadHall(Node* node);

  ByteInput& input_;
  const Composition& composition_;
  const Path& path_;
  const uint64_t max_line_;  // bytes
  std::string text_;         // the line read last, without its newline
  std::vector<absl::string_view> tokens_;
  uint64_t line_ = 0, line_offset_ = 0;  // of the line read last
  bool too_long_ = false;
  bool in_tree_ = false;  // between `proof` and `end`
  bool part_ = false;
  std::vector<uint32_t> hall_rows_;
  const std::vector<uint8_t> no_bits_;
};

}  // namespace nqueens::checker

#endif  // NQUEENS_CHECKER_TEXT_READER_H_
