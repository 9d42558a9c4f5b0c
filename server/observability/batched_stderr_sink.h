// A spdlog sink that writes its lines to stderr in batches. One write(2) per
// line was a good part of a small call's cost (docs/constants.md,
// kLogBatchDelay); here a line waits at most kLogBatchDelay, with the lines
// logged meanwhile, and goes out in one write. A line at warn or above goes
// out at once, with every line before it, and so does a batch of
// kLogBatchMaxBytes, and everything left when the process exits (std::exit,
// or main returning). A crash loses the lines of the last kLogBatchDelay.
#ifndef NQUEENS_SERVER_OBSERVABILITY_BATCHED_STDERR_SINK_H_
#define NQUEENS_SERVER_OBSERVABILITY_BATCHED_STDERR_SINK_H_

#include <cstddef>
#include <mutex>

#include "absl/time/time.h"
#include "spdlog/details/log_msg.h"
#include "spdlog/sinks/base_sink.h"

namespace nqueens::server {

inline constexpr absl::Duration kLogBatchDelay = absl::Milliseconds(20);
// A batch that reaches this many bytes is written by the thread that logged
// its last line, so that a stderr that does not drain holds up the loggers,
// as one write per line did, instead of growing the batch without end.
inline constexpr size_t kLogBatchMaxBytes = size_t{1} << 20;

// All such sinks of the process share one batch: their lines reach stderr
// in the order they were logged.
class BatchedStderrSink final : public spdlog::sinks::base_sink<std::mutex> {
 protected:
  void sink_it_(const spdlog::details::log_msg& message) override;
  void flush_() override;
};

}  // namespace nqueens::server

#endif  // NQUEENS_SERVER_OBSERVABILITY_BATCHED_STDERR_SINK_H_
