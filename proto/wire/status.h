// absl::Status <-> grpc::Status: the codes map one to one.
#ifndef NQUEENS_WIRE_STATUS_H_
#define NQUEENS_WIRE_STATUS_H_

#include <grpcpp/support/status.h>

#include "absl/status/status.h"

namespace nqueens::wire {

grpc::Status ToGrpcStatus(const absl::Status& status);
absl::Status FromGrpcStatus(const grpc::Status& status);

}  // namespace nqueens::wire

#endif  // NQUEENS_WIRE_STATUS_H_
