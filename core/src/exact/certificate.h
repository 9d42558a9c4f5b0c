// The exact search's proof of UNSOLVABLE, written as it searches: its tree
// in preorder, every leaf with the reason it is dead, in the text format that
// the independent checker reads (checker/certificate_check.h documents it).
// Written by the word engine (at most 64 free rows).
#ifndef NQUEENS_EXACT_CERTIFICATE_H_
#define NQUEENS_EXACT_CERTIFICATE_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "exact/free_board.h"

namespace nqueens::internal {

class CertificateWriter {
 public:
  // `given`: the composition's queens; lines are free indices of `board`.
  // A certificate longer than `max_bytes` is dropped (the verdict stands).
  CertificateWriter(const FreeBoard& board, uint64_t n, uint64_t given, size_t max_bytes);

  // Starts over, for a new run of the search.
  void Restart();
  void Branch(bool by_row, uint32_t line, uint32_t children);
  void Place(uint32_t a, uint32_t b);
  void Empty(bool row, uint32_t line);
  // Free rows (bit a: free row a) whose open cells lie in fewer columns.
  void Hall(uint64_t rows);

  // The certificate of a search that ended without a solution; nullopt when
  // it outgrew max_bytes.
  std::optional<std::string> Finish();
  size_t max_bytes() const { return max_bytes_; }

 private:
  template <typename... Pieces>
  void Append(const Pieces&... pieces);

  const FreeBoard& board_;
  const size_t max_bytes_;
  std::string header_;
  std::string text_;
  bool overflowed_ = false;
};

}  // namespace nqueens::internal

#endif  // NQUEENS_EXACT_CERTIFICATE_H_
