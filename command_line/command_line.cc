#include "command_line/command_line.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <set>
#include <utility>

#include "absl/flags/commandlineflag.h"
#include "absl/flags/reflection.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "absl/time/time.h"
#include "command_line/flag_file.h"

namespace nqueens::command_line {
namespace {

// Nested --flagfile: deeper is taken for a loop.
constexpr int kMaxFlagfileDepth = 8;

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

bool IsList(const absl::CommandLineFlag& flag) { return flag.IsOfType<std::vector<std::string>>(); }

// A positional argument: not a flag, "-", or a negative number.
bool IsPositional(absl::string_view argument) {
  if (argument.size() < 2 || argument[0] != '-') return true;
  return std::isdigit(static_cast<unsigned char>(argument[1])) != 0;
}

// Sets flags from one source after another; a list flag given again within
// argv (flag files included) adds to its list.
// What a value of `flag`'s type looks like, for the error when Abseil gives
// no reason of its own.
std::string ExpectedValue(const absl::CommandLineFlag& flag) {
  if (flag.IsOfType<absl::Duration>()) return "a duration with a unit: 10s, 500ms, 2m, or inf";
  if (flag.IsOfType<bool>()) return "true or false";
  if (flag.IsOfType<double>()) return "a number";
  if (flag.IsOfType<std::string>() || IsList(flag)) return "";
  return "a whole number in the flag's range";
}

// Sets `flag` from `text` (`value` as the user wrote it, which `source`
// named). The error is one sentence: Abseil's own starts "Illegal value 'X'
// specified for flag 'x'", which repeats what this one already says.
absl::Status ParseInto(absl::CommandLineFlag& flag, const std::string& text,
                       absl::string_view value, absl::string_view source) {
  std::string error;
  if (flag.ParseFrom(text, &error)) return absl::OkStatus();
  absl::string_view reason = error;
  if (absl::StartsWith(reason, "Illegal value")) {
    const size_t end = reason.find("'; ");
    reason = end == absl::string_view::npos ? "" : reason.substr(end + 3);
  }
  std::string why(reason);
  if (why.empty() && !ExpectedValue(flag).empty()) why = "expected " + ExpectedValue(flag);
  return absl::InvalidArgumentError(
      absl::StrCat("invalid value \"", value, "\" for ", source, why.empty() ? "" : ": ", why));
}

class Parser {
 public:
  absl::Status ParseEnvironment(const FlagSources& sources);
  // Parses `args` (argv without the program name, or a flag file's lines,
  // then `where` names the file for errors).
  absl::Status ParseArguments(const std::vector<std::string>& args, const std::string& where,
                              int depth);
  std::vector<std::string> TakePositional() { return std::move(positional_); }
  const std::set<std::string>& given() const { return given_; }

 private:
  absl::Status Set(absl::CommandLineFlag& flag, absl::string_view value,
                   absl::string_view typed_name);
  absl::Status ReadFlagfile(const std::string& path, int depth);

  std::set<std::string> listed_;  // list flags set from argv so far
  std::set<std::string> given_;   // every flag set from argv or a flag file
  std::vector<std::string> positional_;
};

absl::Status Parser::Set(absl::CommandLineFlag& flag, absl::string_view value,
                         absl::string_view typed_name) {
  std::string text(value);
  given_.insert(std::string(flag.Name()));
  if (IsList(flag) && !listed_.insert(std::string(flag.Name())).second) {
    text = absl::StrCat(flag.CurrentValue(), ",", value);
  }
  return ParseInto(flag, text, value, typed_name);
}

absl::Status Parser::ParseEnvironment(const FlagSources& sources) {
  if (sources.environment_prefix.empty() || !sources.environment) return absl::OkStatus();
  for (const auto& [name, flag] : absl::GetAllFlags()) {
    if (!absl::EndsWith(flag->Filename(), sources.defined_in)) continue;
    const std::string variable =
        absl::AsciiStrToUpper(absl::StrCat(sources.environment_prefix, "_", name));
    const std::optional<std::string> value = sources.environment(variable);
    if (!value.has_value()) continue;
    if (absl::Status set = ParseInto(*flag, *value, *value, variable); !set.ok()) return set;
  }
  return absl::OkStatus();
}

absl::Status Parser::ReadFlagfile(const std::string& path, int depth) {
  if (depth >= kMaxFlagfileDepth) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--flagfile ", path, ": flag files nest more than ", kMaxFlagfileDepth, " deep"));
  }
  const absl::StatusOr<std::string> content = ReadFlagFile("--flagfile", path);
  if (!content.ok()) return content.status();
  std::vector<std::string> lines;
  for (absl::string_view line : absl::StrSplit(*content, '\n')) {
    lines.push_back(std::string(absl::StripAsciiWhitespace(line)));
  }
  return ParseArguments(lines, path, depth + 1);
}

absl::Status Parser::ParseArguments(const std::vector<std::string>& args, const std::string& where,
                                    int depth) {
  for (size_t i = 0; i < args.size(); ++i) {
    const absl::string_view argument = args[i];
    // In a flag file: "FILE:LINE: ", blank and comment lines skipped.
    const std::string at = where.empty() ? "" : absl::StrCat(where, ":", i + 1, ": ");
    if (!where.empty() && (argument.empty() || argument[0] == '#')) continue;
    if (argument == "--" && where.empty()) {
      positional_.insert(positional_.end(), args.begin() + i + 1, args.end());
      break;
    }
    if (IsPositional(argument)) {
      if (!where.empty()) return absl::InvalidArgumentError(absl::StrCat(at, "expected a flag"));
      positional_.emplace_back(argument);
      continue;
    }
    const absl::string_view spelled = argument.substr(argument[1] == '-' ? 2 : 1);
    const size_t equals = spelled.find('=');
    const bool has_value = equals != absl::string_view::npos;
    const absl::string_view typed_name = argument.substr(0, argument.find('='));
    absl::string_view value = has_value ? spelled.substr(equals + 1) : "";
    const absl::string_view name = spelled.substr(0, equals);
    bool negated = false;
    absl::CommandLineFlag* flag =
        name == "h" ? absl::FindCommandLineFlag("help") : FindFlag(name, &negated);
    if (flag == nullptr && name != "flagfile") {
      return absl::InvalidArgumentError(absl::StrCat(at, "unknown flag ", typed_name));
    }
    if (negated && has_value) {
      return absl::InvalidArgumentError(absl::StrCat(at, typed_name, " takes no value"));
    }
    if (!has_value) {
      if (flag != nullptr && flag->IsOfType<bool>()) {
        value = negated ? "false" : "true";
      } else if (i + 1 < args.size() && where.empty()) {
        value = args[++i];
      } else {
        return absl::InvalidArgumentError(absl::StrCat(at, "missing value for ", typed_name));
      }
    }
    absl::Status set = name == "flagfile" ? ReadFlagfile(std::string(value), depth)
                                          : Set(*flag, value, typed_name);
    if (!set.ok()) return absl::InvalidArgumentError(absl::StrCat(at, set.message()));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::vector<std::string>> ParseFlags(int argc, const char* const* argv,
                                                    const FlagSources& sources,
                                                    std::set<std::string>* given) {
  Parser parser;
  if (absl::Status status = parser.ParseEnvironment(sources); !status.ok()) return status;
  const std::vector<std::string> args(argv + std::min(argc, 1), argv + argc);
  if (absl::Status status = parser.ParseArguments(args, "", 0); !status.ok()) return status;
  if (given != nullptr) *given = parser.given();
  return parser.TakePositional();
}

Environment ProcessEnvironment() {
  return [](const std::string& name) -> std::optional<std::string> {
    const char* value = std::getenv(name.c_str());
    if (value == nullptr) return std::nullopt;
    return value;
  };
}

}  // namespace nqueens::command_line
