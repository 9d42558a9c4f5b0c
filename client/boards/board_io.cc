#include "client/boards/board_io.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "client/boards/board_formats.h"

namespace nqueens::client {
namespace {

// Editors on some systems start UTF-8 text with it; it is no part of a text
// board (and invisible in an error message).
constexpr absl::string_view kByteOrderMark = "\xEF\xBB\xBF";

using formats::ContentLines;
using formats::CountCells;
using formats::IsSpace;
using formats::ParseNumber;
using formats::SplitTokens;

// The number of cells of a line made only of `0`/`1` cells, else 0.
uint64_t BinaryCellCount(absl::string_view line) {
  for (char c : line) {
    if (!IsSpace(c) && c != '0' && c != '1') return 0;
  }
  return CountCells(line);
}

// Whether `line` is exactly `count` (at most 2) numbers. Looks at no more
// than count + 1 tokens, however long the line.
bool HoldsNumbers(absl::string_view line, size_t count) {
  absl::string_view tokens[2];
  if (SplitTokens(line, tokens, count) != count) return false;
  return std::all_of(tokens, tokens + count,
                     [](absl::string_view token) { return ParseNumber(token).has_value(); });
}

constexpr std::pair<const char*, BoardFormat> kBoardFormats[] = {{"auto", BoardFormat::kAuto},
                                                                 {"q", BoardFormat::kQArray},
                                                                 {"matrix", BoardFormat::kMatrix},
                                                                 {"sparse", BoardFormat::kSparse},
                                                                 {"binary", BoardFormat::kBinary}};

}  // namespace

std::vector<std::string> BoardFormatNames() {
  std::vector<std::string> names;
  for (const auto& [name, format] : kBoardFormats) names.emplace_back(name);
  return names;
}

absl::StatusOr<BoardFormat> ParseBoardFormat(absl::string_view name) {
  for (const auto& [known, format] : kBoardFormats) {
    if (name == known) return format;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown board format \"", name, "\" (expected auto, q, matrix, sparse or binary)"));
}

BoardFormat FormatFromPath(absl::string_view path) {
  return absl::EndsWith(path, ".bin") || absl::EndsWith(path, ".u32") ? BoardFormat::kBinary
                                                                      : BoardFormat::kAuto;
}

BoardFormat DetectFormat(absl::string_view text) {
  constexpr size_t kBinarySniffSize = 4096;  // rule 0 at the top of board_io.h
  if (text.substr(0, kBinarySniffSize).find('\0') != absl::string_view::npos) {
    return BoardFormat::kBinary;
  }
  absl::ConsumePrefix(&text, kByteOrderMark);
  ContentLines lines(text);
  if (!lines.Next()) return BoardFormat::kQArray;
  const absl::string_view first = lines.line();
  if (first.find('.') != absl::string_view::npos || first.find('Q') != absl::string_view::npos) {
    return BoardFormat::kMatrix;
  }
  const bool has_second = lines.Next();
  if (has_second) {
    const uint64_t cells = BinaryCellCount(first);
    if (cells >= 2 && cells == BinaryCellCount(lines.line())) {
      return BoardFormat::kMatrix;
    }
  }
  if (HoldsNumbers(first, 1) && (!has_second || HoldsNumbers(lines.line(), 2))) {
    return BoardFormat::kSparse;
  }
  return BoardFormat::kQArray;
}

absl::StatusOr<Board> ParseBoard(absl::string_view text, BoardFormat format) {
  if (format == BoardFormat::kAuto) format = DetectFormat(text);
  if (format != BoardFormat::kBinary) absl::ConsumePrefix(&text, kByteOrderMark);
  switch (format) {
    case BoardFormat::kMatrix:
      return formats::ParseMatrix(text);
    case BoardFormat::kSparse:
      return formats::ParseSparse(text);
    case BoardFormat::kBinary: {
      Columns values((text.size() + 3) / 4);
      if (!text.empty()) std::memcpy(values.data(), text.data(), text.size());
      return ParseBinaryBoard(std::move(values), text.size());
    }
    case BoardFormat::kQArray:
    case BoardFormat::kAuto:
      break;
  }
  return formats::ParseQArray(text);
}

absl::Status CheckOutputFormat(uint64_t n, BoardFormat format) {
  if (format == BoardFormat::kAuto) {
    return absl::InvalidArgumentError("the output format must be q, matrix, sparse or binary");
  }
  if (format == BoardFormat::kMatrix && n > kMaxMatrixOutputSize) {
    return absl::InvalidArgumentError(
        absl::StrCat("matrix output is limited to n <= ", kMaxMatrixOutputSize, " (n = ", n,
                     "); use --output-format q, sparse or binary"));
  }
  return absl::OkStatus();
}

void WriteBoard(absl::Span<const uint32_t> columns, BoardFormat format,
                absl::FunctionRef<void(absl::string_view)> sink) {
  switch (format) {
    case BoardFormat::kMatrix:
      return formats::WriteMatrix(columns, sink);
    case BoardFormat::kSparse:
      return formats::WriteSparse(columns, sink);
    case BoardFormat::kBinary:
      return formats::WriteBinary(columns, sink);
    case BoardFormat::kQArray:
    case BoardFormat::kAuto:
      return formats::WriteQArray(columns, sink);
  }
}

std::string FormatBoard(absl::Span<const uint32_t> columns, BoardFormat format) {
  std::string text;
  WriteBoard(columns, format,
             [&text](absl::string_view piece) { text.append(piece.data(), piece.size()); });
  return text;
}

}  // namespace nqueens::client
