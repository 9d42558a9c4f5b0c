// The HTTPS port's certificate, key and client CAs (--tls-cert, --tls-key,
// --tls-client-ca), kept as current as the gRPC port's (server/security/tls.h): the
// files are read again every `refresh_interval`, and each new connection gets
// the GnuTLS credentials made of what was read last. A renewed certificate,
// or a new client CA, takes effect without a restart.
//
// How they reach a connection: libmicrohttpd makes one set of credentials at
// start and gives it to every TLS session. Its hook for new connections
// (MHD_OPTION_NOTIFY_CONNECTION) runs before the connection's thread starts
// the handshake, and gnutls_credentials_set replaces a session's
// credentials: the current ones go in there. (The certificate callback,
// MHD_OPTION_HTTPS_CERT_CALLBACK, gets no pointer of ours and would leave the
// client CAs as they were at start.) The same hook makes the session read
// through a PlaintextGuard, which answers a plain HTTP request in plain HTTP.
//
// A set of files that cannot be used (a key that is not the certificate's, as
// between two renames, or a file that does not parse) changes nothing: the
// port keeps the credentials it had, and logs a warning once per such set.
#ifndef NQUEENS_SERVER_HTTP_CERTIFICATE_RELOADER_H_
#define NQUEENS_SERVER_HTTP_CERTIFICATE_RELOADER_H_

#include <microhttpd.h>

#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "server/http/plaintext_guard.h"
#include "server/security/tls.h"

namespace nqueens::server::http {

class CertificateReloader {
 public:
  // Reads the files of `options` (which has a certificate and a key) and
  // starts reading them again every options.refresh_interval.
  // INVALID_ARGUMENT naming the flag and the file when one cannot be read,
  // or naming the flags when GnuTLS cannot use what they hold.
  static absl::StatusOr<std::unique_ptr<CertificateReloader>> Start(const TlsOptions& options);
  // Stops reading the files. Destroy it after the daemon has stopped: the
  // daemon calls into it and reads the files it was started with.
  ~CertificateReloader();

  CertificateReloader(const CertificateReloader&) = delete;
  CertificateReloader& operator=(const CertificateReloader&) = delete;

  // MHD_start_daemon's options for TLS: the files as read at start (the
  // daemon wants a certificate and key of its own, and asks clients for a
  // certificate only when it has CAs) and the hook that gives each new
  // connection the current credentials. They point into this object.
  std::vector<MHD_OptionItem> DaemonOptions();

 private:
  // The text of the three files (client_ca empty without --tls-client-ca).
  struct Files {
    std::string cert, key, client_ca;
    bool operator==(const Files& other) const;
  };
  class Credentials;  // Files made into GnuTLS credentials
  // What a TLS session points at until libmicrohttpd has deinitialised it:
  // its credentials, and the guard it reads through.
  struct Held {
    std::shared_ptr<Credentials> credentials;
    std::optional<PlaintextGuard> guard;
  };

  static absl::StatusOr<Files> Read(const TlsOptions& options);
  static absl::StatusOr<std::shared_ptr<Credentials>> Make(const TlsOptions& options, Files files);
  // MHD_OPTION_NOTIFY_CONNECTION's callback, with this as `reloader`.
  static void OnConnection(void* reloader, MHD_Connection* connection, void** socket_context,
                           MHD_ConnectionNotificationCode code);

  CertificateReloader(const TlsOptions& options, std::shared_ptr<Credentials> first);

  // Reads the files every refresh_interval until the destructor says stop.
  void RefreshEvery();
  void Refresh();
  std::shared_ptr<Credentials> Current() const;

  const TlsOptions options_;
  // What the daemon was started with, which it keeps pointers into.
  const std::shared_ptr<Credentials> first_;
  // The last set of files refused and why: it has had its warning. Only
  // the refresher's thread uses them.
  Files refused_;
  std::string refused_error_;

  mutable absl::Mutex mutex_;
  std::shared_ptr<Credentials> current_ ABSL_GUARDED_BY(mutex_);
  bool stopping_ ABSL_GUARDED_BY(mutex_) = false;
  std::thread refresher_;
};

}  // namespace nqueens::server::http

#endif  // NQUEENS_SERVER_HTTP_CERTIFICATE_RELOADER_H_
