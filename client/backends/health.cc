#include "client/backends/health.h"

#include <grpcpp/impl/codegen/client_unary_call.h>

#include "absl/time/clock.h"
#include "wire/status.h"

namespace nqueens::client {
namespace {

// The health service's C++ stubs are not in Debian's packages: its two
// messages are encoded here by hand (grpc/health/v1/health.proto:
// HealthCheckRequest.service = 1, a string; HealthCheckResponse.status = 1,
// an enum).
constexpr char kCheck[] = "/grpc.health.v1.Health/Check";
constexpr const char* kStatusNames[] = {"UNKNOWN", "SERVING", "NOT_SERVING", "SERVICE_UNKNOWN"};

grpc::ByteBuffer EncodeRequest(const std::string& service) {
  std::string bytes;
  if (!service.empty()) {
    bytes += '\x0a';  // field 1, length-delimited
    for (size_t length = service.size();; length >>= 7) {
      bytes += static_cast<char>((length & 0x7f) | (length > 0x7f ? 0x80 : 0));
      if (length <= 0x7f) break;
    }
    bytes += service;
  }
  grpc::Slice slice(bytes);
  return grpc::ByteBuffer(&slice, 1);
}

// The status field of a HealthCheckResponse (0 when absent).
absl::StatusOr<uint64_t> DecodeStatus(const grpc::ByteBuffer& response) {
  std::vector<grpc::Slice> slices;
  if (!response.Dump(&slices).ok()) return absl::InternalError("unreadable health answer");
  std::string bytes;
  for (const grpc::Slice& slice : slices) {
    bytes.append(reinterpret_cast<const char*>(slice.begin()), slice.size());
  }
  if (bytes.empty()) return 0;
  uint64_t status = 0;
  for (size_t i = 1, shift = 0; bytes[0] == '\x08' && i < bytes.size() && shift < 64;
       ++i, shift += 7) {
    status |= uint64_t{static_cast<unsigned char>(bytes[i]) & 0x7fu} << shift;
    if ((bytes[i] & 0x80) == 0) return status;
  }
  return absl::InternalError("unreadable health answer");
}

}  // namespace

absl::StatusOr<std::string> CheckHealth(const std::shared_ptr<grpc::Channel>& channel,
                                        const std::string& service, absl::Duration deadline) {
  grpc::ClientContext context;
  context.set_deadline(absl::ToChronoTime(absl::Now() + deadline));
  const grpc::internal::RpcMethod method(kCheck, grpc::internal::RpcMethod::NORMAL_RPC);
  grpc::ByteBuffer response;
  const grpc::Status status = grpc::internal::BlockingUnaryCall<grpc::ByteBuffer, grpc::ByteBuffer>(
      channel.get(), method, &context, EncodeRequest(service), &response);
  if (!status.ok()) return wire::FromGrpcStatus(status);
  absl::StatusOr<uint64_t> code = DecodeStatus(response);
  if (!code.ok()) return code.status();
  return *code < std::size(kStatusNames) ? kStatusNames[*code] : "UNKNOWN";
}

}  // namespace nqueens::client
