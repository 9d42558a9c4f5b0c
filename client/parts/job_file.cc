#include "client/parts/job_file.h"

#include <google/protobuf/struct.pb.h>
#include <google/protobuf/util/json_util.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "client/output/json_output.h"

namespace nqueens::client {
namespace {

constexpr char kHeaderKey[] = "nqueens_job";

absl::StatusOr<google::protobuf::Struct> ParseObject(absl::string_view line) {
  google::protobuf::Struct object;
  if (!google::protobuf::util::JsonStringToMessage(std::string(line), &object).ok()) {
    return absl::InvalidArgumentError("not a JSON object");
  }
  return object;
}

// The header's fields in its order (a Struct would print them in any).
std::string HeaderLine(const JobHeader& header) {
  std::string fields;
  for (const auto& [name, value] : header) {
    absl::StrAppend(&fields, fields.empty() ? "" : ",", JsonString(name), ":", JsonString(value));
  }
  return absl::StrCat("{\"", kHeaderKey, "\":{", fields, "}}\n");
}

// The rest of `file`, from where it stands.
std::string ReadRest(std::FILE* file) {
  std::string content;
  char buffer[1 << 16];
  for (size_t got; (got = std::fread(buffer, 1, sizeof buffer, file)) > 0;) {
    content.append(buffer, got);
  }
  return content;
}

}  // namespace

std::string BoardDigest(absl::Span<const uint32_t> columns) {
  uint64_t hash = 0xcbf29ce484222325;  // FNV-1a, 64 bits
  const auto mix = [&hash](uint64_t value, int bytes) {
    for (int i = 0; i < bytes; ++i) {
      hash ^= (value >> (8 * i)) & 0xff;
      hash *= 0x100000001b3;
    }
  };
  mix(columns.size(), 8);
  for (const uint32_t column : columns) mix(column, 4);
  return absl::StrFormat("%016x", hash);
}

absl::StatusOr<std::unique_ptr<JobFile>> JobFile::Open(const std::string& path,
                                                       const JobHeader& header) {
  std::FILE* file = std::fopen(path.c_str(), "a+b");
  if (file == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot open ", path, " (--job-file): ", std::strerror(errno)));
  }
  // Two runs of one job would record its parts twice, or each skip what the
  // other has not finished.
  if (flock(fileno(file), LOCK_EX | LOCK_NB) != 0) {
    std::fclose(file);
    return absl::FailedPreconditionError(
        absl::StrCat("--job-file ", path, " is in use by another nqueens"));
  }
  std::unique_ptr<JobFile> job(new JobFile(path, file));
  if (absl::Status read = job->ReadRecords(header); !read.ok()) return read;
  return job;
}

JobFile::~JobFile() { std::fclose(file_); }

absl::Status JobFile::ReadRecords(const JobHeader& header) {
  absl::MutexLock lock(&mutex_);
  if (std::fseek(file_, 0, SEEK_SET) != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot read ", path_, " (--job-file): ", std::strerror(errno)));
  }
  std::string content = ReadRest(file_);
  // A line is written whole or torn at the end: drop the torn end, so that
  // the next record starts a line of its own.
  const size_t whole = content.rfind('\n') + 1;  // 0 without a newline
  if (whole < content.size()) {
    content.resize(whole);
    if (ftruncate(fileno(file_), static_cast<off_t>(whole)) != 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("cannot write ", path_, " (--job-file): ", std::strerror(errno)));
    }
  }
  const std::vector<absl::string_view> lines =
      absl::StrSplit(absl::string_view(content), '\n', absl::SkipEmpty());
  if (lines.empty()) {
    const std::string line = HeaderLine(header);
    if (std::fwrite(line.data(), 1, line.size(), file_) != line.size() || std::fflush(file_) != 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("cannot write ", path_, " (--job-file): ", std::strerror(errno)));
    }
    return absl::OkStatus();
  }
  const absl::StatusOr<google::protobuf::Struct> first = ParseObject(lines[0]);
  if (!first.ok() || !first->fields().contains(kHeaderKey)) {
    return absl::InvalidArgumentError(
        absl::StrCat("--job-file ", path_, " is no job file: its first line is no job header"));
  }
  const auto& recorded = first->fields().at(kHeaderKey).struct_value().fields();
  for (const auto& [name, value] : header) {
    const auto found = recorded.find(name);
    const std::string theirs = found == recorded.end() ? "unset" : found->second.string_value();
    if (theirs != value) {
      return absl::InvalidArgumentError(absl::StrCat("--job-file ", path_,
                                                     " is another job's: its ", name, " is ",
                                                     theirs, ", this job's ", value));
    }
  }
  for (size_t i = 1; i < lines.size(); ++i) {
    const absl::StatusOr<google::protobuf::Struct> record = ParseObject(lines[i]);
    const auto* fields = record.ok() ? &record->fields() : nullptr;
    const double part =
        fields != nullptr && fields->contains("part") ? fields->at("part").number_value() : -1;
    if (fields == nullptr || !fields->contains("result") || part < 0 || std::floor(part) != part) {
      return absl::InvalidArgumentError(
          absl::StrCat("--job-file ", path_, ": line ", i + 1, " is no part record"));
    }
    std::string result;
    (void)google::protobuf::util::MessageToJsonString(fields->at("result").struct_value(), &result);
    recorded_.emplace(static_cast<uint64_t>(part), std::move(result));
  }
  std::fseek(file_, 0, SEEK_END);
  return absl::OkStatus();
}

absl::Status JobFile::Append(uint64_t part, const std::string& result_json) {
  const std::string line = absl::StrCat(
      "{\"part\":", part, ",\"result\":", absl::StripTrailingAsciiWhitespace(result_json), "}\n");
  absl::MutexLock lock(&mutex_);
  if (std::fwrite(line.data(), 1, line.size(), file_) != line.size() || std::fflush(file_) != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot write ", path_, " (--job-file): ", std::strerror(errno)));
  }
  return absl::OkStatus();
}

}  // namespace nqueens::client
