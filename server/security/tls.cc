#include "server/security/tls.h"

#include <grpc/grpc_security_constants.h>
#include <grpcpp/security/tls_certificate_provider.h>
#include <grpcpp/security/tls_credentials_options.h>
#include <openssl/asn1.h>
#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include <algorithm>
#include <ctime>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "absl/time/clock.h"
#include "command_line/flag_file.h"
#include "spdlog/spdlog.h"

namespace nqueens::server {
namespace {

struct BioFree {
  void operator()(BIO* bio) const { BIO_free(bio); }
};
struct X509Free {
  void operator()(X509* certificate) const { X509_free(certificate); }
};
struct KeyFree {
  void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
};

absl::Status FileError(const char* flag, const std::string& path, absl::string_view problem) {
  return absl::InvalidArgumentError(absl::StrCat(flag, " ", path, ": ", problem));
}

std::unique_ptr<BIO, BioFree> MemoryBio(const std::string& pem) {
  return std::unique_ptr<BIO, BioFree>(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
}

// The first certificate in the PEM file `path`.
absl::StatusOr<std::unique_ptr<X509, X509Free>> ReadCertificate(const char* flag,
                                                                const std::string& path) {
  absl::StatusOr<std::string> pem = command_line::ReadFlagFile(flag, path);
  if (!pem.ok()) return pem.status();
  std::unique_ptr<X509, X509Free> certificate(
      PEM_read_bio_X509(MemoryBio(*pem).get(), nullptr, nullptr, nullptr));
  if (certificate == nullptr) return FileError(flag, path, "no PEM certificate in it");
  return certificate;
}

// A certificate this close to its end gets a warning at start: enough for
// whoever renews it to notice before clients start failing.
constexpr absl::Duration kExpiryWarning = absl::Hours(24 * 7);

absl::Time ToTime(const ASN1_TIME* time) {
  std::tm parts{};
  if (ASN1_TIME_to_tm(time, &parts) != 1) return absl::InfinitePast();
  return absl::FromTM(parts, absl::UTCTimeZone());
}

std::string DateText(absl::Time time) {
  return absl::FormatTime("%Y-%m-%d %H:%M:%S UTC", time, absl::UTCTimeZone());
}

// Outside its validity the certificate fails every handshake, and clients
// only see "certificate verify failed": refuse to start instead.
absl::Status CheckValidity(const X509& certificate, const std::string& path) {
  const absl::Time now = absl::Now();
  const absl::Time not_before = ToTime(X509_get0_notBefore(&certificate));
  const absl::Time not_after = ToTime(X509_get0_notAfter(&certificate));
  const std::string dates =
      absl::StrCat("valid from ", DateText(not_before), " to ", DateText(not_after));
  if (now < not_before) {
    return FileError("--tls-cert", path, absl::StrCat("the certificate is not valid yet, ", dates));
  }
  if (now > not_after) {
    return FileError("--tls-cert", path, absl::StrCat("the certificate has expired, ", dates));
  }
  if (not_after - now < kExpiryWarning) {
    spdlog::warn("--tls-cert {}: the certificate expires on {}, in {}; renew it", path,
                 DateText(not_after),
                 absl::FormatDuration(absl::Trunc(not_after - now, absl::Minutes(1))));
  }
  return absl::OkStatus();
}

// gRPC's provider reads the files on its own thread and only logs what it
// cannot use, and the server would then fail every handshake: they are
// checked here first, so that a bad file is an error at start.
absl::Status CheckFiles(const TlsOptions& options) {
  if (options.cert_file.empty() || options.key_file.empty()) {
    return absl::InvalidArgumentError(options.cert_file.empty()
                                          ? "--tls-key needs --tls-cert (the key's certificate)"
                                          : "--tls-cert needs --tls-key (the certificate's key)");
  }
  absl::StatusOr<std::unique_ptr<X509, X509Free>> certificate =
      ReadCertificate("--tls-cert", options.cert_file);
  if (!certificate.ok()) return certificate.status();
  if (absl::Status valid = CheckValidity(**certificate, options.cert_file); !valid.ok()) {
    return valid;
  }
  absl::StatusOr<std::string> key_pem = command_line::ReadFlagFile("--tls-key", options.key_file);
  if (!key_pem.ok()) return key_pem.status();
  std::unique_ptr<EVP_PKEY, KeyFree> key(
      PEM_read_bio_PrivateKey(MemoryBio(*key_pem).get(), nullptr, nullptr, nullptr));
  if (key == nullptr) return FileError("--tls-key", options.key_file, "no PEM private key in it");
  if (X509_check_private_key(certificate->get(), key.get()) != 1) {
    return FileError(
        "--tls-key", options.key_file,
        absl::StrCat("not the key of the certificate in --tls-cert ", options.cert_file));
  }
  if (options.client_ca_file.empty()) return absl::OkStatus();
  return ReadCertificate("--tls-client-ca", options.client_ca_file).status();
}

}  // namespace

absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> ServerCredentialsFor(
    const TlsOptions& options) {
  if (!options.enabled()) {
    if (!options.client_ca_file.empty()) {
      return absl::InvalidArgumentError("--tls-client-ca needs --tls-cert and --tls-key");
    }
    return grpc::InsecureServerCredentials();
  }
  if (absl::Status files = CheckFiles(options); !files.ok()) return files;
  const auto refresh_seconds = static_cast<unsigned int>(
      std::max<int64_t>(1, absl::ToInt64Seconds(options.refresh_interval)));
  auto provider = std::make_shared<grpc::experimental::FileWatcherCertificateProvider>(
      options.key_file, options.cert_file, options.client_ca_file, refresh_seconds);
  grpc::experimental::TlsServerCredentialsOptions tls(provider);
  tls.watch_identity_key_cert_pairs();
  if (options.client_ca_file.empty()) {
    tls.set_cert_request_type(GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE);
  } else {
    tls.watch_root_certs();
    tls.set_cert_request_type(GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY);
  }
  return grpc::experimental::TlsServerCredentials(tls);
}

std::optional<std::string> ClientHandshakeFailure(absl::string_view grpc_message) {
  absl::string_view detail = grpc_message;
  if (!absl::ConsumePrefix(&detail, "Handshake failed")) return std::nullopt;
  absl::ConsumePrefix(&detail, " with");
  detail = absl::StripAsciiWhitespace(detail);
  absl::ConsumeSuffix(&detail, ".");
  if (detail.empty()) return "TLS handshake with a client failed";
  return absl::StrCat("TLS handshake with a client failed: ", detail);
}

}  // namespace nqueens::server
