#include "server/rpc/call.h"

#include <algorithm>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "nqueens/board.h"
#include "nqueens/seed.h"
#include "nqueens/v1/nqueens.grpc.pb.h"
#include "server/base/byte_size.h"
#include "server/limits/memory_estimate.h"
#include "server/limits/worker_pool.h"
#include "server/observability/logging.h"
#include "server/security/call_origin.h"
#include "server/security/health_port.h"
#include "spdlog/spdlog.h"
#include "wire/convert.h"
#include "wire/limits.h"
#include "wire/request_id.h"

namespace nqueens::server {
namespace {

// A call stopped this close to its deadline was stopped by it (see
// StoppedStatus).
constexpr absl::Duration kDeadlineSlack = absl::Milliseconds(20);

// "ipv4:10.1.2.3:41234" -> "ipv4:10.1.2.3": one client however many
// connections it opens.
std::string PeerHost(const std::string& peer) {
  const bool has_port = absl::StartsWith(peer, "ipv4:") || absl::StartsWith(peer, "ipv6:");
  return has_port ? peer.substr(0, peer.rfind(':')) : peer;
}

// The client's x-request-id when it is usable, else a new one.
std::string RequestIdOf(const grpc::CallbackServerContext& context) {
  const auto& metadata = context.client_metadata();
  const auto given = metadata.find(wire::kRequestIdKey);
  if (given != metadata.end()) {
    const absl::string_view id(given->second.data(), given->second.size());
    if (wire::IsUsableRequestId(id)) return std::string(id);
  }
  return wire::NewRequestId();
}

}  // namespace

Call::Call(ServiceState& service, grpc::CallbackServerContext* context, const char* method)
    : service_(service),
      context_(context),
      method_metrics_(service.metrics.ForMethod(method)),
      start_(absl::Now()),
      deadline_(wire::DeadlineFromChrono(context->deadline())),
      server_deadline_(start_ + service.options.limits.max_call_time),
      limit_policy_(service.options.limits, deadline_) {
  record_.method = method;
  record_.request_id = RequestIdOf(*context);
  // Now: once the call is cancelled, gRPC no longer knows the peer.
  CallOrigin origin = OriginOf(*context);
  record_.peer = std::move(origin.peer);
  record_.transport = origin.transport;
}

Call::~Call() {
  // Finished OK, but the client's deadline passed (or it went away) while
  // the answer was on its way: the log says what the client saw.
  if (finished() && record_.status.ok() && context_->IsCancelled()) {
    record_.status = StoppedStatus();
  }
  LogCall(record_);
  // Last: once no call is in flight, all of them are counted and logged.
  if (entered_ && service_.in_flight.Exit()) service_.idle_heap_trim.Idle();
}

absl::Status Call::Enter() {
  absl::Status entered = Admit();
  // The request id goes back in the initial metadata of a call that begins,
  // and in the trailers of one refused here: gRPC commits a call once it has
  // the server's initial metadata and never retries it then, and refusals
  // such as a shutdown's UNAVAILABLE are just what clients retry elsewhere.
  if (entered.ok()) {
    context_->AddInitialMetadata(wire::kRequestIdKey, record_.request_id);
  } else {
    context_->AddTrailingMetadata(wire::kRequestIdKey, record_.request_id);
  }
  return entered;
}

absl::Status Call::Admit() {
  // Before the token: the client is told, and the log and counters say,
  // that this port serves no NQueens call, whatever the call carries.
  if (service_.options.health_port) {
    if (absl::Status port = CheckNotHealthPort(*context_); !port.ok()) return port;
  }
  if (absl::Status metadata = CheckMetadataSize(); !metadata.ok()) return metadata;
  const absl::StatusOr<std::string> client = IdentifyClient();
  if (!client.ok()) return client.status();
  std::optional<ClientCalls::Slot> slot = service_.client_calls.Enter(*client);
  if (!slot.has_value()) {
    return Refuse("--max-calls-per-client",
                  absl::StrCat("this client has as many calls in flight as this server allows, ",
                               service_.client_calls.max_per_client(),
                               " (--max-calls-per-client); try again when one has ended"));
  }
  client_slot_.emplace(*std::move(slot));
  entered_ = service_.in_flight.Enter();
  if (!entered_) return absl::UnavailableError("the server is shutting down");
  service_.idle_heap_trim.Busy();
  return absl::OkStatus();
}

absl::Status Call::CheckMetadataSize() {
  uint64_t bytes = 0;
  for (const auto& [name, value] : context_->client_metadata()) {
    bytes += name.size() + value.size() + 32;
  }
  if (bytes <= kMaxCallMetadataBytes) return absl::OkStatus();
  return Refuse("metadata", absl::StrCat("the call's metadata takes ", HumanBytes(bytes),
                                         ", more than this server's limit of ",
                                         HumanBytes(kMaxCallMetadataBytes), " per call"));
}

absl::StatusOr<std::string> Call::IdentifyClient() const {
  if (service_.tokens == nullptr) return PeerHost(record_.peer);
  const absl::StatusOr<BearerTokens::Digest> token =
      service_.tokens->Authenticate(context_->client_metadata());
  if (!token.ok()) return token.status();
  return std::string(token->begin(), token->end());
}

absl::Status Call::Refuse(const char* limit, const std::string& message) {
  service_.counters.CountRefusal(limit);
  spdlog::warn("{} request_id={} refused by {}: {}", record_.method, record_.request_id, limit,
               message);
  return absl::ResourceExhaustedError(message);
}

absl::Status Call::CheckSize(uint64_t n) {
  record_.n = n;
  if (absl::Status size = CheckBoardSize(n); !size.ok()) return size;
  if (n > service_.options.max_n) {
    return Refuse("--max-n", absl::StrCat("n = ", n, " is above this server's limit of ",
                                          service_.options.max_n, " (--max-n)"));
  }
  return absl::OkStatus();
}

absl::Status Call::CheckFits(uint64_t bytes) {
  if (bytes <= service_.CallCapacity()) return absl::OkStatus();
  return Refuse(
      "--memory-budget",
      absl::StrCat(Needs(bytes), ", more than the ", HumanBytes(service_.CallCapacity()),
                   " that this server's budget of ", HumanBytes(service_.memory_budget.capacity()),
                   " leaves for calls (--memory-budget)"));
}

std::string Call::Needs(uint64_t bytes) const {
  const std::string what =
      record_.n != 0 ? absl::StrCat("n = ", record_.n) : "a request of this size";
  return absl::StrCat(what, " needs about ", HumanBytes(bytes), " of memory");
}

absl::Status Call::ReserveMemory(uint64_t bytes) {
  const uint64_t held = memory_.has_value() ? memory_->bytes() : 0;
  if (bytes <= held) return absl::OkStatus();
  absl::StatusOr<MemoryBudget::Reservation> more = ReserveApart(bytes - held, held);
  if (!more.ok()) {
    memory_refused_.store(true, std::memory_order_relaxed);
    return more.status();
  }
  if (memory_.has_value()) {
    memory_->Absorb(*std::move(more));
  } else {
    memory_ = *std::move(more);
  }
  return absl::OkStatus();
}

absl::StatusOr<MemoryBudget::Reservation> Call::ReserveApart(uint64_t bytes, uint64_t held) {
  if (absl::Status fits = CheckFits(held + bytes); !fits.ok()) return fits;
  MemoryBudget& budget = service_.memory_budget;
  std::optional<MemoryBudget::Reservation> reserved = budget.Reserve(bytes);
  if (!reserved.has_value()) {
    return Refuse(
        "--memory-budget",
        absl::StrCat(Needs(held + bytes), ", but only ", HumanBytes(budget.available() + held),
                     " of this server's ", HumanBytes(budget.capacity()),
                     " budget is free now (--memory-budget); try again later"));
  }
  return *std::move(reserved);
}

absl::StatusOr<CallOptions> Call::OptionsWith(const std::optional<uint64_t>& seed,
                                              absl::StatusOr<LimitedParams> limited,
                                              std::vector<std::string>& lowered) const {
  if (!limited.ok()) return limited.status();
  lowered.insert(lowered.end(), limited->lowered.begin(), limited->lowered.end());
  CallOptions options;
  options.seed = seed.has_value() ? *seed : FreshSeed();
  options.params = limited->params;
  options.stop = Stop();
  return options;
}

absl::StatusOr<CallOptions> Call::ItemOptionsFor(const std::optional<uint64_t>& seed,
                                                 const v1::Limits& limits,
                                                 std::vector<std::string>& lowered) const {
  return OptionsWith(seed, limit_policy_.ForBatchItem(limits), lowered);
}

absl::StatusOr<CallOptions> Call::CallOptionsFor(const std::optional<uint64_t>& seed,
                                                 const v1::Limits& limits) {
  absl::StatusOr<CallOptions> options =
      OptionsWith(seed, limit_policy_.ForCall(limits), lowered_limits_);
  if (!options.ok()) return options;
  options->reserve_memory = [this](uint64_t bytes) {
    return ReserveMemory((memory_.has_value() ? memory_->bytes() : 0) + bytes);
  };
  // The exact search's subtrees go to free workers too (pool jobs that start
  // after it ended return at once), leaving one for other calls.
  options->threads = CallThreads(service_.pool);
  return options;
}

uint64_t Call::ClientReceiveBytes() const {
  const auto& metadata = context_->client_metadata();
  const auto given = metadata.find(wire::kMaxResponseBytesKey);
  uint64_t bytes = 0;
  if (given != metadata.end() &&
      absl::SimpleAtoi(absl::string_view(given->second.data(), given->second.size()), &bytes)) {
    return bytes;
  }
  return wire::kDefaultClientReceiveBytes;
}

StopCondition Call::Stop() const {
  StopCondition stop;
  stop.deadline = std::min(deadline_, server_deadline_);
  stop.cancelled = [this] { return cancelled() || service_.in_flight.grace_over(); };
  return stop;
}

absl::Status Call::StillGoing() const {
  if (cancelled()) return absl::CancelledError("cancelled");
  if (absl::Now() >= std::min(deadline_, server_deadline_)) {
    return absl::DeadlineExceededError("the deadline passed");
  }
  return absl::OkStatus();
}

WorkerPool::Size Call::SizeOf(uint64_t n) const {
  return n <= kSmallCallMaxRows ? WorkerPool::Size::kSmall : WorkerPool::Size::kLarge;
}

absl::Status Call::Schedule(WorkerPool::Size size, std::function<void()> job) {
  absl::MutexLock lock(&schedule_mutex_);
  if (cancelled()) return StoppedStatus();
  ticket_ = service_.pool.Submit(size, [this, queued = absl::Now(), job = std::move(job)] {
    service_.metrics.RecordQueueWait(absl::Now() - queued);
    job();
  });
  if (ticket_.has_value()) return absl::OkStatus();
  return Refuse("--max-queued",
                absl::StrCat("all ", service_.pool.workers(), " workers are busy and ",
                             service_.pool.max_queued(),
                             " calls already wait, this server's limit (--max-queued); try again "
                             "later"));
}

void Call::RunAtOnce(const std::function<void()>& job) {
  service_.metrics.RecordQueueWait(absl::ZeroDuration());
  job();
}

bool Call::Cancel() {
  absl::MutexLock lock(&schedule_mutex_);
  cancelled_.store(true, std::memory_order_relaxed);
  return ticket_.has_value() && service_.pool.Withdraw(*ticket_);
}

absl::Status Call::StoppedStatus() const {
  // gRPC's timer and absl's clock differ by a few milliseconds: a call cut
  // that close to its deadline was cut by it.
  if (absl::Now() + kDeadlineSlack >= deadline_) {
    return absl::DeadlineExceededError("the deadline passed before the call finished");
  }
  if (service_.in_flight.closed()) {
    return absl::UnavailableError(
        "the server shut down before the call finished (its --grace period ended)");
  }
  return absl::CancelledError("the client cancelled the call");
}

absl::Status Call::Explain(absl::Status status) {
  if (RanOutOfCallTime(status)) return Refuse("--max-call-seconds", CallTimeMessage());
  return Describe(std::move(status));
}

absl::Status Call::Describe(absl::Status status) const {
  if (RanOutOfCallTime(status)) return absl::ResourceExhaustedError(CallTimeMessage());
  if (status.code() == absl::StatusCode::kCancelled) return StoppedStatus();
  return status;
}

bool Call::RanOutOfCallTime(const absl::Status& status) const {
  return status.code() == absl::StatusCode::kDeadlineExceeded && absl::Now() < deadline_;
}

std::string Call::CallTimeMessage() const {
  return absl::StrCat("the call ran for this server's limit of ",
                      absl::FormatDuration(service_.options.limits.max_call_time),
                      " (--max-call-seconds)");
}

bool Call::MarkFinished(const absl::Status& status) {
  bool expected = false;
  if (!finished_.compare_exchange_strong(expected, true)) return false;
  record_.status = status;
  record_.duration = absl::Now() - start_;
  // Before the client can see the status: counts and metrics never lag
  // behind what clients have seen.
  service_.counters.CountCall(status.code());
  service_.metrics.RecordCall(method_metrics_, record_);
  // A client may start its next call as soon as it has this one's status.
  client_slot_.reset();
  return true;
}

}  // namespace nqueens::server
