// ChunkPartners (chunk_partners.h) on its own: the chunk pairs of a pass are
// a pairing of the row chunks with the column chunks, spread over the bands
// of diagonals far more evenly than a uniformly random pairing, and still
// let any row chunk meet any column chunk.
#include "pipeline/chunk_partners.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "counting_stop.h"
#include "gtest/gtest.h"

namespace nqueens::internal {
namespace {

struct Pairs {
  std::vector<uint32_t> rows, columns;  // pair j: rows[j] x columns[j]
};

Pairs Draw(size_t chunks, uint64_t seed) {
  ChunkPartners partners;
  Rng rng(seed);
  const StopCondition never;
  StopPoller stop(never);
  HugeVector<uint32_t> rows, columns;
  EXPECT_TRUE(partners.Draw(chunks, rng, stop, rows, columns));
  return {{rows.begin(), rows.end()}, {columns.begin(), columns.end()}};
}

// Pairs whose band of diagonals or of anti-diagonals an earlier pair holds.
size_t Crowded(const Pairs& pairs) {
  const size_t chunks = pairs.rows.size();
  std::vector<bool> bands(2 * chunks), anti_bands(2 * chunks);
  size_t crowded = 0;
  for (size_t j = 0; j < chunks; ++j) {
    const size_t band = pairs.rows[j] + chunks - 1 - pairs.columns[j];
    const size_t anti_band = pairs.rows[j] + pairs.columns[j];
    if (bands[band] || anti_bands[anti_band]) ++crowded;
    bands[band] = anti_bands[anti_band] = true;
  }
  return crowded;
}

std::vector<uint32_t> Sorted(std::vector<uint32_t> values) {
  std::sort(values.begin(), values.end());
  return values;
}

TEST(ChunkPartnersTest, PairsEveryRowChunkWithOneColumnChunk) {
  for (size_t chunks : {1u, 2u, 7u, 1000u}) {
    const Pairs pairs = Draw(chunks, chunks);
    std::vector<uint32_t> all(chunks);
    std::iota(all.begin(), all.end(), 0);
    EXPECT_EQ(Sorted(pairs.rows), all) << chunks << " chunks";
    EXPECT_EQ(Sorted(pairs.columns), all) << chunks << " chunks";
  }
}

TEST(ChunkPartnersTest, SpreadsThePairsOverTheBands) {
  constexpr size_t kChunks = 1000;
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    // A uniformly random pairing, for comparison: over 40% of its pairs
    // land on a band an earlier pair holds.
    Pairs uniform = Draw(kChunks, seed);
    Rng rng(seed);
    rng.Shuffle(uniform.columns.begin(), uniform.columns.end());
    const size_t uniform_crowded = Crowded(uniform);
    EXPECT_GT(uniform_crowded, kChunks / 4) << "seed " << seed;
    EXPECT_LT(Crowded(Draw(kChunks, seed)), uniform_crowded / 5) << "seed " << seed;
  }
}

TEST(ChunkPartnersTest, AnyRowChunkCanMeetAnyColumnChunk) {
  constexpr size_t kChunks = 8;
  constexpr int kDraws = 800;
  for (uint32_t row : {0u, 3u, 7u}) {
    std::vector<int> partners(kChunks);
    for (int seed = 0; seed < kDraws; ++seed) {
      const Pairs pairs = Draw(kChunks, seed);
      const size_t j = std::find(pairs.rows.begin(), pairs.rows.end(), row) - pairs.rows.begin();
      ++partners[pairs.columns[j]];
    }
    for (size_t column = 0; column < kChunks; ++column) {
      EXPECT_GE(partners[column], kDraws / kChunks / 2)
          << "row chunk " << row << ", column chunk " << column;
    }
  }
}

TEST(ChunkPartnersTest, Stops) {
  test_stop::CountingStop stop_at_first_poll(1);
  StopPoller stop(stop_at_first_poll.condition());
  ChunkPartners partners;
  Rng rng(1);
  HugeVector<uint32_t> rows, columns;
  EXPECT_FALSE(partners.Draw(1000, rng, stop, rows, columns));
}

}  // namespace
}  // namespace nqueens::internal
