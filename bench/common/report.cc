#include "bench/common/report.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>

namespace nqueens::bench {

void WriteFile(const std::string& path, absl::string_view bytes) {
  if (path.empty()) return;
  std::ofstream file(path, std::ios::binary);
  file.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  file.close();
  if (!file) {
    std::fprintf(stderr, "cannot write %s\n", path.c_str());
    std::exit(2);
  }
}

void PrintReport(absl::string_view text, const std::string& path) {
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
  WriteFile(path, text);
}

}  // namespace nqueens::bench
