// UNSOLVABLE certificates of every engine, in both formats, on one thread
// and two, checked by the independent checker (checker/), which must also
// reject every tampered one.
#include "exact/certificate.h"

#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "base/stop_poller.h"
#include "checker/certificate_check.h"
#include "compositions.h"
#include "counting_stop.h"
#include "exact/exact_search.h"
#include "exact/free_board.h"
#include "exact/line_ranks.h"
#include "exact/parallel_search.h"
#include "exact/search_engines.h"
#include "exact/word_search.h"
#include "gtest/gtest.h"
#include "nqueens/solver.h"
#include "test_boards.h"

namespace nqueens::internal {
namespace {

using test_stop::kNever;
constexpr CertificateFormat kBinary = CertificateFormat::kBinary;
constexpr CertificateFormat kText = CertificateFormat::kText;

struct Proof {
  Columns composition;
  std::string certificate;
};

// The exact search's certificate of `composition`, if it has no completion.
std::optional<std::string> Prove(const Columns& composition, CertificateFormat format,
                                 int threads = 1) {
  StopPoller stop(kNever);
  SearchThreads search_threads;
  search_threads.count = threads;
  absl::StatusOr<ExactResult> result =
      ExactComplete(composition, {}, stop, search_threads, {format, size_t{1} << 30, {}});
  EXPECT_TRUE(result.ok()) << result.status();
  if (!result.ok() || result->verdict != ExactVerdict::kUnsolvable) return std::nullopt;
  EXPECT_TRUE(result->certificate.has_value()) << result->certificate_missing;
  return result->certificate;
}

// The certificates of the unsolvable ones among random compositions near the
// completion threshold (n ~ 0.19 d^2 for the word engine, 0.35 d^2 above 64
// free rows).
std::vector<Proof> RandomProofs(uint32_t n, uint32_t free_rows, uint32_t count,
                                CertificateFormat format) {
  std::vector<Proof> proofs;
  for (uint32_t seed = 1; seed <= count; ++seed) {
    Columns composition = test_boards::RandomComposition(n, n - free_rows, seed);
    if (std::optional<std::string> proof = Prove(composition, format); proof.has_value()) {
      proofs.push_back({std::move(composition), *std::move(proof)});
    }
  }
  return proofs;
}

// Excluded Diagonals boards of Gent et al. (m x m, one diagonal excluded per
// row), the square holes on which the search also cuts by the diagonal sums.
std::vector<Columns> ExcludedDiagonalsBoards(uint32_t m, uint32_t count) {
  bench::Random random(m);
  std::vector<Columns> boards;
  while (boards.size() < count) {
    const std::vector<bench::Diagonal> excluded = bench::ExcludedDiagonals(m, m, 4, random);
    if (excluded.size() == m) boards.push_back(bench::ExcludedDiagonalsAsCompletion(m, excluded));
  }
  return boards;
}

void AppendVarint(std::string& out, uint64_t value) {
  for (; value >= 0x80; value >>= 7) out.push_back(static_cast<char>(value | 0x80));
  out.push_back(static_cast<char>(value));
}

// A binary certificate's tree stream, its frames inflated (the format of
// docs/reference/certificates.md, decoded here without the checker).
class BinaryCertificate {
 public:
  explicit BinaryCertificate(const std::string& bytes) {
    size_t at = 8;  // the magic
    for (int field = 0; field < 5; ++field) Varint(bytes, at);
    header_ = bytes.substr(0, at);
    for (uint64_t length; (length = Varint(bytes, at)) != 0; at += length) {
      z_stream stream{};
      inflateInit(&stream);
      stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data() + at));
      stream.avail_in = static_cast<uInt>(length);
      char out[4096];
      int status = Z_OK;
      while (status == Z_OK) {
        stream.next_out = reinterpret_cast<Bytef*>(out);
        stream.avail_out = sizeof(out);
        status = inflate(&stream, Z_NO_FLUSH);
        tree_.append(out, sizeof(out) - stream.avail_out);
      }
      EXPECT_EQ(status, Z_STREAM_END);
      inflateEnd(&stream);
    }
  }

  const std::string& tree() const { return tree_; }

  // A certificate of `tree` in one frame.
  std::string WithTree(const std::string& tree) const {
    uLongf length = compressBound(tree.size());
    std::string frame(length, '\0');
    compress2(reinterpret_cast<Bytef*>(frame.data()), &length,
              reinterpret_cast<const Bytef*>(tree.data()), tree.size(), Z_BEST_SPEED);
    std::string bytes = header_;
    AppendVarint(bytes, length);
    return bytes + frame.substr(0, length) + std::string(1, '\0');
  }

 private:
  static uint64_t Varint(const std::string& bytes, size_t& at) {
    uint64_t value = 0;
    for (int shift = 0;; shift += 7) {
      const auto byte = static_cast<uint8_t>(bytes.at(at++));
      value |= uint64_t{byte & 0x7fu} << shift;
      if (byte < 0x80) return value;
    }
  }

  std::string header_, tree_;
};

bool Checks(const Columns& composition, const std::string& certificate) {
  return checker::CheckCertificate(composition, certificate).ok();
}

TEST(CertificateTest, EveryProofChecksInBothFormats) {
  int checked = 0;
  for (const CertificateFormat format : {kBinary, kText}) {
    for (const auto& [n, d] : std::vector<std::pair<uint32_t, uint32_t>>{{50, 16}, {100, 23}}) {
      for (const Proof& proof : RandomProofs(n, d, 30, format)) {
        EXPECT_TRUE(Checks(proof.composition, proof.certificate))
            << checker::CheckCertificate(proof.composition, proof.certificate);
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 20);
}

// On square holes the search cuts by the diagonal sums, on one thread and
// on two.
TEST(CertificateTest, ExcludedDiagonalsProofsCheckOnOneThreadAndTwo) {
  int proved = 0;
  for (const Columns& board : ExcludedDiagonalsBoards(16, 6)) {
    for (const CertificateFormat format : {kBinary, kText}) {
      for (const int threads : {1, 2}) {
        const std::optional<std::string> proof = Prove(board, format, threads);
        if (!proof.has_value()) continue;
        ++proved;
        EXPECT_TRUE(Checks(board, *proof)) << checker::CheckCertificate(board, *proof);
      }
    }
  }
  EXPECT_GT(proved, 0);
}

// The tree the search writes on two threads (its top, then each subtree by
// the thread that searched it) is the one it writes on one: the same text,
// node for node (the binary format frames the subtrees of threads apart),
// and its binary form checks.
TEST(CertificateTest, TwoThreadsWriteTheTreeOneWrites) {
  int compared = 0;
  for (const Columns& board : ExcludedDiagonalsBoards(16, 6)) {
    StopPoller stop(kNever);
    absl::StatusOr<FreeBoard> free_board = FreeBoard::Build(board, stop);
    ASSERT_TRUE(free_board.ok());
    const auto prove = [&](int threads, CertificateFormat format) -> std::optional<std::string> {
      CertificateWriter writer(format, free_board->rows(), free_board->columns(), size_t{1} << 30);
      const BoardRanks ranks = DrawBoardRanks(*free_board, 7);
      writer.Ranked(ranks.rows, ranks.columns);
      SearchThreads search_threads;
      search_threads.count = threads;
      const WordBoard word_board(*free_board);
      const SearchOutcome outcome =
          threads == 1
              ? RunWordSearch(*free_board, UINT64_MAX, stop, 7, &writer)
              : RunParallelWordSearch(word_board, UINT64_MAX, stop, 7, search_threads, {}, &writer);
      if (outcome.solutions > 0) return std::nullopt;
      return writer
          .Finish(CertificateHeader(format, board.size(), board.size() - free_board->size(), {}),
                  CertificateEnd(format))
          .value();
    };
    const std::optional<std::string> one = prove(1, kText);
    if (!one.has_value()) continue;
    const std::optional<std::string> two = prove(2, kText);
    ASSERT_TRUE(two.has_value());
    EXPECT_EQ(*one, *two);
    const std::optional<std::string> binary = prove(2, kBinary);
    ASSERT_TRUE(binary.has_value());
    EXPECT_TRUE(Checks(board, *binary)) << checker::CheckCertificate(board, *binary);
    ++compared;
  }
  EXPECT_GT(compared, 0);
}

// Every cut of a binary proof's tree stream (each proper prefix: a tree
// missing its last nodes) and the stream with a byte more are rejected;
// returns how many cuts were tried. (A byte changed in the middle can make
// another proof of the same board, the children in another order: the text
// format's mutants below change whole nodes.)
int ExpectEveryBinaryCutRejected(const Columns& composition, const std::string& certificate) {
  const BinaryCertificate binary(certificate);
  const std::string& tree = binary.tree();
  EXPECT_TRUE(Checks(composition, binary.WithTree(tree)));
  for (size_t size = 0; size < tree.size(); ++size) {
    EXPECT_FALSE(Checks(composition, binary.WithTree(tree.substr(0, size)))) << size << " bytes";
  }
  EXPECT_FALSE(Checks(composition, binary.WithTree(tree + std::string(1, '\0'))));
  return static_cast<int>(tree.size());
}

// Every mutant of a text proof's tree (each node or leaf line dropped,
// repeated, or with its last number one higher) is rejected; returns how
// many lines were mutated.
int ExpectEveryTextMutantRejected(const Columns& composition, const std::string& certificate) {
  const std::vector<std::string> lines = absl::StrSplit(certificate, '\n');
  const auto rejected = [&](const std::vector<std::string>& mutant, const std::string& how) {
    EXPECT_FALSE(Checks(composition, absl::StrJoin(mutant, "\n"))) << how;
  };
  int mutated = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    // The tree's lines: a one-letter kind, then numbers (none for `s`).
    const bool numbers = lines[i].size() >= 3 && lines[i][1] == ' ' &&
                         std::string("bpeh").find(lines[i][0]) != std::string::npos;
    if (!numbers && lines[i] != "s") continue;
    const auto at = static_cast<std::ptrdiff_t>(i);
    std::vector<std::string> cut = lines;
    cut.erase(cut.begin() + at);
    rejected(cut, "without line " + std::to_string(i + 1) + ": " + lines[i]);
    std::vector<std::string> twice = lines;
    twice.insert(twice.begin() + at, lines[i]);
    rejected(twice, "with line " + std::to_string(i + 1) + " twice: " + lines[i]);
    if (!numbers) continue;
    std::vector<std::string> changed = lines;
    const size_t space = changed[i].rfind(' ');
    changed[i] = changed[i].substr(0, space + 1) +
                 std::to_string(std::stoull(changed[i].substr(space + 1)) + 1);
    rejected(changed, "line " + std::to_string(i + 1) + " changed to " + changed[i]);
    ++mutated;
  }
  return mutated;
}

// The first of `proofs` whose tree has a branch, by its text twin's.
const Proof* Branching(const std::vector<Proof>& proofs) {
  for (const Proof& proof : proofs) {
    const std::optional<std::string> text = Prove(proof.composition, kText);
    if (text.has_value() && text->find("\nb ") != std::string::npos) return &proof;
  }
  return nullptr;
}

TEST(CertificateTest, TheCheckerRejectsTamperedProofs) {
  const std::vector<Proof> proofs = RandomProofs(100, 23, 30, kBinary);
  const Proof* branching = Branching(proofs);
  ASSERT_NE(branching, nullptr);
  const Columns& composition = branching->composition;
  EXPECT_GT(ExpectEveryBinaryCutRejected(composition, branching->certificate), 3);
  EXPECT_GT(ExpectEveryTextMutantRejected(composition, *Prove(composition, kText)), 3);
  // The proof is not one for another board.
  Columns other = composition;
  *std::find_if(other.begin(), other.end(), [](uint32_t c) { return c != kEmptyRow; }) = kEmptyRow;
  EXPECT_FALSE(Checks(other, branching->certificate));
}

// With the diagonal sums' leaves: every node of a short proof changed.
TEST(CertificateTest, ExcludedDiagonalsMutantsAreRejected) {
  for (const Columns& board : ExcludedDiagonalsBoards(12, 8)) {
    const std::optional<std::string> text = Prove(board, kText);
    if (!text.has_value() || text->size() > 4000 || text->find("\ns\n") == std::string::npos) {
      continue;
    }
    EXPECT_GT(ExpectEveryTextMutantRejected(board, *text), 3);
    EXPECT_GT(ExpectEveryBinaryCutRejected(board, *Prove(board, kBinary)), 3);
    return;
  }
  ADD_FAILURE() << "no short Excluded Diagonals proof with a diagonal sums leaf among the boards";
}

// The memory a certificate holds is reserved a step of at least 1 MiB ahead
// (a quarter of what is held once that is more), for the writers of all
// threads together; a refusal is final, and a restart's tree gives back
// what it held.
TEST(CertificateTest, CertificateMemoryReservesStepsAheadUntilARefusal) {
  constexpr uint64_t kMiB = uint64_t{1} << 20;
  std::vector<uint64_t> asked;
  uint64_t allowed = 6 * kMiB;
  CertificateMemory memory([&](uint64_t bytes) {
    asked.push_back(bytes);
    if (bytes > allowed) return absl::ResourceExhaustedError("no room (--memory-budget)");
    allowed -= bytes;
    return absl::OkStatus();
  });
  EXPECT_TRUE(memory.Hold(1000));
  EXPECT_EQ(asked, std::vector<uint64_t>{kMiB});
  EXPECT_TRUE(memory.Hold(kMiB - 1000));  // exactly the step
  EXPECT_EQ(asked.size(), 1u);
  memory.Release(kMiB / 2);  // a dropped run's tree
  EXPECT_TRUE(memory.Hold(kMiB / 2));
  EXPECT_EQ(asked.size(), 1u);
  EXPECT_TRUE(memory.Hold(3 * kMiB));  // more than a step: what is missing
  EXPECT_EQ(asked, (std::vector<uint64_t>{kMiB, 3 * kMiB}));
  EXPECT_FALSE(memory.refused());
  EXPECT_EQ(memory.WhyDropped(100), "the certificate outgrew its limit of 100 bytes");
  EXPECT_FALSE(memory.Hold(3 * kMiB));  // 3 MiB asked, 2 MiB left
  EXPECT_TRUE(memory.refused());
  EXPECT_EQ(memory.WhyDropped(100),
            "the certificate did not fit in memory: no room (--memory-budget)");
  EXPECT_FALSE(memory.Hold(1));
  EXPECT_EQ(asked.size(), 3u);  // not asked again
  // Without a budget to ask, any size is held.
  CertificateMemory unlimited({});
  EXPECT_TRUE(unlimited.Hold(uint64_t{1} << 40));
  EXPECT_FALSE(unlimited.refused());
}

// Finish copies the tree's pieces into one string between the header and
// the end: for that moment the memory holds the tree twice, and asks for it.
TEST(CertificateTest, FinishHoldsTheTreeTwiceWhileItCopiesIt) {
  constexpr uint64_t kMiB = uint64_t{1} << 20;
  constexpr int kLeaves = 262'144;  // "e r 0\n": 1.5 MiB of text
  const std::vector<uint32_t> lines = {0};
  const std::string header = "header\n", end = "end\n";
  for (const uint64_t room : {2 * kMiB, 4 * kMiB}) {
    SCOPED_TRACE(room);
    uint64_t asked = 0;
    CertificateMemory memory([&](uint64_t bytes) {
      if (asked + bytes > room) return absl::ResourceExhaustedError("no room");
      asked += bytes;
      return absl::OkStatus();
    });
    CertificateWriter writer(kText, lines, lines, size_t{1} << 30, &memory);
    for (int leaf = 0; leaf < kLeaves; ++leaf) writer.Empty(true, 0);
    const std::optional<std::string> whole = writer.Finish(header, end);
    if (room < 3 * kMiB) {  // the tree fits, its copy does not
      EXPECT_FALSE(whole.has_value());
      EXPECT_TRUE(memory.refused());
      continue;
    }
    ASSERT_TRUE(whole.has_value());
    const size_t tree_bytes = 6 * size_t{kLeaves};
    ASSERT_EQ(whole->size(), header.size() + tree_bytes + end.size());
    EXPECT_TRUE(absl::StartsWith(*whole, header + "e r 0\n"));
    EXPECT_TRUE(absl::EndsWith(*whole, "e r 0\n" + end));
    EXPECT_GE(asked, tree_bytes + whole->size());  // the pieces and the copy
  }
}

// ExactComplete asks for the memory of the certificate it writes, on one
// thread and two: at least the certificate's bytes. Refused, the verdict
// stands and the certificate is missing, saying why.
TEST(CertificateTest, TheSearchReservesItsCertificatesMemoryOrDropsIt) {
  int proved = 0;
  for (const Columns& board : ExcludedDiagonalsBoards(16, 6)) {
    for (const int threads : {1, 2}) {
      StopPoller stop(kNever);
      SearchThreads search_threads;
      search_threads.count = threads;
      std::atomic<uint64_t> asked{0};
      CertificateWanted wanted{kText, size_t{1} << 30, {}};
      wanted.reserve_memory = [&asked](uint64_t bytes) {
        asked += bytes;
        return absl::OkStatus();
      };
      absl::StatusOr<ExactResult> result = ExactComplete(board, {}, stop, search_threads, wanted);
      ASSERT_TRUE(result.ok()) << result.status();
      if (result->verdict != ExactVerdict::kUnsolvable) continue;
      ++proved;
      ASSERT_TRUE(result->certificate.has_value()) << result->certificate_missing;
      EXPECT_TRUE(Checks(board, *result->certificate));
      EXPECT_GE(asked.load(), result->certificate->size() - 100);  // the header and end: fewer

      wanted.reserve_memory = [](uint64_t /*bytes*/) {
        return absl::ResourceExhaustedError("no room (--memory-budget)");
      };
      result = ExactComplete(board, {}, stop, search_threads, wanted);
      ASSERT_TRUE(result.ok()) << result.status();
      EXPECT_EQ(result->verdict, ExactVerdict::kUnsolvable);
      EXPECT_FALSE(result->certificate.has_value());
      EXPECT_EQ(result->certificate_missing,
                "the certificate did not fit in memory: no room (--memory-budget)");
    }
  }
  EXPECT_GT(proved, 0);
}

TEST(CertificateTest, CompleteReturnsTheProofOrWhyThereIsNone) {
  // 2 x 2: unsolvable, with a certificate.
  CompleteOptions options;
  options.want_certificate = true;
  absl::StatusOr<CompletionResult> two = Complete(Columns(2, kEmptyRow), options);
  ASSERT_TRUE(two.ok());
  ASSERT_EQ(two->outcome, Outcome::kUnsolvable);
  ASSERT_TRUE(two->certificate.has_value());
  EXPECT_EQ(two->certificate->substr(0, 8), "NQCERT\r\n");
  EXPECT_TRUE(Checks(Columns(2, kEmptyRow), *two->certificate));
  options.certificate_format = kText;
  absl::StatusOr<CompletionResult> text = Complete(Columns(2, kEmptyRow), options);
  ASSERT_TRUE(text.ok() && text->certificate.has_value());
  EXPECT_EQ(text->certificate->substr(0, 22), "nqueens-certificate 1\n");
  EXPECT_TRUE(Checks(Columns(2, kEmptyRow), *text->certificate));
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

// Above 64 free rows the trail engine searches: random compositions of 76
// and 100 free rows near the threshold, many unsolvable, and a board of
// 2,400 rows whose first row is blocked by construction.
TEST(CertificateTest, BoardsOverSixtyFourFreeRowsGetProofsThatCheck) {
  int checked = 0, mutated = 0;
  std::vector<Proof> binary;
  for (const CertificateFormat format : {kBinary, kText}) {
    for (const auto& [n, d] : std::vector<std::pair<uint32_t, uint32_t>>{{2000, 76}, {3500, 100}}) {
      for (Proof& proof : RandomProofs(n, d, 5, format)) {
        EXPECT_TRUE(Checks(proof.composition, proof.certificate))
            << checker::CheckCertificate(proof.composition, proof.certificate);
        ++checked;
        if (format == kBinary) binary.push_back(std::move(proof));
      }
    }
  }
  if (const Proof* branching = Branching(binary); branching != nullptr) {
    mutated = ExpectEveryBinaryCutRejected(branching->composition, branching->certificate);
    mutated += ExpectEveryTextMutantRejected(branching->composition,
                                             *Prove(branching->composition, kText));
  }
  const Columns blocked = test_boards::RowOneBlocked(2400);
  const std::optional<std::string> dead = Prove(blocked, kBinary);
  ASSERT_TRUE(dead.has_value());
  EXPECT_TRUE(Checks(blocked, *dead)) << checker::CheckCertificate(blocked, *dead);
  EXPECT_GT(checked, 0);
  EXPECT_GT(mutated, 3);
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
    for (const CertificateFormat format : {kBinary, kText}) {
      CertificateWriter writer(format, board->rows(), board->columns(), size_t{1} << 30);
      const BoardRanks ranks = DrawBoardRanks(*board, seed);
      writer.Ranked(ranks.rows, ranks.columns);
      const SearchOutcome outcome = RunLargeSearch(*board, UINT64_MAX, stop, seed, &writer);
      if (outcome.solutions > 0) break;
      ASSERT_EQ(outcome.explored, 1.0);
      std::optional<std::string> tree = writer.Finish();
      ASSERT_TRUE(tree.has_value());
      const std::string certificate =
          CertificateHeader(format, composition.size(), composition.size() - board->size(), {}) +
          *tree + CertificateEnd(format);
      EXPECT_TRUE(Checks(composition, certificate))
          << checker::CheckCertificate(composition, certificate);
      ++checked;
    }
  }
  EXPECT_GT(checked, 0);
}

}  // namespace
}  // namespace nqueens::internal
