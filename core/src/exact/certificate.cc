#include "exact/certificate.h"

#include <utility>
#include <vector>

#include "absl/numeric/bits.h"
#include "absl/strings/str_cat.h"

namespace nqueens::internal {

CertificateWriter::CertificateWriter(absl::Span<const uint32_t> rows,
                                     absl::Span<const uint32_t> columns, size_t max_bytes)
    : rows_(rows), columns_(columns), max_bytes_(max_bytes) {}

void CertificateWriter::Restart() {
  text_.clear();
  overflowed_ = false;
}

template <typename... Pieces>
void CertificateWriter::Append(const Pieces&... pieces) {
  if (overflowed_) return;
  absl::StrAppend(&text_, pieces...);
  if (text_.size() > max_bytes_) {
    overflowed_ = true;
    std::string().swap(text_);
  }
}

void CertificateWriter::Branch(bool by_row, uint32_t line, uint32_t children) {
  Append("b ", by_row ? "r " : "c ", by_row ? rows_[line] : columns_[line], " ", children, "\n");
}

void CertificateWriter::Place(uint32_t a, uint32_t b) {
  Append("p ", rows_[a], " ", columns_[b], "\n");
}

void CertificateWriter::Empty(bool row, uint32_t line) {
  Append("e ", row ? "r " : "c ", row ? rows_[line] : columns_[line], "\n");
}

void CertificateWriter::Hall(uint64_t rows) {
  std::vector<uint32_t> listed;
  for (; rows != 0; rows &= rows - 1) listed.push_back(absl::countr_zero(rows));
  Hall(listed);
}

void CertificateWriter::Hall(absl::Span<const uint32_t> rows) {
  Append("h ", rows.size());
  for (const uint32_t a : rows) Append(" ", rows_[a]);
  Append("\n");
}

void CertificateWriter::Other() { Append("x\n"); }

void CertificateWriter::Embed(absl::string_view tree) { Append(tree); }

std::optional<std::string> CertificateWriter::Finish() {
  if (overflowed_) return std::nullopt;
  return std::move(text_);
}

std::string CertificateHeader(uint64_t n, uint64_t given, const PartSelector& part) {
  const std::string part_line =
      part.whole() ? "" : absl::StrCat("part ", part.index, " ", part.count, "\n");
  return absl::StrCat("nqueens-certificate 1\nn ", n, "\ngiven ", given, "\n", part_line,
                      "proof\n");
}

std::string CertificateOutgrew(size_t max_bytes) {
  return absl::StrCat("the certificate outgrew its limit of ", max_bytes, " bytes");
}

}  // namespace nqueens::internal
