#include "server/descriptor_limit.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <mutex>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "spdlog/spdlog.h"

namespace nqueens::server {
namespace {

// INT_MAX: no cap (before CapAcceptedConnections).
std::atomic<int> first_refused_descriptor{INT_MAX};
std::atomic<uint64_t> closed_since_warning{0};
std::atomic<int64_t> next_warning_nanos{0};

// A descriptor held open so that, out of descriptors, there is one to free
// for accepting the waiting connection and closing it: otherwise it would
// stay in the backlog, and the listener would be woken for it again and
// again.
std::mutex spare_mutex;
int spare_descriptor = -1;  // guarded by spare_mutex

int OpenSpare() { return open("/dev/null", O_RDONLY | O_CLOEXEC); }

int RawAccept4(int listener, sockaddr* address, socklen_t* length, int flags) {
  return static_cast<int>(syscall(SYS_accept4, listener, address, length, flags));
}

// Errors of the waiting connection rather than of the listener: accept(2)
// says to retry them like EAGAIN. gRPC 1.51 stops listening on any of them.
bool IsConnectionError(int error) {
  switch (error) {
    case ECONNABORTED:
    case EPROTO:
    case ENOPROTOOPT:
    case EHOSTDOWN:
    case ENONET:
    case EHOSTUNREACH:
    case EOPNOTSUPP:
    case ENETDOWN:
    case ENETUNREACH:
      return true;
    default:
      return false;
  }
}

void NoteClosed() {
  closed_since_warning.fetch_add(1, std::memory_order_relaxed);
  const int64_t now = absl::GetCurrentTimeNanos();
  int64_t due = next_warning_nanos.load(std::memory_order_relaxed);
  if (now < due || !next_warning_nanos.compare_exchange_strong(
                       due, now + absl::ToInt64Nanoseconds(absl::Seconds(10)))) {
    return;
  }
  spdlog::warn(
      "closed {} new connections at once since the last such warning: descriptor {} and "
      "above are not kept for connections, to stay below the limit on open descriptors (raise "
      "it with ulimit -n, or add replicas)",
      closed_since_warning.exchange(0), first_refused_descriptor.load());
}

// Out of descriptors: frees the spare to take the waiting connection off the
// backlog and close it. False when there is no spare to free.
bool CloseOneWaiting(int listener) {
  std::lock_guard<std::mutex> lock(spare_mutex);
  if (spare_descriptor < 0) spare_descriptor = OpenSpare();
  if (spare_descriptor < 0) return false;
  close(spare_descriptor);
  const int waiting = RawAccept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
  if (waiting >= 0) close(waiting);
  spare_descriptor = OpenSpare();
  if (waiting < 0) return false;
  NoteClosed();
  return true;
}

}  // namespace

DescriptorLimit RaiseDescriptorLimit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return {};
  const rlim_t wanted = std::min<rlim_t>(limit.rlim_max, kMaxDescriptorLimit);
  DescriptorLimit result{limit.rlim_cur, limit.rlim_max, false};
  if (limit.rlim_cur < wanted) {
    limit.rlim_cur = wanted;
    if (setrlimit(RLIMIT_NOFILE, &limit) == 0) result = {wanted, limit.rlim_max, true};
  }
  return result;
}

uint64_t ConnectionCap(uint64_t soft_limit) {
  return soft_limit - std::min(kReservedDescriptors, soft_limit / 2);
}

void CapAcceptedConnections(uint64_t cap) {
  {
    std::lock_guard<std::mutex> lock(spare_mutex);
    if (spare_descriptor < 0) spare_descriptor = OpenSpare();
  }
  first_refused_descriptor.store(static_cast<int>(std::min<uint64_t>(cap, INT_MAX)));
}

}  // namespace nqueens::server

// Replaces the C library's accept4() for the whole process (gRPC's listener
// calls it; see descriptor_limit.h): returns a connection below the cap, or
// fails with an error gRPC handles by waiting for the next connection
// (EAGAIN) or gives up on (anything else but EMFILE and ENFILE, which never
// reach it).
extern "C" int accept4(int listener, sockaddr* address, socklen_t* length, int flags) {
  using nqueens::server::first_refused_descriptor;
  const socklen_t length_given = length != nullptr ? *length : 0;
  while (true) {
    if (length != nullptr) *length = length_given;
    const int connection = nqueens::server::RawAccept4(listener, address, length, flags);
    if (connection >= first_refused_descriptor.load(std::memory_order_relaxed)) {
      close(connection);
      nqueens::server::NoteClosed();
      continue;
    }
    if (connection >= 0) return connection;
    if (errno == EINTR || nqueens::server::IsConnectionError(errno)) continue;
    if ((errno == EMFILE || errno == ENFILE) &&
        first_refused_descriptor.load(std::memory_order_relaxed) != INT_MAX) {
      if (nqueens::server::CloseOneWaiting(listener)) continue;
      errno = EAGAIN;  // a later connection wakes the listener again
    }
    return -1;
  }
}
