// A name's addresses as a given DNS server answers them
// (client/parts/dns_lookup.h), against a DNS server of the test's own.
#include "client/parts/dns_lookup.h"

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "test_dns_server.h"

namespace nqueens::client {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

constexpr char kFleetName[] = "fleet.nqueens.test";

TEST(LookUpHostTest, AsksTheDnsServerGivenAndSeesItsAnswerChange) {
  testing::TestDnsServer dns(kFleetName, {"127.0.0.2", "127.0.0.3"});
  ASSERT_FALSE(dns.address().empty());
  absl::StatusOr<std::vector<std::string>> found = LookUpHost(kFleetName, dns.address());
  ASSERT_TRUE(found.ok()) << found.status();
  EXPECT_EQ(*found, std::vector<std::string>({"127.0.0.2", "127.0.0.3"}));

  dns.SetAddresses({"127.0.0.4"});
  found = LookUpHost("FLEET.nqueens.test", dns.address());
  ASSERT_TRUE(found.ok()) << found.status();
  EXPECT_EQ(*found, std::vector<std::string>({"127.0.0.4"}));
}

TEST(LookUpHostTest, ANameWithoutAddressesIsUnavailableNamingItAndTheDnsServer) {
  testing::TestDnsServer dns(kFleetName, {});
  ASSERT_FALSE(dns.address().empty());
  // The name without records, and a name the server does not know.
  for (const std::string name : {kFleetName, "other.nqueens.test"}) {
    const absl::StatusOr<std::vector<std::string>> found = LookUpHost(name, dns.address());
    EXPECT_EQ(found.status().code(), absl::StatusCode::kUnavailable);
    EXPECT_THAT(
        std::string(found.status().message()),
        StartsWith(absl::StrCat("cannot resolve ", name, " at DNS server ", dns.address(), ": ")));
  }
}

// A free UDP port of 127.0.0.1: one that was bound a moment ago.
int FreeUdpPort() {
  const int socket_fd = socket(AF_INET, SOCK_DGRAM, 0);
  sockaddr_in local{};
  local.sin_family = AF_INET;
  local.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t size = sizeof local;
  EXPECT_EQ(bind(socket_fd, reinterpret_cast<sockaddr*>(&local), sizeof local), 0);
  EXPECT_EQ(getsockname(socket_fd, reinterpret_cast<sockaddr*>(&local), &size), 0);
  close(socket_fd);
  return ntohs(local.sin_port);
}

TEST(LookUpHostTest, ADnsServerThatDoesNotAnswerIsUnavailable) {
  // Nothing listens there: the kernel refuses each query at once.
  const std::string silent = absl::StrCat("127.0.0.1:", FreeUdpPort());
  const absl::StatusOr<std::vector<std::string>> found = LookUpHost(kFleetName, silent);
  EXPECT_EQ(found.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_THAT(found.status().message(), HasSubstr(absl::StrCat(" at DNS server ", silent, ": ")));
}

TEST(LookUpHostTest, RefusesADnsServerThatIsNoIpv4AddressWithAPort) {
  for (const std::string server :
       {"dns.example", "[::1]:53", "127.0.0.1:0", "127.0.0.1:65536", "127.0.0.1:x", "127.0.0"}) {
    SCOPED_TRACE(server);
    const absl::StatusOr<std::vector<std::string>> found = LookUpHost(kFleetName, server);
    EXPECT_EQ(found.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(found.status().message(), HasSubstr(absl::StrCat("DNS server \"", server, "\"")));
  }
}

TEST(LookUpHostTest, WithoutADnsServerAsksTheSystem) {
  const absl::StatusOr<std::vector<std::string>> found = LookUpHost("localhost", "");
  ASSERT_TRUE(found.ok()) << found.status();
  for (const std::string& address : *found) {
    EXPECT_THAT(std::vector<std::string>({"127.0.0.1", "::1"}), ::testing::Contains(address));
  }
}

}  // namespace
}  // namespace nqueens::client
