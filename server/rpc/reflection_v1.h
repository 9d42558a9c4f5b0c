// gRPC server reflection, version v1 (grpc.reflection.v1.ServerReflection),
// beside the v1alpha service that gRPC's plugin serves: current clients
// (grpcurl, grpc-js's reflection client) ask for v1 first. It answers from
// the process's generated descriptor pool, which holds nqueens.v1, the
// reflection protocols and grpc.health.v1 (compiled in for this): every
// service it lists can be described.
#ifndef NQUEENS_SERVER_RPC_REFLECTION_V1_H_
#define NQUEENS_SERVER_RPC_REFLECTION_V1_H_

#include <string>
#include <vector>

#include "grpc/reflection/v1/reflection.grpc.pb.h"

namespace nqueens::server {

class ReflectionV1 final : public grpc::reflection::v1::ServerReflection::Service {
 public:
  // `services`: the full names that list_services answers.
  explicit ReflectionV1(std::vector<std::string> services);

  grpc::Status ServerReflectionInfo(
      grpc::ServerContext* context,
      grpc::ServerReaderWriter<grpc::reflection::v1::ServerReflectionResponse,
                               grpc::reflection::v1::ServerReflectionRequest>* stream) override;

 private:
  const std::vector<std::string> services_;
};

}  // namespace nqueens::server

#endif  // NQUEENS_SERVER_RPC_REFLECTION_V1_H_
