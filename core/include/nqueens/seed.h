// Seeds for runs that asked for none.
#ifndef NQUEENS_SEED_H_
#define NQUEENS_SEED_H_

#include <cstdint>

namespace nqueens {

// A seed no other call of any process is likely to get; report it with the
// answer so that the run can be repeated. Thread-safe. The operating system
// is asked once per process, since std::random_device can be slow (on some
// virtual machines it probes the CPU) and a batch of small items would pay
// for it per item.
uint64_t FreshSeed();

}  // namespace nqueens

#endif  // NQUEENS_SEED_H_
