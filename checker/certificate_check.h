// An independent checker of the exact search's UNSOLVABLE certificates. It
// shares no code with the search (nor with the core library): it recomputes
// every open cell from the composition and the queens placed along the
// certificate's tree.
//
// docs/reference/certificates.md specifies the two formats, which the
// checker tells apart by their first bytes: the binary one (magic
// "NQCERT\r\n", a header, then zlib frames holding the tree in preorder,
// free indices, dead leaves without their reason and branches on the line
// that `ranked` nodes' ranks choose) and the text one (one record per line,
// board coordinates, every leaf with its reason).
//
// A certificate streams: the checker reads it through a ByteSource, a chunk
// at a time, and never holds more than a chunk, a 64 KiB buffer of the
// inflated tree and O(d) per depth of the path (d free rows). Its tree walk
// is iterative, so a path as deep as d = 65,536 is no problem; boards of at
// most 64 free rows keep each line's open cells in a word.
//
// A part's certificate proves its share alone: its other leaves (`x` in the
// text format) are the other parts'. A set of certificates proves the whole
// when each one checks, and every other leaf's node (the set of queens placed
// on its path, which alone decides what is open below it) is a node of
// another certificate of the set whose subtree has no other leaf. The set may
// mix formats.
#ifndef NQUEENS_CHECKER_CERTIFICATE_CHECK_H_
#define NQUEENS_CHECKER_CERTIFICATE_CHECK_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace nqueens::checker {

// The next chunk of a certificate's bytes, valid until the next call; an
// empty chunk at the end. An error ends the reading and is the check's
// verdict as it is.
using ByteSource = std::function<absl::StatusOr<absl::string_view>()>;

// A source for certificate `index` of a set (0 .. count - 1), from its first
// byte. Called once per reading of the certificate.
using CertificateOpener = std::function<absl::StatusOr<ByteSource>(size_t index)>;

// Certificate `index` of a set whole: its bytes, which must stay valid until
// the next call.
using CertificateReader = std::function<absl::StatusOr<absl::string_view>(size_t index)>;

// A source giving `bytes` (which must outlive it) in one chunk.
ByteSource SourceOf(absl::string_view bytes);

struct CheckOptions {
  // When set, receives each certificate's tree in the text format, in pieces,
  // as the first reading checks it (the text up to an error, if any): a
  // binary certificate made readable.
  std::function<void(absl::string_view)> text;
  // Tests: check on the board of more than 64 free rows whatever d, to test
  // it against the other on small boards.
  bool wide_board = false;
  // Threads that check each certificate's framed subtrees (a binary one's
  // whose search ran on several threads): each reads the certificate from
  // the opener of its own, so memory grows with them. Not with `text`, and
  // not while proving a set's other leaves.
  int threads = 1;
};

// What is wrong with a set of certificates, and in which one (its index).
struct SetVerdict {
  absl::Status status;
  size_t certificate = 0;
};

// OK when the `count` certificates that `open` gives prove together that
// `columns` (the composition: the column of each row's queen, 1-based, 0 for
// an empty row) has no completion; otherwise INVALID_ARGUMENT naming the
// certificate's first wrong item (the text format: its line and byte offset;
// the binary one: the offset in the tree stream and the frame's offset, or
// the certificate's byte offset outside the tree), in the tree the node's
// path from the root (the queens placed down to it), and what is wrong
// there; or a source's error as it is. Reads each certificate once, or twice
// when one has an other leaf (first to check each and collect the other
// leaves' nodes, then to find the nodes that prove them), one at a time;
// keeps nothing else between the readings.
SetVerdict CheckCertificateSet(const std::vector<uint32_t>& columns, size_t count,
                               const CertificateOpener& open, const CheckOptions& options = {});
// The same with each certificate in memory.
SetVerdict CheckCertificateSet(const std::vector<uint32_t>& columns, size_t count,
                               const CertificateReader& read);

// One certificate alone (a part's certificate alone is no proof: its first
// other leaf is named).
absl::Status CheckCertificate(const std::vector<uint32_t>& columns, absl::string_view certificate);

}  // namespace nqueens::checker

#endif  // NQUEENS_CHECKER_CERTIFICATE_CHECK_H_
