#include "client/output/picture.h"

#include <algorithm>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace nqueens::client {
namespace {

// Colours: light and dark squares, given queens, placed queens, conflicts.
constexpr char kLight[] = "#f0d9b5";
constexpr char kDark[] = "#b58863";
constexpr char kGiven[] = "#202020";
constexpr char kPlaced[] = "#1f6fd0";
constexpr char kConflict[] = "#d01f1f";

// The picture is at most this many pixels wide; cells at most 40.
constexpr double kMaxWidth = 1200;
constexpr double kMaxCell = 40;

// The checkerboard as one pattern of two by two cells, so that the file grows
// with the queens, not with n^2.
std::string Squares(uint64_t n) {
  return absl::StrCat(
      "<defs><pattern id=\"squares\" width=\"2\" height=\"2\" patternUnits=\"userSpaceOnUse\">",
      "<rect width=\"2\" height=\"2\" fill=\"", kLight, "\"/>",
      "<rect width=\"1\" height=\"1\" x=\"1\" fill=\"", kDark, "\"/>",
      "<rect width=\"1\" height=\"1\" y=\"1\" fill=\"", kDark, "\"/></pattern></defs>",
      "<rect width=\"", n, "\" height=\"", n, "\" fill=\"url(#squares)\"/>\n");
}

std::string Disc(uint64_t row, uint64_t column, const char* colour) {
  return absl::StrFormat("<circle cx=\"%d.5\" cy=\"%d.5\" r=\"0.38\" fill=\"%s\"/>\n", column - 1,
                         row - 1, colour);
}

}  // namespace

std::string BoardSvg(absl::Span<const uint32_t> columns, absl::Span<const uint32_t> given,
                     absl::Span<const Conflict> conflicts) {
  const uint64_t n = columns.size();
  const double size = std::min(kMaxWidth, kMaxCell * static_cast<double>(n));
  std::string svg = absl::StrFormat(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%g\" height=\"%g\" viewBox=\"0 0 %d %d\" "
      "shape-rendering=\"crispEdges\">\n<title>%d queens on %d x %d</title>\n",
      size, size, n, n, static_cast<uint64_t>(n - std::count(columns.begin(), columns.end(), 0u)),
      n, n);
  absl::StrAppend(&svg, Squares(n));
  std::set<std::pair<uint32_t, uint32_t>> conflicting;
  for (const Conflict& conflict : conflicts) {
    conflicting.insert({conflict.first.row, conflict.first.column});
    conflicting.insert({conflict.second.row, conflict.second.column});
    absl::StrAppendFormat(&svg,
                          "<line x1=\"%d.5\" y1=\"%d.5\" x2=\"%d.5\" y2=\"%d.5\" stroke=\"%s\" "
                          "stroke-width=\"0.12\"/>\n",
                          conflict.first.column - 1, conflict.first.row - 1,
                          conflict.second.column - 1, conflict.second.row - 1, kConflict);
  }
  for (uint64_t row = 1; row <= n; ++row) {
    const uint32_t column = columns[row - 1];
    if (column == 0) continue;
    const char* colour = conflicting.count({static_cast<uint32_t>(row), column}) != 0 ? kConflict
                         : !given.empty() && given[row - 1] == column                 ? kGiven
                                                                                      : kPlaced;
    absl::StrAppend(&svg, Disc(row, column, colour));
  }
  return absl::StrCat(svg, "</svg>\n");
}

}  // namespace nqueens::client
