// nqueens-check-certificate BOARD CERTIFICATE: checks an UNSOLVABLE
// certificate (format in certificate_check.h) against the composition it
// was written for. BOARD is a text file in the CLI's `q` format (the column
// of each row's queen, 0 for an empty row) or its `sparse` format (n on the
// first line, then one `row column` pair per line); `#` starts a comment.
// Exit status 0: the certificate proves that the board has no completion;
// 1: it does not (the reason on stderr); 2: a file cannot be read.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "checker/certificate_check.h"

namespace {

bool ReadFile(const char* path, std::string& text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream content;
  content << in.rdbuf();
  text = content.str();
  return true;
}

// The numbers of a text board, lines without comments, by line.
std::vector<std::vector<uint64_t>> Numbers(const std::string& text, bool& ok) {
  std::vector<std::vector<uint64_t>> lines;
  ok = true;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    line = line.substr(0, line.find('#'));
    std::vector<uint64_t> numbers;
    for (absl::string_view token :
         absl::StrSplit(line, absl::ByAnyChar(" \t\r,"), absl::SkipEmpty())) {
      uint64_t x = 0;
      ok = ok && absl::SimpleAtoi(token, &x) && x <= UINT32_MAX;
      numbers.push_back(x);
    }
    if (!numbers.empty()) lines.push_back(std::move(numbers));
  }
  return lines;
}

// The board's columns: sparse when the first line is n alone and every other
// line a pair (as the CLI detects it), else a Q array.
bool ParseBoard(const std::string& text, std::vector<uint32_t>& columns) {
  bool ok = true;
  const std::vector<std::vector<uint64_t>> lines = Numbers(text, ok);
  if (!ok || lines.empty()) return false;
  bool sparse = lines.front().size() == 1;
  for (size_t i = 1; i < lines.size(); ++i) sparse = sparse && lines[i].size() == 2;
  if (sparse) {
    const uint64_t n = lines.front().front();
    columns.assign(n, 0);
    for (size_t i = 1; i < lines.size(); ++i) {
      const uint64_t row = lines[i][0], column = lines[i][1];
      if (row < 1 || row > n || columns[row - 1] != 0) return false;
      columns[row - 1] = static_cast<uint32_t>(column);
    }
    return true;
  }
  for (const std::vector<uint64_t>& line : lines) {
    for (uint64_t x : line) columns.push_back(static_cast<uint32_t>(x));
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: nqueens-check-certificate BOARD CERTIFICATE\n");
    return 2;
  }
  std::string board_text, certificate;
  std::vector<uint32_t> columns;
  if (!ReadFile(argv[1], board_text) || !ParseBoard(board_text, columns)) {
    std::fprintf(stderr, "cannot read a board from %s\n", argv[1]);
    return 2;
  }
  if (!ReadFile(argv[2], certificate)) {
    std::fprintf(stderr, "cannot read %s\n", argv[2]);
    return 2;
  }
  const absl::Status status = nqueens::checker::CheckCertificate(columns, certificate);
  if (!status.ok()) {
    std::fprintf(stderr, "%s: not a proof: %s\n", argv[2], std::string(status.message()).c_str());
    return 1;
  }
  std::printf("%s proves that %s has no completion\n", argv[2], argv[1]);
  return 0;
}
