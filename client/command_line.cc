#include "command_line.h"

#include "absl/flags/commandlineflag.h"
#include "absl/flags/reflection.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"

namespace nqueens::client {
namespace {

// A flag by its name as typed; for booleans also "noname", which sets it to
// false.
absl::CommandLineFlag* FindFlag(absl::string_view typed_name, bool* negated) {
  std::string name = absl::StrReplaceAll(typed_name, {{"-", "_"}});
  *negated = false;
  if (absl::CommandLineFlag* flag = absl::FindCommandLineFlag(name)) {
    return flag;
  }
  if (!absl::StartsWith(name, "no")) return nullptr;
  absl::CommandLineFlag* flag = absl::FindCommandLineFlag(name.substr(2));
  if (flag == nullptr || !flag->IsOfType<bool>()) return nullptr;
  *negated = true;
  return flag;
}

}  // namespace

absl::StatusOr<std::vector<std::string>> ParseFlags(int argc, const char* const* argv) {
  std::vector<std::string> positional;
  for (int i = 1; i < argc; ++i) {
    const absl::string_view argument = argv[i];
    if (argument == "--") {
      positional.insert(positional.end(), argv + i + 1, argv + argc);
      break;
    }
    if (argument.size() < 2 || argument[0] != '-') {
      positional.emplace_back(argument);
      continue;
    }
    const absl::string_view spelled = argument.substr(argument[1] == '-' ? 2 : 1);
    const size_t equals = spelled.find('=');
    const bool has_value = equals != absl::string_view::npos;
    const absl::string_view typed_name = argument.substr(0, argument.find('='));
    absl::string_view value = has_value ? spelled.substr(equals + 1) : "";

    bool negated = false;
    absl::CommandLineFlag* flag = FindFlag(spelled.substr(0, equals), &negated);
    if (flag == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat("unknown flag ", typed_name));
    }
    if (negated && has_value) {
      return absl::InvalidArgumentError(absl::StrCat(typed_name, " takes no value"));
    }
    if (!has_value) {
      if (flag->IsOfType<bool>()) {
        value = negated ? "false" : "true";
      } else if (i + 1 < argc) {
        value = argv[++i];
      } else {
        return absl::InvalidArgumentError(absl::StrCat("missing value for ", typed_name));
      }
    }
    std::string error;
    if (!flag->ParseFrom(value, &error)) {
      return absl::InvalidArgumentError(
          absl::StrCat("invalid value \"", value, "\" for ", typed_name, ": ", error));
    }
  }
  return positional;
}

}  // namespace nqueens::client
