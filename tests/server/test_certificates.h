// Certificates made at test time with Debian's `openssl`, for the TLS tests
// of the server and the CLI: a CA of its own in a fresh temporary directory,
// and the certificates it signs (P-256 keys, valid for 30 days from now unless
// a test asks for other dates).
#ifndef NQUEENS_TESTS_SERVER_TEST_CERTIFICATES_H_
#define NQUEENS_TESTS_SERVER_TEST_CERTIFICATES_H_

#include <string>

#include "absl/time/time.h"

namespace nqueens::testing {

// What the server tests and the CLI connect to.
constexpr char kLocalNames[] = "DNS:localhost,IP:127.0.0.1";

// When a certificate is valid, from now: negative durations are in the past.
struct Validity {
  absl::Duration starts = absl::ZeroDuration();
  absl::Duration ends = absl::Hours(24 * 30);
};

struct KeyPair {
  std::string cert_file;  // PEM certificate
  std::string key_file;   // PEM private key
};

class TestCertificateAuthority {
 public:
  // A self-signed CA whose subject is CN=`name`. Failures fail the test.
  explicit TestCertificateAuthority(const std::string& name);
  ~TestCertificateAuthority();  // removes the directory

  TestCertificateAuthority(const TestCertificateAuthority&) = delete;
  TestCertificateAuthority& operator=(const TestCertificateAuthority&) = delete;

  const std::string& directory() const { return directory_; }
  const std::string& ca_file() const { return ca_.cert_file; }

  // A certificate for CN=`common_name`, for servers and clients alike,
  // valid for `names` (openssl's subjectAltName syntax) during `validity`,
  // signed by this CA; written to `common_name`.pem and `common_name`.key in
  // directory().
  KeyPair Issue(const std::string& common_name, const std::string& names = kLocalNames,
                const Validity& validity = {});

 private:
  // Runs `openssl arguments`; a failure fails the test with its output.
  void Openssl(const std::string& arguments);
  std::string PathOf(const std::string& file_name) const;

  std::string directory_;
  KeyPair ca_;
};

// Writes `content` to `path` atomically, by renaming a new file over it (as
// a Kubernetes Secret update does).
void ReplaceFile(const std::string& path, const std::string& content);
std::string ReadTextFile(const std::string& path);

}  // namespace nqueens::testing

#endif  // NQUEENS_TESTS_SERVER_TEST_CERTIFICATES_H_
