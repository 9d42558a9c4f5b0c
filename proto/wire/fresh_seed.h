// Seeds for calls that asked for none.
#ifndef NQUEENS_WIRE_FRESH_SEED_H_
#define NQUEENS_WIRE_FRESH_SEED_H_

#include <cstdint>

namespace nqueens::wire {

// A seed no other call of any process is likely to get; answers report it
// so that a run can be repeated. The operating system is asked once per
// process: std::random_device costs about 12 us a call on a virtual machine
// (it probes the CPU), which a batch of small items pays per item.
uint64_t FreshSeed();

}  // namespace nqueens::wire

#endif  // NQUEENS_WIRE_FRESH_SEED_H_
