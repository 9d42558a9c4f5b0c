#include "server/http/certificate_reloader.h"

#include <gnutls/gnutls.h>
#include <gnutls/x509.h>

#include <cstdint>
#include <tuple>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "command_line/flag_file.h"
#include "spdlog/spdlog.h"

namespace nqueens::server::http {

bool CertificateReloader::Files::operator==(const Files& other) const {
  return cert == other.cert && key == other.key && client_ca == other.client_ca;
}

// One reading of the files, as GnuTLS credentials. A TLS session points at
// them from gnutls_credentials_set to gnutls_deinit, so each connection
// holds the ones it was given (OnConnection).
class CertificateReloader::Credentials {
 public:
  explicit Credentials(Files read) : files(std::move(read)) {}
  ~Credentials() {
    if (gnutls != nullptr) gnutls_certificate_free_credentials(gnutls);
  }
  Credentials(const Credentials&) = delete;
  Credentials& operator=(const Credentials&) = delete;

  Files files;
  gnutls_certificate_credentials_t gnutls = nullptr;
};

namespace {

// The files are at most command_line::kMaxFlagFileBytes, far below what a
// datum's size holds.
gnutls_datum_t Datum(std::string& text) {
  return {reinterpret_cast<unsigned char*>(text.data()), static_cast<unsigned int>(text.size())};
}

// 0 when every PEM block of `chain` is a certificate, else GnuTLS's error.
int CheckCertificates(const gnutls_datum_t& chain) {
  gnutls_x509_crt_t* certificates = nullptr;
  unsigned int count = 0;
  const int error =
      gnutls_x509_crt_list_import2(&certificates, &count, &chain, GNUTLS_X509_FMT_PEM, 0);
  for (unsigned int i = 0; i < count; ++i) gnutls_x509_crt_deinit(certificates[i]);
  gnutls_free(static_cast<void*>(certificates));
  return error < 0 ? error : 0;
}

// GnuTLS's text for `error`, without its full stop.
absl::string_view GnuTlsError(int error) { return absl::StripSuffix(gnutls_strerror(error), "."); }

}  // namespace

absl::StatusOr<CertificateReloader::Files> CertificateReloader::Read(const TlsOptions& options) {
  Files files;
  for (auto [flag, path, text] :
       {std::tuple{"--tls-cert", &options.cert_file, &files.cert},
        std::tuple{"--tls-key", &options.key_file, &files.key},
        std::tuple{"--tls-client-ca", &options.client_ca_file, &files.client_ca}}) {
    if (path->empty()) continue;
    absl::StatusOr<std::string> read = command_line::ReadFlagFile(flag, *path);
    if (!read.ok()) return read.status();
    *text = *std::move(read);
  }
  return files;
}

absl::StatusOr<std::shared_ptr<CertificateReloader::Credentials>> CertificateReloader::Make(
    const TlsOptions& options, Files files) {
  auto made = std::make_shared<Credentials>(std::move(files));
  if (gnutls_certificate_allocate_credentials(&made->gnutls) != GNUTLS_E_SUCCESS) {
    return absl::ResourceExhaustedError("no memory for the HTTP port's TLS credentials");
  }
  const gnutls_datum_t cert = Datum(made->files.cert);
  const gnutls_datum_t key = Datum(made->files.key);
  // GnuTLS 3.7.9 leaks a certificate when gnutls_certificate_set_x509_key_mem
  // meets a PEM block that does not decode; its list import does not.
  if (const int error = CheckCertificates(cert); error < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("--tls-cert ", options.cert_file, ": ", GnuTlsError(error)));
  }
  // GnuTLS checks here that the key is the certificate's.
  if (const int error =
          gnutls_certificate_set_x509_key_mem(made->gnutls, &cert, &key, GNUTLS_X509_FMT_PEM);
      error < 0) {
    return absl::InvalidArgumentError(absl::StrCat("--tls-cert ", options.cert_file,
                                                   " with --tls-key ", options.key_file, ": ",
                                                   GnuTlsError(error)));
  }
  if (made->files.client_ca.empty()) return made;
  const gnutls_datum_t cas = Datum(made->files.client_ca);
  // The number of CA certificates read, or an error.
  const int read = gnutls_certificate_set_x509_trust_mem(made->gnutls, &cas, GNUTLS_X509_FMT_PEM);
  if (read <= 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("--tls-client-ca ", options.client_ca_file, ": ",
                     read < 0 ? GnuTlsError(read) : "no PEM certificate in it"));
  }
  return made;
}

absl::StatusOr<std::unique_ptr<CertificateReloader>> CertificateReloader::Start(
    const TlsOptions& options) {
  absl::StatusOr<Files> files = Read(options);
  if (!files.ok()) return files.status();
  absl::StatusOr<std::shared_ptr<Credentials>> first = Make(options, *std::move(files));
  if (!first.ok()) return first.status();
  return std::unique_ptr<CertificateReloader>(new CertificateReloader(options, *std::move(first)));
}

CertificateReloader::CertificateReloader(const TlsOptions& options,
                                         std::shared_ptr<Credentials> first)
    : options_(options), first_(first), current_(std::move(first)) {
  refresher_ = std::thread([this] { RefreshEvery(); });
}

CertificateReloader::~CertificateReloader() {
  {
    absl::MutexLock lock(&mutex_);
    stopping_ = true;
  }
  refresher_.join();
}

std::vector<MHD_OptionItem> CertificateReloader::DaemonOptions() {
  std::vector<MHD_OptionItem> items = {
      {MHD_OPTION_HTTPS_MEM_CERT, 0, first_->files.cert.data()},
      {MHD_OPTION_HTTPS_MEM_KEY, 0, first_->files.key.data()},
      {MHD_OPTION_NOTIFY_CONNECTION, reinterpret_cast<intptr_t>(&OnConnection), this},
  };
  if (!first_->files.client_ca.empty()) {
    items.push_back({MHD_OPTION_HTTPS_MEM_TRUST, 0, first_->files.client_ca.data()});
  }
  return items;
}

// The daemon's thread calls this for a new connection before the
// connection's own thread starts the handshake, and again after it has
// joined that thread and deinitialised the TLS session (libmicrohttpd's
// MHD_cleanup_connections): what a connection holds is freed only when no
// session can use it, and a replaced set lives as long as the connections
// that were given it.
void CertificateReloader::OnConnection(void* reloader, MHD_Connection* connection,
                                       void** socket_context, MHD_ConnectionNotificationCode code) {
  if (code == MHD_CONNECTION_NOTIFY_CLOSED) {
    delete static_cast<Held*>(*socket_context);
    *socket_context = nullptr;
    return;
  }
  const MHD_ConnectionInfo* info =
      MHD_get_connection_info(connection, MHD_CONNECTION_INFO_GNUTLS_SESSION);
  const MHD_ConnectionInfo* socket =
      MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
  if (info == nullptr || info->tls_session == nullptr || socket == nullptr) return;
  const auto session = static_cast<gnutls_session_t>(info->tls_session);
  auto held = std::make_unique<Held>();
  std::shared_ptr<Credentials> current = static_cast<CertificateReloader*>(reloader)->Current();
  // On failure (no memory) the session keeps the daemon's credentials, the
  // files as they were at start.
  if (gnutls_credentials_set(session, GNUTLS_CRD_CERTIFICATE, current->gnutls) ==
      GNUTLS_E_SUCCESS) {
    held->credentials = std::move(current);
  }
  held->guard.emplace(session, socket->connect_fd);
  *socket_context = held.release();
}

std::shared_ptr<CertificateReloader::Credentials> CertificateReloader::Current() const {
  absl::MutexLock lock(&mutex_);
  return current_;
}

void CertificateReloader::RefreshEvery() {
  while (true) {
    {
      absl::MutexLock lock(&mutex_);
      if (mutex_.AwaitWithTimeout(absl::Condition(&stopping_), options_.refresh_interval)) return;
    }
    Refresh();
  }
}

void CertificateReloader::Refresh() {
  absl::StatusOr<Files> files = Read(options_);
  if (files.ok() && *files == Current()->files) {
    spdlog::debug("the HTTP port's TLS files are unchanged");
    refused_error_.clear();
    return;
  }
  absl::StatusOr<std::shared_ptr<Credentials>> made =
      files.ok() ? Make(options_, *files) : files.status();
  if (made.ok()) {
    {
      absl::MutexLock lock(&mutex_);
      current_ = *std::move(made);
    }
    refused_error_.clear();
    spdlog::info("the HTTP port serves --tls-cert {} as read again", options_.cert_file);
    return;
  }
  Files refused = files.ok() ? *std::move(files) : Files{};
  const std::string error(made.status().message());
  if (refused == refused_ && error == refused_error_) {
    spdlog::debug("the HTTP port's TLS files are still the ones refused");
    return;
  }
  refused_ = std::move(refused);
  refused_error_ = error;
  spdlog::warn("{}; the HTTP port keeps the certificate it serves", error);
}

}  // namespace nqueens::server::http
