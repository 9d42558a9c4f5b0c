// nqueens complete --batch FILE: many compositions, one per line of FILE
// ("-" for stdin) as JSON, each a CompleteRequest in the proto's JSON mapping
// ({"n": 8, "columns": [1, 0, ...]} or {"n": 8, "queens": [{"row": 1,
// "column": 1}]}, with any other of its fields: a seed, limits or method
// it gives take the place of --seed, --max-* or --method). Writes one JSON
// line per input line, in input order, to --output or stdout: the
// CompleteResponse, or {"error": {"code": ..., "message": "line N: ..."}}
// for a line that could not be read or was refused, a blank line included:
// the n-th answer is the n-th line's.
#ifndef NQUEENS_CLIENT_BATCH_H_
#define NQUEENS_CLIENT_BATCH_H_

#include <string>

#include "client/backends/backend.h"
#include "client/commands.h"

namespace nqueens::client {

// Exit status: 0 when every line was answered (whatever its outcome), 1 when
// some line was refused (how many is said on stderr, unless --quiet), 2 for
// an unreadable input, 3 when the batch failed.
int RunBatch(Backend& backend, const std::string& input_path, const CommandOptions& options);

}  // namespace nqueens::client

#endif  // NQUEENS_CLIENT_BATCH_H_
