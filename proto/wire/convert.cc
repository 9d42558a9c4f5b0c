#include "wire/convert.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "wire/limits.h"

namespace nqueens::wire {
namespace {

v1::Block BlockToProto(Block block) {
  // The proto enum numbers the blocks like the core (kNone = UNSPECIFIED).
  return static_cast<v1::Block>(static_cast<int>(block));
}

AttackLine LineFromProto(v1::Line line) {
  switch (line) {
    case v1::LINE_DIAGONAL:
      return AttackLine::kDiagonal;
    case v1::LINE_ANTI_DIAGONAL:
      return AttackLine::kAntiDiagonal;
    default:
      return AttackLine::kColumn;
  }
}

Queen QueenFromProto(const v1::Queen& queen) { return Queen{queen.row(), queen.column()}; }

v1::Line LineToProto(AttackLine line) {
  switch (line) {
    case AttackLine::kColumn:
      return v1::LINE_COLUMN;
    case AttackLine::kDiagonal:
      return v1::LINE_DIAGONAL;
    case AttackLine::kAntiDiagonal:
      return v1::LINE_ANTI_DIAGONAL;
  }
  return v1::LINE_UNSPECIFIED;
}

void QueenToProto(const Queen& queen, v1::Queen* out) {
  out->set_row(queen.row);
  out->set_column(queen.column);
}

}  // namespace

absl::Status InField(absl::string_view field, const absl::Status& status) {
  return absl::Status(status.code(), absl::StrCat(field, ": ", status.message()));
}

void QueensToProto(const std::vector<Queen>& queens, ProtoQueens* out) {
  out->Reserve(static_cast<int>(queens.size()));
  for (const Queen& queen : queens) QueenToProto(queen, out->Add());
}

absl::Status CheckBatchItemSize(uint64_t n) {
  if (absl::Status size = CheckBoardSize(n); !size.ok()) return size;
  if (n <= kStreamingThreshold) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat("a batch item has at most ", kStreamingThreshold,
                                                 " rows, not n = ", n,
                                                 "; complete larger boards on their own "
                                                 "(CompleteStream)"));
}

absl::StatusOr<Columns> BoardFromQueens(uint64_t n, const ProtoQueens& queens) {
  std::vector<Queen> core_queens;
  core_queens.reserve(queens.size());
  for (const v1::Queen& queen : queens) core_queens.push_back(QueenFromProto(queen));
  absl::StatusOr<Columns> board = DenseFromQueens(n, core_queens);
  if (!board.ok()) return InField("queens", board.status());
  return board;
}

absl::StatusOr<Columns> BoardFromRequest(uint64_t n, const ProtoColumns& columns,
                                         const ProtoQueens& queens) {
  if (!columns.empty() && !queens.empty()) {
    return absl::InvalidArgumentError(
        "give the board either dense (columns) or sparse (queens), not both");
  }
  if (!queens.empty()) return BoardFromQueens(n, queens);
  if (columns.empty()) return MakeEmptyBoard(n);
  if (absl::Status shape = CheckDenseShape(n, columns); !shape.ok()) {
    return InField("columns", shape);
  }
  // On the core's board allocation, which a stopped call frees quickly.
  Columns board = MakeEmptyBoard(n);
  std::copy(columns.begin(), columns.end(), board.begin());
  return board;
}

namespace {

// "METHOD_UNSPECIFIED (0), METHOD_RANDOM (1), ...": the values a client may
// send, for the message that refuses another.
std::string EnumValues(const google::protobuf::EnumDescriptor& type) {
  std::string values;
  for (int i = 0; i < type.value_count(); ++i) {
    absl::StrAppend(&values, i == 0 ? "" : ", ", type.value(i)->name(), " (",
                    type.value(i)->number(), ")");
  }
  return values;
}

// INVALID_ARGUMENT: `field` (as the .proto spells it) holds `number`.
absl::Status UnknownValue(absl::string_view field, int number,
                          const google::protobuf::EnumDescriptor& type) {
  return absl::InvalidArgumentError(
      absl::StrCat(field, " ", number, " is not one of ", EnumValues(type)));
}

absl::Status UnknownMethod(int number, const google::protobuf::EnumDescriptor& type) {
  return UnknownValue("method", number, type);
}

// The proto's name of a core method: its enum's prefix and the core's name
// ("METHOD_" + "MIN_CONFLICTS").
template <typename ProtoEnum>
ProtoEnum ProtoByName(const google::protobuf::EnumDescriptor& type, absl::string_view prefix,
                      absl::string_view name) {
  const google::protobuf::EnumValueDescriptor* value =
      type.FindValueByName(absl::StrCat(prefix, name));
  return static_cast<ProtoEnum>(value != nullptr ? value->number() : 0);
}

}  // namespace

// The proto's values are the core's methods by name (tests/proto/
// method_names_test.cc checks every one); its zero value is the default.
absl::StatusOr<SolveMethod> MethodFromProto(v1::Method method) {
  if (method == v1::METHOD_UNSPECIFIED) return SolveMethod::kConstructive;
  for (const SolveMethodInfo& info : SolveMethods()) {
    if (MethodToProto(info.method) == method) return info.method;
  }
  return UnknownMethod(method, *v1::Method_descriptor());
}

v1::Method MethodToProto(SolveMethod method) {
  return ProtoByName<v1::Method>(*v1::Method_descriptor(), "METHOD_", SolveMethodName(method));
}

absl::StatusOr<CompleteMethod> CompleteMethodFromProto(v1::CompleteMethod method) {
  if (method == v1::COMPLETE_METHOD_UNSPECIFIED) return CompleteMethod::kPipeline;
  for (const MethodInfo<CompleteMethod>& info : CompleteMethods()) {
    if (CompleteMethodToProto(info.method) == method) return info.method;
  }
  return UnknownMethod(method, *v1::CompleteMethod_descriptor());
}

v1::CompleteMethod CompleteMethodToProto(CompleteMethod method) {
  return ProtoByName<v1::CompleteMethod>(*v1::CompleteMethod_descriptor(), "COMPLETE_METHOD_",
                                         CompleteMethodName(method));
}

absl::StatusOr<CertificateFormat> CertificateFormatFromProto(v1::CertificateFormat format) {
  switch (format) {
    case v1::CERTIFICATE_FORMAT_UNSPECIFIED:
    case v1::CERTIFICATE_FORMAT_TEXT:
      return CertificateFormat::kText;
    case v1::CERTIFICATE_FORMAT_BINARY:
      return CertificateFormat::kBinary;
    default:
      return UnknownValue("certificate_format", format, *v1::CertificateFormat_descriptor());
  }
}

v1::CertificateFormat CertificateFormatToProto(CertificateFormat format) {
  return format == CertificateFormat::kBinary ? v1::CERTIFICATE_FORMAT_BINARY
                                              : v1::CERTIFICATE_FORMAT_TEXT;
}

absl::StatusOr<PartSelector> PartFromProto(uint64_t part_index, uint64_t part_count) {
  const PartSelector part{part_index, part_count == 0 ? 1 : part_count};
  absl::Status valid = CheckPartSelector(part);
  if (!valid.ok()) return valid;
  return part;
}

absl::Time DeadlineFromChrono(std::chrono::system_clock::time_point deadline) {
  if (deadline == std::chrono::system_clock::time_point::max()) {
    return absl::InfiniteFuture();
  }
  return absl::FromChrono(deadline);
}

v1::Outcome OutcomeToProto(Outcome outcome) {
  switch (outcome) {
    case Outcome::kSolved:
      return v1::OUTCOME_SOLVED;
    case Outcome::kUnsolvable:
      return v1::OUTCOME_UNSOLVABLE;
    case Outcome::kUndecided:
      return v1::OUTCOME_UNDECIDED;
  }
  return v1::OUTCOME_UNSPECIFIED;
}

std::optional<Outcome> OutcomeFromProto(v1::Outcome outcome) {
  switch (outcome) {
    case v1::OUTCOME_SOLVED:
      return Outcome::kSolved;
    case v1::OUTCOME_UNSOLVABLE:
      return Outcome::kUnsolvable;
    case v1::OUTCOME_UNDECIDED:
      return Outcome::kUndecided;
    default:
      return std::nullopt;
  }
}

CompletionStats StatsFromProto(const v1::Stats& proto) {
  CompletionStats stats;
  stats.seed = proto.seed();
  stats.queens_given = static_cast<uint32_t>(proto.queens_given());
  stats.start_block = static_cast<Block>(proto.start_block());
  stats.backtracks = proto.backtracks();
  stats.restarts = proto.restarts();
  for (const v1::BlockStats& block : proto.blocks()) {
    const int index = block.block();
    if (index <= 0 || index >= kBlockCount) continue;
    stats.backtracks_to_block[index] = block.backtracks_to();
    stats.time_in_block[index] = absl::Seconds(block.seconds());
  }
  stats.total_time = absl::Seconds(proto.total_seconds());
  stats.exact_nodes = proto.exact_nodes();
  stats.exact_runs = proto.exact_runs();
  stats.exact_explored = proto.exact_explored();
  stats.method = proto.method_used();
  stats.search_nodes = proto.search_nodes();
  stats.generations = proto.generations();
  stats.repairs = proto.repairs();
  stats.formula = proto.formula();
  stats.lowered_limits.assign(proto.lowered_limits().begin(), proto.lowered_limits().end());
  return stats;
}

v1::Stats StatsToProto(const CompletionStats& stats) {
  v1::Stats result;
  result.set_seed(stats.seed);
  result.set_queens_given(stats.queens_given);
  result.set_start_block(BlockToProto(stats.start_block));
  result.set_backtracks(stats.backtracks);
  result.set_restarts(stats.restarts);
  for (int block = 0; block < kBlockCount; ++block) {
    const uint64_t backtracks = stats.backtracks_to_block[block];
    const absl::Duration time = stats.time_in_block[block];
    if (backtracks == 0 && time == absl::ZeroDuration()) continue;
    v1::BlockStats* out = result.add_blocks();
    out->set_block(BlockToProto(static_cast<Block>(block)));
    out->set_backtracks_to(backtracks);
    out->set_seconds(absl::ToDoubleSeconds(time));
  }
  result.set_total_seconds(absl::ToDoubleSeconds(stats.total_time));
  result.set_exact_nodes(stats.exact_nodes);
  result.set_exact_runs(stats.exact_runs);
  result.set_exact_explored(stats.exact_explored);
  result.set_method_used(stats.method);
  result.set_search_nodes(stats.search_nodes);
  result.set_generations(stats.generations);
  result.set_repairs(stats.repairs);
  result.set_formula(stats.formula);
  for (const std::string& limit : stats.lowered_limits) result.add_lowered_limits(limit);
  return result;
}

namespace {

// Validate's and ValidateStream's answers have the same fields.
template <typename Response>
void ReportTo(const ValidationReport& report, Response* response) {
  response->set_n(report.n);
  response->set_valid(report.valid);
  response->set_complete(report.complete);
  response->set_queen_count(report.queen_count);
  response->set_attacking_pairs(report.attacking_pairs);
  for (const Conflict& conflict : report.conflicts) {
    v1::Conflict* out = response->add_conflicts();
    QueenToProto(conflict.first, out->mutable_first());
    QueenToProto(conflict.second, out->mutable_second());
    out->set_line(LineToProto(conflict.line));
  }
}

template <typename Response>
ValidationReport ReportFrom(const Response& response) {
  ValidationReport report;
  report.n = response.n();
  report.valid = response.valid();
  report.complete = response.complete();
  report.queen_count = response.queen_count();
  report.attacking_pairs = response.attacking_pairs();
  for (const v1::Conflict& conflict : response.conflicts()) {
    report.conflicts.push_back(Conflict{QueenFromProto(conflict.first()),
                                        QueenFromProto(conflict.second()),
                                        LineFromProto(conflict.line())});
  }
  return report;
}

}  // namespace

void ReportToProto(const ValidationReport& report, v1::ValidateResponse* response) {
  ReportTo(report, response);
}
void ReportToProto(const ValidationReport& report, v1::ValidateStreamResponse* response) {
  ReportTo(report, response);
}
ValidationReport ReportFromProto(const v1::ValidateResponse& response) {
  return ReportFrom(response);
}
ValidationReport ReportFromProto(const v1::ValidateStreamResponse& response) {
  return ReportFrom(response);
}

v1::CountProgress CountProgressToProto(const CountProgress& progress) {
  v1::CountProgress proto;
  proto.set_fraction_done(progress.fraction_done);
  proto.set_nodes(progress.nodes);
  proto.set_elapsed_seconds(absl::ToDoubleSeconds(progress.elapsed));
  return proto;
}

CountProgress CountProgressFromProto(const v1::CountProgress& proto) {
  return CountProgress{proto.fraction_done(), proto.nodes(),
                       absl::Seconds(proto.elapsed_seconds())};
}

v1::CountResult CountResultToProto(uint64_t n, const CountResult& result) {
  v1::CountResult proto;
  proto.set_n(n);
  proto.set_solutions(result.solutions);
  if (result.fundamental.has_value()) proto.set_fundamental(*result.fundamental);
  proto.set_nodes(result.nodes);
  proto.set_elapsed_seconds(absl::ToDoubleSeconds(result.elapsed));
  return proto;
}

CountResult CountResultFromProto(const v1::CountResult& proto) {
  CountResult result;
  result.solutions = proto.solutions();
  if (proto.has_fundamental()) result.fundamental = proto.fundamental();
  result.nodes = proto.nodes();
  result.elapsed = absl::Seconds(proto.elapsed_seconds());
  return result;
}

}  // namespace nqueens::wire
