// Where a benchmark's report goes: stdout, and the file a flag such as
// --markdown names.
#ifndef NQUEENS_BENCH_COMMON_REPORT_H_
#define NQUEENS_BENCH_COMMON_REPORT_H_

#include <string>

#include "absl/strings/string_view.h"

namespace nqueens::bench {

// Writes `bytes` to `path`, replacing it; nothing when `path` is empty (the
// flag was not given). Exits the program with status 2 and a message on
// stderr when the file cannot be written, so that a lost report is noticed.
void WriteFile(const std::string& path, absl::string_view bytes);

// Prints `text` on stdout, then writes it to `path` as WriteFile does.
void PrintReport(absl::string_view text, const std::string& path);

}  // namespace nqueens::bench

#endif  // NQUEENS_BENCH_COMMON_REPORT_H_
