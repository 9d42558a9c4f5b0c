// An independent checker of the exact search's UNSOLVABLE certificates. It
// shares no code with the search (nor with the core library): it recomputes
// every open cell from the composition and the queens placed along the
// certificate's tree.
//
// The format (text, one record per line, tokens separated by one space,
// rows and columns 1-based board coordinates):
//
//   nqueens-certificate 1
//   n <n>                  the board's size
//   given <k>              the number of queens of the composition
//   part <i> <k>           only in the certificate of one part of a search
//                          cut into k parts (0 <= i < k, k >= 2; see below)
//   proof
//   <node>                 the root's subtree, in preorder
//   end
//
// A node is one of:
//   b r <row> <m>          a branch on unplaced row <row>, which has m open
//                          cells; m children follow, each a line
//                          `p <row> <column>` (a queen on one of those open
//                          cells, each once, in any order) and then its
//                          node.
//   b c <column> <m>       the same on unplaced column <column>, children
//                          `p <row> <column>`.
//   e r <row>              a leaf: unplaced row <row> has no open cell.
//   e c <column>           a leaf: unplaced column <column> has no open cell.
//   h <m> <row>...         a leaf: these m unplaced rows have open cells in
//                          fewer than m columns together (Hall's condition
//                          fails: they cannot all take a queen).
//   x                      a leaf, in a part's certificate only: another
//                          part's certificate proves this subtree.
//
// A cell is open at a node when its row and its column hold no queen (of the
// composition or placed on the path from the root) and no such queen shares
// one of its diagonals. Every leaf leaves some row without a queen, and every
// branch covers every way of filling its line, so a certificate that checks
// proves that the composition has no completion.
//
// A part's certificate proves its share alone: its `x` leaves are the other
// parts' (docs/parts.md, "Complete, method EXACT"). A set of certificates
// proves the whole when each one checks, and every `x` leaf's node (the set
// of queens placed on its path, which alone decides what is open below it)
// is a node of another certificate of the set whose subtree has no `x` leaf.
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

// OK when `certificate` proves that `columns` (the composition: the column
// of each row's queen, 1-based, 0 for an empty row) has no completion;
// otherwise INVALID_ARGUMENT naming the certificate's first wrong line, its
// byte offset and, in the tree, the node's path from the root (the queens
// placed down to it), and what is wrong there. A part's certificate alone is
// no proof (its first `x` leaf is named).
absl::Status CheckCertificate(const std::vector<uint32_t>& columns, absl::string_view certificate);

// Certificate `index` of a set, 0 .. count - 1: its text, which must stay
// valid until the next call.
using CertificateReader = std::function<absl::StatusOr<absl::string_view>(size_t index)>;

// What is wrong with a set of certificates, and in which one (its index).
struct SetVerdict {
  absl::Status status;
  size_t certificate = 0;
};

// OK when the `count` certificates that `read` gives prove together that
// `columns` has no completion (the rule above); otherwise INVALID_ARGUMENT
// as CheckCertificate's, or a reader's error as it is. Reads each
// certificate once, or twice when one has an `x` leaf (first to check each
// and collect the `x` leaves' nodes, then to find the nodes that prove
// them), one at a time; keeps nothing else between the reads.
SetVerdict CheckCertificateSet(const std::vector<uint32_t>& columns, size_t count,
                               const CertificateReader& read);

}  // namespace nqueens::checker

#endif  // NQUEENS_CHECKER_CERTIFICATE_CHECK_H_
