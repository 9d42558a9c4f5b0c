// A program outside the tree that uses the installed core library: it
// completes the composition given on the command line (n, then row:column
// pairs, 1-based) and checks the answer with the validator.
//
//   embed_example 8 1:1 2:5
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "nqueens/board.h"
#include "nqueens/seed.h"
#include "nqueens/solver.h"
#include "nqueens/validate.h"

namespace {

int Fail(const std::string& message) {
  std::fprintf(stderr, "embed_example: %s\n", message.c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return Fail("usage: embed_example N [ROW:COLUMN ...]");
  const uint64_t n = std::strtoull(argv[1], nullptr, 10);
  std::vector<nqueens::Queen> queens;
  for (int i = 2; i < argc; ++i) {
    unsigned row = 0, column = 0;
    if (std::sscanf(argv[i], "%u:%u", &row, &column) != 2) {
      return Fail(std::string("not ROW:COLUMN: ") + argv[i]);
    }
    queens.push_back({row, column});
  }
  absl::Status size = nqueens::CheckBoardSize(n);
  if (!size.ok()) return Fail(size.ToString());
  absl::StatusOr<nqueens::Columns> board = nqueens::DenseFromQueens(n, queens);
  if (!board.ok()) return Fail(board.status().ToString());

  nqueens::CompleteOptions options;
  options.seed = nqueens::FreshSeed();
  absl::StatusOr<nqueens::CompletionResult> result = nqueens::Complete(*board, options);
  if (!result.ok()) return Fail(result.status().ToString());
  std::printf("%s (seed %llu)\n", nqueens::OutcomeName(result->outcome),
              static_cast<unsigned long long>(options.seed));
  if (result->outcome != nqueens::Outcome::kSolved) return 0;

  absl::StatusOr<nqueens::ValidationReport> report = nqueens::Validate(result->columns);
  if (!report.ok()) return Fail(report.status().ToString());
  if (!report->complete) return Fail("the completion does not validate");
  for (uint64_t row = 0; row < n && n <= 32; ++row) {
    std::printf("%u%c", result->columns[row], row + 1 == n ? '\n' : ' ');
  }
  return 0;
}
