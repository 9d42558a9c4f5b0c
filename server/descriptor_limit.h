// Open file descriptors: the limit the server runs under, and a bound on the
// connections it accepts, so that running out of descriptors never stops it
// accepting.
//
// Why a bound of our own: gRPC 1.51 stops listening for good when accept4()
// fails with EMFILE ("Failed accept4: Too many open files"): the port stays
// bound, and every later client waits in the backlog until it gives up. Its
// channel argument that caps incoming connections
// (grpc.max_allowed_incoming_connections) came in a later release. So the
// nqueens-server binary replaces accept4() (descriptor_limit.cc): a
// connection whose descriptor would be at or above the cap is closed at once
// (the client sees the connection close, and retries), and EMFILE or ENFILE
// is turned into closing the waiting connection, with a descriptor kept
// spare for that; gRPC never sees either error. Descriptors are numbered
// lowest first, so a descriptor at or above the cap means at least that many
// are open.
#ifndef NQUEENS_SERVER_DESCRIPTOR_LIMIT_H_
#define NQUEENS_SERVER_DESCRIPTOR_LIMIT_H_

#include <cstdint>

namespace nqueens::server {

// The highest soft limit RaiseDescriptorLimit() sets: some hosts have hard
// limits near 2^30, and nothing here needs more than a million descriptors.
inline constexpr uint64_t kMaxDescriptorLimit = uint64_t{1} << 20;

// Descriptors left for what is not a gRPC connection: the listening sockets,
// gRPC's and the metrics endpoint's threads and connections, the TLS and
// token files read again, /proc read at each scrape.
inline constexpr uint64_t kReservedDescriptors = 128;

struct DescriptorLimit {
  uint64_t soft = 0;  // RLIMIT_NOFILE now in force; 0 when it cannot be read
  uint64_t hard = 0;
  bool raised = false;  // the soft limit was below the hard limit and was raised
};

// Raises the soft RLIMIT_NOFILE to the hard limit (at most
// kMaxDescriptorLimit): the default soft limit of 1,024 is far below what a
// server holding one descriptor per client connection needs.
DescriptorLimit RaiseDescriptorLimit();

// The most gRPC connections the server keeps under `soft_limit`: all but
// kReservedDescriptors, or half of a very low limit.
uint64_t ConnectionCap(uint64_t soft_limit);

// From now on, accept4() closes at once every connection whose descriptor
// is `cap` or above, and logs (at most every 10 s) how many it closed. Only
// in the nqueens-server binary, which links descriptor_limit.cc; call before
// the server starts.
void CapAcceptedConnections(uint64_t cap);

}  // namespace nqueens::server

#endif  // NQUEENS_SERVER_DESCRIPTOR_LIMIT_H_
