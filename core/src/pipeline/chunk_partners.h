// Which column chunk each row chunk meets in a chunked pass of block 1
// (random_pairing.cc), and in what order the row chunks go.
//
// A chunk pair's queens lie on a band of diagonals set by the two chunks'
// places (row chunk i with column chunk j: band i - j of the diagonals, band
// i + j of the anti-diagonals). A uniformly random pairing of the chunks
// piles several chunk pairs onto some bands and none onto others (how many
// share a band is about Poisson), and the pairs of a crowded band collide:
// a pass places fewer queens than the paper's uniform pairing of the rows
// themselves, and block 1 tries more pairs. So each row chunk draws its
// partner among the column chunks left, again while the pair's bands
// already hold an earlier pair, up to kPartnerDraws times: the paper's
// rand&rand, one level up. Every column chunk can still meet every row
// chunk; inside a chunk pair the pairing stays uniformly random
// (docs/constants.md, kPartnerDraws).
#ifndef NQUEENS_PIPELINE_CHUNK_PARTNERS_H_
#define NQUEENS_PIPELINE_CHUNK_PARTNERS_H_

#include <cstddef>
#include <cstdint>

#include "base/bit_array.h"
#include "base/huge_pages.h"
#include "base/rng.h"
#include "base/stop_poller.h"

namespace nqueens::internal {

class ChunkPartners {
 public:
  // Draws before a row chunk takes a partner whose bands are taken.
  static constexpr int kPartnerDraws = 64;

  // Pair j of the next pass is row chunk row_chunks[j] with column chunk
  // column_chunks[j], for `chunks` chunks of each: the row chunks in a
  // uniformly random order, their partners drawn as above. False once
  // `stop` fires, leaving both unusable.
  bool Draw(size_t chunks, Rng& rng, StopPoller& stop, HugeVector<uint32_t>& row_chunks,
            HugeVector<uint32_t>& column_chunks);

 private:
  // Takes a column chunk for row chunk `row` from left_.
  uint32_t TakePartner(uint32_t row, size_t chunks, Rng& rng);

  HugeVector<uint32_t> left_;  // the column chunks not taken yet
  BitArray bands_;             // index: row - column + chunks - 1; a pair holds it
  BitArray anti_bands_;        // index: row + column
};

}  // namespace nqueens::internal

#endif  // NQUEENS_PIPELINE_CHUNK_PARTNERS_H_
