// The certificate checker (checker/certificate_check.h), the program a
// reader of an UNSOLVABLE answer trusts, on arbitrary certificates.
//
// Input: byte 0 gives n = 1 + byte % 10; the next n bytes the composition's
// columns (byte % (n + 1), 0 for an empty row); the rest is the certificate's
// text.
//
// Invariants:
//   - no crash, no sanitizer report, whatever the input;
//   - soundness: a certificate the checker accepts is for a composition that
//     truly has no completion (a brute force over every placement, n <= 10);
//   - a refusal is INVALID_ARGUMENT.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "checker/certificate_check.h"
#include "fuzz_check.h"

namespace {

constexpr uint32_t kMaxN = 10;

bool Attack(uint32_t row_a, uint32_t column_a, uint32_t row_b, uint32_t column_b) {
  const int64_t rows = int64_t{row_a} - row_b, columns = int64_t{column_a} - column_b;
  return columns == 0 || rows == columns || rows == -columns;
}

// Whether rows `row`.. of `columns` (0: empty) can be filled so that no two
// queens of the whole board attack each other.
bool Completes(std::vector<uint32_t>& columns, uint32_t row) {
  const uint32_t n = static_cast<uint32_t>(columns.size());
  if (row == n) return true;
  const uint32_t given = columns[row];
  for (uint32_t column = given == 0 ? 1 : given; column <= (given == 0 ? n : given); ++column) {
    bool open = true;
    for (uint32_t other = 0; other < n && open; ++other) {
      if (other != row && columns[other] != 0 && Attack(other, columns[other], row, column)) {
        open = false;
      }
    }
    if (!open) continue;
    columns[row] = column;
    const bool completes = Completes(columns, row + 1);
    columns[row] = given;
    if (completes) return true;
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const uint32_t n = 1 + data[0] % kMaxN;
  if (size < 1 + size_t{n}) return 0;
  std::vector<uint32_t> columns(n);
  for (uint32_t row = 0; row < n; ++row) columns[row] = data[1 + row] % (n + 1);
  const absl::string_view certificate(reinterpret_cast<const char*>(data) + 1 + n, size - 1 - n);
  const absl::Status verdict = nqueens::checker::CheckCertificate(columns, certificate);
  if (!verdict.ok()) {
    FUZZ_CHECK(verdict.code() == absl::StatusCode::kInvalidArgument, "refused with code %d",
               static_cast<int>(verdict.code()));
    return 0;
  }
  // Accepted: the board must have no completion. (A composition whose given
  // queens attack each other has none either.)
  FUZZ_CHECK(!Completes(columns, 0), "an accepted certificate for a board that completes");
  return 0;
}
