#include "exact/exact_part.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "exact/certificate.h"
#include "exact/exact_split.h"
#include "exact/free_board.h"
#include "exact/search_engines.h"

namespace nqueens::internal {
namespace {

// A part's certificate in the making: its nodes' proofs, kept until the
// split's top tree is written around them.
class PartCertificate {
 public:
  // For the part of the composition of `board` (n x n); none is written
  // when wanted.max_bytes is 0.
  PartCertificate(const PartSelector& part, const FreeBoard& board, uint64_t n,
                  const CertificateWanted& wanted)
      : part_(part),
        board_(board),
        format_(wanted.format),
        max_bytes_(wanted.max_bytes),
        writing_(max_bytes_ > 0),
        memory_(wanted.reserve_memory),
        header_(writing_ ? CertificateHeader(format_, n, n - board.size(), part) : ""),
        tree_max_bytes_(max_bytes_ - std::min(max_bytes_, header_.size())) {}

  // The writer of the next node's proof, or null when none is written.
  CertificateWriter* Writer() {
    if (!writing_) return nullptr;
    writer_.emplace(format_, board_.rows(), board_.columns(), tree_max_bytes_ - proof_bytes_,
                    &memory_);
    return &*writer_;
  }

  // Keeps the proof of the node just proved.
  void Proved() {
    if (!writing_) return;
    std::optional<std::string> proof = writer_->Finish();
    if (!proof.has_value()) {  // the certificate outgrew its limit
      writing_ = false;
      proofs_.clear();
      return;
    }
    proof_bytes_ += proof->size();
    proofs_.push_back(*std::move(proof));
  }

  // Once every node of the part is proved: the certificate in `result`, or
  // why there is none.
  void Finish(const ExactSplit& split, ExactResult& result) {
    if (max_bytes_ == 0) return;
    std::optional<std::string> whole;
    if (writing_) {
      CertificateWriter top(format_, board_.rows(), board_.columns(), tree_max_bytes_, &memory_);
      split.WriteTree(top, [this](uint64_t node, CertificateWriter& writer) {
        if (node % part_.count != part_.index) {
          writer.Other();
          return;
        }
        // Each proof goes as the certificate grows, which halves the peak.
        writer.Embed(std::move(proofs_[node / part_.count]));
      });
      whole = top.Finish(header_, CertificateEnd(format_));
    }
    if (!whole.has_value()) {
      result.certificate_missing = memory_.WhyDropped(max_bytes_);
      return;
    }
    result.certificate = std::move(whole);
  }

 private:
  const PartSelector part_;
  const FreeBoard& board_;
  const CertificateFormat format_;
  const size_t max_bytes_;
  bool writing_;
  CertificateMemory memory_;  // of the nodes' proofs
  const std::string header_;
  const size_t tree_max_bytes_;
  std::optional<CertificateWriter> writer_;
  std::vector<std::string> proofs_;  // of the part's nodes, in order
  size_t proof_bytes_ = 0;
};

// How many of `nodes` nodes belong to `part`.
uint64_t PartNodes(uint64_t nodes, const PartSelector& part) {
  return nodes > part.index ? (nodes - part.index - 1) / part.count + 1 : 0;
}

}  // namespace

// The nodes are subtrees of the composition's own tree, so that their
// searches keep its bounds and tie-breaks: the diagonal sums of a square
// hole hold for the hole, not for a board rebuilt with the node's queens.
absl::StatusOr<ExactResult> ExactCompletePart(
    absl::Span<const uint32_t> composition, const PartSelector& part, const ExactBudget& budget,
    StopPoller& stop, const SearchThreads& threads, const CertificateWanted& wanted,
    const std::function<absl::Status(uint64_t bytes)>& reserve_memory) {
  absl::StatusOr<FreeBoard> board = FreeBoard::Build(composition, stop);
  if (!board.ok()) return board.status();
  absl::StatusOr<ExactSplit> split = ExactSplit::Make(*board, part.count, stop, reserve_memory);
  if (!split.ok()) return split.status();
  const uint64_t nodes = PartNodes(split->node_count(), part);
  PartCertificate certificate(part, *board, composition.size(), wanted);
  SubtreeSearch how;
  how.threads = threads;
  // All parts' restarts together spend what the whole's would.
  how.last_run_from = kLastRunFromNodes / std::max<uint64_t>(split->node_count(), 1);
  ExactResult result;
  uint64_t proved = 0;
  for (uint64_t node = part.index; node < split->node_count(); node += part.count) {
    if (result.nodes >= budget.nodes) {
      result.verdict = ExactVerdict::kBudgetExhausted;
      result.explored = 0;  // of this node, not yet started
      break;
    }
    how.certificate = certificate.Writer();
    if (absl::Status status =
            SearchSubtree(composition, *board, split->Prefix(node), budget, how, stop, result);
        !status.ok()) {
      return status;
    }
    if (result.verdict != ExactVerdict::kUnsolvable) break;
    certificate.Proved();
    ++proved;
  }
  if (proved < nodes) {
    result.explored = (static_cast<double>(proved) + result.explored) / static_cast<double>(nodes);
    return result;
  }
  result.verdict = ExactVerdict::kUnsolvable;
  result.explored = 1;
  certificate.Finish(*split, result);
  return result;
}

}  // namespace nqueens::internal
