// The least a client process costs on this machine: a program linked like the
// `nqueens` CLI that starts, makes a channel, sends one unary Solve and exits,
// with no flags, files, checks or output beyond one line. nqueens-scale
// --mode=floor spawns it to show how much of the CLI's time at small n is
// process start and gRPC rather than the CLI's own work.
//
//   nqueens-client-floor ADDRESS N
//
// Prints "MAIN_NS CHANNEL_NS CALL_NS COLUMNS": the CLOCK_MONOTONIC times (the
// system's clock, so that the parent can set them against the spawn) at which
// main() began, the channel was made (gRPC started) and the call returned,
// and how many columns the answer holds. Exits like the CLI, without tearing
// gRPC down.
#include <grpcpp/grpcpp.h>
#include <time.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "nqueens/v1/nqueens.grpc.pb.h"

namespace {

uint64_t MonotonicNanoseconds() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<uint64_t>(now.tv_sec) * 1'000'000'000 + static_cast<uint64_t>(now.tv_nsec);
}

}  // namespace

int main(int argc, char** argv) {
  const uint64_t main_ns = MonotonicNanoseconds();
  if (argc != 3) {
    std::fputs("usage: nqueens-client-floor ADDRESS N\n", stderr);
    return 2;
  }
  const std::shared_ptr<grpc::Channel> channel =
      grpc::CreateChannel(argv[1], grpc::InsecureChannelCredentials());
  const std::unique_ptr<nqueens::v1::NQueensService::Stub> stub =
      nqueens::v1::NQueensService::NewStub(channel);
  const uint64_t channel_ns = MonotonicNanoseconds();

  nqueens::v1::SolveRequest request;
  request.set_n(std::strtoull(argv[2], nullptr, 10));
  nqueens::v1::SolveResponse response;
  grpc::ClientContext context;
  const grpc::Status status = stub->Solve(&context, request, &response);
  const uint64_t call_ns = MonotonicNanoseconds();
  if (!status.ok()) {
    std::fprintf(stderr, "nqueens-client-floor: %s\n", status.error_message().c_str());
    std::_Exit(3);
  }
  std::printf("%llu %llu %llu %d\n", static_cast<unsigned long long>(main_ns),
              static_cast<unsigned long long>(channel_ns), static_cast<unsigned long long>(call_ns),
              response.columns_size());
  std::fflush(stdout);
  std::_Exit(0);
}
