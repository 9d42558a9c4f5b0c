#include "pipeline/chunk_partners.h"

namespace nqueens::internal {

bool ChunkPartners::Draw(size_t chunks, Rng& rng, StopPoller& stop,
                         HugeVector<uint32_t>& row_chunks, HugeVector<uint32_t>& column_chunks) {
  row_chunks.clear();
  left_.clear();
  const bool listed = RunInStretches(0, chunks, stop, [&](size_t first, size_t last) {
    for (size_t i = first; i < last; ++i) {
      row_chunks.push_back(static_cast<uint32_t>(i));
      left_.push_back(static_cast<uint32_t>(i));
    }
  });
  if (!listed ||
      !rng.Shuffle(row_chunks.begin(), row_chunks.end(), [&stop] { return stop.CheckNow(); }) ||
      !bands_.Reset(2 * chunks, stop) || !anti_bands_.Reset(2 * chunks, stop)) {
    return false;
  }
  column_chunks.clear();
  column_chunks.reserve(chunks);
  for (const uint32_t row : row_chunks) {
    if (stop.ShouldStop(kPartnerDraws)) return false;
    column_chunks.push_back(TakePartner(row, chunks, rng));
  }
  return true;
}

uint32_t ChunkPartners::TakePartner(uint32_t row, size_t chunks, Rng& rng) {
  size_t place = 0;
  for (int draw = 0; draw < kPartnerDraws; ++draw) {
    place = rng.Below(static_cast<uint32_t>(left_.size()));
    const uint32_t column = left_[place];
    if (!bands_.Test(row + chunks - 1 - column) && !anti_bands_.Test(row + column)) break;
  }
  // The last draw stands when every one met a taken band.
  const uint32_t column = left_[place];
  left_[place] = left_.back();
  left_.pop_back();
  bands_.Set(row + chunks - 1 - column);
  anti_bands_.Set(row + column);
  return column;
}

}  // namespace nqueens::internal
