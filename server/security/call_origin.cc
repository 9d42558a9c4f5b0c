#include "server/security/call_origin.h"

#include <openssl/crypto.h>
#include <openssl/rand.h>

#include <array>
#include <optional>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"

namespace nqueens::server {
namespace {

// 128 random bits as 32 hex digits, drawn once per process.
const std::string& ForwardingSecret() {
  static const std::string* const secret = [] {
    std::array<unsigned char, 16> bytes{};
    RAND_bytes(bytes.data(), static_cast<int>(bytes.size()));
    return new std::string(absl::BytesToHexString(
        absl::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size())));
  }();
  return *secret;
}

// The HTTP client's address when `metadata` comes from the gateway.
std::optional<absl::string_view> ForwardedClient(
    const std::multimap<grpc::string_ref, grpc::string_ref>& metadata) {
  const auto forwarded = metadata.find(kForwardedForKey);
  if (forwarded == metadata.end()) return std::nullopt;
  const absl::string_view value(forwarded->second.data(), forwarded->second.size());
  const std::string& secret = ForwardingSecret();
  // Compared in constant time: how much of a guess matched does not show.
  if (value.size() <= secret.size() || value[secret.size()] != ' ' ||
      CRYPTO_memcmp(value.data(), secret.data(), secret.size()) != 0) {
    return std::nullopt;
  }
  return value.substr(secret.size() + 1);
}

}  // namespace

std::string ForwardedFor(absl::string_view client_address) {
  return absl::StrCat(ForwardingSecret(), " ", client_address);
}

CallOrigin OriginOf(const grpc::ServerContextBase& context) {
  const std::optional<absl::string_view> client = ForwardedClient(context.client_metadata());
  if (!client.has_value()) return {"grpc", context.peer()};
  return {"http", std::string(*client)};
}

const char* TransportOf(const std::multimap<grpc::string_ref, grpc::string_ref>& metadata) {
  return ForwardedClient(metadata).has_value() ? "http" : "grpc";
}

}  // namespace nqueens::server
