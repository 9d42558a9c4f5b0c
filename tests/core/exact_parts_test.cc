// The exact search cut into parts (CompleteOptions::part): the split follows
// its documented rule (docs/parts.md) and stays fixed, the parts' verdicts
// combine to the whole's, and their certificates prove it together before
// the independent checker, which rejects an incomplete or altered set.
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/types/span.h"
#include "base/stop_poller.h"
#include "checker/certificate_check.h"
#include "counting_stop.h"
#include "exact/exact_split.h"
#include "exact/free_board.h"
#include "exact/search_engines.h"
#include "gtest/gtest.h"
#include "nqueens/solver.h"
#include "nqueens/validate.h"
#include "test_boards.h"

namespace nqueens::internal {
namespace {

using test_stop::kNever;
constexpr uint64_t kPartCounts[] = {2, 3, 7, 64};

using Node = std::vector<Queen>;

// The split's rule done plainly, recounting every open cell from the board
// at every node: the queens of the live nodes of the split's level, in
// order.
class PlainSplit {
 public:
  explicit PlainSplit(const Columns& composition)
      : composition_(composition), n_(static_cast<uint32_t>(composition.size())) {}

  // `made` (if set) counts the nodes below the root that the levels hold.
  std::vector<Node> Nodes(uint64_t part_count, uint64_t* made = nullptr) const {
    const size_t wanted = std::min<uint64_t>(16 * part_count, 65536);
    const size_t free_rows = std::count(composition_.begin(), composition_.end(), kEmptyRow);
    std::vector<Node> live = Live({Node{}});
    for (size_t depth = 0; depth < free_rows && !live.empty() && live.size() < wanted; ++depth) {
      std::vector<Node> next;
      for (const Node& node : live) {
        const Line line = Fewest(node);
        for (uint32_t other = 1; other <= n_; ++other) {
          const Queen queen = line.by_row ? Queen{line.index, other} : Queen{other, line.index};
          if (!Open(node, queen.row, queen.column)) continue;
          next.push_back(node);
          next.back().push_back(queen);
        }
      }
      if (made != nullptr) *made += next.size();
      live = Live(next);
    }
    return live;
  }

 private:
  struct Line {
    bool by_row = true;
    uint32_t index = 0;  // 0: none left
    uint32_t open = 0;
  };

  bool Open(const Node& node, uint32_t row, uint32_t column) const {
    std::vector<Queen> queens = node;
    for (uint32_t r = 1; r <= n_; ++r) {
      if (composition_[r - 1] != kEmptyRow) queens.push_back({r, composition_[r - 1]});
    }
    return std::none_of(queens.begin(), queens.end(), [&](const Queen& q) {
      const int64_t rows = int64_t{row} - q.row, columns = int64_t{column} - q.column;
      return rows == 0 || columns == 0 || rows == columns || rows == -columns;
    });
  }

  // The unplaced line with the fewest open cells: rows before columns, then
  // the lowest.
  Line Fewest(const Node& node) const {
    Line best;
    for (const bool by_row : {true, false}) {
      for (uint32_t line = 1; line <= n_; ++line) {
        if (Placed(node, by_row, line)) continue;
        uint32_t open = 0;
        for (uint32_t other = 1; other <= n_; ++other) {
          open += by_row ? Open(node, line, other) : Open(node, other, line);
        }
        if (best.index == 0 || open < best.open) best = {by_row, line, open};
      }
    }
    return best;
  }

  bool Placed(const Node& node, bool by_row, uint32_t line) const {
    if (by_row && composition_[line - 1] != kEmptyRow) return true;
    if (!by_row && std::count(composition_.begin(), composition_.end(), line) > 0) return true;
    return std::any_of(node.begin(), node.end(),
                       [&](const Queen& q) { return (by_row ? q.row : q.column) == line; });
  }

  // The nodes that are no dead leaf.
  std::vector<Node> Live(const std::vector<Node>& nodes) const {
    std::vector<Node> live;
    for (const Node& node : nodes) {
      const Line line = Fewest(node);
      if (line.index == 0 || line.open > 0) live.push_back(node);
    }
    return live;
  }

  const Columns composition_;
  const uint32_t n_;
};

std::vector<Node> SplitNodes(const Columns& composition, uint64_t part_count) {
  StopPoller stop(kNever);
  absl::StatusOr<FreeBoard> board = FreeBoard::Build(composition, stop);
  EXPECT_TRUE(board.ok()) << board.status();
  if (!board.ok()) return {};
  absl::StatusOr<ExactSplit> split = ExactSplit::Make(*board, part_count, stop);
  EXPECT_TRUE(split.ok()) << split.status();
  if (!split.ok()) return {};
  std::vector<Node> nodes;
  for (uint64_t i = 0; i < split->node_count(); ++i) {
    nodes.emplace_back();
    for (const FreeQueen& queen : split->Prefix(i)) {
      nodes.back().push_back({board->row(queen.a), board->column(queen.b)});
    }
  }
  return nodes;
}

std::string Describe(const std::vector<Node>& nodes) {
  return absl::StrJoin(nodes, " | ", [](std::string* out, const Node& node) {
    absl::StrAppend(out, absl::StrJoin(node, " ", [](std::string* queens, const Queen& q) {
                      absl::StrAppend(queens, q.row, ",", q.column);
                    }));
  });
}

// Method EXACT on `composition`, whole or one part; a certificate in the
// text format, whose lines the tests below read.
CompletionResult CompleteExactly(const Columns& composition, PartSelector part,
                                 bool want_certificate = false, int threads = 1,
                                 CertificateFormat format = CertificateFormat::kText) {
  CompleteOptions options;
  options.complete_method = CompleteMethod::kExact;
  options.part = part;
  options.want_certificate = want_certificate;
  options.certificate_format = format;
  options.threads.count = threads;
  absl::StatusOr<CompletionResult> result = Complete(composition, options);
  EXPECT_TRUE(result.ok()) << result.status();
  return result.ok() ? *result : CompletionResult{};
}

// "" when `columns` is a full solution extending `composition`.
std::string NotACompletion(const Columns& composition, const Columns& columns) {
  absl::StatusOr<ValidationReport> report = Validate(columns);
  if (!report.ok() || !report->complete) return "not a solution";
  for (size_t i = 0; i < composition.size(); ++i) {
    if (composition[i] != kEmptyRow && composition[i] != columns[i]) return "moved a queen";
  }
  return "";
}

checker::SetVerdict CheckSet(const Columns& composition,
                             const std::vector<std::string>& certificates) {
  return checker::CheckCertificateSet(
      composition, certificates.size(),
      [&](size_t i) -> absl::StatusOr<absl::string_view> { return certificates[i]; });
}

// Runs the `count` parts of `composition` with certificates and checks them
// against the whole's verdict: "" when they agree, every SOLVED board is a
// completion and an UNSOLVABLE whole's certificates prove it together.
std::string CheckParts(const Columns& composition, uint64_t count, Outcome whole) {
  const std::string board = absl::StrCat(::testing::PrintToString(composition), " in ", count);
  bool solved = false, unsolvable = true;
  std::vector<std::string> certificates;
  for (uint64_t index = 0; index < count; ++index) {
    const CompletionResult part = CompleteExactly(composition, {index, count}, true);
    if (part.outcome == Outcome::kSolved) {
      solved = true;
      if (std::string wrong = NotACompletion(composition, part.columns); !wrong.empty()) {
        return absl::StrCat(board, ": part ", index, ": ", wrong);
      }
    }
    unsolvable = unsolvable && part.outcome == Outcome::kUnsolvable;
    // Every engine writes one, whatever the number of free rows.
    if (part.outcome == Outcome::kUnsolvable && !part.certificate.has_value()) {
      return absl::StrCat(board, ": part ", index, ": certificate? ", part.certificate_missing);
    }
    if (part.certificate.has_value()) certificates.push_back(*part.certificate);
  }
  const Outcome combined = solved       ? Outcome::kSolved
                           : unsolvable ? Outcome::kUnsolvable
                                        : Outcome::kUndecided;
  if (combined != whole) {
    return absl::StrCat(board, ": parts ", OutcomeName(combined), ", whole ", OutcomeName(whole));
  }
  if (whole != Outcome::kUnsolvable) return "";
  if (checker::SetVerdict set = CheckSet(composition, certificates); !set.status.ok()) {
    return absl::StrCat(board, ": certificate ", set.certificate, ": ", set.status.message());
  }
  return "";
}

// Every part count of `counts` on `composition`: the first problem, or "".
std::string CheckAllPartCounts(const Columns& composition,
                               absl::Span<const uint64_t> counts = kPartCounts) {
  const Outcome whole = CompleteExactly(composition, {}).outcome;
  for (const uint64_t count : counts) {
    if (std::string problem = CheckParts(composition, count, whole); !problem.empty()) {
      return problem;
    }
  }
  return "";
}

TEST(ExactSplitTest, FollowsTheDocumentedRule) {
  int boards = 0;
  auto check = [&boards](const Columns& composition) {
    const PlainSplit plain(composition);
    for (const uint64_t count : kPartCounts) {
      EXPECT_EQ(Describe(SplitNodes(composition, count)), Describe(plain.Nodes(count)))
          << ::testing::PrintToString(composition) << " in " << count;
    }
    ++boards;
  };
  for (uint32_t n = 1; n <= 6; ++n) test_boards::ForEachComposition(n, check);
  for (uint32_t seed = 1; seed <= 40; ++seed) {
    const uint32_t n = 7 + seed % 6;
    check(test_boards::RandomComposition(n, seed % n, seed));
  }
  EXPECT_GT(boards, 3000);
}

// A part searches its nodes' subtrees on the composition's board: every
// engine below a prefix visits one tree, and decides as a search of the
// board with the prefix's queens given.
TEST(ExactSplitTest, EveryEngineSearchesBelowAPrefix) {
  int prefixes = 0;
  for (uint32_t seed = 1; seed <= 12; ++seed) {
    const Columns composition = test_boards::RandomComposition(50, 50 - 16, seed);
    StopPoller stop(kNever);
    absl::StatusOr<FreeBoard> board = FreeBoard::Build(composition, stop);
    ASSERT_TRUE(board.ok());
    absl::StatusOr<ExactSplit> split = ExactSplit::Make(*board, 2, stop);
    ASSERT_TRUE(split.ok());
    for (uint64_t node = 0; node < split->node_count(); node += 3) {
      const std::vector<FreeQueen> prefix = split->Prefix(node);
      const SearchOutcome word = RunWordSearchBelow(prefix, *board, UINT64_MAX, stop, seed);
      const SearchOutcome trail = RunTrailSearchBelow(prefix, *board, UINT64_MAX, stop, seed);
      const SearchOutcome large = RunLargeSearchBelow(prefix, *board, UINT64_MAX, stop, seed);
      EXPECT_EQ(word.nodes, trail.nodes);
      EXPECT_EQ(large.nodes, trail.nodes);
      EXPECT_EQ(large.placement, trail.placement);
      Columns given = composition;
      for (const FreeQueen& queen : prefix) given[board->row(queen.a) - 1] = board->column(queen.b);
      EXPECT_EQ(trail.solutions > 0, CompleteExactly(given, {}).outcome == Outcome::kSolved);
      ++prefixes;
    }
  }
  EXPECT_GT(prefixes, 20);
}

// A level of the split may hold 65,536 nodes times the free rows: each is
// asked for before it is made, and a refusal ends the split with it.
TEST(ExactSplitTest, AsksForEachLevelsNodesBeforeMakingThem) {
  int refused = 0;
  for (uint32_t seed = 1; seed <= 6; ++seed) {
    const Columns composition = test_boards::RandomComposition(40, 40 - 14, seed);
    const uint64_t part_count = 64;
    uint64_t made = 0;
    const size_t live = PlainSplit(composition).Nodes(part_count, &made).size();
    StopPoller stop(kNever);
    absl::StatusOr<FreeBoard> board = FreeBoard::Build(composition, stop);
    ASSERT_TRUE(board.ok());
    std::vector<uint64_t> asked;
    const auto grant = [&asked](uint64_t bytes) {
      asked.push_back(bytes);
      return absl::OkStatus();
    };
    absl::StatusOr<ExactSplit> split = ExactSplit::Make(*board, part_count, stop, grant);
    ASSERT_TRUE(split.ok()) << split.status();
    EXPECT_EQ(split->node_count(), live);
    uint64_t total = 0;
    for (const uint64_t bytes : asked) total += bytes;
    EXPECT_EQ(total, made * ExactSplit::kNodeBytes) << "seed " << seed;
    if (asked.empty()) continue;
    // Refused at the last level: the error, saying what it was for.
    const auto refuse_last = [&, calls = size_t{0}](uint64_t) mutable {
      return ++calls < asked.size() ? absl::OkStatus()
                                    : absl::ResourceExhaustedError("over --memory-budget");
    };
    split = ExactSplit::Make(*board, part_count, stop, refuse_last);
    ASSERT_EQ(split.status().code(), absl::StatusCode::kResourceExhausted);
    EXPECT_TRUE(absl::StrContains(
        split.status().message(),
        absl::StrCat("the split into parts (", asked.back() / ExactSplit::kNodeBytes, " nodes")))
        << split.status();
    EXPECT_TRUE(absl::EndsWith(split.status().message(), ": over --memory-budget"));
    ++refused;
  }
  EXPECT_GE(refused, 5);
}

// Servers of different versions must cut a search alike: a change here
// breaks every fleet that mixes versions (and docs/parts.md with it).
TEST(ExactSplitTest, IsFixed) {
  // n = 10 with queens on (2, 4) and (7, 9); 3 parts want 48 nodes.
  Columns composition(10, kEmptyRow);
  composition[1] = 4;
  composition[6] = 9;
  const std::vector<Node> nodes = SplitNodes(composition, 3);
  ASSERT_EQ(nodes.size(), 53u);
  // Row 1 has the fewest open cells at the root (6: columns 1, 2, 6, 7, 8
  // and 10), then the lines below; the level of 3 queens is the first with 48.
  EXPECT_EQ(Describe({nodes.front(), nodes[1], nodes.back()}),
            "1,1 6,2 5,6 | 1,1 6,2 5,8 | 1,10 3,7 4,5");
  uint64_t digest = 14695981039346656037u;  // FNV-1a over every queen of every node
  for (const Node& node : nodes) {
    for (const Queen& queen : node) {
      for (const uint32_t x : {queen.row, queen.column}) digest = (digest ^ x) * 1099511628211u;
    }
  }
  EXPECT_EQ(digest, 1952854954541816915u);
}

TEST(ExactPartsTest, PartsAgreeWithTheWholeOnEveryCompositionUpTo5) {
  int boards = 0;
  for (uint32_t n = 1; n <= 5; ++n) {
    test_boards::ForEachComposition(n, [&boards](const Columns& composition) {
      EXPECT_EQ(CheckAllPartCounts(composition), "");
      ++boards;
    });
  }
  EXPECT_EQ(boards, 2 + 5 + 18 + 87 + 462);
}

// Every 37th of the 138,474: the 76 calls for one take a few milliseconds
// under AddressSanitizer.
TEST(ExactPartsTest, PartsAgreeWithTheWholeOnASampleOfTheCompositionsOf6To8) {
  int boards = 0, visited = 0;
  for (uint32_t n = 6; n <= 8; ++n) {
    test_boards::ForEachComposition(n, [&](const Columns& composition) {
      if (visited++ % 37 != 0) return;
      EXPECT_EQ(CheckAllPartCounts(composition), "");
      ++boards;
    });
  }
  EXPECT_EQ(boards, (2635 + 16870 + 118969 + 36) / 37);
}

// With a quarter of the queens or more: the nearly empty boards, all but
// certainly solvable, cost the most (each part cuts the whole split).
TEST(ExactPartsTest, PartsAgreeWithTheWholeOnRandomCompositions9To12) {
  int unsolvable = 0;
  for (uint32_t seed = 1; seed <= 200; ++seed) {
    const uint32_t n = 9 + seed % 4;
    const uint32_t queens = n / 4 + seed % (n - n / 4 - 1);
    const Columns composition = test_boards::RandomComposition(n, queens, seed);
    EXPECT_EQ(CheckAllPartCounts(composition), "");
    unsolvable += CompleteExactly(composition, {}).outcome == Outcome::kUnsolvable;
  }
  EXPECT_GT(unsolvable, 30);
}

// Boards near the completion threshold (n ~ 0.19 d^2), whose proofs branch
// deep below the split's level.
TEST(ExactPartsTest, PartsAgreeWithTheWholeNearThePhaseTransition) {
  int unsolvable = 0;
  for (uint32_t seed = 1; seed <= 12; ++seed) {
    const Columns composition = test_boards::RandomComposition(50, 50 - 16, seed);
    EXPECT_EQ(CheckAllPartCounts(composition), "");
    unsolvable += CompleteExactly(composition, {}).outcome == Outcome::kUnsolvable;
  }
  EXPECT_GT(unsolvable, 2);
}

// The trail engine's boards (65 to 1,024 free rows) and the large engine's
// (more), in fewer parts: the split's nodes cost O(d) each.
TEST(ExactPartsTest, PartsAgreeWithTheWholeBeyondTheWordEngine) {
  constexpr uint64_t kFewParts[] = {2, 3};
  // 76 free rows near the threshold (n ~ 0.35 d^2): many are unsolvable.
  int unsolvable = 0;
  for (uint32_t seed = 1; seed <= 8; ++seed) {
    const Columns composition = test_boards::RandomComposition(2000, 2000 - 76, seed);
    EXPECT_EQ(CheckAllPartCounts(composition, kFewParts), "");
    unsolvable += CompleteExactly(composition, {}).outcome == Outcome::kUnsolvable;
  }
  EXPECT_GT(unsolvable, 0);
  // 1,500 free rows or more, but the first row blocked: a dead root, no
  // nodes. (A part of a wide solvable board may have to prove its nodes
  // dead, which takes long.)
  EXPECT_EQ(CheckAllPartCounts(test_boards::RowOneBlocked(2400), kFewParts), "");
}

// A sub-board of an Excluded Diagonals instance (m = 24): its composition
// with the queens of node `node` (of 4,811) of its split in 64 parts.
// Unsolvable, with proofs of 10^4 to 10^5 nodes that branch well below their
// own split's level: their parts' certificates leave `x` leaves to each
// other (smaller proofs lie wholly in the split's top tree).
Columns HardSubBoard(uint64_t node) {
  Columns board = test_boards::HardUnsolvableBoard();
  const std::vector<Node> nodes = SplitNodes(board, 64);
  for (const Queen& queen : nodes.at(node)) board[queen.row - 1] = queen.column;
  return board;
}

// Sub-boards with some of the shortest proofs (about 12,000 to 15,000 nodes)
// and one of the longest (about 100,000).
constexpr uint64_t kShortProofNodes[] = {1924, 1221, 4625};
constexpr uint64_t kLongProofNode = 407;

std::vector<Columns> HardSubBoards(absl::Span<const uint64_t> nodes) {
  std::vector<Columns> boards;
  for (const uint64_t node : nodes) boards.push_back(HardSubBoard(node));
  return boards;
}

// The certificates of the 3 parts of each of `boards`, which must all be
// UNSOLVABLE.
std::vector<std::vector<std::string>> PartCertificates(
    const std::vector<Columns>& boards, CertificateFormat format = CertificateFormat::kText) {
  std::vector<std::vector<std::string>> sets;
  for (const Columns& composition : boards) {
    sets.emplace_back();
    for (uint64_t index = 0; index < 3; ++index) {
      const CompletionResult part = CompleteExactly(composition, {index, 3}, true, 1, format);
      EXPECT_EQ(part.outcome, Outcome::kUnsolvable);
      EXPECT_TRUE(part.certificate.has_value()) << part.certificate_missing;
      sets.back().push_back(part.certificate.value_or(""));
      if (format == CertificateFormat::kText) {
        EXPECT_NE(sets.back().back().find("\nx\n"), std::string::npos);
      }
    }
  }
  return sets;
}

TEST(ExactPartsTest, PartsAgreeWithTheWholeOnExcludedDiagonalsSubBoards) {
  EXPECT_EQ(CheckAllPartCounts(HardSubBoard(kLongProofNode)), "");
}

TEST(ExactPartsTest, PartCertificatesProveTheWholeOnlyTogether) {
  const std::vector<Columns> boards = HardSubBoards(kShortProofNodes);
  const std::vector<std::vector<std::string>> sets = PartCertificates(boards);
  for (size_t board = 0; board < boards.size(); ++board) {
    const Columns& composition = boards[board];
    const std::vector<std::string>& certificates = sets[board];
    EXPECT_TRUE(CheckSet(composition, certificates).status.ok())
        << CheckSet(composition, certificates).status;
    // In any order.
    const std::vector<std::string> reversed(certificates.rbegin(), certificates.rend());
    EXPECT_TRUE(CheckSet(composition, reversed).status.ok());
    for (size_t left_out = 0; left_out < 3; ++left_out) {
      std::vector<std::string> two = certificates;
      two.erase(two.begin() + static_cast<std::ptrdiff_t>(left_out));
      const checker::SetVerdict set = CheckSet(composition, two);
      EXPECT_EQ(set.status.code(), absl::StatusCode::kInvalidArgument);
      EXPECT_NE(set.status.message().find(": `x`: no other certificate of the set proves"),
                std::string::npos)
          << set.status;
      // One alone is no proof either: the checker names its first `x` line.
      const absl::Status alone = checker::CheckCertificate(composition, certificates[left_out]);
      const std::vector<std::string> lines = absl::StrSplit(certificates[left_out], '\n');
      const size_t first_x = std::find(lines.begin(), lines.end(), "x") - lines.begin() + 1;
      EXPECT_EQ(alone.message(),
                absl::StrCat("certificate line ", first_x,
                             ": `x`: no other certificate of the set proves this subtree"));
    }
  }
}

// The binary format's part certificates too, on two threads: together they
// prove the whole, two of them do not, and they mix with the text format's.
TEST(ExactPartsTest, BinaryPartCertificatesProveTheWholeOnlyTogether) {
  const Columns composition = HardSubBoard(kShortProofNodes[0]);
  std::vector<std::string> binary;
  for (uint64_t index = 0; index < 3; ++index) {
    const CompletionResult part =
        CompleteExactly(composition, {index, 3}, true, 2, CertificateFormat::kBinary);
    ASSERT_TRUE(part.certificate.has_value()) << part.certificate_missing;
    binary.push_back(*part.certificate);
  }
  EXPECT_TRUE(CheckSet(composition, binary).status.ok()) << CheckSet(composition, binary).status;
  EXPECT_FALSE(CheckSet(composition, {binary[0], binary[1]}).status.ok());
  std::vector<std::string> mixed = binary;
  mixed[1] = PartCertificates({composition}).front()[1];
  EXPECT_TRUE(CheckSet(composition, mixed).status.ok()) << CheckSet(composition, mixed).status;
}

// Lines of the header, the top tree and the start of the first proof below
// it, then a sample of the rest (each check reads the whole set twice).
TEST(ExactPartsTest, TheCheckerRejectsASetWithOneLineChangedOrCut) {
  const Columns composition = HardSubBoard(kShortProofNodes[0]);
  const std::vector<std::string> certificates = PartCertificates({composition}).front();
  const std::vector<std::string> lines = absl::StrSplit(certificates[1], '\n');
  auto rejected = [&](const std::vector<std::string>& part_lines) {
    std::vector<std::string> set = certificates;
    set[1] = absl::StrJoin(part_lines, "\n");
    const checker::SetVerdict verdict = CheckSet(composition, set);
    return !verdict.status.ok() && verdict.certificate == 1;
  };
  int changed = 0;
  for (size_t i = 0; i + 1 < lines.size(); i += i < 60 ? 1 : lines.size() / 40) {
    std::vector<std::string> cut = lines;
    cut.erase(cut.begin() + static_cast<std::ptrdiff_t>(i));
    EXPECT_TRUE(rejected(cut)) << "without line " << i + 1 << ": " << lines[i];
    // The last number of a line one higher. Not of a leaf's line, which
    // may name another line as dead, nor of the part line, which the rule
    // does not read.
    const size_t space = lines[i].rfind(' ');
    if (space == std::string::npos || absl::StartsWith(lines[i], "e ") ||
        absl::StartsWith(lines[i], "h ") || absl::StartsWith(lines[i], "part ")) {
      continue;
    }
    std::vector<std::string> higher = lines;
    higher[i] =
        lines[i].substr(0, space + 1) + std::to_string(std::stoull(lines[i].substr(space + 1)) + 1);
    EXPECT_TRUE(rejected(higher)) << higher[i];
    ++changed;
  }
  EXPECT_GT(changed, 40);
}

TEST(ExactPartsTest, AnXLeafNeedsAPartLine) {
  const Columns composition = HardSubBoard(kShortProofNodes[0]);
  std::vector<std::string> set = PartCertificates({composition}).front();
  set[0] = absl::StrReplaceAll(set[0], {{"part 0 3\n", ""}});
  const checker::SetVerdict verdict = CheckSet(composition, set);
  EXPECT_NE(verdict.status.message().find("expected a node: `b`, `e`, `h` or `s`"),
            std::string::npos)
      << verdict.status;
  EXPECT_EQ(verdict.certificate, 0u);
}

// The checker reads each certificate twice; an `x` leaf that only the second
// reading has would be proved by nothing.
TEST(ExactPartsTest, ACertificateChangedBetweenTheReadingsIsRejected) {
  const Columns corner = {1, 0, 0, 0};  // 4 x 4, row 2 has 2 open cells
  const std::string header = "nqueens-certificate 1\nn 4\ngiven 1\npart 0 2\nproof\n";
  const std::vector<std::string> first = {
      header + "b r 2 2\np 2 3\ne r 3\np 2 4\nx\nend\n",
      header + "b r 2 2\np 2 3\ne r 3\np 2 4\nb r 3 1\np 3 2\ne r 4\nend\n"};
  EXPECT_TRUE(CheckSet(corner, first).status.ok());
  std::vector<std::string> second = first;
  second[1] = header + "b r 2 2\np 2 3\nx\np 2 4\nb r 3 1\np 3 2\ne r 4\nend\n";
  int reads = 0;
  const checker::SetVerdict verdict =
      checker::CheckCertificateSet(corner, 2, [&](size_t i) -> absl::StatusOr<absl::string_view> {
        return reads++ < 2 ? first[i] : second[i];
      });
  EXPECT_EQ(verdict.status.message(),
            "certificate line 8 (byte 63; path (2, 3)): `x`: not there on the first reading (the "
            "certificate changed)");
  EXPECT_EQ(verdict.certificate, 1u);
}

TEST(ExactPartsTest, TheWholeCertificateKeepsItsFormat) {
  const Columns composition = HardSubBoard(kShortProofNodes[0]);
  const CompletionResult whole = CompleteExactly(composition, {}, true);
  ASSERT_TRUE(whole.certificate.has_value());
  EXPECT_TRUE(absl::StartsWith(*whole.certificate,
                               "nqueens-certificate 1\nn 6299\ngiven 6279\n"
                               "proof\n"));
  EXPECT_EQ(whole.certificate->find("part"), std::string::npos);
  EXPECT_EQ(whole.certificate->find("\nx\n"), std::string::npos);
  EXPECT_TRUE(checker::CheckCertificate(composition, *whole.certificate).ok());
}

TEST(ExactPartsTest, ThreadsGiveTheSameVerdictsAndCertificates) {
  const std::vector<Columns> boards = HardSubBoards(kShortProofNodes);
  const std::vector<std::vector<std::string>> sets = PartCertificates(boards);
  for (size_t board = 0; board < boards.size(); ++board) {
    const Columns& composition = boards[board];
    const std::vector<std::string>& certificates = sets[board];
    for (uint64_t index = 0; index < 3; ++index) {
      // A certificate is the sequential search's tree, whatever the threads.
      const CompletionResult certified = CompleteExactly(composition, {index, 3}, true, 2);
      EXPECT_EQ(certified.certificate, certificates[index]);
      const CompletionResult threaded = CompleteExactly(composition, {index, 3}, false, 2);
      EXPECT_EQ(threaded.outcome, Outcome::kUnsolvable);
      EXPECT_EQ(threaded.stats.exact_explored, 1.0);
      EXPECT_GE(threaded.stats.exact_runs, 1u);
    }
  }
}

TEST(ExactPartsTest, APartOutOfBudgetIsUndecided) {
  const Columns composition = HardSubBoard(kShortProofNodes[0]);
  CompleteOptions options;
  options.complete_method = CompleteMethod::kExact;
  options.part = {1, 3};
  options.params.exact_node_budget = 3;
  absl::StatusOr<CompletionResult> result = Complete(composition, options);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->outcome, Outcome::kUndecided);
  EXPECT_LE(result->stats.exact_nodes, 3u);
  EXPECT_LT(result->stats.exact_explored, 1.0);
}

// One free row: the split's level is the one full placement, node 0.
TEST(ExactPartsTest, APartWithoutNodesIsUnsolvableAtOnce) {
  const Columns composition = {2, 4, 1, 3, 0};  // 5 x 5, row 5 takes column 5
  const CompletionResult first = CompleteExactly(composition, {0, 2}, true);
  EXPECT_EQ(first.outcome, Outcome::kSolved);
  EXPECT_EQ(first.columns, (Columns{2, 4, 1, 3, 5}));
  const CompletionResult second = CompleteExactly(composition, {1, 2}, true);
  EXPECT_EQ(second.outcome, Outcome::kUnsolvable);
  EXPECT_EQ(second.stats.exact_nodes, 0u);
  EXPECT_EQ(second.stats.exact_explored, 1.0);
  ASSERT_EQ(second.certificate,
            "nqueens-certificate 1\nn 5\ngiven 4\npart 1 2\nproof\nb r 5 1\np 5 5\nx\nend\n");
  // Its `x` leaf is part 0's, which has no proof of it: the board is solvable.
  EXPECT_EQ(checker::CheckCertificate(composition, *second.certificate).message(),
            "certificate line 8: `x`: no other certificate of the set proves this subtree");
}

TEST(ExactPartsTest, OtherMethodsAndBadSelectorsAreRefusedByName) {
  CompleteOptions options;
  options.part = {0, 2};
  for (const CompleteMethod method : {CompleteMethod::kPipeline, CompleteMethod::kMinConflicts}) {
    options.complete_method = method;
    absl::StatusOr<CompletionResult> result = Complete(Columns(8, kEmptyRow), options);
    EXPECT_EQ(result.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(result.status().message(), "part_count applies to method EXACT only");
  }
  options.complete_method = CompleteMethod::kExact;
  options.part = {2, 2};
  EXPECT_NE(Complete(Columns(8, kEmptyRow), options).status().message().find("part_index"),
            std::string::npos);
  options.part = {0, 0};
  EXPECT_NE(Complete(Columns(8, kEmptyRow), options).status().message().find("part_count"),
            std::string::npos);
}

}  // namespace
}  // namespace nqueens::internal
