#include "absl/strings/str_cat.h"
#include "command_line/command_line.h"
#include "git_revision.h"  // generated at build time: NQUEENS_GIT_REVISION

namespace nqueens::command_line {

std::string VersionLine(absl::string_view program) {
  return absl::StrCat(program, " ", NQUEENS_VERSION, " (git ", NQUEENS_GIT_REVISION, ", ",
                      NQUEENS_BUILD_TYPE, " build)");
}

}  // namespace nqueens::command_line
