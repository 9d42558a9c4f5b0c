// Byte counts as people write them: "4G", "512M", "1048576".
#ifndef NQUEENS_SERVER_BASE_BYTE_SIZE_H_
#define NQUEENS_SERVER_BASE_BYTE_SIZE_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/strings/string_view.h"

namespace nqueens::server {

// A number with an optional suffix K, M, G or T (powers of 1024; the
// Kubernetes spellings Ki, Mi, Gi, Ti and a trailing B are accepted too),
// case-insensitive; a fraction such as 1.5G is rounded down to whole bytes,
// and needs a suffix. nullopt for anything else or a value above 2^64 - 1.
std::optional<uint64_t> ParseByteSize(absl::string_view text);

// The shortest exact form ParseByteSize() reads back: "4G", "1536M", "1000".
std::string ByteSizeFlagText(uint64_t bytes);

// For messages: "1.5 GiB", "512.0 MiB", "900 B".
std::string HumanBytes(uint64_t bytes);

}  // namespace nqueens::server

#endif  // NQUEENS_SERVER_BASE_BYTE_SIZE_H_
