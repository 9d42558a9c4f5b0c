// What one finished call reports: its log line (logging.h) and the metrics
// (metrics.h) both take a CallRecord, which the Call fills as it goes.
#ifndef NQUEENS_SERVER_OBSERVABILITY_CALL_RECORD_H_
#define NQUEENS_SERVER_OBSERVABILITY_CALL_RECORD_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "nqueens/solver.h"

namespace nqueens::server {

// What a call's work concluded: a completion's outcome, or a validation's
// verdict on the board.
enum class CallOutcome : int {
  kNone,  // the call ended before its work did
  kSolved,
  kUnsolvable,
  kUndecided,
  kComplete,  // a full solution
  kValid,     // no two queens attack, some rows empty
  kInvalid,   // queens attack
};
inline constexpr int kCallOutcomeCount = 7;

// As the API names a completion's outcome ("SOLVED", "UNSOLVABLE",
// "UNDECIDED"), and "complete", "valid", "invalid"; "-" for kNone.
const char* CallOutcomeName(CallOutcome outcome);
CallOutcome CallOutcomeOf(Outcome outcome);

struct CallRecord {
  const char* method = "";  // "Solve", "CompleteStream", ...
  std::string request_id;
  std::string peer;                // e.g. "ipv4:127.0.0.1:40123"
  const char* transport = "grpc";  // or "http" (security/call_origin.h)
  uint64_t n = 0;                  // 0 until the request told
  uint64_t queens_given = 0;       // k
  CallOutcome outcome = CallOutcome::kNone;
  uint64_t exact_nodes = 0;  // visited by the core's exact search
  absl::Status status;
  absl::Duration duration;  // from arrival to the end, queueing included
};

}  // namespace nqueens::server

#endif  // NQUEENS_SERVER_OBSERVABILITY_CALL_RECORD_H_
