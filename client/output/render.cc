#include "client/output/render.h"

#include <algorithm>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/time/time.h"

namespace nqueens::client {
namespace {

const char* YesNo(bool value) { return value ? "yes" : "no"; }

}  // namespace

std::string OutcomeLine(const CompletionResult& result, uint64_t n) {
  const CompletionStats& stats = result.stats;
  std::string line = absl::StrCat(
      OutcomeName(result.outcome), " n=", n, " seed=", stats.seed, " backtracks=", stats.backtracks,
      " restarts=", stats.restarts,
      " time=", absl::StrFormat("%.3f", absl::ToDoubleMilliseconds(stats.total_time)), "ms");
  if (!stats.method.empty()) absl::StrAppend(&line, " method=", stats.method);
  if (!stats.formula.empty()) absl::StrAppend(&line, " formula=\"", stats.formula, "\"");
  if (stats.repairs != 0) absl::StrAppend(&line, " repairs=", stats.repairs);
  if (stats.search_nodes != 0) absl::StrAppend(&line, " search_nodes=", stats.search_nodes);
  if (stats.generations != 0) absl::StrAppend(&line, " generations=", stats.generations);
  if (stats.exact_runs != 0) {
    absl::StrAppend(&line, " exact_nodes=", stats.exact_nodes, " exact_runs=", stats.exact_runs,
                    absl::StrFormat(" exact_explored=%.3g", stats.exact_explored));
  }
  return line + "\n";
}

std::string CountLine(const CountResult& result, uint64_t n) {
  std::string line = absl::StrCat("n=", n, " solutions=", result.solutions);
  if (result.fundamental.has_value()) absl::StrAppend(&line, " fundamental=", *result.fundamental);
  return absl::StrCat(line, " nodes=", result.nodes,
                      " time=", absl::StrFormat("%.3f", absl::ToDoubleSeconds(result.elapsed)),
                      "s\n");
}

std::string QLine(absl::Span<const uint32_t> columns) {
  return absl::StrCat(absl::StrJoin(columns, " "), "\n");
}

std::string DrawBoard(absl::Span<const uint32_t> columns, absl::Span<const uint32_t> given,
                      absl::Span<const Conflict> conflicts) {
  std::vector<bool> in_conflict(columns.size() + 1, false);  // by row
  for (const Conflict& conflict : conflicts) {
    in_conflict[conflict.first.row] = in_conflict[conflict.second.row] = true;
  }
  const bool marks_placed =
      std::any_of(given.begin(), given.end(), [](uint32_t column) { return column != 0; });
  std::string drawing;
  drawing.reserve(columns.size() * columns.size() * 2);
  for (uint64_t row = 1; row <= columns.size(); ++row) {
    const bool placed = marks_placed && given[row - 1] != columns[row - 1];
    for (uint64_t column = 1; column <= columns.size(); ++column) {
      if (column > 1) drawing += ' ';
      drawing += column != columns[row - 1] ? '.' : in_conflict[row] ? 'X' : placed ? 'q' : 'Q';
    }
    drawing += '\n';
  }
  if (marks_placed) drawing += "Q given, q placed\n";
  return drawing;
}

std::string ValidationText(const ValidationReport& report) {
  std::string text = absl::StrCat(
      "n: ", report.n, "\nvalid: ", YesNo(report.valid), "\ncomplete: ", YesNo(report.complete),
      "\nqueens: ", report.queen_count, "\nattacking pairs: ", report.attacking_pairs, "\n");
  for (const Conflict& conflict : report.conflicts) {
    absl::StrAppend(&text, "conflict: ", DescribeConflict(conflict), "\n");
  }
  if (report.attacking_pairs > report.conflicts.size()) {
    absl::StrAppend(&text,
                    "conflicts not listed: ", report.attacking_pairs - report.conflicts.size(),
                    " (the first ", report.conflicts.size(), " are)\n");
  }
  return text;
}

}  // namespace nqueens::client
