// Per-call bookkeeping shared by every method: admission to a service that
// may be shutting down, the size check, the memory the call holds, its place
// in the worker queue, the limits (as limit_policy.h sets them) and stop
// condition it runs under, the one Finish, its request id, and its log line
// and metrics. Handlers and reactors use a Call; none of this is repeated per
// method.
#ifndef NQUEENS_SERVER_RPC_CALL_H_
#define NQUEENS_SERVER_RPC_CALL_H_

#include <grpcpp/grpcpp.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "nqueens/solver.h"
#include "nqueens/v1/nqueens.pb.h"
#include "server/observability/call_record.h"
#include "server/rpc/limit_policy.h"
#include "server/rpc/service_state.h"

namespace nqueens::server {

// A call's metadata (headers) may take this many bytes, counted as HTTP/2
// counts them (name, value and 32 bytes an entry); a call with more is
// refused with RESOURCE_EXHAUSTED naming the limit. gRPC itself refuses
// metadata beyond four times this (server/server.cc), with a message that names no
// limit, before any call begins.
inline constexpr uint64_t kMaxCallMetadataBytes = 16 << 10;

// Calls on boards of up to this many rows are small for the worker pool
// (limits/worker_pool.h): a completion of this size is quick (docs/constants.md,
// kSmallCallMaxRows), and the pool moves a small call that runs long to the
// large ones.
inline constexpr uint64_t kSmallCallMaxRows = 65'536;

class Call {
 public:
  // Adds the call's request id (the client's x-request-id when usable, else
  // a new one) to the response's initial metadata: the reactor's first write
  // or Finish sends it, whichever way the call ends.
  Call(ServiceState& service, grpc::CallbackServerContext* context, const char* method);
  // Logs the call, counts it and records its metrics, then leaves the
  // service. The reactor has finished it.
  ~Call();

  Call(const Call&) = delete;
  Call& operator=(const Call&) = delete;

  ServiceState& service() { return service_; }
  const ServiceState& service() const { return service_; }
  grpc::CallbackServerContext* context() { return context_; }
  // How large a message the client takes: its kMaxResponseBytesKey header,
  // or gRPC's default.
  uint64_t ClientReceiveBytes() const;
  // The gateway forwards it for an HTTP client (security/call_origin.h).
  bool OverHttp() const { return absl::string_view(record_.transport) == "http"; }

  // Enters the service. First thing: UNAUTHENTICATED without a good token
  // when tokens are required, RESOURCE_EXHAUSTED when the client has
  // --max-calls-per-client in flight already, UNAVAILABLE once the service is
  // shutting down. The request id goes back with the call's initial
  // metadata, or with the refusal's trailers.
  absl::Status Enter();

  // What the log line and the metrics report besides method, status and
  // time.
  void set_queens_given(uint64_t k) { record_.queens_given = k; }
  void set_outcome(CallOutcome outcome) { record_.outcome = outcome; }
  void set_result(const CompletionResult& result) {
    record_.outcome = CallOutcomeOf(result.outcome);
    record_.exact_nodes = result.stats.exact_nodes;
  }

  // INVALID_ARGUMENT for n = 0, RESOURCE_EXHAUSTED above --max-n.
  absl::Status CheckSize(uint64_t n);
  // RESOURCE_EXHAUSTED when a call of `bytes` could never fit in the budget.
  absl::Status CheckFits(uint64_t bytes);
  // Grows what this call holds of the memory budget to `bytes` in all (never
  // shrinks it); RESOURCE_EXHAUSTED, naming the budget, when that does not fit.
  absl::Status ReserveMemory(uint64_t bytes);
  // Whether ReserveMemory refused some: a call that goes on without them
  // (a certificate dropped) lacks them for the budget's sake.
  bool memory_refused() const { return memory_refused_.load(std::memory_order_relaxed); }
  // `bytes` of the budget apart from what the call holds, for what the call
  // holds only for a while (a batch's message, an item in work), with the
  // refusals of ReserveMemory; `held`: what the call needs besides, for the
  // message.
  absl::StatusOr<MemoryBudget::Reservation> ReserveApart(uint64_t bytes, uint64_t held = 0);

  // The core's options: the request's seed (or a fresh one), its limits
  // lowered to the server's maxima (noted for the response), and a stop
  // condition that follows this call's cancellation, its deadline and
  // --max-call-seconds. INVALID_ARGUMENT for a negative or NaN
  // max_exact_seconds.
  absl::StatusOr<CallOptions> CallOptionsFor(const std::optional<uint64_t>& seed,
                                             const v1::Limits& limits);
  // The same for one item of a batch, whose items run at once: the limits it
  // lowered go to `lowered`, not to the call, and the exact search keeps to
  // the item's own thread.
  absl::StatusOr<CallOptions> ItemOptionsFor(const std::optional<uint64_t>& seed,
                                             const v1::Limits& limits,
                                             std::vector<std::string>& lowered) const;
  // The stop condition alone (for Validate).
  StopCondition Stop() const;
  // OK while the call may go on; else, as the core would say it, why it
  // stopped (CANCELLED, or DEADLINE_EXCEEDED for either deadline).
  absl::Status StillGoing() const;
  // The limits CallOptionsFor lowered, as "max_backtracks=1000000
  // (--max-backtracks)", for the response's stats.
  const std::vector<std::string>& lowered_limits() const { return lowered_limits_; }

  // Small or large for the worker pool, by the rows of the board it works on
  // (at most kSmallCallMaxRows: small); searches whose cost n does not tell
  // (Count, Enumerate) are large.
  WorkerPool::Size SizeOf(uint64_t n) const;
  // Queues `job` on the worker pool: RESOURCE_EXHAUSTED when the queue is
  // full. The metrics see how long it waited. A call may schedule one job
  // after another (Enumerate's batches), never two at once.
  absl::Status Schedule(WorkerPool::Size size, std::function<void()> job);
  // Runs `job` here and now, as a worker would (for work that costs less
  // than the hand-off: RunsAtOnce in handlers.h); the metrics see no wait.
  void RunAtOnce(const std::function<void()>& job);
  // The call was cancelled (by the client, its deadline or a shutdown): a
  // running job stops. True when the job was still queued: it never runs,
  // and the reactor finishes the call at once with StoppedStatus().
  bool Cancel();
  bool cancelled() const { return cancelled_.load(std::memory_order_relaxed); }
  // When --max-call-seconds ends the call, if before the client's deadline;
  // else absl::InfiniteFuture().
  absl::Time CallTimeLimit() const {
    return server_deadline_ < deadline_ ? server_deadline_ : absl::InfiniteFuture();
  }
  // Why a cancelled call ended: its deadline, the client, or the shutdown.
  absl::Status StoppedStatus() const;
  // `status` of the core, explained: DEADLINE_EXCEEDED from the server's own
  // --max-call-seconds becomes RESOURCE_EXHAUSTED naming it; CANCELLED says
  // who cancelled.
  absl::Status Explain(absl::Status status);
  // The same, but not counted as a refusal of the call (for a batch's items).
  absl::Status Describe(absl::Status status) const;

  // True the first time only: the reactor then calls Finish with `status`
  // (converted), which is also what the log reports and the counters count.
  bool MarkFinished(const absl::Status& status);
  bool finished() const { return finished_.load(); }

 private:
  // Enter() but for the request id.
  absl::Status Admit();
  // RESOURCE_EXHAUSTED above kMaxCallMetadataBytes.
  absl::Status CheckMetadataSize();
  // The core's options with the `limited` parameters, whose lowered limits
  // go to `lowered`: the seed (or a fresh one) and the stop condition.
  absl::StatusOr<CallOptions> OptionsWith(const std::optional<uint64_t>& seed,
                                          absl::StatusOr<LimitedParams> limited,
                                          std::vector<std::string>& lowered) const;
  // Who makes the call, for --max-calls-per-client: the digest of its token
  // (UNAUTHENTICATED without a good one) when tokens are required, else its
  // address without the port.
  absl::StatusOr<std::string> IdentifyClient() const;
  // "n = 1000 needs about 1.5 MiB of memory".
  std::string Needs(uint64_t bytes) const;
  // DEADLINE_EXCEEDED that came from --max-call-seconds, not the client.
  bool RanOutOfCallTime(const absl::Status& status) const;
  std::string CallTimeMessage() const;
  // RESOURCE_EXHAUSTED for a limit we chose, logged and counted.
  absl::Status Refuse(const char* limit, const std::string& message);

  ServiceState& service_;
  grpc::CallbackServerContext* const context_;
  const CallMetrics::Method& method_metrics_;
  const absl::Time start_;
  absl::Time deadline_;         // the client's
  absl::Time server_deadline_;  // start_ + --max-call-seconds
  const LimitPolicy limit_policy_;
  std::optional<ClientCalls::Slot> client_slot_;
  bool entered_ = false;
  // Its status is written once, before finished_ is set.
  CallRecord record_;
  std::optional<MemoryBudget::Reservation> memory_;
  std::atomic<bool> memory_refused_{false};
  std::vector<std::string> lowered_limits_;
  // Cancel() and Schedule() may race (OnCancel against a stream's last read).
  absl::Mutex schedule_mutex_;
  std::optional<WorkerPool::Ticket> ticket_ ABSL_GUARDED_BY(schedule_mutex_);
  std::atomic<bool> cancelled_{false};
  std::atomic<bool> finished_{false};
};

}  // namespace nqueens::server

#endif  // NQUEENS_SERVER_RPC_CALL_H_
