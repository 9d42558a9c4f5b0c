// --job-file: the parts of a job (parts_job.h) that have ended, one JSON line
// each, so that a job that was interrupted resumes where it stopped. The
// first line describes the job:
//
//   {"nqueens_job":{"command":"count","n":"14","board":"…","part_count":"64"}}
//   {"part":17,"result":{"n":"14","solutions":"5660",…}}
//
// A record's result is the part's answer in the proto's JSON mapping, as
// --json prints it. Each line is written with one write and flushed, so an
// interrupted job leaves at most its last line torn; that line is dropped.
#ifndef NQUEENS_CLIENT_PARTS_JOB_FILE_H_
#define NQUEENS_CLIENT_PARTS_JOB_FILE_H_

#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/types/span.h"

namespace nqueens::client {

// What makes two runs the same job, as (field, value) pairs in order:
// command, n, board (BoardDigest), part_count and what else the command
// needs.
using JobHeader = std::vector<std::pair<std::string, std::string>>;

// 16 hex digits that tell boards apart (FNV-1a of n and the columns).
std::string BoardDigest(absl::Span<const uint32_t> columns);

class JobFile {
 public:
  // Opens `path`, creating it with `header` when it does not exist or holds
  // no complete line. Otherwise its header must be `header`: else
  // INVALID_ARGUMENT naming the first field that differs; and its records
  // are read (a line that is neither a record nor the torn last one is
  // INVALID_ARGUMENT naming the line). Another nqueens that has the file
  // open makes it FAILED_PRECONDITION.
  static absl::StatusOr<std::unique_ptr<JobFile>> Open(const std::string& path,
                                                       const JobHeader& header);
  ~JobFile();
  JobFile(const JobFile&) = delete;
  JobFile& operator=(const JobFile&) = delete;

  // The results recorded before this run, by part: each the JSON object
  // that Append got.
  const std::map<uint64_t, std::string>& recorded() const { return recorded_; }

  // Records that `part` ended with `result_json` (one JSON object, no line
  // break) and flushes it. Any thread.
  absl::Status Append(uint64_t part, const std::string& result_json);

 private:
  JobFile(std::string path, std::FILE* file) : path_(std::move(path)), file_(file) {}
  absl::Status ReadRecords(const JobHeader& header);

  const std::string path_;
  std::map<uint64_t, std::string> recorded_;
  absl::Mutex mutex_;
  std::FILE* const file_ ABSL_PT_GUARDED_BY(mutex_);
};

}  // namespace nqueens::client

#endif  // NQUEENS_CLIENT_PARTS_JOB_FILE_H_
