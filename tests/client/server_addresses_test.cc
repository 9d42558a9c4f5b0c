#include "client/parts/server_addresses.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "test_dns_server.h"

namespace nqueens::client {
namespace {

using ::testing::HasSubstr;

std::vector<std::string> Targets(const std::vector<ServerAddress>& servers) {
  std::vector<std::string> targets;
  targets.reserve(servers.size());
  for (const ServerAddress& server : servers) targets.push_back(server.target);
  return targets;
}

TEST(ResolveServersTest, ListsEachAddressOfAnIpv4OrIpv6ListOnce) {
  absl::StatusOr<std::vector<ServerAddress>> servers =
      ResolveServers("ipv4:10.0.0.1:50051,10.0.0.2:50052,10.0.0.1:50051");
  ASSERT_TRUE(servers.ok()) << servers.status();
  EXPECT_EQ(Targets(*servers),
            std::vector<std::string>({"ipv4:10.0.0.1:50051", "ipv4:10.0.0.2:50052"}));
  EXPECT_EQ((*servers)[1].name, "10.0.0.2:50052");
  EXPECT_EQ((*servers)[1].host_name, "");  // no TLS name beyond the address

  servers = ResolveServers("ipv6:[::1]:50051,[fe80::2]:7");
  ASSERT_TRUE(servers.ok()) << servers.status();
  EXPECT_EQ(Targets(*servers), std::vector<std::string>({"ipv6:[::1]:50051", "ipv6:[fe80::2]:7"}));
  EXPECT_EQ((*servers)[0].name, "[::1]:50051");
}

TEST(ResolveServersTest, TakesAnAddressAsIs) {
  for (const auto& [target, expected] :
       {std::pair{"127.0.0.1:50051", "ipv4:127.0.0.1:50051"},
        std::pair{"[::1]:50051", "ipv6:[::1]:50051"}, std::pair{"unix:/tmp/s", "unix:/tmp/s"}}) {
    absl::StatusOr<std::vector<ServerAddress>> servers = ResolveServers(target);
    ASSERT_TRUE(servers.ok()) << servers.status();
    EXPECT_EQ(Targets(*servers), std::vector<std::string>({expected}));
  }
}

TEST(ResolveServersTest, ResolvesANameToEveryAddressKeepingTheNameForTls) {
  for (const std::string target :
       {"dns:///localhost:50051", "dns:localhost:50051", "localhost:50051"}) {
    SCOPED_TRACE(target);
    absl::StatusOr<std::vector<ServerAddress>> servers = ResolveServers(target);
    ASSERT_TRUE(servers.ok()) << servers.status();
    ASSERT_FALSE(servers->empty());
    for (const ServerAddress& server : *servers) {
      EXPECT_THAT(std::vector<std::string>({"ipv4:127.0.0.1:50051", "ipv6:[::1]:50051"}),
                  ::testing::Contains(server.target));
      EXPECT_EQ(server.host_name, "localhost");
      EXPECT_EQ(server.authority, "localhost:50051");
    }
  }
  absl::StatusOr<std::vector<ServerAddress>> servers = ResolveServers("dns:///localhost");
  ASSERT_TRUE(servers.ok()) << servers.status();
  EXPECT_EQ((*servers)[0].authority, "localhost:443");  // gRPC's default port for dns:
}

TEST(ResolveServersTest, AsksTheDnsServerThatTheAuthorityNames) {
  testing::TestDnsServer dns("fleet.nqueens.test", {"127.0.0.2", "127.0.0.3"});
  ASSERT_FALSE(dns.address().empty());
  absl::StatusOr<std::vector<ServerAddress>> servers =
      ResolveServers(absl::StrCat("dns://", dns.address(), "/fleet.nqueens.test:50051"));
  ASSERT_TRUE(servers.ok()) << servers.status();
  EXPECT_EQ(Targets(*servers),
            std::vector<std::string>({"ipv4:127.0.0.2:50051", "ipv4:127.0.0.3:50051"}));
  for (const ServerAddress& server : *servers) {
    EXPECT_EQ(server.host_name, "fleet.nqueens.test");
    EXPECT_EQ(server.authority, "fleet.nqueens.test:50051");
  }

  servers = ResolveServers(absl::StrCat("dns://", dns.address(), "/other.nqueens.test:50051"));
  EXPECT_EQ(servers.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_THAT(
      servers.status().message(),
      HasSubstr(absl::StrCat("cannot resolve other.nqueens.test at DNS server ", dns.address())));
  servers = ResolveServers("dns://dns.example/fleet.nqueens.test:50051");
  EXPECT_EQ(servers.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(servers.status().message(),
              HasSubstr("--server dns://dns.example/fleet.nqueens.test:50051: the DNS server "
                        "\"dns.example\""));
}

TEST(ResolveServersTest, TellsTargetsThatNameServersByAHostName) {
  for (const std::string target :
       {"dns:///fleet:50051", "dns://127.0.0.1:53/fleet:50051", "dns:fleet", "fleet:50051"}) {
    EXPECT_TRUE(NamesServersByName(target)) << target;
  }
  for (const std::string target :
       {"ipv4:10.0.0.1:50051", "ipv6:[::1]:50051", "10.0.0.1:50051", "[::1]:50051",
        "dns:///10.0.0.1:50051", "unix:/tmp/s", "xds:///fleet", "dns:///"}) {
    EXPECT_FALSE(NamesServersByName(target)) << target;
  }
}

TEST(ResolveServersTest, RefusesAMalformedListNamingTheItem) {
  for (const std::string target :
       {"ipv4:10.0.0.1:50051,nohost:1", "ipv4:10.0.0.1", "ipv6:[::1:50051", "ipv6:10.0.0.1:5"}) {
    SCOPED_TRACE(target);
    absl::StatusOr<std::vector<ServerAddress>> servers = ResolveServers(target);
    EXPECT_EQ(servers.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(servers.status().message(), HasSubstr("--server"));
  }
}

}  // namespace
}  // namespace nqueens::client
