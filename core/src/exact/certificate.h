// The exact search's proof of UNSOLVABLE, written as it searches: its tree
// in preorder, every leaf with the reason it is dead, in either format of
// docs/reference/certificates.md (the independent checker, checker/, reads
// both). Written by every engine, for any number of free rows, on one thread
// or many: a search on several threads writes each subtree with its own
// writer and joins them into the tree's slots.
#ifndef NQUEENS_EXACT_CERTIFICATE_H_
#define NQUEENS_EXACT_CERTIFICATE_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/types/span.h"
#include "nqueens/parts.h"
#include "nqueens/solver.h"

namespace nqueens::internal {

// The certificate a search is asked for: none when max_bytes is 0.
// `reserve_memory`, when set, is asked for each step of memory the
// certificate grows by (CompleteOptions::reserve_memory: a server's budget).
struct CertificateWanted {
  CertificateFormat format = CertificateFormat::kBinary;
  size_t max_bytes = 0;
  std::function<absl::Status(uint64_t bytes)> reserve_memory;
};

// The memory that the trees of one search's writers hold together (one
// writer per thread), reserved of `reserve` (none: no limit) a step ahead as
// they grow. Once a step is refused every writer drops its tree, and
// WhyDropped() says why.
class CertificateMemory {
 public:
  explicit CertificateMemory(std::function<absl::Status(uint64_t bytes)> reserve)
      : reserve_(std::move(reserve)) {}

  // Whether `bytes` more may be held.
  bool Hold(uint64_t bytes);
  // `bytes` no longer held: a run's tree dropped at a restart.
  void Release(uint64_t bytes);
  bool refused() const { return refused_.load(std::memory_order_relaxed); }
  // Why a dropped certificate is missing: the refusal, or else that it
  // outgrew its limit of `max_bytes`.
  std::string WhyDropped(size_t max_bytes) const;

 private:
  // The least step asked for: few calls to `reserve` for a long tree.
  static constexpr uint64_t kMinStep = uint64_t{1} << 20;

  const std::function<absl::Status(uint64_t bytes)> reserve_;
  mutable absl::Mutex mutex_;
  uint64_t held_ ABSL_GUARDED_BY(mutex_) = 0;
  uint64_t reserved_ ABSL_GUARDED_BY(mutex_) = 0;
  absl::Status refused_status_ ABSL_GUARDED_BY(mutex_);
  std::atomic<bool> refused_{false};
};

// Writes a proof tree, the part of a certificate between its header and its
// end (CertificateHeader, CertificateEnd).
class CertificateWriter {
 public:
  // Lines are free indices: free row a is board row rows[a], free column b
  // board column columns[b] (FreeBoard::rows(), columns(); both must outlive
  // the writer). A tree longer than `max_bytes` is dropped (the verdict
  // stands), as is one that `memory` (null: none) refuses to hold.
  CertificateWriter(CertificateFormat format, absl::Span<const uint32_t> rows,
                    absl::Span<const uint32_t> columns, size_t max_bytes,
                    CertificateMemory* memory = nullptr);

  // Starts over, for a new run of the search (the ranks stay in force).
  void Restart();
  // The subtree that follows branches on the line that these ranks choose
  // (rank of free row a: row_ranks[a]; line_ranks.h); the binary format then
  // writes no branch's line. RankedAbove: an enclosing tree said so already.
  void Ranked(absl::Span<const uint32_t> row_ranks, absl::Span<const uint32_t> column_ranks);
  void RankedAbove() { ranked_ = true; }
  // Whether the binary format writes the ranked subtrees that start from
  // here on in bits (on at first): a tree with slots is written in bytes
  // above them, since a slot cannot stand inside a packed subtree.
  void Packing(bool on) { packing_ = on; }

  // A branch on a line; before its first Place, each of its cells (a, b)
  // once, through Child (they may not be placed in the order they come).
  void Branch(bool by_row, uint32_t line, uint32_t children);
  void Child(uint32_t a, uint32_t b);
  void Place(uint32_t a, uint32_t b);
  // Dead leaves: an unplaced line without open cells; the diagonal sums.
  void Empty(bool row, uint32_t line);
  void DiagonalSums();
  // Free rows whose open cells lie in fewer columns, of the node's unplaced
  // ones: as sets (bit a: free row a), or listed.
  void Hall(uint64_t rows, uint64_t unplaced);
  void Hall(absl::Span<const uint32_t> rows, absl::Span<const uint32_t> unplaced);
  // A leaf that another part's certificate proves (exact_split.h).
  void Other();
  // A subtree written elsewhere (a writer of the same format, within this
  // one's ranks) goes here: its number, for FillSlot.
  size_t Slot();
  // Slot `slot`'s subtree: that writer's Finish(), or nullopt when it
  // outgrew its limit (then so does this tree).
  void FillSlot(size_t slot, std::optional<std::string> subtree);
  void Embed(std::optional<std::string> subtree) { FillSlot(Slot(), std::move(subtree)); }
  // A writer of a subtree for one of this one's slots.
  CertificateWriter SlotWriter() const;

  // The tree of a search that ended without a solution, between `header`
  // and `end` (CertificateHeader, CertificateEnd: a whole certificate);
  // nullopt when it outgrew max_bytes or the memory. The memory holds the
  // tree twice while its pieces are copied into one string.
  std::optional<std::string> Finish(absl::string_view header = {}, absl::string_view end = {});

 private:
  // A branch whose children are still being placed (until its last one).
  // The binary format's are the other coordinates of its cells not placed
  // yet: the bits of `cells_left` on boards of at most 64 free rows, else
  // ascending in cells_left_[first, first + children_left), the end of
  // cells_left_ for the innermost branch.
  struct OpenBranch {
    uint64_t cells_left;
    size_t first;
    uint32_t children_left;
    bool by_row;
  };
  // Of a child of the open branch: its index among the cells left, which
  // it takes.
  uint32_t TakeCell(OpenBranch& branch, uint32_t other);

  void Tag(uint8_t tag) { raw_.push_back(static_cast<char>(tag)); }
  // A node of the binary format where a packed subtree may go: starts one
  // there if none is open; true when the node goes in bits.
  bool InBits();
  // The low `count` bits of `value`, lowest first.
  void Bits(uint64_t value, int count);
  // After a leaf: ends the packed subtree if the leaf was its last node.
  void LeafDone();
  void Varint(uint64_t value);
  template <typename... Pieces>
  void Text(const Pieces&... pieces);
  // A leaf: its tag in the binary format, its line in the text one.
  template <typename... Pieces>
  void Leaf(uint8_t tag, const Pieces&... text);
  // Moves the raw bytes into the tree: one compressed frame when binary;
  // MaybeFlush once they fill a frame.
  void Flush();
  void MaybeFlush();
  // `bytes` more in the tree, of which `taken_over` (a slot's subtree) some
  // other writer of this search already held.
  void Count(size_t bytes, size_t taken_over = 0);
  // Of memory_, when there is one (without, any size is held).
  bool Hold(size_t bytes) { return memory_ == nullptr || memory_->Hold(bytes); }
  void Release(size_t bytes) {
    if (memory_ != nullptr) memory_->Release(bytes);
  }
  // Drops the tree: it outgrew max_bytes or the memory.
  void Overflow();

  const CertificateFormat format_;
  const absl::Span<const uint32_t> rows_, columns_;
  const size_t max_bytes_;
  CertificateMemory* const memory_;
  const bool word_lines_;  // at most 64 free rows: OpenBranch::cells_left
  bool ranked_ = false;
  bool packing_ = true;
  // The packed subtree being written: open, the branches open above it, and
  // the bits not yet in a whole byte.
  bool in_bits_ = false;
  size_t bits_above_ = 0;
  uint64_t bits_ = 0;
  int bit_count_ = 0;
  bool overflowed_ = false;
  std::string raw_;                  // written since the last Flush
  std::vector<std::string> pieces_;  // the tree so far; a slot is an empty piece
  size_t bytes_ = 0;                 // in pieces_ and raw_
  size_t held_ = 0;                  // of memory_, for pieces_ (until Finish hands them over)
  std::vector<OpenBranch> branches_;
  std::vector<uint32_t> cells_left_;
};

// A certificate's bytes before its tree: of the whole search of a
// composition with `given` queens on the n x n board, or of one part of it.
std::string CertificateHeader(CertificateFormat format, uint64_t n, uint64_t given,
                              const PartSelector& part);
// Its bytes after the tree.
std::string CertificateEnd(CertificateFormat format);

}  // namespace nqueens::internal

#endif  // NQUEENS_EXACT_CERTIFICATE_H_
