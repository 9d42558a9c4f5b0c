// Conversions between the nqueens.v1 messages and the core's types, in both
// directions, for the server and the client alike. Pure functions: no gRPC
// calls, no logging.
#ifndef NQUEENS_WIRE_CONVERT_H_
#define NQUEENS_WIRE_CONVERT_H_

#include <chrono>
#include <cstdint>
#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "google/protobuf/repeated_field.h"
#include "nqueens/board.h"
#include "nqueens/count.h"
#include "nqueens/params.h"
#include "nqueens/parts.h"
#include "nqueens/solver.h"
#include "nqueens/v1/nqueens.pb.h"
#include "nqueens/validate.h"

namespace nqueens::wire {

using ProtoColumns = google::protobuf::RepeatedField<uint32_t>;
using ProtoQueens = google::protobuf::RepeatedPtrField<v1::Queen>;

// --- Boards. ---

// The board of a request that may carry it dense or sparse (or not at all:
// the empty board). n must already have been checked.
absl::StatusOr<Columns> BoardFromRequest(uint64_t n, const ProtoColumns& columns,
                                         const ProtoQueens& queens);
// `status` with its message behind the request's field that it is about
// ("columns: row 3 has column 9, ..."): the core's checks name rows and
// columns, the service's errors also the field as the .proto spells it.
absl::Status InField(absl::string_view field, const absl::Status& status);
// The sparse form alone (stream headers); errors name the field `queens`.
absl::StatusOr<Columns> BoardFromQueens(uint64_t n, const ProtoQueens& queens);

// A CompleteBatch item's n: a board of nqueens/board.h's sizes with at most
// kStreamingThreshold rows (larger ones go through CompleteStream), the same
// for the server and the CLI's --local batches. INVALID_ARGUMENT naming both.
absl::Status CheckBatchItemSize(uint64_t n);
void QueensToProto(const std::vector<Queen>& queens, ProtoQueens* out);

// --- Requests. ---

absl::StatusOr<SolveMethod> MethodFromProto(v1::Method method);
v1::Method MethodToProto(SolveMethod method);
absl::StatusOr<CompleteMethod> CompleteMethodFromProto(v1::CompleteMethod method);
v1::CompleteMethod CompleteMethodToProto(CompleteMethod method);
// A request's certificate_format: CERTIFICATE_FORMAT_UNSPECIFIED is the text
// format, which API 1.0 sent; INVALID_ARGUMENT for a value it does not know.
absl::StatusOr<CertificateFormat> CertificateFormatFromProto(v1::CertificateFormat format);
v1::CertificateFormat CertificateFormatToProto(CertificateFormat format);
// A request's part_index and part_count (0 meaning 1), checked
// (CheckPartSelector).
absl::StatusOr<PartSelector> PartFromProto(uint64_t part_index, uint64_t part_count);
// gRPC's "no deadline" (time_point::max()) becomes absl::InfiniteFuture().
absl::Time DeadlineFromChrono(std::chrono::system_clock::time_point deadline);

// --- Results. ---

v1::Outcome OutcomeToProto(Outcome outcome);
// nullopt for OUTCOME_UNSPECIFIED or an unknown value.
std::optional<Outcome> OutcomeFromProto(v1::Outcome outcome);
v1::Stats StatsToProto(const CompletionStats& stats);
CompletionStats StatsFromProto(const v1::Stats& stats);
void ReportToProto(const ValidationReport& report, v1::ValidateResponse* response);
void ReportToProto(const ValidationReport& report, v1::ValidateStreamResponse* response);
v1::CountProgress CountProgressToProto(const CountProgress& progress);
CountProgress CountProgressFromProto(const v1::CountProgress& proto);
v1::CountResult CountResultToProto(uint64_t n, const CountResult& result);
CountResult CountResultFromProto(const v1::CountResult& proto);
ValidationReport ReportFromProto(const v1::ValidateResponse& response);
ValidationReport ReportFromProto(const v1::ValidateStreamResponse& response);

}  // namespace nqueens::wire

#endif  // NQUEENS_WIRE_CONVERT_H_
