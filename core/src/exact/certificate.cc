#include "exact/certificate.h"

#include <utility>

#include "absl/numeric/bits.h"
#include "absl/strings/str_cat.h"

namespace nqueens::internal {

CertificateWriter::CertificateWriter(const FreeBoard& board, uint64_t n, uint64_t given,
                                     size_t max_bytes)
    : board_(board),
      max_bytes_(max_bytes),
      header_(absl::StrCat("nqueens-certificate 1\nn ", n, "\ngiven ", given, "\nproof\n")) {}

void CertificateWriter::Restart() {
  text_.clear();
  overflowed_ = false;
}

template <typename... Pieces>
void CertificateWriter::Append(const Pieces&... pieces) {
  if (overflowed_) return;
  absl::StrAppend(&text_, pieces...);
  if (header_.size() + text_.size() > max_bytes_) {
    overflowed_ = true;
    std::string().swap(text_);
  }
}

void CertificateWriter::Branch(bool by_row, uint32_t line, uint32_t children) {
  Append("b ", by_row ? "r " : "c ", by_row ? board_.row(line) : board_.column(line), " ", children,
         "\n");
}

void CertificateWriter::Place(uint32_t a, uint32_t b) {
  Append("p ", board_.row(a), " ", board_.column(b), "\n");
}

void CertificateWriter::Empty(bool row, uint32_t line) {
  Append("e ", row ? "r " : "c ", row ? board_.row(line) : board_.column(line), "\n");
}

void CertificateWriter::Hall(uint64_t rows) {
  Append("h ", absl::popcount(rows));
  for (; rows != 0; rows &= rows - 1) {
    Append(" ", board_.row(static_cast<uint32_t>(absl::countr_zero(rows))));
  }
  Append("\n");
}

std::optional<std::string> CertificateWriter::Finish() {
  if (overflowed_) return std::nullopt;
  return absl::StrCat(header_, text_, "end\n");
}

}  // namespace nqueens::internal
