// Writes the tree that a walk checks in the text format
// (docs/reference/certificates.md, "Text format"), whatever format it was
// read in, in pieces of about kFlushBytes: a binary certificate made
// readable (the checker's --text).
#ifndef NQUEENS_CHECKER_TEXT_WRITER_H_
#define NQUEENS_CHECKER_TEXT_WRITER_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "checker/composition.h"
#include "checker/tree_items.h"

namespace nqueens::checker {

class TextWriter {
 public:
  // `sink` receives the text; both must outlive the writer.
  TextWriter(const Composition& composition, const std::function<void(absl::string_view)>& sink)
      : composition_(composition), sink_(sink) {}
  // Hands what is left to the sink: the text up to an error, if any.
  ~TextWriter() { Flush(); }
  TextWriter(const TextWriter&) = delete;
  TextWriter& operator=(const TextWriter&) = delete;

  // Lines are free indices.
  void Header(const Header& header) {
    Append("nqueens-certificate 1\nn ", composition_.n(), "\ngiven ", composition_.given(), "\n");
    if (header.part_count >= 2) Append("part ", header.part_index, " ", header.part_count, "\n");
    Append("proof\n");
  }
  void Branch(bool by_row, uint32_t line, uint64_t children) {
    Append("b ", by_row ? "r " : "c ", Board(by_row, line), " ", children, "\n");
  }
  void Place(uint32_t a, uint32_t b) {
    Append("p ", composition_.Row(a), " ", composition_.Column(b), "\n");
  }
  void Empty(bool by_row, uint32_t line) {
    Append("e ", by_row ? "r " : "c ", Board(by_row, line), "\n");
  }
  void Sums() { Append("s\n"); }
  void Hall(const std::vector<uint32_t>& rows);
  void Other() { Append("x\n"); }
  void End() {
    Append("end\n");
    Flush();
  }

 private:
  static constexpr size_t kFlushBytes = size_t{64} << 10;

  uint32_t Board(bool row, uint32_t line) const {
    return row ? composition_.Row(line) : composition_.Column(line);
  }
  template <typename... Pieces>
  void Append(const Pieces&... pieces) {
    absl::StrAppend(&text_, pieces...);
    if (text_.size() >= kFlushBytes) Flush();
  }
  void Flush() {
    if (!text_.empty()) sink_(text_);
    text_.clear();
  }

  const Composition& composition_;
  const std::function<void(absl::string_view)>& sink_;
  std::string text_;
};

inline void TextWriter::Hall(const std::vector<uint32_t>& rows) {
  Append("h ", rows.size());
  for (const uint32_t a : rows) Append(" ", composition_.Row(a));
  Append("\n");
}

}  // namespace nqueens::checker

#endif  // NQUEENS_CHECKER_TEXT_WRITER_H_
