#include "render.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/time.h"

namespace nqueens::client {
namespace {

const char* YesNo(bool value) { return value ? "yes" : "no"; }

}  // namespace

std::string OutcomeLine(const CompletionResult& result, uint64_t n) {
  const CompletionStats& stats = result.stats;
  return absl::StrCat(
      OutcomeName(result.outcome), " n=", n, " seed=", stats.seed, " backtracks=", stats.backtracks,
      " restarts=", stats.restarts,
      " time=", absl::StrFormat("%.3f", absl::ToDoubleMilliseconds(stats.total_time)), "ms\n");
}

std::string DrawBoard(absl::Span<const uint32_t> columns) {
  std::string drawing;
  drawing.reserve(columns.size() * columns.size() * 2);
  for (uint32_t queen_column : columns) {
    for (uint64_t column = 1; column <= columns.size(); ++column) {
      if (column > 1) drawing += ' ';
      drawing += column == queen_column ? 'Q' : '.';
    }
    drawing += '\n';
  }
  return drawing;
}

std::string ValidationText(const ValidationReport& report) {
  std::string text = absl::StrCat(
      "n: ", report.n, "\nvalid: ", YesNo(report.valid), "\ncomplete: ", YesNo(report.complete),
      "\nqueens: ", report.queen_count, "\nattacking pairs: ", report.attacking_pairs, "\n");
  for (const Conflict& conflict : report.conflicts) {
    absl::StrAppend(&text, "conflict: ", DescribeConflict(conflict), "\n");
  }
  return text;
}

}  // namespace nqueens::client
