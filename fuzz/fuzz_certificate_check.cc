// The certificate checker (checker/certificate_check.h), the program a
// reader of an UNSOLVABLE answer trusts, on arbitrary certificates in both
// formats (docs/reference/certificates.md).
//
// Input: byte 0 gives n = 1 + byte % 10 and, by byte / 10 % 3, what the rest
// is: 0 a certificate's bytes as they are (text or binary: the checker tells
// them apart); 1 a binary certificate's tree stream, which the harness wraps
// in the header of the whole search (version 3, whose nodes are version 2's
// and more) and in zlib frames, so that mutations reach the tree's parser
// past zlib's checksums; 2 the same for part 0 of 2, whose other leaves no
// certificate proves. The next n bytes are the composition's columns
// (byte % (n + 1), 0 for an empty row); in modes 1 and 2 the next byte gives
// the frames' size (1 + byte % 16 bytes of the tree stream each, or the
// whole stream in one frame from 128 on).
//
// Invariants:
//   - no crash, no sanitizer report, whatever the input;
//   - soundness: a certificate the checker accepts is for a composition that
//     truly has no completion (a brute force over every placement, n <= 10);
//   - a refusal is INVALID_ARGUMENT;
//   - both board representations (of at most 64 free rows, and of any
//     number) give the same verdict, to the message.
#include <zlib.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
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

void AppendVarint(std::string& out, uint64_t value) {
  for (; value >= 0x80; value >>= 7) out.push_back(static_cast<char>((value & 0x7f) | 0x80));
  out.push_back(static_cast<char>(value));
}

// A binary certificate around `tree`, in frames of `frame_bytes` of it.
std::string Wrapped(const std::vector<uint32_t>& columns, absl::string_view tree,
                    size_t frame_bytes, uint64_t part_count) {
  std::string certificate = "NQCERT\r\n";
  uint64_t given = 0;
  for (const uint32_t column : columns) given += column != 0 ? 1 : 0;
  for (const uint64_t field :
       {uint64_t{3}, uint64_t{columns.size()}, given, uint64_t{0}, part_count}) {
    AppendVarint(certificate, field);
  }
  for (size_t start = 0; start < tree.size() || start == 0; start += frame_bytes) {
    const absl::string_view piece = tree.substr(start, frame_bytes);
    uLongf size = compressBound(piece.size());
    std::string zlib(size, '\0');
    compress2(reinterpret_cast<Bytef*>(zlib.data()), &size,
              reinterpret_cast<const Bytef*>(piece.data()), piece.size(), 1);
    zlib.resize(size);
    AppendVarint(certificate, zlib.size());
    certificate += zlib;
  }
  AppendVarint(certificate, 0);
  return certificate;
}

absl::Status Check(const std::vector<uint32_t>& columns, absl::string_view certificate,
                   bool wide_board) {
  nqueens::checker::CheckOptions options;
  options.wide_board = wide_board;
  return nqueens::checker::CheckCertificateSet(
             columns, 1,
             [certificate](size_t) -> absl::StatusOr<nqueens::checker::ByteSource> {
               return nqueens::checker::SourceOf(certificate);
             },
             options)
      .status;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const uint32_t n = 1 + data[0] % kMaxN;
  const int mode = data[0] / kMaxN % 3;
  if (size < 1 + size_t{n} + (mode == 0 ? 0 : 1)) return 0;
  std::vector<uint32_t> columns(n);
  for (uint32_t row = 0; row < n; ++row) columns[row] = data[1 + row] % (n + 1);
  absl::string_view rest(reinterpret_cast<const char*>(data) + 1 + n, size - 1 - n);
  std::string certificate(rest);
  if (mode != 0) {
    const uint8_t frames = static_cast<uint8_t>(rest[0]);
    rest.remove_prefix(1);
    certificate = Wrapped(columns, rest, frames >= 128 ? rest.size() + 1 : 1 + frames % 16,
                          mode == 2 ? 2 : 0);
  }
  const absl::Status verdict = Check(columns, certificate, false);
  const absl::Status wide = Check(columns, certificate, true);
  FUZZ_CHECK(verdict == wide, "the boards disagree: \"%s\" and \"%s\"", verdict.ToString().c_str(),
             wide.ToString().c_str());
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
