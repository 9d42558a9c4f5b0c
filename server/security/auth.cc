#include "server/security/auth.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "absl/time/clock.h"
#include "command_line/flag_file.h"
#include "server/security/call_gate.h"
#include "spdlog/spdlog.h"

namespace nqueens::server {
namespace {

constexpr absl::string_view kBearerPrefix = "bearer ";  // the scheme is case-insensitive

BearerTokens::Digest Sha256(absl::string_view text) {
  BearerTokens::Digest digest{};
  unsigned int size = 0;
  EVP_Digest(text.data(), text.size(), digest.data(), &size, EVP_sha256(), nullptr);
  return digest;
}

// The file's tokens as digests; INVALID_ARGUMENT naming the file when it
// cannot be read or holds none.
absl::StatusOr<std::vector<BearerTokens::Digest>> ReadTokens(const std::string& path) {
  const absl::StatusOr<std::string> content = command_line::ReadFlagFile("--auth-token-file", path);
  if (!content.ok()) return content.status();
  std::vector<BearerTokens::Digest> digests;
  for (absl::string_view line : absl::StrSplit(*content, '\n')) {
    const absl::string_view token = absl::StripAsciiWhitespace(line);
    if (!token.empty()) digests.push_back(Sha256(token));
  }
  if (digests.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--auth-token-file ", path, " holds no token (one per line)"));
  }
  return digests;
}

// The token of `authorization: Bearer <token>`, or empty.
absl::string_view PresentedToken(const ClientMetadata& metadata) {
  const auto header = metadata.find("authorization");
  if (header == metadata.end()) return {};
  const absl::string_view value(header->second.data(), header->second.size());
  if (!absl::StartsWithIgnoreCase(value, kBearerPrefix)) return {};
  return absl::StripAsciiWhitespace(value.substr(kBearerPrefix.size()));
}

}  // namespace

bool BearerTokens::FileVersion::operator==(const FileVersion& other) const {
  return device == other.device && inode == other.inode && size == other.size &&
         modified.tv_sec == other.modified.tv_sec && modified.tv_nsec == other.modified.tv_nsec;
}

absl::StatusOr<std::unique_ptr<BearerTokens>> BearerTokens::Load(const std::string& path,
                                                                 absl::Duration recheck_interval) {
  std::unique_ptr<BearerTokens> tokens(new BearerTokens(path, recheck_interval));
  absl::Status loaded;
  {
    absl::MutexLock lock(&tokens->mutex_);
    loaded = tokens->ReloadIfChanged();
  }
  if (!loaded.ok()) return loaded;
  return tokens;
}

absl::Status BearerTokens::ReloadIfChanged() {
  const absl::Time now = absl::Now();
  if (now < next_check_) return absl::OkStatus();
  next_check_ = now + recheck_interval_;
  struct stat file {};
  if (stat(path_.c_str(), &file) != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("--auth-token-file ", path_, ": ", std::strerror(errno)));
  }
  const FileVersion version{file.st_dev, file.st_ino, file.st_size, file.st_mtim};
  if (version == version_ && !digests_.empty()) return absl::OkStatus();
  absl::StatusOr<std::vector<Digest>> digests = ReadTokens(path_);
  if (!digests.ok()) return digests.status();
  // The version is taken before the read: a change during the read is seen
  // at the next check.
  version_ = version;
  if (!digests_.empty()) {
    spdlog::info("--auth-token-file {} changed: {} tokens", path_, digests->size());
  }
  digests_ = *std::move(digests);
  return absl::OkStatus();
}

bool BearerTokens::Matches(const Digest& presented) const {
  // Every digest is compared, whatever matched before.
  bool matched = false;
  for (const Digest& digest : digests_) {
    matched |= CRYPTO_memcmp(digest.data(), presented.data(), digest.size()) == 0;
  }
  return matched;
}

absl::StatusOr<BearerTokens::Digest> BearerTokens::Authenticate(const ClientMetadata& metadata) {
  const absl::string_view token = PresentedToken(metadata);
  if (token.empty()) {
    return absl::UnauthenticatedError(
        "missing bearer token: this server requires `authorization: Bearer <token>` metadata");
  }
  const Digest presented = Sha256(token);
  absl::MutexLock lock(&mutex_);
  if (absl::Status reloaded = ReloadIfChanged(); !reloaded.ok()) {
    spdlog::warn("{}; keeping the {} tokens read before", std::string(reloaded.message()),
                 digests_.size());
  }
  if (!Matches(presented)) return absl::UnauthenticatedError("bearer token refused");
  return presented;
}

std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface> TokenInterceptors(
    BearerTokens& tokens) {
  return CallGate(
      [](absl::string_view method) {
        return !absl::StartsWith(method, "/grpc.health.v1.Health/") &&
               !absl::StartsWith(method, "/nqueens.v1.NQueensService/");
      },
      [&tokens](grpc::ServerContextBase&, const ClientMetadata& metadata) {
        return tokens.Authenticate(metadata).status();
      });
}

}  // namespace nqueens::server
