// Moving an UNSOLVABLE answer's certificate through CompleteStream: cut into
// CertificateChunks after the ResultHeader when it is longer than one chunk,
// and put back together with the API's rules (chunks in order, without gaps,
// up to the header's certificate_size).
#ifndef NQUEENS_WIRE_CERTIFICATE_CHUNKS_H_
#define NQUEENS_WIRE_CERTIFICATE_CHUNKS_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "nqueens/v1/nqueens.pb.h"

namespace nqueens::wire {

// The bytes of each CertificateChunk but the last in a stream of
// `chunk_size` (0: the default): about what a BoardChunk of that many
// columns takes, 3 a column, and a multiple of 3, so that the chunks'
// base64 (JSON's bytes) joins without padding.
uint64_t CertificateChunkBytes(uint32_t chunk_size);

// Rebuilds a certificate of `size` bytes from its chunks.
class CertificateAssembler {
 public:
  explicit CertificateAssembler(uint64_t size) : size_(size) {}
  // INVALID_ARGUMENT when the chunk does not start where the previous one
  // ended (naming both offsets) or runs past the certificate's size.
  absl::Status Add(const v1::CertificateChunk& chunk);
  uint64_t received() const { return bytes_.size(); }
  // INVALID_ARGUMENT unless the chunks brought all `size` bytes.
  absl::StatusOr<std::string> Finish() &&;

 private:
  const uint64_t size_;
  std::string bytes_;
};

}  // namespace nqueens::wire

#endif  // NQUEENS_WIRE_CERTIFICATE_CHUNKS_H_
