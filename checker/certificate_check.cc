#include "checker/certificate_check.h"

#include <optional>
#include <utility>

#include "checker/binary_reader.h"
#include "checker/byte_input.h"
#include "checker/composition.h"
#include "checker/other_leaves.h"
#include "checker/text_reader.h"
#include "checker/text_writer.h"
#include "checker/tree_items.h"
#include "checker/tree_walk.h"
#include "checker/wide_board.h"
#include "checker/word_board.h"

namespace nqueens::checker {
namespace {

// The check of a set of certificates on one board representation, built
// once for all of them and both readings.
template <typename Board>
class SetCheck {
 public:
  SetCheck(const Composition& composition, const CheckOptions& options)
      : composition_(composition), board_(composition), options_(options) {}

  // The second reading checks each certificate again, and its other leaves
  // against the first reading's, so that a certificate changed between the
  // readings proves nothing.
  SetVerdict Run(size_t count, const CertificateOpener& open) {
    OtherLeaves leaves;
    if (SetVerdict collected = Read(count, open, Pass::kCollect, leaves);
        !collected.status.ok() || leaves.empty()) {
      return collected;
    }
    if (SetVerdict proving = Read(count, open, Pass::kProve, leaves); !proving.status.ok()) {
      return proving;
    }
    return leaves.FirstUnproved();
  }

 private:
  // Reads each certificate of the set for `pass`; an error names its
  // certificate.
  SetVerdict Read(size_t count, const CertificateOpener& open, Pass pass, OtherLeaves& leaves) {
    for (size_t i = 0; i < count; ++i) {
      absl::StatusOr<ByteSource> source = open(i);
      if (!source.ok()) return {source.status(), i};
      if (absl::Status status = ReadOne(*std::move(source), {pass, i, &leaves, nullptr});
          !status.ok()) {
        return {status, i};
      }
    }
    return {};
  }

  absl::Status ReadOne(ByteSource source, SetReading reading) {
    board_.Reset();
    path_.Clear();
    ByteInput input(std::move(source));
    std::optional<TextWriter> text;
    if (options_.text && reading.pass == Pass::kCollect) {
      reading.text = &text.emplace(composition_, options_.text);
    }
    uint8_t first;
    const bool binary = input.Peek(&first) && first == kBinaryMagic[0];
    if (!input.status().ok()) return input.status();
    return binary ? Walk<BinaryReader>(input, reading) : Walk<TextReader>(input, reading);
  }

  template <typename Reader>
  absl::Status Walk(ByteInput& input, const SetReading& reading) {
    Reader reader(input, composition_, path_);
    return TreeWalk<Board, Reader>(board_, reader, path_, composition_, reading).Run();
  }

  const Composition& composition_;
  Board board_;
  Path path_;
  const CheckOptions& options_;
};

}  // namespace

ByteSource SourceOf(absl::string_view bytes) {
  return [bytes, given = false]() mutable -> absl::StatusOr<absl::string_view> {
    if (given) return absl::string_view();
    given = true;
    return bytes;
  };
}

SetVerdict CheckCertificateSet(const std::vector<uint32_t>& columns, size_t count,
                               const CertificateOpener& open, const CheckOptions& options) {
  absl::StatusOr<Composition> composition = Composition::Make(columns);
  if (!composition.ok()) return {composition.status(), 0};
  if (options.wide_board || composition->d() > WordBoard::kMaxFreeRows) {
    return SetCheck<WideBoard>(*composition, options).Run(count, open);
  }
  return SetCheck<WordBoard>(*composition, options).Run(count, open);
}

SetVerdict CheckCertificateSet(const std::vector<uint32_t>& columns, size_t count,
                               const CertificateReader& read) {
  return CheckCertificateSet(columns, count, [&read](size_t i) -> absl::StatusOr<ByteSource> {
    absl::StatusOr<absl::string_view> bytes = read(i);
    if (!bytes.ok()) return bytes.status();
    return SourceOf(*bytes);
  });
}

absl::Status CheckCertificate(const std::vector<uint32_t>& columns, absl::string_view certificate) {
  return CheckCertificateSet(columns, 1, [certificate](size_t) { return certificate; }).status;
}

}  // namespace nqueens::checker
