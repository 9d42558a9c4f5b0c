// The standard services next to NQueens: health checking and reflection.
// The test speaks them through a generic stub (RawCall) and encodes the few
// fields it needs by number (from grpc/health/v1/health.proto and
// grpc/reflection/v1/reflection.proto, whose numbers v1alpha shares).
#include <google/protobuf/unknown_field_set.h>
#include <grpcpp/grpcpp.h>

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "test_server.h"

namespace nqueens::testing {
namespace {

using google::protobuf::UnknownField;
using google::protobuf::UnknownFieldSet;

constexpr int kHealthCheckResponseStatus = 1;  // enum ServingStatus
constexpr uint64_t kServing = 1;

constexpr int kReflectionResponseFileDescriptors = 4;  // FileDescriptorResponse
constexpr int kReflectionResponseListServices = 6;     // ListServiceResponse
constexpr int kReflectionResponseError = 7;            // ErrorResponse
constexpr int kListServiceResponseService = 1;         // repeated ServiceResponse
constexpr int kServiceResponseName = 1;                // string

// The values of the fields numbered `number` in the message `bytes`. (Copies:
// an UnknownField points into the set that parsed it.)
std::vector<uint64_t> Varints(const std::string& bytes, int number) {
  UnknownFieldSet fields;
  EXPECT_TRUE(fields.ParseFromString(bytes));
  std::vector<uint64_t> found;
  for (int i = 0; i < fields.field_count(); ++i) {
    const UnknownField& field = fields.field(i);
    if (field.number() == number && field.type() == UnknownField::TYPE_VARINT) {
      found.push_back(field.varint());
    }
  }
  return found;
}

std::vector<std::string> LengthDelimited(const std::string& bytes, int number) {
  UnknownFieldSet fields;
  EXPECT_TRUE(fields.ParseFromString(bytes));
  std::vector<std::string> found;
  for (int i = 0; i < fields.field_count(); ++i) {
    const UnknownField& field = fields.field(i);
    if (field.number() == number && field.type() == UnknownField::TYPE_LENGTH_DELIMITED) {
      found.push_back(field.length_delimited());
    }
  }
  return found;
}

class StandardServicesTest : public ServerTest {
 protected:
  // The health status of `service`, or the call's error.
  grpc::Status CheckHealth(const std::string& service, uint64_t* status) {
    RawResult result =
        RawCall(channel(), kHealthCheck, Encode(kHealthCheckRequestService, service));
    if (!result.status.ok()) return result.status;
    EXPECT_EQ(result.responses.size(), 1u);
    const std::vector<uint64_t> statuses =
        Varints(result.responses.at(0), kHealthCheckResponseStatus);
    EXPECT_EQ(statuses.size(), 1u);
    *status = statuses.at(0);
    return result.status;
  }
};

TEST_F(StandardServicesTest, HealthIsServing) {
  for (const std::string service : {"", "nqueens.v1.NQueensService"}) {
    uint64_t status = 0;
    ASSERT_TRUE(CheckHealth(service, &status).ok()) << "service '" << service << "'";
    EXPECT_EQ(status, kServing) << "service '" << service << "'";
  }
}

TEST_F(StandardServicesTest, HealthOfUnknownServiceIsNotFound) {
  uint64_t status = 0;
  EXPECT_EQ(CheckHealth("no.such.Service", &status).error_code(), grpc::StatusCode::NOT_FOUND);
}

// Both versions of reflection: grpcurl and current clients ask for v1 first.
class ReflectionTest : public StandardServicesTest,
                       public ::testing::WithParamInterface<const char*> {
 protected:
  std::vector<std::string> ListServices() {
    const RawResult result =
        RawCall(channel(), GetParam(), Encode(kReflectionRequestListServices, "*"));
    EXPECT_TRUE(result.status.ok()) << result.status.error_message();
    EXPECT_EQ(result.responses.size(), 1u);
    std::vector<std::string> names;
    if (result.responses.empty()) return names;
    const std::vector<std::string> lists =
        LengthDelimited(result.responses[0], kReflectionResponseListServices);
    EXPECT_EQ(lists.size(), 1u);
    for (const std::string& list : lists) {
      for (const std::string& service : LengthDelimited(list, kListServiceResponseService)) {
        for (const std::string& name : LengthDelimited(service, kServiceResponseName)) {
          names.push_back(name);
        }
      }
    }
    return names;
  }
};

TEST_P(ReflectionTest, ListsTheServices) {
  EXPECT_THAT(ListServices(),
              ::testing::IsSupersetOf({"nqueens.v1.NQueensService", "grpc.health.v1.Health",
                                       "grpc.reflection.v1.ServerReflection",
                                       "grpc.reflection.v1alpha.ServerReflection"}));
}

TEST_P(ReflectionTest, DescribesEveryServiceItLists) {
  const std::vector<std::string> services = ListServices();
  ASSERT_FALSE(services.empty());
  for (const std::string& service : services) {
    SCOPED_TRACE(service);
    const RawResult result =
        RawCall(channel(), GetParam(), Encode(kReflectionRequestFileContainingSymbol, service));
    ASSERT_TRUE(result.status.ok()) << result.status.error_message();
    ASSERT_EQ(result.responses.size(), 1u);
    EXPECT_THAT(LengthDelimited(result.responses[0], kReflectionResponseError),
                ::testing::IsEmpty());
    EXPECT_THAT(LengthDelimited(result.responses[0], kReflectionResponseFileDescriptors),
                ::testing::SizeIs(1));
  }
}

TEST_P(ReflectionTest, AnUnknownSymbolIsAnError) {
  const RawResult result = RawCall(
      channel(), GetParam(), Encode(kReflectionRequestFileContainingSymbol, "no.such.Symbol"));
  ASSERT_TRUE(result.status.ok()) << result.status.error_message();
  ASSERT_EQ(result.responses.size(), 1u);
  EXPECT_THAT(LengthDelimited(result.responses[0], kReflectionResponseError), ::testing::SizeIs(1));
}

INSTANTIATE_TEST_SUITE_P(Versions, ReflectionTest,
                         ::testing::Values(kReflectionV1Info, kReflectionInfo),
                         [](const ::testing::TestParamInfo<const char*>& version) {
                           return version.param == std::string(kReflectionV1Info) ? "V1"
                                                                                  : "V1alpha";
                         });

}  // namespace
}  // namespace nqueens::testing
