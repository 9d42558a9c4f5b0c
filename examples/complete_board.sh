#!/bin/sh
# Completes a board in the q format through the server's JSON over HTTP
# (nqueens-server --http-listen), with curl alone.
#
# usage: complete_board.sh [BOARD.q]   (default: composition-8.q beside this file)
#
# The HTTP address is $NQUEENS_HTTP (default localhost:8080). Prints the
# server's CompleteResponse, one JSON line.
set -eu
board=${1:-$(dirname "$0")/composition-8.q}
address=${NQUEENS_HTTP:-localhost:8080}
# The q format: integers, '#' starting a comment; n is how many there are.
columns=$(sed 's/#.*//' "$board" | tr -s ' \t\n' '\n' | grep -v '^$' | paste -sd, -)
n=$(printf '%s\n' "$columns" | tr ',' '\n' | wc -l)
curl -sS --fail-with-body "http://$address/v1/complete" \
  --json "{\"n\": $n, \"columns\": [$columns]}"
echo
