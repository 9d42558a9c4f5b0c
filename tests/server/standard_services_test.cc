// The standard services next to NQueens: health checking and reflection.
// Their generated C++ is not installed, so the test speaks them through a
// generic stub (RawCall) and encodes the few fields it needs by number (from
// grpc/health/v1/health.proto and grpc/reflection/v1alpha/reflection.proto).
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

constexpr int kReflectionResponseListServices = 6;  // ListServiceResponse
constexpr int kListServiceResponseService = 1;      // repeated ServiceResponse
constexpr int kServiceResponseName = 1;             // string

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
  for (const std::string service : {"", "nqueens.v1.NQueens"}) {
    uint64_t status = 0;
    ASSERT_TRUE(CheckHealth(service, &status).ok()) << "service '" << service << "'";
    EXPECT_EQ(status, kServing) << "service '" << service << "'";
  }
}

TEST_F(StandardServicesTest, HealthOfUnknownServiceIsNotFound) {
  uint64_t status = 0;
  EXPECT_EQ(CheckHealth("no.such.Service", &status).error_code(), grpc::StatusCode::NOT_FOUND);
}

TEST_F(StandardServicesTest, ReflectionListsTheServices) {
  const RawResult result =
      RawCall(channel(), kReflectionInfo, Encode(kReflectionRequestListServices, "*"));
  ASSERT_TRUE(result.status.ok()) << result.status.error_message();
  ASSERT_EQ(result.responses.size(), 1u);
  const std::vector<std::string> lists =
      LengthDelimited(result.responses[0], kReflectionResponseListServices);
  ASSERT_EQ(lists.size(), 1u);
  std::vector<std::string> names;
  for (const std::string& service : LengthDelimited(lists[0], kListServiceResponseService)) {
    for (const std::string& name : LengthDelimited(service, kServiceResponseName)) {
      names.push_back(name);
    }
  }
  EXPECT_THAT(names, ::testing::IsSupersetOf({"nqueens.v1.NQueens", "grpc.health.v1.Health"}));
}

}  // namespace
}  // namespace nqueens::testing
