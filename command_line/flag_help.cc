#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "absl/flags/commandlineflag.h"
#include "absl/flags/reflection.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "command_line/command_line.h"

namespace nqueens::command_line {
namespace {

constexpr size_t kWidth = 79;
constexpr char kIndent[] = "      ";

// The flags defined in `defined_in`, sorted by name.
std::vector<const absl::CommandLineFlag*> FlagsDefinedIn(absl::string_view defined_in) {
  std::vector<const absl::CommandLineFlag*> flags;
  for (const auto& [name, flag] : absl::GetAllFlags()) {
    if (absl::EndsWith(flag->Filename(), defined_in)) flags.push_back(flag);
  }
  std::sort(flags.begin(), flags.end(),
            [](const auto* a, const auto* b) { return a->Name() < b->Name(); });
  return flags;
}

std::string Dashed(absl::string_view name) { return absl::StrReplaceAll(name, {{"_", "-"}}); }

}  // namespace

std::string Wrap(absl::string_view text, absl::string_view indent) {
  std::string out;
  std::string line(indent);
  for (absl::string_view word : absl::StrSplit(text, ' ', absl::SkipEmpty())) {
    if (line.size() > indent.size() && line.size() + 1 + word.size() > kWidth) {
      absl::StrAppend(&out, line, "\n");
      line = std::string(indent);
    }
    absl::StrAppend(&line, line.size() > indent.size() ? " " : "", word);
  }
  return absl::StrCat(out, line, "\n");
}

std::string FlagHelp(absl::string_view defined_in, const HelpValues& values,
                     const std::set<std::string>* only) {
  std::string help;
  for (const absl::CommandLineFlag* flag : FlagsDefinedIn(defined_in)) {
    if (only != nullptr && only->count(std::string(flag->Name())) == 0) continue;
    const std::string value = flag->DefaultValue();
    absl::StrAppend(&help, "  --", Dashed(flag->Name()), "=", value.empty() ? "\"\"" : value, "\n",
                    Wrap(absl::StrReplaceAll(flag->Help(), values), kIndent));
  }
  return help;
}

std::vector<std::string> FlagNames(absl::string_view defined_in) {
  std::vector<std::string> names;
  for (const absl::CommandLineFlag* flag : FlagsDefinedIn(defined_in)) {
    names.push_back(absl::StrCat("--", Dashed(flag->Name())));
  }
  return names;
}

}  // namespace nqueens::command_line
