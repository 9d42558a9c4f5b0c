// A plain HTTP request on the HTTPS port (curl http://HOST:PORT/...) gets a
// plain HTTP/1.1 400 saying "this port speaks HTTPS: use https://", where
// GnuTLS would fail the handshake and the client would see the connection
// closed without a word.
//
// How: a TLS client opens with a handshake record, whose first byte is 22;
// an HTTP request opens with its method, in capital letters. The guard is
// the TLS session's transport for reading, set before the handshake by the
// hook for new connections (certificate_reloader.h). When the first bytes
// that come are a capital letter, it writes the answer itself and fails the
// read: the handshake fails, and libmicrohttpd closes the connection.
#ifndef NQUEENS_SERVER_HTTP_PLAINTEXT_GUARD_H_
#define NQUEENS_SERVER_HTTP_PLAINTEXT_GUARD_H_

#include <gnutls/gnutls.h>
#include <sys/types.h>

namespace nqueens::server::http {

class PlaintextGuard {
 public:
  // `session` reads socket `fd` through this guard from now on, and writes
  // to it as before; the guard must outlive the session.
  PlaintextGuard(gnutls_session_t session, int fd);
  PlaintextGuard(const PlaintextGuard&) = delete;
  PlaintextGuard& operator=(const PlaintextGuard&) = delete;

 private:
  // GnuTLS's pull functions, with this as `guard`.
  static ssize_t Pull(gnutls_transport_ptr_t guard, void* data, size_t size);
  static int PullTimeout(gnutls_transport_ptr_t guard, unsigned int milliseconds);

  const int fd_;
  bool first_read_ = true;  // only the connection's thread reads
};

}  // namespace nqueens::server::http

#endif  // NQUEENS_SERVER_HTTP_PLAINTEXT_GUARD_H_
