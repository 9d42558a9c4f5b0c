#include "server_process.h"

#include "absl/strings/match.h"
#include "absl/strings/string_view.h"

namespace nqueens::testing {
namespace {

std::vector<std::string> ServerCommand(const std::string& listen,
                                       const std::vector<std::string>& extra_flags) {
  std::vector<std::string> argv = {NQUEENS_SERVER_PATH, "--listen", listen};
  argv.insert(argv.end(), extra_flags.begin(), extra_flags.end());
  return argv;
}

}  // namespace

ServerProcess::ServerProcess(const std::vector<std::string>& extra_flags)
    : ServerProcess("127.0.0.1:0", "", extra_flags) {}

ServerProcess::ServerProcess(const std::string& listen, const std::string& log_path,
                             const std::vector<std::string>& extra_flags)
    : process_(ServerCommand(listen, extra_flags), /*capture_stderr=*/false, log_path) {
  constexpr absl::string_view kAnnouncement = "listening on ";
  while (std::optional<std::string> line = process_.ReadLine()) {
    if (absl::StartsWith(*line, kAnnouncement)) {
      address_ = line->substr(kAnnouncement.size());
      break;
    }
  }
  process_.DiscardStdout();
}

}  // namespace nqueens::testing
