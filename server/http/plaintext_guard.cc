#include "server/http/plaintext_guard.h"

#include <sys/socket.h>

#include <cerrno>
#include <cstdint>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"

namespace nqueens::server::http {
namespace {

gnutls_transport_ptr_t SocketPointer(int fd) {
  return reinterpret_cast<gnutls_transport_ptr_t>(static_cast<intptr_t>(fd));
}

// The rest of the request is read, up to this many reads, before the
// answer: closing a socket with unread bytes resets the connection, and the
// client may then lose the answer.
constexpr int kMaxDrainReads = 16;

void AnswerPlaintext(int fd) {
  char request[4096];
  for (int reads = 0; reads < kMaxDrainReads && recv(fd, request, sizeof request, MSG_DONTWAIT) > 0;
       ++reads) {
  }
  constexpr char kBody[] = "this port speaks HTTPS: use https://\n";
  const std::string answer = absl::StrCat(
      "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ",
      sizeof kBody - 1, "\r\nConnection: close\r\n\r\n", kBody);
  (void)send(fd, answer.data(), answer.size(), MSG_NOSIGNAL);
  shutdown(fd, SHUT_WR);
}

}  // namespace

PlaintextGuard::PlaintextGuard(gnutls_session_t session, int fd) : fd_(fd) {
  gnutls_transport_set_ptr2(session, this, SocketPointer(fd));
  gnutls_transport_set_pull_function(session, &Pull);
  gnutls_transport_set_pull_timeout_function(session, &PullTimeout);
}

ssize_t PlaintextGuard::Pull(gnutls_transport_ptr_t guard, void* data, size_t size) {
  PlaintextGuard& self = *static_cast<PlaintextGuard*>(guard);
  const ssize_t got = recv(self.fd_, data, size, 0);
  if (got <= 0 || !self.first_read_) return got;
  self.first_read_ = false;
  if (!absl::ascii_isupper(*static_cast<const unsigned char*>(data))) return got;
  AnswerPlaintext(self.fd_);
  errno = ECONNRESET;
  return -1;
}

int PlaintextGuard::PullTimeout(gnutls_transport_ptr_t guard, unsigned int milliseconds) {
  return gnutls_system_recv_timeout(SocketPointer(static_cast<PlaintextGuard*>(guard)->fd_),
                                    milliseconds);
}

}  // namespace nqueens::server::http
