#include "client/parts/parts_backend.h"

#include <google/protobuf/util/json_util.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>
#include <utility>

#include "absl/strings/cord.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "client/output/json_output.h"
#include "client/parts/job_file.h"
#include "client/parts/ordered_boards.h"
#include "nqueens/count.h"
#include "nqueens/v1/nqueens.pb.h"
#include "wire/convert.h"

namespace nqueens::client {
namespace {

template <typename Result>
using PartAnswers = std::vector<std::optional<Result>>;

// How count and complete run a part, keep its answer and record it.
template <typename Result>
struct JobSteps {
  JobHeader header;  // the job file's
  // One part's call.
  std::function<absl::StatusOr<Result>(Backend&, const RunOptions&)> call;
  // Keeps what the answer carries beside itself (complete: the
  // certificate); an error ends the job. May be empty.
  std::function<absl::Status(uint64_t part, Result&)> keep;
  // The answer as the job file records it, and back.
  std::function<std::string(const Result&)> to_json;
  std::function<absl::StatusOr<Result>(const std::string&)> from_json;
  // Whether this answer decides the job (complete: SOLVED).
  std::function<bool(const Result&)> decides;
  // Whether the deadline ends the job with the parts answered so far
  // (complete: UNDECIDED, as one call's search gives up before its
  // deadline) rather than with DEADLINE_EXCEEDED (count, as one call).
  bool gives_up_at_deadline = false;
};

// The first error of a job's own bookkeeping (its job file, a
// certificate), which ends the job as its answer.
class FirstError {
 public:
  void Set(absl::Status error) {
    absl::MutexLock lock(&mutex_);
    if (error_.ok()) error_ = std::move(error);
  }
  absl::Status Get() {
    absl::MutexLock lock(&mutex_);
    return error_;
  }

 private:
  absl::Mutex mutex_;
  absl::Status error_ ABSL_GUARDED_BY(mutex_);
};

// `error`, marked as the command line's (client/backends/backend.h).
absl::Status UsageError(absl::Status error) {
  error.SetPayload(kUsageErrorPayload, absl::Cord("1"));
  return error;
}

// What the core refuses to count or enumerate (attacking queens, more free
// rows than it takes), refused here once, as one call would be, rather than
// by every server in turn: a server's refusal of the board's size cannot be
// told from a full queue's, which is worth sending elsewhere.
absl::Status CheckCountable(const Columns& columns, uint64_t part_count) {
  return CountPlan::Make(columns, PartSelector{0, part_count}).status();
}

Board BoardOf(const Columns& columns) {
  Board board;
  board.n = columns.size();
  board.columns = columns;
  return board;
}

absl::Status WriteWholeFile(const std::string& path, absl::string_view content) {
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot open ", path, ": ", std::strerror(errno)));
  }
  const bool written = std::fwrite(content.data(), 1, content.size(), file) == content.size();
  if (std::fclose(file) != 0 || !written) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot write ", path, ": ", std::strerror(errno)));
  }
  return absl::OkStatus();
}

template <typename Message>
absl::StatusOr<Message> MessageFromJson(const std::string& json) {
  Message message;
  if (!google::protobuf::util::JsonStringToMessage(json, &message).ok()) {
    return absl::InvalidArgumentError("a part record whose result cannot be read");
  }
  return message;
}

absl::StatusOr<CountResult> CountFromJson(const std::string& json) {
  absl::StatusOr<v1::CountResult> message = MessageFromJson<v1::CountResult>(json);
  if (!message.ok()) return message.status();
  return wire::CountResultFromProto(*message);
}

absl::StatusOr<CompletionResult> CompletionFromJson(const std::string& json) {
  absl::StatusOr<v1::CompleteResponse> message = MessageFromJson<v1::CompleteResponse>(json);
  if (!message.ok()) return message.status();
  const std::optional<Outcome> outcome = wire::OutcomeFromProto(message->outcome());
  if (!outcome.has_value()) return absl::InvalidArgumentError("a part record without an outcome");
  CompletionResult result;
  result.outcome = *outcome;
  result.columns.assign(message->columns().begin(), message->columns().end());
  result.stats = wire::StatsFromProto(message->stats());
  result.certificate_missing = message->certificate_missing();
  return result;
}

// The parts' counts added up; the time is the job's.
CountResult SumCounts(const PartAnswers<CountResult>& parts, absl::Duration wall_time) {
  CountResult total;
  total.fundamental = 0;
  for (const std::optional<CountResult>& part : parts) {
    total.solutions += part->solutions;
    total.nodes += part->nodes;
    if (part->fundamental.has_value() && total.fundamental.has_value()) {
      *total.fundamental += *part->fundamental;
    } else {
      total.fundamental.reset();
    }
  }
  total.elapsed = wall_time;
  return total;
}

// One answer for the whole search: a SOLVED part's, or UNSOLVABLE when
// every part is, else UNDECIDED; the search's numbers summed over the
// parts that answered, the time the job's.
CompletionResult CombineCompletions(PartAnswers<CompletionResult>& parts,
                                    absl::Duration wall_time) {
  CompletionResult combined;
  bool every_part_unsolvable = true;
  double explored = 0;
  uint64_t nodes = 0;
  uint64_t runs = 0;
  for (uint64_t part = 0; part < parts.size(); ++part) {
    if (!parts[part].has_value()) {
      every_part_unsolvable = false;
      continue;
    }
    const CompletionResult& answer = *parts[part];
    if (combined.stats.method.empty()) combined.stats = answer.stats;
    nodes += answer.stats.exact_nodes;
    runs += answer.stats.exact_runs;
    explored += answer.stats.exact_explored;
    if (answer.outcome == Outcome::kSolved && combined.outcome != Outcome::kSolved) {
      combined.outcome = Outcome::kSolved;
      combined.columns = answer.columns;
      combined.stats = answer.stats;
    }
    every_part_unsolvable &= answer.outcome == Outcome::kUnsolvable;
    if (!answer.certificate_missing.empty() && combined.certificate_missing.empty()) {
      combined.certificate_missing = absl::StrCat("part ", part, ": ", answer.certificate_missing);
    }
  }
  if (combined.outcome != Outcome::kSolved) {
    combined.outcome = every_part_unsolvable ? Outcome::kUnsolvable : Outcome::kUndecided;
    combined.stats.exact_runs = runs;
    combined.stats.exact_explored = parts.empty() ? 0 : explored / parts.size();
  }
  if (combined.outcome != Outcome::kUnsolvable) combined.certificate_missing.clear();
  combined.stats.exact_nodes = nodes;
  combined.stats.total_time = wall_time;
  return combined;
}

class PartsBackend : public Backend {
 public:
  PartsBackend(std::vector<JobServer> servers, PartsBackendOptions options)
      : servers_(std::move(servers)), options_(std::move(options)) {}

  absl::StatusOr<CountResult> Count(Board composition, const RunOptions& options) override {
    if (absl::Status dense = MakeDense(composition); !dense.ok()) return dense;
    if (absl::Status countable = CheckCountable(composition.columns, options_.part_count);
        !countable.ok()) {
      return countable;
    }
    const uint64_t n = composition.n;
    JobSteps<CountResult> steps;
    steps.header = {{"command", "count"}};
    steps.call = [&composition](Backend& backend, const RunOptions& run) {
      return backend.Count(BoardOf(composition.columns), run);
    };
    steps.to_json = [n](const CountResult& result) { return CountJson(result, n); };
    steps.from_json = CountFromJson;
    steps.decides = [](const CountResult&) { return false; };
    const absl::Time start = absl::Now();
    absl::StatusOr<PartAnswers<CountResult>> parts = RunJob(composition.columns, steps, options);
    if (!parts.ok()) return parts.status();
    return SumCounts(*parts, absl::Now() - start);
  }

  absl::StatusOr<uint64_t> Enumerate(Board composition, uint64_t limit, const RunOptions& options,
                                     const std::function<bool(const Columns&)>& sink) override {
    if (absl::Status dense = MakeDense(composition); !dense.ok()) return dense;
    if (absl::Status countable = CheckCountable(composition.columns, options_.part_count);
        !countable.ok()) {
      return countable;
    }
    OrderedBoards boards(options_.part_count, limit, sink);
    // No part needs more than `limit` boards of its own.
    const PartTask task = [&](Backend& backend, const RunOptions& run) -> absl::StatusOr<bool> {
      uint64_t ordinal = 0;
      const absl::StatusOr<uint64_t> handed = backend.Enumerate(
          BoardOf(composition.columns), limit, run,
          [&](const Columns& board) { return boards.Add(run.part.index, ordinal++, board); });
      if (!handed.ok()) return handed.status();
      return boards.PartDone(run.part.index);
    };
    if (absl::Status run = RunParts(servers_, options, JobOptions(AllParts(), options), task);
        !run.ok()) {
      return run;
    }
    return boards.handed();
  }

  absl::StatusOr<CompletionResult> Complete(Board composition, const RunOptions& options) override {
    if (options.complete_method != CompleteMethod::kExact) {
      return absl::InvalidArgumentError(
          "only the exact search is cut into parts: complete --parts needs --method exact");
    }
    if (absl::Status dense = MakeDense(composition); !dense.ok()) return dense;
    const uint64_t n = composition.n;
    JobSteps<CompletionResult> steps;
    steps.header = {{"command", "complete --method exact"},
                    {"certificate", options.want_certificate ? options_.certificate_path : ""}};
    steps.call = [&composition](Backend& backend, const RunOptions& run) {
      return backend.Complete(BoardOf(composition.columns), run);
    };
    steps.keep = [this](uint64_t part, CompletionResult& result) {
      if (!result.certificate.has_value()) return absl::OkStatus();
      const std::string path =
          PartCertificatePath(options_.certificate_path, part, options_.part_count);
      absl::Status written = WriteWholeFile(path, *result.certificate);
      result.certificate.reset();  // on disk: not kept in memory as well
      return written.ok() ? written : UsageError(written);
    };
    steps.to_json = [n](const CompletionResult& result) { return CompletionJson(result, n); };
    steps.from_json = CompletionFromJson;
    steps.decides = [](const CompletionResult& result) {
      return result.outcome == Outcome::kSolved;
    };
    steps.gives_up_at_deadline = true;
    const absl::Time start = absl::Now();
    absl::StatusOr<PartAnswers<CompletionResult>> parts =
        RunJob(composition.columns, steps, options);
    if (!parts.ok()) return parts.status();
    return CombineCompletions(*parts, absl::Now() - start);
  }

  absl::StatusOr<CompletionResult> Solve(uint32_t, SolveMethod, const RunOptions&) override {
    return NotCut("solve");
  }
  absl::StatusOr<ValidationReport> Validate(Board, const RunOptions&) override {
    return NotCut("validate");
  }
  absl::Status CompleteBatch(const std::function<std::optional<BatchItem>()>&,
                             const std::function<void(BatchAnswer)>&, const RunOptions&) override {
    return NotCut("complete --batch");
  }

 private:
  static absl::Status NotCut(absl::string_view what) {
    return absl::UnimplementedError(absl::StrCat(what, " is not cut into parts"));
  }

  std::vector<uint64_t> AllParts() const {
    std::vector<uint64_t> parts(options_.part_count);
    for (uint64_t part = 0; part < parts.size(); ++part) parts[part] = part;
    return parts;
  }

  PartsJobOptions JobOptions(std::vector<uint64_t> parts, const RunOptions& options) const {
    PartsJobOptions job;
    job.part_count = options_.part_count;
    job.parts = std::move(parts);
    job.window = options_.window;
    job.deadline = options.deadline;
    job.progress = options.progress;
    job.look_up = options_.look_up;
    job.on_event = [this](const PartEvent& event) {
      if (options_.warn) Warn(event);
      if (options_.on_event) options_.on_event(event);
    };
    return job;
  }

  // The line, if any, that tells the user of `event`.
  void Warn(const PartEvent& event) const {
    if (event.kind == PartEvent::Kind::kDropped) {
      options_.warn(absl::StrCat("server ", event.server_name,
                                 " gets no more parts: ", event.error.message()));
    } else if (event.kind == PartEvent::Kind::kJoined) {
      options_.warn(absl::StrCat("server ", event.server_name, " joins the job"));
    }
  }

  // Runs the parts of the job on `columns` that its job file has not
  // recorded yet; every part's answer, or none after a part that decided the
  // job.
  template <typename Result>
  absl::StatusOr<PartAnswers<Result>> RunJob(const Columns& columns, const JobSteps<Result>& steps,
                                             const RunOptions& options) {
    PartAnswers<Result> answers(options_.part_count);
    std::unique_ptr<JobFile> file;
    if (!options_.job_file.empty()) {
      JobHeader header = steps.header;
      header.insert(header.begin() + 1, {{"n", absl::StrCat(columns.size())},
                                         {"board", BoardDigest(columns)},
                                         {"part_count", absl::StrCat(options_.part_count)}});
      absl::StatusOr<std::unique_ptr<JobFile>> opened = JobFile::Open(options_.job_file, header);
      if (!opened.ok()) return UsageError(opened.status());
      file = *std::move(opened);
      if (absl::Status read = ReadRecords(*file, steps, answers); !read.ok()) {
        return UsageError(read);
      }
    }
    std::vector<uint64_t> left;
    for (uint64_t part = 0; part < answers.size(); ++part) {
      if (answers[part].has_value() && steps.decides(*answers[part])) return answers;
      if (!answers[part].has_value()) left.push_back(part);
    }
    absl::Mutex mutex;
    FirstError bookkeeping;
    const PartTask task = [&](Backend& backend, const RunOptions& run) -> absl::StatusOr<bool> {
      absl::StatusOr<Result> answer = steps.call(backend, run);
      if (!answer.ok()) return answer.status();
      const uint64_t part = run.part.index;
      absl::Status kept = steps.keep ? steps.keep(part, *answer) : absl::OkStatus();
      if (kept.ok() && file != nullptr) kept = file->Append(part, steps.to_json(*answer));
      if (!kept.ok()) {
        bookkeeping.Set(UsageError(std::move(kept)));
        return true;  // the job cannot keep what it finds
      }
      const bool decides = steps.decides(*answer);
      absl::MutexLock lock(&mutex);
      answers[part] = *std::move(answer);
      return decides;
    };
    absl::Status run = RunParts(servers_, options, JobOptions(std::move(left), options), task);
    if (run.ok()) run = bookkeeping.Get();
    const bool gave_up =
        run.code() == absl::StatusCode::kDeadlineExceeded && steps.gives_up_at_deadline;
    if (!run.ok() && !gave_up) return run;
    return answers;
  }

  template <typename Result>
  absl::Status ReadRecords(const JobFile& file, const JobSteps<Result>& steps,
                           PartAnswers<Result>& answers) const {
    for (const auto& [part, json] : file.recorded()) {
      absl::StatusOr<Result> answer =
          part < answers.size() ? steps.from_json(json)
                                : absl::InvalidArgumentError("a record of a part beyond the job's");
      if (!answer.ok()) {
        return absl::InvalidArgumentError(absl::StrCat("--job-file ", options_.job_file, ", part ",
                                                       part, ": ", answer.status().message()));
      }
      answers[part] = *std::move(answer);
    }
    return absl::OkStatus();
  }

  const std::vector<JobServer> servers_;
  const PartsBackendOptions options_;
};

}  // namespace

std::string PartCertificatePath(const std::string& path, uint64_t part, uint64_t part_count) {
  return absl::StrCat(path, ".part", part, "-of-", part_count);
}

std::unique_ptr<Backend> MakePartsBackend(std::vector<JobServer> servers,
                                          PartsBackendOptions options) {
  return std::make_unique<PartsBackend>(std::move(servers), std::move(options));
}

}  // namespace nqueens::client
