#include "server/observability/call_record.h"

namespace nqueens::server {

const char* CallOutcomeName(CallOutcome outcome) {
  switch (outcome) {
    case CallOutcome::kNone:
      break;
    case CallOutcome::kSolved:
      return OutcomeName(Outcome::kSolved);
    case CallOutcome::kUnsolvable:
      return OutcomeName(Outcome::kUnsolvable);
    case CallOutcome::kUndecided:
      return OutcomeName(Outcome::kUndecided);
    case CallOutcome::kComplete:
      return "complete";
    case CallOutcome::kValid:
      return "valid";
    case CallOutcome::kInvalid:
      return "invalid";
  }
  return "-";
}

CallOutcome CallOutcomeOf(Outcome outcome) {
  switch (outcome) {
    case Outcome::kSolved:
      return CallOutcome::kSolved;
    case Outcome::kUnsolvable:
      return CallOutcome::kUnsolvable;
    case Outcome::kUndecided:
      break;
  }
  return CallOutcome::kUndecided;
}

}  // namespace nqueens::server
