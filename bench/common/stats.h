// Summaries of a benchmark's repeated measurements, defined once so that a
// "median" or a "p99" means the same in every report.
#ifndef NQUEENS_BENCH_COMMON_STATS_H_
#define NQUEENS_BENCH_COMMON_STATS_H_

#include <vector>

namespace nqueens::bench {

// The middle value of an odd count, the mean of the two middle values of an
// even one; NaN for no values, so that a report shows that nothing was
// measured rather than a 0 that looks like a measurement.
double Median(std::vector<double> values);

// The nearest-rank percentile: the smallest value that at least `fraction`
// (in (0, 1]) of the values do not exceed, so always one of the values (the
// p99 of 100 latencies is the 99th smallest); NaN for no values.
double Percentile(std::vector<double> values, double fraction);

}  // namespace nqueens::bench

#endif  // NQUEENS_BENCH_COMMON_STATS_H_
