// --parts K: a Backend that cuts count, enumerate and complete --method
// exact into K parts (nqueens/parts.h), spreads them over servers
// (parts_job.h) and combines their answers into the one a single call gives,
// so that the commands print exactly what they print for one call:
//   count       the parts' numbers add up (solutions, fundamental, nodes);
//               the time is the job's wall time;
//   enumerate   part 0's boards, then part 1's, ...; --limit boards at most;
//   complete    SOLVED as soon as a part is (the others are cancelled),
//               UNSOLVABLE when every part is, else UNDECIDED; with a
//               certificate path, part I's certificate goes to
//               PartCertificatePath(path, I, K), and the checker takes them
//               all together.
// Solve, Validate and CompleteBatch are not cut: they answer UNIMPLEMENTED.
#ifndef NQUEENS_CLIENT_PARTS_PARTS_BACKEND_H_
#define NQUEENS_CLIENT_PARTS_PARTS_BACKEND_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "client/backends/backend.h"
#include "client/parts/parts_job.h"

namespace nqueens::client {

struct PartsBackendOptions {
  uint64_t part_count = 1;
  size_t window = 2;  // parts in flight per server
  // count and complete: the job file (job_file.h) that records finished
  // parts and lets a rerun skip them; empty: none.
  std::string job_file;
  // complete: where the parts' certificates go (see above); empty: nowhere.
  std::string certificate_path;
  // The servers looked up again while a job runs (parts_job.h); by default
  // they are fixed.
  ServerLookUp look_up;
  // Told, in one line, of a server that joins the job or gets no more parts;
  // may be empty.
  std::function<void(absl::string_view)> warn;
  // Every event of the job (tests watch it); may be empty.
  std::function<void(const PartEvent&)> on_event;
};

// PATH.partI-of-K, e.g. proof.cert.part3-of-64.
std::string PartCertificatePath(const std::string& path, uint64_t part, uint64_t part_count);

std::unique_ptr<Backend> MakePartsBackend(std::vector<JobServer> servers,
                                          PartsBackendOptions options);

}  // namespace nqueens::client

#endif  // NQUEENS_CLIENT_PARTS_PARTS_BACKEND_H_
