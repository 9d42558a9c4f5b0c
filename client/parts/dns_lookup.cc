#include "client/parts/dns_lookup.h"

#include <arpa/inet.h>
#include <arpa/nameser.h>
#include <netdb.h>
#include <netinet/in.h>
#include <resolv.h>
#include <sys/socket.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace nqueens::client {
namespace {

constexpr uint32_t kDnsPort = 53;

void AddOnce(std::string address, std::vector<std::string>& addresses) {
  if (std::find(addresses.begin(), addresses.end(), address) == addresses.end()) {
    addresses.push_back(std::move(address));
  }
}

// The address at `bytes`, of `family`, as text; empty when it has none.
std::string AddressText(int family, const void* bytes) {
  std::array<char, INET6_ADDRSTRLEN> text{};
  if (inet_ntop(family, bytes, text.data(), text.size()) == nullptr) return "";
  return text.data();
}

absl::StatusOr<std::vector<std::string>> LookUpBySystem(const std::string& host) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  const int error = getaddrinfo(host.c_str(), nullptr, &hints, &found);
  if (error != 0) {
    return absl::UnavailableError(absl::StrCat("cannot resolve ", host, ": ", gai_strerror(error)));
  }
  std::vector<std::string> addresses;
  for (const addrinfo* entry = found; entry != nullptr; entry = entry->ai_next) {
    std::string text;
    if (entry->ai_family == AF_INET) {
      text = AddressText(AF_INET, &reinterpret_cast<const sockaddr_in*>(entry->ai_addr)->sin_addr);
    } else if (entry->ai_family == AF_INET6) {
      text =
          AddressText(AF_INET6, &reinterpret_cast<const sockaddr_in6*>(entry->ai_addr)->sin6_addr);
    }
    if (!text.empty()) AddOnce(std::move(text), addresses);
  }
  freeaddrinfo(found);
  if (addresses.empty()) {
    return absl::UnavailableError(absl::StrCat("cannot resolve ", host, ": no address"));
  }
  return addresses;
}

// "IPV4" or "IPV4:PORT" as a socket address; nullopt for anything else.
std::optional<sockaddr_in> DnsServerAddress(absl::string_view server) {
  const size_t colon = server.find(':');
  uint32_t port = kDnsPort;
  if (colon != absl::string_view::npos &&
      (!absl::SimpleAtoi(server.substr(colon + 1), &port) || port == 0 || port > 65535)) {
    return std::nullopt;
  }
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  const std::string host(server.substr(0, colon));
  if (inet_pton(AF_INET, host.c_str(), &address.sin_addr) != 1) return std::nullopt;
  return address;
}

// glibc's resolver, asking one DNS server only.
class Resolver {
 public:
  explicit Resolver(const sockaddr_in& server) {
    ready_ = res_ninit(&state_) == 0;
    if (!ready_) return;
    // glibc keeps each IPv6 server of resolv.conf in a copy that res_nclose
    // frees only below nscount: those beyond the one server left go here.
    for (int i = 1; i < state_.nscount; ++i) {
      std::free(state_._u._ext.nsaddrs[i]);
      state_._u._ext.nsaddrs[i] = nullptr;
    }
    state_.nscount = 1;
    state_.nsaddr_list[0] = server;
  }
  ~Resolver() {
    if (ready_) res_nclose(&state_);
  }
  Resolver(const Resolver&) = delete;
  Resolver& operator=(const Resolver&) = delete;

  bool ready() const { return ready_; }

  // Appends the addresses of `host`'s records of `type` (ns_t_a, ns_t_aaaa)
  // to `addresses`; 0, or the resolver's h_errno when the query fails
  // (NO_DATA: the name has no such record).
  int Query(const std::string& host, ns_type type, std::vector<std::string>& addresses) {
    std::vector<unsigned char> answer(NS_MAXMSG);
    const int length = res_nquery(&state_, host.c_str(), ns_c_in, type, answer.data(),
                                  static_cast<int>(answer.size()));
    if (length < 0) return state_.res_h_errno;
    ns_msg message;
    if (ns_initparse(answer.data(), std::min(length, static_cast<int>(answer.size())), &message) !=
        0) {
      return NO_RECOVERY;
    }
    const int family = type == ns_t_a ? AF_INET : AF_INET6;
    const size_t size = type == ns_t_a ? sizeof(in_addr) : sizeof(in6_addr);
    for (int i = 0; i < ns_msg_count(message, ns_s_an); ++i) {
      ns_rr record;
      if (ns_parserr(&message, ns_s_an, i, &record) != 0) return NO_RECOVERY;
      if (ns_rr_type(record) != type || ns_rr_rdlen(record) != size) continue;  // a CNAME
      if (std::string text = AddressText(family, ns_rr_rdata(record)); !text.empty()) {
        AddOnce(std::move(text), addresses);
      }
    }
    return 0;
  }

 private:
  struct __res_state state_ {};
  bool ready_ = false;
};

absl::StatusOr<std::vector<std::string>> LookUpAt(const std::string& host,
                                                  absl::string_view dns_server) {
  const std::optional<sockaddr_in> server = DnsServerAddress(dns_server);
  if (!server.has_value()) {
    return absl::InvalidArgumentError(
        absl::StrCat("the DNS server \"", dns_server, "\" is no IPV4 or IPV4:PORT address"));
  }
  const std::string failure = absl::StrCat("cannot resolve ", host, " at DNS server ", dns_server);
  Resolver resolver(*server);
  if (!resolver.ready()) {
    return absl::UnavailableError(absl::StrCat(failure, ": the resolver cannot start"));
  }
  std::vector<std::string> addresses;
  int error = resolver.Query(host, ns_t_a, addresses);
  // A server that did not answer for A would make AAAA wait as long again.
  if (error != TRY_AGAIN) {
    const int aaaa_error = resolver.Query(host, ns_t_aaaa, addresses);
    if (error == 0) error = aaaa_error;
  }
  if (!addresses.empty()) return addresses;
  return absl::UnavailableError(
      absl::StrCat(failure, ": ", error != 0 ? hstrerror(error) : "no address"));
}

}  // namespace

absl::StatusOr<std::vector<std::string>> LookUpHost(const std::string& host,
                                                    absl::string_view dns_server) {
  return dns_server.empty() ? LookUpBySystem(host) : LookUpAt(host, dns_server);
}

}  // namespace nqueens::client
