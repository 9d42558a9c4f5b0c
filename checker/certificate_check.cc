#include "checker/certificate_check.h"

#include <optional>
#include <thread>
#include <utility>
#include <vector>

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
    const bool shared = options_.threads > 1 && pass == Pass::kCollect && !options_.text;
    for (size_t i = 0; i < count; ++i) {
      const SetReading reading = {pass, i, &leaves, nullptr, nullptr};
      const absl::Status status =
          shared ? ReadShared(open, reading) : ReadOne(board_, path_, open, reading).status;
      if (!status.ok()) return {status, i};
    }
    return {};
  }

  struct Reading {
    absl::Status status;
    uint64_t position = 0;  // of the error
  };

  // A certificate read by as many walks as threads at once, each on a board
  // of its own, which share its framed subtrees out: the error that comes
  // first in the stream is the verdict.
  absl::Status ReadShared(const CertificateOpener& open, SetReading reading) {
    FramedShare share;
    reading.share = &share;
    std::vector<Reading> readings(static_cast<size_t>(options_.threads));
    std::vector<std::thread> helpers;
    for (size_t k = 1; k < readings.size(); ++k) {
      helpers.emplace_back([&, k] {
        // Other leaves are outside framed subtrees: the first walk collects
        // them, and these read past them.
        OtherLeaves ignored;
        SetReading own = reading;
        own.leaves = &ignored;
        Board board(composition_);
        Path path;
        readings[k] = ReadOne(board, path, open, own);
      });
    }
    readings[0] = ReadOne(board_, path_, open, reading);
    for (std::thread& helper : helpers) helper.join();
    const Reading* first = nullptr;
    bool cancelled = false;
    for (const Reading& r : readings) {
      cancelled = cancelled || absl::IsCancelled(r.status);
      if (r.status.ok() || absl::IsCancelled(r.status)) continue;
      if (first == nullptr || r.position < first->position) first = &r;
    }
    if (first != nullptr) return first->status;
    // A walk stops for an error that another names; never for nothing.
    return cancelled ? absl::InternalError("a walk stopped without an error") : absl::OkStatus();
  }

  Reading ReadOne(Board& board, Path& path, const CertificateOpener& open, SetReading reading) {
    absl::StatusOr<ByteSource> source = open(reading.index);
    if (!source.ok()) return {source.status()};
    board.Reset();
    path.Clear();
    ByteInput input(*std::move(source));
    std::optional<TextWriter> text;
    if (options_.text && reading.pass == Pass::kCollect) {
      reading.text = &text.emplace(composition_, options_.text);
    }
    uint8_t first;
    const bool binary = input.Peek(&first) && first == kBinaryMagic[0];
    if (!input.status().ok()) return {input.status()};
    Reading result = binary ? Walk<BinaryReader>(board, path, input, reading)
                            : Walk<TextReader>(board, path, input, reading);
    if (reading.share != nullptr && !result.status.ok()) {
      uint64_t known = reading.share->first_error.load();
      while (result.position < known &&
             !reading.share->first_error.compare_exchange_weak(known, result.position)) {
      }
    }
    return result;
  }

  template <typename Reader>
  Reading Walk(Board& board, Path& path, ByteInput& input, const SetReading& reading) {
    Reader reader(input, composition_, path);
    TreeWalk<Board, Reader> walk(board, reader, path, composition_, reading);
    absl::Status status = walk.Run();
    return {std::move(status), walk.position()};
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
