#include "command_line/completion.h"

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"

namespace nqueens::command_line {
namespace {

// Both scripts take the word to complete, after the flag before it (a
// value), after the command (its argument), or else a flag or a command.
constexpr char kBash[] =
    R"(# bash completion for @PROGRAM@ (written by `@PROGRAM@ @COMPLETION@ bash`)
@FUNCTION@() {
  local cur=${COMP_WORDS[COMP_CWORD]}
  local prev=${COMP_WORDS[COMP_CWORD-1]}
  if [[ $cur == = ]]; then
    cur=
  elif [[ $prev == = ]]; then
    prev=${COMP_WORDS[COMP_CWORD-2]}
  fi
  case $prev in
@VALUE_CASES@  esac
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "@FLAGS@" -- "$cur"))
    return
  fi
  local word
  for word in "${COMP_WORDS[@]:1:COMP_CWORD-1}"; do
    case $word in
@COMMAND_CASES@    esac
  done
  COMPREPLY=($(compgen -W "@COMMANDS@" -- "$cur"))
}
complete -F @FUNCTION@ @PROGRAM@
)";

constexpr char kZsh[] = R"(#compdef @PROGRAM@
# zsh completion for @PROGRAM@ (written by `@PROGRAM@ @COMPLETION@ zsh`)
@FUNCTION@() {
  local -a commands flags
  commands=(@COMMANDS@)
  flags=(@FLAGS@)
  case ${words[CURRENT-1]} in
@VALUE_CASES@  esac
  if [[ $PREFIX == -* ]]; then
    compadd -a flags
    return
  fi
  local word
  for word in ${words[2,CURRENT-1]}; do
    case $word in
@COMMAND_CASES@    esac
  done
  compadd -a commands
}
@FUNCTION@ "$@"
)";

// A case of either shell's `case` statement: `pattern) action ;;`.
std::string Case(const std::string& indent, const std::string& pattern, const std::string& action) {
  return absl::StrCat(indent, pattern, ")\n", indent, "  ", action, "\n", indent, "  return ;;\n");
}

std::string Words(const std::vector<std::string>& words) { return absl::StrJoin(words, " "); }

// What completes a list of words, or files.
struct Actions {
  std::string (*words)(const std::vector<std::string>&);
  std::string files;
};

std::string BashWords(const std::vector<std::string>& words) {
  return absl::StrCat("COMPREPLY=($(compgen -W \"", Words(words), "\" -- \"$cur\"))");
}
std::string ZshWords(const std::vector<std::string>& words) {
  return absl::StrCat("compadd ", Words(words));
}

std::string Script(const char* script, const Actions& actions, const CompletionWords& words) {
  std::string value_cases;
  if (!words.file_flags.empty()) {
    value_cases += Case("    ", absl::StrJoin(words.file_flags, " | "), actions.files);
  }
  for (const auto& [flag, values] : words.flag_values) {
    value_cases += Case("    ", flag, actions.words(values));
  }
  std::string command_cases;
  std::vector<std::string> names;
  for (const CompletionWords::Command& command : words.commands) {
    names.push_back(command.name);
    const std::string action = command.takes_file      ? actions.files
                               : command.words.empty() ? std::string("true")
                                                       : actions.words(command.words);
    command_cases += Case("      ", command.name, action);
  }
  // A program without commands is asked for its script by a flag.
  const std::string completion = words.commands.empty() ? "--completion" : "completion";
  return absl::StrReplaceAll(
      script, {{"@PROGRAM@", words.program},
               {"@FUNCTION@", absl::StrCat("_", absl::StrReplaceAll(words.program, {{"-", "_"}}))},
               {"@COMPLETION@", completion},
               {"@VALUE_CASES@", value_cases},
               {"@COMMAND_CASES@", command_cases},
               {"@FLAGS@", Words(words.flags)},
               {"@COMMANDS@", Words(names)}});
}

}  // namespace

absl::StatusOr<std::string> CompletionScript(absl::string_view shell,
                                             const CompletionWords& words) {
  if (shell == "bash") {
    return Script(kBash, {BashWords, "COMPREPLY=($(compgen -f -- \"$cur\"))"}, words);
  }
  if (shell == "zsh") return Script(kZsh, {ZshWords, "_files"}, words);
  return absl::InvalidArgumentError(
      absl::StrCat("completion: no script for shell \"", shell, "\" (expected bash or zsh)"));
}

}  // namespace nqueens::command_line
