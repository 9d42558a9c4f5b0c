// The exact search's proof of UNSOLVABLE, written as it searches: its tree
// in preorder, every leaf with the reason it is dead, in the text format that
// the independent checker reads (checker/certificate_check.h documents it).
// Written by every engine, for any number of free rows.
#ifndef NQUEENS_EXACT_CERTIFICATE_H_
#define NQUEENS_EXACT_CERTIFICATE_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "nqueens/parts.h"

namespace nqueens::internal {

// Writes a proof tree, the part of a certificate between `proof` and `end`.
class CertificateWriter {
 public:
  // Lines are free indices: free row a is board row rows[a], free column b
  // board column columns[b] (FreeBoard::rows(), columns(); both must outlive
  // the writer). A tree longer than `max_bytes` is dropped (the verdict
  // stands).
  CertificateWriter(absl::Span<const uint32_t> rows, absl::Span<const uint32_t> columns,
                    size_t max_bytes);

  // Starts over, for a new run of the search.
  void Restart();
  void Branch(bool by_row, uint32_t line, uint32_t children);
  void Place(uint32_t a, uint32_t b);
  void Empty(bool row, uint32_t line);
  // Free rows whose open cells lie in fewer columns: as a set (bit a: free
  // row a), or listed.
  void Hall(uint64_t rows);
  void Hall(absl::Span<const uint32_t> rows);
  // A leaf that another part's certificate proves (exact_split.h).
  void Other();
  // A subtree: another writer's tree (Finish()), whose lines name board
  // coordinates already.
  void Embed(absl::string_view tree);

  // The tree of a search that ended without a solution; nullopt when it
  // outgrew max_bytes.
  std::optional<std::string> Finish();
  // The bytes written so far.
  size_t size() const { return text_.size(); }

 private:
  template <typename... Pieces>
  void Append(const Pieces&... pieces);

  const absl::Span<const uint32_t> rows_, columns_;
  const size_t max_bytes_;
  std::string text_;
  bool overflowed_ = false;
};

// A certificate's lines before its tree: of the whole search of a composition
// with `given` queens on the n x n board, or of one part of it.
std::string CertificateHeader(uint64_t n, uint64_t given, const PartSelector& part);
// Its line after the tree.
inline constexpr absl::string_view kCertificateEnd = "end\n";

// Why a certificate of at most max_bytes is missing: it outgrew them.
std::string CertificateOutgrew(size_t max_bytes);

}  // namespace nqueens::internal

#endif  // NQUEENS_EXACT_CERTIFICATE_H_
