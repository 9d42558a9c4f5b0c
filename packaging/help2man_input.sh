#!/bin/sh
# help2man_input.sh PROGRAM OPTION: what PROGRAM prints for OPTION (--help),
# reshaped for help2man, which reads the man page's sections from headings it
# knows and takes a line indented 20 columns for the description of the item
# above it (.TP):
#   "usage: ..." and its following lines   -> Usage: ... / or: ... (SYNOPSIS)
#   the indented paragraph after them      -> "commands:", each command with
#     (nqueens' commands, each with its       its description (DESCRIPTION)
#     description indented below it)
#   "exit status: ..."                     -> the section EXIT STATUS
#   "flags:" and the flags below it        -> Options:, each flag with its
#                                             description (OPTIONS)
#   docs/X (the source tree's)             -> /usr/share/doc/nqueens/docs/X (installed)
# Fails when PROGRAM does.
set -eu
text=$("$@")
printf '%s\n' "$text" | awk '
  { gsub(/docs\/[A-Za-z\/]*[A-Za-z]\.md/, "/usr/share/doc/nqueens/&") }
  state == "" && /^usage: / { sub(/^usage: /, "Usage: "); state = "usage"; print; next }
  state == "usage" && /^       [^ ]/ { sub(/^       /, "   or: "); print; next }
  state == "usage" && /^$/ { state = "after usage"; print; next }
  state == "after usage" && /^  [^ ]/ { print "commands:"; state = "commands" }
  state == "after usage" { state = "text" }
  state == "commands" && /^$/ { state = "text" }
  state == "commands" || state == "flags" { sub(/^      /, "                    ") }
  /^exit status: / { sub(/^exit status: /, "*Exit Status*\n") }
  /^flags:$/ { print "Options:"; state = "flags"; next }
  { print }
'
