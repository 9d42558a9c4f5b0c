// The table of every tunable in PipelineParams (base/tunable.h), checked
// where the options enter the library (Solve, Complete) and where text sets
// them: the pipeline's and the exact search's rows here, then each Solve
// method's, in the method table's order.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"
#include "base/tunable.h"
#include "nqueens/board.h"
#include "nqueens/params.h"
#include "nqueens/solver.h"
#include "solve/solve_methods.h"

namespace nqueens {
namespace {

using internal::CubicCoefficient;
using internal::kNoLimit;
using internal::Tunable;
using internal::TunableField;

// Every cubic coefficient: the paper's fit to its measurements.
constexpr double kCoefficientBound = 1e6;
#define NQUEENS_CUBIC(cubic, c, text)                                                        \
  Tunable {                                                                                  \
#cubic "." #c, CubicCoefficient{&PipelineParams::cubic, &Cubic::c }, -kCoefficientBound, \
                                    kCoefficientBound, text,                                 \
                                    "Grigoryan, arXiv:1912.05935, section 4.1"               \
  }

const Tunable kPipelineTunables[] = {
    {"large_formula_from_n", &PipelineParams::large_formula_from_n, 1, kMaxBoardSize,
     "boards from this n on use the large-n cubics for the base levels",
     "Grigoryan, arXiv:1912.05935, section 4.1"},
    NQUEENS_CUBIC(b2_small, c3, "baseLevel2 cubic for small n, u^3 coefficient"),
    NQUEENS_CUBIC(b2_small, c2, "baseLevel2 cubic for small n, u^2 coefficient"),
    NQUEENS_CUBIC(b2_small, c1, "baseLevel2 cubic for small n, u coefficient"),
    NQUEENS_CUBIC(b2_small, c0, "baseLevel2 cubic for small n, constant"),
    NQUEENS_CUBIC(b3_small, c3, "baseLevel3 cubic for small n, u^3 coefficient"),
    NQUEENS_CUBIC(b3_small, c2, "baseLevel3 cubic for small n, u^2 coefficient"),
    NQUEENS_CUBIC(b3_small, c1, "baseLevel3 cubic for small n, u coefficient"),
    NQUEENS_CUBIC(b3_small, c0, "baseLevel3 cubic for small n, constant"),
    NQUEENS_CUBIC(b2_large, c3, "baseLevel2 cubic for large n, u^3 coefficient"),
    NQUEENS_CUBIC(b2_large, c2, "baseLevel2 cubic for large n, u^2 coefficient"),
    NQUEENS_CUBIC(b2_large, c1,
                  "baseLevel2 cubic for large n, u coefficient (the sign that is continuous "
                  "at n = 30,000; the printed article has +)"),
    NQUEENS_CUBIC(b2_large, c0, "baseLevel2 cubic for large n, constant"),
    NQUEENS_CUBIC(b3_large, c3, "baseLevel3 cubic for large n, u^3 coefficient"),
    NQUEENS_CUBIC(b3_large, c2, "baseLevel3 cubic for large n, u^2 coefficient"),
    NQUEENS_CUBIC(b3_large, c1, "baseLevel3 cubic for large n, u coefficient"),
    NQUEENS_CUBIC(b3_large, c0, "baseLevel3 cubic for large n, constant"),
    {"finish_only_below_n", &PipelineParams::finish_only_below_n, 0, kMaxBoardSize,
     "boards below this n run the finishing stage (blocks 4-5) from the start",
     "Grigoryan, arXiv:1912.05935, section 4.2"},
    {"random_pairing_from_n", &PipelineParams::random_pairing_from_n, 0, kMaxBoardSize,
     "boards below this n (not finish-only) start at block 2 or 4",
     "Grigoryan, arXiv:1912.05935, section 4.2"},
    {"repeat_bound_small_n", &PipelineParams::repeat_bound_small_n, 1, 1e6,
     "repeats of block 5's inner loop from one outer choice, n < finish_only_below_n",
     "Grigoryan, arXiv:1912.05935, section 4.8"},
    {"repeat_bound", &PipelineParams::repeat_bound, 1, 1e6,
     "repeats of block 5's inner loop from one outer choice",
     "Grigoryan, arXiv:1912.05935, section 4.8"},
    {"sim_bound3", &PipelineParams::sim_bound3, 1, 1e6,
     "restores of block 3's start before going back to block 1 (simBound3)",
     "Grigoryan, arXiv:1912.05935, section 4.8"},
    {"sim_bound5", &PipelineParams::sim_bound5, 1, 1e9,
     "dead ends in block 5 before going back to block 3 (simBound5)",
     "Grigoryan, arXiv:1912.05935, section 4.8"},
    {"tot_sim_bound", &PipelineParams::tot_sim_bound, 0, kNoLimit,
     "backtracks per run (totSimBound; the RPCs' limits.max_backtracks), of each method's kind: "
     "the pipeline's returns to a block's start, BACKTRACKING's to the row above, "
     "MIN_CONFLICTS's queen moves (instead of min_conflicts_moves_per_row), GENETIC's boards "
     "bred that are no solution; 0: the methods' own bounds alone, 1000 for the pipeline",
     "Grigoryan, arXiv:1912.05935, section 4.8; docs/methods.md (Limits)"},
    {"max_restarts", &PipelineParams::max_restarts, 0, std::numeric_limits<uint32_t>::max(),
     "whole restarts after the first run, of the pipeline and MIN_CONFLICTS (the RPCs' "
     "limits.max_restarts)",
     "Grigoryan, arXiv:1912.05935, section 7 (10 restarts)"},
    {"pairing_chunks_from_n", &PipelineParams::pairing_chunks_from_n, 0,
     std::numeric_limits<uint32_t>::max(),
     "from this n on block 1 pairs rows and columns chunk by chunk, for the cache",
     "measured, docs/scale.md"},
    {"pairing_chunk", &PipelineParams::pairing_chunk, 1, kMaxBoardSize,
     "rows (and columns) per chunk in block 1's chunked passes", "measured, docs/pipeline.md"},
    {"match_construction", &PipelineParams::match_construction, 0, 1,
     "complete inputs lying in a known solution (the explicit construction, its images, "
     "modular and product solutions) before any search",
     "beyond the paper, docs/hard-instances.md"},
    {"exact_max_free_rows", &PipelineParams::exact_max_free_rows, 0, 65536,
     "the exact search decides compositions with at most this many free rows",
     "measured, docs/hard-instances.md"},
    {"exact_first_max_free_rows", &PipelineParams::exact_first_max_free_rows, 0, 1024,
     "with at most this many free rows the exact search runs before the heuristic",
     "measured, docs/hard-instances.md"},
    {"exact_max_seconds", &PipelineParams::exact_max_seconds, 0, 1e9,
     "seconds the exact search and BACKTRACKING may run; 0: until shortly before the call's "
     "deadline, or 60 s (the RPCs' limits.max_exact_seconds)",
     "docs/hard-instances.md"},
    {"exact_node_budget", &PipelineParams::exact_node_budget, 1, kNoLimit,
     "nodes the exact search and BACKTRACKING may visit (the RPCs' limits.max_exact_nodes)",
     "docs/hard-instances.md"},
};
#undef NQUEENS_CUBIC

// The pipeline's rows, then each Solve method's.
const std::vector<const Tunable*>& AllTunables() {
  static const auto* const all = [] {
    auto* list = new std::vector<const Tunable*>;
    for (const Tunable& tunable : kPipelineTunables) list->push_back(&tunable);
    for (const SolveMethodInfo& method : SolveMethods()) {
      for (const Tunable& tunable : internal::FindSolveMethodEntry(method.method)->tunables()) {
        list->push_back(&tunable);
      }
    }
    return list;
  }();
  return *all;
}

// The value of `field` in `params`, as a double (exact below 2^53; the
// limits past that are kNoLimit).
double Get(const PipelineParams& params, const TunableField& field) {
  struct Reader {
    const PipelineParams& params;
    double operator()(uint32_t PipelineParams::*f) const { return params.*f; }
    double operator()(uint64_t PipelineParams::*f) const { return static_cast<double>(params.*f); }
    double operator()(double PipelineParams::*f) const { return params.*f; }
    double operator()(bool PipelineParams::*f) const { return params.*f ? 1 : 0; }
    double operator()(const CubicCoefficient& c) const { return params.*c.cubic.*c.coefficient; }
  };
  return std::visit(Reader{params}, field);
}

bool IsReal(const TunableField& field) {
  return std::holds_alternative<double PipelineParams::*>(field) ||
         std::holds_alternative<CubicCoefficient>(field);
}

// The shortest text that reads back as `value`: the table shows the
// paper's coefficients as printed.
std::string Shortest(double value) {
  for (int digits = 6; digits < 17; ++digits) {
    std::string text = absl::StrFormat("%.*g", digits, value);
    double back = 0;
    if (absl::SimpleAtod(text, &back) && back == value) return text;
  }
  return absl::StrFormat("%.17g", value);
}

std::string Format(double value, const TunableField& field) {
  if (std::holds_alternative<bool PipelineParams::*>(field)) return value != 0 ? "true" : "false";
  if (IsReal(field)) return Shortest(value);
  if (value >= kNoLimit) return absl::StrCat(std::numeric_limits<uint64_t>::max());
  return absl::StrCat(static_cast<uint64_t>(value));
}

std::string RangeOf(const Tunable& tunable) {
  return absl::StrCat(Format(tunable.min, tunable.field), "..", Format(tunable.max, tunable.field));
}

absl::Status OutOfRange(const Tunable& tunable, absl::string_view value) {
  return absl::InvalidArgumentError(
      absl::StrCat("parameter ", tunable.name, " must be in ", RangeOf(tunable), ", not ", value));
}

const Tunable* Find(absl::string_view name) {
  for (const Tunable* tunable : AllTunables()) {
    if (name == tunable->name) return tunable;
  }
  return nullptr;
}

// Parses `text` for a tunable and stores it in its field of `params`;
// INVALID_ARGUMENT naming it.
class Writer {
 public:
  Writer(const Tunable& tunable, absl::string_view text, PipelineParams& params)
      : tunable_(tunable), text_(text), params_(params) {}

  absl::Status operator()(bool PipelineParams::*f) const {
    if (!absl::SimpleAtob(text_, &(params_.*f))) return OutOfRange(tunable_, text_);
    return absl::OkStatus();
  }
  absl::Status operator()(double PipelineParams::*f) const { return Real(params_.*f); }
  absl::Status operator()(const CubicCoefficient& c) const {
    return Real(params_.*c.cubic.*c.coefficient);
  }
  absl::Status operator()(uint32_t PipelineParams::*f) const { return Unsigned(params_.*f); }
  absl::Status operator()(uint64_t PipelineParams::*f) const { return Unsigned(params_.*f); }

 private:
  absl::Status Real(double& out) const {
    double value = 0;
    if (!absl::SimpleAtod(text_, &value) || !(value >= tunable_.min && value <= tunable_.max)) {
      return OutOfRange(tunable_, text_);
    }
    out = value;
    return absl::OkStatus();
  }
  template <typename T>
  absl::Status Unsigned(T& out) const {
    uint64_t value = 0;
    if (!absl::SimpleAtoi(text_, &value) || static_cast<double>(value) < tunable_.min ||
        static_cast<double>(value) > tunable_.max) {
      return OutOfRange(tunable_, text_);
    }
    out = static_cast<T>(value);
    return absl::OkStatus();
  }

  const Tunable& tunable_;
  absl::string_view text_;
  PipelineParams& params_;
};

}  // namespace

std::vector<ParamInfo> ParamTable() {
  const PipelineParams defaults;
  std::vector<ParamInfo> table;
  for (const Tunable* tunable : AllTunables()) {
    table.push_back({tunable->name, Format(Get(defaults, tunable->field), tunable->field),
                     Format(tunable->min, tunable->field), Format(tunable->max, tunable->field),
                     tunable->description, tunable->source});
  }
  return table;
}

absl::Status SetParam(PipelineParams& params, absl::string_view name, absl::string_view value) {
  const Tunable* tunable = Find(name);
  if (tunable == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat("unknown parameter ", name));
  }
  return std::visit(Writer(*tunable, value, params), tunable->field);
}

absl::Status CheckParams(const PipelineParams& params) {
  for (const Tunable* tunable : AllTunables()) {
    const double value = Get(params, tunable->field);
    if (!(value >= tunable->min && value <= tunable->max)) {
      return OutOfRange(*tunable, Format(value, tunable->field));
    }
  }
  return absl::OkStatus();
}

}  // namespace nqueens
