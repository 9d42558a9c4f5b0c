// Completion and solving: the public entry points of the core.
// (Counting and enumerating every solution: nqueens/count.h.)
//
// Complete() extends a composition to a full solution with the staged
// pipeline of Grigoryan (2019): randSet&randSet pairing up to baseLevel2,
// projection and rand&rand up to baseLevel3, then min-risk/min-damage with
// backtracking to the base levels. When the heuristic gives up, an exact
// search decides small residual boards; only that search ever answers
// UNSOLVABLE.
#ifndef NQUEENS_SOLVER_H_
#define NQUEENS_SOLVER_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "nqueens/board.h"
#include "nqueens/params.h"
#include "nqueens/parts.h"
#include "nqueens/stop.h"
#include "nqueens/threads.h"

namespace nqueens {

enum class Outcome {
  kSolved,      // `columns` holds a full solution extending the input
  kUnsolvable,  // a complete search proved that no extension exists
  kUndecided,   // search limits were reached; nothing is claimed
};

const char* OutcomeName(Outcome outcome);  // "SOLVED", "UNSOLVABLE", ...

// The pipeline's blocks (section 4.2); kExact is the exact search.
enum class Block : int {
  kNone = 0,
  kRandomPairing = 1,  // block 1: randSet&randSet
  kProjection = 2,     // block 2: projection onto free rows x free columns
  kRandRand = 3,       // block 3: rand&rand
  kFinishPrepare = 4,  // block 4: ranking rows by free cells
  kFinish = 5,         // block 5: min-risk / min-damage with backtracking
  kExact = 6,          // exact search (beyond the paper)
  kConstruction = 7,   // matched the explicit construction (beyond the paper)
};
inline constexpr int kBlockCount = 8;

// How Complete() extends a composition.
enum class CompleteMethod {
  kPipeline,      // the staged pipeline above, then the exact search
  kMinConflicts,  // iterative repair with the given queens fixed (heuristic)
  kExact,         // the complete search alone
};

const char* CompleteMethodName(CompleteMethod method);  // "PIPELINE", ...

// How an UNSOLVABLE answer's certificate is written
// (docs/reference/certificates.md).
enum class CertificateFormat {
  kBinary,  // compact: compressed, the search's branching implied
  kText,    // one record per line, for reading
};

// A method's names, for callers that list or parse them: `name` as
// stats.method and the service's enums spell it, `cli_name` as the CLI's
// --method does.
template <typename Method>
struct MethodInfo {
  Method method;
  const char* name;      // "MIN_CONFLICTS"
  const char* cli_name;  // "min-conflicts"
};

// Every Complete method, in the enum's order.
absl::Span<const MethodInfo<CompleteMethod>> CompleteMethods();

// What every call of Complete and Solve takes.
struct CallOptions {
  // Same seed and input give the same output.
  uint64_t seed = 0;
  StopCondition stop;
  // Every tunable, search limits included (tot_sim_bound, max_restarts,
  // exact_node_budget, exact_max_seconds, and each method's own); the
  // defaults reproduce the papers. What each limit bounds in each method:
  // docs/methods.md, "Limits".
  PipelineParams params;
  // The threads of block 1's chunked passes (boards from 2^21 rows) and of
  // the exact search (boards of at most 64 free rows). The answer does not
  // depend on them.
  SearchThreads threads;
  // Asked for the memory the exact search needs beyond nqueens/memory.h's
  // estimates before it allocates it: on boards of more than 1,024 free
  // rows (ExactSearchBytesBeyondEstimate), and for one part of a search cut
  // into parts, the split's tree, 28 bytes a node, level by level (up to
  // 65,536 nodes times the free rows). Each ask adds to the ones before. An
  // error ends the call with it, saying what it was for; unset, nothing is
  // asked. A certificate (CompleteOptions::want_certificate) asks too, a
  // step of 1 MiB or more at a time as it grows (and twice its size while
  // its pieces are copied into one), from the search's threads one at a
  // time; an error there drops the certificate, and certificate_missing
  // says why.
  std::function<absl::Status(uint64_t bytes)> reserve_memory;
};

struct CompleteOptions : CallOptions {
  CompleteOptions() = default;
  explicit CompleteOptions(CallOptions call) : CallOptions(std::move(call)) {}

  CompleteMethod complete_method = CompleteMethod::kPipeline;
  // An UNSOLVABLE answer comes with a certificate, the search tree that
  // proves it (docs/reference/certificates.md; checker: checker/), for any
  // board the exact search decides, on as many threads as without one.
  bool want_certificate = false;
  CertificateFormat certificate_format = CertificateFormat::kBinary;
  // Certificates longer than this, or that reserve_memory refuses, are
  // dropped (certificate_missing says so): 256 MiB of the binary format is
  // about a billion search nodes.
  size_t certificate_max_bytes = size_t{256} << 20;
  // CompleteMethod::kExact only (INVALID_ARGUMENT otherwise): search one
  // part of the exact search's tree (nqueens/parts.h). kUnsolvable then
  // means that this part holds no completion; the composition has none when
  // every part of the same count says so. A part's certificate proves its
  // part alone: the checker takes the certificates of all parts together.
  PartSelector part;
};

struct SolveOptions : CallOptions {
  SolveOptions() = default;
  explicit SolveOptions(CallOptions call) : CallOptions(std::move(call)) {}

  // SolveMethod::kFormula only: which member of the explicit families,
  // 0 .. FormulaVariantCount(n) - 1.
  uint64_t formula_variant = 0;
  // The image of the square applied to the result, 0..7 (see Symmetry in
  // nqueens/board.h).
  uint32_t symmetry = 0;
};

struct CompletionStats {
  uint64_t seed = 0;
  uint32_t queens_given = 0;         // k
  Block start_block = Block::kNone;  // where the run started
  // In all, of the method's kind (PIPELINE, RANDOM, BACKTRACKING, GENETIC:
  // docs/methods.md, "Limits").
  uint64_t backtracks = 0;
  uint64_t restarts = 0;  // whole restarts from the input (PIPELINE, MIN_CONFLICTS)
  // Backtracks that returned to each block's start, indexed by Block.
  std::array<uint64_t, kBlockCount> backtracks_to_block{};
  // Wall time spent in each block, indexed by Block.
  std::array<absl::Duration, kBlockCount> time_in_block{};
  absl::Duration total_time;
  uint64_t exact_nodes = 0;  // nodes visited by the exact search, if it ran
  // How far the exact search got: its runs (it restarts with a doubled node
  // budget, up to 2^20 nodes; then a run goes on to the end), and the share
  // of the last run's tree it searched (1 when that run ended; an estimate
  // from where it stopped when its budget ran out).
  uint64_t exact_runs = 0;
  double exact_explored = 0;
  // What ran: a SolveMethodName() or CompleteMethodName().
  std::string method;
  uint64_t search_nodes = 0;  // BACKTRACKING: nodes visited
  uint64_t generations = 0;   // GENETIC: generations bred
  uint64_t repairs = 0;       // MIN_CONFLICTS: queen moves (swaps)
  // FORMULA: the family and its parameters, e.g. "modular (n = 6K+1):
  // shift 0, step 2"; empty for the other methods.
  std::string formula;
  // The limits the caller asked for that whoever ran the method lowered, as
  // "max_backtracks=1000000 (--max-backtracks)": a server's answer says so
  // (Stats.lowered_limits of the .proto); the core never lowers any.
  std::vector<std::string> lowered_limits;
};

struct CompletionResult {
  Outcome outcome = Outcome::kUndecided;
  Columns columns;  // the full board when kSolved, otherwise empty
  CompletionStats stats;
  // kUnsolvable with CompleteOptions::want_certificate: the certificate, or why there
  // is none (too many free rows, too large).
  std::optional<std::string> certificate;
  std::string certificate_missing;
};

// Extends `composition` (dense, n = size) to a full solution.
// Errors: INVALID_ARGUMENT for a malformed board or attacking queens (the
// message names the rows and columns); DEADLINE_EXCEEDED or CANCELLED when
// options.stop fires.
absl::StatusOr<CompletionResult> Complete(Columns composition, const CompleteOptions& options = {});

namespace internal {
class BoardState;
}  // namespace internal

// A composition whose rows arrive in order, as a stream brings them. Its
// given queens are placed on the pipeline's control bits as the rows come,
// so that Complete(composition, incoming) starts at its first stage instead
// of first reading the whole board: at n = 10^8 that read takes a few
// tenths of a second, which a server can spend while the upload goes on.
class IncomingComposition {
 public:
  // For n rows, at most kMaxBoardSize: the caller checks n, as it checks
  // that Bytes(n) are there, which this holds from the start.
  explicit IncomingComposition(uint32_t n);
  IncomingComposition(IncomingComposition&&) noexcept;
  IncomingComposition& operator=(IncomingComposition&&) noexcept;
  ~IncomingComposition();

  // What it holds for n rows: one bit a row for the rows, the columns and
  // the given rows, and two for each diagonal direction.
  static uint64_t Bytes(uint64_t n);

  // Rows placed() + 1 .. rows of `board` (rows[i] for row i + 1) are in and
  // will not change: places their queens. Once a queen is out of range or
  // attacked, nothing more is placed, and Complete names the rows.
  void Place(const uint32_t* board, uint32_t rows);
  uint32_t placed() const { return placed_; }

 private:
  friend absl::StatusOr<CompletionResult> Complete(Columns composition,
                                                   IncomingComposition incoming,
                                                   const CompleteOptions& options);
  std::unique_ptr<internal::BoardState> state_;
  uint32_t placed_ = 0;  // rows 1 .. placed_ are placed
  bool refused_ = false;
};

// Complete() on `composition`, the board whose rows `incoming` saw arrive:
// the rows it did not place yet are placed first. INVALID_ARGUMENT when the
// two differ in size.
absl::StatusOr<CompletionResult> Complete(Columns composition, IncomingComposition incoming,
                                          const CompleteOptions& options = {});

enum class SolveMethod {
  kConstructive,  // deterministic explicit construction, O(n)
  kRandom,        // the completion pipeline from the empty board
  kMinConflicts,  // iterative repair (Minton et al.; Sosic & Gu), O(n) memory
  kBacktracking,  // row-by-row bitwise search, first solution (node budget)
  kGenetic,       // genetic algorithm on permutations (generation budget)
  kFormula,       // one member of the explicit families (formula_variant)
};

const char* SolveMethodName(SolveMethod method);  // "CONSTRUCTIVE", ...

using SolveMethodInfo = MethodInfo<SolveMethod>;

// Every Solve method, in the enum's order.
absl::Span<const SolveMethodInfo> SolveMethods();

// A full solution of the n x n board, by `method`, then mapped by
// options.symmetry. n = 2 and n = 3 are UNSOLVABLE (proved by the exact
// search); every other n is SOLVED by CONSTRUCTIVE and FORMULA, and SOLVED
// or UNDECIDED (a limit of options.params reached: docs/methods.md,
// "Limits") by the other methods.
// Errors: INVALID_ARGUMENT for a symmetry above 7 or a formula_variant out
// of range (the message names the valid range); DEADLINE_EXCEEDED or
// CANCELLED when options.stop fires.
absl::StatusOr<CompletionResult> Solve(uint32_t n, SolveMethod method,
                                       const SolveOptions& options = {});

// The explicit construction behind kConstructive: a solution for every
// n >= 4 and n = 1, nullopt for n = 2, 3 (and n = 0).
std::optional<Columns> ConstructSolution(uint32_t n);

// How many members the explicit families of kFormula have for n (0 when
// none: n = 2, 3).
uint64_t FormulaVariantCount(uint32_t n);

}  // namespace nqueens

#endif  // NQUEENS_SOLVER_H_
