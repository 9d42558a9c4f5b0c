// A job cut into parts (nqueens/parts.h) and spread over servers: each
// server keeps a window of parts in flight, the next part goes to whichever
// server frees a slot, and a part whose server failed goes to another, since
// parts are idempotent. A server that fails too often in a row gets no more
// parts; the job fails only for the request's own fault, at its deadline, or
// when no server is left. While it runs, its servers may be looked up again
// (ServerLookUp): new ones join, dropped ones are tried again. What a part
// computes and how the parts combine is the caller's (parts_backend.h).
#ifndef NQUEENS_CLIENT_PARTS_PARTS_JOB_H_
#define NQUEENS_CLIENT_PARTS_PARTS_JOB_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "client/backends/backend.h"
#include "client/output/progress.h"

namespace nqueens::client {

struct JobServer {
  std::string name;  // in messages: "10.0.0.1:50051"
  // Called from several threads at once.
  std::unique_ptr<Backend> backend;
};

// What happened to a part or a server, for whoever watches the job.
struct PartEvent {
  enum class Kind {
    kDone,      // `part` ended well on `server`
    kFailed,    // `part` failed on `server` with `error`; another takes it
    kDropped,   // `server` failed too often in a row (last with `error`)
    kJoined,    // a look-up named `server` for the first time
    kReturned,  // a look-up named `server` again after it left or was dropped
    kLeft,      // a look-up no longer named `server`: it gets no new parts
  };
  Kind kind = Kind::kDone;
  uint64_t part = 0;
  // Index into the job's servers: those it started with, then those that
  // joined, in the order they did.
  size_t server = 0;
  std::string server_name;  // its JobServer's name
  absl::Status error;
  uint64_t parts_done = 0;  // by this run so far, this part included
};

// How a job finds its servers again while it runs: a dns: name's addresses
// change as servers come and go.
struct ServerLookUp {
  // The servers the job's target names now, told apart by JobServer::name
  // (those the job knows are dropped unused); an error keeps the job's
  // servers as they are. Empty: the servers are fixed.
  std::function<absl::StatusOr<std::vector<JobServer>>()> servers;
  // How long the job waits before each look-up.
  absl::Duration every = absl::InfiniteDuration();
};

struct PartsJobOptions {
  uint64_t part_count = 1;
  // The parts to run, each below part_count, in the order they are handed
  // out; the others were done before (a job file).
  std::vector<uint64_t> parts;
  size_t window = 2;                                   // parts in flight per server
  absl::Duration deadline = absl::InfiniteDuration();  // the whole job's
  // A server that fails this many parts in a row gets no more.
  int max_failures_in_row = 4;
  // A part that fails this many times fails the job.
  int max_part_attempts = 8;
  // After a failure its server rests before it takes the next part: first
  // first_backoff, twice as long after each failure in a row, at most
  // max_backoff.
  absl::Duration first_backoff = absl::Milliseconds(100);
  absl::Duration max_backoff = absl::Seconds(5);
  // One phase for the whole job: parts done out of part_count.
  ProgressBar* progress = nullptr;
  // Every look_up.every: a server the look-up names for the first time
  // joins the job with a window of its own; one that had left takes parts
  // again, and so does one that was dropped, on trial: its first failure
  // drops it again and counts against no part's attempts, since a server
  // still named need not be up. A server no longer named gets no new parts,
  // and its parts in flight still count.
  ServerLookUp look_up;
  // Called on the thread that ran the part (for kJoined, kReturned and
  // kLeft, the thread that looked the servers up), after the job counted
  // the event and before that thread goes on; may be empty.
  std::function<void(const PartEvent&)> on_event;
};

// Runs the part that options.part selects on `backend` (options also carry
// the job's remaining deadline and its cancellation), keeps its result, and
// returns whether the job needs no more parts (a SOLVED completion, enough
// boards). Called from the job's threads, several parts at once, and again
// for a part whose earlier try failed: a try that failed must leave no
// result behind, or one the next try replaces.
using PartTask = std::function<absl::StatusOr<bool>(Backend& backend, const RunOptions& options)>;

// Runs every part of options.parts on `servers` (and those that join) until
// it succeeds once, or until a task says that the job is done; the calls get
// `base` with the part, deadline and cancellation set, and no progress bar
// of their own.
// Errors: a part's INVALID_ARGUMENT (the request's fault, as for a single
// call), DEADLINE_EXCEEDED once options.deadline passed, and, with the code
// of the last failure, a part that failed max_part_attempts times or no
// server left. Parts still running then are cancelled; RunParts returns once
// they, and a look-up under way, have ended.
absl::Status RunParts(const std::vector<JobServer>& servers, const RunOptions& base,
                      const PartsJobOptions& options, const PartTask& task);

}  // namespace nqueens::client

#endif  // NQUEENS_CLIENT_PARTS_PARTS_JOB_H_
