// UNSOLVABLE certificates, checked by the independent checker (checker/),
// which must also reject every tampered one.
#include "exact/certificate.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "base/stop_poller.h"
#include "checker/certificate_check.h"
#include "exact/exact_search.h"
#include "exact/free_board.h"
#include "exact/search_engines.h"
#include "gtest/gtest.h"
#include "nqueens/solver.h"
#include "test_boards.h"

namespace nqueens::internal {
namespace {

const StopCondition kNever;

// The certificates of the unsolvable ones among random compositions near the
// completion threshold (n ~ 0.19 d^2).
std::vector<std::pair<Columns, std::string>> Certificates(uint32_t n, uint32_t free_rows,
                                                          uint32_t count) {
  std::vector<std::pair<Columns, std::string>> proofs;
  for (uint32_t seed = 1; seed <= count; ++seed) {
    const Columns composition = test_boards::RandomComposition(n, n - free_rows, seed);
    StopPoller stop(kNever);
    absl::StatusOr<ExactResult> result = ExactComplete(composition, {}, stop, {}, size_t{1} << 30);
    EXPECT_TRUE(result.ok()) << result.status();
    if (!result.ok() || result->verdict != ExactVerdict::kUnsolvable) continue;
    EXPECT_TRUE(result->certificate.has_value()) << result->certificate_missing;
    if (result->certificate.has_value()) proofs.emplace_back(composition, *result->certificate);
  }
  return proofs;
}

TEST(CertificateTest, EveryProofChecks) {
  int checked = 0;
  for (const auto& [n, d] : std::vector<std::pair<uint32_t, uint32_t>>{{50, 16}, {100, 23}}) {
    for (const auto& [composition, certificate] : Certificates(n, d, 40)) {
      EXPECT_TRUE(checker::CheckCertificate(composition, certificate).ok())
          << checker::CheckCertificate(composition, certificate) << "\n"
          << certificate;
      ++checked;
    }
  }
  EXPECT_GT(checked, 20);
}

// Every mutant of a proof's tree (each node or leaf line dropped, repeated,
// or with its last number one higher) is rejected; returns how many lines
// were mutated.
int ExpectEveryMutantRejected(const Columns& composition, const std::string& certificate) {
  const std::vector<std::string> lines = absl::StrSplit(certificate, '\n');
  const auto rejected = [&](const std::vector<std::string>& mutant, const std::string& how) {
    EXPECT_FALSE(checker::CheckCertificate(composition, absl::StrJoin(mutant, "\n")).ok()) << how;
  };
  int mutated = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    // The tree's lines: a one-letter kind, then numbers.
    if (lines[i].size() < 3 || lines[i][1] != ' ' ||
        std::string("bpeh").find(lines[i][0]) == std::string::npos) {
      continue;
    }
    const auto at = static_cast<std::ptrdiff_t>(i);
    std::vector<std::string> cut = lines;
    cut.erase(cut.begin() + at);
    rejected(cut, "without line " + std::to_string(i + 1) + ": " + lines[i]);
    std::vector<std::string> twice = lines;
    twice.insert(twice.begin() + at, lines[i]);
    rejected(twice, "with line " + std::to_string(i + 1) + " twice: " + lines[i]);
    std::vector<std::string> changed = lines;
    const size_t space = changed[i].rfind(' ');
    changed[i] = changed[i].substr(0, space + 1) +
                 std::to_string(std::stoull(changed[i].substr(space + 1)) + 1);
    rejected(changed, "line " + std::to_string(i + 1) + " changed to " + changed[i]);
    ++mutated;
  }
  return mutated;
}

TEST(CertificateTest, TheCheckerRejectsTamperedProofs) {
  // A proof with a branch: its tree has more than a leaf.
  std::vector<std::pair<Columns, std::string>> proofs = Certificates(100, 23, 40);
  const auto branching = std::find_if(proofs.begin(), proofs.end(), [](const auto& proof) {
    return proof.second.find("\nb ") != std::string::npos;
  });
  ASSERT_NE(branching, proofs.end());
  const Columns& composition = branching->first;
  EXPECT_GT(ExpectEveryMutantRejected(composition, branching->second), 3);
  // The proof is not one for another board.
  Columns other = composition;
  for (uint32_t& column : other) {
    if (column != kEmptyRow) {
      column = kEmptyRow;
      break;
    }
  }
  EXPECT_FALSE(checker::CheckCertificate(other, branching->second).ok());
}

TEST(CertificateTest, CompleteReturnsTheProofOrWhyThereIsNone) {
  // 2 x 2: unsolvable, with a certificate.
  CompleteOptions options;
  options.want_certificate = true;
  absl::StatusOr<CompletionResult> two = Complete(Columns(2, kEmptyRow), options);
  ASSERT_TRUE(two.ok());
  ASSERT_EQ(two->outcome, Outcome::kUnsolvable);
  ASSERT_TRUE(two->certificate.has_value());
  EXPECT_TRUE(checker::CheckCertificate(Columns(2, kEmptyRow), *two->certificate).ok());
  // Too long for its limit: why there is none.
  options.certificate_max_bytes = 10;
  absl::StatusOr<CompletionResult> small = Complete(Columns(2, kEmptyRow), options);
  ASSERT_TRUE(small.ok());
  EXPECT_FALSE(small->certificate.has_value());
  EXPECT_NE(small->certificate_missing.find("outgrew its limit of 10 bytes"), std::string::npos);
  // Without the request: none.
  absl::StatusOr<CompletionResult> plain = Complete(Columns(3, kEmptyRow));
  ASSERT_TRUE(plain.ok());
  EXPECT_FALSE(plain->certificate.has_value());
}

// Above 64 free rows the trail engine searches (and above 1,024 the large
// one): their proofs check too, and so does every mutant's rejection.
TEST(CertificateTest, BoardsOverSixtyFourFreeRowsGetProofsThatCheck) {
  // 76 and 100 free rows near the threshold (n ~ 0.35 d^2): many are
  // unsolvable.
  int checked = 0, branching = 0;
  for (const auto& [n, d] : std::vector<std::pair<uint32_t, uint32_t>>{{2000, 76}, {3500, 100}}) {
    for (const auto& [composition, certificate] : Certificates(n, d, 8)) {
      EXPECT_TRUE(checker::CheckCertificate(composition, certificate).ok())
          << checker::CheckCertificate(composition, certificate);
      ++checked;
      // The first proof with a branch, mutated.
      if (certificate.find("\nb ") != std::string::npos && branching++ == 0) {
        EXPECT_GT(ExpectEveryMutantRejected(composition, certificate), 3);
      }
    }
  }
  EXPECT_GT(checked, 0);
  EXPECT_GT(branching, 0);
}

// The large engine, which takes boards of more than 1,024 free rows, on
// boards small enough to prove quickly: the same proofs.
TEST(CertificateTest, TheLargeEngineWritesProofsThatCheck) {
  int checked = 0;
  for (uint32_t seed = 1; seed <= 8; ++seed) {
    const Columns composition = test_boards::RandomComposition(2000, 2000 - 76, seed);
    StopPoller stop(kNever);
    absl::StatusOr<FreeBoard> board = FreeBoard::Build(composition, stop);
    ASSERT_TRUE(board.ok());
    CertificateWriter writer(board->rows(), board->columns(), size_t{1} << 30);
    const SearchOutcome outcome = RunLargeSearch(*board, UINT64_MAX, stop, seed, &writer);
    if (outcome.solutions > 0) continue;
    ASSERT_EQ(outcome.explored, 1.0);
    std::optional<std::string> tree = writer.Finish();
    ASSERT_TRUE(tree.has_value());
    const std::string certificate =
        CertificateHeader(composition.size(), composition.size() - board->size(), {}) + *tree +
        std::string(kCertificateEnd);
    EXPECT_TRUE(checker::CheckCertificate(composition, certificate).ok())
        << checker::CheckCertificate(composition, certificate);
    ++checked;
  }
  EXPECT_GT(checked, 0);
}

}  // namespace
}  // namespace nqueens::internal
