#include "test_certificates.h"

#include <stdlib.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/time/clock.h"
#include "gtest/gtest.h"

namespace nqueens::testing {
namespace {

constexpr char kNewKey[] = "-newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes";
constexpr char kCaValidity[] = "-days 30";

// `openssl ca` rather than `openssl x509 -req`: only it takes both dates
// (-startdate, -enddate), so that tests can make certificates that have
// expired or are not valid yet. It wants a database and a serial file.
constexpr char kCaConfig[] = R"([ca]
default_ca = test_ca
[test_ca]
database = DIR/index.txt
serial = DIR/serial
new_certs_dir = DIR
default_md = sha256
policy = any_name
unique_subject = no
[any_name]
commonName = supplied
)";

// openssl's date format, in UTC.
std::string OpensslDate(absl::Time time) {
  return absl::FormatTime("%Y%m%d%H%M%SZ", time, absl::UTCTimeZone());
}

std::string MakeTempDirectory() {
  std::string pattern = absl::StrCat(::testing::TempDir(), "nqueens-certs-XXXXXX");
  if (mkdtemp(pattern.data()) == nullptr) {
    ADD_FAILURE() << "mkdtemp " << pattern << " failed";
  }
  return pattern;
}

}  // namespace

TestCertificateAuthority::TestCertificateAuthority(const std::string& name)
    : directory_(MakeTempDirectory()) {
  ca_ = {PathOf(name + ".pem"), PathOf(name + ".key")};
  Openssl(absl::StrCat("req -x509 ", kNewKey, " ", kCaValidity, " -subj /CN=", name, " -keyout ",
                       ca_.key_file, " -out ", ca_.cert_file));
  std::ofstream(PathOf("ca.cnf")) << absl::StrReplaceAll(kCaConfig, {{"DIR", directory_}});
  std::ofstream(PathOf("index.txt"));
  std::ofstream(PathOf("serial")) << "01\n";
}

TestCertificateAuthority::~TestCertificateAuthority() {
  std::error_code ignored;
  std::filesystem::remove_all(directory_, ignored);
}

KeyPair TestCertificateAuthority::Issue(const std::string& common_name, const std::string& names,
                                        const Validity& validity) {
  const KeyPair issued = {PathOf(common_name + ".pem"), PathOf(common_name + ".key")};
  const std::string request = PathOf(common_name + ".csr");
  const std::string extensions = PathOf(common_name + ".ext");
  std::ofstream(extensions) << "subjectAltName=" << names << "\n"
                            << "basicConstraints=CA:FALSE\n"
                            << "extendedKeyUsage=serverAuth,clientAuth\n";
  Openssl(absl::StrCat("req -new ", kNewKey, " -subj /CN=", common_name, " -keyout ",
                       issued.key_file, " -out ", request));
  const absl::Time now = absl::Now();
  Openssl(absl::StrCat("ca -batch -notext -config ", PathOf("ca.cnf"), " -cert ", ca_.cert_file,
                       " -keyfile ", ca_.key_file, " -startdate ",
                       OpensslDate(now + validity.starts), " -enddate ",
                       OpensslDate(now + validity.ends), " -in ", request, " -extfile ", extensions,
                       " -out ", issued.cert_file));
  return issued;
}

void TestCertificateAuthority::Openssl(const std::string& arguments) {
  const std::string log = PathOf("openssl.log");
  const std::string command = absl::StrCat("openssl ", arguments, " >", log, " 2>&1");
  const int status = std::system(command.c_str());
  if (status != 0) ADD_FAILURE() << command << " failed (" << status << "):\n" << ReadTextFile(log);
}

std::string TestCertificateAuthority::PathOf(const std::string& file_name) const {
  return absl::StrCat(directory_, "/", file_name);
}

void ReplaceFile(const std::string& path, const std::string& content) {
  const std::string next = path + ".next";
  std::ofstream(next, std::ios::binary) << content;
  if (std::rename(next.c_str(), path.c_str()) != 0) ADD_FAILURE() << "cannot rename to " << path;
}

std::string ReadTextFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::stringstream content;
  content << file.rdbuf();
  return content.str();
}

}  // namespace nqueens::testing
