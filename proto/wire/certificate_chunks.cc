#include "wire/certificate_chunks.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "wire/chunks.h"

namespace nqueens::wire {

uint64_t CertificateChunkBytes(uint32_t chunk_size) {
  return uint64_t{3} * EffectiveChunkSize(chunk_size);
}

absl::Status CertificateAssembler::Add(const v1::CertificateChunk& chunk) {
  if (chunk.offset() != received()) {
    return absl::InvalidArgumentError(absl::StrCat("a certificate chunk at byte ", chunk.offset(),
                                                   ", expected byte ", received()));
  }
  if (chunk.data().size() > size_ - received()) {
    return absl::InvalidArgumentError(
        absl::StrCat("certificate chunks past its size of ", size_, " bytes"));
  }
  bytes_.append(chunk.data());
  return absl::OkStatus();
}

absl::StatusOr<std::string> CertificateAssembler::Finish() && {
  if (received() != size_) {
    return absl::InvalidArgumentError(
        absl::StrCat("the certificate's chunks end at byte ", received(), " of ", size_));
  }
  return std::move(bytes_);
}

}  // namespace nqueens::wire
