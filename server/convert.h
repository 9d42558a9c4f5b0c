// Conversions between the nqueens.v1 messages and the core's types. Pure
// functions: no gRPC calls, no logging.
#ifndef NQUEENS_SERVER_CONVERT_H_
#define NQUEENS_SERVER_CONVERT_H_

#include <chrono>
#include <cstdint>
#include <optional>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "google/protobuf/repeated_field.h"
#include "nqueens/board.h"
#include "nqueens/params.h"
#include "nqueens/solver.h"
#include "nqueens/v1/nqueens.pb.h"
#include "nqueens/validate.h"

namespace nqueens::server {

using ProtoColumns = google::protobuf::RepeatedField<uint32_t>;
using ProtoQueens = google::protobuf::RepeatedPtrField<v1::Queen>;

// The board of a request that may carry it dense or sparse (or not at all:
// the empty board). n must already have been checked.
absl::StatusOr<Columns> BoardFromRequest(uint64_t n, const ProtoColumns& columns,
                                         const ProtoQueens& queens);
// The sparse form alone (stream headers).
absl::StatusOr<Columns> BoardFromQueens(uint64_t n, const ProtoQueens& queens);

absl::StatusOr<SolveMethod> MethodFromProto(v1::Method method);
// Sets the search limits in `params`; zero fields keep the defaults.
void ApplyLimits(const v1::Limits& limits, PipelineParams* params);
// gRPC's "no deadline" (time_point::max()) becomes absl::InfiniteFuture().
absl::Time DeadlineFromChrono(std::chrono::system_clock::time_point deadline);

v1::Outcome OutcomeToProto(Outcome outcome);
v1::Stats StatsToProto(const CompletionStats& stats);
void ReportToProto(const ValidationReport& report, v1::ValidateResponse* response);

}  // namespace nqueens::server

#endif  // NQUEENS_SERVER_CONVERT_H_
